"""``xianniu shengji tournament``: the team duplicate tournament (A on one team, B on the
other, each deal again with the teams swapped): its JSON and text, the scores it derives from
the whole-hand rows, the same numbers on any thread count, and bad input (exit 2, one line)."""

from __future__ import annotations

import json

import numba
import numpy as np
import pytest
from cli_checks import bad, ok

from analyzer.shengji import api
from analyzer.shengji import tournament as tm
from kernels.shengji import game as kw
from kernels.shengji import hand as kh


def test_json_reports_levels_and_attacker_points_with_cis(capsys):
    d = json.loads(ok(capsys, "shengji", "tournament", "--policies", "heuristic,random",
                      "--deals", "40", "--seed", "3", "--json"))
    assert d["game"] == "shengji" and d["rules"] == "zhengzhou" and d["deals"] == 40
    assert d["seatings"] == 2 and d["hands_played"] == 80
    assert [r["policy"] for r in d["results"]] == ["heuristic", "random"]
    for row in d["results"]:
        for key in ("levels", "net_attacker_points", "attacker_points_when_attacking"):
            assert set(row[key]) == {"value", "low", "high", "n"}
        assert row["levels"]["n"] == 40
    (diff,) = d["differences"]
    assert diff["a"] == "heuristic" and diff["b"] == "random"
    assert diff["levels"]["n"] == 40 and diff["attacker_points"]["n"] == 40
    # zero-sum: each policy's net attacker points are the other's negated
    a, b = (r["net_attacker_points"]["value"] for r in d["results"])
    assert a == pytest.approx(-b)
    assert diff["attacker_points"]["value"] == pytest.approx(a - b)


def test_text_names_n_and_cis(capsys):
    out = ok(capsys, "shengji", "tournament", "--policies", "random,heuristic", "--deals",
             "10", "--rules", "classic")
    assert "rules classic" in out and "random - heuristic, levels per deal" in out
    assert "(n=10)" in out and "attackers' points per deal" in out


def test_scores_from_rows():
    rows = np.zeros((1, 2, kw.N_WHOLE), dtype=np.int64)
    # seating 0 (A on seats 0, 2): seat 0 banks and holds, +2 levels, attackers 20 points
    rows[0, 0, kw.W_BANKER], rows[0, 0, kw.W_WINNER_TEAM], rows[0, 0, kw.W_GAIN] = 0, 0, 2
    rows[0, 0, kw.W_PLAY + kh.R_ATTACKER_POINTS] = 20
    # seating 1 (B on seats 0, 2): seat 0 banks, A attacks with 130 points, +1 level to A
    rows[0, 1, kw.W_BANKER], rows[0, 1, kw.W_WINNER_TEAM], rows[0, 1, kw.W_GAIN] = 0, 1, 1
    rows[0, 1, kw.W_PLAY + kh.R_ATTACKER_POINTS] = 130
    levels, net, attacker = tm.scores(rows)
    assert levels.tolist() == [[1.5, 0.0]]
    assert net.tolist() == [[55.0, -55.0]]  # (-20 + 130) / 2
    assert attacker.tolist() == [[1, 0]]


def test_same_numbers_on_any_thread_count():
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = api.tournament("heuristic,random", 300, "zhengzhou", 9)
    finally:
        numba.set_num_threads(before)
    assert api.tournament("heuristic,random", 300, "zhengzhou", 9) == one


@pytest.mark.parametrize("args", [
    ("--policies", "heuristic"),
    ("--policies", "heuristic,heuristic"),
    ("--policies", "heuristic,minimax"),
    ("--policies", "a,b,c"),
    ("--deals", "1"),
    ("--deals", "-3"),
    ("--rules", "lanzhou"),
    ("--seed", "-1"),
])
def test_bad_input_exits_2_with_one_line(capsys, args):
    bad(capsys, "shengji", "tournament", *args)


def test_simulate_plays_heuristic_seats(capsys):
    d = json.loads(ok(capsys, "shengji", "simulate", "--hands", "400", "--policies",
                      "heuristic,random,heuristic,random", "--seed", "2", "--quiet", "--json"))
    assert d["policy"] == "heuristic,random" and d["hands"] == 400
    heuristic_team, random_team = d["teams"]
    assert heuristic_team["p_wins_hand"]["low"] > random_team["p_wins_hand"]["high"]


def test_api_refuses_bad_input():
    with pytest.raises(ValueError):
        api.tournament("heuristic,random", 0)
    with pytest.raises(ValueError):
        api.tournament("heuristic,random", 10, seed=-1)
    with pytest.raises(ValueError):
        api.tournament("heuristic,random", 10, rules="nope")
