"""The pimc policy's kernels: the exact max-n search against the Python solver, hidden deals
drawn from one seat's view, and a decision that does not depend on what that seat cannot
see."""

from __future__ import annotations

import random

import numpy as np
import pytest
from test_dingniu_rules import random_deal

from analyzer.dingniu.engine import new_hand
from analyzer.dingniu.rules import NAVPIL, SEED
from analyzer.dingniu.sim import policy_vector, rule_arrays, state_array
from analyzer.dingniu.solver import solve
from analyzer.dingniu.tournament import tournament
from kernels.dingniu import game as kd
from kernels.dingniu import pimc as kp
from kernels.rng import states_from_seed

N = kd.N_KINDS


def mid_hand(rules, seed: int, lo: int, hi: int):
    """An engine state after ``lo``–``hi`` random moves, the hand still going."""
    rng = random.Random(seed)
    while True:
        st = new_hand(random_deal(rng), rules)
        for _ in range(rng.randrange(lo, hi + 1)):
            if st.is_terminal():
                break
            st.apply(rng.choice(st.legal_actions()))
        if not st.is_terminal():
            return st


@pytest.mark.parametrize("rules", [SEED, NAVPIL])
@pytest.mark.parametrize("seed", range(10))
def test_kernel_maxn_equals_the_solver(rules, seed):
    st = mid_hand(rules, seed, 12, 16)
    tiles, params = rule_arrays(rules)
    vals = np.empty(4, dtype=np.int64)
    kp.maxn(state_array(st), tiles, params, vals)
    assert tuple(vals.tolist()) == solve(st).values


def hidden_view(s: np.ndarray, seat: int) -> tuple:
    """Everything ``seat`` may see of the kernel state ``s``."""
    own = slice(kd.S_HAND + seat * N, kd.S_HAND + (seat + 1) * N)
    own_kou = slice(kd.S_KOUK + seat * N, kd.S_KOUK + (seat + 1) * N)
    public = np.r_[kd.S_NKOU:kd.S_NKOU + 4, kd.S_LAID:kd.S_LAID + N, kd.S_E0, kd.S_E1,
                   kd.S_TURN, kd.S_OVER, kd.S_LEFT:kd.S_LEFT + 4, kd.S_MOVES,
                   kd.S_VOID:kd.S_KMASK + 24]
    return (s[own].tolist(), s[own_kou].tolist(), s[kd.S_KOU + seat], s[public].tolist())


@pytest.mark.parametrize("rules", [SEED, NAVPIL])
@pytest.mark.parametrize("seed", range(6))
def test_sampled_deals_fit_the_seats_view(rules, seed):
    st = mid_hand(rules, seed, 8, 14)
    s = state_array(st)
    seat = st.current_player()
    tiles, _ = rule_arrays(rules)
    rng = states_from_seed(seed, 1)[0].copy()
    out = np.empty_like(s)
    unseen = (rules.counts - s[kd.S_LAID:kd.S_LAID + N]
              - s[kd.S_HAND + seat * N:kd.S_HAND + (seat + 1) * N]
              - s[kd.S_KOUK + seat * N:kd.S_KOUK + (seat + 1) * N])
    for _ in range(30):
        kp.sample_hidden(s, tiles, seat, rng, out)
        assert hidden_view(out, seat) == hidden_view(s, seat)
        got = np.zeros(N, dtype=np.int64)
        for o in range(4):
            if o == seat:
                continue
            hand = out[kd.S_HAND + o * N:kd.S_HAND + (o + 1) * N]
            kou = out[kd.S_KOUK + o * N:kd.S_KOUK + (o + 1) * N]
            assert hand.sum() == s[kd.S_LEFT + o] and kou.sum() == s[kd.S_NKOU + o]
            assert out[kd.S_KOU + o] == int((kou * rules.pips).sum())
            void = int(s[kd.S_VOID + o])
            for k in np.flatnonzero(hand):  # it 扣ed while these ends showed: it held none
                assert not any(void >> int(e) & 1 for e in rules.ends[k])
            got += hand + kou
        assert (got == unseen).all()


@pytest.mark.parametrize("rules", [SEED, NAVPIL])
@pytest.mark.parametrize("seed", range(6))
def test_pimc_decides_the_same_whatever_the_hidden_tiles(rules, seed):
    """Two worlds the seat cannot tell apart give the same decision from the same stream."""
    st = mid_hand(rules, seed, 4, 12)
    s = state_array(st)
    seat = st.current_player()
    tiles, params = rule_arrays(rules)
    acts = np.empty(64, dtype=np.int64)
    n = kd.legal(s, tiles, params, acts)
    hp = policy_vector("pimc", rules, pimc_samples=8, pimc_leaf=8)
    other = np.empty_like(s)
    kp.sample_hidden(s, tiles, seat, states_from_seed(seed + 100, 1)[0].copy(), other)
    picks = {int(kp.pimc_action(w, tiles, params, hp, states_from_seed(7, 1)[0].copy(), acts, n))
             for w in (s, other)}
    assert len(picks) == 1 and picks <= set(acts[:n].tolist())


def test_pimc_tournament_runs_and_reports_its_settings():
    res = tournament("pimc,random", 4, seed=1, rules=NAVPIL, pimc_samples=3, pimc_leaf=6)
    d = res.as_dict()
    assert (d["pimc_samples"], d["pimc_leaf"], d["rules"]) == (3, 6, "navpil")
    assert d["hands_played"] == 4 * 14
