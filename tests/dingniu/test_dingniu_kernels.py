"""The 顶牛 kernels against the reference engine (the differential test), and their streams."""

from __future__ import annotations

import random

import numba
import numpy as np
import pytest
from test_dingniu_rules import random_deal

from analyzer.dingniu.crosscheck import crosscheck
from analyzer.dingniu.engine import new_hand
from analyzer.dingniu.rules import STANDARD
from analyzer.dingniu.sim import logged_hands, play_hands, rule_arrays, state_array
from kernels.dingniu import game as kd


@pytest.mark.parametrize("policies", ["random", "heuristic", "heuristic,random,heuristic,random"])
def test_kernel_hands_replay_in_reference(policies):
    """≥ 5,000 kernel hands per policy mix: same legal sets at every decision, same points."""
    rep = crosscheck(5000, seed=20261130, policies=policies)
    assert rep.hands == 5000
    assert rep.mismatches == []
    assert rep.decisions > 5000 * 15
    assert 0 < rep.suan < 5000  # both endings are exercised


@pytest.mark.parametrize("field,change", [("params", (kd.P_NO_DRAG, 0)),
                                          ("params", (kd.P_PAIR_MASK, 0)),
                                          ("params", (kd.P_SUAN, 0)),
                                          ("tiles", (11, kd.T_PIPS, 8))])
def test_crosscheck_catches_wrong_rule_data(field, change):
    """The check has teeth: kernels fed one wrong rule are caught."""
    tiles, params = (a.copy() for a in rule_arrays(STANDARD))
    if field == "params":
        params[change[0]] = change[1]
    else:
        tiles[change[0], change[1]] = change[2]
    rep = crosscheck(2000, seed=3, policies="random", arrays=(tiles, params))
    assert rep.mismatches


def test_results_do_not_depend_on_the_thread_count():
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = play_hands(5000, "heuristic,random,random,heuristic", seed=11)
        numba.set_num_threads(max(2, before))
        many = play_hands(5000, "heuristic,random,random,heuristic", seed=11)
    finally:
        numba.set_num_threads(before)
    assert np.array_equal(one, many)
    assert not np.array_equal(one, play_hands(5000, "heuristic,random,random,heuristic", seed=12))


def test_points_are_zero_sum_and_deals_complete():
    deals, out, _, _, moves = logged_hands(4000, "random", seed=2)
    assert (out[:, :4].sum(axis=1) == 0).all()
    assert (deals.sum(axis=1) == STANDARD.counts).all()  # every tile dealt once
    assert (deals.sum(axis=2) == 6).all()
    normal = out[:, kd.R_END] == 1
    assert (moves[normal] <= 24).all() and (moves[normal] >= 23).all()


def test_dealing_is_uniform():
    deals, *_ = logged_hands(20000, "random", seed=9)
    mean = deals.mean(axis=0)  # [seat, kind]
    expect = STANDARD.counts / 4
    se = np.sqrt(expect * (1 - 1 / 4) * (1 - 5 / 23) / 20000 * 4)  # loose bound
    assert (np.abs(mean - expect) < 5 * se + 1e-9).all()


@pytest.mark.parametrize("seed", range(20))
def test_engine_states_convert_to_kernel_states(seed):
    rng = random.Random(seed)
    st = new_hand(random_deal(rng))
    tiles, params = rule_arrays(STANDARD)
    acts = np.empty(64, dtype=np.int64)
    for _ in range(rng.randrange(1, 16)):
        if st.is_terminal():
            break
        s = state_array(st)
        n = kd.legal(s, tiles, params, acts)
        assert acts[:n].tolist() == st.legal_actions()
        st.apply(rng.choice(st.legal_actions()))
