"""A game record as text a person can type: the deal, then one token per action in order.

::

    game <game>
    rules <preset>
    <key> <value>            # the game's other deal fields (one a line)
    hand 0 <cards or tiles>  # every seat's dealt hand
    hand 1 ...
    actions
    <token> <token> ...      # one token per action, in order, any number a line

``#`` starts a comment. A token names no seat: the engine knows who acts. What a token
looks like is the game's (its ``records`` module: ``action_token(state, seat, action)``
and ``token_action(state, token)``, documented in ``docs/records.md``); a game whose head
is more than ``key value`` lines writes and reads it itself (``text_head(record)`` and
``head_of_text(fields, hands)``: a deal of more than hands, lists of values). The text is read
by replaying every token through the game's engine, so the first impossible action is
named with its index and token; :func:`to_text` and :func:`from_text` round-trip with the
JSON records.
"""

from __future__ import annotations

import re
from typing import Any

from .records import FORMAT, VERSION, RecordError
from .registry import Game


def _codec(game: Game) -> Any:
    recs = game.part("records")
    if not hasattr(recs, "action_token"):
        raise ValueError(f"{game.name} has no text notation for its records yet")
    return recs


def to_text(game: Game, record: dict[str, Any], per_line: int = 12) -> str:
    """The text of ``record`` (RecordError if it does not replay)."""
    recs = _codec(game)
    final = recs.replay(record)
    head = recs.record_of(final)  # with what the replay drew (双升's redeals, trump card)
    lines = [f"game {game.name}", f"rules {head['rules']}"]
    if hasattr(recs, "text_head"):  # the game writes its own head fields
        lines += recs.text_head(head)
    else:
        for key, value in head.items():
            if key in ("format", "version", "game", "rules", "actions", "hands", "result"):
                continue
            lines.append(f"{key} {value}")
        lines += [f"hand {i} {h}" for i, h in enumerate(head["hands"])]
    tokens = []
    replayed = recs.start_of(record)
    for seat, action in final.history:
        tokens.append(recs.action_token(replayed, seat, action))
        replayed.apply(action)
    lines.append("actions")
    lines += [" ".join(tokens[i:i + per_line]) for i in range(0, len(tokens), per_line)]
    return "\n".join(lines) + "\n"


_HAND = re.compile(r"hand\s+(\d+)\s*:?\s*(.*)$", re.IGNORECASE)


def parse_head(text: str) -> tuple[dict[str, str], list[str], list[str]]:
    """The head fields, the hands (by seat) and the action tokens of a record's text;
    ValueError naming the line that cannot be read.

    >>> parse_head("game g\\nrules r # a comment\\nhand 1 b\\nhand 0 a\\nactions\\nx y\\nz")
    ({'game': 'g', 'rules': 'r'}, ['a', 'b'], ['x', 'y', 'z'])
    """
    fields: dict[str, str] = {}
    hands: dict[int, str] = {}
    tokens: list[str] = []
    in_actions = False
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if in_actions:
            tokens += line.replace(",", " ").split()
            continue
        if line.lower().rstrip(":") == "actions":
            in_actions = True
            continue
        m = _HAND.match(line)
        if line.lower().startswith("hand") and not m:
            raise ValueError(f"line {n}: cannot read {raw.strip()!r} (expected 'hand SEAT "
                             f"CARDS', seats from 0)")
        if m:
            seat = int(m.group(1))
            if seat in hands:
                raise ValueError(f"line {n}: hand {seat} is given twice")
            hands[seat] = m.group(2).strip()
            continue
        key, _, value = line.partition(" ")
        if not value.strip():
            raise ValueError(f"line {n}: cannot read {raw.strip()!r} (expected 'KEY VALUE', "
                             f"'hand SEAT ...' or 'actions')")
        fields[key.lower()] = value.strip()
    if sorted(hands) != list(range(len(hands))):
        raise ValueError(f"the hands must be given for seats 0, 1, … (got seats "
                         f"{', '.join(map(str, sorted(hands)))})")
    return fields, [hands[s] for s in sorted(hands)], tokens


def from_text(game: Game, text: str) -> dict[str, Any]:
    """The JSON record the text describes; ValueError (RecordError for an action, naming its
    index and token) if the text is malformed or an action is impossible."""
    recs = _codec(game)
    fields, hands, tokens = parse_head(text)
    named = fields.pop("game", game.name)
    if named != game.name:
        raise ValueError(f"this is a {named} record, not one of {game.name}")
    rules = fields.pop("rules", None)
    if hasattr(recs, "head_of_text"):  # the game reads its own head fields
        body = recs.head_of_text(fields, hands)
    else:
        body = {k: int(v) if re.fullmatch(r"-?\d+", v) else v for k, v in fields.items()}
        body["hands"] = hands
    head = {"format": FORMAT, "version": VERSION, "game": game.name,
            "rules": rules, **body, "actions": []}
    if head["rules"] is None:
        head.pop("rules")
    state = recs.start_of(head)
    for i, token in enumerate(tokens):
        if state.is_terminal():
            raise RecordError(f"token {token!r}: the hand is already over", i)
        try:
            action = recs.token_action(state, token)
            state.apply(action)
        except ValueError as e:
            raise RecordError(f"token {token!r}: {e}", i) from None
    return recs.record_of(state)


def game_of_text(text: str, default: str) -> str:
    """The game a record's text names in its ``game`` line (``default`` if none)."""
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if line.lower().startswith("game "):
            return line.split(None, 1)[1].strip()
        if line.lower().rstrip(":") == "actions":
            break
    return default
