"""The open-hand max-n solver against a plain search through the reference engine."""

from __future__ import annotations

import pytest
from test_dingniu_rules import after_random_moves

from analyzer.dingniu.engine import State
from analyzer.dingniu.solver import principal_line, solve


def naive(st: State) -> tuple[int, ...]:
    """Max-n by brute force through the engine, ties to the lowest action."""
    if st.is_terminal():
        return tuple(st.returns())
    seat, best = st.current_player(), None
    for a in st.legal_actions():
        child = st.clone()
        child.apply(a)
        v = naive(child)
        if best is None or v[seat] > best[seat]:
            best = v
    return best


@pytest.mark.parametrize("seed", range(30))
def test_solver_equals_brute_force_late_in_the_hand(seed):
    st = after_random_moves(seed, 13)
    assert solve(st).values == naive(st)


@pytest.mark.parametrize("seed", range(12))
def test_solver_line_replays_in_the_engine(seed):
    st = after_random_moves(seed, 5)
    sol = solve(st)
    line = principal_line(st)
    assert tuple(line.returns()) == sol.values
    assert sum(sol.values) == 0
    assert sol.action in st.legal_actions()


def test_solver_value_is_at_least_each_alternative_for_the_mover():
    st = after_random_moves(1, 6)
    seat, v = st.current_player(), solve(st).values
    for a in st.legal_actions():
        child = st.clone()
        child.apply(a)
        alt = tuple(child.returns()) if child.is_terminal() else solve(child).values
        assert v[seat] >= alt[seat]
