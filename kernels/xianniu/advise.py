"""The actions a recorded 掀牛 decision lists, as the kernels list them (advice plays them
out in the paired driver, :func:`kernels.drivers.paired`)."""

from __future__ import annotations

import numpy as np

from ..arrays import copy_into
from ..jit import njit
from ..rng import seed_state
from .game import (
    MAX_LOG,
    S_N_ACT,
    S_N_LIST,
    advance,
    new_scratch,
)
from .policies import N_POLICY_PARAMS, POLICY_PIMC
from .tables import N_SEATS


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
