"""顶牛 game records in the shared envelope (:mod:`analyzer.core.records`): the deal and
every action as JSON, and their replay through the engine.

A record::

    {"format": "xianniu-record", "version": 2, "game": "dingniu", "rules": "seed",
     "hands": ["大天 虎头 ...", "...", "...", "..."],
     "actions": [{"seat": 0, "action": "lead", "tile": "大五"},
                 {"seat": 1, "action": "play", "tile": "虎头", "end": 5},
                 {"seat": 2, "action": "kou", "tile": "地幺"}],
     "result": {"end": "normal", "suan_seat": -1, "totals": [...], "points": [...]}}

``result`` is written once the hand is over; a record read to the end of its hand must
give the replay's result (a record cut short is read as far as it goes).
Records written before the shared envelope (``"format": "xianniu-dingniu-record"``,
version 1 or none, :data:`LEGACY`) still replay, and so do hand-written ones that name no
format at all (:data:`READS`); in those ``seat`` may be left out (the engine knows who
acts), in version 2 every action names it.
"""

from __future__ import annotations

from typing import Any, cast

from ..core import completion
from ..core import records as core_records
from ..core.records import Legacy, RecordError, envelope, open_record, replay_actions
from .engine import State, new_hand
from .rules import N_SEATS, TILES, DingniuRules, get_rules
from .tiles import KOU, LEAD, format_tiles, parse_hand, parse_tile, split_action

GAME = "dingniu"
FORMAT_V1 = "xianniu-dingniu-record"  # the per-game format of version 1
# The older formats this game wrote, for the registry: a record of these is a 顶牛 record.
LEGACY: Legacy = {(FORMAT_V1, 1): GAME, (FORMAT_V1, None): GAME}
# What :func:`replay` reads besides: records with no format at all, which the version-1
# reader took for its own. Other games read format-less records too, so the registry does
# not send them here; ``xianniu dingniu replay`` does.
# (core.records.Legacy types the format as a string; game_of looks up a missing one as None.)
READS = cast(Legacy, {**LEGACY, (None, None): GAME, (None, 1): GAME})
_KINDS = {"lead": LEAD, "kou": KOU, "扣": KOU, "play": None}


def action_to_json(seat: int, a: int) -> dict[str, Any]:
    """The record entry of action ``a`` by ``seat``."""
    k, s = split_action(a)
    out: dict[str, Any] = {"seat": seat, "action": "lead" if s == LEAD else "kou" if s == KOU
                           else "play", "tile": TILES[k].name}
    if 1 <= s <= 6:
        out["end"] = s
    return out


def parse_entry(entry: Any, hidden_ok: bool = False) -> tuple[int | None, int | None, int]:
    """(seat or None, kind of tile, slot) of one record entry; the kind is None for a 扣
    naming no tile when ``hidden_ok`` (another seat's 扣, face down). ValueError if bad."""
    if not isinstance(entry, dict):
        raise ValueError("an action is an object such as "
                         '{"seat": 1, "action": "play", "tile": "虎头", "end": 5}')
    kind = str(entry.get("action", "")).strip().lower()
    if kind not in _KINDS:
        raise ValueError(f"unknown action {entry.get('action')!r} (lead, play, kou)")
    seat = entry.get("seat")
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)
                             or not 0 <= seat < N_SEATS):
        raise ValueError(f"seat must be 0–{N_SEATS - 1}, got {seat!r}")
    tile = entry.get("tile")
    if tile is None:
        if _KINDS[kind] == KOU and hidden_ok:
            return seat, None, KOU
        raise ValueError("the action names no tile")
    k = parse_tile(str(tile))
    if kind == "play":
        end = entry.get("end")
        if isinstance(end, bool) or not isinstance(end, int) or not 1 <= end <= 6:
            raise ValueError(f"play needs the open end it goes on (1–6), got {end!r}")
        if end not in TILES[k].ends:
            raise ValueError(f"{TILES[k].name} has no end {end}")
        return seat, k, end
    slot = _KINDS[kind]
    assert slot is not None
    return seat, k, slot


def action_from_json(entry: Any, index: int) -> tuple[int, int]:
    """``(seat, action)`` of the record entry at ``index`` (ValueError if malformed or if it
    names no seat)."""
    seat, k, slot = parse_entry(entry)
    if seat is None:
        raise ValueError("the action names no \"seat\"")
    assert k is not None
    return seat, k * 8 + slot


def _legacy_from_json(entry: Any, index: int) -> tuple[int | None, int]:
    """As :func:`action_from_json`, the seat optional (records before version 2)."""
    seat, k, slot = parse_entry(entry)
    assert k is not None
    return seat, k * 8 + slot


def action_token(st: State, seat: int, a: int) -> str:
    """One action as a token of the text notation: the tile led (``一三``), a tile on an
    open end (``长三@3``) or a tile 扣ed (``扣地幺``).

    >>> k = parse_tile("长三")
    >>> [action_token(None, 0, k * 8 + s) for s in (LEAD, 3, KOU)]
    ['长三', '长三@3', '扣长三']
    """
    k, s = split_action(a)
    name = TILES[k].name
    return name if s == LEAD else f"扣{name}" if s == KOU else f"{name}@{s}"


def token_action(st: State, token: str) -> int:
    """The action a token stands for (``kou:地幺`` and ``6-6@6`` are read too); ValueError
    if it names none."""
    t = token.strip()
    for prefix in ("扣:", "kou:", "扣"):
        if t.lower().startswith(prefix):
            return parse_tile(t[len(prefix):]) * 8 + KOU
    if "@" in t:
        name, _, end = t.rpartition("@")
        k = parse_tile(name)
        if not end.isdigit() or int(end) not in TILES[k].ends:
            raise ValueError(f"{TILES[k].name} has no end {end!r} (its ends: "
                             f"{' and '.join(map(str, TILES[k].ends))})")
        return k * 8 + int(end)
    return parse_tile(t) * 8 + LEAD


_HIDDEN_TOKENS = ("扣?", "扣:?", "kou:?", "扣？")


FACE_DOWN = ("kou",)  # the actions a seat does not see the pieces of: another seat's 扣


def hidden_token(entry: dict[str, Any]) -> str:
    """The token of a record entry that hides its tile: another seat's 扣, face down."""
    return "扣?"


def hidden_entry(seat: int, token: str) -> dict[str, Any] | None:
    """The record entry of a token that hides its tile (``扣?``: a 扣 face down, in a record
    whose hand of ``seat`` is not known), or None for any other token."""
    if token.strip().lower() in _HIDDEN_TOKENS:
        return {"seat": seat, "action": "kou"}
    return None


def result_of(st: State) -> dict[str, Any] | None:
    """How the hand ended, once it is over: the end (``normal`` or ``suan``), the seat of
    the 算帐, every seat's count and points."""
    if not st.is_terminal():
        return None
    return {"end": st.end_reason, "suan_seat": st.suan_seat, "totals": st.totals(),
            "points": st.returns()}


def record_of(st: State) -> dict[str, Any]:
    """The record of state ``st``: its deal, every action so far and, once over, the
    result."""
    return envelope(GAME, st.rules.name, {"hands": [format_tiles(h) for h in st.dealt]},
                    [action_to_json(s, a) for s, a in st.history], result_of(st))


def start_of(record: Any, rules: str | DingniuRules | None = None) -> State:
    """The state right after the deal that ``record`` describes (under ``rules`` when
    given, else the record's preset); RecordError if it is not a 顶牛 record."""
    rec = open_record(record, GAME, READS)
    hands = rec.get("hands")
    if not isinstance(hands, list) or len(hands) != N_SEATS or \
            not all(isinstance(h, str) for h in hands):
        raise RecordError("a record needs \"hands\": four strings of six tiles")
    try:
        completion.refuse_unknown(rec)
        return new_hand(hands, get_rules(rules or rec.get("rules")))
    except ValueError as e:
        raise RecordError(str(e)) from None


def replay(record: Any, require_end: bool = False,
           rules: str | DingniuRules | None = None) -> State:
    """The state after every action of ``record`` (under ``rules`` when given, else the
    record's preset); RecordError names the first bad action, or says the record ends
    before the hand when ``require_end``, or that the result it gives for the finished hand
    is not the replay's."""
    st = start_of(record, rules)
    legacy = "game" not in record
    replay_actions(st, record.get("actions", []),
                   _legacy_from_json if legacy else action_from_json, require_end)
    given, got = record.get("result"), result_of(st)
    if given is not None and got is not None and rules is None and given != got:
        raise RecordError(f"the record's result {given} is not the replay's {got}")
    return st



def complete(record: Any, seed: int = 0, tries: int = completion.DEFAULT_TRIES,
             going_on: bool = False) -> Any:
    """``record`` with every hand written ``"?"`` dealt (:mod:`analyzer.core.completion`):
    the tiles its seat lays or 扣s in the record, and tiles drawn at random (from
    ``SeedSequence(seed)``) from those no known hand holds, until the whole record replays (and,
    ``going_on``, the hand is not over at its end);
    a 扣 of an unknown seat that names no tile (face down) gets one of the drawn tiles.
    ``known`` flags the hands that were given. A record with no unknown hand is returned as
    it is. RecordError if the record is malformed or no deal fits it."""
    rec = open_record(record, GAME, READS)
    if not completion.has_unknown(rec):
        return rec
    try:
        rules = get_rules(rec.get("rules"))
        hands = rec.get("hands")
        if not isinstance(hands, list) or len(hands) != N_SEATS:
            raise ValueError("a record needs \"hands\": four strings of tiles (\"?\" for "
                             "one not known)")
        known = completion.known_flags(rec, N_SEATS)
        counts = [None if completion.is_unknown(h) else parse_hand(h, rules.hand_size)
                  for h in hands]
    except ValueError as e:
        raise RecordError(str(e)) from None
    unknown = [s for s in range(N_SEATS) if counts[s] is None]
    left = list(rules.counts)
    for c in counts:
        if c is not None:
            left = [a - b for a, b in zip(left, c)]
    if min(left) < 0:
        raise RecordError("the known hands hold more of a tile than the set has")
    pinned: dict[int, list[int]] = {s: [] for s in unknown}
    faced_down: dict[int, list[int]] = {s: [] for s in unknown}  # indexes of hidden 扣
    actions = rec.get("actions", [])
    if not isinstance(actions, list):
        raise RecordError("\"actions\" must be a list")
    for i, entry in enumerate(actions):
        try:
            seat, k, _ = parse_entry(entry, hidden_ok=True)
        except ValueError as e:
            raise RecordError(str(e), i) from None
        if seat is None:
            raise RecordError("the action names no \"seat\"", i)
        if seat not in pinned:
            if k is None:
                raise RecordError(f"a 扣 of seat {seat}, whose hand is known, names its tile", i)
            continue
        if k is None:
            faced_down[seat].append(i)
        else:
            pinned[seat].append(k)
            left[k] -= 1
            if left[k] < 0:
                raise RecordError(f"seat {seat} lays {TILES[k].name}, but no {TILES[k].name} "
                                  f"is left for it", i)
    pool = [k for k in range(len(left)) for _ in range(left[k])]
    order = list(unknown)
    sizes = [rules.hand_size] * len(order)
    pins = [pinned[s] for s in order]

    def propose(rng):
        dealt = completion.deal_places(sizes, pins, pool, rng)
        if dealt is None:
            return None
        out_hands, out_actions = list(hands), list(actions)
        for s, tiles in zip(order, dealt):
            drawn = tiles[len(pinned[s]):]
            for i, k in zip(faced_down[s], drawn):
                out_actions[i] = {**actions[i], "tile": TILES[k].name}
            out_hands[s] = format_tiles([tiles.count(k) for k in range(len(left))])
        return {**rec, "hands": out_hands, "known": known, "actions": out_actions}

    try:
        return completion.complete_by_rejection(propose,
                                                 completion.replay_check(replay, going_on),
                                                 seed, tries)
    except ValueError as e:
        raise RecordError(str(e)) from None


# the text notation's head: no fields of the game's own
text_head = core_records.plain_text_head
head_of_text = core_records.plain_head_of_text
