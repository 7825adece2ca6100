"""The self-play policy ``net``: legal play in the reference engine, the shipped weights'
stored check, the kernel's network equal to numpy's, and inputs that read only what the
deciding seat may see."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.core import mlp
from analyzer.xianniu.crosscheck import crosscheck
from analyzer.xianniu.net import net_weights, policy_row, shipped_info
from analyzer.xianniu.net_train import SIZES, XianniuSelfPlay, action_hash, selfplay
from analyzer.xianniu.sim import policy_arrays
from kernels.xianniu import game as kg
from kernels.xianniu.net import X_PICK, net_values
from kernels.xianniu.net_selfplay import net_features_at
from kernels.xianniu.policies import LEARNED_W, NET_ACT, NET_STATE, NET_TOP, NET_W
from tests.xianniu.test_learned import _positions

PRESETS = ("lanzhou", "kanniutui")


@pytest.mark.parametrize("rules", PRESETS)
@pytest.mark.parametrize("policies,themed,hands", [
    ("net", False, 300), ("net,learned,random", True, 300)])
def test_net_plays_only_legal_actions(rules, policies, themed, hands):
    """Every net hand replays in the reference engine with equal legal sets and points."""
    report = crosscheck(hands, rules, seed=6, policies=policies, themed=themed)
    assert report.hands == hands
    assert report.mismatches == []


def test_policy_arrays_carry_the_shipped_network_and_scorer():
    ids, params = policy_arrays("net,learned,heuristic")
    row = policy_row()
    assert np.count_nonzero(net_weights()) > 0
    assert np.array_equal(params[0, LEARNED_W:], row[LEARNED_W:])
    assert np.array_equal(params[1, LEARNED_W:NET_W], row[LEARNED_W:NET_W])
    assert not params[1, NET_W:].any() and not params[2, LEARNED_W:].any()


@pytest.mark.parametrize("rules", PRESETS)
def test_shipped_weights_replay_their_stored_check(rules):
    """The hash of every action net takes in the stored check's seeded hands is the one the
    training script stored; teeth: other weights play other actions."""
    check = shipped_info()["check"][rules]
    assert check["hands"] >= 200
    assert action_hash(net_weights(), rules, check["seed"], check["hands"]) == check["sha256"]
    assert action_hash(-net_weights(), rules, check["seed"], check["hands"]) != check["sha256"]


def _inputs(rk, ws, row):
    phi = np.zeros(NET_STATE)
    x = np.zeros((kg.MAX_ACTIONS, NET_ACT))
    n, pick = net_features_at(ws, rk, row, phi, x)
    return n, pick, phi, x[:n]


def test_kernel_network_is_numpys():
    """The kernel's values of the listed actions are numpy's forward pass on the same inputs
    (so the weights mean in play what they meant in training), and its pick is the best of
    learned's shortlist."""
    row, w = policy_row(), net_weights()
    checked = 0
    for rk, ws, _ in _positions("lanzhou", 4, 4, 1):
        n, pick, phi, x = _inputs(rk, ws, row)
        if n < 2:
            continue
        q = np.empty(n)
        net_values(phi, x, np.arange(n), n, row, q)
        ref = mlp.forward(w, SIZES, np.c_[np.tile(phi, (n, 1)), x])
        assert np.allclose(q, ref, rtol=1e-9, atol=1e-9)
        order = np.argsort(-x[:, -2], kind="stable")[:NET_TOP]  # learned's shortlist
        assert q[pick] == pytest.approx(q[order].max())
        assert x[:, X_PICK].sum() == 1
        checked += 1
    assert checked > 50


@pytest.mark.parametrize("rules", PRESETS)
def test_inputs_ignore_the_cards_the_seat_cannot_see(rules):
    """Redealing the unseen cards (the other seats' hands shuffled among them, consistent with
    what the seat has seen) leaves net's inputs and pick unchanged; with teeth: the redeals do
    move cards, and moving one of the seat's own cards changes its inputs."""
    row = policy_row()
    compared = moved = own_changed = 0
    for rk, ws, redeal in _positions(rules, 9, 10, 2):
        seat = ws[kg.S_LEAD] if ws[kg.S_PHASE] == kg.PH_LEAD else ws[kg.WS_QUEUE + ws[kg.S_QI]]
        a, b = _inputs(rk, ws, row), _inputs(rk, redeal, row)
        assert a[:2] == b[:2]
        assert np.array_equal(a[2], b[2]) and np.array_equal(a[3], b[3])
        compared += 1
        others = [(seat + i) % 3 for i in (1, 2)]
        moved += any(ws[kg.WS_HANDS + o] != redeal[kg.WS_HANDS + o] for o in others)
        mine, theirs = int(ws[kg.WS_HANDS + seat]), int(ws[kg.WS_HANDS + others[0]])
        if mine == 0 or theirs == 0:
            continue
        lo_m, lo_t = mine & -mine, theirs & -theirs
        if (lo_m.bit_length() - 1) >> 2 == (lo_t.bit_length() - 1) >> 2:
            continue
        swapped = ws.copy()
        swapped[kg.WS_HANDS + seat] = mine ^ lo_m ^ lo_t
        swapped[kg.WS_HANDS + others[0]] = theirs ^ lo_t ^ lo_m
        c = _inputs(rk, swapped, row)
        own_changed += c[0] != a[0] or not (np.array_equal(a[2], c[2])
                                            and np.array_equal(a[3], c[3]))
    assert compared > 200
    assert moved > 0.8 * compared
    assert own_changed > 0.3 * compared


def test_selfplay_data_is_seeded_and_returns_the_seats_points():
    """The same seed gives the same data, another seed other data; every return is a whole
    number of points, and exploration changes what is played."""
    seed = np.random.SeedSequence(11)
    a = selfplay(net_weights(), "lanzhou", seed, 60, 0.0)
    b = selfplay(net_weights(), "lanzhou", np.random.SeedSequence(11), 60, 0.0)
    c = selfplay(net_weights(), "lanzhou", np.random.SeedSequence(12), 60, 0.0)
    e = selfplay(net_weights(), "lanzhou", np.random.SeedSequence(11), 60, 0.5)
    assert all(np.array_equal(p, q) for p, q in zip(a, b))
    assert not np.array_equal(a[1], c[1])
    assert not (len(a[1]) == len(e[1]) and np.array_equal(a[0], e[0]))
    assert a[0].shape[1] == SIZES[0] and len(a[0]) > 5 * 60
    assert np.array_equal(a[1], np.round(a[1])) and a[1].std() > 0
    assert set(np.unique(a[2])) == set(range(60))
    x, y, h = XianniuSelfPlay().play(None, np.random.SeedSequence(3), 41, 0.0)
    assert h.max() == 40 and len(x) == len(y) == len(h)
