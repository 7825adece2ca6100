"""掀牛's own chunk kernels beside the shared drivers (:mod:`kernels.drivers`): hands kept
with their packed records, given deals played with the full log, deal features, and the
layout of a run's mergeable aggregate.

A chunk always holds the same hands and draws from its own stream, whatever the number
of threads, so results depend on the seed alone.
"""

from __future__ import annotations

import numpy as np

from ..jit import njit
from ..parallel import for_each_chunk
from .bits import ACE, EIGHT, FIVE, KING, NINE, POP4, TEN, THREE, TWO, nib
from .game import (
    MAX_LOG,
    deal,
    new_scratch,
)
from .hand import pimc_flag, play_hand
from .plays import is_eight_pairs
from .tables import N_SEATS


@njit(cache=True)
def no_log():
    """Empty log buffers for runs that keep no log."""
    return (np.empty((1, 3), dtype=np.int64), np.empty((1, 2), dtype=np.int64),
            np.empty(1, dtype=np.int64))


@njit(cache=True)
def full_log():
    """Log buffers large enough for any hand: actions and every legal set."""
    return (np.empty((MAX_LOG, 3), dtype=np.int64), np.empty((MAX_LOG * 128, 2), dtype=np.int64),
            np.empty(MAX_LOG + 1, dtype=np.int64))


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
def _play_logged(hands, banker, rules, policies, rng, logbuf, res, pimc):
    return play_hand(hands, banker, rules, policies, rng, new_scratch(), logbuf, np.int64(2),
                     res, pimc)


def play_logged(hands, banker, rules, policies, rng, logbuf, res):
    """Play one given deal with the full log (actions and every legal set) into ``logbuf =
    (log, legal, legal_off)`` (as :func:`kernels.xianniu.game.advance` takes it)."""
    # compiled once, with the search (a seat without it never enters it): logs are for
    # checks and records, where a second compilation costs more than it saves
    return _play_logged(hands, np.int64(banker), rules, policies, rng, logbuf, res, True)


# A logged action packed in one int64: the card mask (48 bits), its type, its seat.
PACK_TYPE_SHIFT = 48
PACK_SEAT_SHIFT = 56


@njit(nogil=True, cache=True)
def _recorded_chunk(c, states, span, rules, policies, outs, pimc):
    """Chunk ``c`` of :func:`recorded_chunks` (``span``: the chunk size and the hands)."""
    chunk_size, n_hands = span
    out, deals, actions, used = outs
    rng = states[c].copy()
    hands = np.empty(3, dtype=np.int64)
    scratch = new_scratch()
    logbuf = (np.empty((MAX_LOG, 3), dtype=np.int64), np.empty((1, 2), dtype=np.int64),
              np.empty(1, dtype=np.int64))
    log = logbuf[0]
    pos = 0
    start = c * chunk_size
    stop = min(start + chunk_size, n_hands)
    for h in range(start, stop):
        deal(rng, hands)
        for s in range(N_SEATS):
            deals[h, s] = hands[s]
        n = play_hand(hands, np.int64(0), rules, policies, rng, scratch, logbuf, np.int64(1),
                      out[h], pimc)
        if pos < 0 or pos + n > actions.shape[1]:
            pos = -1
            continue
        for i in range(n):
            actions[c, pos + i] = (log[i, 2] | (log[i, 1] << PACK_TYPE_SHIFT)
                                   | (log[i, 0] << PACK_SEAT_SHIFT))
        pos += n
    used[c] = pos


def recorded_chunks(states, chunk_size, n_hands, rules, policies, outs):
    """:func:`play_chunks`, keeping each hand's deal and actions: the same hands, from the
    same streams, with the same result rows (logging mode 1 draws nothing from a stream).

    ``outs`` is ``(out, deals, actions, used)``: ``out[h]`` receives hand ``h``'s result
    row, ``deals[h]`` hand ``h``'s three dealt masks. Chunk ``c`` packs its hands'
    actions one after another into ``actions[c]`` (``mask | type << 48 | seat << 56``;
    hand ``h`` has ``out[h, R_ACTIONS]`` of them) and writes how many into ``used[c]``, or
    -1 if ``actions[c]`` is too short for them all (its hands are played all the same).
    """
    for_each_chunk(_recorded_chunk, states.shape[0], states, (chunk_size, n_hands), rules,
                   policies, outs, pimc_flag(policies[0]))


# Layout of a mergeable aggregate (int64 vector): counts and sums, never per-hand rows.
AGG_N = 0  # hands
AGG_PTS = 1  # Σ points, seats 0-2
AGG_PTS_SQ = 4  # Σ points², seats 0-2
AGG_GOU = 7  # hands where the seat is 够
AGG_CI = 10  # hands where the seat has 刺
AGG_XIAN = 13  # Σ 掀 events
AGG_XIAN_SQ = 14  # Σ (掀 events)²
AGG_END = 15  # hands ended by 扣, a full table, an empty hand
AGG_QIANGCI = 18  # hands with a 抢刺 play
AGG_CAP_HIST = 19  # captured-card histogram, seats 0-2 × 0..16 cards
AGG_SIZE = AGG_CAP_HIST + 3 * 17


@njit(cache=True)
def _play_deals(deals, rng, rules, policies, log_mode, out, pimc):
    scratch = new_scratch()
    logbuf = full_log()
    for h in range(deals.shape[0]):
        play_hand(deals[h], np.int64(0), rules, policies, rng, scratch, logbuf, log_mode,
                  out[h], pimc)


def play_deals(deals, rng, rules, policies, log_mode, out):
    """Play the given deals (``[n, 3]`` masks) in order from one stream into ``out[n]``.

    ``log_mode`` 2 lists every legal action before choosing; 0 lets the random policy draw by
    index. Both must play the same hands from the same stream.
    """
    _play_deals(deals, rng, rules, policies, np.int64(log_mode), out, pimc_flag(policies[0]))


# Deal features counted by deal_features, in this order.
FEATURES = ("niu", "xi", "liang", "long_feng", "eight_pairs", "fish", "bai", "k0", "k1", "k2",
            "k3", "k4")


@njit(nogil=True, cache=True)
def _deal_features_chunk(c, states, chunk_size, n_deals, params, out):
    """Chunk ``c`` of :func:`deal_features`."""
    rng = states[c].copy()
    hands = np.empty(3, dtype=np.int64)
    out[c, :] = 0
    start = c * chunk_size
    stop = min(start + chunk_size, n_deals)
    for _ in range(start, stop):
        deal(rng, hands)
        h = hands[0]
        nine, five = nib(h, NINE), nib(h, FIVE)
        if (nine & 5) != 0 and (nine & 10) != 0:
            out[c, 0] += 1
        if (five & 5) != 0 and (five & 10) != 0:
            out[c, 1] += 1
        quad = False
        for r in range(12):
            if nib(h, r) == 15:
                quad = True
        if quad:
            out[c, 2] += 1
        if POP4[nib(h, ACE)] >= 2 and POP4[nib(h, TWO)] >= 2 and POP4[nib(h, THREE)] >= 2 \
                and POP4[nib(h, EIGHT)] >= 2 and POP4[nib(h, TEN)] >= 2 \
                and POP4[nib(h, KING)] >= 2:
            out[c, 3] += 1
        if is_eight_pairs(h, params):
            out[c, 4] += 1
        if nib(h, ACE) != 0 and nib(h, TWO) != 0 and nib(h, THREE) != 0:
            out[c, 5] += 1
        if nib(h, EIGHT) != 0 and nib(h, TEN) != 0 and nib(h, KING) != 0:
            out[c, 6] += 1
        out[c, 7 + POP4[nib(h, KING)]] += 1


def deal_features(states, chunk_size, n_deals, params, out):
    """Deal ``n_deals`` times; ``out[c, f]`` counts chunk ``c``'s deals whose seat 0 holds
    feature ``f`` of :data:`FEATURES`."""
    for_each_chunk(_deal_features_chunk, states.shape[0], states, chunk_size, n_deals,
                   params, out)
