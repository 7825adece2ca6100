"""The shared cross-entropy search (analyzer.core.tuning)."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.core.tuning import cross_entropy

TARGET = np.array([3.0, 0.5, 7.0])


def _quadratic(v: np.ndarray, it: int) -> float:
    return -float(((v - TARGET) ** 2).sum())


def _run(seed: int, **kw):
    return cross_entropy(_quadratic, np.zeros(3), np.full(3, 4.0), iterations=kw.pop("it", 25),
                         population=kw.pop("pop", 40), rng=np.random.default_rng(seed), **kw)


def test_it_climbs_to_the_optimum_of_a_known_score(capsys):
    mean, history = _run(1)
    assert np.abs(mean - TARGET).max() < 0.2
    assert [h["iteration"] for h in history] == list(range(25))
    assert history[-1]["elite_mean"] > history[0]["elite_mean"]
    assert "iteration 24" in capsys.readouterr().err


def test_the_same_seed_gives_the_same_weights():
    a, _ = _run(7, it=4)
    b, _ = _run(7, it=4)
    c, _ = _run(8, it=4)
    assert np.array_equal(a, b)
    assert not np.array_equal(a, c)


@pytest.mark.parametrize("floor", [0.0, np.array([0.0, 1.0, -np.inf])])
def test_members_never_go_below_the_floor(floor):
    seen = []

    def score(v, it):
        seen.append(v.copy())
        return -float(((v + 5.0) ** 2).sum())  # pulls every weight below zero

    cross_entropy(score, np.zeros(3), np.ones(3), iterations=3, population=8,
                  rng=np.random.default_rng(0), floor=floor)
    assert np.all(np.array(seen) >= floor)
    if np.ndim(floor):
        assert min(v[2] for v in seen) < 0  # an unbounded weight does go below zero
