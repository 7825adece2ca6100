"""Game records: a whole hand as JSON, and its replay through the reference engine.

A record holds the preset, the banker, the three dealt hands and every action in order::

    {"format": "xianniu-record", "version": 1, "rules": "lanzhou", "banker": 0,
     "hands": ["A♠ A♥ ...", "...", "..."],
     "actions": [{"seat": 0, "action": "play", "cards": "3♠ 3♥"},
                 {"seat": 1, "action": "pass"}, ...]}

Action names are those of :mod:`analyzer.xianniu.engine`: ``play``, ``pass``, ``kou``, ``xian``,
``tighten``, ``discard`` (one card).
"""

from __future__ import annotations

import json
from typing import Any

from .cards import N_SEATS, format_cards, parse_hand, parse_mask
from .engine import ACTION_KINDS, DISCARD, PLAY, Action, State, new_hand
from .rules import get_rules

FORMAT = "xianniu-record"
VERSION = 1
_CARD_ACTIONS = (PLAY, DISCARD)


class RecordError(ValueError):
    """A record that is malformed, or whose action ``index`` is illegal."""

    def __init__(self, message: str, index: int | None = None):
        self.index = index
        super().__init__(f"action {index}: {message}" if index is not None else message)


def action_to_json(seat: int, action: Action) -> dict[str, Any]:
    """One action as a record entry."""
    entry: dict[str, Any] = {"seat": seat, "action": action.kind}
    if action.cards:
        entry["cards"] = format_cards(action.cards)
    return entry


def action_from_json(entry: Any, index: int | None = None) -> tuple[int, Action]:
    """Parse one record entry into (seat, Action); RecordError on bad input."""
    if not isinstance(entry, dict):
        raise RecordError(f"an action must be an object, got {entry!r}", index)
    kind = entry.get("action")
    if kind not in ACTION_KINDS:
        raise RecordError(f"unknown action {kind!r} (expected one of {', '.join(ACTION_KINDS)})",
                          index)
    seat = entry.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or seat not in range(N_SEATS):
        raise RecordError(f"seat must be 0, 1 or 2, got {seat!r}", index)
    cards = 0
    if kind in _CARD_ACTIONS:
        text = entry.get("cards")
        if not isinstance(text, str):
            raise RecordError(f"a {kind} action needs \"cards\" as a string", index)
        try:
            cards = parse_mask(text)
        except ValueError as e:
            raise RecordError(str(e), index) from None
    elif entry.get("cards"):
        raise RecordError(f"a {kind} action takes no cards", index)
    return seat, Action(kind, cards)


def record_of(state: State) -> dict[str, Any]:
    """The record of a hand, played so far."""
    return make_record(state.rules.name, state.banker, state.dealt, state.history)


def make_record(rules: str, banker: int, hands, actions) -> dict[str, Any]:
    """A record from the preset name, banker, three dealt masks and (seat, Action) pairs."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "rules": rules,
        "banker": banker,
        "hands": [format_cards(int(h)) for h in hands],
        "actions": [action_to_json(seat, a) for seat, a in actions],
    }


def dumps(record: dict[str, Any]) -> str:
    """A record as JSON text, one action per line."""
    head = {k: v for k, v in record.items() if k != "actions"}
    lines = json.dumps(head, ensure_ascii=False)[:-1]
    acts = ",\n  ".join(json.dumps(a, ensure_ascii=False) for a in record.get("actions", []))
    return f"{lines}, \"actions\": [\n  {acts}\n]}}\n"


def start_of(record: Any) -> State:
    """The state right after the deal that ``record`` describes; RecordError if malformed."""
    if not isinstance(record, dict):
        raise RecordError("a record must be a JSON object")
    if record.get("format", FORMAT) != FORMAT:
        raise RecordError(f"not a {FORMAT} (format is {record.get('format')!r})")
    if record.get("version", VERSION) != VERSION:
        raise RecordError(f"record version {record.get('version')!r} is not supported")
    try:
        rules = get_rules(record.get("rules"))
    except ValueError as e:
        raise RecordError(str(e)) from None
    banker = record.get("banker", 0)
    hands = record.get("hands")
    if not isinstance(hands, list) or len(hands) != N_SEATS:
        raise RecordError("\"hands\" must list the three dealt hands")
    masks = []
    for seat, text in enumerate(hands):
        if not isinstance(text, str):
            raise RecordError(f"hand of seat {seat} must be a string of cards")
        try:
            masks.append(parse_hand(text))
        except ValueError as e:
            raise RecordError(f"hand of seat {seat}: {e}") from None
    if not isinstance(banker, int) or isinstance(banker, bool):
        raise RecordError(f"banker must be seat 0, 1 or 2, got {banker!r}")
    try:
        return new_hand(masks, rules, banker)
    except ValueError as e:
        raise RecordError(str(e)) from None


def replay(record: Any, require_end: bool = False) -> State:
    """Replay a record move by move; RecordError naming the first illegal action."""
    state = start_of(record)
    actions = record.get("actions", [])
    if not isinstance(actions, list):
        raise RecordError("\"actions\" must be a list")
    for i, entry in enumerate(actions):
        seat, action = action_from_json(entry, i)
        if state.is_terminal():
            raise RecordError("the hand is already over", i)
        if seat != state.current_player():
            raise RecordError(f"it is seat {state.current_player()}'s turn, not seat {seat}'s", i)
        try:
            state.apply(action)
        except ValueError as e:
            raise RecordError(str(e), i) from None
    if require_end and not state.is_terminal():
        raise RecordError(f"the record ends before the hand does (seat "
                          f"{state.current_player()} is to act)")
    return state
