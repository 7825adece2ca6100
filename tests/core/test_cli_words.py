"""Words that misled a player (issue 48), in the command line and the tables' strings."""

from __future__ import annotations

import re

from cli_checks import ok

from analyzer.shengji.tournament import tournament_lines
from analyzer.shengji.web_strings import STRINGS as SHENGJI_STRINGS
from analyzer.xianniu.describe import decision_lines
from analyzer.xianniu.web_strings import STRINGS as XIANNIU_STRINGS


def _estimate(value: float, half: float, n: int = 400) -> dict:
    return {"value": value, "low": value - half, "high": value + half, "n": n}


def _should_xian(diff: dict, recommendation: str) -> dict:
    """A should-xian answer as its JSON has it, the numbers made up."""
    return {"actions": ["xian", "kou"], "hand": "K♠ Q♥", "seat": 1, "rules": "lanzhou",
            "seed": 1, "policy": "net", "opponents": "heuristic",
            "ev_xian": _estimate(-1.0, 0.3), "ev_kou": _estimate(-1.1, 0.3), "diff": diff,
            "acceptance": _estimate(0.5, 0.01), "p_gou": _estimate(0.4, 0.05),
            "p_ci_me": _estimate(0.01, 0.01), "p_ci_opponent": _estimate(0.02, 0.01),
            "points_distribution": {"-2": 0.5, "2": 0.5}, "deals": 400,
            "recommendation": recommendation}


def test_should_xian_never_says_close_which_a_xianniu_player_reads_as_kou():
    lines = decision_lines(_should_xian(_estimate(0.1, 0.3), "close"))
    last = lines[-1]
    assert last.startswith("  recommendation: too close to call (难分高下)")
    assert not re.search(r"\bclose\b(?! to call)", last)
    sure = decision_lines(_should_xian(_estimate(1.0, 0.3), "xian"))
    assert sure[-1] == "  recommendation: 掀 xian"


def test_the_tables_say_too_close_to_call_in_both_languages():
    assert XIANNIU_STRINGS["zh"]["close"] == "难分高下"
    assert XIANNIU_STRINGS["en"]["close"] == "too close to call"
    assert SHENGJI_STRINGS["zh"]["a_close"] == "难分高下"
    assert SHENGJI_STRINGS["en"]["a_close"] == "too close to call"


def test_shengji_odds_prints_percentages_and_explains_its_marks(capsys):
    out = ok(capsys, "shengji", "odds", "--level", "2", "--deals", "2000", "--seed", "1")
    head, *rows = out.splitlines()
    assert "* marks an exact value outside its CI" in head and "in %" in head
    numbers = [r for r in rows if r.startswith("  ") and not r.strip().startswith("(")]
    assert numbers and all(re.search(r"\d%( |$)", r) for r in numbers)
    assert not re.search(r"\b0\.\d{6}\b", out)  # no fraction such as 0.493814 is left


def test_shengji_tournament_says_n_once_per_number():
    est = _estimate(0.1, 0.05, 20_000)
    d = {"banker": 0, "deals": 10_000, "seatings": 2, "hands_played": 20_000,
         "rules": "zhengzhou", "seed": 1, "levels": [2, 2],
         "results": [{"policy": p, "levels": est, "attacker_points_when_attacking": est}
                     for p in ("net", "tuned")],
         "differences": [{"a": "net", "b": "tuned", "levels": est, "levels_significant": True,
                          "attacker_points": est, "attacker_points_significant": True}]}
    lines = tournament_lines(d)
    assert not any(") (n" in line for line in lines)
    assert sum("(n=20,000 hands)" in line for line in lines) == 2
