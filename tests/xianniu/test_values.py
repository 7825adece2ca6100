"""Paired experiments: pattern values by one swap, and 掀 against 扣."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from analyzer.cli import main
from analyzer.xianniu.analysis import PATTERN_NAMES, pattern_values, xian_ev
from analyzer.xianniu.cards import FULL_DECK, count
from analyzer.xianniu.sim import deal_hands
from kernels.rng import states_from_seed
from kernels.xianniu import experiments as kx


def test_one_swap_makes_or_breaks_the_pattern_and_nothing_else():
    deals = deal_hands(3000, seed=4).astype(np.int64)
    rng = states_from_seed(1, 1)[0]
    alt = np.empty(3, dtype=np.int64)
    seen = {1: 0, -1: 0}
    for d in deals:
        for pattern in range(kx.N_PATTERNS):
            seat = int(pattern % 3)
            sign = kx.counterfactual(d, seat, pattern, rng, alt)
            if sign == 0:
                assert np.array_equal(alt, d)
                continue
            seen[sign] += 1
            assert int(alt[0]) | int(alt[1]) | int(alt[2]) == FULL_DECK
            assert [count(int(h)) for h in alt] == [16, 16, 16]
            moved = [int(a) ^ int(b) for a, b in zip(alt, d)]
            assert sum(count(m) for m in moved) == 4  # one card each way between two seats
            if pattern == kx.PAT_K:  # "made": one more K
                kings = 0xF << (4 * 11)
                assert count(int(alt[seat]) & kings) == count(int(d[seat]) & kings) + 1
                continue
            assert kx.holds(alt[seat], pattern) == (sign > 0)
            assert kx.holds(d[seat], pattern) == (sign < 0)
    assert seen[1] > 1000 and seen[-1] > 500


def test_pattern_values_have_ci_and_sense():
    df = pattern_values(4000, "lanzhou", "heuristic", seed=3)
    assert list(df["pattern"]) == PATTERN_NAMES
    assert (df["cf_ci_low"] <= df["counterfactual_diff"]).all()
    assert (df["counterfactual_diff"] <= df["cf_ci_high"]).all()
    k = df.set_index("pattern").loc["K 天"]
    assert k["cf_ci_low"] > 0 and k["cf_share_made"] == 1.0  # one more K always helps
    niu = df.set_index("pattern").loc["niu 牛"]
    assert niu["cf_ci_low"] > 0 and niu["n_with"] + niu["n_without"] == 3 * 4000


@pytest.mark.parametrize("rules", ["lanzhou", "kanniutui"])
def test_xian_ev_strong_hands_xian_weak_hands_kou(rules):
    df = xian_ev(20000, rules, "heuristic", seed=5)
    weak = df[df["sure_cards"].isin(["0", "1"])]
    strong = df[df["sure_cards"].isin(["7", "8+"]) & (df["k_count"] >= 2)]
    assert (weak["ci_high"] < 0).all() and len(weak) > 0
    assert (strong["ci_low"] > 0).any()
    assert df["n"].sum() == df.attrs["positions"] > 19000


def test_stats_cli(capsys):
    assert main(["stats", "banker", "--deals", "3000", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out["banker_mean_points"]) == {"value", "low", "high", "n"}
    assert out["banker_mean_points"]["n"] == out["deals"] == 3000
    assert main(["stats", "banker", "--hands", "3000", "--json"]) == 0  # the earlier name
    assert json.loads(capsys.readouterr().out) == out
    assert main(["stats", "xian", "--deals", "2000", "--rules", "kanniutui"]) == 0
    text = capsys.readouterr().out
    assert "sure" in text and "掀 - 扣" in text and "2,000 deals" in text and "%" in text
    assert main(["stats", "values", "--deals", "10001", "--policy", "pimc"]) == 2
    assert capsys.readouterr().err.startswith("xianniu: error:")


def test_stats_json_has_one_estimate_shape(capsys):
    df = xian_ev(2000, "kanniutui", "heuristic", seed=0)
    assert main(["stats", "xian", "--deals", "2000", "--rules", "kanniutui", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert list(out)[:5] == ["game", "rules", "seed", "deals", "policy"]
    assert len(out["rows"]) == len(df)
    for row, (_, ref) in zip(out["rows"], df.iterrows()):
        for key, low, high in (("ev_xian", "xian_ci_low", "xian_ci_high"),
                               ("ev_kou", "kou_ci_low", "kou_ci_high"),
                               ("diff", "ci_low", "ci_high")):
            assert row[key] == {"value": ref[key], "low": ref[low], "high": ref[high],
                                "n": ref["n"]}
    assert main(["stats", "values", "--deals", "300", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    row = out["rows"][0]
    assert row["mean_with"]["n"] + row["mean_without"]["n"] == row["observed_diff"]["n"] == 900
    assert row["counterfactual_diff"]["low"] <= row["counterfactual_diff"]["value"]
    assert 0 <= row["cf_share_made"] <= 1 and len(out["k_count"]) == 5


def test_every_printed_statistic_has_a_ci():
    df = pattern_values(600, "kanniutui", "random", seed=9)
    for col in ("mean_with", "mean_without", "observed_diff", "counterfactual_diff"):
        low, high = {"mean_with": ("with_ci_low", "with_ci_high"),
                     "mean_without": ("without_ci_low", "without_ci_high"),
                     "observed_diff": ("obs_ci_low", "obs_ci_high"),
                     "counterfactual_diff": ("cf_ci_low", "cf_ci_high")}[col]
        ok = df[col].notna() & df[low].notna()
        assert ((df.loc[ok, low] <= df.loc[ok, col]) & (df.loc[ok, col] <= df.loc[ok, high])).all()
    x = xian_ev(3000, "lanzhou", "random", seed=9)
    for col, (low, high) in {"ev_xian": ("xian_ci_low", "xian_ci_high"),
                             "ev_kou": ("kou_ci_low", "kou_ci_high"),
                             "diff": ("ci_low", "ci_high")}.items():
        big = x["n"] > 1
        assert ((x.loc[big, low] <= x.loc[big, col]) & (x.loc[big, col] <= x.loc[big, high])).all()


@pytest.mark.parametrize("experiment", [pattern_values, xian_ev])
def test_progress_comes_in_batches_and_changes_no_number(experiment):
    quiet = experiment(90, "lanzhou", "heuristic", seed=4, chunk_size=2)
    seen: list[int] = []
    told = experiment(90, "lanzhou", "heuristic", seed=4, chunk_size=2, progress=seen.append)
    pd.testing.assert_frame_equal(quiet, told)
    assert quiet.attrs == told.attrs
    assert sum(seen) == 90 and len(seen) > 1


def test_a_search_player_plays_the_experiments_up_to_a_cap():
    from analyzer.xianniu.analysis import MAX_SEARCH_DEALS

    with pytest.raises(ValueError, match="at most 10,000"):
        pattern_values(MAX_SEARCH_DEALS + 1, "lanzhou", "pimc2")
    df = pattern_values(6, "kanniutui", "pimc2,net,net", seed=2)
    assert 0 < df["cf_pairs"].sum() <= 6 * len(df) and df.attrs["policy"] == "pimc2,net,net"
    x = xian_ev(6, "kanniutui", "net,pimc2,net", seed=2)
    assert 0 < x.attrs["positions"] <= 6
