"""顶牛 game records: the deal and every action as JSON, and replay through the engine.

A record::

    {"format": "xianniu-dingniu-record", "version": 1, "rules": "seed",
     "hands": ["大天 虎头 ...", "...", "...", "..."],
     "actions": [{"seat": 0, "action": "lead", "tile": "大五"},
                 {"seat": 1, "action": "play", "tile": "虎头", "end": 5},
                 {"seat": 2, "action": "kou", "tile": "地幺"}]}

``seat`` is optional (the engine knows who acts) but is checked when given.
"""

from __future__ import annotations

from typing import Any

from .engine import State, new_hand
from .rules import TILES, get_rules
from .tiles import KOU, LEAD, format_tiles, parse_tile, split_action

FORMAT = "xianniu-dingniu-record"
_KINDS = {"lead": LEAD, "kou": KOU, "扣": KOU, "play": None}


def action_to_json(seat: int, a: int) -> dict[str, Any]:
    """The record entry of action ``a`` by ``seat``."""
    k, s = split_action(a)
    out: dict[str, Any] = {"seat": seat, "action": "lead" if s == LEAD else "kou" if s == KOU
                           else "play", "tile": TILES[k].name}
    if 1 <= s <= 6:
        out["end"] = s
    return out


def parse_action(entry: Any, where: str, hidden_ok: bool = False
                 ) -> tuple[int | None, str, int | None, int]:
    """(seat or None, kind, kind of tile or None, slot) of one record entry; ValueError if bad."""
    if not isinstance(entry, dict):
        raise ValueError(f"{where}: an action is an object such as "
                         '{"action": "play", "tile": "虎头", "end": 5}')
    kind = str(entry.get("action", "")).strip().lower()
    if kind not in _KINDS:
        raise ValueError(f"{where}: unknown action {entry.get('action')!r} (lead, play, kou)")
    seat = entry.get("seat")
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)
                             or not 0 <= seat < 4):
        raise ValueError(f"{where}: seat must be 0–3, got {seat!r}")
    tile = entry.get("tile")
    if tile is None:
        if kind == "kou" and hidden_ok:
            return seat, "kou", None, KOU
        raise ValueError(f"{where}: the action names no tile")
    k = parse_tile(str(tile))
    if kind == "play":
        end = entry.get("end")
        if isinstance(end, bool) or not isinstance(end, int) or not 1 <= end <= 6:
            raise ValueError(f"{where}: play needs the open end it goes on (1–6), got {end!r}")
        if end not in TILES[k].ends:
            raise ValueError(f"{where}: {TILES[k].name} has no end {end}")
        return seat, kind, k, end
    return seat, "kou" if _KINDS[kind] == KOU else kind, k, _KINDS[kind]


def replay(record: Any, rules: str | None = None) -> State:
    """The state after every action of ``record`` (under ``rules`` when given, else the
    record's preset); ValueError names the first bad one."""
    if not isinstance(record, dict):
        raise ValueError("a 顶牛 record is a JSON object")
    if record.get("format", FORMAT) != FORMAT:
        raise ValueError(f"not a 顶牛 record (format {record.get('format')!r})")
    hands = record.get("hands")
    if not isinstance(hands, list) or len(hands) != 4 or not all(isinstance(h, str) for h in hands):
        raise ValueError("a record needs \"hands\": four strings of six tiles")
    st = new_hand(hands, get_rules(rules or record.get("rules")))
    actions = record.get("actions", [])
    if not isinstance(actions, list):
        raise ValueError("\"actions\" must be a list")
    for i, entry in enumerate(actions):
        where = f"action {i}"
        seat, _, k, slot = parse_action(entry, where)
        if st.is_terminal():
            raise ValueError(f"{where}: the hand is already over")
        if seat is not None and seat != st.current_player():
            raise ValueError(f"{where}: seat {st.current_player()} is to act, not seat {seat}")
        try:
            st.apply(k * 8 + slot)
        except ValueError as e:
            raise ValueError(f"{where}: {e}") from None
    return st


def to_record(st: State) -> dict[str, Any]:
    """The record of state ``st`` (its deal and every action so far)."""
    return {"format": FORMAT, "version": 1, "rules": st.rules.name,
            "hands": [format_tiles(h) for h in st.dealt],
            "actions": [action_to_json(s, a) for s, a in st.history]}
