"""Paired experiments on the same deals: what a card pattern is worth, and 掀 against 扣.

Both play a deal twice from one random stream (common random numbers) and keep the
difference, so the luck of the rest of the deal cancels.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..parallel import for_each_chunk
from ..rng import bounded, next_u64, seed_state
from .batch import no_log
from .bits import FIVE, KING, NINE, POP4, nib, popcount
from .decisions import pair_buffers
from .game import N_RESULT, PH_LEAD, R_PTS0, S_PHASE, advance, deal, new_scratch, start_hand
from .hand import pimc_flag, play_both, play_hand
from .policies import POLICY_PIMC, sure_cards
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


@njit(nogil=True, cache=True)
def _counterfactual_chunk(c, states, span, rules, policies, outs, pimc):
    """Chunk ``c`` of :func:`counterfactual_chunks` (``span``: the chunk size and the deals;
    ``outs``: ``cf``, ``obs``, ``kobs``)."""
    chunk_size, n_deals = span
    cf, obs, kobs = outs
    rng = states[c].copy()
    play_rng = np.empty(4, dtype=np.uint64)
    hands = np.empty(3, dtype=np.int64)
    alt = np.empty(3, dtype=np.int64)
    scratch = new_scratch()
    logbuf = no_log()
    res = np.empty(N_RESULT, dtype=np.int64)
    base = np.empty(3, dtype=np.int64)
    cf[c, :, :] = 0
    obs[c, :, :, :] = 0
    kobs[c, :, :] = 0
    start = c * chunk_size
    stop = min(start + chunk_size, n_deals)
    for _ in range(start, stop):
        deal(rng, hands)
        word = next_u64(rng)
        seed_state(word, play_rng)
        play_hand(hands, np.int64(0), rules, policies, play_rng, scratch, logbuf, np.int64(0), res,
                  pimc)
        for s in range(N_SEATS):
            p = res[R_PTS0 + s]
            base[s] = p
            for pattern in range(N_PATTERNS):
                hold = 1 if holds(hands[s], pattern) else 0
                obs[c, pattern, hold, 0] += 1
                obs[c, pattern, hold, 1] += p
                obs[c, pattern, hold, 2] += p * p
            k = POP4[nib(hands[s], KING)]
            kobs[c, k, 0] += 1
            kobs[c, k, 1] += p
            kobs[c, k, 2] += p * p
        for pattern in range(N_PATTERNS):
            seat = bounded(rng, 3)
            sign = counterfactual(hands, seat, pattern, rng, alt)
            if sign == 0:
                continue
            seed_state(word, play_rng)
            play_hand(alt, np.int64(0), rules, policies, play_rng, scratch, logbuf, np.int64(0),
                      res, pimc)
            diff = (res[R_PTS0 + seat] - base[seat]) * sign  # with − without
            cf[c, pattern, CF_N] += 1
            cf[c, pattern, CF_SUM] += diff
            cf[c, pattern, CF_SUMSQ] += diff * diff
            if sign > 0:
                cf[c, pattern, CF_MADE] += 1


def counterfactual_chunks(states, chunk_size, n_deals, rules, policies, cf, obs, kobs):
    """Play every deal once, then once per pattern with that pattern made or broken in one
    random seat's hand by a single swap, from the same stream.

    Per chunk ``c``: ``cf[c, pattern]`` = (pairs, Σ diff, Σ diff², pairs made) with
    diff = points with the pattern − without; ``obs[c, pattern, holds]`` = (seat-hands, Σ
    points, Σ points²) of the unchanged deals by whether the seat holds the pattern;
    ``kobs[c, k]`` the same by number of K.
    """
    for_each_chunk(_counterfactual_chunk, states.shape[0], states, (chunk_size, n_deals),
                   rules, policies, (cf, obs, kobs), pimc_flag(policies[0]))


# 掀 EV cells: sure cards 0..SURE_BINS-1 (the last bin holds that many or more) × K count 0..4.
SURE_BINS = 9
XE_N, XE_SUM, XE_SUMSQ, XE_XIAN, XE_KOU, XE_XIAN_SQ, XE_KOU_SQ, XE_COLS = range(8)


@njit(nogil=True, cache=True)
def _xian_ev_chunk(c, states, chunk_size, n_deals, rules, policies, out, pimc):
    """Chunk ``c`` of :func:`xian_ev_chunks`."""
    params, set_beats, beaters = rules
    ids, weights = policies
    asked = ids.copy()
    asked[1] = POLICY_PIMC  # stop where seat 1 must answer the 扣
    rng = states[c].copy()
    play_rng, hands, scratch, saved, logbuf, res, res_b = pair_buffers()
    ws = scratch[2]
    out[c, :, :, :] = 0
    start = c * chunk_size
    stop = min(start + chunk_size, n_deals)
    for _ in range(start, stop):
        deal(rng, hands)
        start_hand(hands, np.int64(0), params, ws)
        if ws[S_PHASE] != PH_LEAD:
            continue  # a 抢刺 comes first: not the position asked about
        word = next_u64(rng)
        seed_state(word, play_rng)
        # the banker 扣s (entry 0 at its first decision); stop when seat 1 is asked
        if advance(rules, (asked, weights), play_rng, scratch, logbuf, np.int64(0),
                   np.int64(0)) != 1:
            continue
        # 掀 is entry 1 of seat 1's answer, 扣 entry 0
        play_both(rules, policies, play_rng, scratch, logbuf, (np.int64(1), np.int64(0)),
                  (saved, res, res_b), pimc)
        p_xian = res[R_PTS0 + 1]
        p_kou = res_b[R_PTS0 + 1]
        h = hands[1]
        sb = min(sure_cards(h, 0xFFFFFFFFFFFF & ~h, beaters), SURE_BINS - 1)
        kc = POP4[nib(h, KING)]
        d = p_xian - p_kou
        out[c, sb, kc, XE_N] += 1
        out[c, sb, kc, XE_SUM] += d
        out[c, sb, kc, XE_SUMSQ] += d * d
        out[c, sb, kc, XE_XIAN] += p_xian
        out[c, sb, kc, XE_KOU] += p_kou
        out[c, sb, kc, XE_XIAN_SQ] += p_xian * p_xian
        out[c, sb, kc, XE_KOU_SQ] += p_kou * p_kou


def xian_ev_chunks(states, chunk_size, n_deals, rules, policies, out):
    """When the banker 扣s at its first decision, seat 1's points after 掀 minus after 扣.

    Each deal without 抢刺 is played twice from the moment seat 1 is asked, from one stream.
    ``out[c, sure_bin, k_count]`` accumulates (deals, Σ diff, Σ diff², Σ 掀 points, Σ 扣
    points, Σ 掀 points², Σ 扣 points²), binned by seat 1's hand: cards in whole-rank groups
    nobody could beat knowing only this hand (:func:`kernels.xianniu.policies.sure_cards`),
    and its number of K.
    """
    for_each_chunk(_xian_ev_chunk, states.shape[0], states, chunk_size, n_deals, rules,
                   policies, out, pimc_flag(policies[0]))
