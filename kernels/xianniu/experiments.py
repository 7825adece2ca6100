"""What the paired experiments need besides the drivers: a deal's patterns made or broken
by one swap, and the cells of the 掀 experiment.

Both experiments play a deal twice from one random stream (common random numbers) and keep
the difference, so the luck of the rest of the deal cancels: the pattern experiment plays
the altered deals in the play driver, the 掀 experiment its two answers in the paired one.
"""

from __future__ import annotations

import numpy as np

from ..jit import njit
from ..parallel import for_each_chunk
from ..rng import bounded, next_u64, seed_state
from .bits import FIVE, KING, NINE, POP4, nib, popcount
from .game import deal
from .policies import sure_cards
from .tables import N_SEATS

# Patterns whose value is measured; LIANG_BASE + r is the 亮子 of rank r.
PAT_NIU, PAT_XI, PAT_K = 0, 1, 2
LIANG_BASE = 3
N_PATTERNS = LIANG_BASE + 12

# Output columns per pattern: made/broken counts, Σ diff, Σ diff² (diff = with − without).
CF_N, CF_SUM, CF_SUMSQ, CF_MADE = range(4)


@njit(cache=True)
def _pick_card(mask, rng):
    """A uniformly chosen card (one-bit mask) of a non-empty mask."""
    k = bounded(rng, popcount(mask))
    m = mask
    for _ in range(k):
        m &= m - 1
    return m & -m


@njit(cache=True)
def counterfactual(hands, seat, pattern, rng, out):
    """Write into ``out`` the deal with ``pattern`` made or broken in ``seat``'s hand by one
    swap with another seat; returns +1 (made), -1 (broken) or 0 (one swap cannot do it).

    牛/喜: a 9 (5) of the missing colour comes in for a card of another rank, or the only 9
    (5) of one colour goes out. K: one more K comes in (only "made"). 亮子 of rank r: the
    fourth card comes in, or one of four goes out.
    """
    for s in range(N_SEATS):
        out[s] = hands[s]
    h = hands[seat]
    o1 = (seat + 1) % N_SEATS
    o2 = (seat + 2) % N_SEATS
    if pattern == PAT_NIU or pattern == PAT_XI:
        r = NINE if pattern == PAT_NIU else FIVE
        n = nib(h, r)
        black, red = n & 5, n & 10
        if black != 0 and red != 0:
            if popcount(black) == 1 and popcount(red) == 1:
                lone = black if bounded(rng, 2) == 0 else red
            elif popcount(black) == 1:
                lone = black
            elif popcount(red) == 1:
                lone = red
            else:
                return 0
            give = lone << (4 * r)
            other = o1 if bounded(rng, 2) == 0 else o2
            take = _pick_card(hands[other] & ~(15 << (4 * r)), rng)
            sign = -1
        elif black != 0 or red != 0:
            want = (10 if black != 0 else 5) << (4 * r)  # the colour the seat lacks
            if hands[o1] & want:
                other = o1
            else:
                other = o2
            take = _pick_card(hands[other] & want, rng)
            give = _pick_card(h & ~(15 << (4 * r)), rng)
            sign = 1
        else:
            return 0
    elif pattern == PAT_K:
        ks = (15 << (4 * KING))
        if nib(h, KING) == 15:
            return 0
        other = o1 if (hands[o1] & ks) != 0 and (bounded(rng, 2) == 0 or
                                                  (hands[o2] & ks) == 0) else o2
        take = _pick_card(hands[other] & ks, rng)
        give = _pick_card(h & ~ks, rng)
        sign = 1
    else:
        r = pattern - LIANG_BASE
        rm = 15 << (4 * r)
        c = POP4[nib(h, r)]
        if c == 3:
            other = o1 if (hands[o1] & rm) != 0 else o2
            take = hands[other] & rm
            give = _pick_card(h & ~rm, rng)
            sign = 1
        elif c == 4:
            other = o1 if bounded(rng, 2) == 0 else o2
            give = _pick_card(h & rm, rng)
            take = _pick_card(hands[other] & ~rm, rng)
            sign = -1
        else:
            return 0
    if take == 0 or give == 0:
        return 0
    out[seat] = (h & ~give) | take
    out[other] = (hands[other] & ~take) | give
    return sign


@njit(cache=True)
def holds(h, pattern):
    """Does hand ``h`` hold ``pattern`` (for K: at least one K)?"""
    if pattern == PAT_NIU or pattern == PAT_XI:
        n = nib(h, NINE if pattern == PAT_NIU else FIVE)
        return (n & 5) != 0 and (n & 10) != 0
    if pattern == PAT_K:
        return nib(h, KING) != 0
    return nib(h, pattern - LIANG_BASE) == 15


# Per deal of the pattern experiment: the dealt hands, then each pattern made or broken by
# one swap; a row's meta: (deal, pattern or -1 for the deal as dealt, seat, sign)
CF_ROWS = N_PATTERNS + 1
M_DEAL, M_PATTERN, M_SEAT, M_SIGN = range(4)


@njit(nogil=True, cache=True)
def _counterfactual_deals_chunk(c, states, span, deals, streams, meta):
    """Chunk ``c`` of :func:`counterfactual_deals` (``span``: the chunk size, the deals)."""
    chunk_size, n_deals = span
    rng = states[c].copy()
    hands = np.empty(3, dtype=np.int64)
    alt = np.empty(3, dtype=np.int64)
    for d in range(c * chunk_size, min((c + 1) * chunk_size, n_deals)):
        row = d * CF_ROWS
        deal(rng, hands)
        word = next_u64(rng)
        for k in range(CF_ROWS):
            meta[row + k, M_SIGN] = 0
        for s in range(N_SEATS):
            deals[row, s] = hands[s]
        meta[row, M_DEAL], meta[row, M_PATTERN], meta[row, M_SIGN] = d, -1, 1
        seed_state(word, streams[row])
        for pattern in range(N_PATTERNS):
            seat = bounded(rng, 3)
            sign = counterfactual(hands, seat, pattern, rng, alt)
            if sign == 0:
                continue
            r = row + 1 + pattern
            for s in range(N_SEATS):
                deals[r, s] = alt[s]
            meta[r, M_DEAL], meta[r, M_PATTERN], meta[r, M_SEAT], meta[r, M_SIGN] = \
                d, pattern, seat, sign
            seed_state(word, streams[r])  # the altered deal plays from the dealt one's stream


def counterfactual_deals(states, chunk_size, n_deals, deals, streams, meta):
    """Deal ``n_deals`` hands (chunk ``c`` from ``states[c]``) and alter each once per
    pattern, the pattern made or broken in one random seat's hand by a single swap
    (:func:`counterfactual`). Row ``d * CF_ROWS`` is deal ``d`` as dealt, row
    ``d * CF_ROWS + 1 + pattern`` its alteration (``meta`` sign 0 where one swap cannot do
    it); ``deals`` the deal rows (banker 0), ``streams`` the stream each row plays from
    (the dealt deal's, for all its rows)."""
    for_each_chunk(_counterfactual_deals_chunk, states.shape[0], states, (chunk_size, n_deals),
                   deals, streams, meta)


@njit(nogil=True, cache=True)
def holds_table(hands, out):
    """``out[i, pattern]``: does hand ``hands[i]`` hold each pattern (:func:`holds`)?"""
    for i in range(hands.shape[0]):
        for pattern in range(N_PATTERNS):
            out[i, pattern] = 1 if holds(hands[i], pattern) else 0


# 掀 EV cells: sure cards 0..SURE_BINS-1 (the last bin holds that many or more) × K count 0..4.
SURE_BINS = 9
XE_N, XE_SUM, XE_SUMSQ, XE_XIAN, XE_KOU, XE_XIAN_SQ, XE_KOU_SQ, XE_COLS = range(8)


@njit(nogil=True, cache=True)
def xian_ev_cells(hands, beaters, cells):
    """Each hand's cell of the 掀 experiment into ``cells``: sure cards (capped at
    ``SURE_BINS - 1``) and number of K."""
    for i in range(hands.shape[0]):
        h = hands[i]
        cells[i, 0] = min(sure_cards(h, 0xFFFFFFFFFFFF & ~h, beaters), SURE_BINS - 1)
        cells[i, 1] = POP4[nib(h, KING)]
