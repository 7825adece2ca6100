"""Kernel whole hands (bidding included) replayed action by action in the reference engine.

For each preset, 3,000 random whole hands and 1,000 with heuristic seats (every seat, or
heuristic against random) are played in the kernels (normal hands at several levels and
banker seats, and 抢庄局 first hands) and replayed from the same deal: every 造反
offer, declaration, pass, bury, 扒鸡窝 overcall, lead and follow must be legal in the engine,
the number of choices the kernel listed at each 造反 / declaring / 扒鸡窝 turn must equal the
engine's, and banker, L, T, the 抠底 multiplier, the attackers' points, the level change,
the levels after and the next banker must be equal. A rule vector with one parameter
changed must be caught by the same comparison.
"""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.shengji import crosscheck as wr
from analyzer.shengji.rules import CLASSIC, ZHENGZHOU
from analyzer.shengji.sim import rule_arrays
from kernels.shengji import game as kw
from kernels.shengji import hand as kh
from kernels.shengji import params as kp

# (team levels, start banker or None for a 抢庄局, hands): 3,000 hands per preset, one test
# per setting so that the workers share them (the engine replays some 75 hands/s); longer
# runs: scripts/measure/shengji_differential.py.
SETTINGS = [((2, 2), 0, 1200), ((5, 9), 1, 600), ((14, 3), None, 600), ((13, 14), 3, 600)]
PRESETS = {"zhengzhou": ZHENGZHOU, "classic": CLASSIC}
VARIANTS = {
    "random_start_side_rebel": ZHENGZHOU.with_(
        declare_start="random", partner_may_overcall=False, suit_rank="DCHS",
        joker_colour="swapped", rebel_scope="side", rebel_threshold=70, bajiwo_reinforce=True),
    "next_start_no_pair_overcall": ZHENGZHOU.with_(
        declare_start="banker_next", pair_overcall_by_suit=False, joker_pair_may_open=False,
        partner_declarer_becomes_banker=False, rebel_threshold=40, must_defend_A=False,
        attacker_gain_cap=2),
    "classic_with_bajiwo_and_rebel": CLASSIC.with_(
        bajiwo_enabled=True, rebel_enabled=True, rebel_threshold=30,
        throw_fail_penalty_per_card=10),
}


# heuristic seats: (team levels, start banker, hands, policies per seat), 1,000 a preset
HEURISTIC_SETTINGS = [((2, 2), 0, 500, "heuristic"), ((5, 9), 1, 200, "heuristic,random,heuristic,random"),
                      ((14, 3), None, 150, "heuristic"), ((13, 14), 3, 150, "random,heuristic,random,heuristic")]


def _check(rules, settings, seed, policies="random"):
    """Replay every hand; returns the result rows of all settings (after asserting none
    disagrees)."""
    rows = []
    for i, (levels, banker, n) in enumerate(settings):
        hands = wr.kernel_hands(n, rules, seed + i, levels, banker, policies=policies)
        bad = wr.replay_all(hands, rules)
        assert not bad, f"{len(bad)} of {n} hands disagree at {levels}, banker {banker}; " \
                        f"first: hand {bad[0][0]}: {bad[0][1]}"
        rows.append(hands.res)
    return np.concatenate(rows)


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("setting", range(len(SETTINGS)))
def test_whole_hands_replay_in_the_engine(preset, setting):
    _check(PRESETS[preset], SETTINGS[setting:setting + 1], 100 + setting)


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("setting", range(len(HEURISTIC_SETTINGS)))
def test_heuristic_whole_hands_replay_in_the_engine(preset, setting):
    """The heuristic's every action (造反, declarations, passes, buries, 扒鸡窝, leads,
    throws and follows) is legal in the engine, alone and beside random seats."""
    levels, banker, n, policies = HEURISTIC_SETTINGS[setting]
    _check(PRESETS[preset], [(levels, banker, n)], 300 + setting, policies)


@pytest.mark.parametrize("preset", PRESETS)
def test_heuristic_hands_throw_declare_and_never_fail_a_throw(preset):
    """Heuristic hands throw, declare, step down, rebel and raid (扒鸡窝), and no throw of
    theirs fails: it throws only what stands by its own count. The rare 造反 and 扒鸡窝
    hands among 6,000 are replayed in the engine too."""
    rules = PRESETS[preset]
    kh_ = wr.kernel_hands(6000, rules, 400, (2, 2), 0, policies="heuristic")
    res = kh_.res
    p = kw.W_PLAY
    assert res[:, p + kh.R_THROWS].sum() > 6000
    assert res[:, p + kh.R_FAILED_THROWS].sum() == 0
    assert res[:, kw.W_DECLARATIONS].mean() >= 1
    rare = np.flatnonzero((res[:, kw.W_BAJIWO] > 0) | (res[:, kw.W_REBEL] >= 0))
    if rules.bajiwo_enabled:
        assert (res[:, kw.W_BAJIWO] > 0).sum() > 3
        assert (res[:, kw.W_REBEL] >= 0).sum() > 3
        assert res[:, kw.W_STEPPED_DOWN].sum() > 100
    else:
        assert len(rare) == 0
    bad = [(h, e) for h in rare if (e := wr.replay_hand(kh_, h, rules)) is not None]
    assert not bad, bad[0]


@pytest.mark.parametrize("preset", PRESETS)
def test_the_replayed_hands_reach_every_path(preset):
    """The hands of the test above (same seeds) go through every part of the bidding."""
    rules = PRESETS[preset]
    res = np.concatenate([wr.kernel_hands(n, rules, 100 + i, levels, banker).res
                          for i, (levels, banker, n) in enumerate(SETTINGS)])
    assert len(res) == 3000
    p = kw.W_PLAY
    # every path of the bidding is exercised
    assert res[:, kw.W_STEPPED_DOWN].sum() > 10
    assert res[:, kw.W_RANDOM_TRUMP].sum() > 5
    assert (res[:, kw.W_TRUMP] == 4).sum() > 10  # 无主
    assert (res[:, p + kh.R_MULTIPLIER] > 0).sum() > 300
    assert (res[:, p + kh.R_FAILED_THROWS] > 0).sum() > 300
    assert len(np.unique(res[:, kw.W_GAIN])) >= 4
    assert (res[:, kw.W_BANKER_HOLDS] == 0).sum() > 100
    if rules.rebel_enabled:
        assert (res[:, kw.W_REBEL] >= 0).sum() > 3
    if rules.bajiwo_enabled:
        assert (res[:, kw.W_BAJIWO] > 0).sum() > 50
    else:
        assert (res[:, kw.W_BAJIWO] == 0).all()


@pytest.mark.parametrize("name", list(VARIANTS))
def test_rule_variants_replay_in_the_engine(name):
    settings = [((2, 2), 0, 100), ((6, 11), 2, 50), ((9, 4), None, 50)]
    _check(VARIANTS[name], settings, 7)


def _first_difference(rules, params, n, levels=(2, 2), banker=0):
    hands = wr.kernel_hands(n, rules, 5, levels, banker, params=params)
    for h in range(n):
        err = wr.replay_hand(hands, h, rules)
        if err is not None:
            return err
    return None


@pytest.mark.parametrize("index, value", [
    (kp.P_PARTNER_DECLARER_BECOMES_BANKER, 0),
    (kp.P_LEVEL_CARDS_NEED_JOKER, 0),
    (kp.P_SUIT_RANK, kp.SUIT_RANK_DCHS),
    (kp.P_DECLARE_START, kp.DECLARE_START_BANKER_NEXT),
    (kp.P_REBEL_THRESHOLD, 30),
    (kp.P_BAJIWO_ENABLED, 0),
    (kp.P_JOKER_PAIR_MAY_OPEN, 0),
    (kp.P_PARTNER_MAY_OVERCALL, 0),
    (kp.P_BAJIWO_REINFORCE, 1),
    (kp.P_TURNOVER_AT, 60),
    (kp.P_ATTACKER_GAIN_CAP, 1),
])
def test_the_check_has_teeth(index, value):
    """The kernels fed one wrong rule parameter are caught by the same replay."""
    params = rule_arrays(ZHENGZHOU)  # the right vector agrees: see the tests above
    assert params[index] != value
    wrong = params.copy()
    wrong[index] = value
    assert _first_difference(ZHENGZHOU, wrong, 600) is not None


def test_whole_chunks_equal_the_logged_hands():
    """The batch driver plays the same hands as the logging one, on any thread count."""
    import numba

    from analyzer.shengji.sim import whole_hands

    logged = wr.kernel_hands(2000, ZHENGZHOU, 3, (4, 7), 2).res
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = whole_hands(2000, ZHENGZHOU, 3, (4, 7), 2)
    finally:
        numba.set_num_threads(before)
    assert np.array_equal(one, logged)
    assert np.array_equal(whole_hands(2000, ZHENGZHOU, 3, (4, 7), 2), logged)
