"""The heuristic policy's 造反, declarations, 扒鸡窝 and bury (docs/rules/shengji.md §4),
from the seat's own cards and the declarations shown.

- **Trump value** of a declaration for a hand: the cards that would be trump (its suit, the
  jokers and the level cards; 无主: jokers and level cards only), plus ``high_weight`` per
  joker and level card, plus, for 无主, ``nt_ace`` per plain ace.
- **Declaring.** It never overcalls its partner. It reinforces (加固) its own single when
  ``reinforce`` > 0.5. Otherwise it takes the listed declaration of highest trump value
  when that value reaches the threshold of the moment — ``grab`` in a 抢庄局, ``open_banker``
  or ``open_attacker`` for a first declaration in a normal hand, ``overcall`` over an
  opponent's declaration, ``bajiwo`` in 扒鸡窝 — and, over a standing declaration, beats the
  value of the standing trump for this hand.
- **造反** when its strength (大王 2; 小王, each level card, each plain ace 1) is at most
  ``rebel``.
- **Bury.** Whole plain suits of at most ``bury_void`` cards, shortest first (point-free
  suits only unless ``bury_points`` > 0.5), to make voids; then the lowest plain cards,
  keeping point cards, pairs and trumps as long as it can. When the trump value of its 33
  cards (at the trump of the moment) reaches ``bury_safe``, it trusts its side to take the
  last trick: suits with point cards may be voided and the plain point cards go first.
"""

from __future__ import annotations

import numpy as np

from ..jit import njit
from .bidding import CLS_NONE, CLS_PAIR, NT
from .context import CX_LEVEL, CX_SUIT_MASK, CX_TRUMP
from .heuristic import MODE_BURY, MODE_BURY_POINTS, choose_cards
from .planes import BIG_JOKER, JOKERS, SMALL_JOKER, add, count, points, popcount, subtract
from .policies import (
    H_BAJIWO,
    H_BURY_POINTS,
    H_BURY_SAFE,
    H_BURY_VOID,
    H_GRAB,
    H_HIGH_WEIGHT,
    H_NT_ACE,
    H_OPEN_ATTACKER,
    H_OPEN_BANKER,
    H_OVERCALL,
    H_REBEL,
    H_REINFORCE,
)

SUIT_FACES = (1 << 13) - 1
KITTY_SIZE = 8


@njit(cache=True, inline="always")
def _level_faces(level):
    out = np.int64(0)
    for s in range(4):
        out |= np.int64(1) << (13 * s + level - 2)
    return out


@njit(cache=True, inline="always")
def _aces(one, two, level):
    # plain aces held (physical cards), the level's aces excluded
    if level == 14:
        return 0
    m = np.int64(0)
    for s in range(4):
        m |= np.int64(1) << (13 * s + 12)
    return popcount(one & m) + popcount(two & m)


@njit(cache=True)
def trump_value(one, two, level, suit, hp):
    """The heuristic's value of trump ``suit`` (0..3, 4 NT) at ``level`` for a hand."""
    high = JOKERS | _level_faces(level)
    m = high
    if suit < NT:
        m |= np.int64(SUIT_FACES) << (13 * suit)
    v = popcount(one & m) + popcount(two & m) \
        + hp[H_HIGH_WEIGHT] * (popcount(one & high) + popcount(two & high))
    if suit == NT:
        v += hp[H_NT_ACE] * _aces(one, two, level)
    return v


@njit(cache=True)
def heuristic_declare(one, two, level, standing, turn, listed, hp):
    """The heuristic's choice (module docstring) for the hand ``(one, two)`` declaring at
    ``level``, among pass (0) and the listed declarations: ``listed`` = (``dcls``,
    ``dsuit``, ``k``), i + 1 for ``dcls[i]``, ``dsuit[i]``. ``standing`` = (``cls``,
    ``suit``, ``seat``) of the standing declaration (cls 0: none); ``turn`` = (``seat``,
    ``banker``, ``grab``, ``bajiwo``): who decides, the banker, a 抢庄局, 扒鸡窝."""
    st_cls, st_suit, st_seat = standing
    seat, banker, grab, bajiwo = turn
    dcls, dsuit, k = listed
    if k == 0:
        return 0
    standing = st_cls != CLS_NONE
    if standing and st_seat == seat:
        if hp[H_REINFORCE] > 0.5:
            for i in range(k):
                if dcls[i] == CLS_PAIR and dsuit[i] == st_suit:
                    return i + 1
        return 0
    if standing and (st_seat + 4 - seat) % 4 == 2:
        return 0
    best, best_v = -1, -1e18
    for i in range(k):
        v = trump_value(one, two, level, dsuit[i], hp)
        if v > best_v or (v == best_v and dcls[i] > dcls[best]):
            best, best_v = i, v
    if bajiwo:
        need = hp[H_BAJIWO]
    elif standing:
        need = hp[H_OVERCALL]
    elif grab:
        need = hp[H_GRAB]
    elif (seat + 4 - banker) % 2 == 0:
        need = hp[H_OPEN_BANKER]
    else:
        need = hp[H_OPEN_ATTACKER]
    if best_v < need:
        return 0
    if standing and best_v <= trump_value(one, two, level, st_suit, hp):
        return 0
    return best + 1


@njit(cache=True)
def heuristic_rebel(one, two, level, hp):
    """Whether the heuristic calls 造反 with this hand (module docstring)."""
    lv = _level_faces(level)
    strength = 2 * ((one >> BIG_JOKER) & 1) + 2 * ((two >> BIG_JOKER) & 1) \
        + ((one >> SMALL_JOKER) & 1) + ((two >> SMALL_JOKER) & 1) \
        + popcount(one & lv) + popcount(two & lv) + _aces(one, two, level)
    return strength <= hp[H_REBEL]


@njit(cache=True)
def heuristic_bury(one, two, ctx, hp):
    """The 8 cards the heuristic buries from its 33 (module docstring), as planes."""
    slots = KITTY_SIZE
    b_one = np.int64(0)
    b_two = np.int64(0)
    safe = trump_value(one, two, ctx[CX_LEVEL], ctx[CX_TRUMP], hp) >= hp[H_BURY_SAFE]
    with_points = safe or hp[H_BURY_POINTS] > 0.5
    while True:
        best, best_n = -1, 99
        for e in range(4):
            m = ctx[CX_SUIT_MASK + e]
            n = count(one & m, two & m)
            if n == 0 or n > slots or n > hp[H_BURY_VOID] or n >= best_n:
                continue
            if not with_points and points(one & m, two & m) > 0:
                continue
            best, best_n = e, n
        if best < 0:
            break
        m = ctx[CX_SUIT_MASK + best]
        s_one, s_two = one & m, two & m
        b_one, b_two = add(b_one, b_two, s_one, s_two)
        one, two = subtract(one, two, s_one, s_two)
        slots -= best_n
    o, t = choose_cards(one, two, slots, MODE_BURY_POINTS if safe else MODE_BURY, ctx)
    return add(b_one, b_two, o, t)
