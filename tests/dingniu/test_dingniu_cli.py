"""``xianniu dingniu …`` through ``main([...])``: output with n and CIs, and bad input as one
stderr line with exit status 2 (helpers from tests/cli_checks.py)."""

from __future__ import annotations

import json

import pytest
from cli_checks import bad, ok, write_json

HAND = "大天 红十 红八 一三 二板"
HISTORY = "lead 一五; 一三 on 1; 虎头 on 5; 虎头 on 6; 长三 on 3; 三六 on 3"


def test_simulate_json_has_n_and_cis(capsys):
    res = json.loads(ok(capsys, "dingniu", "simulate", "--hands", "3000", "--policy",
                        "heuristic", "--seed", "4", "--json"))
    assert res["hands"] == 3000 and len(res["seats"]) == 4
    assert abs(sum(s["points"]["value"] for s in res["seats"])) < 1e-9
    for s in res["seats"]:
        for key in ("points", "p_win", "count"):
            e = s[key]
            assert e["n"] == 3000 and e["low"] <= e["value"] <= e["high"]
    assert 0 < res["p_suan"]["value"] < 1
    again = json.loads(ok(capsys, "dingniu", "simulate", "--hands", "3000", "--policy",
                          "heuristic", "--seed", "4", "--json"))
    assert again == res


def test_simulate_table(capsys):
    out = ok(capsys, "dingniu", "simulate", "--hands", "2000", "--seed", "1")
    assert "seat 0 头牌" in out and "P(算帐)" in out and "(n=2,000)" in out


def test_odds_exact_inside_monte_carlo_band(capsys):
    res = json.loads(ok(capsys, "dingniu", "odds", "--deals", "40000", "--seed", "3", "--json"))
    assert len(res["features"]) >= 5
    for row in res["features"]:
        mc = row["monte_carlo"]
        width = mc["high"] - mc["low"]
        assert mc["low"] - width <= row["exact"] <= mc["high"] + width  # within ~2 CI widths


def test_heuristic_beats_random_in_duplicate(capsys):
    res = json.loads(ok(capsys, "dingniu", "tournament", "--policies", "heuristic,random",
                        "--deals", "3000", "--seed", "1", "--json"))
    d = res["differences"][0]
    assert d["a"] == "heuristic" and d["diff"]["n"] == 3000
    assert d["diff"]["low"] > 0 and d["significant"]  # the CI excludes 0
    assert list(res)[:5] == ["game", "rules", "seed", "deals", "policies"]
    assert res["game"] == "dingniu" and res["policies"] == ["heuristic", "random"]
    for row in res["results"]:
        assert set(row["mean_points"]) == {"value", "low", "high", "n"}


def test_advise_ranks_actions_with_cis(capsys):
    out = ok(capsys, "dingniu", "advise", "--hand", HAND, "--history", HISTORY,
             "--samples", "120", "--solve-samples", "6", "--seed", "2", "--json")
    res = json.loads(out)
    assert res["seat"] == 2 and res["samples"] == 120
    names = [a["action"] for a in res["actions"]]
    assert set(names) == {"大天 on 6", "红十 on 6"}
    means = [a["pimc"]["value"] for a in res["actions"]]
    assert means == sorted(means, reverse=True)
    for a in res["actions"]:
        assert a["pimc"]["n"] == 120 and a["pimc"]["low"] <= a["pimc"]["value"] <= a["pimc"]["high"]
        assert a["open_hands"]["n"] == 6
    oh = res["open_hands"]
    assert oh["cost_of_hidden_information"]["value"] >= 0
    best = res["best"]
    assert best["action"] == names[0] and best["pimc"] == res["actions"][0]["pimc"]
    assert best["next_best"] == names[1]
    assert best["margin"] == res["actions"][1]["behind_best"] and best["margin"]["n"] == 120
    text = ok(capsys, "dingniu", "advise", "--hand", HAND, "--history", HISTORY,
              "--samples", "50", "--solve-samples", "2")
    assert "PIMC" in text and "(n=50)" in text and "cost of hidden information" in text
    first = text.splitlines()[0]
    assert first.startswith("play ") and "points over the next best" in first
    assert "(n=50 deals" in first


def test_advise_with_one_legal_play_says_so(capsys):
    from analyzer.dingniu.describe import recommendation

    res = {"best": {"action": "大天 on 6", "pimc": {"value": 1.0, "low": 0.5, "high": 1.5,
                                                   "n": 40}}}
    assert recommendation(res) == "play 大天 on 6: the only legal play (n=40 deals)"


def test_advise_from_a_file_with_hidden_kou(capsys, tmp_path):
    pos = {"hand": "大天 虎头 大五 红十 红八",
           "history": [{"action": "lead", "tile": "一五"}, {"action": "kou"},
                       {"action": "play", "tile": "一三", "end": 1},
                       {"action": "play", "tile": "长三", "end": 3}]}
    # seat 1 扣ed with ends 1 and 5 open: it held no 1 or 5 tile; I am seat 0 again
    res = json.loads(ok(capsys, "dingniu", "advise", write_json(tmp_path / "p.json", pos),
                        "--samples", "60", "--solve-samples", "0", "--json"))
    assert res["seat"] == 0 and "open_hands" not in res
    assert {a["action"] for a in res["actions"]} == {"虎头 on 5", "大五 on 5"}


@pytest.mark.parametrize("args,msg", [
    (["--hand", "大天 红十", "--history", "lead 大天"], "holds 6 tiles"),
    (["--hand", "大天 虎头 大五 红十 红八 长三", "--history", "lead 一五; kou 地幺"], "face down"),
    (["--hand", "大天 虎头 大五 红十 红八", "--history", "虎头 on 5"], "first move must be a lead"),
    (["--hand", "大天 虎头 大五 红十 红八", "--history", "lead 一五; 大天 on 6"], "no open end"),
    (["--hand", "大天 虎头 大五 红十 红八", "--history", "lead 虎头; 7-7 on 6"], "unknown tile"),
    (["--hand", "大天 大天 大天 红十 红八", "--history", "lead 一五"], "too many 大天"),
    (["--hand", "大天 虎头 大五 红十 红八", "--history", "lead 一五; jump"], "cannot read"),
    # two seats 扣ed facing 1 and 5: they need 12 tiles without a 1 or 5; I hold 6 of the 12
    (["--hand", "大天 大天 红十 红十 红八 红八", "--history", "lead 一五; kou; kou"], "no deal"),
    (["--hand", "大天 虎头 大五 红十 红八"], "not both"),
])
def test_bad_positions_fail_with_one_line(capsys, args, msg):
    if msg == "not both":
        args = ["pos.json", *args]
    line = bad(capsys, "dingniu", "advise", *args, "--samples", "20")
    assert msg in line, line


def test_bad_position_files(capsys, tmp_path):
    f = tmp_path / "bad.json"
    f.write_text("{not json", encoding="utf-8")
    assert "not valid JSON" in bad(capsys, "dingniu", "advise", str(f))
    assert "position is a JSON object" in bad(capsys, "dingniu", "advise",
                                              write_json(tmp_path / "l.json", [1, 2]))
    assert "no such file" in bad(capsys, "dingniu", "advise", str(tmp_path / "none.json"))


def test_bad_options(capsys):
    assert "two different policies" in bad(capsys, "dingniu", "tournament", "--policies",
                                           "heuristic,heuristic", "--deals", "10")
    assert "unknown policy" in bad(capsys, "dingniu", "simulate", "--policy", "smart",
                                   "--hands", "10")


def test_replay_record(capsys, tmp_path):
    from test_dingniu_rules import play_random

    from analyzer.dingniu.records import record_of

    rec = record_of(play_random(7))
    out = json.loads(ok(capsys, "dingniu", "replay", write_json(tmp_path / "r.json", rec),
                        "--json"))
    assert out["over"] and sum(out["points"]) == 0
    rec["actions"][2]["end"] = 9
    assert "action 2" in bad(capsys, "dingniu", "replay", write_json(tmp_path / "b.json", rec))


def test_open_hands_against_the_heuristic():
    from analyzer.dingniu.analysis import open_hands_vs_heuristic

    oh = open_hands_vs_heuristic(4, 4, 1, "seed")
    assert len(oh) == 4 and (oh["n"] == 4).all()
    assert abs(oh["open_hands"].sum()) < 1e-9 and abs(oh["heuristic"].sum()) < 1e-9
    assert oh.attrs["solver_seconds_per_position"] > 0


def test_solve_a_record_position(capsys, tmp_path):
    from test_dingniu_solver import after_random_moves

    from analyzer.dingniu.records import record_of

    st = after_random_moves(2, 6)
    res = json.loads(ok(capsys, "dingniu", "solve", write_json(tmp_path / "s.json", record_of(st)),
                        "--json"))
    assert sum(res["values"]) == 0 and res["to_act"] == st.current_player()
    rec = record_of(st)
    rec["actions"] = rec["actions"] + [{"action": "kou", "tile": "大天"}] * 30
    assert "action" in bad(capsys, "dingniu", "solve", write_json(tmp_path / "b.json", rec))


def test_best_play_is_the_hidden_former_name_of_advise(capsys):
    args = ["--hand", HAND, "--history", HISTORY, "--samples", "30", "--solve-samples", "0",
            "--seed", "3", "--json"]
    assert json.loads(ok(capsys, "dingniu", "best-play", *args)) == \
        json.loads(ok(capsys, "dingniu", "advise", *args))
    listed = ok(capsys, "dingniu", "--help")
    assert "advise" in listed and "best-play" not in listed


def test_every_policy_is_named_in_the_help(capsys):
    from analyzer.dingniu.sim import POLICIES

    for command in ("simulate", "tournament", "play"):
        text = " ".join(ok(capsys, "dingniu", command, "--help").split())
        assert all(name in text for name in POLICIES), (command, text)
    assert "unknown policy 'smart'" in bad(capsys, "dingniu", "play", "--opponents", "smart",
                                            "--no-open")


def test_bench_runs_quickly(capsys):
    """``xianniu bench --game dingniu``: the kernels' rates against the reference engine."""
    res = json.loads(ok(capsys, "bench", "--game", "dingniu", "--hands", "2000", "--deals",
                        "4000", "--reference-hands", "10", "--repeats", "1", "--no-cold",
                        "--json"))
    assert res["game"] == "dingniu" and res["rules"] == "seed"
    for key in ("deals_per_s_all", "deals_per_s_one", "hands_per_s_all", "hands_per_s_one",
                "heuristic_hands_per_s_all", "heuristic_hands_per_s_one",
                "reference_hands_per_s"):
        assert res[key] > 0, key
    assert res["speedup_one_thread"] > 1
    text = ok(capsys, "bench", "--game", "dingniu", "--hands", "1000", "--deals", "1000",
              "--reference-hands", "10", "--repeats", "1", "--no-cold", "--rules", "navpil")
    assert "heuristic hands/s" in text and "navpil" in text
