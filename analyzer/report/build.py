"""``xianniu report``: run the analyses, draw the plots, write the report's files.

The files go into one folder: ``report.md``, ``report.html`` (self-contained), one CSV per
table and one PNG per figure. Each is written whole or not at all (temporary file, then
rename), ``report.html`` last, so a finished report is complete.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..fileio import write_atomic
from . import dingniu
from .data import ANALYSES, DEFAULT_HANDS, ReportData, ReportSpec, run_analyses
from .labels import t
from .plots import FIGURES, render_pngs
from .render import to_html, to_markdown

TABLES = ("rules", "odds", "outcomes", "captured", "values", "k_count", "xian_ev", "ladder",
          "compare", *dingniu.TABLES)


@dataclass
class Report:
    """What ``build_report`` wrote: the folder, every file by name, and the data."""

    out: Path
    files: dict[str, Path]
    data: ReportData

    @property
    def html(self) -> Path:
        return self.files["report.html"]


def check_out_dir(out: str | os.PathLike[str]) -> Path:
    """Make ``out`` (a folder) and make sure a file can be written there, before the work."""
    path = Path(out)
    if path.exists() and not path.is_dir():
        raise ValueError(f"--out {out} is a file, not a folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=".probe.", dir=path)
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        raise ValueError(f"cannot write the report into {out}: {e.strerror or e}") from None
    return path


def build_report(rules: str = "all", hands: int = DEFAULT_HANDS, policy: str = "heuristic",
                 seed: int = 0, out: str | os.PathLike[str] = "xianniu-report",
                 lang: str = "zh",
                 progress: Callable[[str], None] | None = None) -> Report:
    """Run the report's analyses and write its files into the folder ``out``.

    ``progress`` hears one line per step (``[3/14] ...``). ValueError on bad arguments and
    OSError when ``out`` cannot be written, both before any work is done.
    """
    spec = ReportSpec(rules, hands, policy, seed, lang)
    path = check_out_dir(out)
    total = len(spec.presets) * len(ANALYSES) + 3
    count = 0

    def step(what: str) -> None:
        nonlocal count
        count += 1
        if progress is not None:
            progress(t("step", lang, i=count, total=total, what=what))

    data = run_analyses(spec, step)
    step(t("step_plots", lang))
    pngs = render_pngs(data)
    step(t("step_write", lang, path=path))
    files: dict[str, Path] = {}

    def put(name: str, content: str | bytes) -> None:
        files[name] = path / name
        write_atomic(path / name, content)

    for name, png in pngs.items():
        put(f"{name}.png", png)
    for name, df in data.tables.items():
        put(f"{name}.csv", df.to_csv(index=False))
    put("report.md", to_markdown(data))
    put("report.html", to_html(data, pngs))
    stale = {f"{n}.png" for n in FIGURES} | {f"{n}.csv" for n in TABLES}
    for name in sorted(stale - set(files)):
        (path / name).unlink(missing_ok=True)  # left by an earlier report with other presets
    return Report(path, files, data)
