"""Parallel drivers: many deals or whole hands, one random stream per chunk.

A chunk always holds the same hands and draws from its own stream, whatever the number
of threads, so results depend on the seed alone.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from .game import INFO_COLS, MAX_ACTIONS, N_RESULT, deal, play_hand


@njit(parallel=True, cache=True)
def play_chunks(states, chunk_size, n_hands, params, set_beats, policies, out):
    """Deal and play ``n_hands`` hands; chunk ``c`` uses stream ``states[c]``.

    ``out[h]`` receives the result row of hand ``h``.
    """
    n_chunks = states.shape[0]
    for c in prange(n_chunks):
        rng = states[c].copy()
        hands = np.empty(3, dtype=np.int64)
        am = np.empty(MAX_ACTIONS, dtype=np.int64)
        ai = np.empty((MAX_ACTIONS, INFO_COLS), dtype=np.int64)
        log = np.empty((1, 3), dtype=np.int64)
        legal = np.empty((1, 2), dtype=np.int64)
        legal_off = np.empty(1, dtype=np.int64)
        start = c * chunk_size
        stop = min(start + chunk_size, n_hands)
        for h in range(start, stop):
            deal(rng, hands)
            play_hand(hands, 0, params, set_beats, policies, rng, am, ai, log, legal, legal_off,
                      0, out[h])


@njit(parallel=True, cache=True)
def deal_chunks(states, chunk_size, n_deals, out):
    """Deal ``n_deals`` times; ``out[c]`` gets an xor of chunk ``c``'s hands (keeps the work)."""
    n_chunks = states.shape[0]
    for c in prange(n_chunks):
        rng = states[c].copy()
        hands = np.empty(3, dtype=np.int64)
        acc = 0
        start = c * chunk_size
        stop = min(start + chunk_size, n_deals)
        for h in range(start, stop):
            deal(rng, hands)
            acc ^= hands[0] ^ (hands[1] << 1)
        out[c] = acc


@njit(cache=True)
def deal_many(state, n_deals, out):
    """Deal ``n_deals`` times from one stream into ``out[n_deals, 3]``."""
    hands = np.empty(3, dtype=np.int64)
    for h in range(n_deals):
        deal(state, hands)
        out[h, 0] = hands[0]
        out[h, 1] = hands[1]
        out[h, 2] = hands[2]


@njit(cache=True)
def play_logged(hands, banker, params, set_beats, policies, rng, log, legal, legal_off, res):
    """Play one given deal with the full log (actions and every legal set)."""
    am = np.empty(MAX_ACTIONS, dtype=np.int64)
    ai = np.empty((MAX_ACTIONS, INFO_COLS), dtype=np.int64)
    return play_hand(hands, banker, params, set_beats, policies, rng, am, ai, log, legal,
                     legal_off, 2, res)


__all__ = ["N_RESULT", "deal_chunks", "deal_many", "play_chunks", "play_logged"]
