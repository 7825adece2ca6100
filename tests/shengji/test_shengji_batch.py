"""双升 whole and play-only hands through the shared batch runner: counts against rows, task
splits, threads, Dask, --resume, formats, bad input; the kernel odds against the exact
ones."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from batch_checks import interrupted_and_resumed

from analyzer.cli import main
from analyzer.core.runner import RunSpec, run
from analyzer.shengji import batch, odds, scoring
from analyzer.shengji.cards import parse_cards
from analyzer.shengji.rules import CLASSIC, ZHENGZHOU, get_rules
from analyzer.shengji.sim import play_hands, rule_arrays, whole_hands
from kernels.shengji import game as kw
from kernels.shengji import hand as kh
from kernels.shengji.params import PARAM_NAMES

SMALL = {"chunk_size": 256, "chunks_per_task": 3}


def test_rule_vector_reads_every_field():
    assert set(PARAM_NAMES) <= set(vars(ZHENGZHOU))
    assert not np.array_equal(rule_arrays("zhengzhou"), rule_arrays(CLASSIC))


@pytest.mark.parametrize("rules", ["zhengzhou", "classic"])
def test_play_only_counts_equal_the_rows_they_summarise(rules):
    rows = play_hands(3000, rules, 4, level=2, trump=0, banker=0)
    again = run(RunSpec("shengji", 3000, rules, "random", 4, options={"play_only": True}))
    assert np.array_equal(again.counts, batch.counts_of(rows, get_rules(rules)))
    s = again.as_json()
    assert list(s)[:6] == ["game", "rules", "seed", "hands", "policy", "mode"]
    assert s["mode"] == "play-only" and s["rules"] == rules
    assert s["play_only_attacker_points"]["value"] == pytest.approx(
        rows[:, kh.R_ATTACKER_POINTS].mean())
    assert s["play_only_p_kou_di"]["value"] == pytest.approx(
        (rows[:, kh.R_MULTIPLIER] > 0).mean())
    assert sum(e["value"] for e in s["play_only_level_change"]) == pytest.approx(1)
    assert sum(e["value"] for e in s["play_only_attacker_points_hist"]) == pytest.approx(1)


@pytest.mark.parametrize("rules", ["zhengzhou", "classic"])
def test_whole_counts_equal_the_rows_they_summarise(rules):
    rows = whole_hands(3000, rules, 4, batch.LEVELS, batch.START_BANKER)
    again = run(RunSpec("shengji", 3000, rules, "random", 4))
    assert np.array_equal(again.counts, batch.whole_counts_of(rows, get_rules(rules)))
    s = again.as_json()
    assert s["mode"] == "whole" and s["setting"]["play_only"] is False
    pts = rows[:, kw.W_PLAY + kh.R_ATTACKER_POINTS]
    holds = rows[:, kw.W_BANKER_HOLDS] == 1
    assert (holds == (pts < get_rules(rules).turnover_at)).all()
    assert s["attacker_points"]["value"] == pytest.approx(pts.mean())
    assert s["p_banker_holds"]["value"] == pytest.approx(holds.mean())
    assert s["p_kou_di"]["value"] == pytest.approx(
        (rows[:, kw.W_PLAY + kh.R_MULTIPLIER] > 0).mean())
    assert s["p_rebel"]["value"] == pytest.approx((rows[:, kw.W_REBEL] >= 0).mean())
    assert s["p_step_down"]["value"] == pytest.approx(rows[:, kw.W_STEPPED_DOWN].mean())
    assert s["p_random_trump"]["value"] == pytest.approx(rows[:, kw.W_RANDOM_TRUMP].mean())
    for key in ("level_change", "attacker_points_hist", "trump"):
        assert sum(e["value"] for e in s[key]) == pytest.approx(1)
    assert sum(t["p_banks"]["value"] for t in s["teams"]) == pytest.approx(1)
    assert sum(e["p_banks"]["value"] for e in s["seats"]) == pytest.approx(1)
    assert sum(t["p_wins_hand"]["value"] for t in s["teams"]) == pytest.approx(1)
    for t in s["teams"]:  # levels gained by the team: the table's gain when it wins
        won = rows[:, kw.W_WINNER_TEAM] == t["team"]
        assert t["levels_gained"]["value"] == pytest.approx(
            np.where(won, rows[:, kw.W_GAIN], 0).mean())
    for e in s["seats"]:
        banks = rows[:, kw.W_BANKER] == e["seat"]
        assert e["p_holds_given_banks"]["n"] == banks.sum()
        assert e["p_holds_given_banks"]["value"] == pytest.approx(holds[banks].mean())
    if rules == "classic":
        assert s["p_rebel"]["value"] == 0 and s["p_bajiwo"]["value"] == 0
    else:
        assert s["p_rebel"]["value"] > 0 and s["p_bajiwo"]["value"] > 0
    assert 0 < s["p_step_down"]["value"] < 0.5


def test_level_bands_follow_the_level_table():
    pts = np.arange(-20, 1000, 5)
    for r in (ZHENGZHOU, CLASSIC):
        bg, ag = batch.level_changes(pts, r)
        for p, b, a in zip(pts.tolist(), bg.tolist(), ag.tolist()):
            winner, levels = scoring.level_result(p, r)
            assert (b, a) == ((levels, -1) if winner == "banker" else (-1, levels))


@pytest.mark.parametrize("play_only", [False, True], ids=["whole", "play_only"])
def test_rows_points_add_up(tmp_path, play_only):
    """Each hand: both sides' trick points and the kitty hold the deck's 200; the attackers'
    points are their tricks plus kitty × 抠底 multiplier; the deal is 4 × 25 + 8 cards; the
    level change and the next banker follow the table."""
    rec = tmp_path / "rows.parquet"
    spec = RunSpec("shengji", 1500, "classic", "random", 2, options={"play_only": play_only},
                   **SMALL)
    res = run(spec, records=rec)
    assert np.array_equal(res.counts, run(spec).counts)
    df = pd.read_parquet(rec)
    assert len(df) == 1500 and list(df["hand"]) == list(range(1500))
    assert (df["trick_points"] + df["banker_trick_points"] + df["kitty_points"] == 200).all()
    assert (df["attacker_points"] == df["trick_points"]
            + df["kitty_points"] * df["multiplier"]).all()
    banker = 0 if play_only else df["banker"]
    assert ((df["multiplier"] > 0) == (df["last_winner"] % 2 != banker % 2)).all()
    assert df["attacker_points"].sum() == res.counts[batch.A_PTS]
    assert int((~df["banker_holds"]).sum()) == res.hands - res.counts[batch.A_HOLD]
    if not play_only:
        assert (df["next_banker"] == np.where(df["banker_holds"], df["banker"] + 2,
                                              df["banker"] + 1) % 4).all()
        won = np.where(df["banker_holds"], df["banker_gain"], df["attacker_gain"])
        assert (df["levels_gained"] == won).all()
    for i in (0, 255, 256, 1499):
        row = df.iloc[i]
        cards = [parse_cards(row[f"dealt{s}"]) for s in range(4)] + [parse_cards(row["kitty"])]
        assert [len(c) for c in cards] == [25] * 4 + [8]
        assert sorted(sum(cards, ())) == sorted(list(range(54)) * 2)
        if play_only:  # whole hands bury a new kitty
            assert sum(odds.FACE_POINTS[list(cards[4])]) == row["kitty_points"]


def test_same_numbers_whatever_the_task_split():
    a = run(RunSpec("shengji", 5000, "zhengzhou", "random", 9, chunk_size=256,
                    chunks_per_task=2))
    b = run(RunSpec("shengji", 5000, "zhengzhou", "random", 9, chunk_size=256,
                    chunks_per_task=7))
    assert np.array_equal(a.counts, b.counts)


def _cli_json(threads: int) -> dict:
    env = dict(os.environ, NUMBA_NUM_THREADS=str(threads))
    out = subprocess.run([sys.executable, "-m", "analyzer.cli", "shengji", "simulate",
                          "--hands", "3000", "--seed", "7", "--json", "--quiet"], env=env,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_one_or_two_threads_give_the_same_numbers(capsys):
    assert main(["shengji", "simulate", "--hands", "3000", "--seed", "7", "--json",
                 "--quiet"]) == 0
    here = json.loads(capsys.readouterr().out)
    assert _cli_json(1) == here == _cli_json(2)


def test_checkpoint_resume_gives_the_uninterrupted_numbers(tmp_path):
    spec = RunSpec("shengji", 4000, "zhengzhou", "random", 11, **SMALL)
    whole, saved, resumed = interrupted_and_resumed(spec, tmp_path / "ck.json")
    assert len(saved["tasks"]) == 2
    assert np.array_equal(resumed.counts, whole.counts)


def test_dask_backend_gives_the_local_numbers():
    pytest.importorskip("dask.distributed")
    spec = RunSpec("shengji", 3000, "zhengzhou", "random", 3, **SMALL)
    assert np.array_equal(run(spec).counts, run(spec, backend="dask").counts)


@pytest.mark.parametrize("fmt", ["table", "csv", "json", "parquet"])
def test_cli_formats_and_atomic_out(tmp_path, fmt, capsys):
    out = tmp_path / f"x.{fmt}"
    assert main(["shengji", "simulate", "--hands", "2000", "--seed", "3", "--format", fmt,
                 "--out", str(out), "--quiet"]) == 0
    assert out.exists() and not (tmp_path / f"x.{fmt}.checkpoint.json").exists()
    if fmt == "json":
        data = json.loads(out.read_text())
        assert list(data)[:5] == ["game", "rules", "seed", "hands", "policy"]
        assert data["game"] == "shengji" and data["hands"] == 2000
        assert data["setting"]["play_only"] is False and data["mode"] == "whole"
    elif fmt == "parquet":
        df = pd.read_parquet(out)
        assert {"statistic", "item", "value", "ci_low", "ci_high", "n"} <= set(df.columns)
        assert {"p_rebel", "p_step_down", "p_random_trump", "teams.p_banks",
                "seats.p_holds_given_banks"} <= set(df["statistic"])
        assert (df["mode"] == "whole").all()
    elif fmt == "csv":
        assert out.read_text().startswith("statistic,item,value")
    else:
        assert "whole hands" in out.read_text() and "P(造反" in out.read_text()


@pytest.mark.parametrize("fmt", ["table", "json", "parquet"])
def test_cli_play_only_is_labelled(tmp_path, fmt, capsys):
    out = tmp_path / f"x.{fmt}"
    assert main(["shengji", "simulate", "--hands", "2000", "--seed", "3", "--play-only",
                 "--format", fmt, "--out", str(out), "--quiet"]) == 0
    if fmt == "json":
        data = json.loads(out.read_text())
        assert data["setting"]["play_only"] is True and data["mode"] == "play-only"
    elif fmt == "parquet":
        df = pd.read_parquet(out)
        assert df["statistic"].str.startswith("play_only_").all()
        assert (df["mode"] == "play-only").all()
    else:
        assert "play-only" in out.read_text()


def test_modes_keep_their_own_checkpoints(tmp_path):
    """A play-only run and a whole-hand run are different runs: a checkpoint of one does
    not resume the other."""
    whole = RunSpec("shengji", 4000, "zhengzhou", "random", 11, **SMALL)
    play = RunSpec("shengji", 4000, "zhengzhou", "random", 11, options={"play_only": True},
                   **SMALL)
    assert whole.signature() != play.signature()
    assert not np.array_equal(run(whole).counts, run(play).counts)


@pytest.mark.parametrize("args", [
    ["--hands", "0"], ["--hands", "10", "--format", "parquet"], ["--hands", "10", "--resume"],
    ["--hands", "10", "--policy", "minimax"], ["--hands", "10", "--policies", "random,random"],
    ["--hands", "10", "--policy", "heuristic", "--play-only"],
    ["--hands", "10", "--json", "--format", "csv"], ["--hands", "10", "--rules", "nowhere"],
])
def test_bad_arguments_one_line(args, capsys):
    assert main(["shengji", "simulate", *args, "--quiet"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("xianniu: error:")


def test_unknown_policy_names_the_choices(capsys):
    main(["shengji", "simulate", "--hands", "10", "--policy", "minimax", "--quiet"])
    assert "choose from random, heuristic" in capsys.readouterr().err


@pytest.mark.parametrize("rules, level, trump", [(ZHENGZHOU, 2, 0), (CLASSIC, 5, 4),
                                                  (ZHENGZHOU.with_(rebel_scope="side",
                                                                   rebel_threshold=70), 7, 1)])
def test_kernel_odds_agree_with_exact(rules, level, trump):
    """The deal kernel's Monte Carlo within 5σ of every exact value; its means too; and the
    numpy sampler (independent code) within 5σ of the kernel on the scalar features."""
    n = 60_000
    table = odds.odds_table(rules, level, trump, n, seed=11)
    rows = (table["features"] + table["points"]["rows"]
            + [r for b in table["trump_length"] for r in b["rows"]])
    for r in rows:
        p, est = r["exact"], r["monte_carlo"]
        assert est["n"] == n and est["low"] <= est["value"] <= est["high"]
        assert abs(est["value"] * n - n * p) <= 5 * math.sqrt(n * p * (1 - p)) + 2, r
    for block in [table["points"]] + table["trump_length"]:
        mean, est = block["mean"]["exact"], block["mean"]["monte_carlo"]
        half = (est["high"] - est["low"]) / 2
        assert abs(est["value"] - mean) <= 2.6 * half
    np_mc = odds.monte_carlo(rules, level, trump, 20_000, 3)
    for r in table["features"]:
        p = np_mc[r["feature"]].mean()
        sd = math.sqrt(max(p * (1 - p), 1e-4) * (1 / 20_000 + 1 / n))
        assert abs(r["monte_carlo"]["value"] - p) <= 5 * sd + 1e-4, r


def test_odds_command_keeps_its_shape(capsys):
    assert main(["shengji", "odds", "--level", "2", "--deals", "2000", "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["deals"] == 2000 and res["check"]["rows"] > 0
    assert all(r["monte_carlo"]["n"] == 2000 for r in res["features"])
