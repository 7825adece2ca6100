"""A batch run as the command line asks for it: formats, ``--out``, checkpoints, resume.

Every game's ``simulate`` command calls :func:`simulate_run`; the game supplies only its
batch module (see :class:`analyzer.core.runner.RunSpec`) and a result object with ``hands``,
``as_json()`` (JSON-ready: ``game``, ``rules``, ``seed``, ``hands`` and ``policy`` first, then
every statistic as ``{"value", "low", "high", "n"}``), ``tidy()`` (one row per statistic:
``value, ci_low, ci_high, n``) and ``text()``.
"""

from __future__ import annotations

import io
import json
import os
from collections.abc import Callable
from pathlib import Path

from .fileio import check_out_folder, write_atomic
from .runner import RunSpec, run

FORMATS = ("table", "csv", "json", "parquet")


class RunInterrupted(KeyboardInterrupt):
    """An interrupted run; the message says what was kept and how to go on."""


def checkpoint_path(out: str | os.PathLike[str]) -> Path:
    """Where a run writing to ``out`` keeps its finished tasks."""
    return Path(f"{out}.checkpoint.json")


def render(result, fmt: str) -> str | bytes:
    """The result in ``fmt``: table, csv, json (text) or parquet (bytes)."""
    if fmt == "table":
        return result.text() + "\n"
    if fmt == "json":
        return json.dumps(result.as_json(), ensure_ascii=False, indent=2) + "\n"
    df = result.tidy()
    if fmt == "csv":
        return df.to_csv(index=False)
    if fmt == "parquet":
        buf = io.BytesIO()
        try:
            df.to_parquet(buf, index=False)
        except ImportError:
            raise ValueError("Parquet output needs pyarrow: pip install pyarrow") from None
        return buf.getvalue()
    raise ValueError(f"unknown format {fmt!r} (choose {', '.join(FORMATS)})")


def output_format(fmt: str | None, as_json: bool) -> str:
    """The format asked for: ``--format``, or json with ``--json``; a conflict is an error."""
    if as_json and fmt not in (None, "json"):
        raise ValueError(f"--json asks for JSON but --format asks for {fmt}; give one of them")
    return fmt or ("json" if as_json else "table")


def simulate_run(spec: RunSpec, out: str | os.PathLike[str] | None = None, fmt: str = "table",
                 backend: str = "local", scheduler: str | None = None, resume: bool = False,
                 records: str | os.PathLike[str] | None = None,
                 progress: Callable[[int], None] | None = None):
    """Play ``spec`` and return ``(result, rendered)``; with ``out`` the rendering is written
    there whole (temporary file, then rename) and finished tasks are checkpointed beside it
    until the run ends, so that the same call with ``resume`` finishes an interrupted run."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r} (choose {', '.join(FORMATS)})")
    if fmt == "parquet" and not out:
        raise ValueError("parquet output needs --out")
    check_out_folder(out, "--out")
    check_out_folder(records, "--records")  # both before the run, not after it
    ckpt = checkpoint_path(out) if out else None
    done = [0]

    def counted(n: int) -> None:
        done[0] += n
        if progress:
            progress(n)

    try:
        result = run(spec, backend, scheduler, ckpt, resume, records, progress=counted)
    except KeyboardInterrupt:
        if ckpt is not None and ckpt.exists():
            raise RunInterrupted(f"interrupted after {done[0]:,} of {spec.n_hands:,} hands; "
                                 f"finished tasks are kept in {ckpt}: run the same command "
                                 f"with --resume to finish") from None
        raise RunInterrupted(f"interrupted after {done[0]:,} of {spec.n_hands:,} hands; "
                             f"nothing was kept (give --out to checkpoint a run)") from None
    data = render(result, fmt)
    if out:
        write_atomic(out, data)
        if ckpt is not None:
            ckpt.unlink(missing_ok=True)
    return result, data
