"""顶牛 through the shared batch runner: formats, --out, --resume, records, Dask."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from batch_checks import interrupted_and_resumed

from analyzer.cli import main
from analyzer.core.runner import Checkpoint, RunSpec, run
from analyzer.dingniu import batch
from analyzer.dingniu.sim import play_hands

SMALL = {"chunk_size": 256, "chunks_per_task": 3}


def test_counts_equal_the_rows_they_summarise():
    rows = play_hands(3000, "heuristic,random,random,heuristic", 4)
    # the runner's chunk streams are the spawned children play_hands draws from
    again = run(RunSpec("dingniu", 3000, "standard", "heuristic,random,random,heuristic", 4))
    assert np.array_equal(again.counts, batch.counts_of(rows))
    s = again.as_json()
    pts = rows[:, 0:4]
    assert s["hands"] == 3000
    assert s["seats"][2]["points"]["value"] == pytest.approx(pts[:, 2].mean())
    assert s["p_suan"]["n"] == 3000


def test_same_numbers_whatever_the_task_split():
    a = run(RunSpec("dingniu", 5000, "standard", "random", 9, chunk_size=256,
                    chunks_per_task=2))
    b = run(RunSpec("dingniu", 5000, "standard", "random", 9, chunk_size=256,
                    chunks_per_task=7))
    assert np.array_equal(a.counts, b.counts)


def test_checkpoint_resume_gives_the_uninterrupted_numbers(tmp_path):
    spec = RunSpec("dingniu", 4000, "standard", "heuristic", 11, **SMALL)
    ckpt = tmp_path / "ck.json"
    whole, saved, resumed = interrupted_and_resumed(spec, ckpt)
    assert len(saved["tasks"]) == 2
    assert np.array_equal(resumed.counts, whole.counts)
    with pytest.raises(ValueError, match="another run"):
        run(RunSpec("dingniu", 4000, "standard", "heuristic", 12, **SMALL), checkpoint=ckpt,
            resume=True)
    assert isinstance(Checkpoint(ckpt, spec), Checkpoint)


def test_records_rows_match_the_counts(tmp_path):
    rec = tmp_path / "rows.parquet"
    spec = RunSpec("dingniu", 2000, "standard", "random", 2, **SMALL)
    res = run(spec, records=rec)
    df = pd.read_parquet(rec)
    assert len(df) == 2000 and list(df["hand"]) == list(range(2000))
    assert df["points0"].sum() == res.counts[batch.A_PTS]
    assert int((df["end"] == "算帐").sum()) == res.counts[batch.A_SUAN]


@pytest.mark.parametrize("policies", ["random", "heuristic,random,random,heuristic"])
def test_records_replay_to_their_points(tmp_path, policies):
    """Each row carries its deal and its record; the engine replays the record to the row's
    points, and keeping records changes no number of the run."""
    from analyzer.dingniu.records import replay

    rec = tmp_path / "rows.parquet"
    spec = RunSpec("dingniu", 1800, "standard", policies, 6, **SMALL)
    res = run(spec, records=rec)
    assert np.array_equal(res.counts, run(spec).counts)
    df = pd.read_parquet(rec)
    for i in [0, 1, 255, 256, 900, 1799]:
        row = df.iloc[i]
        record = json.loads(row["record"])
        assert record["hands"] == [row[f"dealt{s}"] for s in range(4)]
        st = replay(record)
        assert st.is_terminal() and len(record["actions"]) == row["moves"]
        assert st.returns() == [row[f"points{s}"] for s in range(4)]
        assert (st.suan_seat >= 0) == (row["end"] == "算帐")


@pytest.mark.parametrize("fmt", ["table", "csv", "json", "parquet"])
def test_cli_formats_and_atomic_out(tmp_path, fmt, capsys):
    out = tmp_path / f"x.{fmt}"
    assert main(["dingniu", "simulate", "--hands", "3000", "--seed", "3", "--format", fmt,
                 "--out", str(out), "--quiet"]) == 0
    assert out.exists() and not (tmp_path / f"x.{fmt}.checkpoint.json").exists()
    if fmt == "json":
        data = json.loads(out.read_text())
        assert {"game", "rules", "policy", "seed", "hands"} <= set(data)
        assert data["game"] == "dingniu" and data["hands"] == 3000
    if fmt == "parquet":
        df = pd.read_parquet(out)
        assert {"statistic", "value", "ci_low", "ci_high", "n"} <= set(df.columns)


def test_cli_json_same_as_format_json(capsys):
    assert main(["dingniu", "simulate", "--hands", "2000", "--seed", "5", "--json",
                 "--quiet"]) == 0
    a = json.loads(capsys.readouterr().out)
    assert main(["dingniu", "simulate", "--hands", "2000", "--seed", "5", "--format", "json",
                 "--quiet"]) == 0
    assert json.loads(capsys.readouterr().out) == a


def test_dask_backend_gives_the_local_numbers():
    spec = RunSpec("dingniu", 4000, "standard", "heuristic", 3, **SMALL)
    assert np.array_equal(run(spec).counts, run(spec, backend="dask").counts)


@pytest.mark.parametrize("args", [
    ["--hands", "0"], ["--hands", "10", "--format", "parquet"], ["--hands", "10", "--resume"],
    ["--hands", "10", "--policy", "x"], ["--hands", "10", "--policies", "random,random"],
    ["--hands", "10", "--json", "--format", "csv"], ["--hands", "10", "--rules", "nowhere"],
])
def test_bad_arguments_one_line(args, capsys):
    assert main(["dingniu", "simulate", *args, "--quiet"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("xianniu: error:")
