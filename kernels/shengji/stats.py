"""Paired experiments on whole 双升 hands (``game``): what holding a joker pair, one more
level card (级牌) or one more trump (主) is worth, by one swap on the same deal, and what
抠底 changed in levels. (The same deals under several rule vectors or levels are the play
driver's: ``analyzer.shengji.analysis.paired_rows``.)

A counterfactual plays each deal once as dealt, then once per pattern with that pattern made
(or, for a joker pair, made or broken) in one random seat's hand by a single swap with
another seat; both versions play from one stream (common random numbers), so the luck of
the rest of the deal cancels. The trump and level of a swap are those the hand as dealt
ended with (bidding may then go otherwise: that is part of what the card is worth).
"""

from __future__ import annotations

import numpy as np

from ..arrays import copy_rows
from ..jit import njit
from ..parallel import for_each_chunk
from ..rng import bounded, next_u64, seed_state
from .context import CX_SUIT_MASK, NT, TRUMP
from .deal import deal
from .game import (
    N_WHOLE,
    W_BANKER,
    W_GAIN,
    W_LEVEL,
    W_PLAY,
    W_TRUMP,
    W_WINNER_TEAM,
    chunk_buffers,
    context_for,
    level_result,
    whole_hand_in,
)
from .hand import R_ATTACKER_POINTS, R_KITTY_POINTS, R_MULTIPLIER
from .params import P_NT_LEVEL_JOKER_TRACTOR
from .planes import ALL_FACES, BIG_JOKER, SMALL_JOKER, add_face, lowest_bit, popcount, remove_face
from .policies import pimc_flag, seat_policies

# Patterns whose value is measured.
PAT_BIG_PAIR, PAT_SMALL_PAIR, PAT_LEVEL, PAT_TRUMP = range(4)
N_PATTERNS = 4
# Output columns per pattern and role (0: the seat's team banks going in, 1: it defends):
# pairs, pairs made, Σ and Σ² of the team's level swing and of its net attacker points
# (with − without).
CF_N, CF_MADE, CF_LV, CF_LV_SQ, CF_PT, CF_PT_SQ = range(6)
CF_SIZE = 6


@njit(cache=True)
def pick_card(one, two, mask, rng):
    """A uniformly drawn physical card of ``(one, two)`` within ``mask``: its face, or -1
    when there is none."""
    o, t = one & mask, two & mask
    n = popcount(o) + popcount(t)
    if n == 0:
        return -1
    k = bounded(rng, n)
    m = o
    while m:
        f = lowest_bit(m)
        c = 2 if (t >> f) & 1 else 1
        if k < c:
            return f
        k -= c
        m &= m - 1
    return -1


@njit(cache=True)
def _pick_other(hands, seat, mask, rng):
    """``(other seat, face)``: a uniformly drawn physical card within ``mask`` from the
    three other seats' hands (not the kitty), or ``(-1, -1)``."""
    total = 0
    for k in range(1, 4):
        o = (seat + k) % 4
        total += popcount(hands[o, 0] & mask) + popcount(hands[o, 1] & mask)
    if total == 0:
        return -1, -1
    j = bounded(rng, total)
    for k in range(1, 4):
        o = (seat + k) % 4
        c = popcount(hands[o, 0] & mask) + popcount(hands[o, 1] & mask)
        if j < c:
            return o, pick_card(hands[o, 0], hands[o, 1], mask, rng)
        j -= c
    return -1, -1


@njit(cache=True)
def _joker_swap(hands, seat, face, plain, rng):
    """``(sign, other, give, take)`` for a joker pair of ``face``: broken (-1) when the seat
    holds both, made (+1) when it holds one and another seat the other; else sign 0."""
    b = np.int64(1) << face
    if hands[seat, 1] & b:
        other = (seat + 1 + bounded(rng, 3)) % 4
        return -1, other, face, pick_card(hands[other, 0], hands[other, 1], plain, rng)
    if hands[seat, 0] & b:
        for k in range(1, 4):
            o = (seat + k) % 4
            if hands[o, 0] & b:
                return 1, o, pick_card(hands[seat, 0], hands[seat, 1], plain, rng), face
    return 0, -1, -1, -1


@njit(cache=True)
def swap_pattern(hands, alt, seat, pattern, trump, level, trump_mask, rng):
    """Write into ``alt`` (int64[5, 2]) the deal ``hands`` with ``pattern`` made or broken in
    ``seat``'s hand by one swap with another seat, (T, L) = (``trump``, ``level``) and its
    主 faces ``trump_mask``; returns +1 (made), -1 (broken) or 0 (one swap cannot do it).

    A joker pair: the other copy comes in for a non-trump card, or one copy goes out for
    another seat's non-trump card. One more level card, or one more trump (a T-suit card
    below the level cards; none under NT): it comes in from another seat for a non-trump
    card of the seat's."""
    copy_rows(alt, hands)
    plain = ALL_FACES & ~trump_mask
    if pattern == PAT_BIG_PAIR or pattern == PAT_SMALL_PAIR:
        face = BIG_JOKER if pattern == PAT_BIG_PAIR else SMALL_JOKER
        sign, other, give, take = _joker_swap(hands, seat, face, plain, rng)
        if sign == 0:
            return 0
    else:
        level_faces = np.int64(0)
        for s in range(4):
            level_faces |= np.int64(1) << (13 * s + level - 2)
        if pattern == PAT_LEVEL:
            want = level_faces
        elif trump == NT:
            return 0
        else:
            want = (np.int64(0x1FFF) << (13 * trump)) & ~level_faces
        other, take = _pick_other(hands, seat, want, rng)
        give = pick_card(hands[seat, 0], hands[seat, 1], plain, rng)
        sign = 1
    if other < 0 or give < 0 or take < 0:
        return 0
    alt[seat, 0], alt[seat, 1] = remove_face(alt[seat, 0], alt[seat, 1], give)
    alt[seat, 0], alt[seat, 1] = add_face(alt[seat, 0], alt[seat, 1], take)
    alt[other, 0], alt[other, 1] = remove_face(alt[other, 0], alt[other, 1], take)
    alt[other, 0], alt[other, 1] = add_face(alt[other, 0], alt[other, 1], give)
    return sign


@njit(cache=True)
def team_swing(res, seat):
    """``(levels, points)`` of ``seat``'s team in whole-hand row ``res``: the levels it
    gained less those the other team gained, and the attackers' points counted for it when
    it attacks and against it when it banks."""
    team = seat % 2
    gain = res[W_GAIN] if res[W_WINNER_TEAM] == team else -res[W_GAIN]
    pts = res[W_PLAY + R_ATTACKER_POINTS]
    return gain, pts if res[W_BANKER] % 2 != team else -pts


@njit(nogil=True, cache=True)
def _values_chunk(c, chunks, start, params, pols, out, pimc):
    """Chunk ``c`` of :func:`values_chunks`."""
    states, n_per_chunk, n_deals = chunks
    start_banker = start[1]
    rng = states[c].copy()
    play = np.empty(4, dtype=np.uint64)
    deck, deals, chance, alog, tlog, scratch = chunk_buffers(pimc)
    alt = np.empty((2, 5, 2), dtype=np.int64)
    base = np.empty(N_WHOLE, dtype=np.int64)
    res = np.empty(N_WHOLE, dtype=np.int64)
    nt_flag = params[P_NT_LEVEL_JOKER_TRACTOR] != 0
    out[c] = 0
    for _ in range(c * n_per_chunk, min((c + 1) * n_per_chunk, n_deals)):
        deal(rng, deck, deals[0])
        word = next_u64(rng)  # the play stream both versions start from
        seed_state(word, play)
        whole_hand_in(deals, start, params, play, deck, (base, alog, chance, tlog), scratch,
                      pols)
        ctx = context_for(scratch[5], base[W_TRUMP], base[W_LEVEL], nt_flag)
        tmask = ctx[CX_SUIT_MASK + TRUMP]
        for p in range(N_PATTERNS):
            seat = bounded(rng, 4)
            sign = swap_pattern(deals[0], alt[0], seat, p, base[W_TRUMP], base[W_LEVEL],
                                tmask, rng)
            if sign == 0:
                continue
            seed_state(word, play)
            whole_hand_in(alt, start, params, play, deck, (res, alog, chance, tlog), scratch,
                          pols)
            lv1, pt1 = team_swing(res, seat)
            lv0, pt0 = team_swing(base, seat)
            dl, dp = (lv1 - lv0) * sign, (pt1 - pt0) * sign
            row = out[c, p, (seat - start_banker) % 2 if start_banker >= 0 else seat % 2]
            row[CF_N] += 1
            row[CF_MADE] += 1 if sign > 0 else 0
            row[CF_LV] += dl
            row[CF_LV_SQ] += dl * dl
            row[CF_PT] += dp
            row[CF_PT_SQ] += dp * dp


def values_chunks(states, n_per_chunk, n_deals, start, params, out, pols=None):
    """Counterfactual values on ``n_deals`` whole hands from ``start`` = (team levels, the
    banker going in), each seat on ``pols`` (``policies.seat_policies``; default random);
    chunk ``c`` deals ``c * n_per_chunk …`` from stream ``states[c]`` and writes
    ``out[c, pattern, role]`` (int64[CF_SIZE], ``CF_*``)."""
    pols = seat_policies(*(pols if pols is not None else (None, None)))
    for_each_chunk(_values_chunk, states.shape[0], (states, n_per_chunk, n_deals), start,
                   params, pols, out, pimc_flag(pols[0]))


@njit(cache=True)
def kou_di_swing(rows, params, out):
    """Per whole-hand row ``i``: the banker side's level swing (levels it gained, or minus
    the attackers') and whether it kept the bank, as played (``out[i, 0]``, ``out[i, 2]``)
    and without the points 抠底 added (``out[i, 1]``, ``out[i, 3]``)."""
    for i in range(rows.shape[0]):
        r = rows[i, W_PLAY:]
        p = r[R_ATTACKER_POINTS]
        bonus = r[R_KITTY_POINTS] * r[R_MULTIPLIER]
        for k in range(2):
            holds, gain = level_result(p - k * bonus, params)
            out[i, k] = gain if holds else -gain
            out[i, 2 + k] = 1 if holds else 0
