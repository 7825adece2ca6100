"""Bringing records into the library and writing them back out.

An import reads records of any game from files (``.json``: one record; ``.jsonl``: one a
line; any other text file: one record in the text notation) and folders of them, checks
each by its game's reference engine, and stores them a batch per transaction: a record that
is refused (with where it was and why) costs nothing but itself, and an import that is
killed keeps every batch it committed (run it again: the hands stored are recognised).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from .fileio import write_atomic
from .library import ALL, Checked, Filter, ImportReport, Library, check_record, refusal
from .records import dumps

SUFFIXES = (".json", ".jsonl", ".txt")  # what a folder's import reads
BATCH = 200  # records a transaction


def read_sources(paths: Sequence[str]) -> list[tuple[str, Any]]:
    """Every record in ``paths`` as (where, record), or (where, the error) for one that
    cannot be read; ValueError for a path that does not exist."""
    out: list[tuple[str, Any]] = []
    for path in paths:
        p = Path(path)
        if not p.exists():
            raise ValueError(f"no such file or folder: {path}")
        files = sorted(f for f in p.rglob("*") if f.is_file() and f.suffix in SUFFIXES) \
            if p.is_dir() else [p]
        for f in files:
            out.extend(_read_file(f))
    return out


def _read_file(path: Path) -> Iterator[tuple[str, Any]]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        yield str(path), ValueError(f"cannot read it: {e}")
        return
    if path.suffix == ".jsonl":
        for n, line in enumerate(text.splitlines(), 1):
            if line.strip():
                yield f"{path}:{n}", _json(line)
        return
    if text.lstrip().startswith("[") and path.suffix == ".json":
        yield str(path), ValueError("a JSON list, not a record: several records go in a "
                                    ".jsonl file, one a line")
    elif text.lstrip().startswith("{"):
        yield str(path), _json(text)
    else:
        yield str(path), _text_record(text)


def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        return ValueError(f"not JSON (line {e.lineno}, column {e.colno}: {e.msg})")


def _text_record(text: str) -> Any:
    from ..games import DEFAULT_GAME, get_game  # the registry reaches every game
    from .notation import from_text, game_of_text

    try:
        return from_text(get_game(game_of_text(text, DEFAULT_GAME)), text)
    except ValueError as e:
        return e


def import_records(lib: Library, items: Sequence[tuple[str, Any]], *, seat: int | None = None,
                   played: str | None = None, tags: Sequence[str] = (),
                   progress: Callable[[int], None] | None = None) -> ImportReport:
    """Check and store ``items`` (from :func:`read_sources`), :data:`BATCH` a transaction;
    what was added, already there, and refused."""
    report = ImportReport()
    batch: list[tuple[Checked, str]] = []

    def flush() -> None:
        for stored in lib.add_checked(batch, seat=seat, played=played, tags=tags):
            if stored.new:
                report.added += 1
            else:
                report.duplicates += 1
        batch.clear()

    for where, record in items:
        try:
            if isinstance(record, Exception):
                raise record
            batch.append((check_record(record), where))
        except Exception as e:  # noqa: BLE001 (any fault of one record refuses that record)
            report.refused.append((where, refusal(e)))
        if len(batch) >= BATCH:
            flush()
        if progress is not None:
            progress(1)
    if batch:
        flush()
    return report


def export(lib: Library, out: str, which: Filter = ALL) -> int:
    """Write the hands that match: ``out`` ending in ``.jsonl`` is one file, a record a
    line (written whole or not at all); anything else is a folder (it must exist) of one
    ``<id>-<game>.json`` a hand, each written whole. How many."""
    hands = lib.hands(which)
    target = Path(out)
    if target.suffix == ".jsonl":
        lines = [json.dumps(lib.record(h.id), ensure_ascii=False) for h in hands]
        write_atomic(target, "".join(line + "\n" for line in lines))
        return len(hands)
    if not target.is_dir():
        raise ValueError(f"{out} is not a folder (export writes FILE.jsonl, or one .json a "
                         f"hand into an existing folder)")
    for h in hands:
        write_atomic(target / f"{h.id}-{h.game}.json", dumps(lib.record(h.id)))
    return len(hands)
