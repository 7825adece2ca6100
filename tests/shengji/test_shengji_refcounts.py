"""Whole hands on every policy free exactly what they allocate.

Much of the play is compiled without reference counting (``kernels/shengji/__init__``): a
kernel there that dropped a reference it does not own would free an array still in use,
one that kept a new array would leak it. Numba's allocation counters see both."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.shengji.sim import CHUNK, kernel_rules, seat_policies, whole_hand_rows
from kernels.rng import states_from_seed
from kernels.shengji.game import N_WHOLE


def _play(n, seating, rules, seed):
    states = states_from_seed(seed, -(-n // CHUNK))
    return whole_hand_rows(kernel_rules(rules, np.array([2, 2]), 0),
                           seat_policies(seating, rules), states, CHUNK, n)


@pytest.mark.parametrize("rules", ["zhengzhou", "classic"])
@pytest.mark.parametrize("seating", ["net", "net,pimc2,tuned,pimc",
                                     "heuristic,random,tuned,net"])
def test_whole_hands_free_what_they_allocate(nrt_counts, seating, rules):
    _play(4, seating, rules, 1)  # compiled before counting
    before = nrt_counts()
    rows = _play(40, seating, rules, 2)
    after = nrt_counts()
    assert after.alloc - before.alloc > 0  # the counters count: each chunk has its scratch
    assert after.alloc - before.alloc == after.free - before.free
    assert after.mi_alloc - before.mi_alloc == after.mi_free - before.mi_free
    assert rows.shape == (40, N_WHOLE) and rows.any()
