"""The pimc sampler deals only hidden hands that fit everything public."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.xianniu.cards import FULL_DECK, count
from analyzer.xianniu.combos import answers_to
from analyzer.xianniu.engine import ACTION_KINDS, DISCARD, PASS, PLAY, Action, new_hand
from analyzer.xianniu.rules import get_rules
from analyzer.xianniu.sim import deal_hands, policy_arrays, rule_arrays
from analyzer.xianniu.tournament import tournament
from kernels.rng import states_from_seed
from kernels.xianniu import game as kg
from kernels.xianniu.batch import full_log
from kernels.xianniu.pimc import sample_positions

PRESETS = ("lanzhou", "kanniutui")


def _history(log, n):
    return [(int(log[i, 0]), Action(ACTION_KINDS[log[i, 1]], int(log[i, 2]))) for i in range(n)]


@pytest.mark.parametrize("rules", PRESETS)
def test_sampled_hidden_hands_fit_every_public_fact(rules):
    r = get_rules(rules)
    rk = rule_arrays(r)
    deals = deal_hands(120, seed=21).astype(np.int64)
    rng = states_from_seed(5, 1)[0]
    checked = passes_checked = 0
    for d, deal in enumerate(deals):
        pimc_seat = d % 3
        names = ["random"] * 3
        names[pimc_seat] = "pimc"
        pol = policy_arrays(names)
        snaps = np.zeros((64, kg.WS_SIZE), dtype=np.int64)
        samples = np.zeros((64, 6, kg.WS_SIZE), dtype=np.int64)
        logbuf = full_log()
        n_pos = sample_positions(deal, rk, pol, rng, 6, snaps, samples, logbuf)
        for p in range(n_pos):
            ws = snaps[p]
            history = _history(logbuf[0], int(ws[kg.S_N_ACT]))
            state = new_hand([int(h) for h in deal], r)
            passes = []  # (seat, top play, index in history)
            for i, (seat, a) in enumerate(history):
                if state.phase == "trick" and a.kind == PASS:
                    passes.append((seat, state.top, i))
                state.apply(a)
            seat = state.current_player()
            assert seat == pimc_seat
            own = state.hands[seat]
            public = 0
            for _, a in history:
                if a.kind == PLAY:
                    public |= a.cards
            own_disc = 0
            for s_, a in history:
                if a.kind == DISCARD and s_ == seat:
                    own_disc |= a.cards
            for j in range(samples.shape[1]):
                smp = samples[p, j]
                if smp[0] == -1:
                    continue
                checked += 1
                assert int(smp[kg.WS_HANDS + seat]) == own  # my own hand is untouched
                dealt_hidden = 0
                for o in range(3):
                    if o == seat:
                        continue
                    hand = int(smp[kg.WS_HANDS + o])
                    disc = int(smp[kg.WS_DISC + o])
                    assert count(hand) == count(state.hands[o])  # card counts are public
                    assert count(disc) == count(state.discarded & _discards_of(history, o))
                    assert hand & (own | public | own_disc) == 0  # no known card dealt away
                    assert disc & (own | public | own_disc) == 0
                    assert hand & disc == 0 and dealt_hidden & (hand | disc) == 0
                    dealt_hidden |= hand | disc
                    for o2, top, at in passes:
                        if o2 != o:
                            continue
                        later = 0
                        for s_, a in history[at + 1:]:
                            if s_ == o and a.kind == PLAY:
                                later |= a.cards
                        assert not answers_to(hand | later, top, r), \
                            f"seat {o} passed on {top} yet is dealt a beating play"
                        passes_checked += 1
                assert dealt_hidden | own | public | own_disc == FULL_DECK
    assert checked > 1000 and passes_checked > 1000


def _discards_of(history, seat):
    m = 0
    for s, a in history:
        if a.kind == DISCARD and s == seat:
            m |= a.cards
    return m


@pytest.mark.parametrize("rules", PRESETS)
@pytest.mark.parametrize("policies,n", [("pimc,heuristic,random", 1000),
                                        ("pimc2,heuristic2,pimc", 100),
                                        ("pimc-net,net,pimc2", 60)])
def test_pimc_plays_only_legal_actions(rules, policies, n):
    from analyzer.xianniu.crosscheck import crosscheck

    report = crosscheck(n, rules, seed=8, policies=policies, pimc_samples=3)
    assert report.hands == n and report.mismatches == []


def test_pimc_beats_heuristic_on_a_small_duplicate_run():
    res = tournament("pimc,heuristic", 150, "lanzhou", seed=3, pimc_samples=12)
    d = res.differences().iloc[0]
    assert d["a"] == "pimc" and d["ci_low"] > 0
