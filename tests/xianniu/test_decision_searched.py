"""should-kou searches the banker's first decision too: 扣 and every lead on paired
play-outs (as advise does), and says when the best lead found beats the policy's own."""

from __future__ import annotations

from analyzer.xianniu import api
from analyzer.xianniu.describe import searched_lines
from analyzer.xianniu.records import replay

HAND = "Ks Kh Kc 9s 9h Qs Qh Js 10h 10s 8s 5s 5h Ad Ac 2d"
# the play-on without its search: the two ways of asking are compared, not the default's answer
FAST = "net,tuned2"


def _overlap(a, b):
    return a["low"] <= b["high"] and b["low"] <= a["high"]


def test_should_kou_and_the_search_give_one_answer_for_kou():
    d = api.should_kou(HAND, "lanzhou", FAST, precision=0.3, seed=3)
    s = d["searched"]
    assert s is not None and s["kou"] is not None and s["best_lead"] is not None
    # The same question (扣 now) asked two ways: the EVs agree within their CIs.
    assert _overlap(d["ev_kou"], s["kou"]["ev"]), (d["ev_kou"], s["kou"])
    assert s["best_lead"]["action"]["action"] == "play" and s["best_lead"]["ev"]["n"] >= 2
    gap = d["best_lead_over_own"]
    assert abs(gap["value"] - (s["best_lead"]["ev"]["value"] - d["ev_lead"]["value"])) < 1e-9
    assert gap["low"] < gap["value"] < gap["high"]


def test_the_best_lead_is_a_legal_first_action_of_the_banker():
    from analyzer.xianniu.cards import parse_hand
    from analyzer.xianniu.decision import _first_decision_record, searched_first_decision
    from analyzer.xianniu.rules import get_rules

    s = searched_first_decision(HAND, "kanniutui", precision=0.5, seed=1)
    assert s is not None
    record = _first_decision_record(parse_hand(HAND), get_rules("kanniutui"), 1)
    assert record is not None and parse_hand(record["hands"][0]) == parse_hand(HAND)
    record["actions"] = [s["best_lead"]["action"]]
    replay(record)  # raises if the lead were illegal for the banker there


def _est(v, lo, hi, n=100):
    return {"value": v, "low": lo, "high": hi, "n": n}


def test_the_gap_line_only_when_its_ci_excludes_zero():
    searched = {"best": {"action": {"seat": 0, "action": "play", "cards": "A♣"}},
                "best_lead": {"action": {"seat": 0, "action": "play", "cards": "A♣"},
                              "ev": _est(12.1, 11.8, 12.5)},
                "kou": {"action": {"seat": 0, "action": "kou"}, "ev": _est(0.7, 0.4, 1.1)},
                "deals": 1280}
    shown = searched_lines({"searched": searched, "best_lead_over_own": _est(4.1, 3.8, 4.5)})
    assert any("beats the policy's own lead by +4.100" in ln for ln in shown)
    assert any("lead A♣" in ln for ln in shown) and any("扣 kou" in ln for ln in shown)
    quiet = searched_lines({"searched": searched, "best_lead_over_own": _est(0.1, -0.2, 0.4)})
    assert not any("beats" in ln for ln in quiet)
    assert searched_lines({"searched": None}) == [
        "  searched: not available (this hand opens a 抢刺)"]
    assert searched_lines({}) == []  # should-xian has no search of the first decision
