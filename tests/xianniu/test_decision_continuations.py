"""should-xian and should-kou with two play-on policies: each action valued by the better of
the two on the same deals, the difference still paired deal by deal."""

from __future__ import annotations

import json

import numpy as np
import pytest

from analyzer.cli import main
from analyzer.xianniu.decision import should_kou, should_xian

HAND = "8h Js 5s 7s 7d 9s As 6h 2h 2s 9c Kd 7h 5h 10s 5d"
FIXED = {"precision": 1e-9, "max_hands": 300, "seed": 5}  # every run stops at 300 deals


@pytest.mark.parametrize("ask", ["xian", "kou"])
def test_the_better_play_on_values_each_action_on_the_same_deals(ask):
    def query(policy):
        if ask == "xian":
            return should_xian(HAND, 1, "lanzhou", policy, **FIXED)
        return should_kou(HAND, "lanzhou", policy, **FIXED)

    both = query("learned,tuned2")
    one = {p: query(p) for p in ("learned", "tuned2")}
    assert both.hands == 300 and all(r.hands == 300 for r in one.values())
    # the deals are the same under every play-on: the hands dealt agree row by row
    for r in one.values():
        for s in range(3):
            assert np.array_equal(r.details[f"hand_{s}"], both.details[f"hand_{s}"])
    best_a = max(one.values(), key=lambda r: r.ev_a)
    best_b = max(one.values(), key=lambda r: r.ev_b)
    assert both.ev_a == pytest.approx(best_a.ev_a) and both.ev_b == pytest.approx(best_b.ev_b)
    assert both.valued_by == (best_a.policy, best_b.policy)
    # the difference is paired on the deals: the chosen continuations' rows, deal by deal
    paired = best_a.details["points_a"].to_numpy() - best_b.details["points_b"].to_numpy()
    assert both.diff == pytest.approx(paired.mean())
    assert set(both.by_policy) == {"learned", "tuned2"}
    assert both.by_policy["tuned2"][both.actions[0]]["value"] == pytest.approx(
        one["tuned2"].ev_a)


def test_a_play_on_that_misplays_after_xian_no_longer_decides():
    # On this hand, against learned opponents, learned plays worse after 掀 than tuned2 does
    # (the same deals): the better of the two values 掀 higher than learned alone, by more
    # than the CIs' width, and the gap to 扣 with it
    alone = should_xian(HAND, 1, "lanzhou", "learned", precision=0.3, seed=2,
                        opponents="learned")
    both = should_xian(HAND, 1, "lanzhou", "learned,tuned2", precision=0.3, seed=2,
                       opponents="learned")
    assert both.valued_by[0] == "tuned2" and both.ev_a > alone.ci95_a[1]
    assert both.diff > alone.ci95[1]


@pytest.mark.parametrize("policy, message", [("learned,learned", "two different"),
                                             ("learned,tuned2,pimc", "two (A,B"),
                                             ("learned,nobody", "unknown policy")])
def test_bad_play_on_lists_exit_2(policy, message, capsys):
    assert main(["should-xian", *HAND.split(), "--policy", policy]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_the_json_names_the_play_on_of_each_action(capsys):
    assert main(["should-xian", *HAND.split(), "--precision", "0.5", "--seed", "3", "--json",
                 "--quiet"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["policy"] == "net,tuned2" and out["opponents"] == "net"
    assert set(out["valued_by"]) == {"xian", "kou"}
    assert set(out["valued_by"].values()) <= {"net", "tuned2"}
    assert set(out["by_policy"]) == {"net", "tuned2"}
