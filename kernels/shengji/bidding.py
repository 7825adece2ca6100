"""Declaring (亮主), overcalling (反主), reinforcing (加固) and 造反 on planes
(docs/rules/shengji.md §4.1–4.2, §4.5, §4.7). Rules only; the turn order lives in ``game``.

A declaration is two integers: its class ``cls`` (0 none, 1 single 单亮, 2 pair 对亮,
3 对小王, 4 对大王) and its trump spec ``suit`` (0..3 ♠♥♣♦, 4 NT). Every rule parameter is
read from the rule vector (``params``): joker colours (R2), 对王 opening (R3), pair
against pair by suit and the suit order (R4), the partner overcalling (R5),
reinforcing during 扒鸡窝 (R14), whether level cards need a joker (§4.1) and the 造反
scope and threshold (R10).
"""

from __future__ import annotations

import numpy as np

from ..jit import njit
from .params import (
    JOKER_COLOUR_SWAPPED,
    P_BAJIWO_REINFORCE,
    P_JOKER_COLOUR,
    P_JOKER_PAIR_MAY_OPEN,
    P_LEVEL_CARDS_NEED_JOKER,
    P_PAIR_OVERCALL_BY_SUIT,
    P_PARTNER_MAY_OVERCALL,
    P_REBEL_ENABLED,
    P_REBEL_SCOPE,
    P_REBEL_THRESHOLD,
    P_SUIT_RANK,
    REBEL_SCOPE_SIDE,
    SUIT_RANK_DCHS,
)
from .planes import BIG_JOKER, SMALL_JOKER, lowest_bit, points

NT = 4
MAX_DECLS = 10  # four singles, four pairs, 对小王, 对大王
CLS_NONE, CLS_SINGLE, CLS_PAIR, CLS_SMALL_JOKERS, CLS_BIG_JOKERS = range(5)


@njit(cache=True)
def joker_for_suit(suit, params):
    """The joker face a level card of ``suit`` declares beside (``joker_colour``)."""
    red = suit == 1 or suit == 3
    big = red if params[P_JOKER_COLOUR] != JOKER_COLOUR_SWAPPED else not red
    return BIG_JOKER if big else SMALL_JOKER


@njit(cache=True)
def level_face(suit, level):
    """The face of the level card of ``suit``."""
    return 13 * suit + level - 2


@njit(cache=True, inline="always")
def declarable(one, two, level, params, out_cls, out_suit):
    """Every declaration the hand can show at ``level``, by class then suit ♠♥♣♦ (the
    engine's order); writes them to ``out_cls`` / ``out_suit`` and returns how many."""
    n = 0
    need_joker = params[P_LEVEL_CARDS_NEED_JOKER] != 0
    for cls in (CLS_SINGLE, CLS_PAIR):
        for suit in range(4):
            f = level_face(suit, level)
            held = ((one >> f) & 1) + ((two >> f) & 1)
            if held < cls:
                continue
            if need_joker and (one >> joker_for_suit(suit, params)) & 1 == 0:
                continue
            out_cls[n], out_suit[n] = cls, suit
            n += 1
    if (two >> SMALL_JOKER) & 1:
        out_cls[n], out_suit[n] = CLS_SMALL_JOKERS, NT
        n += 1
    if (two >> BIG_JOKER) & 1:
        out_cls[n], out_suit[n] = CLS_BIG_JOKERS, NT
        n += 1
    return n


@njit(cache=True)
def suit_strength(suit, params):
    """Rank of a suit among pair declarations, 3 = highest (``suit_rank``)."""
    return suit if params[P_SUIT_RANK] == SUIT_RANK_DCHS else 3 - suit


@njit(cache=True, inline="always")
def overcall_ok(st_cls, st_suit, st_seat, cls, suit, seat, bajiwo, params):
    """Whether ``seat`` may show declaration (cls, suit) over the standing one (class
    ``st_cls`` 0 when none) — §4.2, and §4.7 during 扒鸡窝 (R15: anything beats none)."""
    if st_cls == CLS_NONE:
        return cls < CLS_SMALL_JOKERS or params[P_JOKER_PAIR_MAY_OPEN] != 0 or bajiwo
    if seat == st_seat:  # only 加固: a single made a pair of the same suit
        if bajiwo and params[P_BAJIWO_REINFORCE] == 0:
            return False
        return st_cls == CLS_SINGLE and cls == CLS_PAIR and suit == st_suit
    if params[P_PARTNER_MAY_OVERCALL] == 0 and (seat - st_seat) % 4 == 2:
        return False
    if cls > st_cls:
        return True
    if cls == CLS_PAIR and st_cls == CLS_PAIR and params[P_PAIR_OVERCALL_BY_SUIT] != 0:
        return suit_strength(suit, params) > suit_strength(st_suit, params)
    return False


@njit(cache=True, inline="always")
def legal_declarations(one, two, level, standing, seat, bajiwo, params, out):
    """The declarations ``seat`` holding ``(one, two)`` may make now at ``level``
    (declarable and a valid overcall of ``standing`` = (``cls``, ``suit``, ``seat``), cls 0
    for none; ``bajiwo``: during 扒鸡窝), in the engine's order, into ``out`` = (``out_cls``,
    ``out_suit``); returns how many (passing is always legal besides)."""
    st_cls, st_suit, st_seat = standing
    out_cls, out_suit = out
    n = declarable(one, two, level, params, out_cls, out_suit)
    k = 0
    for i in range(n):
        if overcall_ok(st_cls, st_suit, st_seat, out_cls[i], out_suit[i], seat, bajiwo,
                       params):
            out_cls[k], out_suit[k] = out_cls[i], out_suit[i]
            k += 1
    return k


@njit(cache=True)
def shown_cards(cls, suit, level, params):
    """The cards a declaration shows, as planes ``(one, two)``."""
    if cls == CLS_SMALL_JOKERS:
        b = np.int64(1) << SMALL_JOKER
        return b, b
    if cls == CLS_BIG_JOKERS:
        b = np.int64(1) << BIG_JOKER
        return b, b
    b = np.int64(1) << level_face(suit, level)
    one = b
    if params[P_LEVEL_CARDS_NEED_JOKER] != 0:
        one |= np.int64(1) << joker_for_suit(suit, params)
    return one, b if cls == CLS_PAIR else np.int64(0)


@njit(cache=True)
def rebel_candidates(hands, banker, params, out):
    """Defenders offered 造反 in a normal hand (§4.5, R10/11), asked from the banker's
    下家: writes their seats to ``out`` and returns how many."""
    if params[P_REBEL_ENABLED] == 0:
        return 0
    d0, d1 = (banker + 1) % 4, (banker + 3) % 4
    p0 = points(hands[d0, 0], hands[d0, 1])
    p1 = points(hands[d1, 0], hands[d1, 1])
    threshold = params[P_REBEL_THRESHOLD]
    n = 0
    if params[P_REBEL_SCOPE] == REBEL_SCOPE_SIDE:
        if p0 + p1 < threshold:
            out[0], out[1] = d0, d1
            n = 2
        return n
    if p0 < threshold:
        out[n] = d0
        n += 1
    if p1 < threshold:
        out[n] = d1
        n += 1
    return n


@njit(cache=True)
def nth_card(one, two, k):
    """The face of the k-th (0-based) physical card of the set in face order (a face held
    twice counts twice): the engine's index into a sorted kitty."""
    rest = one
    while rest:
        f = lowest_bit(rest)
        c = 1 + ((two >> f) & 1)
        if k < c:
            return f
        k -= c
        rest &= rest - 1
    return np.int64(-1)


@njit(cache=True)
def trump_of_card(f):
    """§4.4.3: the drawn card's suit, NT for a joker."""
    return NT if f >= 52 else f // 13
