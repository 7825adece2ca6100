"""双升 game records: a whole hand in the shared record envelope
(:mod:`analyzer.core.records`), and its replay through the reference engine.

A record holds everything that fixes the hand — the rules, the team levels, the banker, the
deal, every random outcome and every action::

    {"format": "xianniu-record", "version": 2, "game": "shengji", "rules": "zhengzhou",
     "levels": [2, 2], "banker": 0,
     "hands": ["大王 A♠ …25 cards…", "…", "…", "…"], "kitty": "…8 cards…",
     "redeals": [], "random_trump_card": null,
     "actions": [{"seat": 0, "action": "declare", "cards": "小王 2♠"},
                 {"seat": 1, "action": "pass"}, …,
                 {"seat": 0, "action": "bury", "cards": "…8 cards…"},
                 {"seat": 0, "action": "play", "cards": "A♥"}, …],
     "result": {…}}

- ``banker`` null: a 抢庄局 (the first hand). ``rule_changes`` (optional): rule parameters
  that differ from the named preset.
- ``redeals``: the new deal ``{"hands": [...], "kitty": "..."}`` after a 造反.
- ``random_trump_card``: when nobody declared (§4.4.3), the index of the drawn card in the
  kitty of the last deal, counted in the order the record writes that kitty.
- ``start_seats`` (optional): first seats drawn under ``declare_start="random"``.
- ``play_only`` (optional): ``{"level": 10, "trump": "s"}`` for a hand that starts at
  trick 1 with the kitty buried (:func:`engine.play_only`); ``banker`` leads.
- ``result`` (optional, written for a finished hand): checked by :func:`replay` when the
  actions reach the end (a record cut short replays to where it stops).

Actions are ``rebel``, ``pass``, ``declare``, ``bury`` and ``play``; ``cards`` is absent for
``rebel`` and ``pass``. A failed throw is stored as attempted: the replay finds it fails.
Records in the format this game wrote before the shared envelope
(``"format": "xianniu-shengji-record", "version": 1``: the same fields, no ``game``) are
still read (:data:`LEGACY`).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import fields
from typing import Any

from ..core import completion
from ..core.records import Legacy, RecordError, envelope, open_record, replay_actions
from .actions import (
    ACTION_KINDS,
    BURY,
    BURY_PHASE,
    DECLARE,
    HAND_SIZE,
    KITTY_SIZE,
    N_SEATS,
    PASS,
    PLAY,
    PLAY_PHASE,
    REBEL,
    Action,
)
from .cards import (
    DECK,
    NT,
    SUIT_LETTERS,
    format_cards,
    level_name,
    parse_cards,
    parse_level,
    parse_trump,
)
from .engine import Chance, State, new_hand, play_only, verify_deal
from .rules import PRESETS, ShengjiRules, get_rules

GAME = "shengji"
# The format this game wrote before the shared envelope: the same fields, no "game".
LEGACY: Legacy = {("xianniu-shengji-record", 1): GAME}
REQUIRED = ("rules", "levels", "banker", "hands", "kitty", "actions")
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


def record_of(state: State) -> dict[str, Any]:
    """The record of ``state``: its deal, random outcomes and every action so far (and the
    result once the hand is over)."""
    name, changes = _rule_changes(state.rules)
    body: dict[str, Any] = {}
    if changes:
        body["rule_changes"] = changes
    body["levels"] = list(state.levels)
    body["banker"] = state.start_banker
    if state.play_only:
        trump = "nt" if state.trump == NT else SUIT_LETTERS[state.trump or 0]
        body["play_only"] = {"level": state.level, "trump": trump}
    body.update(_deal_json(*state.deals[0]))
    body["redeals"] = [_deal_json(h, k) for h, k in state.deals[1:]]
    index = state.chance.trump_index
    if index is not None:  # engine index (sorted kitty) → index in the written kitty
        kitty = state.deals[-1][1]
        index = _written_order(format_cards(kitty)).index(kitty[index])
    body["random_trump_card"] = index
    if state.chance.start_seats:
        body["start_seats"] = list(state.chance.start_seats)
    return envelope(GAME, name, body, (action_to_json(seat, a) for seat, a in state.history),
                    result_of(state) if state.is_terminal() else None)


# -- reading ---------------------------------------------------------------------------------


def _written_order(text: str) -> list[int]:
    """The cards of ``text`` in the order written (each chunk's cards sorted)."""
    return [f for chunk in str(text).split() for f in parse_cards(chunk)]


def _seat(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value not in range(N_SEATS):
        raise ValueError(f"{what} must be a seat 0..3, got {value!r}")
    return value


def _banker(value: Any) -> int | None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                              or value not in range(N_SEATS)):
        raise ValueError(f"\"banker\" must be a seat 0..3 or null, got {value!r}")
    return value


def action_from_json(entry: Any, index: int) -> tuple[int, Action]:
    """``(seat, action)`` of one record entry; RecordError naming the entry if malformed."""
    if not isinstance(entry, dict):
        raise RecordError('an action is an object like {"seat": 0, "action": "play", '
                          '"cards": "A♠"}', index)
    kind = entry.get("action")
    if kind not in ACTION_KINDS:
        raise RecordError(f"unknown action {kind!r} ({', '.join(ACTION_KINDS)})", index)
    try:
        seat = _seat(entry.get("seat"), "seat")
    except ValueError as e:
        raise RecordError(str(e), index) from None
    text = entry.get("cards")
    if kind in _NO_CARDS:
        if text:
            raise RecordError(f"a {kind} action takes no cards", index)
        return seat, Action(kind)
    if not isinstance(text, str) or not text.strip():
        raise RecordError(f"a {kind} action needs \"cards\" as a string", index)
    try:
        return seat, Action(kind, parse_cards(text))
    except ValueError as e:
        raise RecordError(str(e), index) from None


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
    """Check a record (of this version or a :data:`LEGACY` one) and return the parts of its
    start; RecordError with one line if it is malformed (a missing key, an unknown card, a
    wrong count, a card beyond its two copies …). :func:`replay` checks the actions."""
    record = open_record(record, GAME, LEGACY)
    for key in REQUIRED:
        if key not in record:
            raise RecordError(f"the record has no \"{key}\"")
    try:
        completion.refuse_unknown(record)
        if completion.is_unknown(record["kitty"]):
            raise ValueError("the kitty is not known (\"?\"): the record replays once the "
                             "unknown places are dealt (review and record convert do it)")
        return _parts(record)
    except RecordError:
        raise
    except ValueError as e:
        raise RecordError(str(e)) from None


def _parts(record: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"rules": _rules(record)}
    levels = record["levels"]
    if not isinstance(levels, list) or len(levels) != 2:
        raise ValueError(f"\"levels\" must be the two team levels, got {levels!r}")
    out["levels"] = tuple(_level(v, "a team level") for v in levels)
    out["banker"] = _banker(record["banker"])
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
    """The state right after the deal that ``record`` describes; RecordError if malformed."""
    parts = parse_record(record)
    hands, kitty = parts["deal"]
    if parts["play_only"] is not None:
        level, trump = parts["play_only"]
        return play_only(parts["rules"], hands, kitty, level, trump, parts["banker"],
                         levels=parts["levels"])
    chance = Chance(None, parts["redeals"], parts["trump_index"], parts["start_seats"])
    return new_hand(parts["rules"], parts["levels"], parts["banker"], hands=hands, kitty=kitty,
                    chance=chance)


def replay(record: Any, require_end: bool = False) -> State:
    """Replay a record action by action. RecordError names the first illegal action —
    ``action 17: seat 2 …`` — or the first malformed part."""
    state = start_of(record)
    replay_actions(state, record["actions"], action_from_json, require_end)
    if state.phase not in ("rebel", "declare") and state.chance.unused():
        raise RecordError(f"the record gives {', '.join(state.chance.unused())} that the "
                          "hand never used")
    expected = record.get("result")
    if expected is not None and state.is_terminal():  # a record cut short stops before it
        got = result_of(state)
        if got != expected:
            diff = ", ".join(f"{k} {expected.get(k)!r} → {v!r}" for k, v in got.items()
                             if expected.get(k) != v)
            raise RecordError(f"the replay disagrees with the record's result: {diff}")
    return state


def describe(record: Any) -> list[str]:
    """One line per action (``seat 2: play 8♥ 8♥``), for replay output."""
    actions = open_record(record, GAME, LEGACY).get("actions", [])
    return [f"seat {seat}: {action}" for seat, action in
            (action_from_json(e, i) for i, e in enumerate(actions))]


# -- the text notation (analyzer.core.notation) ---------------------------------------------

_WORDS = {"pass": PASS, "-": PASS, "过": PASS, "不叫": PASS, "rebel": REBEL, "造反": REBEL}


def action_token(state: State | None, seat: int, action: Action) -> str:
    """One action as a token of the text notation: its cards run together, in the order
    :func:`format_cards` writes them (``小王2♠``, a bury of eight, a throw ``A♠K♠K♠``), or
    ``pass``, ``rebel``.

    >>> [action_token(None, 0, Action(k, c)) for k, c in
    ...  ((DECLARE, "LJ 2s"), (PLAY, "Kh Ah Kh"), (PASS, ""), (REBEL, ""))]
    ['小王2♠', 'A♥K♥K♥', 'pass', 'rebel']
    """
    if action.cards:
        return format_cards(action.cards).replace(" ", "")
    return action.kind


def token_action(state: State, token: str) -> Action:
    """The action a token stands for at ``state``: ``pass`` (also ``-``, ``过``, ``不叫``),
    ``rebel`` (``造反``), or cards (``2s2s``, ``A♠+K♠+K♠``), which declare in the 造反,
    declaring and 扒鸡窝 phases, bury in the bury phase and play in the play; ValueError if
    it names none."""
    word = _WORDS.get(token.strip().lower())
    if word is not None:
        return Action(word)
    try:
        cards = parse_cards(token.replace("+", " "))
    except ValueError as e:
        raise ValueError(f"{e}; an action is cards such as 2♠2♠ (or 2s2s, A♠+K♠), or pass, "
                         f"rebel") from None
    if not cards:
        raise ValueError("an empty token")
    kind = {BURY_PHASE: BURY, PLAY_PHASE: PLAY}.get(state.phase, DECLARE)
    return Action(kind, cards)


def text_head(record: dict[str, Any]) -> list[str]:
    """The head lines of the text notation after ``game`` and ``rules``: ``levels 2 10``,
    ``banker 0`` (``banker none`` in a 抢庄局), the four ``hand`` lines, ``kitty``, then what
    the hand drew (``redeal1.hand0 …`` … ``redeal1.kitty …`` after a 造反,
    ``random_trump_card 3``, ``start_seats 1 2``), ``play_only 10 s`` and ``rule_changes
    {JSON}`` when given."""
    lines = ["levels " + " ".join(level_name(v) for v in record["levels"]),
             f"banker {'none' if record['banker'] is None else record['banker']}"]
    if record.get("play_only"):
        po = record["play_only"]
        lines.append(f"play_only {level_name(po['level'])} {po['trump']}")
    if record.get("rule_changes"):
        lines.append("rule_changes " + json.dumps(record["rule_changes"], ensure_ascii=False))
    lines += [f"hand {i} {h}" for i, h in enumerate(record["hands"])]
    lines.append(f"kitty {record['kitty']}")
    for r, d in enumerate(record.get("redeals") or [], 1):
        lines += [f"redeal{r}.hand{i} {h}" for i, h in enumerate(d["hands"])]
        lines.append(f"redeal{r}.kitty {d['kitty']}")
    if record.get("random_trump_card") is not None:
        lines.append(f"random_trump_card {record['random_trump_card']}")
    if record.get("start_seats"):
        lines.append("start_seats " + " ".join(map(str, record["start_seats"])))
    return lines


_REDEAL = re.compile(r"redeal(\d+)\.(?:hand([0-3])|kitty)$")


def head_of_text(fields: dict[str, str], hands: list[str]) -> dict[str, Any]:
    """The record's body (everything but the envelope and the actions) from the head fields
    of the text notation (:func:`text_head`) and the hands; ValueError naming the field."""
    body: dict[str, Any] = {}
    rest = dict(fields)
    if "rule_changes" in rest:
        try:
            body["rule_changes"] = json.loads(rest.pop("rule_changes"))
        except json.JSONDecodeError as e:
            raise ValueError(f"rule_changes: not JSON ({e})") from None
    levels = rest.pop("levels", "2 2").split()
    if len(levels) != 2:
        raise ValueError(f"levels: give the two team levels (seats 0 and 2, then 1 and 3), "
                         f"such as 'levels 2 10'; got {' '.join(levels)!r}")
    body["levels"] = [parse_level(v) for v in levels]
    banker = rest.pop("banker", "none").strip().lower()
    if banker in ("none", "null", "-", "抢庄"):
        body["banker"] = None
    elif banker.isdigit():
        body["banker"] = int(banker)
    else:
        raise ValueError(f"banker: a seat 0..3 or none (a 抢庄局), got {banker!r}")
    if "play_only" in rest:
        spec = rest.pop("play_only").split()
        if len(spec) != 2:
            raise ValueError("play_only: the level and the trump, such as 'play_only 10 s'")
        body["play_only"] = {"level": parse_level(spec[0]), "trump": spec[1].lower()}
    body["hands"] = hands
    if "kitty" not in rest:
        raise ValueError("the text gives no kitty (a line 'kitty <8 cards>', or 'kitty ?')")
    body["kitty"] = rest.pop("kitty")
    redeals: dict[int, dict[str, Any]] = {}
    for key in [k for k in rest if k.startswith("redeal")]:
        value = rest.pop(key)
        m = _REDEAL.match(key)
        if m is None:
            raise ValueError(f"cannot read {key!r} (expected 'redeal1.hand0 CARDS' or "
                             f"'redeal1.kitty CARDS')")
        d = redeals.setdefault(int(m.group(1)), {"hands": [None] * N_SEATS, "kitty": None})
        if m.group(2) is not None:
            d["hands"][int(m.group(2))] = value
        else:
            d["kitty"] = value
    body["redeals"] = []
    for r in sorted(redeals):
        d = redeals[r]
        if r != len(body["redeals"]) + 1 or None in d["hands"] or d["kitty"] is None:
            raise ValueError(f"redeal {r}: give its four hands and its kitty, redeals "
                             f"numbered from 1")
        body["redeals"].append(d)
    trump = rest.pop("random_trump_card", None)
    if trump is not None and not trump.isdigit():
        raise ValueError(f"random_trump_card: a kitty index 0..7, got {trump!r}")
    body["random_trump_card"] = None if trump is None else int(trump)
    if "start_seats" in rest:
        body["start_seats"] = [int(s) for s in rest.pop("start_seats").split()]
    if rest:
        raise ValueError(f"unknown field {next(iter(rest))!r} in the head of a 双升 record")
    return body


__all__ = ["GAME", "LEGACY", "action_from_json", "action_to_json", "action_token",
           "complete", "describe", "head_of_text", "parse_record", "record_of", "replay",
           "result_of", "start_of", "text_head", "token_action"]


# -- records with unknown hands (analyzer.core.completion) ------------------------------------


def complete(record: Any, seed: int = 0, tries: int = completion.DEFAULT_TRIES,
             going_on: bool = False) -> Any:
    """``record`` with every hand written ``"?"``, and the kitty if it is ``"?"``, dealt
    (:mod:`analyzer.core.completion`): each unknown hand holds the cards its seat declares,
    plays and buries in the record (less what it picked up of a known kitty or bury), and
    cards drawn at random (from ``SeedSequence(seed)``) from those no known place holds;
    the seat that picks up an unknown kitty has its 33 cards split at random between its
    hand and the kitty. Proposals are kept when the whole record replays (and,
    ``going_on``, the hand is not over at its end). ``known`` flags
    the hands that were given. A record with no unknown hand or kitty is returned as it
    is. RecordError if the record is malformed or no deal fits it."""
    record = open_record(record, GAME, LEGACY)
    kitty_unknown = completion.is_unknown(record.get("kitty"))
    if not completion.has_unknown(record) and not kitty_unknown:
        return record
    known, dealt, kitty = _given(record, kitty_unknown)
    need, first = _shown(record["actions"], kitty)
    places, pins, pool = _unknown_places(dealt, kitty, kitty_unknown, need, first)
    propose = _proposer(record, places, pins, pool, known)
    try:
        return completion.complete_by_rejection(propose,
                                                 completion.replay_check(replay, going_on),
                                                 seed, tries)
    except ValueError as e:
        raise RecordError(str(e)) from None


_PLACE_SIZE = {"hand": HAND_SIZE, "kitty": KITTY_SIZE, "both": HAND_SIZE + KITTY_SIZE}


def _given(record: dict, kitty_unknown: bool) -> tuple[list[bool], list, tuple | None]:
    """The record's given parts: (``known`` flags, the dealt hands with None where unknown,
    the kitty or None); RecordError for a record that cannot be completed."""
    for key in REQUIRED:
        if key not in record:
            raise RecordError(f"the record has no \"{key}\"")
    if record.get("redeals"):
        raise RecordError("a record with a 造反 redeal needs every hand and the kitty")
    if kitty_unknown and record.get("random_trump_card") is not None:
        raise RecordError("a random trump card is an index into the kitty: give the kitty")
    hands = record["hands"]
    if not isinstance(hands, list) or len(hands) != N_SEATS:
        raise RecordError("\"hands\" must list the four dealt hands (\"?\" for one not known)")
    try:
        known = completion.known_flags(record, N_SEATS)
        dealt = [None if completion.is_unknown(h) else parse_cards(h) for h in hands]
        kitty = None if kitty_unknown else parse_cards(record["kitty"])
    except ValueError as e:
        raise RecordError(str(e)) from None
    return known, dealt, kitty


def _shown(actions: list, kitty: tuple | None) -> tuple[list[Counter], int | None]:
    """Per seat, the cards its dealt hand (with what it picked up of an unknown kitty) must
    hold, and the first seat that buries (None if none does).

    At each action: the cards the action shows and those gone before, less what it picked
    up that is known. A lead of several units may be a throw that fails (only a unit of it
    is played): its cards are shown, not counted gone."""
    need: list[Counter] = [Counter() for _ in range(N_SEATS)]
    gone: list[Counter] = [Counter() for _ in range(N_SEATS)]
    picked_up: list[Counter] = [Counter() for _ in range(N_SEATS)]
    takers: list[int] = []  # the seats that bury, in order
    last_bury: tuple[int, ...] | None = kitty
    plays = 0
    for i, entry in enumerate(actions):
        seat, action = action_from_json(entry, i)
        if action.kind == BURY:
            takers.append(seat)
            if last_bury is not None:
                picked_up[seat].update(last_bury)
            last_bury = action.cards
        need[seat] |= (Counter(action.cards) + gone[seat]) - picked_up[seat]
        if action.kind == PLAY:
            lead, plays = plays % N_SEATS == 0, plays + 1
            if not (lead and len(set(action.cards)) > 1):
                gone[seat].update(action.cards)
        elif action.kind == BURY:
            gone[seat].update(action.cards)
    return need, (takers[0] if takers else None)


def _unknown_places(dealt: list, kitty: tuple | None, kitty_unknown: bool, need: list[Counter],
                    first: int | None) -> tuple[list[tuple[str, int]], list[list[int]], list]:
    """The places to deal (("hand", seat), ("kitty", -1) or ("both", seat): a seat's hand
    with the unknown kitty it picked up), the cards pinned to each, and the pool of the
    other cards no known place holds; RecordError if the record shows more than fits."""
    places: list[tuple[str, int]] = []
    pins: list[list[int]] = []
    left = Counter(DECK)
    for h in dealt:
        if h is not None:
            left -= Counter(h)
    if kitty is not None:
        left -= Counter(kitty)
    kitty_pins: Counter = Counter()
    for s in range(N_SEATS):
        if dealt[s] is None:
            if kitty_unknown and s == first:
                places.append(("both", s))
            else:
                places.append(("hand", s))
            pins.append(sorted(need[s].elements()))
        elif kitty_unknown and s == first:  # a known hand that picked up an unknown kitty
            kitty_pins = need[s] - Counter(dealt[s])
    if kitty_unknown and (first is None or dealt[first] is not None):
        places.append(("kitty", -1))
        pins.append(sorted(kitty_pins.elements()))
    for (kind, s), p in zip(places, pins):
        if len(p) > _PLACE_SIZE[kind]:
            raise RecordError(f"seat {s} shows {len(p)} cards in the record, more than it holds"
                              if s >= 0 else "the kitty holds more than 8 cards")
        for f, n in Counter(p).items():
            left[f] -= n
    short = [f for f, n in left.items() if n < 0]
    if short:
        raise RecordError(f"the record shows more copies of {format_cards(short[:1])} than "
                          f"the unknown places can hold beside the known ones")
    return places, pins, sorted(left.elements())


def _proposer(record: dict, places: list[tuple[str, int]], pins: list[list[int]], pool: list,
              known: list[bool]) -> Callable[[Any], dict | None]:
    """A function of a random generator: ``record`` with its unknown places dealt, or None
    when the pinned cards leave no deal."""
    sizes = [_PLACE_SIZE[k] for k, _ in places]

    def propose(rng):
        got = completion.deal_places(sizes, pins, pool, rng)
        if got is None:
            return None
        out_hands, out_kitty = list(record["hands"]), record["kitty"]
        for (kind, s), cards in zip(places, got):
            if kind == "both":
                order = rng.permutation(len(cards))
                out_hands[s] = format_cards([cards[j] for j in order[:HAND_SIZE]])
                out_kitty = format_cards([cards[j] for j in order[HAND_SIZE:]])
            elif kind == "hand":
                out_hands[s] = format_cards(cards)
            else:
                out_kitty = format_cards(cards)
        return {**record, "hands": out_hands, "kitty": out_kitty, "known": known}

    return propose


FACE_DOWN = ("bury",)  # the actions a seat does not see the pieces of: another seat's bury


def hidden_token(entry: dict[str, Any]) -> str | None:
    """None: no action of this game is recorded face down."""
    return None


def hidden_entry(seat: int, token: str) -> dict[str, Any] | None:
    """None: no token of this game hides what was played."""
    return None
