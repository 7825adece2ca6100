"""``xianniu report`` (analyzer.report and each game's section): the files it writes, its plots, its font, its seeds
and its commands, on a tiny number of hands.

Contract: report.md, a self-contained report.html with every PNG embedded, one CSV per table
and one valid PNG per figure; no matplotlib figure left open; every character of the labels
has a glyph in the shipped font; every figure and section states n, the 95% CI, the seed
and a command that regenerates it; bad input exits 2 with one line on stderr.
"""

from __future__ import annotations

import base64
import contextlib
import io
import json
import re
import shlex
import warnings
from pathlib import Path

import matplotlib
import matplotlib.image
import numpy as np
import pandas as pd
import pytest
from cli_checks import without_compile_notice

from analyzer.cli import cli, main
from analyzer.dingniu import report as rd
from analyzer.report import DEFAULT_HANDS, FULL_HANDS, MIN_HANDS, ReportSpec, build_report, fonts
from analyzer.report.formats import MIN_DEALS
from analyzer.report.labels import TEXT, t
from analyzer.report.section import all_text, registered, seed_sequence
from analyzer.xianniu.report import ANALYSES, PRESET_ORDER, Plan

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
TINY = 300
GLYPH_MISSING = r"(?i).*glyph.*missing"


def _cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(list(args))
    return rc, out.getvalue(), without_compile_notice(err.getvalue())


@pytest.fixture(scope="module")
def zh_all(tmp_path_factory):
    """Both presets in Chinese, through the command line, glyph warnings as errors."""
    out = tmp_path_factory.mktemp("zh") / "report"
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message=GLYPH_MISSING)
        rc, stdout, stderr = _cli("report", "--hands", str(TINY), "--seed", "5", "--out",
                                  str(out))
    assert rc == 0, stderr
    return out, stdout, stderr


@pytest.fixture(scope="module")
def en_one(tmp_path_factory):
    """One preset in English, through the Python function, not timed (so a seed fixes all)."""
    out = tmp_path_factory.mktemp("en")
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message=GLYPH_MISSING)
        rep = build_report(TINY, 3, out, "en", timings=False,
                           options={"xianniu": {"rules": "kanniutui", "policy": "random"}})
    return out, rep


def _check_files(out: Path, figures: set[str], tables: set[str]) -> None:
    names = {p.name for p in out.iterdir()}
    assert names == ({"report.md", "report.html"} | {f"{f}.png" for f in figures}
                     | {f"{t}.csv" for t in tables})
    for f in figures:
        data = (out / f"{f}.png").read_bytes()
        assert data.startswith(PNG_SIGNATURE), f
        img = matplotlib.image.imread(out / f"{f}.png")
        assert img.ndim == 3 and img.shape[0] > 200 and img.shape[1] > 400, f
        assert img[..., :3].std() > 0.05, f"{f}.png is blank"
    for name in tables:
        df = pd.read_csv(out / f"{name}.csv")
        assert len(df) > 0 and len(df.columns) > 1, name
    page = (out / "report.html").read_text(encoding="utf-8")
    embedded = re.findall(r'<img src="data:image/png;base64,([A-Za-z0-9+/=]+)"', page)
    assert len(embedded) == len(figures)
    assert {base64.b64decode(b) for b in embedded} == {(out / f"{f}.png").read_bytes()
                                                       for f in figures}
    # self-contained: no resource from elsewhere (CSV links are plain links)
    assert not re.search(r'(src|href)="(https?:|//|/)', page) and "<link" not in page
    assert "@font-face" in page and "data:font/otf;base64," in page
    md = (out / "report.md").read_text(encoding="utf-8")
    for f in figures:
        assert f"]({f}.png)" in md
    for name in tables:
        assert f"]({name}.csv)" in md


ALL_FIGURES = {"odds", "captured", "values", "k_count", "xian_ev", "banker", "compare", "ladder",
               "dingniu", "shengji_outcomes", "shengji_banker", "shengji_values",
               "shengji_decisions", "xian_ev_other"}
ALL_TABLES = {"rules", "odds", "outcomes", "captured", "values", "k_count", "xian_ev", "ladder",
              "compare", "dingniu_seats", "dingniu_ladder", "dingniu_open",
              "dingniu_search", "shengji_odds",
              "shengji_kou_di", "shengji_points", "shengji_levels", "shengji_banker",
              "shengji_values", "shengji_rule_effect", "shengji_ladder", "shengji_bury",
              "shengji_declare", "timing", "sensitivity", "sensitivity_other",
              "xian_ev_other", "sensitivity_search", "sensitivity_search_other", "findings"}


def test_report_writes_every_file_both_presets(zh_all):
    out, stdout, _ = zh_all
    assert stdout.strip() == str(out / "report.html")
    _check_files(out, ALL_FIGURES, ALL_TABLES)


def test_report_one_preset_in_english(en_one):
    out, rep = en_one
    _check_files(out, ALL_FIGURES - {"compare"}, ALL_TABLES - {"compare", "timing"})
    assert rep.html == out / "report.html"
    assert set(rep.data.tables["odds"]["rules"]) == {"kanniutui"}
    md = (out / "report.md").read_text(encoding="utf-8")
    assert md.startswith("# Strategy report: Lanzhou Xianniu, Dingniu dominoes and Zhengzhou "
                         "Shengji")
    assert "--rules all" in md  # the note that says how to compare both presets


def test_same_arguments_write_the_same_files(en_one, tmp_path):
    out, _ = en_one
    build_report(TINY, 3, tmp_path, "en", timings=False, options={"xianniu": {"rules": "kanniutui", "policy": "random"}})
    for f in out.iterdir():
        assert (tmp_path / f.name).read_bytes() == f.read_bytes(), f.name


def test_no_figure_left_open(zh_all, en_one):
    import matplotlib.pyplot as plt

    assert plt.get_fignums() == []


def test_progress_on_stderr_and_quiet(zh_all, tmp_path):
    _, _, stderr = zh_all
    lines = [ln for ln in stderr.splitlines() if not ln.startswith("    ")]  # not the times
    # 掀牛 8 a preset, 顶牛 the seats then 3 a preset, 双升 12 a preset (its 16 parts less
    # 抠底 again under net, the section's own player, and its three search parts, not played
    # at this size), plots, files
    total = len(PRESET_ORDER) * len(ANALYSES) + 7 + 24 + 2
    assert [ln.split("]")[0] for ln in lines] == [f"[{i}/{total}" for i in range(1, total + 1)]
    assert "掀" in stderr and "顶牛" in stderr and "双升（zhengzhou）：扣底研究" in stderr
    rc, out, err = _cli("report", "--rules", "lanzhou", "--hands", str(TINY), "--quiet",
                        "--lang", "en", "--out", str(tmp_path))
    assert rc == 0 and err == "" and out.strip().endswith("report.html")


def test_chinese_by_default_english_on_request(zh_all, en_one):
    zh = (zh_all[0] / "report.md").read_text(encoding="utf-8")
    en = (en_one[0] / "report.md").read_text(encoding="utf-8")
    for term in ("掀", "刺", "牛", "喜", "亮子", "庄家", "够", "扣"):
        assert term in zh
    assert "P(ci)" in en and "banker" in en
    assert not re.search(r"[\u4e00-\u9fff]", en.split("## Rules summary")[0])


def test_every_label_has_a_glyph_in_the_font():
    cmap = fonts.charmap()
    for text in all_text():
        missing = {c for c in text if not c.isspace() and c not in cmap}
        assert not missing, f"{text!r}: no glyph for {''.join(sorted(missing))}; run " \
                            f"scripts/docs/subset_font.py"
    assert all(chr(c) in cmap for c in range(0x21, 0x7F))
    assert "−" in cmap  # matplotlib's minus sign


def test_every_character_of_the_pages_has_a_glyph(zh_all, en_one):
    cmap = fonts.charmap()
    for out in (zh_all[0], en_one[0]):
        for name in ("report.md", "report.html"):
            text = (out / name).read_text(encoding="utf-8")
            missing = {c for c in text if not c.isspace() and c not in cmap}
            assert not missing, (name, "".join(sorted(missing)))


def test_font_is_small_licensed_and_registered():
    assert fonts.FONT_FILE.stat().st_size < 300_000
    assert "SIL OPEN FONT LICENSE" in fonts.LICENSE_FILE.read_text(encoding="utf-8")
    family = fonts.register()
    from matplotlib import font_manager

    path = font_manager.findfont(font_manager.FontProperties(family=family[0]),
                                 fallback_to_default=False)
    assert Path(path) == fonts.FONT_FILE


def test_every_figure_states_n_ci_seed_and_command(en_one, zh_all):
    data = en_one[1].data
    fonts.register()
    figures = {name: fig for s in data.sections
               for name, fig in s.figures(data.result(s.key), data.spec.lang).items()}
    assert set(figures) == ALL_FIGURES - {"compare"}
    for name, fig in figures.items():
        texts = " ".join(x.get_text() for x in fig.texts)
        assert "n = " in texts and "95% CI" in texts, name
        assert f"seed {data.spec.seed}" in texts, name
        assert data.spec.command() in texts, name
    md = (zh_all[0] / "report.md").read_text(encoding="utf-8")
    sections = md.split("\n## ")[3:]  # after what to take away and the rules summary
    assert len(sections) == 19  # 掀牛: 9, 顶牛: 1, 双升: 9
    for sec in sections:
        assert "95% 置信区间" in sec, sec[:40]
        assert "种子" in sec and "样本" in sec
        assert re.search(r"```sh\nxianniu ", sec), sec[:40]


def test_seeds_are_spawned_not_added():
    plan = Plan(ReportSpec(hands=TINY, seed=7))
    seeds = {(a, p): plan.seed_for(a, p) for a in ANALYSES for p in PRESET_ORDER}
    assert len(set(seeds.values())) == len(seeds)
    assert not set(seeds.values()) & set(range(7, 7 + len(seeds)))
    one = Plan(ReportSpec(TINY, seed=7, options={"xianniu": {"rules": "lanzhou"}}))
    assert all(one.seed_for(a, "lanzhou") == seeds[a, "lanzhou"] for a in ANALYSES)
    ss = seed_sequence(7, "xianniu").spawn(len(seeds))
    assert seeds["odds", "lanzhou"] == int(ss[0].generate_state(1)[0])


def _num(x):
    """A number of a command's JSON: bare, or an estimate's ``value``."""
    return x["value"] if isinstance(x, dict) else x


def _json_of(command: str) -> dict:
    args = shlex.split(command)
    assert args[0] == "xianniu"
    rc, out, err = _cli(*args[1:], *([] if "--format" in args else ["--json"]))
    assert rc == 0, err
    return json.loads(out)


def test_each_analysis_command_reproduces_its_numbers(en_one):
    data = en_one[1].data
    plan = data.result("xianniu").plan
    out = data.tables["outcomes"]
    banker = _json_of(plan.command("banker", "kanniutui"))["banker_mean_points"]
    row = out[(out["statistic"] == "mean_points") & (out["seat"] == 0)].iloc[0]
    assert banker["value"] == pytest.approx(row["value"]) and banker["n"] == TINY
    sim = _json_of(plan.command("play", "kanniutui"))
    assert sim["p_ci"]["value"] == pytest.approx(
        out[out["statistic"] == "p_ci_any_seat"].iloc[0]["value"])
    values = _json_of(plan.command("values", "kanniutui"))
    assert [_num(r["counterfactual_diff"]) for r in values["rows"]] == pytest.approx(
        data.tables["values"]["counterfactual_diff"].tolist(), nan_ok=True)
    ladder = data.tables["ladder"]
    for i in (0, 1):  # heuristic − random, and the rung with the named tuned weights
        lad = _json_of(plan.commands("ladder", "kanniutui")[i])["differences"][0]
        row = ladder.iloc[i]
        assert (lad["a"], lad["b"]) == (row["a"], row["b"])
        assert _num(lad["diff"]) == pytest.approx(row["diff"])
    odds = _json_of(plan.command("odds", "kanniutui"))
    niu = data.tables["odds"].set_index("feature").loc["niu"]
    assert odds["monte_carlo"]["niu"]["value"] == pytest.approx(niu["value"])


def test_ladder_climbs_every_rung_and_times_every_player(zh_all, en_one):
    from analyzer.xianniu.ladder import PIMC_SHARE, RUNGS, TIMED, ladder_sizes

    lad = pd.read_csv(zh_all[0] / "ladder.csv")
    for p in PRESET_ORDER:
        rows = lad[lad["rules"] == p]
        # the search rungs, under the floor at this size, are not played
        assert list(zip(rows["a"], rows["b"])) == list(RUNGS["ladder"])
        # the rungs of one analysis share their deals: one seed each
        assert rows.groupby("n_deals")["seed"].nunique().eq(1).all()
    md = (zh_all[0] / "report.md").read_text(encoding="utf-8")
    assert "本次未打：" + "，".join(f"{a} − {b}" for a, b in RUNGS["pimc"]) in md
    assert "--full 按每 2,000 局打一副" in md  # the text says which size plays them
    assert "--policies pimc,tuned2" not in md  # no command for a rung not played
    assert ladder_sizes(PIMC_SHARE * MIN_DEALS)["pimc"] == MIN_DEALS  # --full plays them
    assert ladder_sizes(PIMC_SHARE * MIN_DEALS - 1)["pimc"] == 0
    tm = pd.read_csv(zh_all[0] / "timing.csv")
    assert sorted(zip(tm["rules"], tm["policy"])) == sorted(
        (p, x) for p in PRESET_ORDER for x in TIMED)
    assert (tm["decisions"] > 0).all() and (tm["ms_low"] > 0).all()
    assert ((tm["ms_low"] <= tm["ms_per_decision"])
            & (tm["ms_per_decision"] <= tm["ms_high"])).all()
    ms = tm.set_index(["rules", "policy"])["ms_per_decision"]
    for p in PRESET_ORDER:  # a search player thinks far longer than the heuristic
        assert ms[p, "pimc2"] > 20 * ms[p, "heuristic"]
    md = (zh_all[0] / "report.md").read_text(encoding="utf-8")
    assert "每步决策的用时" in md and "time_policies(" in md
    en = (en_one[0] / "report.md").read_text(encoding="utf-8")
    assert "Not timed in this report (--no-timings)" in en
    assert en_one[1].data.spec.command().endswith("--no-timings")


def test_findings_are_measured_again_under_a_second_policy(zh_all, en_one):
    from analyzer.xianniu.sensitivity import compare

    df = pd.read_csv(zh_all[0] / "sensitivity.csv")
    assert set(df["main_policy"]) == {"net"} and set(df["other_policy"]) == {"heuristic"}
    rows = df[df["finding"] != "xian_cells"]
    assert np.allclose(rows["diff"], rows["main"] - rows["other"], equal_nan=True)
    assert (rows["diff_ci_low"] < rows["diff"]).all() and (rows["diff"] < rows["diff_ci_high"]).all()
    assert len(rows) == len(PRESET_ORDER) * (15 + 2)  # 牛 喜 K, 12 亮子, P(刺), 掀
    # the second policy's numbers come back from the commands the page names
    data = en_one[1].data
    plan = data.result("xianniu").plan
    assert en_one[1].data.tables["sensitivity"]["other_policy"].iloc[0] == "heuristic"
    values = _json_of(plan.commands("sensitivity", "kanniutui")[0])
    other = data.tables["sensitivity_other"]
    assert _num(values["rows"][0]["counterfactual_diff"]) == pytest.approx(
        other[other["finding"] == "value_niu"]["value"].iloc[0])
    # teeth: a sign change is found, and called sure only when both CIs exclude 0
    main = pd.DataFrame({"finding": ["a", "b", "c"], "value": [1.0, 1.0, 0.1],
                         "ci_low": [0.5, -0.2, -0.1], "ci_high": [1.5, 2.2, 0.3], "n": [9] * 3})
    other_rows = main.assign(value=[-1.0, -1.0, 0.2], ci_low=[-1.5, -1.5, 0.1],
                             ci_high=[-0.5, -0.5, 0.3])
    c = compare(main, other_rows).set_index("finding")
    assert c["sign_change"].tolist() == [True, True, False]
    assert c["sign_sure"].tolist() == [True, False, False]


def test_whole_hand_findings_are_measured_again_by_the_search_player(zh_all, en_one):
    from analyzer.xianniu.sensitivity import SEARCH_FINDINGS, SEARCH_POLICY, search_sizes

    df = pd.read_csv(zh_all[0] / "sensitivity_search.csv")
    assert set(df["other_policy"]) == {SEARCH_POLICY} == {"pimc2"}
    assert set(df["main_policy"]) == {"net"}
    # the quick report compares the whole-hand findings; the values and 掀 come with --full
    assert search_sizes(TINY)["values"] == search_sizes(TINY)["xian"] == 0
    assert len(df) == len(PRESET_ORDER) * len(SEARCH_FINDINGS)
    assert np.allclose(df["diff"], df["main"] - df["other"])
    assert (df["main_n"] == TINY).all() and (df["other_n"] == search_sizes(TINY)["play"]).all()
    md = (zh_all[0] / "report.md").read_text(encoding="utf-8")
    assert "与最强的搜索型策略对照" in md and "--policy pimc2" in md and "（--full）" in md
    # the search player's numbers come back from the command the page names
    data = en_one[1].data
    plan = data.result("xianniu").plan
    [command] = plan.commands("search", "kanniutui")
    sim = _json_of(command)
    other = data.tables["sensitivity_search_other"]
    assert sim["p_ci"]["value"] == pytest.approx(
        other[other["finding"] == "p_ci_any_seat"]["value"].iloc[0])
    # the report's P(刺) finding is checked against the search player
    found = pd.read_csv(zh_all[0] / "findings.csv")
    assert SEARCH_POLICY in set(found["other_policy"].dropna())


def test_a_full_report_measures_every_finding_again_by_the_search_player(en_one):
    from analyzer.xianniu.analysis import pattern_values, xian_ev
    from analyzer.xianniu.report_data import PATTERN_IDS
    from analyzer.xianniu.sensitivity import (
        SEARCH_ALL_FROM,
        SEARCH_FINDINGS,
        run_search,
        search_sizes,
        search_table,
    )

    assert search_sizes(SEARCH_ALL_FROM - 1)["values"] == 0
    assert search_sizes(SEARCH_ALL_FROM)["values"] > 0 and search_sizes(FULL_HANDS)["xian"] > 0
    x = en_one[1].data.result("xianniu")
    seeds = {"play": 1, "values": 2, "xian": 3}
    got = run_search({"play": 4, "values": 6, "xian": 8}, "kanniutui", seeds, PATTERN_IDS)
    df = search_table({**x.tables, **got}, x.meta, ("kanniutui",), "random")
    rows = df[df["finding"] != "xian_cells"]
    assert len(rows) == len(SEARCH_FINDINGS) + len(PATTERN_IDS) + 1
    assert (df["finding"] == "xian_cells").sum() == 1
    assert np.allclose(rows["diff"], rows["main"] - rows["other"], equal_nan=True)
    # the same numbers as the commands' functions with those seeds
    other = got["sensitivity_search_other"].set_index("finding")
    vals = pattern_values(6, "kanniutui", "pimc2", seed=2).set_index("pattern")
    assert other.loc["value_niu", "n"] == vals.iloc[0]["cf_pairs"]
    assert other.loc["xian_overall", "n"] == xian_ev(8, "kanniutui", "pimc2", seed=3).attrs[
        "overall"]["n"] > 0


def test_side_by_side_table_has_both_presets_and_differences(zh_all):
    df = pd.read_csv(zh_all[0] / "compare.csv")
    for p in PRESET_ORDER:
        assert (df[f"{p}_ci_low"] <= df[p]).all() and (df[p] <= df[f"{p}_ci_high"]).all()
        assert (df[f"{p}_n"] > 0).all()
    assert np.allclose(df["diff"], df["kanniutui"] - df["lanzhou"])
    assert (df["diff_ci_low"] <= df["diff"]).all() and (df["diff"] <= df["diff_ci_high"]).all()


def test_defaults_of_the_command_match_the_function():
    params = {p.name: p for p in cli.get_command(None, "report").params}
    # --hands: the quick size unless given; --full: the full size; not both
    assert params["n_hands"].default is None and params["full"].is_flag
    assert build_report.__defaults__[0] == DEFAULT_HANDS == 100_000 and FULL_HANDS == 400_000
    assert params["n_hands"].type.min == MIN_HANDS
    assert "not both" in _bad("report", "--full", "--hands", "1000")
    # --rules / --policy default to the first section's own defaults
    assert params["rules"].default is None and params["policy"].default is None
    first = registered()[0]
    assert (first.key, first.options) == ("xianniu", {"rules": "all", "policy": "net"})
    assert params["lang"].default == "zh"


def _bad(*args: str) -> str:
    rc, out, err = _cli(*args)
    assert rc == 2, (rc, out, err)
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and err.count("\n") == 1, err
    assert "Traceback" not in err and out == ""
    return lines[0]


def test_bad_input_exits_2_with_one_line(tmp_path):
    a_file = tmp_path / "file"
    a_file.write_text("x")
    assert "hands" in _bad("report", "--hands", "0", "--out", str(tmp_path / "a"))
    assert "rules" in _bad("report", "--rules", "texas", "--out", str(tmp_path / "a"))
    assert "lang" in _bad("report", "--lang", "fr", "--out", str(tmp_path / "a"))
    assert "pimc" in _bad("report", "--policy", "pimc", "--out", str(tmp_path / "a"))
    assert "policy" in _bad("report", "--policy", "smart", "--out", str(tmp_path / "a"))
    _bad("report", "--hands", str(TINY), "--out", str(a_file))
    assert "cannot write" in _bad("report", "--hands", str(TINY), "--out", str(a_file / "sub"))
    assert not (tmp_path / "a").exists()


def test_bad_arguments_of_the_function_fail_before_work(tmp_path):
    with pytest.raises(ValueError, match="at least 100"):
        build_report(hands=5, out=tmp_path / "x")
    with pytest.raises(ValueError, match="language"):
        ReportSpec(lang="de")
    with pytest.raises(ValueError, match="rules"):
        ReportSpec(options={"xianniu": {"rules": "both"}})
    assert not (tmp_path / "x").exists()
    assert set(TEXT) and t("title", "en").startswith("Strategy report: Lanzhou Xianniu")
    with pytest.raises(ValueError):
        t("title", "fr")


def test_dingniu_section_reproduces_and_adds_up(en_one):
    data = en_one[1].data
    seats = data.tables["dingniu_seats"]
    # every hand's points sum to zero over the four seats
    assert rd.POLICIES == ("random", "heuristic", "tuned") and rd.PLAYER == "tuned"
    for policy in rd.POLICIES:
        assert seats[seats["policy"] == policy]["points"].sum() == pytest.approx(0, abs=1e-9)
    assert ((seats["points_low"] <= seats["points"]) & (seats["points"] <= seats["points_high"])
            ).all()
    cmds = rd.commands(data.spec)
    for cmd, policy in zip(cmds, rd.POLICIES):
        sim = _json_of(cmd)
        got = [s["points"]["value"] for s in sim["seats"]]
        want = seats[seats["policy"] == policy].sort_values("seat")["points"].tolist()
        assert got == pytest.approx(want) and sim["hands"] == TINY
    lad = _json_of(cmds[len(rd.POLICIES)])["differences"][0]
    assert _num(lad["diff"]) == pytest.approx(data.tables["dingniu_ladder"].iloc[0]["diff"])
    op = data.tables["dingniu_open"]
    assert op["open_hands"].sum() == pytest.approx(0, abs=1e-9) and (op["n"] >= 4).all()
    # the section's seeds are spawned apart from each other and from the 掀牛 analyses'
    seeds = set(rd.seeds(data.spec).values())
    assert len(seeds) == len(rd.PARTS)
    assert not seeds & {Plan(data.spec).seed_for(a, p) for a in ANALYSES for p in PRESET_ORDER}


def test_dingniu_findings_are_played_again_by_the_search(en_one):
    """Each seat under tuned and under pimc on the same deals: the difference is the paired
    one, its command reproduces the table, and the opening's line carries pimc's estimate."""
    from analyzer.dingniu.ladder import search_seats

    data = en_one[1].data
    found = data.tables["dingniu_search"]
    n = rd.sizes(data.spec.hands)["search"]
    assert set(found["rules"]) == set(rd.RULE_NAMES) and (found["n"] == n).all()
    assert set(found["player"]) == {rd.PLAYER} and set(found["search"]) == {"pimc"}
    # zero-sum: each player's seats add to 0 on every deal, so their means do too
    for name in rd.RULE_NAMES:
        rows = found[found["rules"] == name]
        for key in ("player_value", "search_value", "diff_value"):
            assert rows[key].sum() == pytest.approx(0, abs=1e-9)
    assert found["diff_value"].tolist() == pytest.approx(
        (found["search_value"] - found["player_value"]).tolist())
    again = search_seats(n, int(found["seed"].iloc[0]), rd.RULE_NAMES[1])
    mine = found[found["rules"] == rd.RULE_NAMES[1]].reset_index(drop=True)
    assert again["diff_value"].tolist() == pytest.approx(mine["diff_value"].tolist())
    (lead,) = rd.SECTION.findings(data, "en")
    assert lead.other_policy == "pimc" and lead.other["value"] == pytest.approx(
        found[(found["rules"] == rd.RULE_NAMES[0]) & (found["seat"] == 0)]["search_value"].iloc[0])
    md = (en_one[0] / "report.md").read_text(encoding="utf-8")
    assert "Against the strongest search player" in md and "search_seats(" in md


def test_every_ladder_says_how_much_skill_decides(en_one):
    """Each game's ladder rows carry the tournament's own skill figures (the gap in spreads,
    the hands to be ahead), and the page shows them for the matches on enough deals only."""
    from analyzer.core.stats import Estimate
    from analyzer.core.tournament import hands_ahead
    from analyzer.report.formats import fmt_ahead
    from analyzer.report.labels import SHARED
    from analyzer.report.render import Page

    tables = en_one[1].data.tables
    for name, value, n in (("ladder", "diff", "n_deals"), ("dingniu_ladder", "diff", "n_deals"),
                           ("shengji_ladder", "value", "n")):
        df = tables[name]
        df = df[df["statistic"] == "levels"] if "statistic" in df else df
        assert len(df) and df["hands_ahead"].notna().any()
        for _, r in df.iterrows():
            spread = float(np.hypot(r["hand_sd_a"], r["hand_sd_b"]))
            assert r["gap_in_spreads"] == pytest.approx(r[value] / spread)
            assert [r["gap_in_spreads_low"], r["gap_in_spreads_high"]] == pytest.approx(
                [r["ci_low"] / spread, r["ci_high"] / spread])
            want = hands_ahead(Estimate(r[value], r["ci_low"], r["ci_high"], int(r[n])), spread)
            got, want_n = r["hands_ahead"], (want or {}).get("value")
            assert (want_n is None and pd.isna(got)) or (not pd.isna(got) and got == want_n)
    # all under the floor at this size: no skill table, the rows named instead
    md = (en_one[0] / "report.md").read_text(encoding="utf-8")
    assert (tables["ladder"]["n_deals"] < MIN_DEALS).all() and "How much skill" not in md
    page = Page(SHARED, "en")
    page.skill_table([({"match": "a − b"}, {
        "gap_in_spreads": 0.1, "gap_in_spreads_low": 0.04, "gap_in_spreads_high": 0.16,
        "hands_ahead": 272, "hands_ahead_low": 150, "hands_ahead_high": None}, 400)])
    intro, table = page.blocks
    assert "How much skill decides" in intro.content and str(MIN_DEALS) in intro.content
    assert table.content.iloc[0].tolist() == [
        "a − b", "+0.100 [+0.040, +0.160] (n=400)", "272 [150, ∞] (n=400)"]
    assert fmt_ahead(1234, 567, 3456) == "1,234 [567, 3,456]" and fmt_ahead(None, 1, 2) == "—"
    assert fmt_ahead(40, 30.0, float("nan")) == "40 [30, ∞]"


def test_odds_section_says_how_many_misses_chance_predicts(zh_all, en_one):
    from analyzer.xianniu.plots import misses_by_chance

    assert misses_by_chance(24) == (pytest.approx(1.2), 0, 4)
    assert misses_by_chance(12) == (pytest.approx(0.6), 0, 2)
    for out, pattern in ((zh_all[0], r"(\d+) 个精确值中有 (\d+) 个落在其 95% 置信区间之外.*"
                                     r"：平均 ([\d.]+) 个，95% 的报告在 (\d+)–(\d+) 个之间"),
                         (en_one[0], r"(\d+) of (\d+) exact values fall outside their 95% CI.*"
                                     r": ([\d.]+) on average, (\d+)–(\d+) in 95% of reports")):
        df = pd.read_csv(out / "odds.csv")
        misses = int(((df["exact"] < df["ci_low"]) | (df["exact"] > df["ci_high"])).sum())
        md = (out / "report.md").read_text(encoding="utf-8")
        odds_part = md.split('<a id="odds"></a>')[1].split("<a id=")[0]
        m = re.search(pattern, odds_part)
        assert m, odds_part
        got = [float(x) for x in m.groups()]
        if out == en_one[0]:
            got[0], got[1] = got[1], got[0]
        expected, low, high = misses_by_chance(len(df))
        assert got == [len(df), misses, round(expected, 1), low, high]


def test_small_probabilities_never_print_as_zero(zh_all, en_one):
    from analyzer.report.formats import fmt_ci, fmt_pct

    assert fmt_pct(0.0005) == "0.0500%" and fmt_pct(0.000436) == "0.0436%"
    assert fmt_pct(2e-7) == "0.0000200%" and fmt_pct(0) == "0%"
    assert fmt_pct(-0.00045) == "−0.0450%" and fmt_pct(0.305) == "30.5%"
    assert fmt_ci(0.0005, 0, 0.001, "probability") == "0.0500% [0%, 0.100%]"
    for out in (zh_all[0], en_one[0]):
        md = (out / "report.md").read_text(encoding="utf-8")
        assert not re.search(r"(?<![\d.])[−+]?0\.0+%", md)


def test_the_report_opens_with_what_to_take_away(zh_all):
    md = (zh_all[0] / "report.md").read_text(encoding="utf-8")
    first = md.split("\n## ")[1]
    assert first.startswith("要点")
    items = [ln for ln in first.splitlines() if ln.startswith("- ")]
    found = pd.read_csv(zh_all[0] / "findings.csv")
    assert len(items) == len(found) and 8 <= len(found) <= 12
    assert (found["n"] > 0).all() and (found["low"] <= found["value"]).all() \
        and (found["value"] <= found["high"]).all()
    assert all("n = " in ln for ln in items)
    # each finding is the number of the table it comes from
    values = pd.read_csv(zh_all[0] / "sensitivity.csv")
    niu = values[(values["rules"] == "lanzhou") & (values["finding"] == "value_niu")].iloc[0]
    assert niu["main"] in set(found["value"])


def test_a_finding_that_depends_on_the_bot_is_flagged():
    from analyzer.report.findings import Finding, line

    def est(v, half=0.1):
        return {"value": v, "low": v - half, "high": v + half, "n": 100}

    def dep(a, b):
        return Finding("x", a, "a", "p", other=b, other_policy="q").dependence()

    assert dep(est(1.0), est(-1.0)) == "sure_sign"
    assert dep(est(0.05), est(-0.05)) == "sign"
    assert dep(est(0.0528), est(0.005, 0.001)) == "ratio"  # P(ci) 5.28% against 0.50%
    assert dep(est(1.0), est(0.7)) is None
    assert Finding("x", est(1.0), "a", "p").dependence() is None
    assert "Depends on the bot" in line(Finding("x", est(1.0), "a", "p", other=est(-1.0),
                                                other_policy="q"), "en", "S")


ROOT = Path(__file__).resolve().parents[2]
GLOSSARIES = {"xianniu": "analyzer.xianniu.report_data", "dingniu": "analyzer.dingniu.report",
              "shengji": "analyzer.shengji.report_data"}


def _glossary(game: str):
    import importlib

    module = importlib.import_module(GLOSSARIES[game])
    return module.T, module.GLOSSARY


@pytest.mark.parametrize("game", sorted(GLOSSARIES))
def test_every_guide_lists_its_games_terms(game):
    """The guide of each game lists the report's terms of that game, word for word."""
    T, keys = _glossary(game)
    guide = " ".join((ROOT / "docs" / "guides" / f"{game}.md").read_text(encoding="utf-8")
                     .split())
    for key in keys:
        assert f"- {T(key, 'en')}" in guide, (game, key)


def test_the_report_defines_the_terms_of_every_game(zh_all, en_one):
    """Each game's section carries its glossary, in Chinese and in English; the terms the
    issue found undefined are among them."""
    zh = (zh_all[0] / "report.md").read_text(encoding="utf-8")
    en = (en_one[0] / "report.md").read_text(encoding="utf-8")
    for game in GLOSSARIES:
        T, keys = _glossary(game)
        for key in keys:
            assert T(key, "zh") in zh, (game, key)
            assert T(key, "en") in en, (game, key)
    defined = " ".join(T(k, "zh") for g in GLOSSARIES for T, keys in [_glossary(g)]
                       for k in keys)
    for term in ("头牌", "算帐", "包庄", "扣", "抠底", "扒鸡窝", "造反", "庄家", "稳牌", "K 起"):
        assert term in defined, term
