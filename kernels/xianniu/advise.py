"""Every legal action of one recorded decision, played out on the same hidden deals.

The seat to act knows its own hand and the public record. Each sample deals the hidden cards
with :func:`kernels.xianniu.pimc.sample_hidden` (card and discard counts, cards played, every
pass) and keeps the deal only if it also fits what the 抢刺 phase showed: which seats held
a 龙凤 or 八大对 when the cards were dealt. From a kept deal every action still in the race is
played out from one random stream (common random numbers), so the differences between
actions carry only the noise the actions themselves make.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..arrays import copy_into
from ..parallel import for_each_chunk
from ..rng import next_u64, seed_state
from .decisions import pair_buffers
from .game import (
    MAX_LOG,
    R_PTS0,
    S_N_ACT,
    S_N_LIST,
    WS_DISC,
    WS_HANDS,
    WS_PLAYED,
    advance,
    finish_hand,
    new_scratch,
)
from .hand import pimc_flag, play_on
from .pimc import sample_hidden
from .plays import has_qiangci
from .policies import N_POLICY_PARAMS, POLICY_PIMC
from .tables import N_SEATS

NOT_PLAYED = -(1 << 40)  # an entry of ``out`` for an action out of the race, or no deal
MAX_TRIES_PER_DEAL = 64  # sampler calls per requested deal before the deal counts as missing


@njit(cache=True)
def list_actions(position, rules, types, masks):
    """The kernel's listed actions at ``position`` (state words), in the order a forced pick
    indexes them: action type and card mask into ``types`` and ``masks``. Returns how many."""
    scratch = new_scratch()
    ws = scratch[2]
    copy_into(ws, position)
    # every seat "pimc": advance() stops at the first decision with its list built
    ids = np.full(N_SEATS, POLICY_PIMC, dtype=np.int64)
    weights = np.zeros((N_SEATS, N_POLICY_PARAMS), dtype=np.float64)
    rng = np.empty(4, dtype=np.uint64)
    seed_state(np.uint64(1), rng)
    logbuf = (np.empty((MAX_LOG, 3), dtype=np.int64), np.empty((1, 2), dtype=np.int64),
              np.empty(1, dtype=np.int64))
    start = ws[S_N_ACT]
    advance(rules, (ids, weights), rng, scratch, logbuf, np.int64(1), np.int64(-1))
    if ws[S_N_ACT] != start:  # a single legal action is taken without stopping: it is logged
        types[0] = logbuf[0][start, 1]
        masks[0] = logbuf[0][start, 2]
        return 1
    n = ws[S_N_LIST]
    for i in range(n):
        types[i] = scratch[1][i, 0]
        masks[i] = scratch[0][i]
    return n


@njit(cache=True)
def qiangci_consistent(sample, qiangci_known, params):
    """Does each seat's dealt hand (held, played, discarded) agree with ``qiangci_known``
    (1: it held a 抢刺 play, 0: it did not, -1: not known)?"""
    for s in range(N_SEATS):
        known = qiangci_known[s]
        if known < 0:
            continue
        dealt = sample[WS_HANDS + s] | sample[WS_PLAYED + s] | sample[WS_DISC + s]
        if has_qiangci(dealt, params) != (known == 1):
            return False
    return True


@njit(nogil=True, cache=True)
def _advise_chunk(c, query, states, per_chunk, rules, policies, outs, pimc):
    """Chunk ``c`` of :func:`advise_chunks`."""
    position, seat, picks, active, qiangci_known = query
    out, tries = outs
    params, set_beats, _ = rules
    rng = states[c].copy()
    play_rng, _, scratch, sample, logbuf, res, _ = pair_buffers()
    ws = scratch[2]
    for i in range(per_chunk):
        for a in range(picks.shape[0]):
            out[c, i, a] = NOT_PLAYED
    tries[c] = 0
    for i in range(per_chunk):
        for _ in range(MAX_TRIES_PER_DEAL):
            tries[c] += 1
            if not sample_hidden(position, seat, set_beats, rng, sample):
                continue
            if not qiangci_consistent(sample, qiangci_known, params):
                continue
            word = next_u64(rng)  # drawn whichever actions are still racing
            for a in range(picks.shape[0]):
                if active[a] == 0:
                    continue
                copy_into(ws, sample)
                seed_state(word, play_rng)
                play_on(rules, policies, play_rng, scratch, logbuf, np.int64(0), picks[a], pimc)
                finish_hand(params, ws, res)
                out[c, i, a] = res[R_PTS0 + seat]
            break


def advise_chunks(query, states, per_chunk, rules, policies, outs):
    """``query`` is ``(position, seat, picks, active, qiangci_known)``, ``outs`` is ``(out,
    tries)``. ``out[c, i, a]``: ``seat``'s points when the ``i``-th deal of chunk ``c`` is
    played on from ``position`` with listed entry ``picks[a]`` first (``NOT_PLAYED`` where
    ``active[a]`` is 0 or no consistent deal was found); ``tries[c]``: sampler calls."""
    for_each_chunk(_advise_chunk, states.shape[0], query, states, per_chunk, rules, policies,
                   outs, pimc_flag(policies[0]))
