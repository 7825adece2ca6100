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

import numpy as np

from . import completion
from .game import GameRecords
from .records import FORMAT, VERSION, RecordError
from .registry import Game


def _codec(game: Game) -> GameRecords:
    return game.part("records")


def _complete(recs: GameRecords, record: dict[str, Any], seed: int = 0) -> dict[str, Any]:
    """``record`` with its unknown hands dealt (itself when it has none)."""
    return recs.complete(record, seed)


def _known_line(record: dict[str, Any], n_seats: int) -> str | None:
    """``known 0 2`` when the record's flags are not what its ``"?"`` hands imply."""
    if "known" not in record:
        return None
    flags = completion.known_flags(record, n_seats)
    implied = [not completion.is_unknown(h) for h in record["hands"]]
    if flags == implied:
        return None
    return "known " + (" ".join(str(s) for s, k in enumerate(flags) if k) or "none")


def to_text(game: Game, record: dict[str, Any], per_line: int = 12) -> str:
    """The text of ``record`` (RecordError if it does not replay). A hand the record does
    not know is written ``?`` (the record is replayed on a deal of it that fits the play)."""
    recs = _codec(game)
    filled = _complete(recs, record)
    final = recs.replay(filled)
    # the head with what the replay drew (a game's random outcomes), the unknown kept unknown
    head = completion.mask_unknown(recs.record_of(final), record)
    lines = [f"game {game.name}", f"rules {head['rules']}"]
    lines += recs.text_head(head)
    known = _known_line(record, len(head["hands"]))
    if known:
        lines.append(known)
    tokens = []
    replayed = recs.start_of(filled)
    given = record.get("actions", [])
    for i, (seat, action) in enumerate(final.history):
        entry = recs.action_to_json(seat, action)
        hidden = recs.hidden_token(given[i]) if i < len(given) and given[i] != entry else None
        # face down in the record, or as the action is written
        tokens.append(hidden if hidden is not None else recs.action_token(replayed, seat,
                                                                          action))
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


def _known_flags(line: str | None, hands: list[str]) -> list[bool] | None:
    """The ``known`` flags of the text: its ``known`` line (the seats known, or ``none``),
    else what the ``?`` hands imply; None when every hand is known."""
    if line is None:
        flags = [not completion.is_unknown(h) for h in hands]
        return None if all(flags) else flags
    words = line.replace(",", " ").split()
    if words == ["none"]:
        return [False] * len(hands)
    if not all(w.isdigit() and int(w) < len(hands) for w in words):
        raise ValueError(f"known: the seats whose hands are known (0..{len(hands) - 1}) or "
                         f"none, got {line!r}")
    return [str(s) in words for s in range(len(hands))]


def from_text(game: Game, text: str) -> dict[str, Any]:
    """The JSON record the text describes; ValueError (RecordError for an action, naming its
    index and token) if the text is malformed or an action is impossible."""
    recs = _codec(game)
    fields, hands, tokens = parse_head(text)
    if not hands:  # the game's own message would blame the hands' number, not their absence
        raise ValueError("the text gives no hands: a record in the text notation gives each "
                         "seat's dealt hand as a line 'hand SEAT CARDS' ('?' for one not "
                         "known), then 'actions' and the actions (docs/records.md)")
    named = fields.pop("game", game.name)
    if named != game.name:
        raise ValueError(f"this is a {named} record, not one of {game.name}")
    rules = fields.pop("rules", None)
    known = _known_flags(fields.pop("known", None), hands)
    body = recs.head_of_text(fields, hands)
    head = {"format": FORMAT, "version": VERSION, "game": game.name,
            "rules": rules, **body, "actions": []}
    if head["rules"] is None:
        head.pop("rules")
    if known is not None:
        head["known"] = known
    filled = _complete(recs, head)
    if filled is not head:
        return _from_tokens_unknown(recs, head, tokens)
    state = recs.start_of(head)
    for i, token in enumerate(tokens):
        if state.is_terminal():
            raise RecordError(f"token {token!r}: the hand is already over", i)
        try:
            action = recs.token_action(state, token)
            state.apply(action)
        except ValueError as e:
            raise RecordError(f"token {token!r}: {e}", i) from None
    out = recs.record_of(state)
    if known is not None:
        out["known"] = known
    return out


_KNOWN_TRIES = 200  # deals tried for a known hand's action that the current deal refuses
_KNOWN_STEPS = 100  # and swaps
_REPAIR_STEPS = 200  # swaps tried to fit an action before a deal from scratch
_FRESH_TRIES = 2000  # deals from scratch tried then (then longer swaps)


def _from_tokens_unknown(recs: GameRecords, head: dict[str, Any],
                         tokens: list[str]) -> dict[str, Any]:
    """The record of ``tokens`` on a deal with unknown hands: each token is read on a deal
    of the unknown hands that fits the actions before it, dealt again when it does not fit
    this one (the record keeps the hands unknown, and names no result)."""
    n_seats = len(head["hands"])
    known = completion.known_flags(head, n_seats)
    head = {**head, "known": known}
    filled = _complete(recs, head)  # the deal, and the actions so far with what it gave
    state = recs.replay(filled)
    places = completion.unknown_places({k: v for k, v in head.items() if k != "actions"})
    rng = np.random.default_rng(np.random.SeedSequence(0))
    entries: list[dict[str, Any]] = []
    for i, token in enumerate(tokens):
        if state.is_terminal():  # over on this deal: deal again, so that the hand goes on
            try:
                filled = recs.complete({**head, "actions": entries}, 0, going_on=True)
                state = recs.replay(filled)
            except ValueError:
                raise RecordError(f"token {token!r}: the hand is already over", i) from None
        seat = state.current_player()
        why = None
        try:
            entry = recs.hidden_entry(seat, token)
            if entry is None:
                action = recs.token_action(state, token)
                entry = recs.action_to_json(seat, action)
                try:
                    state.apply(action)
                    entries.append(entry)
                    filled = {**filled, "actions": [*filled["actions"], entry]}
                    continue
                except ValueError as e:
                    why = str(e)
        except ValueError as e:
            raise RecordError(f"token {token!r}: {e}", i) from None
        # deal the unknown hands again, to fit this action too (an action of a known hand
        # can depend on them too: whether a play before it stood or failed): swaps first,
        # then a deal from scratch; a known hand's action that few deals allow is taken
        # for impossible, with its reason on this deal
        fixed = None
        if why is not None:  # an action that names its cards
            target = places.index(("hands", seat)) if ("hands", seat) in places else None
            cards = str(entry.get("cards") or entry.get("tile") or "").split()
            played = [[c for e in entries if e.get("seat") == p[1] and p[0] == "hands"
                       for c in str(e.get("cards") or e.get("tile") or "").split()]
                      for p in places]
            fixed = completion.repair({**filled, "actions": [*filled["actions"], entry]},
                                      places, recs.replay, rng, (target, cards),
                                      _KNOWN_STEPS if known[seat] else _REPAIR_STEPS, played)
        if fixed is None:
            tries = _KNOWN_TRIES if known[seat] and why else _FRESH_TRIES
            try:
                fixed = recs.complete({**head, "actions": [*entries, entry]}, 0, tries)
            except ValueError as e:
                if why is not None and not known[seat]:  # a longer search of swaps
                    fixed = completion.repair(
                        {**filled, "actions": [*filled["actions"], entry]}, places,
                        recs.replay, rng, (target, cards), 10 * _REPAIR_STEPS, played)
                if fixed is None:
                    raise RecordError(f"token {token!r}: {why}" if known[seat] and why else
                                      f"token {token!r}: no deal of the unknown hands allows "
                                      f"it ({e})", i) from None
        filled = fixed
        state = recs.replay(fixed)
        entries.append(entry)
    out = completion.mask_unknown(recs.record_of(state), head)
    out.pop("result", None)
    return {**out, "known": known, "actions": entries}


def game_of_text(text: str, default: str) -> str:
    """The game a record's text names in its ``game`` line (``default`` if none)."""
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if line.lower().startswith("game "):
            return line.split(None, 1)[1].strip()
        if line.lower().rstrip(":") == "actions":
            break
    return default
