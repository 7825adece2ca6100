"""Game records of 掀牛: a whole hand as JSON, and its replay through the reference engine.

A record is the shared envelope (:mod:`analyzer.core.records`) with the banker and the
three dealt hands as its body::

    {"format": "xianniu-record", "version": 2, "game": "xianniu", "rules": "lanzhou",
     "banker": 0, "hands": ["A♠ A♥ ...", "...", "..."],
     "actions": [{"seat": 0, "action": "play", "cards": "3♠ 3♥"},
                 {"seat": 1, "action": "pass"}, ...]}

Action names are those of :mod:`analyzer.xianniu.engine`: ``play``, ``pass``, ``kou``,
``xian``, ``tighten``, ``discard`` (one card). Records written before the shared envelope
(version 1, or with no format and version at all; no ``game``) are read as well
(:data:`LEGACY`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..core import completion
from ..core import records as core
from ..core.records import RecordError
from .cards import (
    FULL_DECK,
    HAND_SIZE,
    N_SEATS,
    cards_of,
    format_cards,
    mask_of,
    parse_hand,
    parse_mask,
)
from .engine import (
    ACTION_KINDS,
    DISCARD,
    DISCARD_PHASE,
    KOU,
    PASS,
    PLAY,
    TIGHTEN,
    XIAN,
    Action,
    State,
    new_hand,
)
from .rules import get_rules

GAME = "xianniu"
FORMAT = core.FORMAT
VERSION = core.VERSION
# The records 掀牛 wrote before the shared envelope: version 1, and (accepted all along) a
# record that names no format or no version.
LEGACY: dict[tuple[Any, Any], str] = {(core.FORMAT, 1): GAME, (None, None): GAME,
                                      (core.FORMAT, None): GAME, (None, 1): GAME}
_CARD_ACTIONS = (PLAY, DISCARD)

__all__ = ["FORMAT", "LEGACY", "VERSION", "RecordError", "action_from_json", "action_to_json",
           "action_token", "complete", "dumps", "make_record", "record_of", "replay",
           "start_of", "token_action"]


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


# The text notation (analyzer.core.notation): the words of the actions without cards, and
# what else a person may type for them.
_TOKENS = {PASS: "pass", KOU: "kou", XIAN: "xian", TIGHTEN: "tighten"}
_WORDS = {**{v: k for k, v in _TOKENS.items()}, "-": PASS, "过": PASS, "不要": PASS, "扣": KOU,
          "掀": XIAN, "紧": TIGHTEN, "紧牌": TIGHTEN}


def action_token(state: State, seat: int, action: Action) -> str:
    """One action as a token of the text notation: its cards run together (``5♠5♥5♣``,
    a 紧牌 discard too), or ``pass``, ``kou``, ``xian``, ``tighten``.

    >>> [action_token(None, s, a) for s, a in ((0, Action(PLAY, parse_mask("5s 5h 10c"))),
    ...                                        (1, Action(XIAN)))]
    ['5♠5♥10♣', 'xian']
    """
    if action.cards:
        return format_cards(action.cards, sep="")
    return _TOKENS[action.kind]


def token_action(state: State, token: str) -> Action:
    """The action a token stands for at ``state`` (cards are a discard in 紧牌, else a
    play; ``5s5h`` and ``5♠5♥`` are the same); ValueError if it names none."""
    word = _WORDS.get(token.strip().lower())
    if word is not None:
        return Action(word)
    try:
        cards = parse_mask(token)
    except ValueError as e:
        raise ValueError(f"{e}; an action is cards such as 5♠5♥ (or 5s5h), or one of "
                         f"{', '.join(_TOKENS.values())}") from None
    return Action(DISCARD if state.phase == DISCARD_PHASE else PLAY, cards)


def record_of(state: State) -> dict[str, Any]:
    """The record of a hand, played so far."""
    return make_record(state.rules.name, state.banker, state.dealt, state.history)


def make_record(rules: str, banker: int, hands: Iterable[int],
                actions: Iterable[tuple[int, Action]]) -> dict[str, Any]:
    """A record from the preset name, banker, three dealt masks and (seat, Action) pairs."""
    return core.envelope(GAME, rules,
                         {"banker": banker, "hands": [format_cards(int(h)) for h in hands]},
                         (action_to_json(seat, a) for seat, a in actions))


dumps = core.dumps  # a record as JSON text, one action a line


def _hands_wrong(hands: Any) -> str:
    """What is wrong with a record's ``hands``, which is not a list of three."""
    what = ("there is none" if hands is None else f"it lists {len(hands)}"
            if isinstance(hands, list) else f"it is a {type(hands).__name__}")
    return (f"a 掀牛 record lists the three dealt hands under \"hands\" (\"?\" for one not "
            f"known), and {what}")


def start_of(record: Any) -> State:
    """The state right after the deal that ``record`` describes; RecordError if malformed."""
    record = core.open_record(record, GAME, LEGACY)
    try:
        rules = get_rules(record.get("rules"))
    except ValueError as e:
        raise RecordError(str(e)) from None
    banker = record.get("banker", 0)
    hands = record.get("hands")
    if not isinstance(hands, list) or len(hands) != N_SEATS:
        raise RecordError(_hands_wrong(hands))
    try:
        completion.refuse_unknown(record)
    except ValueError as e:
        raise RecordError(str(e)) from None
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
    core.replay_actions(state, record.get("actions", []), action_from_json, require_end)
    return state


def complete(record: Any, seed: int = 0, tries: int = completion.DEFAULT_TRIES,
             going_on: bool = False) -> Any:
    """``record`` with every hand written ``"?"`` dealt (:mod:`analyzer.core.completion`):
    the cards its seat plays or discards in the record, and cards drawn at random (from
    ``SeedSequence(seed)``) from those no known hand holds, until the whole record replays (and,
    ``going_on``, the hand is not over at its end);
    ``known`` flags the hands that were given. A record with no unknown hand is returned
    as it is. RecordError if the record is malformed or no deal fits it."""
    record = core.open_record(record, GAME, LEGACY)
    if not completion.has_unknown(record):
        return record
    hands = record.get("hands")
    if not isinstance(hands, list) or len(hands) != N_SEATS:
        raise RecordError(_hands_wrong(hands))
    try:
        known = completion.known_flags(record, N_SEATS)
    except ValueError as e:
        raise RecordError(str(e)) from None
    masks = [0] * N_SEATS
    for s in range(N_SEATS):
        if not completion.is_unknown(hands[s]):
            try:
                masks[s] = parse_hand(hands[s])
            except ValueError as e:
                raise RecordError(f"hand of seat {s}: {e}") from None
    unknown = [s for s in range(N_SEATS) if completion.is_unknown(hands[s])]
    seen = [0] * N_SEATS
    held = masks[0] | masks[1] | masks[2]
    for i, entry in enumerate(record.get("actions", [])):
        seat, action = action_from_json(entry, i)
        if action.cards & held & ~masks[seat]:
            owner = next(t for t in range(N_SEATS) if masks[t] & action.cards & ~masks[seat])
            raise RecordError(f"seat {seat} plays {format_cards(action.cards & masks[owner])}, "
                              f"which the hand of seat {owner} holds", i)
        seen[seat] |= action.cards
    pinned = [cards_of(seen[s]) for s in unknown]
    for s, p in zip(unknown, pinned):
        if len(p) > HAND_SIZE:
            raise RecordError(f"seat {s} plays {len(p)} cards in the record, more than a hand")
    pool = cards_of(FULL_DECK & ~held & ~mask_of(c for p in pinned for c in p))

    def propose(rng):
        dealt = completion.deal_places([HAND_SIZE] * len(unknown), pinned, pool, rng)
        if dealt is None:
            return None
        out = list(hands)
        for s, cards in zip(unknown, dealt):
            out[s] = format_cards(mask_of(cards))
        return {**record, "hands": out, "known": known}

    try:
        return completion.complete_by_rejection(propose,
                                                 completion.replay_check(replay, going_on),
                                                 seed, tries)
    except ValueError as e:
        raise RecordError(str(e)) from None


# the text notation's head: no fields of the game's own
text_head = core.plain_text_head
head_of_text = core.plain_head_of_text


FACE_DOWN = ("discard",)  # what a seat does not see the pieces of: another seat's 紧牌 discard


def hidden_token(entry: dict[str, Any]) -> str | None:
    """None: no action of this game is recorded face down."""
    return None


def hidden_entry(seat: int, token: str) -> dict[str, Any] | None:
    """None: no token of this game hides what was played."""
    return None
