"""The 双升 policy pimc2 (pimc from net's choice): its plays replay legal in the reference
engine, with no samples it is net move for move, and its choice does not change when the
cards its seat cannot see are redealt consistently with the public facts."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.shengji import crosscheck as wr
from analyzer.shengji.actions import PLAY, Action
from analyzer.shengji.rules import CLASSIC, ZHENGZHOU
from analyzer.shengji.sim import PIMC2_SAMPLES, PIMC2_Z, policy_row, rule_arrays, seat_policies
from kernels.rng import states_from_seed
from kernels.shengji import game as kw
from kernels.shengji import hand as kh
from kernels.shengji import pimc as kpm
from kernels.shengji import policies as kp
from kernels.shengji.context import new_context
from kernels.shengji.planes import cards_of, planes_of
from kernels.shengji.search import pimc2_choose
from kernels.shengji.units import new_units, new_work
from tests.shengji.test_shengji_net import knowledge_with_plays

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
    params = rule_arrays(rules)
    state = states_from_seed(5, 1)[0]
    checked = differ = 0
    for hd in range(4):
        st = wr.start_state(hands, hd, rules)
        assert wr._bidding(st, hands.alogs[hd], int(hands.chances[hd, kw.CH_ACTIONS])) is None
        ctx = new_context(st.trump, st.level, rules.nt_level_joker_tractor)
        tlog = hands.tlogs[hd]
        for t in range(int(hands.res[hd, kw.W_PLAY + kh.R_TRICKS])):
            leader = int(tlog[t, kh.LG_LEADER])
            plays = np.zeros((4, 2), dtype=np.int64)
            for k in range(4):
                seat = (leader + k) % 4
                r = tlog[t]
                logged = (r[kh.LG_ATTEMPT], r[kh.LG_ATTEMPT + 1]) if k == 0 else \
                    (r[kh.LG_PLAYS + 2 * k], r[kh.LG_PLAYS + 2 * k + 1])
                if (t + k) % 4 == 0:
                    view = st.view(seat)
                    kn = knowledge_with_plays(view)
                    true_h = np.array([planes_of(st.hands[j]) for j in range(4)],
                                      dtype=np.int64)
                    where = (leader, st.banker)
                    play = _decide(seat, row, kn, (plays, k), where, true_h, (ctx, params))
                    scratch = kpm.new_pimc_scratch()
                    ps, buf = scratch[0], scratch[2]
                    buf[kpm.BUF_SIZES:kpm.BUF_SIZES + 4] = view.hand_sizes
                    for _ in range(20):  # a dead end of the sampler draws again
                        if kpm.sample_hidden(seat, true_h[seat, 0], true_h[seat, 1], kn, ctx,
                                             state, ps, buf):
                            break
                    else:
                        raise AssertionError("the sampler found no redeal in 20 draws")
                    other_h = ps[kpm.PS_HANDS:kpm.PS_HANDS + 4].copy()
                    differ += int(not np.array_equal(other_h, true_h))
                    assert _decide(seat, row, kn, (plays, k), where, other_h,
                                   (ctx, params)) == play
                    checked += 1
                plays[k] = (r[kh.LG_PLAYS], r[kh.LG_PLAYS + 1]) if k == 0 else logged
                st.apply(Action(PLAY, cards_of(int(logged[0]), int(logged[1]))), seat)
    assert checked > 30 and differ > 0.5 * checked
