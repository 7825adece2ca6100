"""双升 game records: a whole hand as JSON, and its replay through the reference engine.

A record holds everything that fixes the hand — the rules, the team levels, the banker, the
deal, every random outcome and every action::

    {"format": "xianniu-shengji-record", "version": 1, "rules": "zhengzhou",
     "levels": [2, 2], "banker": 0,
     "hands": ["大王 A♠ …25 cards…", "…", "…", "…"], "kitty": "…8 cards…",
     "redeals": [], "random_trump_card": null,
     "actions": [{"seat": 0, "action": "declare", "cards": "小王 2♠"},
                 {"seat": 1, "action": "pass"}, …,
                 {"seat": 0, "action": "bury", "cards": "…8 cards…"},
                 {"seat": 0, "action": "play", "cards": "A♥"}, …],
     "result": {…}}

- ``banker`` null: a 搶莊局 (the first hand). ``rule_changes`` (optional): rule parameters
  that differ from the named preset.
- ``redeals``: the new deal ``{"hands": [...], "kitty": "..."}`` after a 造反.
- ``random_trump_card``: when nobody declared (§4.5c), the index of the drawn card in the
  kitty of the last deal, counted in the order the record writes that kitty.
- ``start_seats`` (optional): first seats drawn under ``declare_start="random"``.
- ``play_only`` (optional): ``{"level": 10, "trump": "s"}`` for a hand that starts at
  trick 1 with the kitty buried (:func:`engine.play_only`); ``banker`` leads.
- ``result`` (optional, written for a finished hand): checked by :func:`replay`.

Actions are ``rebel``, ``pass``, ``declare``, ``bury`` and ``play``; ``cards`` is absent for
``rebel`` and ``pass``. A failed throw is stored as attempted: the replay finds it fails.
"""

from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path
from typing import Any

from .actions import ACTION_KINDS, N_SEATS, PASS, REBEL, Action
from .cards import NT, SUIT_LETTERS, format_cards, parse_cards, parse_level, parse_trump
from .engine import Chance, State, new_hand, play_only, verify_deal
from .rules import PRESETS, ShengjiRules, get_rules

FORMAT = "xianniu-shengji-record"
VERSION = 1
REQUIRED = ("format", "version", "rules", "levels", "banker", "hands", "kitty", "actions")
_NO_CARDS = (REBEL, PASS)


# -- writing ---------------------------------------------------------------------------------


def action_to_json(seat: int, action: Action) -> dict[str, Any]:
    """One action as a record entry."""
    entry: dict[str, Any] = {"seat": seat, "action": action.kind}
    if action.cards:
        entry["cards"] = format_cards(action.cards)
    return entry


def _rule_changes(rules: ShengjiRules) -> tuple[str, dict[str, Any]]:
    base = PRESETS.get(rules.name) or get_rules(None)
    changes = {f.name: getattr(rules, f.name) for f in fields(rules)
               if f.name != "title" and getattr(rules, f.name) != getattr(base, f.name)}
    return base.name, changes


def _deal_json(hands, kitty) -> dict[str, Any]:
    return {"hands": [format_cards(h) for h in hands], "kitty": format_cards(kitty)}


def result_of(state: State) -> dict[str, Any]:
    """The outcome of a finished hand as a record's ``result``."""
    r = state.result
    if r is None:
        raise ValueError("the hand is not over")
    s = r.settlement
    return {"attacker_points": s.attacker_points, "kitty_multiplier": s.multiplier,
            "winner": s.winner, "banker": r.banker, "levels": list(r.levels_after),
            "next_banker": r.next_banker}


def make_record(state: State) -> dict[str, Any]:
    """The record of ``state``: its deal, random outcomes and every action so far."""
    name, changes = _rule_changes(state.rules)
    record: dict[str, Any] = {"format": FORMAT, "version": VERSION, "rules": name}
    if changes:
        record["rule_changes"] = changes
    record["levels"] = list(state.levels)
    record["banker"] = state.start_banker
    if state.play_only:
        trump = "nt" if state.trump == NT else SUIT_LETTERS[state.trump]
        record["play_only"] = {"level": state.level, "trump": trump}
    record.update(_deal_json(*state.deals[0]))
    record["redeals"] = [_deal_json(h, k) for h, k in state.deals[1:]]
    index = state.chance.trump_index
    if index is not None:  # engine index (sorted kitty) → index in the written kitty
        kitty = state.deals[-1][1]
        index = _written_order(format_cards(kitty)).index(kitty[index])
    record["random_trump_card"] = index
    if state.chance.start_seats:
        record["start_seats"] = list(state.chance.start_seats)
    record["actions"] = [action_to_json(seat, a) for seat, a in state.history]
    if state.is_terminal():
        record["result"] = result_of(state)
    return record


def dumps(record: dict[str, Any]) -> str:
    """A record as JSON text, one action per line."""
    head = {k: v for k, v in record.items() if k not in ("actions", "result")}
    text = json.dumps(head, ensure_ascii=False)[:-1]
    acts = ",\n  ".join(json.dumps(a, ensure_ascii=False) for a in record.get("actions", []))
    text += f', "actions": [\n  {acts}\n]'
    if "result" in record:
        text += f', "result": {json.dumps(record["result"], ensure_ascii=False)}'
    return text + "}\n"


def loads(text: str) -> dict[str, Any]:
    """A record from JSON text; ValueError in one line if it is not JSON."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"not JSON: {e}") from None


def load(path: str | Path) -> dict[str, Any]:
    """A record from a JSON file."""
    return loads(Path(path).read_text(encoding="utf-8"))


# -- reading ---------------------------------------------------------------------------------


def _written_order(text: str) -> list[int]:
    """The cards of ``text`` in the order written (each chunk's cards sorted)."""
    return [f for chunk in str(text).split() for f in parse_cards(chunk)]


def _seat(value: Any, what: str, allow_none: bool = False) -> int | None:
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value not in range(N_SEATS):
        raise ValueError(f"{what} must be a seat 0..3{' or null' if allow_none else ''}, "
                         f"got {value!r}")
    return value


def action_from_json(entry: Any, index: int) -> tuple[int, Action]:
    """``(seat, action)`` of one record entry; ValueError naming the entry if malformed."""
    where = f"action {index}"
    if not isinstance(entry, dict):
        raise ValueError(f"{where}: an action is an object like "
                         '{"seat": 0, "action": "play", "cards": "A♠"}')
    kind = entry.get("action")
    if kind not in ACTION_KINDS:
        raise ValueError(f"{where}: unknown action {kind!r} ({', '.join(ACTION_KINDS)})")
    seat = _seat(entry.get("seat"), f"{where}: seat")
    text = entry.get("cards")
    if kind in _NO_CARDS:
        if text:
            raise ValueError(f"{where}: a {kind} action takes no cards")
        return seat, Action(kind)
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"{where}: a {kind} action needs \"cards\" as a string")
    try:
        return seat, Action(kind, parse_cards(text))
    except ValueError as e:
        raise ValueError(f"{where}: {e}") from None


def _deal(hands: Any, kitty: Any, where: str):
    if not isinstance(hands, list) or len(hands) != N_SEATS:
        raise ValueError(f"{where}\"hands\" must list the four dealt hands")
    parsed = []
    for seat, text in enumerate(hands):
        if not isinstance(text, str):
            raise ValueError(f"{where}hand of seat {seat} must be a string of cards")
        try:
            parsed.append(parse_cards(text))
        except ValueError as e:
            raise ValueError(f"{where}hand of seat {seat}: {e}") from None
    if not isinstance(kitty, str):
        raise ValueError(f"{where}\"kitty\" must be a string of cards")
    try:
        parsed_kitty = parse_cards(kitty)
    except ValueError as e:
        raise ValueError(f"{where}kitty: {e}") from None
    try:
        return verify_deal(parsed, parsed_kitty)
    except ValueError as e:
        raise ValueError(f"{where}{e}") from None


def _rules(record: dict) -> ShengjiRules:
    rules = get_rules(record["rules"]) if isinstance(record["rules"], str) else None
    if rules is None:
        raise ValueError(f"\"rules\" must name a preset, got {record['rules']!r}")
    changes = record.get("rule_changes") or {}
    if not isinstance(changes, dict):
        raise ValueError("\"rule_changes\" must be an object of rule parameters")
    known = {f.name for f in fields(ShengjiRules)}
    for key in changes:
        if key not in known:
            raise ValueError(f"unknown rule parameter {key!r} in \"rule_changes\"")
    return rules.with_(**changes) if changes else rules


def parse_record(record: Any) -> dict[str, Any]:
    """Check a record and return its parts; ValueError with one line if it is malformed
    (a missing key, an unknown card, a wrong count, a card beyond its two copies …)."""
    if not isinstance(record, dict):
        raise ValueError("a 双升 record must be a JSON object")
    for key in REQUIRED:
        if key not in record:
            raise ValueError(f"the record has no \"{key}\"")
    if record["format"] != FORMAT:
        raise ValueError(f"not a {FORMAT} (format is {record['format']!r})")
    if record["version"] != VERSION:
        raise ValueError(f"record version {record['version']!r} is not supported "
                         f"(this reads {VERSION})")
    out: dict[str, Any] = {"rules": _rules(record)}
    levels = record["levels"]
    if not isinstance(levels, list) or len(levels) != 2:
        raise ValueError(f"\"levels\" must be the two team levels, got {levels!r}")
    out["levels"] = tuple(_level(v, "a team level") for v in levels)
    out["banker"] = _seat(record["banker"], "\"banker\"", allow_none=True)
    out["deal"] = _deal(record["hands"], record["kitty"], "")
    redeals = record.get("redeals") or []
    if not isinstance(redeals, list):
        raise ValueError("\"redeals\" must be a list of deals")
    out["redeals"] = []
    for i, d in enumerate(redeals):
        if not isinstance(d, dict) or "hands" not in d or "kitty" not in d:
            raise ValueError(f"redeal {i} must be an object with \"hands\" and \"kitty\"")
        out["redeals"].append(_deal(d["hands"], d["kitty"], f"redeal {i}: "))
    out["trump_index"] = _trump_index(record, (out["redeals"] or [out["deal"]])[-1][1])
    starts = record.get("start_seats") or []
    if not isinstance(starts, list):
        raise ValueError("\"start_seats\" must be a list of seats")
    out["start_seats"] = [_seat(s, "a start seat") for s in starts]
    out["play_only"] = _play_only(record, out["banker"])
    if not isinstance(record["actions"], list):
        raise ValueError("\"actions\" must be a list")
    out["actions"] = [action_from_json(e, i) for i, e in enumerate(record["actions"])]
    return out


def _level(value: Any, what: str) -> int:
    """A level from 2..14 or text ("10", "J", "A")."""
    if isinstance(value, str):
        return parse_level(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 2 <= value <= 14:
        raise ValueError(f"{what} must be 2..14 or a rank like \"J\", got {value!r}")
    return value


def _trump_index(record: dict, kitty: tuple[int, ...]) -> int | None:
    """The written index of the random trump card as an index into the sorted kitty."""
    index = record.get("random_trump_card")
    if index is None:
        return None
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(kitty):
        raise ValueError(f"\"random_trump_card\" must be a kitty index 0..7 or null, "
                         f"got {index!r}")
    last = record["redeals"][-1]["kitty"] if record.get("redeals") else record["kitty"]
    return kitty.index(_written_order(last)[index])


def _play_only(record: dict, banker: int | None) -> tuple[int, int] | None:
    spec = record.get("play_only")
    if spec is None:
        return None
    if not isinstance(spec, dict) or "level" not in spec or "trump" not in spec:
        raise ValueError("\"play_only\" must be an object with \"level\" and \"trump\"")
    if banker is None:
        raise ValueError("a play_only record needs the banker who leads")
    if record.get("redeals"):
        raise ValueError("a play_only record has no redeals")
    return _level(spec["level"], "the play_only level"), parse_trump(spec["trump"])


def start_of(record: Any) -> State:
    """The state right after the deal that ``record`` describes; ValueError if malformed."""
    return _start(parse_record(record))


def _start(parts: dict[str, Any]) -> State:
    hands, kitty = parts["deal"]
    if parts["play_only"] is not None:
        level, trump = parts["play_only"]
        return play_only(parts["rules"], hands, kitty, level, trump, parts["banker"],
                         levels=parts["levels"])
    chance = Chance(None, parts["redeals"], parts["trump_index"], parts["start_seats"])
    return new_hand(parts["rules"], parts["levels"], parts["banker"], hands=hands, kitty=kitty,
                    chance=chance)


def replay(record: Any, require_end: bool = False) -> State:
    """Replay a record action by action. ValueError names the first illegal action —
    ``action 17 (seat 2 play 8♥): reason`` — or the first malformed part."""
    parts = parse_record(record)
    state = _start(parts)
    for i, (seat, action) in enumerate(parts["actions"]):
        try:
            state.apply(action, seat)
        except ValueError as e:
            raise ValueError(f"action {i} (seat {seat} {action}): {e}") from None
    if state.phase not in ("rebel", "declare") and state.chance.unused():
        raise ValueError(f"the record gives {', '.join(state.chance.unused())} that the hand "
                         "never used")
    if require_end and not state.is_terminal():
        raise ValueError(f"the record ends before the hand does (seat "
                         f"{state.current_player()} is to act)")
    expected = record.get("result")
    if expected is not None:
        if not state.is_terminal():
            raise ValueError("the record has a \"result\" but the hand does not end")
        got = result_of(state)
        if got != expected:
            diff = ", ".join(f"{k} {expected.get(k)!r} → {v!r}" for k, v in got.items()
                             if expected.get(k) != v)
            raise ValueError(f"the replay disagrees with the record's result: {diff}")
    return state


def describe(record: Any) -> list[str]:
    """One line per action (``seat 2: play 8♥ 8♥``), for replay output."""
    return [f"seat {seat}: {action}" for seat, action in parse_record(record)["actions"]]


__all__ = ["FORMAT", "VERSION", "action_from_json", "action_to_json", "describe",
           "dumps", "load", "loads", "make_record", "parse_record", "replay", "result_of",
           "start_of"]
