"""Duplicate whole hands: each deal played once per seating of the policies, every seating
from the same random stream state after the deal (common random numbers), so that the luck
of the cards cancels when seatings are compared (``analyzer.shengji.tournament``)."""

from __future__ import annotations

import numpy as np
from numba import njit

from ..arrays import copy_into
from ..parallel import for_each_chunk
from .deal import deal
from .policies import pimc_flag
from .whole import chunk_buffers, whole_hand_in


@njit(nogil=True, cache=True)
def _duplicate_chunk(c, states, n_per_chunk, n_deals, levels, start_banker, params,
                     seat_pol, seat_hp, out, pimc):
    """Chunk ``c`` of :func:`duplicate_chunks`."""
    rng = states[c].copy()
    saved = np.empty(4, dtype=np.uint64)
    deck, deals, chance, alog, tlog, scratch = chunk_buffers(pimc)
    for i in range(c * n_per_chunk, min((c + 1) * n_per_chunk, n_deals)):
        deal(rng, deck, deals[0])
        copy_into(saved, rng)
        for s in range(seat_pol.shape[0]):
            copy_into(rng, saved)
            whole_hand_in(deals, levels, start_banker, params, rng, deck, out[i, s], alog,
                          chance, tlog, scratch, seat_pol[s], seat_hp[s])


def duplicate_chunks(states, n_per_chunk, n_deals, levels, start_banker, params, seat_pol,
                     seat_hp, out):
    """Deal ``n_deals`` times and play each deal once per seating ``s`` (policy per seat
    ``seat_pol[s]`` int64[4], parameters ``seat_hp[s]`` float64[4, N_HEURISTIC]); chunk
    ``c`` deals ``c * n_per_chunk …`` from stream ``states[c]``; ``out[d, s]`` receives the
    whole-hand row (``whole.W_*``) of deal ``d`` under seating ``s``."""
    for_each_chunk(_duplicate_chunk, states.shape[0], states, n_per_chunk, n_deals, levels,
                   start_banker, params, seat_pol, seat_hp, out, pimc_flag(seat_pol))
