"""双升 dealing kernels: exact uniform draws, conserved and uniform deals, deal features."""

from __future__ import annotations

import dataclasses
from collections import Counter

import numba
import numpy as np
import pytest

from analyzer.shengji.bidding import declarable, overcall_valid
from analyzer.shengji.cards import DECK, context, points
from analyzer.shengji.rules import CLASSIC, ZHENGZHOU
from kernels.rng import states_from_seed
from kernels.shengji import deal as kd
from kernels.shengji.context import CX_SUIT_MASK, new_context
from kernels.shengji.params import P_JOKER_PAIR_MAY_OPEN, param_vector
from kernels.shengji.planes import cards_of

SWAPPED = ZHENGZHOU.with_(joker_colour="swapped", joker_pair_may_open=False)


def deals(seed, n):
    out = np.empty((n, 5, 2), dtype=np.int64)
    kd.deal_many(states_from_seed(seed, 1)[0], n, out)
    return out


def test_lemire_acceptance_is_exactly_uniform():
    """The accept rule of _draw4 (low 16 bits ≥ 2^16 mod n) leaves each j < n equally often."""
    x = np.arange(1 << 16, dtype=np.int64)
    for n in range(1, 109):
        prod = x * n
        ok = (prod & 0xFFFF) >= (1 << 16) % n
        assert len(set(np.bincount(prod[ok] >> 16, minlength=n))) == 1


@pytest.mark.parametrize("n", [4, 5, 108])
def test_draw4_is_uniform_and_independent(n):
    state = tuple(states_from_seed(3, 1)[0])
    draws = 60000
    outcomes = Counter()
    for _ in range(draws):
        w, *state = kd._draw4(*state, n)
        state = [np.uint64(x) for x in state]
        js = [(w >> (16 * t)) & 0xFFFF for t in range(4)]
        assert all(0 <= j < n - t for t, j in enumerate(js))
        outcomes[js[0] * n ** 3 + js[1] * n ** 2 + js[2] * n + js[3] if n < 10 else js[0]] += 1
    cells = n * (n - 1) * (n - 2) * (n - 3) if n < 10 else n
    expect = draws / cells
    chi2 = sum((outcomes[k] - expect) ** 2 / expect for k in outcomes) \
        + expect * (cells - len(outcomes))
    assert chi2 < cells + 6 * np.sqrt(2 * cells)


def test_deals_conserve_the_108_cards():
    for d in deals(1, 2000):
        hands = [cards_of(*d[s]) for s in range(5)]
        assert [len(h) for h in hands] == [25, 25, 25, 25, 8]
        assert Counter(f for h in hands for f in h) == Counter(DECK)


def test_deals_are_uniform():
    n = 20000
    ds = deals(2, n)
    counts = np.zeros((5, 54), dtype=np.int64)
    for s in range(5):
        for f in range(54):
            counts[s, f] = ((ds[:, s, 0] >> f) & 1).sum() + ((ds[:, s, 1] >> f) & 1).sum()
    size = np.array([25, 25, 25, 25, 8])[:, None]
    expect = 2 * n * size / 108
    var = 2 * n * size / 108 * (1 - size / 108) * 1.05  # two copies: nearly binomial
    z = (counts - expect) / np.sqrt(var)
    assert np.abs(z).max() < 5
    assert abs((z ** 2).mean() - 1) < 0.1
    # both copies of a face in one seat: 25·24 / (108·107) per face
    pairs = ((ds[:, 0, 1] >> 7) & 1).mean()
    assert abs(pairs - 600 / 11556) < 5 * np.sqrt(600 / 11556 / n)


def oracle_features(hand, level, trump, rules):
    decl = declarable(hand, level, rules)
    suited = [d for d in decl if d.cls <= 2]
    return (any(overcall_valid(None, d, rules=rules) for d in decl), bool(suited),
            any(d.cls == 2 for d in suited), any(d.cls >= 3 for d in decl), points(hand),
            len(context(level, trump).suit_cards(hand, 4)))


@pytest.mark.parametrize("rules", [ZHENGZHOU, CLASSIC, SWAPPED],
                         ids=["zhengzhou", "classic", "swapped"])
@pytest.mark.parametrize("level, trump", [(2, 0), (10, 3), (14, 4)])
def test_seat_features_match_the_oracle(rules, level, trump):
    params = param_vector(dataclasses.asdict(rules))
    lv = kd.declaring_masks(level, params)
    tmask = new_context(trump, level, False)[CX_SUIT_MASK + 4]
    seen = Counter()
    for d in deals(level * 10 + trump, 400):
        for s in range(4):
            got = kd.seat_features(d[s, 0], d[s, 1], *lv, tmask, params[P_JOKER_PAIR_MAY_OPEN])
            want = oracle_features(cards_of(*d[s]), level, trump, rules)
            assert tuple(int(v) for v in got) == tuple(int(v) for v in want)
            seen[want[:4]] += 1
    assert len(seen) >= 4


def aggregate_in_python(hands_list, level, trump, banker, rules):
    agg = np.zeros(kd.DEAL_AGG_SIZE, dtype=np.int64)
    th = rules.rebel_threshold
    for d in hands_list:
        agg[kd.DT + kd.DT_DEALS] += 1
        feats = [oracle_features(cards_of(*d[s]), level, trump, rules) for s in range(4)]
        for s, (can, suited, pair, jp, p, t) in enumerate(feats):
            b = kd.DS_SIZE * s
            for off, v in ((kd.DS_CAN_DECLARE, can), (kd.DS_SUITED, suited),
                           (kd.DS_SUITED_PAIR, pair), (kd.DS_JOKER_PAIR, jp),
                           (kd.DS_REBEL, p < th), (kd.DS_POINTS, p), (kd.DS_POINTS_SQ, p * p),
                           (kd.DS_POINTS_HIST + p // 5, 1), (kd.DS_TRUMP, t),
                           (kd.DS_TRUMP_SQ, t * t), (kd.DS_TRUMP_HIST + t, 1)):
                agg[b + off] += v
        agg[kd.DT + kd.DT_NO_SUITED] += not any(f[1] for f in feats)
        agg[kd.DT + kd.DT_NOTHING] += not any(f[0] for f in feats)
        d1, d3 = feats[(banker + 1) % 4][4], feats[(banker + 3) % 4][4]
        agg[kd.DT + kd.DT_DEFENDER_REBEL] += d1 < th or d3 < th
        agg[kd.DT + kd.DT_SIDE_REBEL] += d1 + d3 < th
        k = points(cards_of(*d[4]))
        agg[kd.DT + kd.DT_KITTY_POINTS] += k
        agg[kd.DT + kd.DT_KITTY_POINTS_SQ] += k * k
    return agg


@pytest.mark.parametrize("rules", [ZHENGZHOU, CLASSIC], ids=["zhengzhou", "classic"])
def test_deal_chunks_aggregate_equals_a_python_recount(rules):
    level, trump, banker, n, per = 7, 1, 2, 1000, 300
    states = states_from_seed(5, 4)
    out = np.zeros((4, kd.DEAL_AGG_SIZE), dtype=np.int64)
    kd.deal_chunks(states, per, n, level, trump, banker, param_vector(dataclasses.asdict(rules)),
                   out)
    for c in range(4):
        m = min(per, n - c * per)
        hands = np.empty((m, 5, 2), dtype=np.int64)
        kd.deal_many(states[c].copy(), m, hands)
        assert np.array_equal(out[c], aggregate_in_python(hands, level, trump, banker, rules))


def run_chunks(seed, n, threads=None):
    states = states_from_seed(seed, 16)
    out = np.zeros((16, kd.DEAL_AGG_SIZE), dtype=np.int64)
    before = numba.get_num_threads()
    try:
        if threads:
            numba.set_num_threads(threads)
        kd.deal_chunks(states, -(-n // 16), n, 2, 0, 0, param_vector({}), out)
    finally:
        numba.set_num_threads(before)
    return out.sum(axis=0)


def test_deal_chunks_do_not_depend_on_the_thread_count():
    one = run_chunks(8, 20000, threads=1)
    assert np.array_equal(one, run_chunks(8, 20000, threads=max(2, numba.get_num_threads())))
    assert not np.array_equal(one, run_chunks(9, 20000))


def test_declaring_and_rebel_rates_at_level_2():
    """§4.4–4.5 sizes: no suited declaration ≈3.5 %, nothing declarable ≈1.2 %, some
    defender under 15 points ≈2.2 %."""
    agg = run_chunks(10, 200000)
    n = agg[kd.DT + kd.DT_DEALS]
    assert n == 200000
    assert abs(agg[kd.DT + kd.DT_NO_SUITED] / n - 0.035) < 0.003
    assert abs(agg[kd.DT + kd.DT_NOTHING] / n - 0.012) < 0.002
    assert abs(agg[kd.DT + kd.DT_DEFENDER_REBEL] / n - 0.022) < 0.002
    for s in range(4):
        assert agg[kd.DS_SIZE * s + kd.DS_POINTS] / n == pytest.approx(200 * 25 / 108, rel=0.01)
        assert agg[kd.DS_SIZE * s + kd.DS_TRUMP] / n == pytest.approx(36 * 25 / 108, rel=0.01)
    assert agg[kd.DT + kd.DT_KITTY_POINTS] / n == pytest.approx(200 * 8 / 108, rel=0.02)
