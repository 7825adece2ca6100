"""The decision queries: 掀 or 扣 for a given hand, and 扣 or lead for the banker.

Hidden cards are dealt at random to the other seats and kept only when the public facts of
the position hold under the seats' own policies (the banker chose to 扣; for seat 2, seat 1
扣ed too). Each kept deal is played on from the decision twice, once per action, from one
random stream.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..arrays import copy_into
from ..parallel import for_each_chunk
from ..rng import bounded, next_u64, seed_state
from .batch import no_log
from .bits import popcount
from .game import (
    N_RESULT,
    PH_KOU,
    PH_LEAD,
    R_CAP0,
    R_PTS0,
    S_LEAD,
    S_MUST_LEAD,
    S_N_ACT,
    S_PHASE,
    WS_HANDS,
    advance,
    finish_hand,
    new_scratch,
    start_hand,
)
from .hand import pimc_flag, play_both, play_on, track_passes
from .pimc import sample_hidden
from .policies import POLICY_PIMC
from .tables import N_SEATS, P_CI

# Per kept deal: points after action A and after action B, cards captured and 刺 flags, and
# the three seats' hands at the decision.
Q_A, Q_B, Q_CAP_A, Q_OPP_CI_A, Q_HAND0, N_Q = 0, 1, 2, 3, 4, 7
MAX_TRIES_PER_DEAL = 64  # dealing attempts per requested sample before it counts as missing


def _pimc(policies, with_pimc):
    """The ``pimc`` argument of a query: True when ``with_pimc`` (a query whose play-ons
    differ compiles one signature for all of them: without a pimc seat the machinery is
    never entered) or a seat of ``policies`` plays pimc, else None."""
    return True if with_pimc else pimc_flag(policies[0])


@njit(cache=True)
def _deal_around(hand, seat, pinned, rng, out):
    """Deal the cards outside ``hand`` at random to the two other seats, 16 each.

    ``pinned[s]`` holds cards known to lie with seat ``s`` (none in play: the decision
    queries pass zeros; a test pins most cards to enumerate a small case exactly).
    """
    o1, o2 = (seat + 1) % N_SEATS, (seat + 2) % N_SEATS
    rest = np.empty(32, dtype=np.int64)
    n = 0
    m = 0xFFFFFFFFFFFF & ~hand & ~pinned[o1] & ~pinned[o2]
    while m:
        low = m & -m
        rest[n] = low
        n += 1
        m ^= low
    for i in range(n - 1, 0, -1):
        j = bounded(rng, i + 1)
        t = rest[i]
        rest[i] = rest[j]
        rest[j] = t
    out[seat] = hand
    a = pinned[o1]
    b = pinned[o2]
    need_a = 16 - popcount(a)
    for i in range(n):
        if i < need_a:
            a |= rest[i]
        else:
            b |= rest[i]
    out[o1] = a
    out[o2] = b


@njit(cache=True)
def pair_buffers():
    """Work arrays for playing positions on twice, from one stream: (play stream, dealt
    hands, state scratch, saved state words, empty log, result rows A and B)."""
    scratch = new_scratch()
    return (np.empty(4, dtype=np.uint64), np.empty(3, dtype=np.int64), scratch,
            np.empty_like(scratch[2]), no_log(), np.empty(N_RESULT, dtype=np.int64),
            np.empty(N_RESULT, dtype=np.int64))


@njit(cache=True)
def _record(params, res_a, res_b, seat, row):
    """``seat``'s points after actions A and B into ``row``, and after A its cards captured
    and whether an opponent reached 刺."""
    row[Q_A] = res_a[R_PTS0 + seat]
    row[Q_B] = res_b[R_PTS0 + seat]
    row[Q_CAP_A] = res_a[R_CAP0 + seat]
    row[Q_OPP_CI_A] = 0
    for s in range(N_SEATS):
        if s != seat and res_a[R_CAP0 + s] >= params[P_CI]:
            row[Q_OPP_CI_A] = 1


@njit(nogil=True, cache=True)
def _xian_query_chunk(c, query, states, per_chunk, rules, policies, outs, pimc):
    """Chunk ``c`` of :func:`xian_query_chunks` (``query``: the hand, the seat, the pinned
    cards; ``outs``: ``out`` and ``tries``)."""
    hand, seat, pinned = query
    out, tries = outs
    params = rules[0]
    ids, weights = policies
    stop_at = ids.copy()
    stop_at[seat] = POLICY_PIMC  # advance() stops where the asked seat must decide
    rng = states[c].copy()
    play_rng, hands, scratch, saved, logbuf, res_a, res_b = pair_buffers()
    ws = scratch[2]
    out[c, :, :] = -999
    tries[c] = 0
    for i in range(per_chunk):
        for _ in range(MAX_TRIES_PER_DEAL):
            tries[c] += 1
            _deal_around(hand, seat, pinned, rng, hands)
            start_hand(hands, np.int64(0), params, ws)
            track_passes(policies[0], ws)
            if ws[S_PHASE] != PH_LEAD:
                continue  # someone holds a 抢刺: a different position
            copy_into(out[c, i, Q_HAND0:Q_HAND0 + 3], hands)
            word = next_u64(rng)
            seed_state(word, play_rng)
            status = advance(rules, (stop_at, weights), play_rng, scratch, logbuf, np.int64(0),
                             np.int64(-1))
            # kept only if the banker 扣ed and (for seat 2) seat 1 扣ed: the asking
            # reached ``seat`` after exactly ``seat`` actions
            if status != 1 or ws[S_PHASE] != PH_KOU or ws[S_N_ACT] != seat \
                    or ws[S_LEAD] != 0:
                continue
            # 掀 is entry 1 of the answer, 扣 entry 0
            play_both(rules, policies, play_rng, scratch, logbuf, (np.int64(1), np.int64(0)),
                      (saved, res_a, res_b), pimc)
            _record(params, res_a, res_b, seat, out[c, i])
            break


# ``with_pimc`` beside the query's bundles: a query of several play-ons compiles once
def xian_query_chunks(hand, seat, pinned, states, per_chunk, rules, policies, outs,
                      with_pimc=False):
    """Kept deals where ``seat`` (1 or 2) is asked to answer the banker's opening 扣.

    ``out[c, i]`` receives (points after 掀, points after 扣, cards captured after 掀, 1 if an
    opponent reached 刺 after 掀, the three hands as dealt) for chunk ``c``'s ``i``-th kept
    deal; ``tries[c]`` counts the deals dealt, kept or not (``outs = (out, tries)``). Rows
    of deals never kept stay at -999. ``pinned`` as in :func:`_deal_around`.
    """
    for_each_chunk(_xian_query_chunk, states.shape[0], (hand, seat, pinned), states,
                   per_chunk, rules, policies, outs, _pimc(policies, with_pimc))


@njit(nogil=True, cache=True)
def _kou_query_chunk(c, query, states, per_chunk, rules, policies, outs, pimc):
    """Chunk ``c`` of :func:`kou_query_chunks` (``query``: the hand, the pinned cards)."""
    hand, pinned = query
    out, tries = outs
    params = rules[0]
    rng = states[c].copy()
    play_rng, hands, scratch, saved, logbuf, res_a, res_b = pair_buffers()
    ws = scratch[2]
    out[c, :, :] = -999
    tries[c] = 0
    for i in range(per_chunk):
        for _ in range(MAX_TRIES_PER_DEAL):
            tries[c] += 1
            _deal_around(hand, 0, pinned, rng, hands)
            start_hand(hands, np.int64(0), params, ws)
            track_passes(policies[0], ws)
            if ws[S_PHASE] != PH_LEAD:
                continue
            copy_into(out[c, i, Q_HAND0:Q_HAND0 + 3], hands)
            word = next_u64(rng)
            seed_state(word, play_rng)
            copy_into(saved, ws)
            # 扣 is entry 0
            play_on(rules, policies, play_rng, scratch, logbuf, np.int64(0), np.int64(0), pimc)
            finish_hand(params, ws, res_a)
            copy_into(ws, saved)
            ws[S_MUST_LEAD] = 1  # the lead branch: 扣 is not offered
            seed_state(word, play_rng)
            play_on(rules, policies, play_rng, scratch, logbuf, np.int64(0), np.int64(-1), pimc)
            finish_hand(params, ws, res_b)
            _record(params, res_a, res_b, 0, out[c, i])
            break


# ``with_pimc`` beside the query's bundles: a query of several play-ons compiles once
def kou_query_chunks(hand, pinned, states, per_chunk, rules, policies, outs, with_pimc=False):
    """The banker holds ``hand``: points after 扣 at its first decision and after leading as
    its policy would (扣 not offered), from one stream. ``out`` as in xian_query_chunks with
    A = 扣, B = lead."""
    for_each_chunk(_kou_query_chunk, states.shape[0], (hand, pinned), states, per_chunk,
                   rules, policies, outs, _pimc(policies, with_pimc))


@njit(nogil=True, cache=True)
def _xian_at_position_chunk(c, query, states, per_chunk, rules, policies, outs, pimc):
    """Chunk ``c`` of :func:`xian_at_position_chunks` (``query``: the position, the seat)."""
    position, seat = query
    out, tries = outs
    params, set_beats, _ = rules
    rng = states[c].copy()
    play_rng, _, scratch, sample, logbuf, res_a, res_b = pair_buffers()
    ws = scratch[2]
    out[c, :, :] = -999
    tries[c] = 0
    for i in range(per_chunk):
        for _ in range(MAX_TRIES_PER_DEAL):
            tries[c] += 1
            if not sample_hidden(position, seat, set_beats, rng, sample):
                continue
            copy_into(out[c, i, Q_HAND0:Q_HAND0 + 3], sample[WS_HANDS:WS_HANDS + 3])
            copy_into(ws, sample)
            seed_state(next_u64(rng), play_rng)
            play_both(rules, policies, play_rng, scratch, logbuf, (np.int64(1), np.int64(0)),
                      (sample, res_a, res_b), pimc)
            _record(params, res_a, res_b, seat, out[c, i])
            break


# ``with_pimc`` beside the query's bundles: a query of several play-ons compiles once
def xian_at_position_chunks(position, seat, states, per_chunk, rules, policies, outs,
                            with_pimc=False):
    """From a recorded position where ``seat`` answers a 扣: hidden cards dealt consistently
    with the public record (:func:`kernels.xianniu.pimc.sample_hidden`), then 掀 and 扣
    played on from one stream. ``out`` and ``tries`` as in :func:`xian_query_chunks`."""
    for_each_chunk(_xian_at_position_chunk, states.shape[0], (position, seat), states,
                   per_chunk, rules, policies, outs, _pimc(policies, with_pimc))
