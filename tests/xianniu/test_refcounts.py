"""Whole 掀牛 hands on every policy free exactly what they allocate.

The play's inner loop (``kernels.xianniu.game.advance``) and the choices are compiled
without reference counting: a kernel there that dropped a reference it does not own would
free an array still in use, one that kept a new array would leak it. Numba's allocation
counters see both."""

from __future__ import annotations

import pytest

from analyzer.xianniu.sim import simulate


@pytest.mark.parametrize("rules", ["lanzhou", "kanniutui"])
@pytest.mark.parametrize("policies, hands", [("net", 200), ("random,heuristic,tuned2", 200),
                                             ("learned,pimc,heuristic2", 20), ("pimc2", 6)])
def test_whole_hands_free_what_they_allocate(nrt_counts, policies, hands, rules):
    simulate(3, rules, policies, seed=1)  # compiled before counting
    before = nrt_counts()
    df = simulate(hands, rules, policies, seed=2)
    after = nrt_counts()
    assert after.alloc - before.alloc > 0  # the counters count: the run has its scratch
    assert after.alloc - before.alloc == after.free - before.free
    assert after.mi_alloc - before.mi_alloc == after.mi_free - before.mi_free
    assert len(df) == hands
