"""The player's library of hands: one SQLite file holding every hand of every game.

The file is the application's own (SQLite as an application file format): its
``application_id`` says it is a xianniu library and its ``user_version`` is the schema
version, which :func:`_migrate` brings up to :data:`SCHEMA_VERSION` one step at a time, in
one transaction. Every write is a transaction, in write-ahead-log mode with full sync, so a
process killed at any moment leaves the file whole and every hand it committed in it; two
processes (two tables, a table and an import) write in turn, each waiting for the other.

A hand is stored with its record as given (JSON, any game, any record version), the game,
the rule preset, the player's seat when known, when it was played, where it came from, tags,
and each seat's result. It is known by its *digest*: the hash of the hand itself (the record
rebuilt by the game's reference engine, so a hand read from JSON or from the text notation,
with or without extra fields, is the same hand): a hand already stored is recognised, not
stored twice.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .library_base import LibraryError, Stored, now_utc
from .library_puzzles import PuzzleShelf
from .records import RecordError

APPLICATION_ID = 0x584E4C42  # "XNLB": this file is a xianniu library
ENV = "XIANNIU_LIBRARY"  # a library path that overrides the default one
BUSY_SECONDS = 30.0  # how long a write waits for another process's transaction

# MIGRATIONS[v] takes a library of schema version v to v + 1.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE hands (
        id INTEGER PRIMARY KEY,
        digest TEXT NOT NULL UNIQUE,   -- the hand itself, hashed (see hand_digest)
        game TEXT NOT NULL,
        preset TEXT NOT NULL,
        seat INTEGER,                  -- the player's seat; NULL when not known
        played TEXT NOT NULL,          -- when it was played, ISO 8601 (UTC)
        added TEXT NOT NULL,           -- when it was stored, ISO 8601 (UTC)
        source TEXT NOT NULL,          -- 'table', or the file it was imported from
        returns TEXT NOT NULL,         -- each seat's result, a JSON list
        record TEXT NOT NULL           -- the record as given, JSON
    );
    CREATE INDEX hands_by_game ON hands (game, preset, played);
    CREATE TABLE tags (
        hand INTEGER NOT NULL REFERENCES hands (id) ON DELETE CASCADE,
        tag TEXT NOT NULL,
        PRIMARY KEY (hand, tag)
    ) WITHOUT ROWID;
    CREATE INDEX tags_by_tag ON tags (tag);
    """,
    """
    CREATE TABLE splits (
        hand INTEGER NOT NULL REFERENCES hands (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        player TEXT NOT NULL,          -- the default player it was valued under, versioned
        seed INTEGER NOT NULL,
        split TEXT NOT NULL,           -- analyzer.core.luck.Split, JSON
        computed TEXT NOT NULL,        -- when, ISO 8601 (UTC)
        PRIMARY KEY (hand, seat, player, seed)
    ) WITHOUT ROWID;
    """,
    """
    CREATE TABLE puzzles (
        id INTEGER PRIMARY KEY,
        key TEXT NOT NULL UNIQUE,      -- the position's hash (analyzer.core.puzzles)
        game TEXT NOT NULL,
        preset TEXT NOT NULL,
        theme TEXT NOT NULL,
        source TEXT NOT NULL,          -- 'shipped', 'mined', or the library hand's id
        puzzle TEXT NOT NULL,          -- analyzer.core.puzzles.Puzzle, JSON
        added TEXT NOT NULL
    );
    CREATE INDEX puzzles_by_game ON puzzles (game, theme);
    """,
    """
    CREATE TABLE ratings (
        puzzle INTEGER PRIMARY KEY,    -- 0: the player; else puzzles.id
        rating REAL NOT NULL,
        rd REAL NOT NULL,
        vol REAL NOT NULL
    );
    CREATE TABLE attempts (
        id INTEGER PRIMARY KEY,
        puzzle INTEGER NOT NULL REFERENCES puzzles (id) ON DELETE CASCADE,
        at TEXT NOT NULL,              -- ISO 8601 (UTC)
        answer TEXT NOT NULL,          -- the record entry given, JSON
        solved INTEGER NOT NULL
    );
    CREATE TABLE schedule (            -- puzzles missed, coming back (analyzer.core.practice)
        puzzle INTEGER PRIMARY KEY REFERENCES puzzles (id) ON DELETE CASCADE,
        box INTEGER NOT NULL,
        due TEXT                       -- NULL: learnt, not coming back
    );
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)


def default_path() -> Path:
    """Where the library is kept unless told otherwise: ``$XIANNIU_LIBRARY``, else
    ``library.sqlite`` in the user's data folder (``$XDG_DATA_HOME/xianniu``, by default
    ``~/.local/share/xianniu``)."""
    if os.environ.get(ENV):
        return Path(os.environ[ENV]).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "xianniu" / "library.sqlite"


def parse_when(text: str, what: str = "date") -> str:
    """A date (``2026-12-07``) or date and time (``2026-12-07T20:15``, with an offset or
    taken as UTC) as the library stores it; ValueError naming ``what`` otherwise."""
    try:
        when = dt.datetime.fromisoformat(str(text).strip().replace("Z", "+00:00"))
    except ValueError:
        raise ValueError(f"{what} {text!r} is not a date such as 2026-12-07 or "
                         f"2026-12-07T20:15") from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=dt.UTC)
    return when.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass(frozen=True)
class Checked:
    """A record checked by its game's reference engine, ready to store."""

    game: str
    preset: str
    digest: str
    returns: tuple[int, ...]
    record: dict[str, Any]
    seat: int | None  # the only seat whose hand the record knows, if it says so


def check_record(record: Any) -> Checked:
    """``record`` replayed to its end by its game's reference engine (hidden hands, where
    the record marks them unknown, dealt by the game's completion with seed 0); RecordError
    or ValueError naming what is wrong."""
    from ..games import game_of_record  # the registry imports every game's records lazily

    game = game_of_record(record)
    recs = game.part("records")
    state = recs.replay(recs.complete(record, 0), require_end=True)
    rebuilt = recs.record_of(state)
    known = record.get("known")
    seat = None
    if isinstance(known, list) and sum(1 for k in known if k) == 1:
        seat = next(i for i, k in enumerate(known) if k)
    return Checked(game=game.name, preset=str(rebuilt["rules"]),
                   digest=hand_digest(rebuilt, known),
                   returns=tuple(int(r) for r in state.returns()), record=record, seat=seat)


def hand_digest(rebuilt: dict[str, Any], known: Any = None) -> str:
    """The hash that names a hand: its record as the engine writes it (the envelope, the
    deal, the actions) and which hands the player knew."""
    body = {k: v for k, v in rebuilt.items() if k != "result"}
    text = json.dumps({"hand": body, "known": known}, sort_keys=True, ensure_ascii=False,
                      separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Hand:
    """One stored hand (its record is read on demand: :meth:`Library.record`)."""

    id: int
    game: str
    preset: str
    seat: int | None
    played: str
    added: str
    source: str
    returns: tuple[int, ...]
    tags: tuple[str, ...]

    @property
    def result(self) -> int | None:
        """The player's result (None when the seat is not known)."""
        return None if self.seat is None else self.returns[self.seat]

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "game": self.game, "preset": self.preset, "seat": self.seat,
                "played": self.played, "added": self.added, "source": self.source,
                "returns": list(self.returns), "result": self.result,
                "tags": list(self.tags)}


@dataclass
class ImportReport:
    """What an import did: hands added, hands already stored, and each record refused with
    where it was and why."""

    added: int = 0
    duplicates: int = 0
    refused: list[tuple[str, str]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {"added": self.added, "duplicates": self.duplicates,
                "refused": [{"where": w, "why": why} for w, why in self.refused]}


@dataclass(frozen=True)
class Filter:
    """Which hands: by game, preset, seat, tag, and played ``since`` / ``until`` (ISO
    dates or times, as :func:`parse_when` gives them; ``until`` a date means its end)."""

    game: str | None = None
    preset: str | None = None
    tag: str | None = None
    since: str | None = None
    until: str | None = None
    ids: tuple[int, ...] | None = None

    def where(self) -> tuple[str, list[Any]]:
        """The SQL condition and its parameters."""
        parts: list[str] = ["1"]
        args: list[Any] = []
        for column, value in (("game", self.game), ("preset", self.preset)):
            if value is not None:
                parts.append(f"h.{column} = ?")
                args.append(value)
        if self.tag is not None:
            parts.append("EXISTS (SELECT 1 FROM tags t WHERE t.hand = h.id AND t.tag = ?)")
            args.append(self.tag)
        if self.since is not None:
            parts.append("h.played >= ?")
            args.append(self.since)
        if self.until is not None:
            parts.append("h.played <= ?")
            args.append(self.until)
        if self.ids is not None:
            parts.append(f"h.id IN ({','.join('?' * len(self.ids)) or 'NULL'})")
            args.extend(self.ids)
        return " AND ".join(parts), args


ALL = Filter()  # every hand


class Library(PuzzleShelf):
    """An open library file (made, and brought to the current schema, when opened).

    Use it in a ``with`` block, or call :meth:`close`. One object belongs to one thread;
    several objects (threads, processes) may hold the same file at once."""

    def __init__(self, path: str | os.PathLike[str] | None = None, *, create: bool = True):
        self.path = Path(path) if path is not None else default_path()
        if not create and not self.path.exists():
            raise LibraryError(f"no library at {self.path}")
        if self.path.exists() and self.path.is_dir():
            raise LibraryError(f"{self.path} is a folder, not a library file")
        if not self.path.parent.is_dir():
            if path is not None:  # a path the user chose: its folder must exist
                raise LibraryError(f"the folder {self.path.parent} does not exist: make it "
                                   f"first")
            self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = sqlite3.connect(self.path, timeout=BUSY_SECONDS, isolation_level=None)
        except sqlite3.Error as e:
            raise LibraryError(f"cannot open the library {self.path}: {e}") from None
        try:
            self._setup()
        except sqlite3.DatabaseError as e:
            self._db.close()
            raise LibraryError(f"{self.path} is not a xianniu library ({e})") from None
        except BaseException:
            self._db.close()
            raise

    # -- the file -------------------------------------------------------------------------

    def _setup(self) -> None:
        db = self._db
        db.execute("PRAGMA foreign_keys = ON")
        db.execute(f"PRAGMA busy_timeout = {int(BUSY_SECONDS * 1000)}")
        db.execute("BEGIN")  # one snapshot: another process may be making the file now
        try:
            self._check_kind(db)
        finally:
            db.execute("COMMIT")
        if db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            db.execute("PRAGMA journal_mode = WAL")  # readers never wait for a writer
        db.execute("PRAGMA synchronous = FULL")  # a commit is on disk when it returns
        self._migrate()

    def _check_kind(self, db: sqlite3.Connection) -> None:
        """LibraryError unless the file is a library, or empty (a new one)."""
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        if app_id != APPLICATION_ID and (app_id != 0 or tables):
            raise LibraryError(f"{self.path} is an SQLite file of another program, not a "
                               f"xianniu library")

    def _migrate(self) -> None:
        with self.transaction() as db:
            self._check_kind(db)  # again: the file may have been made since
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise LibraryError(f"{self.path} was written by a newer xianniu (schema "
                                   f"{version}; this one reads up to {SCHEMA_VERSION}): "
                                   f"upgrade xianniu")
            for step in range(version, SCHEMA_VERSION):
                for statement in _statements(MIGRATIONS[step]):
                    db.execute(statement)
            if version < SCHEMA_VERSION:
                db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    @property
    def schema_version(self) -> int:
        return int(self._db.execute("PRAGMA user_version").fetchone()[0])

    def integrity(self) -> str:
        """SQLite's ``integrity_check``: ``ok``, or what is wrong."""
        rows = self._db.execute("PRAGMA integrity_check").fetchall()
        return "; ".join(str(r[0]) for r in rows)

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction (taken at once, so two writers queue rather than fail):
        committed at the end of the block, rolled back if it raises."""
        try:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
        except sqlite3.OperationalError as e:  # locked past the wait, read-only, disk full
            raise LibraryError(f"cannot write the library {self.path}: {e}") from None

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Library:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing --------------------------------------------------------------------------

    def add(self, record: Any, *, seat: int | None = None, played: str | None = None,
            source: str = "table", tags: Sequence[str] = ()) -> Stored:
        """Store one hand (checked first: RecordError or ValueError if it is not a whole
        hand of a game); the tags are added to it even when it was stored before."""
        checked = check_record(record)
        with self.transaction() as db:
            return self._insert(db, checked, seat, played, source, tags)

    def add_checked(self, hands: Sequence[tuple[Checked, str]], *, seat: int | None = None,
                    played: str | None = None, tags: Sequence[str] = ()) -> list[Stored]:
        """Store hands already checked (each with its source), all in one transaction."""
        with self.transaction() as db:
            return [self._insert(db, c, seat, played, source, tags) for c, source in hands]

    def _insert(self, db: sqlite3.Connection, checked: Checked, seat: int | None,
                played: str | None, source: str, tags: Sequence[str]) -> Stored:
        seat = checked.seat if seat is None else seat
        if seat is not None and not 0 <= seat < len(checked.returns):
            raise ValueError(f"no seat {seat} in a hand of {checked.game} (seats 0.."
                             f"{len(checked.returns) - 1})")
        now = now_utc()
        cur = db.execute(
            "INSERT INTO hands (digest, game, preset, seat, played, added, source, returns, "
            "record) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (digest) DO NOTHING",
            (checked.digest, checked.game, checked.preset, seat, played or now, now, source,
             json.dumps(list(checked.returns)),
             json.dumps(checked.record, ensure_ascii=False)))
        new = cur.rowcount == 1
        hand_id = int(cur.lastrowid or 0) if new else int(db.execute(
            "SELECT id FROM hands WHERE digest = ?", (checked.digest,)).fetchone()[0])
        for tag in tags:
            db.execute("INSERT OR IGNORE INTO tags (hand, tag) VALUES (?, ?)",
                       (hand_id, check_tag(tag)))
        return Stored(hand_id, new)

    def tag(self, hand_ids: Iterable[int], tags: Sequence[str], remove: bool = False) -> None:
        """Give ``tags`` to the hands (or take them away); LibraryError for an unknown id."""
        ids = list(hand_ids)
        with self.transaction() as db:
            self._require(db, ids)
            for hand_id in ids:
                for tag in tags:
                    if remove:
                        db.execute("DELETE FROM tags WHERE hand = ? AND tag = ?",
                                   (hand_id, tag))
                    else:
                        db.execute("INSERT OR IGNORE INTO tags (hand, tag) VALUES (?, ?)",
                                   (hand_id, check_tag(tag)))

    def set_seat(self, hand_ids: Iterable[int], seat: int | None) -> None:
        """Say which seat was the player's in these hands (None: not known); LibraryError
        for an unknown id, ValueError for a seat the hand has not."""
        ids = list(hand_ids)
        with self.transaction() as db:
            self._require(db, ids)
            for hand_id in ids:
                n = len(json.loads(db.execute("SELECT returns FROM hands WHERE id = ?",
                                              (hand_id,)).fetchone()[0]))
                if seat is not None and not 0 <= seat < n:
                    raise ValueError(f"no seat {seat} in hand {hand_id} (seats 0..{n - 1})")
                db.execute("UPDATE hands SET seat = ? WHERE id = ?", (seat, hand_id))

    def remove(self, hand_ids: Iterable[int]) -> int:
        """Delete the hands (and their tags); how many. LibraryError for an unknown id."""
        ids = list(hand_ids)
        with self.transaction() as db:
            self._require(db, ids)
            db.executemany("DELETE FROM hands WHERE id = ?", [(i,) for i in ids])
        return len(ids)

    @staticmethod
    def _require(db: sqlite3.Connection, ids: Sequence[int]) -> None:
        for hand_id in ids:
            if db.execute("SELECT 1 FROM hands WHERE id = ?", (hand_id,)).fetchone() is None:
                raise LibraryError(f"no hand {hand_id} in the library")

    # -- reading --------------------------------------------------------------------------

    def hands(self, which: Filter = ALL, limit: int | None = None) -> list[Hand]:
        """The hands that match, in the order they were played (then stored)."""
        where, args = which.where()
        sql = (f"SELECT h.id, h.game, h.preset, h.seat, h.played, h.added, h.source, "
               f"h.returns, (SELECT group_concat(tag, char(31)) FROM (SELECT tag FROM tags "
               f"WHERE hand = h.id ORDER BY tag)) FROM hands h WHERE {where} "
               f"ORDER BY h.played, h.id")
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
        return [Hand(id=r[0], game=r[1], preset=r[2], seat=r[3], played=r[4], added=r[5],
                     source=r[6], returns=tuple(json.loads(r[7])),
                     tags=tuple(r[8].split("\x1f")) if r[8] else ())
                for r in self._db.execute(sql, args)]

    def count(self, which: Filter = ALL) -> int:
        where, args = which.where()
        return int(self._db.execute(f"SELECT count(*) FROM hands h WHERE {where}",
                                    args).fetchone()[0])

    def counts(self) -> dict[str, int]:
        """Hands by game."""
        return dict(self._db.execute("SELECT game, count(*) FROM hands GROUP BY game "
                                     "ORDER BY game").fetchall())

    def record(self, hand_id: int) -> dict[str, Any]:
        """The stored record of hand ``hand_id``; LibraryError if there is none."""
        row = self._db.execute("SELECT record FROM hands WHERE id = ?", (hand_id,)).fetchone()
        if row is None:
            raise LibraryError(f"no hand {hand_id} in the library")
        return json.loads(row[0])

    def split_of(self, hand_id: int, seat: int, player: str, seed: int) -> dict[str, Any] | None:
        """The stored luck-and-skill split of a hand's seat under ``player`` and ``seed``
        (:mod:`.luck`), or None."""
        row = self._db.execute("SELECT split FROM splits WHERE hand = ? AND seat = ? AND "
                               "player = ? AND seed = ?",
                               (hand_id, seat, player, seed)).fetchone()
        return None if row is None else json.loads(row[0])

    def store_split(self, hand_id: int, seat: int, player: str, seed: int,
                    split: dict[str, Any]) -> None:
        """Keep a hand's split (one transaction: a run killed keeps every split done)."""
        with self.transaction() as db:
            db.execute("INSERT OR REPLACE INTO splits (hand, seat, player, seed, split, "
                       "computed) VALUES (?, ?, ?, ?, ?, ?)",
                       (hand_id, seat, player, seed, json.dumps(split), now_utc()))

    def digest(self, hand_id: int) -> str:
        """The digest of hand ``hand_id``; LibraryError if there is none."""
        row = self._db.execute("SELECT digest FROM hands WHERE id = ?", (hand_id,)).fetchone()
        if row is None:
            raise LibraryError(f"no hand {hand_id} in the library")
        return str(row[0])

    def digests(self) -> dict[int, str]:
        """Every hand's digest by id."""
        return dict(self._db.execute("SELECT id, digest FROM hands").fetchall())


MAX_TAG = 64


def check_tag(tag: Any) -> str:
    """A tag as stored: a word or short phrase; ValueError otherwise."""
    if not isinstance(tag, str) or not tag.strip() or len(tag) > MAX_TAG \
            or any(ord(ch) < 32 for ch in tag):
        raise ValueError(f"a tag is 1 to {MAX_TAG} printable characters, not {tag!r}")
    return tag.strip()


def _statements(script: str) -> list[str]:
    """The statements of a migration script (one per ``;``; the scripts hold no string
    with a semicolon in it)."""
    lines = [line.split("--")[0] for line in script.splitlines()]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]


def refusal(e: Exception) -> str:
    """One line saying why a record was refused."""
    if isinstance(e, (RecordError, ValueError, KeyError, TypeError)):
        return " ".join(str(e).split()) or type(e).__name__
    return f"{type(e).__name__}: {e}"
