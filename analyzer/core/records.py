"""Game records, one envelope for every game: reading, writing and the replay loop.

A record is a JSON object::

    {"format": "xianniu-record", "version": 2, "game": "<game>", "rules": "<preset>",
     ... the game's deal and options ...,
     "actions": [{"seat": 0, "action": "<kind>", ...}, ...],
     ... optional "result" ...}

The envelope (``format``, ``version``, ``game``, ``rules``, ``actions``) is read and
written here; each game's ``records`` module adds its deal fields and its action codec
(``action_to_json`` / ``action_from_json``). Records written before the envelope was
shared (version 1, and the per-game format names) are still read.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from .game import GameState

FORMAT = "xianniu-record"
VERSION = 2
ENVELOPE = ("format", "version", "game", "rules")
TAIL = ("actions", "result")  # the keys written last, one action a line


class RecordError(ValueError):
    """A record that is malformed, or whose action ``index`` is illegal."""

    def __init__(self, message: str, index: int | None = None):
        self.index = index
        super().__init__(f"action {index}: {message}" if index is not None else message)


def envelope(game: str, rules: str, body: dict[str, Any],
             actions: Iterable[dict[str, Any]], result: dict[str, Any] | None = None
             ) -> dict[str, Any]:
    """A record: the envelope, the game's ``body`` fields, the actions and a result."""
    record: dict[str, Any] = {"format": FORMAT, "version": VERSION, "game": game,
                              "rules": rules}
    clash = set(body) & (set(ENVELOPE) | set(TAIL))
    if clash:
        raise ValueError(f"a record's body may not set {sorted(clash)}")
    record.update(body)
    record["actions"] = list(actions)
    if result is not None:
        record["result"] = result
    return record


Legacy = dict[tuple[Any, Any], str]  # (format, version) of an older record -> its game


def game_of(record: Any, legacy: Legacy | None = None) -> str:
    """The game a record holds, its envelope checked; ``legacy`` maps the ``(format,
    version)`` of records written before the shared envelope (no ``game`` field) to their
    game. RecordError if it is not a record."""
    if not isinstance(record, dict):
        raise RecordError("a record must be a JSON object")
    fmt, version = record.get("format"), record.get("version")
    old = legacy or {}
    if "game" not in record and (fmt, version) in old:
        return old[(fmt, version)]
    if fmt != FORMAT:
        raise RecordError(f"not a {FORMAT} (format is {fmt!r})")
    if version != VERSION:
        raise RecordError(f"record version {version!r} is not supported (this is version "
                          f"{VERSION})")
    game = record.get("game")
    if not isinstance(game, str) or not game:
        raise RecordError("a record names its \"game\"")
    return game


def refuse_json_list(text: str, source: str) -> None:
    """ValueError when ``text``, read from ``source`` as one record, is a JSON list: read
    as the text notation, it would be refused for a reason that is not the reason."""
    if text.lstrip().startswith("["):
        name = "standard input" if source == "-" else source
        raise ValueError(f"{name} holds a JSON list, not a record: a record is one JSON "
                         f"object {{\"game\": …, \"hands\": …, \"actions\": …}}; several "
                         f"records go in a folder of .json files or in a .jsonl file, one a "
                         f"line")


def open_record(record: Any, game: str, legacy: Legacy | None = None) -> dict[str, Any]:
    """``record`` after checking that it is a record of ``game`` (``legacy`` as in
    :func:`game_of`); RecordError if not."""
    found = game_of(record, legacy)
    if found != game:
        raise RecordError(f"this is a record of {found}, not of {game}")
    if not isinstance(record.get("actions", []), list):
        raise RecordError("\"actions\" must be a list")
    return record


def replay_actions(state: GameState, actions: list[Any],
                   action_from_json: Callable[[Any, int], tuple[int | None, Any]],
                   require_end: bool = False) -> GameState:
    """Apply a record's ``actions`` to ``state`` in order (in place); RecordError naming the
    first one that is malformed, out of turn or illegal."""
    for i, entry in enumerate(actions):
        try:
            seat, action = action_from_json(entry, i)
        except RecordError:
            raise
        except ValueError as e:
            raise RecordError(str(e), i) from None
        if state.is_terminal():
            raise RecordError("the hand is already over", i)
        if seat is not None and seat != state.current_player():
            raise RecordError(f"it is seat {state.current_player()}'s turn, not seat {seat}'s",
                              i)
        try:
            state.apply(action)
        except ValueError as e:
            raise RecordError(str(e), i) from None
    if require_end and not state.is_terminal():
        raise RecordError(f"the record ends before the hand does (seat "
                          f"{state.current_player()} is to act)")
    return state


def dumps(record: dict[str, Any]) -> str:
    """A record as JSON text: the head on one line, then one action a line."""
    head = {k: v for k, v in record.items() if k not in TAIL}
    text = json.dumps(head, ensure_ascii=False)[:-1]
    acts = ",\n  ".join(json.dumps(a, ensure_ascii=False) for a in record.get("actions", []))
    text += f', "actions": [\n  {acts}\n]'
    if "result" in record:
        text += f', "result": {json.dumps(record["result"], ensure_ascii=False)}'
    return text + "}\n"


def loads(text: str) -> Any:
    """A record from JSON text; RecordError in one line if it is not JSON."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError(f"not JSON: {e}") from None


def load(path: str | Path) -> Any:
    """A record from a JSON file; RecordError if it cannot be read."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise RecordError(f"cannot read {path}: {e}") from None
    return loads(text)


def read_many(path: str | Path) -> list[Any]:
    """Every record in ``path``: a folder of ``*.json`` files (sorted), a JSON-lines file,
    or one record."""
    p = Path(path)
    if p.is_dir():
        return [load(f) for f in sorted(p.glob("*.json"))]
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise RecordError(f"cannot read {path}: {e}") from None
    stripped = text.lstrip()
    if stripped.startswith("{"):
        try:
            return [json.loads(text)]
        except json.JSONDecodeError:
            pass  # several objects: JSON lines
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError as e:
                raise RecordError(f"{path} line {n}: not JSON: {e}") from None
    return out


def plain_text_head(head: dict[str, Any]) -> list[str]:
    """The head lines of a record in the text notation, for a game with no head fields of
    its own: each further field as ``key value``, then a line per hand."""
    lines = [f"{key} {value}" for key, value in head.items()
             if key not in ("format", "version", "game", "rules", "actions", "hands", "result",
                            "known")]
    return lines + [f"hand {i} {h}" for i, h in enumerate(head["hands"])]


def plain_head_of_text(fields: dict[str, str], hands: list[str]) -> dict[str, Any]:
    """The record's head fields read back from :func:`plain_text_head`'s lines."""
    body: dict[str, Any] = {k: int(v) if re.fullmatch(r"-?\d+", v) else v
                            for k, v in fields.items()}
    body["hands"] = hands
    return body
