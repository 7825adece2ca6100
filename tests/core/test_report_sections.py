"""The report's machinery and its sections: every section seeds itself from its own key,
the machinery imports no game, and an interrupted report leaves no folder behind.
"""

from __future__ import annotations

import ast
import io
import re
import time
import zlib
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from fakes import FakeClock
from matplotlib.figure import Figure

import analyzer.report as report_pkg
from analyzer.games import GAMES
from analyzer.report import ReportSpec, build_report, registered, seed_sequence
from analyzer.report.labels import SHARED, Labels
from analyzer.report.plots import new_figure
from analyzer.report.render import Page

TINY = 300


def _csvs(out: Path, prefix: str | None = None, exclude: str | None = None) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(out.glob("*.csv"))
            if (prefix is None or p.name.startswith(prefix))
            and (exclude is None or not p.name.startswith(exclude))}


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    """One preset of 掀牛 alone, 顶牛 alone, and both in the other order."""
    root = tmp_path_factory.mktemp("sections")
    kw = {"hands": TINY, "seed": 11, "lang": "en", "timings": False,
          "options": {"xianniu": {"rules": "lanzhou", "policy": "random"}}}
    build_report(out=root / "x", sections=["xianniu"], **kw)
    build_report(out=root / "d", sections=["dingniu"], **kw)
    build_report(out=root / "dx", sections=["dingniu", "xianniu"], **kw)
    return root


def test_a_section_numbers_do_not_depend_on_the_other_sections(builds):
    x, d, both = _csvs(builds / "x"), _csvs(builds / "d"), _csvs(builds / "dx")
    assert set(x) and set(d) and set(both) == set(x) | set(d)
    # findings.csv gathers every section's findings: each section's rows are its own
    fx, fd, fb = (pd.read_csv(io.BytesIO(c.pop("findings.csv"))) for c in (x, d, both))
    assert len(fb) == len(fx) + len(fd)
    pd.testing.assert_frame_equal(fb, pd.concat([fd, fx], ignore_index=True),
                                  check_dtype=False)
    assert x == {k: v for k, v in both.items() if k in x}
    assert d == {k: v for k, v in both.items() if k in d}


def test_section_seeds_come_from_a_stable_key():
    for key in ("xianniu", "dingniu"):
        ss = seed_sequence(11, key)
        assert ss.entropy == 11 and ss.spawn_key == (zlib.crc32(key.encode()),)
    # the key, not the position in the registry or Python's hash(), picks the stream
    a = seed_sequence(11, "xianniu").generate_state(2)
    assert np.array_equal(a, np.random.SeedSequence(11, spawn_key=(3298980378,))
                          .generate_state(2))
    assert not np.array_equal(a, seed_sequence(11, "dingniu").generate_state(2))


def test_the_csv_seeds_are_the_section_seeds(builds):
    from analyzer.dingniu.report import seeds
    from analyzer.xianniu.report import Plan

    spec = ReportSpec(TINY, 11, "en", options={"xianniu": {"rules": "lanzhou", "policy": "random"}})
    odds = pd.read_csv(builds / "x" / "odds.csv")
    assert set(odds["seed"]) == {Plan(spec).seed_for("odds", "lanzhou")}
    seats = pd.read_csv(builds / "d" / "dingniu_seats.csv")
    assert set(seats["seed"]) == {seeds(spec)[p] for p in ("random", "heuristic", "tuned")}


def test_report_machinery_imports_no_game():
    games = {g.name for g in GAMES.values()} | {"kernels"}
    folder = Path(report_pkg.__file__).parent
    for path in sorted(folder.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""] + [a.name for a in node.names]
            else:
                continue
            for name in names:
                parts = set(name.split("."))
                assert not parts & games, f"{path.name}:{node.lineno} imports {name}"
        assert not re.search(r"^\s*(from|import)\s+\S*(xianniu\.|dingniu|shengji)",
                             path.read_text(encoding="utf-8"), re.M), path.name


def test_sections_are_found_through_the_registry():
    keys = [s.key for s in registered()]
    assert keys == [g.name for g in GAMES.values() if g.name in keys]
    assert {"xianniu", "dingniu", "shengji"} <= set(keys)


class _Fake:
    """A section of no game: one table and one figure, failing where it is told to."""

    key = "fake"
    labels = Labels({"fake": ("假", "fake")}, base=SHARED)
    outputs = ("fake_table", "fake_figure")

    def __init__(self, fail: str | None = None, exc: type[BaseException] = KeyboardInterrupt):
        self.fail, self.exc = fail, exc

    def _maybe(self, where: str) -> None:
        if self.fail == where:
            raise self.exc(f"stopped in {where}")

    def title(self, lang):
        return self.labels("fake", lang)

    def check(self, spec):
        pass

    def steps(self, spec):
        return 1

    def run(self, spec, root, progress):
        progress("fake")
        self._maybe("run")
        return {"spec": spec, "x": root.generate_state(1)[0]}

    def tables(self, data):
        df = pd.DataFrame({"x": [data["x"]], "n": [1]})
        if self.fail == "write":
            class Boom(pd.DataFrame):
                def to_csv(inner, *a, **k):
                    raise self.exc("stopped while writing")
            df = Boom(df)
        return {"fake_table": df}

    def figures(self, data, lang) -> dict[str, Figure]:
        fig, (ax,) = new_figure(data["spec"], "fake", "1")
        ax.plot([0, 1], [0, 1])
        return {"fake_figure": fig}

    def blocks(self, data, lang):
        self._maybe("blocks")
        page = Page(self.labels, lang)
        page.h2(self.title(lang), "fake")
        page.figure("fake_figure", "fake")
        page.csv("fake_table")
        return page.blocks


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else b"")
            for p in sorted(folder.rglob("*"))}


@pytest.mark.parametrize("where", ["run", "blocks", "write"])
@pytest.mark.parametrize("exc", [KeyboardInterrupt, RuntimeError])
def test_an_interrupted_report_leaves_no_folder(tmp_path, where, exc):
    out = tmp_path / "a" / "b" / "report"
    with pytest.raises(exc):
        build_report(hands=TINY, out=out, sections=[_Fake(where, exc)])
    assert list(tmp_path.iterdir()) == []  # not the report, not its parents, no staging


@pytest.mark.parametrize("where", ["run", "write"])
def test_an_interrupted_report_leaves_an_earlier_one_as_it_was(tmp_path, where):
    out = tmp_path / "report"
    build_report(hands=TINY, out=out, sections=[_Fake()])
    (out / "notes.txt").write_text("mine")
    before = _tree(out)
    with pytest.raises(KeyboardInterrupt):
        build_report(hands=TINY, seed=1, out=out, sections=[_Fake(where)])
    assert _tree(out) == before


def test_a_report_into_an_existing_folder_replaces_only_its_files(tmp_path):
    out = tmp_path / "report"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    (out / "compare.csv").write_text("from an earlier report with both presets")
    rep = build_report(hands=TINY, out=out, sections=[_Fake()])
    names = {p.name for p in out.iterdir()}
    assert names == {"notes.txt", "report.md", "report.html", "fake_table.csv",
                     "fake_figure.png"}
    assert list(rep.files)[-1] == "report.html"  # moved in last
    new = tmp_path / "new" / "report"
    build_report(hands=TINY, out=new, sections=[_Fake()])
    assert {p.name for p in new.iterdir()} == names - {"notes.txt"}
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_a_section_twice_or_unknown_is_refused(tmp_path):
    with pytest.raises(ValueError, match="twice"):
        build_report(hands=TINY, out=tmp_path / "x", sections=["dingniu", "dingniu"])
    with pytest.raises(ValueError, match="no report section"):
        build_report(hands=TINY, out=tmp_path / "x", sections=["texas"])
    assert list(tmp_path.iterdir()) == []


class _Tty(io.StringIO):
    def isatty(self):
        return True


def test_progress_bars_show_units_and_time_left_on_a_terminal():
    from analyzer.report.progress import Bars

    out = _Tty()
    bars = Bars(3, lambda i, n, what: f"[{i}/{n}] {what}", out)
    advance = bars("hands", 1000)
    for _ in range(10):
        advance(100)
    bars("no total")
    bars.close()
    text = out.getvalue()
    assert "[1/3] hands" in text and "[2/3] no total" in text
    assert "1000/1000" in text and "100%" in text


def test_progress_on_a_log_is_one_line_a_step_and_its_time():
    from analyzer.report.progress import Bars

    out = io.StringIO()
    bars = Bars(2, lambda i, n, what: f"[{i}/{n}] {what}", out)
    bars("a", 50)(50)
    bars("b")
    bars.close()
    assert re.fullmatch(r"\[1/2\] a\n    \d+\.\d s\n\[2/2\] b\n    \d+\.\d s\n", out.getvalue())


class _Stamped(io.StringIO):
    """A log that notes the fake time of every line written."""

    def __init__(self, clock, tty=False):
        super().__init__()
        self.clock, self.tty, self.stamps = clock, tty, []

    def isatty(self):
        return self.tty

    def write(self, s):
        self.stamps += [self.clock()] * s.count("\n")
        return super().write(s)


@pytest.mark.parametrize("tty", [False, True], ids=["log", "terminal"])
def test_a_long_report_writes_a_line_every_ten_seconds_with_the_time_left(tty):
    """Steps of 3 s to 3 minutes, some counting their units and some silent until they end:
    no gap between lines is over 10 s of (fake) time, and once a step has ended every
    watcher line gives the whole report's share done and time left."""
    from analyzer.report.progress import INTERVAL, Bars

    clock = FakeClock()
    out = _Stamped(clock, tty)
    bars = Bars(4, lambda i, n, what: f"[{i}/{n}] {what}", out, clock=clock, heartbeat=False)
    for seconds, units in ((95, 1000), (3, 0), (180, 50), (46, 0)):
        advance = bars(f"{seconds} s", units)
        for _ in range(seconds):
            clock.now += 1
            if units:
                advance(units // seconds)
            bars.poll()
    bars.stop()
    stamps = [0.0, *out.stamps]
    assert max(b - a for a, b in zip(stamps, stamps[1:])) <= INTERVAL
    notes = [ln for ln in out.getvalue().replace("\r\x1b[K", "\n").splitlines()
             if ln.startswith("    … ")]
    assert len(notes) >= (95 + 180 + 46) // INTERVAL - 4
    later = [ln for ln in notes if "into step 1/" not in ln]
    assert later and all(re.search(r"the whole report \d+% done, about \d\d:\d\d left", ln)
                         for ln in later)
    # after the first step (95 s, a quarter of four): about 95 s a step, 3 steps left
    third = next(ln for ln in notes if "into step 3/4" in ln)
    left = re.search(r"about (\d\d):(\d\d) left", third)
    assert 60 <= int(left[1]) * 60 + int(left[2]) <= 300


def test_the_time_left_follows_the_units_of_the_running_step():
    from analyzer.report.progress import Bars

    clock = FakeClock()
    bars = Bars(2, lambda i, n, what: what, io.StringIO(), clock=clock, heartbeat=False)
    advance = bars("a", 100)
    clock.now = 50.0
    advance(50)  # half of step 1 of 2 in 50 s: a quarter of the report, 150 s left
    assert bars.fraction() == 0.25 and bars.left(clock.now) == pytest.approx(150.0)
    bars.stop()


def test_the_watcher_thread_writes_the_lines_by_itself():
    from analyzer.report.progress import Bars

    out = io.StringIO()
    bars = Bars(1, lambda i, n, what: what, out, interval=0.2)
    bars("slow", 10)
    time.sleep(1.0)
    bars.stop()
    assert out.getvalue().count("    … ") >= 2
