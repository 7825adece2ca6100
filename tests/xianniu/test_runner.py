"""Batch runs: checkpoints and resume, Dask equals local, output formats, bad arguments."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from batch_checks import interrupted_and_resumed

from analyzer.cli import main
from analyzer.core.runner import Checkpoint, RunSpec, run
from analyzer.xianniu.sim import simulate_aggregate

SMALL = {"chunk_size": 256, "chunks_per_task": 3}


class Stop(Exception):
    pass


def test_run_equals_simulate_aggregate():
    spec = RunSpec("xianniu", 7000, "kanniutui", "heuristic", 5, **SMALL)
    agg = run(spec)
    ref = simulate_aggregate(7000, "kanniutui", "heuristic", 5, chunk_size=256)
    assert np.array_equal(agg.counts, ref.counts)


def test_resumed_run_equals_uninterrupted(tmp_path):
    spec = RunSpec("xianniu", 9000, "lanzhou", "random", 11, **SMALL)
    whole, saved, resumed = interrupted_and_resumed(spec, tmp_path / "run.checkpoint.json",
                                                    Stop)
    assert len(saved["tasks"]) == 2  # both finished tasks were kept, nothing more
    assert np.array_equal(resumed.counts, whole.counts)
    assert resumed.as_json() == whole.as_json()


def test_checkpoint_of_another_run_is_refused(tmp_path):
    ckpt = tmp_path / "c.json"
    spec = RunSpec("xianniu", 1000, "lanzhou", "random", seed=1)
    Checkpoint(ckpt, spec).save(0, np.zeros(3, dtype=np.int64))
    with pytest.raises(ValueError, match="another run"):
        run(RunSpec("xianniu", 1000, "lanzhou", "random", seed=2), checkpoint=ckpt, resume=True)
    ckpt.write_text("{broken")
    with pytest.raises(ValueError, match="unreadable"):
        run(RunSpec("xianniu", 1000, "lanzhou", "random", seed=2), checkpoint=ckpt, resume=True)


def test_dask_equals_local():
    spec = RunSpec("xianniu", 4000, "lanzhou", "heuristic", 3, **SMALL)
    local = run(spec)
    dask = run(spec, backend="dask")
    assert dask.as_json() == local.as_json()


def test_records_hold_every_hand(tmp_path):
    rec = tmp_path / "hands.parquet"
    spec = RunSpec("xianniu", 3000, "lanzhou", "random", 2, **SMALL)
    agg = run(spec, records=rec)
    df = pd.read_parquet(rec)
    assert len(df) == 3000 and df["hand"].tolist() == list(range(3000))
    assert (df[["points0", "points1", "points2"]].sum(axis=1) == 0).all()
    assert np.array_equal(agg.counts, run(spec).counts)


@pytest.mark.parametrize("rules,policies", [("lanzhou", "random"),
                                            ("kanniutui", "heuristic,random,heuristic")])
def test_records_replay_to_their_points(tmp_path, rules, policies):
    """Each row carries its deal and its record; the engine replays the record to the row's
    points, and keeping records changes no number of the run."""
    from analyzer.xianniu.records import replay, start_of

    rec = tmp_path / "hands.parquet"
    spec = RunSpec("xianniu", 2500, rules, policies, 8, **SMALL)
    agg = run(spec, records=rec)
    assert np.array_equal(agg.counts, run(spec).counts)
    df = pd.read_parquet(rec)
    for i in [0, 1, 255, 256, 1000, 2499]:
        row = df.iloc[i]
        record = json.loads(row["record"])
        assert record["hands"] == [row["dealt0"], row["dealt1"], row["dealt2"]]
        assert record["rules"] == rules and record["banker"] == row["banker"] == 0
        assert start_of(record).banker == 0
        st = replay(record, require_end=True)
        assert list(st.settlement().points) == [row[f"points{s}"] for s in range(3)]
        assert len(record["actions"]) == row["actions"] and st.end_reason == row["end"]
        assert [t.captured for t in st.settlement().tallies] == \
            [row[f"captured{s}"] for s in range(3)]


def test_records_through_the_cli_replay(tmp_path, capsys):
    rec = tmp_path / "rows.parquet"
    assert main(["simulate", "--hands", "300", "--seed", "2", "--records", str(rec),
                 "--json", "--quiet"]) == 0
    with_records = json.loads(capsys.readouterr().out)
    assert main(["simulate", "--hands", "300", "--seed", "2", "--json", "--quiet"]) == 0
    assert json.loads(capsys.readouterr().out) == with_records
    row = pd.read_parquet(rec).iloc[17]
    path = tmp_path / "hand17.json"
    path.write_text(row["record"], encoding="utf-8")
    assert main(["replay", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["settlement"]["points"] == [row[f"points{s}"] for s in range(3)]


def test_a_chunk_of_long_hands_is_recorded_whole(monkeypatch):
    """When a chunk's action buffer is too short, the chunk is played again with room for
    any hand: the rows and records are those of a roomy buffer."""
    from analyzer.core.runner import run_task
    from analyzer.xianniu import sim

    spec = RunSpec("xianniu", 600, "lanzhou", "random", 4, chunk_size=256, chunks_per_task=3)
    counts, roomy = run_task(spec, 0, with_rows=True)
    monkeypatch.setattr(sim, "ACTIONS_PER_HAND", 2)  # every chunk overflows
    again, tight = run_task(spec, 0, with_rows=True)
    assert np.array_equal(counts, again) and tight.equals(roomy)


def test_cards_text_is_format_cards():
    from analyzer.xianniu.cards import format_cards
    from analyzer.xianniu.sim import cards_text, deal_hands

    for deal in deal_hands(200, seed=1):
        for mask in deal.tolist():
            assert cards_text(mask) == format_cards(mask)
    assert cards_text(0) == format_cards(0)


def test_interrupted_run_says_what_was_kept_and_how_to_resume(tmp_path):
    from analyzer.core.batchrun import RunInterrupted, checkpoint_path, render, simulate_run

    spec = RunSpec("xianniu", 3000, "lanzhou", "random", 1, **SMALL)
    out = tmp_path / "summary.json"
    calls = []

    def ctrl_c_after_two_tasks(n):
        calls.append(n)
        if len(calls) == 2:
            raise KeyboardInterrupt

    with pytest.raises(RunInterrupted) as stopped:
        simulate_run(spec, out, "json", progress=ctrl_c_after_two_tasks)
    msg = str(stopped.value)
    assert f"interrupted after {2 * 3 * 256:,} of 3,000 hands" in msg
    assert f"kept in {checkpoint_path(out)}" in msg and "--resume" in msg
    assert checkpoint_path(out).exists() and not out.exists()
    _, data = simulate_run(spec, out, "json", resume=True)
    assert json.loads(data) == json.loads(render(run(spec), "json"))
    assert not checkpoint_path(out).exists()
    calls.clear()
    with pytest.raises(RunInterrupted, match="nothing was kept .give --out"):
        simulate_run(spec, None, "json", progress=ctrl_c_after_two_tasks)


def test_interrupted_api_and_cli_runs_say_how_to_resume(tmp_path, capsys, monkeypatch):
    from analyzer.core import runner
    from analyzer.core.batchrun import RunInterrupted
    from analyzer.xianniu import api

    out = tmp_path / "s.json"

    def ctrl_c(n):
        raise KeyboardInterrupt

    with pytest.raises(RunInterrupted, match="--resume"):
        api.simulate(140_000, policies="random", out=str(out), fmt="json", progress=ctrl_c)
    real = runner.run_task
    tasks = []

    def second_task_is_cut(*args, **kwargs):
        tasks.append(args[1])
        if len(tasks) == 2:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(runner, "run_task", second_task_is_cut)
    assert main(["simulate", "--hands", "140000", "--policy", "random", "--out", str(out),
                 "--quiet"]) == 130
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--resume" in err[0] and "s.json.checkpoint.json" in err[0]
    monkeypatch.setattr(runner, "run_task", real)
    assert main(["simulate", "--hands", "140000", "--policy", "random", "--out", str(out),
                 "--quiet", "--resume"]) == 0
    assert "140,000 hands" in out.read_text()


@pytest.mark.parametrize("fmt", ["table", "csv", "json", "parquet"])
def test_simulate_formats_write_whole_files(tmp_path, fmt, capsys):
    out = tmp_path / f"summary.{fmt}"
    assert main(["simulate", "--hands", "3000", "--seed", "4", "--format", fmt, "--out", str(out),
                 "--quiet"]) == 0
    assert out.exists() and not (tmp_path / f"summary.{fmt}.checkpoint.json").exists()
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    if fmt == "json":
        data = json.loads(out.read_text())
        assert data["hands"] == 3000 and len(data["captured_distribution"]) == 3
    elif fmt == "csv":
        df = pd.read_csv(out)
        assert {"statistic", "value", "ci_low", "ci_high", "n"} <= set(df.columns)
        assert (df["n"] == 3000).all()
    elif fmt == "parquet":
        assert len(pd.read_parquet(out)) > 50


@pytest.mark.parametrize("args", [
    ["--hands", "0"], ["--hands", "10", "--format", "parquet"], ["--hands", "10", "--resume"],
    ["--hands", "10", "--scheduler", "tcp://127.0.0.1:1"], ["--hands", "10", "--policy", "x"],
    ["--hands", "10", "--policies", "random,random"], ["--hands", "10", "--rules", "beijing"],
    ["--hands", "10", "--engine", "reference", "--policy", "heuristic"],
])
def test_bad_simulate_arguments(args, capsys):
    assert main(["simulate", *args, "--quiet"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("xianniu: error:")


def test_killed_cli_run_resumes_to_the_same_numbers(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time

    args = [sys.executable, "-m", "analyzer.cli", "simulate", "--hands", "1000000", "--seed",
            "9", "--policy", "random", "--format", "json", "--quiet"]
    whole = tmp_path / "whole.json"
    subprocess.run(args + ["--out", str(whole)], check=True)
    out = tmp_path / "cut.json"
    ckpt = tmp_path / "cut.json.checkpoint.json"
    proc = subprocess.Popen(args + ["--out", str(out)])
    deadline = time.time() + 60
    while not ckpt.exists() and proc.poll() is None and time.time() < deadline:
        time.sleep(0.01)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert ckpt.exists() and not out.exists()  # killed mid-run: no half-written result
    done = len(json.loads(ckpt.read_text())["tasks"])
    assert 0 < done < 8  # of 8 tasks
    subprocess.run(args + ["--out", str(out), "--resume"], check=True)
    assert json.loads(out.read_text()) == json.loads(whole.read_text())
    assert not ckpt.exists()
