"""Exact deal odds, checked by hand-countable cases and against the kernels' estimates."""

from __future__ import annotations

import json
from math import comb, sqrt

import pytest

from analyzer.cli import main
from analyzer.xianniu.odds import exact_odds, monte_carlo_odds

# 12 features and 5 K counts per preset, two presets: a family-wise 5% level asks each of
# the 24 comparisons for |exact - estimate| <= 3.29 standard errors (Bonferroni, two-sided).
Z_FAMILY = 3.29


def test_simple_cases_by_hand():
    ex = exact_odds("lanzhou")
    all_hands = comb(48, 16)
    assert ex["k_count"][4] == pytest.approx(comb(44, 12) / all_hands)
    assert sum(ex["k_count"]) == pytest.approx(1.0)
    # 牛: 1 - P(no black 9) - P(no red 9) + P(no 9)
    assert ex["niu"] == pytest.approx(1 - 2 * comb(46, 16) / all_hands + comb(44, 16) / all_hands)
    assert ex["niu"] == ex["xi"] and ex["fish"] == ex["bai"]
    # the colour rule makes 八大对 rarer under lanzhou
    assert exact_odds("kanniutui")["eight_pairs"] > ex["eight_pairs"] > 0


@pytest.mark.parametrize("rules", ["lanzhou", "kanniutui"])
def test_exact_odds_agree_with_the_kernels(rules):
    n = 2_000_000
    ex = exact_odds(rules)
    mc = monte_carlo_odds(n, rules, seed=2026)
    pairs = [(k, ex[k], mc[k]) for k in ex if k != "k_count"]
    pairs += [(f"k{k}", e, m) for k, (e, m) in enumerate(zip(ex["k_count"], mc["k_count"]))]
    for key, e, m in pairs:
        se = sqrt(e * (1 - e) / n)
        assert abs(m["value"] - e) <= Z_FAMILY * se, key
        assert m["n"] == n and m["low"] <= m["value"] <= m["high"]
    # and the check has teeth: a value five standard errors off is caught
    e = ex["liang"]
    assert abs(mc["liang"]["value"] - (e + 5 * sqrt(e * (1 - e) / n))) > Z_FAMILY * sqrt(
        e * (1 - e) / n)


def test_odds_cli(capsys):
    assert main(["odds", "--rules", "kanniutui", "--deals", "20000", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert list(out)[:4] == ["game", "rules", "seed", "deals"]
    assert out["game"] == "xianniu" and out["rules"] == "kanniutui" and out["deals"] == 20000
    assert out["monte_carlo"]["niu"]["n"] == 20000
    for key in ("niu", "xi", "liang", "long_feng", "eight_pairs", "fish", "bai", "k_count"):
        assert key in out["exact"] and key in out["monte_carlo"]
    assert len(out["exact"]["k_count"]) == 5
    assert main(["odds", "--deals", "0"]) == 2
    assert capsys.readouterr().err.startswith("xianniu: error:")


def test_odds_text_in_percent_keeps_small_odds_apart_from_zero(capsys):
    assert main(["odds", "--deals", "20000"]) == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if "八大对" in x)
    exact = f"{exact_odds('lanzhou')['eight_pairs'] * 100:.4g}%"
    assert exact in line and "(n=20,000)" in line  # about 0.0165%, not 0.0%
