"""Dealing (发牌) and deal features for odds studies (docs/rules/shengji.md §1, §4.1, §4.5).

A deal is ``hands[5, 2]``: rows 0..3 are the seats' 25-card hands, row 4 the 8-card kitty
(底牌), columns the planes ``(one, two)``. It is a partial Fisher–Yates shuffle of the 108
physical cards: steps i = 107 … 24 each swap position i with a uniform position in [0, i].
Positions 25..32 go to the kitty, 33..57, 58..82 and 83..107 to seats 1, 2 and 3, and the
rest (0..24) to seat 0. The uniform draws come four at a time, one per 16-bit quarter of an
xoshiro256** output, by Lemire's multiply-and-reject, so the deal is exactly uniform.
"""

from __future__ import annotations

import numpy as np

from ..jit import njit
from ..parallel import for_each_chunk
from ..rng import _rotl
from .context import CX_SUIT_MASK, TRUMP, new_context
from .params import (
    JOKER_COLOUR_SWAPPED,
    P_JOKER_COLOUR,
    P_JOKER_PAIR_MAY_OPEN,
    P_LEVEL_CARDS_NEED_JOKER,
    P_REBEL_THRESHOLD,
)
from .planes import ALL_FACES, BIG_JOKER, SMALL_JOKER, points, popcount

KITTY = 4
HAND_SIZE, KITTY_SIZE = 25, 8
DECK = np.repeat(np.arange(54, dtype=np.uint8), 2)

# Per-seat block of the deal aggregate (seat s at s * DS_SIZE): counts and sums over deals.
DS_CAN_DECLARE = 0  # can open a declaration: suited, or a joker pair when that may open
DS_SUITED = 1  # can declare a suit (class 1 or 2)
DS_SUITED_PAIR = 2  # can declare a suit with a pair of level cards (class 2)
DS_JOKER_PAIR = 3  # holds 对小王 or 对大王
DS_REBEL = 4  # fewer points than rebel_threshold (would qualify for 造反, §4.5, enabled or not)
DS_POINTS = 5  # Σ points
DS_POINTS_SQ = 6  # Σ points²
DS_TRUMP = 7  # Σ trump length for the given (L, T)
DS_TRUMP_SQ = 8
DS_POINTS_HIST = 9  # 41 bins: points / 5
DS_TRUMP_HIST = DS_POINTS_HIST + 41  # 26 bins: trump length 0..25
DS_SIZE = DS_TRUMP_HIST + 26
# Table block at DT = 4 * DS_SIZE.
DT = 4 * DS_SIZE
DT_DEALS = 0
DT_NO_SUITED = 1  # no seat can declare a suit
DT_NOTHING = 2  # no seat can open any declaration
DT_DEFENDER_REBEL = 3  # a single defender (banker + 1 or + 3) has < rebel_threshold
DT_SIDE_REBEL = 4  # the two defenders together have < rebel_threshold
DT_KITTY_POINTS = 5
DT_KITTY_POINTS_SQ = 6
DT_SIZE = 7
DEAL_AGG_SIZE = DT + DT_SIZE


@njit(cache=True, inline="always")  # a call per batch costs more than the draws
def _draw4(s0, s1, s2, s3, n):
    """Four independent uniform draws below n, n-1, n-2, n-3 (n ≤ 2**15), one per 16-bit
    quarter of one xoshiro256** output (Lemire's multiply-and-reject, all four kept only
    if all four pass). The state goes in and comes out as four scalars, which keeps it in
    registers across the deal; returns ``(packed draws, s0, s1, s2, s3)``, 16 bits each."""
    while True:
        w = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
        t = s1 << np.uint64(17)
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = _rotl(s3, 45)
        x0 = np.int64(w & np.uint64(0xFFFF)) * n
        x1 = np.int64((w >> np.uint64(16)) & np.uint64(0xFFFF)) * (n - 1)
        x2 = np.int64((w >> np.uint64(32)) & np.uint64(0xFFFF)) * (n - 2)
        x3 = np.int64(w >> np.uint64(48)) * (n - 3)
        if min(min(x0 & 0xFFFF, x1 & 0xFFFF), min(x2 & 0xFFFF, x3 & 0xFFFF)) >= n:
            break  # every quarter is above its rejection zone (the zone of n - k is < n)
        if (x0 & 0xFFFF) >= 65536 % n and (x1 & 0xFFFF) >= 65536 % (n - 1) \
                and (x2 & 0xFFFF) >= 65536 % (n - 2) and (x3 & 0xFFFF) >= 65536 % (n - 3):
            break
    js = (x0 >> 16) | ((x1 >> 16) << 16) | ((x2 >> 16) << 32) | ((x3 >> 16) << 48)
    return js, s0, s1, s2, s3


@njit(cache=True, inline="always")  # measured: a call per deal costs ~15 % of the deal
def deal(rng, deck, hands):
    """Shuffle and deal into ``hands[5, 2]`` (seats 0..3, kitty 4); ``deck`` is uint8[108]
    scratch. Draws from ``rng`` in place."""
    deck[:] = DECK
    o1 = t1 = o2 = t2 = o3 = t3 = ok = tk = np.int64(0)
    s0, s1, s2, s3 = rng[0], rng[1], rng[2], rng[3]
    i = 107
    while i >= 24:  # 84 steps fix positions 24..107; positions 0..24 go to seat 0
        js, s0, s1, s2, s3 = _draw4(s0, s1, s2, s3, i + 1)
        for t in range(4):
            j = (js >> (16 * t)) & 0xFFFF
            card = deck[j]
            deck[j] = deck[i]  # position i is final: its card goes straight to its owner
            b = np.int64(1) << card
            if i >= 83:
                t3 |= o3 & b
                o3 |= b
            elif i >= 58:
                t2 |= o2 & b
                o2 |= b
            elif i >= 33:
                t1 |= o1 & b
                o1 |= b
            elif i >= 25:
                tk |= ok & b
                ok |= b
            else:
                deck[i] = card
            i -= 1
    rng[0], rng[1], rng[2], rng[3] = s0, s1, s2, s3
    hands[1, 0], hands[1, 1] = o1, t1
    hands[2, 0], hands[2, 1] = o2, t2
    hands[3, 0], hands[3, 1] = o3, t3
    hands[KITTY, 0], hands[KITTY, 1] = ok, tk
    # Seat 0 holds the rest: the full deck minus the four other sets.
    one, two = ALL_FACES, ALL_FACES
    for s in range(1, 5):
        one, two = (one & ~hands[s, 0]) | (two & ~hands[s, 1]), two & ~hands[s, 0]
    hands[0, 0], hands[0, 1] = one, two


@njit(cache=True, inline="always")  # called per seat per deal on the hot path
def seat_features(one, two, lv_free, lv_big, lv_small, trump_mask, pair_may_open):
    """One hand's features as ``(can_declare, suited, suited_pair, joker_pair, points,
    trump_length)`` (§4.1). ``lv_free`` are the level faces that declare alone, ``lv_big``
    / ``lv_small`` those that declare beside 大王 / 小王 (``declaring_masks``);
    ``pair_may_open`` is the joker_pair_may_open parameter."""
    allowed = lv_free
    if (one >> BIG_JOKER) & 1:
        allowed |= lv_big
    if (one >> SMALL_JOKER) & 1:
        allowed |= lv_small
    suited = (one & allowed) != 0
    suited_pair = (two & allowed) != 0
    joker_pair = ((two >> SMALL_JOKER) & 3) != 0
    can = suited or (joker_pair and pair_may_open != 0)
    trumps = popcount(one & trump_mask) + popcount(two & trump_mask)
    return can, suited, suited_pair, joker_pair, points(one, two), trumps


@njit(cache=True)
def declaring_masks(level, params):
    """``(lv_free, lv_big, lv_small)`` for seat_features: the level faces that declare
    alone (classic, level_cards_need_joker False), beside 大王, beside 小王."""
    red = (np.int64(1) << (13 + level - 2)) | (np.int64(1) << (39 + level - 2))
    black = (np.int64(1) << (level - 2)) | (np.int64(1) << (26 + level - 2))
    if params[P_LEVEL_CARDS_NEED_JOKER] == 0:
        return red | black, np.int64(0), np.int64(0)
    if params[P_JOKER_COLOUR] == JOKER_COLOUR_SWAPPED:
        return np.int64(0), black, red
    return np.int64(0), red, black


@njit(cache=True, inline="always")  # per deal: a call passes three arrays
def _accumulate(hands, banker, lv, trump_mask, pair_may_open, threshold, agg):
    agg[DT + DT_DEALS] += 1
    any_suited = False
    any_declare = False
    defenders = 0  # points of the two defenders (banker + 1, banker + 3)
    single = False
    for s in range(4):
        can, suited, suited_pair, joker_pair, p, t = seat_features(
            hands[s, 0], hands[s, 1], lv[0], lv[1], lv[2], trump_mask, pair_may_open)
        b = DS_SIZE * s
        agg[b + DS_CAN_DECLARE] += can
        agg[b + DS_SUITED] += suited
        agg[b + DS_SUITED_PAIR] += suited_pair
        agg[b + DS_JOKER_PAIR] += joker_pair
        agg[b + DS_REBEL] += p < threshold
        agg[b + DS_POINTS] += p
        agg[b + DS_POINTS_SQ] += p * p
        agg[b + DS_POINTS_HIST + p // 5] += 1
        agg[b + DS_TRUMP] += t
        agg[b + DS_TRUMP_SQ] += t * t
        agg[b + DS_TRUMP_HIST + t] += 1
        any_suited |= suited
        any_declare |= can
        if (s - banker) % 2 == 1:
            defenders += p
            single |= p < threshold
    agg[DT + DT_NO_SUITED] += not any_suited
    agg[DT + DT_NOTHING] += not any_declare
    agg[DT + DT_DEFENDER_REBEL] += single
    agg[DT + DT_SIDE_REBEL] += defenders < threshold
    k = points(hands[KITTY, 0], hands[KITTY, 1])
    agg[DT + DT_KITTY_POINTS] += k
    agg[DT + DT_KITTY_POINTS_SQ] += k * k


@njit(nogil=True, cache=True)
def _deal_chunk(c, chunks, setting, params, out):
    """Chunk ``c`` of :func:`deal_chunks` (``chunks`` = (states, n_per_chunk, n_deals),
    ``setting`` = (level, trump, banker))."""
    states, n_per_chunk, n_deals = chunks
    level, trump, banker = setting
    rng = states[c].copy()
    deck = np.empty(108, dtype=np.uint8)
    hands = np.empty((5, 2), dtype=np.int64)
    trump_mask = new_context(trump, level, False)[CX_SUIT_MASK + TRUMP]
    lv = declaring_masks(level, params)
    pair_may_open = params[P_JOKER_PAIR_MAY_OPEN]
    threshold = params[P_REBEL_THRESHOLD]
    agg = out[c]
    agg[:] = 0
    start = c * n_per_chunk
    stop = min(start + n_per_chunk, n_deals)
    for _ in range(start, stop):
        deal(rng, deck, hands)
        _accumulate(hands, banker, lv, trump_mask, pair_may_open, threshold, agg)


def deal_chunks(states, n_per_chunk, n_deals, level, trump, banker, params, out):
    """Deal ``n_deals`` times; chunk ``c`` deals ``n_per_chunk`` from stream ``states[c]``
    and ``out[c]`` (int64[DEAL_AGG_SIZE]) receives its aggregate (``DS_*``, ``DT_*``)."""
    for_each_chunk(_deal_chunk, states.shape[0], (states, n_per_chunk, n_deals),
                   (level, trump, banker), params, out)


@njit(cache=True)
def deal_many(state, n_deals, out):
    """Deal ``n_deals`` times from one stream into ``out[n_deals, 5, 2]``."""
    deck = np.empty(108, dtype=np.uint8)
    for d in range(n_deals):
        deal(state, deck, out[d])


@njit(cache=True)
def seat0_joker_pairs(states, n_per_chunk, n_deals, out):
    """Per chunk: deals where seat 0 holds 对大王 and 对小王 (``out[c] = big, small``)."""
    hands = np.empty((5, 2), dtype=np.int64)
    deck = np.empty(108, dtype=np.uint8)
    for c in range(states.shape[0]):
        rng = states[c].copy()
        for _ in range(c * n_per_chunk, min((c + 1) * n_per_chunk, n_deals)):
            deal(rng, deck, hands)
            out[c, 0] += (hands[0, 1] >> 53) & 1
            out[c, 1] += (hands[0, 1] >> 52) & 1
