"""The 双升 policy pimc2 (pimc from net's choice): its plays replay legal in the reference
engine, with no samples it is net move for move, and its choice does not change when the
cards its seat cannot see are redealt consistently with the public facts."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.shengji import crosscheck as wr
from analyzer.shengji.rules import CLASSIC, ZHENGZHOU
from analyzer.shengji.sim import PIMC2_SAMPLES, PIMC2_Z, policy_row, seat_policies
from kernels.rng import states_from_seed
from kernels.shengji import pimc as kpm
from kernels.shengji import policies as kp
from kernels.shengji.search import pimc2_choose
from kernels.shengji.units import new_units, new_work
from tests.shengji.test_shengji_net import logged_decisions, redeal

PRESETS = [ZHENGZHOU, CLASSIC]
IDS = ["zhengzhou", "classic"]


def test_pimc2_row_is_nets_with_its_search_settings():
    row, net = policy_row("pimc2", ZHENGZHOU), policy_row("net", ZHENGZHOU)
    assert (row[kp.P_PIMC_SAMPLES], row[kp.P_PIMC_Z]) == (PIMC2_SAMPLES, PIMC2_Z)
    row[kp.P_PIMC_SAMPLES], row[kp.P_PIMC_Z] = net[kp.P_PIMC_SAMPLES], net[kp.P_PIMC_Z]
    np.testing.assert_array_equal(row, net)


@pytest.mark.parametrize("rules", PRESETS, ids=IDS)
def test_pimc2_plays_replay_legal_in_the_engine(rules):
    hands = wr.kernel_hands(12, rules, 33, (2, 2), 0, policies="pimc2,tuned,pimc2,net")
    bad = wr.replay_all(hands, rules)
    assert not bad, bad[0]


@pytest.mark.parametrize("rules", PRESETS, ids=IDS)
def test_pimc2_without_samples_is_net_move_for_move(rules):
    pol, hp = seat_policies("pimc2", rules)
    hp[:, kp.P_PIMC_SAMPLES] = 0
    bare = wr.kernel_hands(60, rules, 35, policies="pimc2", hp=hp)
    net = wr.kernel_hands(60, rules, 35, policies="net")
    for a, b in ((bare.res, net.res), (bare.alogs, net.alogs), (bare.tlogs, net.tlogs)):
        np.testing.assert_array_equal(a, b)
    searched = wr.kernel_hands(6, rules, 35, policies="pimc2")
    assert not np.array_equal(searched.tlogs, net.tlogs[:6])  # the samples change plays


def _decide(seat, row, kn, trick, where, h, rules):
    pst = kpm.new_pimc_scratch()
    rng = states_from_seed(3, 1)[0]
    return pimc2_choose((seat, row, kn.copy()), trick, where, h, rules, rng, pst,
                        (new_units(), new_work()))


@pytest.mark.parametrize("rules", PRESETS, ids=IDS)
def test_pimc2_reads_nothing_its_seat_cannot_see(rules):
    row = policy_row("pimc2", rules)
    row[kp.P_PIMC_SAMPLES] = 6  # the invariance holds at any count; fewer keep it quick
    hands = wr.kernel_hands(4, rules, 37, policies="pimc2,net,pimc2,net")
    state = states_from_seed(5, 1)[0]
    checked = differ = 0
    for seat, kn, trick, where, true_h, arrays, view, _ in logged_decisions(hands, rules, 4, 4):
        play = _decide(seat, row, kn, trick, where, true_h, arrays)
        other_h = redeal(seat, true_h, kn, arrays, view, state)
        differ += int(not np.array_equal(other_h, true_h))
        assert _decide(seat, row, kn, trick, where, other_h, arrays) == play
        checked += 1
    assert checked > 30 and differ > 0.5 * checked
