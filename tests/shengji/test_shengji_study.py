"""``xianniu shengji stats bury | declare``: the bury and declaring decision queries over
random hands (``analyzer.shengji.study``): the heuristic's own rule ties itself exactly, the
hands are counted once, the numbers repeat on any thread count, and bad input exits 2 with
one line."""

from __future__ import annotations

import json

import numba
import pytest
from cli_checks import bad, ok

from analyzer.shengji import study


def test_bury_study_ties_the_heuristic_with_its_own_rule():
    d = study.bury_study(6, "zhengzhou", 5, 32)
    assert d["hands"] == 6 and d["deals_per_hand"] == 32
    rows = {r["rule"]: r for r in d["rows"]}
    assert set(rows) == {name for name, _ in study.RULES[1:]}
    own = rows["voids of ≤ 4 cards"]  # the defaults' bury_void 4, bury_points 0
    assert own["diff"]["value"] == own["diff"]["low"] == own["diff"]["high"] == 0
    assert own["p_same"]["value"] == 1
    assert rows["points first"]["p_same"]["value"] < 1  # a rule that differs is played
    assert all(r["diff"]["n"] == 6 for r in d["rows"])


def test_declare_study_counts_each_hand_once_and_repeats_on_one_thread():
    d = study.declare_study(8, "classic", 2, 32)
    totals = [r for r in d["rows"] if r["trump_min"] == 0 and r["trump_max"] == 99]
    assert [r["diff"]["n"] for r in totals] == [4, 4]  # seats 0 and 1 alternate
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        assert study.declare_study(8, "classic", 2, 32) == d
    finally:
        numba.set_num_threads(before)


def test_cli_json_and_text(capsys):
    d = json.loads(ok(capsys, "shengji", "stats", "bury", "--hands", "3", "--samples", "32",
                      "--seed", "1", "--json"))
    assert d["analysis"] == "bury" and d["hands"] == 3
    out = ok(capsys, "shengji", "stats", "declare", "--hands", "4", "--samples", "32")
    assert "(n=" in out and "declaring" in out.lower()


@pytest.mark.parametrize("args", [
    ("bury", "--samples", "40"),
    ("bury", "--hands", "0"),
    ("declare", "--rules", "lanzhou"),
    ("declare", "--seed", "-1"),
    ("declare", "--samples", "16"),
])
def test_bad_input_exits_2_with_one_line(capsys, args):
    bad(capsys, "shengji", "stats", *args)
