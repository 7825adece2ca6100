"""``--rules seed|navpil`` on every ``xianniu dingniu`` command, the tuned and pimc policies on
the command line, and the report section's tables under both presets."""

from __future__ import annotations

import json

import pytest
from cli_checks import bad, ok, write_json

HAND = "大天 红十 红八 一三 二板"
HISTORY = "lead 一五; 一三 on 1; 虎头 on 5; 虎头 on 6; 长三 on 3; 三六 on 3"


def record(tmp_path, rules: str) -> str:
    """A record of a hand going on under ``rules``, its file naming the other preset (so
    ``--rules`` must override it)."""
    from test_dingniu_pimc import mid_hand

    from analyzer.dingniu.records import record_of
    from analyzer.dingniu.rules import get_rules

    r = get_rules(rules)
    rec = record_of(mid_hand(r, 3, 8, 9))
    rec["rules"] = "navpil" if r.name == "seed" else "seed"
    return write_json(tmp_path / "record.json", rec)


COMMANDS = {
    "simulate": lambda tmp, rules: ["simulate", "--hands", "500", "--seed", "2", "--json"],
    "odds": lambda tmp, rules: ["odds", "--deals", "500", "--seed", "2", "--json"],
    "tournament": lambda tmp, rules: ["tournament", "--policies", "tuned,heuristic",
                                      "--deals", "50", "--seed", "2", "--json"],
    "advise": lambda tmp, rules: ["advise", "--hand", HAND, "--history", HISTORY,
                                  "--samples", "20", "--solve-samples", "0", "--json"],
    "replay": lambda tmp, rules: ["replay", record(tmp, rules), "--json"],
    "solve": lambda tmp, rules: ["solve", record(tmp, rules), "--json"],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("rules", ["seed", "navpil", "standard"])
def test_every_command_takes_the_preset(capsys, tmp_path, command, rules):
    res = json.loads(ok(capsys, "dingniu", *COMMANDS[command](tmp_path, rules), "--rules", rules))
    assert res["rules"] == ("seed" if rules == "standard" else rules)


def test_simulate_reports_bao_zhuang(capsys):
    res = json.loads(ok(capsys, "dingniu", "simulate", "--hands", "2000", "--rules", "navpil",
                        "--seed", "1", "--json"))
    bao, suan, won = res["p_baozhuang"], res["p_suan"], res["p_suan_success"]
    assert bao["n"] == 2000
    assert bao["value"] == pytest.approx(suan["value"] * (1 - won["value"]))


def test_pimc_tournament_on_the_command_line(capsys):
    res = json.loads(ok(capsys, "dingniu", "tournament", "--policies", "pimc,random",
                        "--deals", "3", "--pimc-samples", "2", "--pimc-leaf", "6",
                        "--rules", "navpil", "--json"))
    assert (res["pimc_samples"], res["pimc_leaf"]) == (2, 6)


@pytest.mark.parametrize("args,msg", [
    (["simulate", "--policy", "pimc", "--hands", "10"], "tournaments only"),
    (["tournament", "--rules", "kanniutui", "--deals", "10"], "kanniutui"),
    (["tournament", "--policies", "pimc,smart", "--deals", "10"], "unknown policy"),
    (["tournament", "--policies", "pimc,random", "--pimc-leaf", "40"], "40"),
    (["replay", "r.json", "--rules", "lanzhou"], "lanzhou"),
])
def test_bad_preset_or_policy_fails_with_one_line(capsys, args, msg):
    assert msg in bad(capsys, "dingniu", *args)


def test_report_tables_hold_both_presets():
    from analyzer.dingniu.report import RULE_NAMES, SECTION, commands, seeds, sizes
    from analyzer.report.progress import silent
    from analyzer.report.section import ReportSpec, seed_sequence

    spec = ReportSpec(hands=2000, seed=3)
    data = SECTION.run(spec, seed_sequence(3, "dingniu"), silent)
    t, n = data.tables, sizes(2000)
    assert RULE_NAMES == ("seed", "navpil")
    seats = t["dingniu_seats"]  # both presets side by side, on the same seeds
    assert len(seats) == 3 * 4 and set(seats["seed"]) == {
        data.seeds[p] for p in ("random", "heuristic", "tuned")}
    for pre in ("", "navpil_"):
        assert (seats[f"{pre}n"] == 2000).all()
        assert (seats[f"{pre}p_bao"] <= seats[f"{pre}p_suan"]).all()
        for policy in ("random", "heuristic", "tuned"):
            assert seats[seats["policy"] == policy][f"{pre}points"].sum() == pytest.approx(0)
    lad = t["dingniu_ladder"]
    assert list(zip(lad["rules"], lad["a"], lad["b"], lad["n_deals"])) == [
        (r, a, b, n["pimc"] if a == "pimc" else n["deals"]) for r in ("seed", "navpil")
        for a, b in (("heuristic", "random"), ("tuned", "heuristic"), ("pimc", "tuned"))]
    assert set(lad["command"]) <= set(commands(spec, seeds(spec)))
    op = t["dingniu_open"]
    assert list(op["rules"]) == ["seed"] * 4 + ["navpil"] * 4
    assert op["pimc"].sum() == pytest.approx(0) and (op["n"] == n["open"]).all()


@pytest.mark.parametrize("rules", ["seed", "navpil"])
def test_tuned_weights_are_kept_per_preset(rules):
    import numpy as np

    from analyzer.dingniu.sim import TUNED_FILE, policy_vector, tuned_vector
    from kernels.dingniu import policies as kpol

    entry = json.loads(TUNED_FILE.read_text(encoding="utf-8"))[rules]
    assert entry["names"] == list(kpol.HEURISTIC_NAMES)
    low, high = entry["final"]["ci95"]
    assert entry["final"]["deals"] >= 100_000 and 0 < low <= high  # the gain was measured
    assert (tuned_vector(rules) == np.array(entry["weights"])).all()
    assert (policy_vector("pimc", rules)[:kpol.N_HEURISTIC] == tuned_vector(rules)).all()
    assert (policy_vector("heuristic", rules)[:kpol.N_HEURISTIC]
            == kpol.HEURISTIC_DEFAULTS).all()
