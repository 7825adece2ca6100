"""should-xian and should-kou with several play-on policies: each action valued by the best
of them on the same deals, the difference still paired deal by deal."""

from __future__ import annotations

import json

import numpy as np
import pytest

from analyzer.cli import main
from analyzer.xianniu.decision import should_kou, should_xian
from analyzer.xianniu.defaults import DECISION_BUDGET

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


@pytest.mark.parametrize("policy, message", [("learned,learned", "different policies"),
                                             ("learned,tuned2,pimc,net", "up to 3 (A,B"),
                                             ("learned,nobody", "unknown policy")])
def test_bad_play_on_lists_exit_2(policy, message, capsys):
    assert main(["should-xian", *HAND.split(), "--policy", policy]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_the_json_names_the_play_on_of_each_action(capsys):
    assert main(["should-xian", *HAND.split(), "--precision", "0.5", "--seed", "3", "--json",
                 "--quiet"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["policy"] == "net,tuned2,pimc2" and out["opponents"] == "net"
    assert set(out["valued_by"]) == {"xian", "kou"}
    assert set(out["valued_by"].values()) <= {"net", "tuned2", "pimc2"}
    assert set(out["by_policy"]) == {"net", "tuned2", "pimc2"}
    assert out["budget"] == {"pimc2": DECISION_BUDGET}


def test_the_budget_is_the_asking_seats_and_the_output_names_it(capsys):
    from analyzer.xianniu.rules import get_rules
    from analyzer.xianniu.sim import policy_arrays
    from kernels.xianniu.policies import PIMC_BUDGET

    seat_1 = [None, 8, None]
    ids, params = policy_arrays(["pimc2"] * 3, rules=get_rules("lanzhou"), pimc_budget=seat_1)
    assert params[:, PIMC_BUDGET].tolist() == [512, 8, 512]  # the opponents keep their own
    _, plain = policy_arrays(["net", "tuned2", "net"], rules=get_rules("lanzhou"),
                             pimc_budget=seat_1)
    assert plain[1, PIMC_BUDGET] != 8  # no pimc at the seat: nothing to set
    few = should_xian(HAND, 1, "lanzhou", "pimc2", precision=1e-9, max_hands=100, seed=5,
                      budget=4)
    more = should_xian(HAND, 1, "lanzhou", "pimc2", precision=1e-9, max_hands=100, seed=5,
                       budget=64)
    assert few.details["points_a"].tolist() != more.details["points_a"].tolist()
    assert main(["should-xian", *HAND.split(), "--policy", "net,pimc2", "--budget", "4",
                 "--max-deals", "100", "--precision", "50", "--seed", "3", "--quiet"]) == 0
    assert "this seat net,pimc2 (pimc2: 4 play-outs a decision), the others net" in \
        capsys.readouterr().out
    assert main(["should-xian", *HAND.split(), "--budget", "0"]) == 2
    assert "--budget" in capsys.readouterr().err


def test_the_robustness_script_compares_play_ons_on_the_same_hands(tmp_path, capsys):
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "scripts" / "measure" / "xianniu_advice_robustness.py"
    spec = importlib.util.spec_from_file_location("advice_robustness", path)
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    assert script.play_on("pimc2@64") == ("pimc2", 64)
    assert script.play_on("net,tuned2") == ("net,tuned2", DECISION_BUDGET)
    out = tmp_path / "robust.json"
    assert script.main(["--rules", "kanniutui", "--hands", "2", "--policies", "net+tuned2@8",
                        "--precision", "5", "--seed", "3", "--out", str(out)]) == 0
    rows = json.loads(out.read_text())["rows"]
    assert len(rows) == 2 and {r["rules"] for r in rows} == {"kanniutui"}
    for r in rows:
        assert set(r["answers"]) == {"net", "tuned2@8"}
        for a in r["answers"].values():
            assert a["low"] <= a["diff"] <= a["high"] and a["n"] >= 100
    agree = sum((r["answers"]["net"]["diff"] > 0) == (r["answers"]["tuned2@8"]["diff"] > 0)
                for r in rows)
    assert f"net against tuned2@8: the same answer on {agree} of 2 hands" in \
        capsys.readouterr().out


def test_the_paired_driver_with_the_search_plays_the_same_without_a_search_seat():
    # the queries run the paired driver compiled with the pimc machinery whatever they play;
    # a play-on without a pimc seat must play exactly as in the driver compiled without it
    from analyzer.xianniu.cards import parse_hand
    from analyzer.xianniu.rules import get_rules
    from analyzer.xianniu.sim import policy_arrays, rule_arrays
    from kernels import drivers
    from kernels.rng import states_for_chunks
    from kernels.xianniu import views

    r = get_rules("kanniutui")
    rk, pol = rule_arrays(r), policy_arrays(["net", "tuned2", "heuristic"], rules=r)
    view = views.view_rows(views.ANSWER, hand=parse_hand(HAND))
    got = []
    for pimc in (None, True):
        out = rk.result_rows(128, 2)
        kept = drivers.paired(rk, (*pol, pimc), view, 1, views.XIAN_KOU, out,
                              streams=states_for_chunks(4, 0, 2), max_tries=64,
                              chunk_size=64)[1]
        got.append((out, kept))
    assert got[0][1].sum() > 20  # deals were kept and played
    assert np.array_equal(got[0][0], got[1][0]) and np.array_equal(got[0][1], got[1][1])


def test_the_best_play_on_is_chosen_on_the_pilot_and_the_others_stop():
    from analyzer.xianniu.decision import PILOT

    def query(policy):
        return should_xian(HAND, 1, "kanniutui", policy, precision=1e-9, max_hands=2 * PILOT,
                           seed=5)

    names = ("learned", "tuned2", "heuristic")
    every = query(",".join(names))
    one = {p: query(p) for p in names}
    assert every.hands == 2 * PILOT and all(r.hands == 2 * PILOT for r in one.values())
    pilot_a = {p: r.details["points_a"][:PILOT].mean() for p, r in one.items()}
    pilot_b = {p: r.details["points_b"][:PILOT].mean() for p, r in one.items()}
    chosen = (max(names, key=pilot_a.get), max(names, key=pilot_b.get))
    assert every.valued_by == chosen
    # the chosen play-ons go on over every deal; the difference stays paired deal by deal
    assert every.ev_a == pytest.approx(one[chosen[0]].ev_a)
    assert every.ev_b == pytest.approx(one[chosen[1]].ev_b)
    paired = (one[chosen[0]].details["points_a"].to_numpy()
              - one[chosen[1]].details["points_b"].to_numpy())
    assert every.diff == pytest.approx(paired.mean())
    # the others played the pilot only, and say so by their n
    for p in names:
        n = every.by_policy[p]["xian"]["n"]
        assert n == (2 * PILOT if p in chosen else PILOT)
    assert len(set(chosen)) < len(names)  # one at least was dropped
