"""Every command of both games, through ``main([...])``: one estimate shape in JSON, the same
leading keys for the same command, hidden aliases for renamed options, and bad input as one
line on stderr with exit status 2."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from analyzer.cli import main

DATA = Path(__file__).parents[1] / "xianniu" / "data"
GOLDEN = DATA / "golden_kanniutui_seed7.json"
STRONG = ["Ks", "Kh", "Kc", "Kd", "Qs", "Qh", "Qc", "9s", "9h", "9c", "10s", "10h", "8s", "8h", "As", "Ah"]
WEAK = ["As", "Ah", "2s", "2h", "3s", "3c", "5s", "6h", "6c", "7s", "7h", "8c", "Jd", "10d", "Qd", "2d"]
DN_HAND = "大天 红十 红八 一三 二板"
DN_HISTORY = "lead 一五; 一三 on 1; 虎头 on 5; 虎头 on 6; 长三 on 3; 三六 on 3"
SCORE = {"rules": "kanniutui", "captured": [["9♠ 9♥ 9♣", "5♠ 5♥", "Q♠"], [], []],
         "xian": [[1, 0]]}
ESTIMATE = {"value", "low", "high", "n"}
# keys of the flat shapes an estimate must no longer take
FLAT = re.compile(r"ci95|ci_low|ci_high|_low$|_high$")


def run(capsys, *args: str) -> tuple[int, str, str]:
    rc = main(list(args))
    out, err = capsys.readouterr()
    return rc, out, err


def ok_json(capsys, *args: str):
    rc, out, err = run(capsys, *args)
    assert rc == 0, err
    return json.loads(out)


def estimates(x, path: str = "$") -> list[str]:
    """Check every CI-like object under ``x`` (recursively) has exactly the keys of
    ``Estimate.as_dict()``, and no key names a flat interval; the estimates' paths."""
    found = []
    if isinstance(x, dict):
        if {"low", "high"} & set(x) or {"value", "n"} <= set(x):
            assert set(x) == ESTIMATE, (path, sorted(x))
            assert all(isinstance(x[k], (int, float)) for k in ESTIMATE), path
            found.append(path)
        for k, v in x.items():
            assert k in ("low", "high") or not FLAT.search(k), f"{path}.{k}"
            found += estimates(v, f"{path}.{k}")
    elif isinstance(x, list):
        assert not (len(x) == 2 and all(isinstance(v, float) for v in x)
                    and path.endswith(("ci", "interval"))), path
        for i, v in enumerate(x):
            found += estimates(v, f"{path}[{i}]")
    return found


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    from analyzer.core.runner import RunSpec, run_task

    d = tmp_path_factory.mktemp("inputs")
    (d / "score.json").write_text(json.dumps(SCORE, ensure_ascii=False), encoding="utf-8")
    _, rows = run_task(RunSpec("dingniu", 20, "standard", "random", 1), 0, with_rows=True)
    record = json.loads(rows["record"][int((rows["moves"] > 12).idxmax())])
    record["actions"] = record["actions"][:8]  # stop mid-hand: something to solve
    (d / "dn.json").write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    return d


# (command, number of estimates it must hold at least)
COMMANDS = [
    (["simulate", "--hands", "300", "--seed", "1"], 20),
    (["simulate", "--hands", "60", "--engine", "reference", "--policy", "random"], 20),
    (["tournament", "--deals", "40", "--quiet"], 3),
    (["odds", "--deals", "3000"], 12),
    (["stats", "values", "--deals", "200"], 40),
    (["stats", "xian", "--deals", "300"], 10),
    (["stats", "banker", "--deals", "300"], 1),
    (["should-xian", *STRONG, "--max-deals", "200", "--quiet"], 7),
    (["should-kou", *WEAK, "--max-deals", "200"], 7),
    (["classify", "9s", "9h"], 0),
    (["beats", "3s", "6s"], 0),
    (["score", "{d}/score.json"], 0),
    (["replay", str(GOLDEN)], 0),
    (["dingniu", "simulate", "--hands", "500"], 14),
    (["dingniu", "odds", "--deals", "2000"], 6),
    (["dingniu", "tournament", "--deals", "40"], 3),
    (["dingniu", "best-play", "--hand", DN_HAND, "--history", DN_HISTORY, "--samples", "40",
      "--solve-samples", "2"], 9),
    (["dingniu", "replay", "{d}/dn.json"], 0),
    (["dingniu", "solve", "{d}/dn.json"], 0),
]


@pytest.mark.parametrize("args,at_least", COMMANDS, ids=lambda a: " ".join(a[:2])
                         if isinstance(a, list) else None)
def test_every_estimate_has_one_shape(capsys, files, args, at_least):
    args = [a.replace("{d}", str(files)) for a in args]
    found = estimates(ok_json(capsys, *args, "--json"))
    assert len(found) >= at_least, found


@pytest.mark.parametrize("args,sample,policy", [
    (["simulate", "--hands", "200"], "hands", "policy"),
    (["dingniu", "simulate", "--hands", "200"], "hands", "policy"),
    (["tournament", "--deals", "30", "--quiet"], "deals", "policies"),
    (["dingniu", "tournament", "--deals", "30"], "deals", "policies"),
    (["odds", "--deals", "1000"], "deals", None),
    (["dingniu", "odds", "--deals", "1000"], "deals", None),
])
def test_same_leading_keys_for_the_same_command(capsys, args, sample, policy):
    res = ok_json(capsys, *args, "--seed", "3", "--json")
    keys = list(res)
    assert keys[:4] == ["game", "rules", "seed", sample]
    assert res["game"] == ("dingniu" if args[0] == "dingniu" else "xianniu")
    assert res["seed"] == 3 and res[sample] == int(args[args.index(f"--{sample}") + 1])
    if policy:
        assert keys[4] == policy
        assert res[policy] == ("heuristic" if policy == "policy" else ["heuristic", "random"])


@pytest.mark.parametrize("new,old", [
    (["tournament", "--deals", "30", "--quiet"], ["tournament", "--hands", "30", "--quiet"]),
    (["stats", "banker", "--deals", "300"], ["stats", "banker", "--hands", "300"]),
    (["stats", "xian", "--deals", "300"], ["stats", "xian", "--hands", "300"]),
    (["should-kou", *WEAK, "--max-deals", "150"], ["should-kou", *WEAK, "--max-hands", "150"]),
])
def test_hidden_aliases_still_work(capsys, new, old):
    assert ok_json(capsys, *old, "--json") == ok_json(capsys, *new, "--json")
    command = new[:2] if new[0] == "stats" else new[:1]
    rc, out, _ = run(capsys, *command, "--help")
    renamed = next(a for a in new if a.startswith("--"))
    alias = next(a for a in old if a.startswith("--"))
    assert rc == 0 and renamed in out and alias not in out


@pytest.mark.parametrize("args,fragment", [
    (["tournament", "--deals", "1"], "--deals"),
    (["tournament", "--hands", "1"], "--hands"),
    (["tournament", "--deals", "9", "--hands", "9"], "not both"),
    (["tournament", "--policies", "random", "--deals", "9"], "2 or 3"),
    (["tournament", "--heuristic-params", "x", "--deals", "9"], "LABEL=FILE"),
    (["stats", "values", "--deals", "1"], "--deals"),
    (["stats", "values", "--deals", "10001", "--policies", "pimc,random,random"], "at most 10,000"),
    (["stats", "nothing"], "nothing"),
    (["odds", "--deals", "0"], "--deals"),
    (["odds", "--hands", "10"], "--hands"),
    (["should-xian", "--json"], "HAND"),
    (["should-kou", "--json"], "HAND"),
    (["should-xian", *STRONG, "--max-deals", "5"], "--max-deals"),
    (["beats", "4s", "9h", "--json"], "4"),
    (["classify", "As", "2s", "--json"], "not a combination"),
    (["dingniu", "odds", "--deals", "0"], "--deals"),
    (["dingniu", "tournament", "--deals", "1"], "--deals"),
    (["dingniu", "tournament", "--policies", "random", "--deals", "9"], "two different"),
    (["dingniu", "best-play", "--json"], "give the position"),
    (["dingniu", "best-play", "{d}/dn.json", "--history", "lead 大天"], "--history"),
    (["dingniu", "replay", "{d}/missing.json"], "missing.json"),
    (["dingniu", "simulate", "--hands", "10", "--json", "--format", "csv"], "--json"),
])
def test_bad_input_is_one_line_and_status_2(capsys, files, args, fragment):
    rc, out, err = run(capsys, *[a.replace("{d}", str(files)) for a in args])
    lines = [x for x in err.splitlines() if x.strip()]
    assert rc == 2 and out == "" and len(lines) == 1, (rc, out, err)
    assert lines[0].startswith("xianniu: error:") and fragment in lines[0], lines[0]


@pytest.mark.parametrize("args", [["odds", "--deals", "20000"],
                                  ["dingniu", "odds", "--deals", "20000"],
                                  ["simulate", "--hands", "2000"],
                                  ["dingniu", "simulate", "--hands", "2000"]])
def test_text_prints_probabilities_in_percent(capsys, args):
    from analyzer.core.stats import format_percent

    rc, out, err = run(capsys, *args)
    assert rc == 0, err
    assert "%" in out and ("(n=" in out or "n = 2,000" in out)
    shown = re.findall(r"(\d+(?:\.\d+)?)%", out)
    assert shown and all(float(x) > 0 or x == "0" for x in shown)  # nothing as 0.0%
    assert format_percent(0.0005) != format_percent(0.0)
