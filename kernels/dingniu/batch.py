"""顶牛 kernels, the drivers: whole hands played to the end, and the chunk loops over many.

Arguments come in bundles: ``rules = (tiles, params)`` (the layout of :mod:`.game`),
``policies = (ids, hps)`` (a policy id per seat from :mod:`.policies` and each seat's
parameter vector), ``log = (actions, legal)`` for one hand's action log. A chunk always
holds the same hands and draws from its own stream ``rngs[c]``, whatever the number of
threads, so results depend on the seed alone. Every kernel is jit-compiled.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..parallel import for_each_chunk
from ..rng import next_u64, seed_state
from .game import (
    MAX_MOVES,
    N_KINDS,
    N_RESULT,
    N_SEATS,
    R_PTS,
    S_HAND,
    S_OVER,
    S_TURN,
    STATE_LEN,
    apply,
    deal,
    legal,
    settle,
)
from .policies import choose


@njit(cache=True)
def no_log():
    """An action log too small to be written: hands that keep no log."""
    return (np.empty((1, 2), dtype=np.int64), np.empty((1, 2), dtype=np.uint64))


@njit(cache=True)
def play_out(state, rules, policies, rng, res, log):
    """Play the hand in ``state`` to its end; ``policies = (ids, hps)``: seat ``s`` plays
    policy ``ids[s]`` with the parameters ``hps[s]``; the result row goes to ``res``.

    When ``log = (actions, legal)`` has room for a whole hand, decision ``i`` is logged as
    ``actions[i] = (seat, action)`` and its legal set as two 64-bit masks ``legal[i]``.
    Returns the number of decisions.
    """
    tiles, params = rules
    ids, hps = policies
    log_act, log_legal = log
    acts = np.empty(64, dtype=np.int64)
    scratch = np.empty(64, dtype=np.int64)
    logging = log_act.shape[0] >= MAX_MOVES
    i = 0
    while state[S_OVER] == 0:
        seat = state[S_TURN]
        n = legal(state, tiles, params, acts)
        a = choose(state, tiles, params, ids[seat], hps[seat], rng, acts, n)
        if logging:
            log_act[i, 0] = seat
            log_act[i, 1] = a
            lo = np.uint64(0)
            hi = np.uint64(0)
            for j in range(n):
                if acts[j] < 64:
                    lo |= np.uint64(1) << np.uint64(acts[j])
                else:
                    hi |= np.uint64(1) << np.uint64(acts[j] - 64)
            log_legal[i, 0] = lo
            log_legal[i, 1] = hi
        i += 1
        apply(state, tiles, params, a, scratch)
    settle(state, tiles, params, res)
    return i


@njit(nogil=True, cache=True)
def _play_chunk(c, rngs, chunk_size, n_hands, rules, policies, out):
    """Chunk ``c`` of :func:`play_chunks`."""
    rng = rngs[c].copy()
    state = np.empty(STATE_LEN, dtype=np.int64)
    log = no_log()
    for g in range(c * chunk_size, min((c + 1) * chunk_size, n_hands)):
        deal(rng, rules[0], state)
        play_out(state, rules, policies, rng, out[g], log)


def play_chunks(rngs, chunk_size, n_hands, rules, policies, out):
    """Deal and play ``n_hands`` hands; chunk ``c`` draws from ``rngs[c]``; rows to ``out``."""
    for_each_chunk(_play_chunk, rngs.shape[0], rngs, chunk_size, n_hands, rules, policies, out)


@njit(nogil=True, cache=True)
def _deal_many_chunk(c, rngs, chunk_size, n_deals, tiles, out):
    """Chunk ``c`` of :func:`deal_many`."""
    rng = rngs[c].copy()
    state = np.empty(STATE_LEN, dtype=np.int64)
    for g in range(c * chunk_size, min((c + 1) * chunk_size, n_deals)):
        deal(rng, tiles, state)
        for s in range(N_SEATS):
            for k in range(N_KINDS):
                out[g, s, k] = state[S_HAND + s * N_KINDS + k]


def deal_many(rngs, chunk_size, n_deals, tiles, out):
    """Deal ``n_deals`` times; ``out[g, seat, kind]`` gets the counts."""
    for_each_chunk(_deal_many_chunk, rngs.shape[0], rngs, chunk_size, n_deals, tiles, out)


@njit(nogil=True, cache=True)
def _deal_chunk(c, rngs, chunk_size, n_deals, tiles, out):
    """Chunk ``c`` of :func:`deal_chunks`."""
    rng = rngs[c].copy()
    state = np.empty(STATE_LEN, dtype=np.int64)
    held = 0
    for _ in range(c * chunk_size, min((c + 1) * chunk_size, n_deals)):
        deal(rng, tiles, state)
        held += state[S_HAND]
    out[c] = held


def deal_chunks(rngs, chunk_size, n_deals, tiles, out):
    """Deal ``n_deals`` times keeping no deal: ``out[c]`` counts the 大天 (kind 0) dealt to
    seat 0 in chunk ``c`` (what the benchmark times: dealing alone)."""
    for_each_chunk(_deal_chunk, rngs.shape[0], rngs, chunk_size, n_deals, tiles, out)


@njit(nogil=True, cache=True)
def _logged_chunk(c, rngs, chunk_size, n_hands, rules, policies, out, logs):
    """Chunk ``c`` of :func:`logged_chunks`."""
    deals, log_act, log_legal, n_moves = logs
    rng = rngs[c].copy()
    state = np.empty(STATE_LEN, dtype=np.int64)
    for g in range(c * chunk_size, min((c + 1) * chunk_size, n_hands)):
        deal(rng, rules[0], state)
        for s in range(N_SEATS):
            for k in range(N_KINDS):
                deals[g, s, k] = state[S_HAND + s * N_KINDS + k]
        n_moves[g] = play_out(state, rules, policies, rng, out[g], (log_act[g], log_legal[g]))


def logged_chunks(rngs, chunk_size, n_hands, rules, policies, out, logs):
    """As :func:`play_chunks`, keeping each hand's deal, action log and legal sets in
    ``logs = (deals[n, 4, 13], actions[n, MAX_MOVES, 2], legal[n, MAX_MOVES, 2] (uint64),
    moves[n])``."""
    for_each_chunk(_logged_chunk, rngs.shape[0], rngs, chunk_size, n_hands, rules, policies,
                   out, logs)


@njit(nogil=True, cache=True)
def _duplicate_chunk(c, rngs, chunk_size, n_deals, rules, seatings, out):
    """Chunk ``c`` of :func:`duplicate_chunks`."""
    seat_policies, seat_hps = seatings
    rng = rngs[c].copy()
    dealt = np.empty(STATE_LEN, dtype=np.int64)
    state = np.empty(STATE_LEN, dtype=np.int64)
    res = np.empty(N_RESULT, dtype=np.int64)
    log = no_log()
    base = np.empty(4, dtype=np.uint64)
    for g in range(c * chunk_size, min((c + 1) * chunk_size, n_deals)):
        deal(rng, rules[0], dealt)
        seed_state(next_u64(rng), base)  # the deal's own stream for its play
        for j in range(seat_policies.shape[0]):
            state[:] = dealt
            r = base.copy()  # common random numbers across seatings
            play_out(state, rules, (seat_policies[j], seat_hps[j]), r, res, log)
            for s in range(N_SEATS):
                out[g, j, s] = res[R_PTS + s]


def duplicate_chunks(rngs, chunk_size, n_deals, rules, seatings, out):
    """Each deal once per seating, all seatings from one stream copy; ``seatings =
    (seat_policies[j, 4], seat_hps[j, 4, :])``.

    ``out[g, j, seat]``: points of ``seat`` in deal ``g`` under seating ``j``.
    """
    for_each_chunk(_duplicate_chunk, rngs.shape[0], rngs, chunk_size, n_deals, rules,
                   seatings, out)


@njit(nogil=True, cache=True)
def _evaluate_actions_chunk(i, states, actions, n_actions, rules, policies, rngs, out):
    """Chunk ``i`` of :func:`evaluate_actions`."""
    tiles, params = rules
    state = np.empty(STATE_LEN, dtype=np.int64)
    scratch = np.empty(64, dtype=np.int64)
    log = no_log()
    for j in range(n_actions):
        state[:] = states[i]
        rng = rngs[i].copy()
        apply(state, tiles, params, actions[j], scratch)
        if state[S_OVER] != 0:
            settle(state, tiles, params, out[i, j])
        else:
            play_out(state, rules, policies, rng, out[i, j], log)


def evaluate_actions(states, actions, n_actions, rules, policies, rngs, out):
    """For each sampled state ``i`` and first action ``actions[j]``, play out the rest.

    ``out[i, j]`` is the result row; every action of sample ``i`` uses a copy of
    ``rngs[i]`` (common random numbers).
    """
    for_each_chunk(_evaluate_actions_chunk, states.shape[0], states, actions, n_actions,
                   rules, policies, rngs, out)
