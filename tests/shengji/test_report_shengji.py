"""双升's report section at its quick size (``--hands 100``): it writes its tables and
figures, every number on its page carries n and a 95% CI in both languages, its seeds come
from its own key, and its commands reproduce its numbers."""

from __future__ import annotations

import json
import re
import shlex
import zlib

import pandas as pd
import pytest

from analyzer.cli import main
from analyzer.report import MIN_HANDS, ReportSpec, build_report, fonts, registered, seed_sequence
from analyzer.report.formats import MIN_DEALS, too_few
from analyzer.shengji import report as sr
from analyzer.shengji.plots import blocks

CI = re.compile(r"\[[^\]]*,[^\]]*\]")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("sj") / "report"
    rep = build_report(hands=MIN_HANDS, seed=2, out=out, lang="zh", sections=["shengji"])
    return out, rep


def test_the_section_is_registered_and_seeds_from_its_key():
    assert "shengji" in [s.key for s in registered()]
    spec = ReportSpec(hands=MIN_HANDS, seed=2)
    root = seed_sequence(2, "shengji")
    assert root.spawn_key == (zlib.crc32(b"shengji"),)
    assert sr.seeds(spec) == sr.seeds(spec, seed_sequence(2, "shengji"))
    assert sr.seeds(spec) != sr.seeds(ReportSpec(hands=MIN_HANDS, seed=3))
    assert sr.sizes(MIN_HANDS) == sr.QUICK and sr.QUICK["pimc"] == 0  # not played


def test_writes_every_table_and_figure(built):
    out, rep = built
    names = {p.name for p in out.iterdir()}
    assert names == ({"report.md", "report.html", "findings.csv"}
                     | {f"{t}.csv" for t in sr.TABLES}
                     | {f"{f}.png" for f in sr.FIGURES})
    for t in sr.TABLES:
        df = pd.read_csv(out / f"{t}.csv")
        assert set(df["rules"]) == set(sr.RULE_NAMES), t
        assert {"n", "seed"} <= set(df.columns) and (df["n"] >= 0).all() and df["n"].max() > 0, t
        assert set(df["seed"]) <= set(rep.data.result("shengji").seeds.values()), t


def _cells(bs) -> list[str]:
    return [str(v) for b in bs if b.kind == "table" for v in b.content.to_numpy().ravel()]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_number_on_the_page_has_n_and_a_ci(built, lang):
    data = built[1].data.result("shengji")
    bs = blocks(data, lang)
    tables = [b for b in bs if b.kind == "table"]
    # at this size the ladder's matches are all under the floor: named, not tabled
    assert len(tables) == 9 and not any("tuned − heuristic" in _cells([b]) for b in tables)
    assert any("tuned − heuristic" in str(b.content) for b in bs if b.kind == "p")
    for b in tables:  # a number with its CI, or a cell the floor left out
        assert any(CI.search(c) or too_few(c) for c in _cells([b]))
    for cell in _cells(bs):
        if CI.search(cell):
            assert re.search(r"\(n=[\d,]+\)$", cell), cell
        else:  # labels, and exact odds (exact: no sampling error)
            assert not re.search(r"\d\.\d", cell) or cell.endswith("%") or \
                re.fullmatch(r"\d+\.\d{3}", cell), cell
    text = " ".join(str(b.content) for b in bs if b.kind == "p")
    for p in sr.parts(data.spec):  # every part's seed is stated
        assert str(data.seeds[p]) in text
    cmds = [c for b in bs if b.kind == "code" for c in b.content]
    assert set(cmds) == set(sr.commands(data.spec, data.seeds))
    assert all(c.startswith("xianniu shengji ") for c in cmds)
    kinds = [b.kind for b in bs if b.kind in ("h2", "code")]
    assert kinds == ["h2", "code"] * 9  # every part states its own commands
    cmap = fonts.charmap()
    missing = {c for c in " ".join(_cells(bs)) + text if not c.isspace() and c not in cmap}
    assert not missing, "".join(sorted(missing))


def test_a_stated_command_reproduces_its_numbers(built, capsys):
    out, rep = built
    data = rep.data.result("shengji")
    cmd = sr.command("outcomes", "classic", data.spec, data.seeds)
    assert main(shlex.split(cmd)[1:] + ["--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    kou = pd.read_csv(out / "shengji_kou_di.csv")
    row = kou[(kou["rules"] == "classic") & (kou["statistic"] == "p_kou_di")].iloc[0]
    assert d["p_kou_di"]["value"] == pytest.approx(row["value"])
    assert d["p_kou_di"]["n"] == row["n"] == sr.QUICK["outcomes"]


def test_the_bury_study_command_reproduces_its_table(built, capsys):
    out, rep = built
    data = rep.data.result("shengji")
    cmd = sr.command("bury", "zhengzhou", data.spec, data.seeds)
    assert "--samples 64" in cmd
    assert main(shlex.split(cmd)[1:] + ["--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    bury = pd.read_csv(out / "shengji_bury.csv")
    bury = bury[bury["rules"] == "zhengzhou"]
    best = bury[bury["statistic"] == "p_heuristic_best"].iloc[0]
    assert d["p_heuristic_best"]["value"] == pytest.approx(best["value"])
    assert best["n"] == d["hands"] == sr.QUICK["bury"]
    for row in d["rows"]:
        got = bury[(bury["statistic"] == "diff") & (bury["rule"] == row["rule"])].iloc[0]
        assert row["diff"]["value"] == pytest.approx(got["value"])


def test_the_ladder_holds_tuned_net_and_the_search_players_where_they_reach_the_floor(built):
    lad = pd.read_csv(built[0] / "shengji_ladder.csv")
    assert {("tuned", "heuristic"), ("heuristic", "random"), ("net", "tuned"),
            ("net", "heuristic")} == set(zip(lad["a"], lad["b"]))
    data = built[1].data.result("shengji")
    assert set(sr.not_played(data.spec)) == {"pimc", "pimc2", "kou_pimc2"}
    notes = [b.content for b in blocks(data, "en") if b.kind == "p"]
    (line,) = [p for p in notes if p.startswith("Not played at this size") and " − " in p]
    for m in ("pimc − heuristic", "pimc2 − pimc"):
        assert f"zhengzhou · {m}" in line and f"classic · {m}" in line
    # a --hands large enough plays each search part on the floor's deals, and says how
    big = ReportSpec(hands=MIN_DEALS * sr.SEARCH_SHARE)
    assert sr.sizes(big.hands)["pimc"] == sr.sizes(big.hands)["pimc2"] == MIN_DEALS
    assert sr.sizes(big.hands - 1)["pimc2"] == 0 and not sr.not_played(big)
    assert "--policies pimc2,pimc --deals 200 " in sr.command("pimc2", "classic", big,
                                                               sr.seeds(big))


def test_kou_di_under_pimc2_is_played_only_on_enough_hands(built):
    out, rep = built
    data = rep.data.result("shengji")
    kou = pd.read_csv(out / "shengji_kou_di.csv")
    # the section's own player (net, by default) and random beside it; pimc2 not at this size
    assert set(kou["policy"]) == {"random", "net"}
    page = blocks(data, "en")
    heads = [str(c) for b in page if b.kind == "table" for c in b.content.columns]
    notes = [b.content for b in page if b.kind == "p"]
    assert "zhengzhou · net" in heads and "zhengzhou · pimc2" not in heads
    assert any(p.startswith("Not played at this size") and "zhengzhou · pimc2" in p
               and "classic · pimc2" in p for p in notes)
    big = ReportSpec(hands=MIN_DEALS * sr.KOU_SEARCH_SHARE)
    assert "kou_pimc2" in sr.parts(big) and sr.sizes(big.hands)["kou_pimc2"] == MIN_DEALS
    cmd = sr.command("kou_pimc2", "zhengzhou", big, sr.seeds(big))
    assert "--policy pimc2" in cmd and f"--deals {MIN_DEALS} " in cmd


def test_english_page_and_policy_choice(tmp_path):
    spec = ReportSpec(hands=MIN_HANDS, lang="en", options={"shengji": {"policy": "random"}})
    assert sr.policy_of(spec) == "random"
    with pytest.raises(ValueError, match="kernel policy"):
        ReportSpec(hands=MIN_HANDS, options={"shengji": {"policy": "heuristic,random,random"}})
    assert sr.policy_of(ReportSpec(hands=MIN_HANDS)) == "net"  # the strongest fast player
    assert sr.policy_of(ReportSpec(hands=MIN_HANDS,
                                   options={"shengji": {"policy": "heuristic"}})) == "heuristic"
    with pytest.raises(ValueError, match="too slow"):
        ReportSpec(hands=MIN_HANDS, options={"shengji": {"policy": "pimc2"}})
    assert "--policy random" in sr.command("values", "zhengzhou", spec, sr.seeds(spec))
