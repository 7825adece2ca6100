"""How much skill decides (analyzer.core.tournament): the hands after which the better
player is ahead with 95% probability, checked against its meaning, and in every game's
tournament."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.core.stats import Estimate
from analyzer.core.tournament import TournamentResult, hands_ahead, seat_results


def test_hands_ahead_is_the_normal_bound_at_the_gap_and_its_ci_ends():
    got = hands_ahead(Estimate(0.5, 0.3, 0.7, 900), 5.0)
    assert got == {"value": 271, "low": 139, "high": 752, "n": 900}
    negative = hands_ahead(Estimate(-0.5, -0.7, -0.3, 900), 5.0)
    assert (negative["value"], negative["low"], negative["high"]) == (271, 139, 752)
    unsure = hands_ahead(Estimate(0.1, -0.1, 0.3, 900), 5.0)
    assert unsure["high"] is None and unsure["low"] == 752
    assert hands_ahead(Estimate(0.0, -0.1, 0.1, 900), 5.0) is None


def test_after_that_many_hands_the_better_player_is_ahead_95_times_in_100():
    """Two players each play n hands of their own: the better's total leads in 95% of runs
    (simulated hands with the gap and spreads given, 20,000 runs)."""
    gen = np.random.default_rng(20261207)
    gap, sd_a, sd_b = 0.4, 4.5, 4.0
    n = hands_ahead(Estimate(gap, gap, gap, 1), float(np.hypot(sd_a, sd_b)))["value"]
    runs = 20_000
    a = gen.normal(gap, sd_a, (runs, n)).sum(axis=1)
    b = gen.normal(0.0, sd_b, (runs, n)).sum(axis=1)
    share = float((a > b).mean())
    assert abs(share - 0.95) < 0.006, share
    a_half = gen.normal(gap, sd_a, (runs, n // 2)).sum(axis=1)  # half as many: surely fewer
    b_half = gen.normal(0.0, sd_b, (runs, n // 2)).sum(axis=1)
    assert float((a_half > b_half).mean()) < 0.92


def test_seat_results_are_each_policy_s_seat_hands():
    gen = np.random.default_rng(3)
    points = gen.integers(-9, 10, (50, 2, 3)).astype(float)  # deals, seatings, seats
    seatings = [(0, 1, 1), (1, 0, 0)]
    per_deal, sd = seat_results(points, seatings, 2)
    a = np.concatenate([points[:, 0, :1], points[:, 1, 1:]], axis=1)  # policy 0's seat-hands
    b = np.concatenate([points[:, 0, 1:], points[:, 1, :1]], axis=1)
    assert np.allclose(per_deal[:, 0], a.mean(axis=1)) and np.allclose(per_deal[:, 1], b.mean(axis=1))
    assert sd == pytest.approx((a.std(ddof=1), b.std(ddof=1)))
    res = TournamentResult(["a", "b"], "r", 0, 50, per_deal, hand_sd=sd)
    row = res.as_dict()["differences"][0]
    assert row["skill"]["gap"] == row["diff"]
    assert row["skill"]["hand_sd"] == list(sd)
    assert "skill" not in TournamentResult(["a", "b"], "r", 0, 50, per_deal).as_dict()[
        "differences"][0]


@pytest.mark.parametrize("game,args,unit", [
    ("xianniu", ["tournament", "--policies", "heuristic,random", "--deals", "300"], "points"),
    ("dingniu", ["dingniu", "tournament", "--policies", "heuristic,random", "--deals", "300"],
     "points"),
    ("shengji", ["shengji", "tournament", "--policies", "heuristic,random", "--deals", "60"],
     "levels"),
])
def test_every_game_s_tournament_says_how_much_skill_decides(capsys, game, args, unit):
    from cli_checks import ok

    out = ok(capsys, *args, "--seed", "2")
    line = next(x for x in out.splitlines() if "one hand's spread" in x)
    assert f" {unit}; the gap is " in line and "heuristic is ahead of random after" in line
    data = __import__("json").loads(ok(capsys, *args, "--seed", "2", "--json"))
    sk = data["differences"][0]["skill"]
    assert sk["hands_ahead_95"]["value"] >= 1 and len(sk["hand_sd"]) == 2
    assert sk["hand_sd"][0] > 0 <= sk["hand_sd"][1]  # random may never win a 双升 level


def test_a_search_tournament_refused_leaves_one_line(capsys):
    """The progress of a search tournament is drawn from its first deal on: a refused
    tournament leaves its error alone on standard error."""
    from cli_checks import bad

    assert "must differ" in bad(capsys, "tournament", "--policies", "pimc-net,pimc-net",
                                "--deals", "10")
    assert "policy 'nobody'" in bad(capsys, "shengji", "tournament", "--policies",
                                   "pimc2,nobody", "--deals", "10")
