"""The distilled policy ``learned``: legal play, shipped weights that reproduce their training
figures, and features that read only what the deciding seat may see."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.xianniu import learned_train as lt
from analyzer.xianniu.crosscheck import crosscheck, themed_deals
from analyzer.xianniu.learned import learned_weights, policy_row, shipped_info
from analyzer.xianniu.learned_data import generate
from analyzer.xianniu.rules import get_rules
from analyzer.xianniu.sim import deal_hands, policy_arrays, rule_arrays
from kernels.rng import states_from_seed
from kernels.xianniu import game as kg
from kernels.xianniu.batch import full_log
from kernels.xianniu.distill import features_at
from kernels.xianniu.pimc import sample_positions
from kernels.xianniu.policies import LEARNED_ACT, LEARNED_STATE, LEARNED_W, NET_W

PRESETS = ("lanzhou", "kanniutui")


@pytest.mark.parametrize("rules", PRESETS)
@pytest.mark.parametrize("policies,themed,hands", [
    ("learned", False, 400), ("learned,heuristic2,random", True, 300)])
def test_learned_plays_only_legal_actions(rules, policies, themed, hands):
    """Every learned hand replays in the reference engine with equal legal sets and points."""
    report = crosscheck(hands, rules, seed=5, policies=policies, themed=themed)
    assert report.hands == hands
    assert report.mismatches == []


def test_policy_arrays_carry_the_shipped_weights():
    ids, params = policy_arrays("learned,heuristic,learned")
    w = learned_weights()
    assert np.count_nonzero(w) > 0
    assert np.array_equal(params[0, LEARNED_W:NET_W], w)
    assert np.array_equal(params[2, LEARNED_W:NET_W], w)
    assert not params[1, LEARNED_W:NET_W].any()


@pytest.mark.parametrize("rules", PRESETS)
def test_shipped_weights_reproduce_the_validation_check(rules):
    """The first validation hand, played again by the teacher: the shipped weights give the
    agreement and regret the training script stored, and the kernel's pick is numpy's."""
    info = shipped_info()
    check = info["check"][rules]
    t = info["teacher"]
    dec, cand = generate(1, rules, info["seed"], check["hand"], t["budget"], t["samples"],
                         learned_weights())
    data = lt.from_frames(dec, cand)
    picks = lt.picks(data, lt.scores(data, learned_weights()))
    f = lt.figures(data, picks)
    assert f["n"] == check["n"] > 5
    assert f["agree_count"] == check["agree_count"]
    assert f["regret_sum"] == pytest.approx(check["regret_sum"], abs=1e-9)
    assert np.array_equal(dec["learned_pick"].to_numpy(), picks)
    # teeth: other weights give other picks
    other = lt.picks(data, lt.scores(data, -learned_weights()))
    assert not np.array_equal(other, picks)


def _positions(rules: str, seed: int, n_deals: int, k: int):
    """Decision positions of all-pimc hands and ``k`` hidden redeals of each (the seat to
    act keeps its hand; the others get cards consistent with the public record)."""
    rk = rule_arrays(get_rules(rules))
    deals = np.concatenate([deal_hands(n_deals, seed=seed).astype(np.int64),
                            themed_deals(n_deals, seed)])
    rng = states_from_seed(seed, 1)[0]
    for deal in deals:
        snaps = np.zeros((64, kg.WS_SIZE), dtype=np.int64)
        samples = np.zeros((64, k, kg.WS_SIZE), dtype=np.int64)
        n = sample_positions(deal, rk, policy_arrays("pimc"), rng, k, snaps, samples,
                             full_log())
        for p in range(n):
            for j in range(k):
                if samples[p, j, 0] >= 0:
                    yield rk, snaps[p], samples[p, j]


def _features(rk, ws, row):
    phi = np.zeros(LEARNED_STATE)
    psi = np.zeros((kg.MAX_ACTIONS, LEARNED_ACT))
    types = np.zeros(kg.MAX_ACTIONS, dtype=np.int64)
    groups = np.zeros(kg.MAX_ACTIONS, dtype=np.int64)
    n, h2, pick = features_at(ws, rk, row, phi, psi, types, groups)
    return (n, h2, pick), phi, psi[:n], types[:n], groups[:n]


@pytest.mark.parametrize("rules", PRESETS)
def test_features_ignore_the_cards_the_seat_cannot_see(rules):
    """Redealing the unseen cards leaves φ, ψ and learned's pick unchanged; with teeth: the
    redeals do move cards between the other seats, and moving one of the seat's own cards
    changes its features."""
    row = policy_row()
    compared = moved = own_changed = 0
    for rk, ws, redeal in _positions(rules, 8, 12, 2):
        seat = ws[kg.S_LEAD] if ws[kg.S_PHASE] == kg.PH_LEAD else ws[kg.WS_QUEUE + ws[kg.S_QI]]
        a, b = _features(rk, ws, row), _features(rk, redeal, row)
        assert a[0] == b[0]
        for x, y in zip(a[1:], b[1:]):
            assert np.array_equal(x, y)
        compared += 1
        others = [(seat + i) % 3 for i in (1, 2)]
        moved += any(ws[kg.WS_HANDS + o] != redeal[kg.WS_HANDS + o] for o in others)
        # swap the seat's lowest card with the lowest card of the next seat: what it holds
        # changes, so its features must notice
        mine, theirs = int(ws[kg.WS_HANDS + seat]), int(ws[kg.WS_HANDS + others[0]])
        if mine == 0 or theirs == 0:
            continue
        lo_m, lo_t = mine & -mine, theirs & -theirs
        if (lo_m.bit_length() - 1) >> 2 == (lo_t.bit_length() - 1) >> 2:
            continue  # same rank: nothing a seat could tell apart in most features
        swapped = ws.copy()
        swapped[kg.WS_HANDS + seat] = mine ^ lo_m ^ lo_t
        swapped[kg.WS_HANDS + others[0]] = theirs ^ lo_t ^ lo_m
        c = _features(rk, swapped, row)
        own_changed += c[0] != a[0] or not all(
            np.array_equal(x, y) for x, y in zip(a[1:3], c[1:3]))
    assert compared > 200
    assert moved > 0.8 * compared
    assert own_changed > 0.3 * compared
