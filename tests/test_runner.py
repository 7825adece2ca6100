"""Batch runs: checkpoints and resume, Dask equals local, output formats, bad arguments."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from analyzer.cli import main
from analyzer.report_formats import summary_json
from analyzer.runner import Checkpoint, RunSpec, run
from analyzer.simulate import simulate_aggregate

SMALL = dict(chunk_size=256, chunks_per_task=3)


class Stop(Exception):
    pass


def test_run_equals_simulate_aggregate():
    spec = RunSpec(7000, "kanniutui", "heuristic", 5, **SMALL)
    agg = run(spec)
    ref = simulate_aggregate(7000, "kanniutui", "heuristic", 5, chunk_size=256)
    assert np.array_equal(agg.counts, ref.counts)


def test_resumed_run_equals_uninterrupted(tmp_path):
    spec = RunSpec(9000, "lanzhou", "random", 11, **SMALL)
    whole = run(spec)
    ckpt = tmp_path / "run.checkpoint.json"
    seen = []

    def stop_after_two(n):
        seen.append(n)
        if len(seen) == 2:
            raise Stop

    with pytest.raises(Stop):
        run(spec, checkpoint=ckpt, progress=stop_after_two)
    saved = json.loads(ckpt.read_text())
    assert len(saved["tasks"]) == 2  # both finished tasks were kept, nothing more
    resumed = run(spec, checkpoint=ckpt, resume=True)
    assert np.array_equal(resumed.counts, whole.counts)
    assert summary_json(resumed) == summary_json(whole)


def test_checkpoint_of_another_run_is_refused(tmp_path):
    ckpt = tmp_path / "c.json"
    Checkpoint(ckpt, RunSpec(1000, seed=1)).save(0, np.zeros(3, dtype=np.int64))
    with pytest.raises(ValueError, match="another run"):
        run(RunSpec(1000, seed=2), checkpoint=ckpt, resume=True)
    ckpt.write_text("{broken")
    with pytest.raises(ValueError, match="unreadable"):
        run(RunSpec(1000, seed=2), checkpoint=ckpt, resume=True)


def test_dask_equals_local():
    spec = RunSpec(4000, "lanzhou", "heuristic", 3, **SMALL)
    local = run(spec)
    dask = run(spec, backend="dask")
    assert summary_json(dask) == summary_json(local)


def test_records_hold_every_hand(tmp_path):
    rec = tmp_path / "hands.parquet"
    spec = RunSpec(3000, "lanzhou", "random", 2, **SMALL)
    agg = run(spec, records=rec)
    df = pd.read_parquet(rec)
    assert len(df) == 3000 and df["hand"].tolist() == list(range(3000))
    assert (df[["points0", "points1", "points2"]].sum(axis=1) == 0).all()
    assert np.array_equal(agg.counts, run(spec).counts)


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

    args = [sys.executable, "-m", "analyzer.cli", "simulate", "--hands", "3000000", "--seed",
            "9", "--format", "json", "--quiet"]
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
    assert 0 < done < 23
    subprocess.run(args + ["--out", str(out), "--resume"], check=True)
    assert json.loads(out.read_text()) == json.loads(whole.read_text())
    assert not ckpt.exists()
