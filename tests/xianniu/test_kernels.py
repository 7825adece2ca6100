"""The kernels against the reference engine, and the random streams they deal from."""

from __future__ import annotations

import math
import os
import subprocess
import sys

import numba
import numpy as np
import pytest

from analyzer.xianniu.cards import FULL_DECK
from analyzer.xianniu.crosscheck import crosscheck, themed_deals
from analyzer.xianniu.engine import new_hand
from analyzer.xianniu.sim import deal_hands, logged_hands, simulate

PRESETS = ("lanzhou", "kanniutui")


@pytest.mark.parametrize("rules", PRESETS)
def test_kernel_hands_replay_in_reference(rules):
    """5,000 random kernel hands: same legal sets at every decision, same points."""
    report = crosscheck(5000, rules, seed=20261129)
    assert report.hands == 5000
    assert report.mismatches == []
    assert report.decisions > 5000 * 20


@pytest.mark.parametrize("rules", PRESETS)
def test_kernel_themed_hands_replay_in_reference(rules):
    """Deals rich in 龙凤, 八大对, 鱼亮, 摆亮, K-摆, 喜包亮 and many 鱼/摆."""
    report = crosscheck(1500, rules, seed=7, themed=True)
    assert report.hands == 1500
    assert report.mismatches == []


def test_themed_deals_hit_the_rare_paths():
    deals = themed_deals(600, seed=3)
    assert all(int(d[0]) | int(d[1]) | int(d[2]) == FULL_DECK for d in deals)
    lan = logged_hands(0, "lanzhou", deals=deals)
    kinds = {(a.kind, len(lh.legal[i])) for lh in lan for i, (_, a) in enumerate(lh.actions)}
    from analyzer.xianniu.combos import try_classify
    from analyzer.xianniu.rules import LANZHOU
    played = {try_classify(a.cards, LANZHOU).kind for lh in lan for _, a in lh.actions
              if a.kind == "play"}
    assert {"long_feng", "eight_pairs", "fish", "bai", "xi", "niu"} <= played
    assert any(k == "tighten" for k, _ in kinds)
    assert any(k == "discard" for k, _ in kinds)
    assert any(k == "xian" for k, _ in kinds)
    qiangci = [lh for lh in lan if lh.result[-1] >= 0]
    assert len(qiangci) > 20


def test_crosscheck_catches_a_wrong_rule_table(monkeypatch):
    """The differential check is not blind: a kernel fed a wrong table is caught."""
    import analyzer.xianniu.sim as sim
    from kernels.xianniu.tables import P_TIGHTEN_MIN

    real = sim.rule_arrays

    def wrong(rules):
        params, beats, beaters = real(rules)
        params = params.copy()
        params[P_TIGHTEN_MIN] += 1
        return params, beats, beaters

    monkeypatch.setattr(sim, "rule_arrays", wrong)
    assert crosscheck(300, "lanzhou", seed=1, themed=True).mismatches


def _chi2_sf_upper_bound_ok(stat: float, df: int, alpha: float = 1e-4) -> bool:
    """True when ``stat`` is below the chi-square (1 - alpha) quantile (Wilson-Hilferty)."""
    z = 3.719  # one-sided normal quantile for 1e-4
    q = df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3
    return stat < q


def test_dealing_is_uniform():
    n = 60000
    deals = deal_hands(n, seed=11).astype(np.int64)
    counts = np.zeros((48, 3))
    for s in range(3):
        bits = (deals[:, s, None] >> np.arange(48)) & 1
        counts[:, s] = bits.sum(axis=0)
    assert np.all(counts.sum(axis=1) == n)  # every card dealt exactly once per deal
    for d in deals[:1000]:
        assert int(d[0]) | int(d[1]) | int(d[2]) == FULL_DECK
        assert all(bin(int(h)).count("1") == 16 for h in d)
    expected = n / 3
    stat = float(((counts - expected) ** 2 / expected).sum())
    assert _chi2_sf_upper_bound_ok(stat, df=48 * 2)
    # a deliberately biased deal must fail the same check
    biased = counts.copy()
    biased[0] += [1200, -600, -600]  # 6% more of one card in seat 0
    stat_b = float(((biased - expected) ** 2 / expected).sum())
    assert not _chi2_sf_upper_bound_ok(stat_b, df=48 * 2)


def test_same_seed_same_numbers_whatever_the_threads():
    base = simulate(6000, "lanzhou", seed=5, chunk_size=500)
    old = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = simulate(6000, "lanzhou", seed=5, chunk_size=500)
    finally:
        numba.set_num_threads(old)
    assert base.equals(one)
    other = simulate(6000, "lanzhou", seed=6, chunk_size=500)
    assert not base.equals(other)


def test_same_seed_across_processes_with_numba_num_threads():
    code = ("from analyzer.xianniu.sim import simulate; import hashlib; "
            "df = simulate(3000, 'kanniutui', seed=9, chunk_size=256); "
            "print(hashlib.sha256(df.drop(columns=['end']).to_numpy().tobytes()).hexdigest())")
    digests = set()
    for threads in ("1", "2"):
        env = dict(os.environ, NUMBA_NUM_THREADS=threads)
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                             text=True, check=True)
        digests.add(out.stdout.strip())
    assert len(digests) == 1


@pytest.mark.parametrize("rules", PRESETS)
def test_simulate_rows_are_consistent(rules):
    df = simulate(20000, rules, seed=1)
    assert len(df) == 20000
    pts = df[["points0", "points1", "points2"]].to_numpy()
    cap = df[["captured0", "captured1", "captured2"]].to_numpy()
    assert (pts.sum(axis=1) == 0).all()
    assert (cap.sum(axis=1) <= 16).all()
    ci = df["ci_seat"].to_numpy()
    assert ((ci == -1) | (cap[np.arange(len(df)), np.maximum(ci, 0)] >= 11)).all()
    assert df.attrs["rules"] == rules and df.attrs["seed"] == 1 and df.attrs["hands"] == 20000


def test_kernel_log_is_a_valid_record():
    from analyzer.xianniu.records import record_of, replay
    lh = logged_hands(3, "kanniutui", seed=4)[2]
    state = new_hand(list(lh.hands), "kanniutui")
    for _, a in lh.actions:
        state.apply(a)
    again = replay(record_of(state))
    assert again.returns() == state.returns()


def test_bad_simulate_arguments():
    with pytest.raises(ValueError, match="positive"):
        simulate(0)
    with pytest.raises(ValueError, match="unknown policy"):
        simulate(10, policies="genius")
    with pytest.raises(ValueError, match="unknown rules"):
        simulate(10, rules="beijing")


@pytest.mark.parametrize("rules", PRESETS)
def test_aggregate_equals_rows(rules):
    from analyzer.xianniu.result import Result
    from analyzer.xianniu.sim import simulate_aggregate

    rows = simulate(9000, rules, seed=3, chunk_size=700)
    agg = simulate_aggregate(9000, rules, seed=3, chunk_size=700)
    assert np.array_equal(Result.from_frame(rows).counts, agg.counts)
    assert agg.hands == 9000
    s = agg.summary()
    assert s["hands"] == 9000 and s["rules"] == rules
    for e in s["mean_points"]:
        assert e["low"] <= e["value"] <= e["high"] and e["n"] == 9000
    halves = simulate_aggregate(9000, rules, seed=3, chunk_size=700)
    assert np.array_equal(halves.merge(agg).counts, 2 * agg.counts)


def test_hand_records_replay():
    from analyzer.xianniu.records import replay
    from analyzer.xianniu.sim import hand_records

    for rec in hand_records(20, "lanzhou", seed=8):
        state = replay(rec, require_end=True)
        assert sum(state.returns()) == 0


@pytest.mark.parametrize("rules", PRESETS)
def test_drawing_by_index_plays_the_listed_hands(rules):
    """The random policy's closed-form draw and the listed path play identical hands."""
    from analyzer.xianniu.rules import get_rules
    from analyzer.xianniu.sim import policy_arrays, rule_arrays
    from kernels.rng import states_from_seed
    from kernels.xianniu import game as kg
    from kernels.xianniu.batch import play_deals

    rk = rule_arrays(get_rules(rules))
    deals = np.concatenate([deal_hands(3000, seed=2).astype(np.int64), themed_deals(1000, 2)])
    out = {}
    for mode in (0, 2):
        rng = states_from_seed(17, 1)[0]
        out[mode] = np.empty((len(deals), kg.N_RESULT), dtype=np.int64)
        play_deals(deals, rng, rk, policy_arrays("random"), mode, out[mode])
    assert np.array_equal(out[0], out[2])


@pytest.mark.parametrize("rules", PRESETS)
def test_kernel_classify_matches_reference(rules):
    """Random card sets, and every play of themed hands, classify alike in both."""
    from analyzer.xianniu.combos import KINDS, plays_in, qiangci_plays, try_classify
    from analyzer.xianniu.rules import get_rules
    from analyzer.xianniu.sim import rule_arrays
    from kernels.xianniu.plays import classify_mask

    r = get_rules(rules)
    params = rule_arrays(r)[0]
    info = np.empty(5, dtype=np.int64)
    rng = np.random.default_rng(np.random.SeedSequence(31))
    masks = []
    for _ in range(20000):
        k = int(rng.integers(1, 17))
        masks.append(sum(1 << int(c) for c in rng.choice(48, size=k, replace=False)))
    for d in themed_deals(150, seed=5):
        for h in d:
            masks += [p.mask for p in plays_in(int(h), r)]
            masks += [p.mask for p in qiangci_plays(int(h), r)]
            masks.append(int(h))
    seen = set()
    for m in masks:
        ref = try_classify(m, r)
        got = classify_mask(m, params, info)
        assert got == (ref is not None), m
        if ref is not None:
            assert (KINDS[info[1]], info[2], info[3], info[4]) == (ref.kind, ref.size, ref.rank,
                                                                   ref.k)
            seen.add(ref.kind)
    expected = set(KINDS) - ({"k_bai", "xi_bao_liang"} if rules == "kanniutui" else set())
    assert seen == expected
