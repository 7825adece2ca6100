"""The puzzles' half of the library (:class:`.library.Library` is a :class:`PuzzleShelf`):
puzzles kept once each, every attempt, both Glicko-2 ratings and the repetition of the
missed ones (:mod:`.practice`), in the same file and transactions as the hands."""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

from .library_base import LibraryError, Stored, now_utc


class PuzzleShelf:
    """The puzzle methods of a library, over what the library gives them: its connection
    ``_db`` and its ``transaction()``."""

    _db: sqlite3.Connection
    transaction: Callable[[], AbstractContextManager[sqlite3.Connection]]

    def add_puzzle(self, puzzle: dict[str, Any], source: str) -> Stored:
        """Keep a verified puzzle (``Puzzle.to_json()``) once: one already kept (the same
        position) is recognised."""
        with self.transaction() as db:
            cur = db.execute(
                "INSERT INTO puzzles (key, game, preset, theme, source, puzzle, added) "
                "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (key) DO NOTHING",
                (puzzle["key"], puzzle["game"], puzzle["rules"], puzzle["theme"], source,
                 json.dumps(puzzle, ensure_ascii=False), now_utc()))
            if cur.rowcount == 1:
                return Stored(int(cur.lastrowid or 0), True)
            row = db.execute("SELECT id FROM puzzles WHERE key = ?", (puzzle["key"],))
            return Stored(int(row.fetchone()[0]), False)

    def puzzles(self, game: str | None = None, theme: str | None = None
                ) -> list[tuple[int, dict[str, Any]]]:
        """The kept puzzles (id, puzzle), of one game or theme or all, in the order kept."""
        sql, args = "SELECT id, puzzle FROM puzzles WHERE 1", []
        for column, value in (("game", game), ("theme", theme)):
            if value is not None:
                sql += f" AND {column} = ?"
                args.append(value)
        return [(int(i), json.loads(p)) for i, p in self._db.execute(sql + " ORDER BY id",
                                                                       args)]

    def count_puzzles(self, game: str | None = None) -> int:
        """How many puzzles are kept (of ``game``, or of every game)."""
        sql, args = "SELECT count(*) FROM puzzles", []
        if game is not None:
            sql, args = sql + " WHERE game = ?", [game]
        return int(self._db.execute(sql, args).fetchone()[0])

    def practice(self, game: str, at: dt.datetime | None = None) -> dict[str, int]:
        """How the player stands on ``game``'s puzzles: kept, tried, attempts, attempts
        solved, and due for repetition now."""
        when = (at or dt.datetime.now(dt.UTC)).isoformat()
        one = self._db.execute
        return {
            "kept": self.count_puzzles(game),
            "tried": int(one("SELECT count(DISTINCT a.puzzle) FROM attempts a JOIN puzzles p "
                             "ON p.id = a.puzzle WHERE p.game = ?", (game,)).fetchone()[0]),
            "attempts": int(one("SELECT count(*) FROM attempts a JOIN puzzles p ON p.id = "
                                "a.puzzle WHERE p.game = ?", (game,)).fetchone()[0]),
            "solved": int(one("SELECT count(*) FROM attempts a JOIN puzzles p ON p.id = "
                              "a.puzzle WHERE p.game = ? AND a.solved", (game,)).fetchone()[0]),
            "due": int(one("SELECT count(*) FROM schedule s JOIN puzzles p ON p.id = s.puzzle "
                           "WHERE p.game = ? AND s.due IS NOT NULL AND s.due <= ?",
                           (game, when)).fetchone()[0])}

    def due(self, puzzle_id: int) -> str | None:
        """When puzzle ``puzzle_id`` comes back for repetition (ISO time), or None: never
        (solved at the first try, or every box passed)."""
        row = self._db.execute("SELECT due FROM schedule WHERE puzzle = ?",
                               (puzzle_id,)).fetchone()
        return None if row is None or row[0] is None else str(row[0])

    def puzzle(self, puzzle_id: int) -> dict[str, Any]:
        """Puzzle ``puzzle_id``; LibraryError if there is none."""
        row = self._db.execute("SELECT puzzle FROM puzzles WHERE id = ?",
                               (puzzle_id,)).fetchone()
        if row is None:
            raise LibraryError(f"no puzzle {puzzle_id} in the library")
        return json.loads(row[0])

    def rating(self, puzzle_id: int = 0) -> Any:
        """The Glicko rating of puzzle ``puzzle_id`` (0: the player's); a new one if it has
        none yet."""
        from .glicko import Rating

        row = self._db.execute("SELECT rating, rd, vol FROM ratings WHERE puzzle = ?",
                               (puzzle_id,)).fetchone()
        return Rating() if row is None else Rating(*row)

    def attempt(self, puzzle_id: int, answer: dict[str, Any], solved: bool,
                at: dt.datetime | None = None) -> tuple[Any, Any]:
        """Keep an attempt at puzzle ``puzzle_id``: the attempt, both ratings moved, the
        puzzle's place in the repetition (one transaction). The new ratings (player,
        puzzle)."""
        from . import glicko, practice

        when = at or dt.datetime.now(dt.UTC)
        self.puzzle(puzzle_id)  # LibraryError for an unknown puzzle
        player, puzzle = glicko.attempt(self.rating(0), self.rating(puzzle_id), solved)
        row = self._db.execute("SELECT box, due FROM schedule WHERE puzzle = ?",
                               (puzzle_id,)).fetchone()
        slot = None if row is None else practice.Slot(
            int(row[0]), None if row[1] is None else dt.datetime.fromisoformat(row[1]))
        nxt = practice.after(slot, solved, when)
        with self.transaction() as db:
            db.execute("INSERT INTO attempts (puzzle, at, answer, solved) VALUES (?, ?, ?, ?)",
                       (puzzle_id, when.isoformat(), json.dumps(answer, ensure_ascii=False),
                        int(solved)))
            for pid, r in ((0, player), (puzzle_id, puzzle)):
                db.execute("INSERT OR REPLACE INTO ratings (puzzle, rating, rd, vol) VALUES "
                           "(?, ?, ?, ?)", (pid, r.rating, r.rd, r.vol))
            if nxt is not None:
                db.execute("INSERT OR REPLACE INTO schedule (puzzle, box, due) VALUES "
                           "(?, ?, ?)", (puzzle_id, nxt.box,
                                         None if nxt.due is None else nxt.due.isoformat()))
        return player, puzzle

    def next_puzzle(self, game: str | None = None, at: dt.datetime | None = None
                    ) -> int | None:
        """The puzzle to offer now (:func:`analyzer.core.practice.pick`), of ``game`` or
        any; None when there is none left."""
        from .practice import pick

        when = at or dt.datetime.now(dt.UTC)
        where, args = ("AND p.game = ?", [game]) if game is not None else ("", [])
        due = [(int(i), dt.datetime.fromisoformat(d)) for i, d in self._db.execute(
            f"SELECT s.puzzle, s.due FROM schedule s JOIN puzzles p ON p.id = s.puzzle "
            f"WHERE s.due IS NOT NULL {where}", args)]
        new = [(int(i), float(r)) for i, r in self._db.execute(
            f"SELECT p.id, coalesce(r.rating, 1500.0) FROM puzzles p LEFT JOIN ratings r "
            f"ON r.puzzle = p.id WHERE NOT EXISTS (SELECT 1 FROM attempts a WHERE "
            f"a.puzzle = p.id) {where}", args)]
        return pick(due, new, self.rating(0).rating, when)
