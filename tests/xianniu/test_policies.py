"""Policies play only legal actions, and the duplicate tournament measures them fairly."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.xianniu.crosscheck import crosscheck
from analyzer.xianniu.tournament import seatings, tournament

PRESETS = ("lanzhou", "kanniutui")


@pytest.mark.parametrize("rules", PRESETS)
@pytest.mark.parametrize("policies,themed,hands", [
    ("heuristic", False, 1500), ("heuristic", True, 1500),
    ("heuristic,random,heuristic", False, 1500),
    ("heuristic2", False, 1000), ("heuristic2,heuristic,random", True, 1000)])
def test_heuristic_plays_only_legal_actions(rules, policies, themed, hands):
    """Every heuristic hand replays in the reference engine with equal legal sets and points."""
    report = crosscheck(hands, rules, seed=99, policies=policies, themed=themed)
    assert report.hands == hands
    assert report.mismatches == []


def test_seatings_are_balanced():
    for k in (2, 3):
        seats = seatings(k)
        assert len(seats) == 6 and len(set(seats)) == 6
        for p in range(k):
            per_seat = [sum(s[seat] == p for s in seats) for seat in range(3)]
            assert len(set(per_seat)) == 1 and per_seat[0] > 0
    with pytest.raises(ValueError):
        seatings(4)


@pytest.mark.parametrize("rules", PRESETS)
def test_heuristic_beats_random_in_duplicate(rules):
    res = tournament("heuristic,random", 3000, rules, seed=4)
    diff = res.differences().iloc[0]
    assert diff["a"] == "heuristic" and diff["significant"] and diff["ci_low"] > 0
    table = res.table()
    assert table["n_deals"].tolist() == [3000, 3000]
    # two policies: every seating sums to zero, so the two means are opposite
    assert table["mean_points"].sum() == pytest.approx(0.0, abs=1e-12)


@pytest.mark.parametrize("rules", PRESETS)
def test_heuristic2_beats_heuristic_in_duplicate(rules):
    res = tournament("heuristic2,heuristic", 3000, rules, seed=4)
    diff = res.differences().iloc[0]
    assert diff["a"] == "heuristic2" and diff["significant"] and diff["ci_low"] > 0.1


def test_heuristic2_against_itself_is_even():
    res = tournament("heuristic2,heuristic2:copy", 400, "lanzhou", seed=2,
                     heuristic_params={"heuristic2:copy": _defaults()})
    assert np.array_equal(res.per_deal, np.zeros_like(res.per_deal))


def test_tournament_is_reproducible_and_three_way():
    a = tournament("random,heuristic,heuristic:shy", 800, "lanzhou", seed=11,
                   heuristic_params={"heuristic:shy": _shy()})
    b = tournament("random,heuristic,heuristic:shy", 800, "lanzhou", seed=11,
                   heuristic_params={"heuristic:shy": _shy()})
    assert np.array_equal(a.per_deal, b.per_deal)
    assert len(a.differences()) == 3
    assert a.per_deal.sum(axis=1) == pytest.approx(np.zeros(800), abs=1e-9)


def test_same_policy_against_itself_is_even():
    """A policy against an identical copy: the difference is exactly zero on every deal."""
    res = tournament("heuristic,heuristic:copy", 500, "kanniutui", seed=2,
                     heuristic_params={"heuristic:copy": _defaults()})
    assert np.array_equal(res.per_deal, np.zeros_like(res.per_deal))


def test_bad_tournament_arguments():
    with pytest.raises(ValueError, match="2 or 3"):
        tournament("random", 10)
    with pytest.raises(ValueError, match="differ"):
        tournament("random,random", 10)
    with pytest.raises(ValueError, match="unknown policy"):
        tournament("random,oracle", 10)
    with pytest.raises(ValueError, match="no parameters"):
        tournament("random,heuristic:x", 10)


def _defaults():
    from kernels.xianniu.policies import HEURISTIC_DEFAULTS
    return HEURISTIC_DEFAULTS.copy()


def _shy():
    from kernels.xianniu.policies import H_XIAN_AT
    w = _defaults()
    w[H_XIAN_AT] = 99.0  # never 掀
    return w


def test_tournament_cli_json_and_errors(capsys, tmp_path):
    import json

    from analyzer.cli import main

    assert main(["tournament", "--policies", "heuristic,random", "--deals", "300", "--seed", "3",
                 "--json", "--quiet"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["deals"] == 300 and out["seatings"] == 6 and len(out["differences"]) == 1
    assert list(out)[:5] == ["game", "rules", "seed", "deals", "policies"]
    assert out["policies"] == ["heuristic", "random"]
    for row in out["results"]:
        e = row["mean_points"]
        assert e["low"] <= e["value"] <= e["high"] and e["n"] == 300
    d = out["differences"][0]
    assert d["diff"]["low"] > 0 and d["significant"] and d["diff"]["n"] == 300
    # --hands, the option's earlier name, still counts deals; heuristic,random is the default
    assert main(["tournament", "--hands", "300", "--seed", "3", "--json", "--quiet"]) == 0
    assert json.loads(capsys.readouterr().out) == out
    params = tmp_path / "p.json"
    params.write_text(json.dumps({"tuned": {"xian_at": 7.5}}))
    assert main(["tournament", "--policies", "heuristic,heuristic:t", "--deals", "50",
                 "--heuristic-params", f"t={params}", "--quiet"]) == 0
    assert "heuristic:t" in capsys.readouterr().out
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"tuned": {"courage": 1}}))
    for args in (["--policies", "random"], ["--policies", "heuristic,heuristic:t",
                                           "--heuristic-params", f"t={bad}"],
                 ["--policies", "heuristic,heuristic:t", "--heuristic-params", "t"],
                 ["--policies", "heuristic,random", "--hands", "1"],
                 ["--policies", "heuristic,random", "--deals", "1"],
                 ["--deals", "50", "--hands", "50"]):
        assert main(["tournament", *args, "--quiet"]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("xianniu: error:")


def test_tuning_script_records_seed_budget_and_gain(tmp_path):
    import json
    import subprocess
    import sys
    from pathlib import Path

    out = tmp_path / "tuning.json"
    script = Path(__file__).resolve().parents[2] / "scripts" / "train" / "xianniu_tune.py"
    subprocess.run([sys.executable, str(script), "--rules", "kanniutui", "--iterations", "2",
                    "--population", "4", "--deals", "200", "--final-deals", "400", "--seed", "5",
                    "--out", str(out)], check=True, capture_output=True)
    res = json.loads(out.read_text())
    assert res["seed"] == 5 and res["rules"] == "kanniutui"
    assert res["budget_hands"] == 2 * 4 * 200 * 6 + 400 * 6
    low, high = res["final_measurement"]["ci95"]
    assert low <= res["final_measurement"]["gain_points_per_hand"] <= high
    assert set(res["tuned"]) == set(res["defaults"])
