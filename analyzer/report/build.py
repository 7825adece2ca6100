"""``xianniu report``: run every section, draw its figures, write the report's files.

The files go into one folder: ``report.md``, ``report.html`` (self-contained), one CSV per
table and one PNG per figure. They are first written into a hidden staging folder and only
moved into place once all are written, so an interrupted report (an error, Ctrl-C) leaves
nothing behind: a new folder appears whole with a single rename; into a folder that already
exists each file is renamed in, ``report.html`` last.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

import pandas as pd

from .. import __version__
from ..core.fileio import write_atomic
from . import findings, plots
from .findings import Finding
from .labels import SHARED, t
from .progress import Bars, StepFn, silent
from .render import Block, Page, to_html, to_markdown
from .section import (
    DEFAULT_HANDS,
    FULL_HANDS,
    ReportData,
    ReportSpec,
    Section,
    choose,
    run_sections,
)


@dataclass
class Report:
    """What ``build_report`` wrote: the folder, every file by name, and the data."""

    out: Path
    files: dict[str, Path]
    data: ReportData

    @property
    def html(self) -> Path:
        return self.files["report.html"]


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


class Staging:
    """A hidden folder to write the report into, then move into ``out`` (a folder).

    It is made beside ``out`` when ``out`` does not exist yet (and is renamed to ``out``
    at the end), inside ``out`` when it does. ValueError, before any work, when ``out`` is
    a file or cannot be written.
    """

    def __init__(self, out: str | os.PathLike[str]):
        self.out = Path(out)
        if self.out.exists() and not self.out.is_dir():
            raise ValueError(f"--out {out} is a file, not a folder")
        self.existed = self.out.is_dir()
        self.made: list[Path] = []  # parent folders made for the report, outermost first
        try:
            if self.existed:
                self.dir = Path(tempfile.mkdtemp(prefix=".report.", suffix=".tmp",
                                                 dir=self.out))
            else:
                parent = self.out.absolute().parent
                self._make_parents(parent)
                self.dir = Path(tempfile.mkdtemp(prefix=f".{self.out.name}.", suffix=".tmp",
                                                 dir=parent))
            os.chmod(self.dir, 0o777 & ~_umask())  # what mkdir would give, not mkdtemp's 700
        except OSError as e:
            self._remove_parents()
            raise ValueError(f"cannot write the report into {out}: {e.strerror or e}") from None

    def _make_parents(self, parent: Path) -> None:
        missing = []
        while not parent.exists() and parent != parent.parent:
            missing.append(parent)
            parent = parent.parent
        for p in reversed(missing):
            p.mkdir()
            self.made.append(p)

    def _remove_parents(self) -> None:
        for p in reversed(self.made):
            try:
                p.rmdir()
            except OSError:
                break  # something else was put there meanwhile: leave it

    def write(self, name: str, content: str | bytes) -> None:
        write_atomic(self.dir / name, content)

    def commit(self, names: list[str], stale: Iterable[str]) -> dict[str, Path]:
        """Move the files ``names`` into ``out`` in that order; remove the ``stale`` ones
        (an earlier report's) that this report did not write."""
        if not self.existed:
            os.rename(self.dir, self.out)
        else:
            for name in names:
                os.replace(self.dir / name, self.out / name)
            for name in sorted(set(stale) - set(names)):
                (self.out / name).unlink(missing_ok=True)
            self.dir.rmdir()
        return {name: self.out / name for name in names}

    def abort(self) -> None:
        """Remove the staging folder and any parent folder made for the report."""
        shutil.rmtree(self.dir, ignore_errors=True)
        self._remove_parents()


def findings_of(data: ReportData, lang: str) -> list[tuple[Finding, str]]:
    """Every section's findings for a player, with the section's title, in order."""
    out = []
    for s in data.sections:
        found = getattr(s, "findings", None)
        if found is not None:
            out += [(f, s.title(lang)) for f in found(data.results[s.key], lang)]
    return out


def head(spec: ReportSpec, sections: list[Section],
         found: list[tuple[Finding, str]]) -> list[Block]:
    """The report's opening: title, what to take away, version, the command that rewrites
    it, the seeds."""
    page = Page(SHARED, spec.lang)
    page.add("h1", page.t("title"))
    if found:
        page.h2(page.t("takeaway"), "takeaway")
        page.p(page.t("takeaway_intro"))
        page.add("ul", findings.lines(found, spec.lang))
        page.csv("findings")
    page.p(page.t("generated", version=__version__))
    page.p(page.t("size_full" if spec.hands >= FULL_HANDS else "size_quick",
                  hands=f"{spec.hands:,}", full=f"{FULL_HANDS:,}"))
    page.p(page.t("regenerate"))
    page.code([spec.command()])
    keys = page.sep.join(page.t("seed_key", title=s.title(spec.lang), name=s.key)
                         for s in sections)
    page.p(page.t("seeds_note", keys=keys))
    return page.blocks


def build_report(hands: int = DEFAULT_HANDS, seed: int = 0,
                 out: str | os.PathLike[str] = "xianniu-report", lang: str = "zh",
                 progress: TextIO | None = None,
                 sections: Iterable[str | Section] | None = None,
                 timings: bool = True,
                 options: Mapping[str, Mapping[str, Any]] | None = None) -> Report:
    """Run the report's sections and write its files into the folder ``out``.

    ``progress`` (a file such as standard error; None: silent) gets a line per step
    (``[3/15] ...``), on a terminal the step's bar with its time left, and at least every
    ten seconds a line with the whole report's time left (see :mod:`.progress`).
    ``sections`` picks sections by game name (default: every game that has one);
    ``options`` gives sections their own options by key
    (``{"shengji": {"policy": "random"}}``). ValueError on bad arguments and when ``out``
    cannot be written, both before any work is done.
    """
    spec = ReportSpec(hands, seed, lang, timings, options or {})
    chosen = choose(sections)
    for s in chosen:
        s.check(spec)
    total = sum(s.steps(spec) for s in chosen) + 2
    def note(left: str | None, **fields: Any) -> str:
        return t("progress_note" if left is not None else "progress_note_first", lang,
                 left=left, **fields)

    step: StepFn = silent if progress is None else \
        Bars(total, lambda i, n, what: t("step", lang, i=i, total=n, what=what), progress,
             note=note)

    stage = Staging(out)
    try:
        data = run_sections(spec, chosen, step)
        step(t("step_plots", lang))
        pngs: dict[str, bytes] = {}
        with plots.style():
            for s in chosen:
                for name, fig in s.figures(data.results[s.key], lang).items():
                    if name in pngs:
                        raise ValueError(f"two sections draw the figure {name!r}")
                    pngs[name] = plots.png(fig, spec.command())
        step(t("step_write", lang, path=stage.out))
        found = findings_of(data, lang)
        if found:
            data.tables["findings"] = pd.DataFrame(findings.as_rows(found)).astype(
                {"other_n": "Int64"})  # a count, blank where nothing was measured again
        blocks = head(spec, chosen, found)
        for s in chosen:
            blocks += s.blocks(data.results[s.key], lang)
        shown = {b.content[0] for b in blocks if b.kind == "img"}
        assert shown == set(pngs), (shown, set(pngs))
        names = [f"{n}.png" for n in pngs] + [f"{n}.csv" for n in data.tables]
        for name, content in pngs.items():
            stage.write(f"{name}.png", content)
        for name, df in data.tables.items():
            stage.write(f"{name}.csv", df.to_csv(index=False))
        stage.write("report.md", to_markdown(blocks, lang))
        stage.write("report.html", to_html(blocks, pngs, lang))
        names += ["report.md", "report.html"]
        stale = {f"{n}.{ext}" for s in [*choose(), *chosen] for n in s.outputs
                 for ext in ("png", "csv")}
        files = stage.commit(names, stale)
    except BaseException:
        stage.abort()
        raise
    finally:
        if isinstance(step, Bars):
            step.stop()
    return Report(stage.out, files, data)
