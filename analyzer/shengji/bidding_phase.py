"""The bidding half of a 双升 hand (docs/rules/shengji.md §4): 造反 offers, declaring
rounds (亮主 / 反主 / 加固), the kitty (底牌) pick-up and bury, and 扒鸡窝.

Functions of a :class:`.state.HandState`; the engine calls them by phase. Turn model (§4.3, R6):
opportunities go round in play order from the round's first seat, and a declaring round
ends after four passes in a row; 扒鸡窝 ends when the three seats after the last burier pass.
"""

from __future__ import annotations

from collections import Counter

from .actions import (
    BAJIWO_PHASE,
    BURY,
    BURY_PHASE,
    DECLARE,
    DECLARE_PHASE,
    KITTY_SIZE,
    N_SEATS,
    PASS,
    REBEL,
    REBEL_PHASE,
    Action,
)
from .bidding import (
    Declaration,
    classify_declaration,
    declarable,
    joker_for_suit,
    overcall_valid,
    qualifies_rebel,
    trump_from_kitty_card,
    verify_overcall,
)
from .cards import RANK_NAMES, context, format_cards, rank_of
from .play_phase import start_play
from .state import HandState

# Seats from the banker to the one who banks after a 下台 (§4.4.2, ``stepdown_banker``).
_STEPDOWN_OFFSET = {"next_seat": 1}
# First seat of a declaring round, from the priority seat (§4.3, ``declare_start``).
_START_OFFSET = {"banker": 0, "banker_next": 1}


def team_level(st: HandState, seat: int) -> int:
    return st.levels[seat % 2]


def declare_level(st: HandState, seat: int) -> int:
    """The level ``seat`` declares with: its own team's in a 抢庄局's declaring round, else L
    (§4.2; 扒鸡窝 overcalls at the hand's L, §4.7.2)."""
    return team_level(st, seat) if st.grab and st.phase != BAJIWO_PHASE else st.the_level


def start(st: HandState) -> None:
    """After the deal: offer 造反 in a normal hand (§4.5), else open declaring."""
    if not st.grab:
        st.rebel_queue = rebel_candidates(st)
        if st.rebel_queue:
            st.phase, st.turn = REBEL_PHASE, st.rebel_queue[0]
            return
    open_round(st)


def rebel_candidates(st: HandState) -> list[int]:
    """Defenders offered 造反, asked from the banker's 下家 (R10, R11)."""
    rules = st.rules
    if not rules.rebel_enabled:
        return []
    banker = st.the_banker
    defenders = [(banker + 1) % N_SEATS, (banker + 3) % N_SEATS]
    if rules.rebel_scope == "side":
        hands = [st.hands[d] for d in defenders]
        return defenders if qualifies_rebel(hands[0], rules, hands[1]) else []
    return [d for d in defenders if qualifies_rebel(st.hands[d], rules)]


def open_round(st: HandState) -> None:
    """Start a declaring round from the priority seat (§4.3)."""
    st.phase, st.passes, st.standing = DECLARE_PHASE, 0, None
    st.round_declarers = set()
    offset = _START_OFFSET.get(st.rules.declare_start)
    st.turn = (st.priority + offset) % N_SEATS if offset is not None else st.chance.start_seat()


def legal_actions(st: HandState) -> list[Action]:
    """Pass first, then 造反 or every declaration the seat may make, by class then suit."""
    if st.phase == REBEL_PHASE:
        return [Action(PASS), Action(REBEL)]
    seat, out = st.turn, [Action(PASS)]
    bajiwo = st.phase == BAJIWO_PHASE
    for d in declarable(st.hands[seat], declare_level(st, seat), st.rules):
        if overcall_valid(st.standing, d.at(seat), rules=st.rules, bajiwo=bajiwo):
            out.append(Action(DECLARE, d.cards))
    return out


def verify(st: HandState, seat: int, action: Action) -> None:
    """Raise ValueError with the reason unless ``action`` is legal in a bidding phase."""
    kind, phase = action.kind, st.phase
    if phase == BURY_PHASE:
        if kind != BURY:
            raise ValueError(f"seat {seat} must bury {KITTY_SIZE} cards (扣底), not {kind}")
        if len(action.cards) != KITTY_SIZE:
            raise ValueError(f"cannot bury {len(action.cards)} cards: bury exactly {KITTY_SIZE}")
        _check_held(st, seat, action.cards)
        return
    if kind in (PASS, REBEL) and action.cards:
        raise ValueError(f"{kind} takes no cards")
    if phase == REBEL_PHASE:
        if kind not in (REBEL, PASS):
            raise ValueError(f"seat {seat} may rebel (造反) or pass now, not {kind}")
        return
    if kind == PASS:
        return
    if kind != DECLARE:
        what = "declaring" if phase == DECLARE_PHASE else "扒鸡窝"
        raise ValueError(f"seat {seat} may declare or pass during {what}, not {kind}")
    declaration_of(st, seat, action.cards)


def _check_held(st: HandState, seat: int, cards) -> None:
    hand = st.hands[seat]
    if all(cards.count(f) <= hand.count(f) for f in set(cards)):
        return
    missing = Counter(cards) - Counter(hand)
    if missing:
        raise ValueError(f"seat {seat} does not hold {format_cards(missing.elements())}")


def declaration_of(st: HandState, seat: int, cards) -> Declaration:
    """The declaration ``seat`` makes by showing ``cards``; ValueError with the reason if
    the cards make none or it may not follow the standing one (§4.1–4.2, §4.7)."""
    if not cards:
        raise ValueError("a declaration shows cards")
    _check_held(st, seat, cards)
    rules, level = st.rules, declare_level(st, seat)
    d = classify_declaration(cards, level, rules)
    plain = [f for f in cards if f < 52]
    if d is not None and plain and len(plain) < len(cards) and not rules.level_cards_need_joker:
        raise ValueError(f"without level_cards_need_joker a level card declares alone: show "
                         f"{format_cards(plain)} without the joker")
    if d is None:
        hint = ""
        plain = [f for f in cards if f < 52]
        if rules.level_cards_need_joker and plain and rank_of(plain[0]) == level:
            joker = format_cards((joker_for_suit(plain[0] // 13, rules),))
            hint = f"; a level card declares only beside the joker of its colour ({joker})"
        raise ValueError(f"{format_cards(cards)} make no declaration at level "
                         f"{RANK_NAMES[level]}{hint}")
    d = d.at(seat)
    try:
        verify_overcall(st.standing, d, rules=rules, bajiwo=st.phase == BAJIWO_PHASE)
    except ValueError as e:
        s = st.standing
        shown = "" if s is None else f" (standing: seat {s.seat} shows {format_cards(s.cards)})"
        raise ValueError(f"{e}{shown}") from None
    return d


def apply(st: HandState, seat: int, action: Action) -> None:
    """Apply a verified action of a bidding phase."""
    {REBEL_PHASE: _apply_rebel, DECLARE_PHASE: _apply_declare, BURY_PHASE: _apply_bury,
     BAJIWO_PHASE: _apply_bajiwo}[st.phase](st, seat, action)


def _apply_rebel(st: HandState, seat: int, action: Action) -> None:
    if action.kind == PASS:
        st.rebel_queue.pop(0)
        if st.rebel_queue:
            st.turn = st.rebel_queue[0]
        else:
            open_round(st)
        return
    hands, kitty = st.chance.redeal()  # 造反: a new deal and a 抢庄局 from the rebel (§4.5)
    st.deals.append((hands, kitty))
    st.hands, st.kitty = list(hands), kitty
    st.rebel, st.grab, st.priority = seat, True, seat
    st.banker = st.level = None
    st.rebel_queue = []
    open_round(st)


def _show(st: HandState, seat: int, cards) -> None:
    """Cards shown face up stay known to be in the hand until played or buried."""
    st.known[seat] |= Counter(cards)


def _apply_declare(st: HandState, seat: int, action: Action) -> None:
    if action.kind == PASS:
        st.passes += 1
        if st.passes == N_SEATS:
            end_round(st)
            return
    else:
        _declare(st, seat, action.cards)
        st.round_declarers.add(seat)
    st.turn = (seat + 1) % N_SEATS


def _declare(st: HandState, seat: int, cards) -> Declaration:
    d = declaration_of(st, seat, cards)
    st.standing, st.passes = d, 0
    st.declarations.append((seat, d.cards, st.phase))
    _show(st, seat, d.cards)
    return d


def end_round(st: HandState) -> None:
    """§4.4: the standing declaration sets T and who takes the kitty; with none, 下台 and a
    second round (normal hand, first round) or a random kitty-card trump."""
    d = st.standing
    if st.grab:
        # R9: the priority seat banks when nobody declared
        banker = st.priority if d is None or d.seat is None else d.seat
        st.banker, st.level = banker, team_level(st, banker)
    elif d is None and st.round == 1:
        st.stepped_down = st.the_banker
        banker = (st.the_banker + _STEPDOWN_OFFSET[st.rules.stepdown_banker]) % N_SEATS
        st.banker, st.level = banker, team_level(st, banker)
        st.priority, st.round = banker, 2
        open_round(st)
        return
    taker = st.the_banker
    partner = (taker + 2) % N_SEATS
    if (d is not None and not st.grab and d.seat == partner
            and taker not in st.round_declarers):  # R7
        taker = partner
        if st.rules.partner_declarer_becomes_banker:
            st.banker = partner
    if d is None:
        i = st.chance.draw_trump()
        st.random_trump_card = st.kitty[i]
        set_trump(st, trump_from_kitty_card(st.kitty[i]))
    else:
        set_trump(st, d.suit)
    pick_up(st, taker)


def set_trump(st: HandState, trump: int) -> None:
    st.trump = trump
    st.ctx = context(st.the_level, trump, st.rules.nt_level_joker_tractor)


def pick_up(st: HandState, seat: int) -> None:
    """``seat`` takes the kitty into its hand and must bury 8 (§4.6)."""
    st.picked_up = st.kitty
    st.hands[seat] = tuple(sorted(st.hands[seat] + st.kitty))
    st.kitty = ()
    st.kitty_taker = seat
    st.phase, st.turn = BURY_PHASE, seat


def _apply_bury(st: HandState, seat: int, action: Action) -> None:
    st.hands[seat] = tuple(sorted((Counter(st.hands[seat]) - Counter(action.cards)).elements()))
    st.kitty = action.cards
    st.kitty_log.append((seat, st.picked_up, action.cards))
    st.picked_up = ()
    st.last_burier = seat
    st.known[seat].clear()  # a shown card may now lie in the kitty
    if st.rules.bajiwo_enabled:
        st.phase, st.passes, st.turn = BAJIWO_PHASE, 0, (seat + 1) % N_SEATS
    else:
        start_play(st)


def _apply_bajiwo(st: HandState, seat: int, action: Action) -> None:
    if action.kind == PASS:
        st.passes += 1
        if st.passes == N_SEATS - 1:  # the three seats after the burier passed (§4.7.4)
            start_play(st)
        else:
            st.turn = (seat + 1) % N_SEATS
        return
    d = _declare(st, seat, action.cards)  # the overcaller swaps the kitty (R13)
    set_trump(st, d.suit)
    pick_up(st, seat)
