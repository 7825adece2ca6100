"""The progress of a long command on standard error: a bar on a terminal, lines in a log."""

from __future__ import annotations

import io
import re

from fakes import FakeClock

from analyzer.core.cli_common import LazyProgressBar


class _Tty(io.StringIO):
    def isatty(self):
        return True


def test_a_log_gets_a_line_every_ten_seconds_with_the_time_left_and_no_stray_label():
    clock, out = FakeClock(), io.StringIO()
    with LazyProgressBar(20_000, "deals kept", file=out, clock=clock) as bar:
        bar.expect(1_000)
        bar(0)  # the work starts
        for _ in range(100):
            clock.now += 1
            bar(10)
    lines = out.getvalue().splitlines()
    assert len(lines) == 10  # one every 10 s of 100 s, nothing else (no lone label)
    assert all(re.fullmatch(r"deals kept: [\d,]+/1,000, \d\d:\d\d spent, about \d\d:\d\d left",
                            ln) for ln in lines), lines
    assert lines[4] == "deals kept: 500/1,000, 00:50 spent, about 00:50 left"


def test_the_end_moves_with_what_the_query_expects():
    """The bar's length follows ``expect`` (a query stopping at its precision), never below
    what is done."""
    out = _Tty()
    with LazyProgressBar(1_000_000, "deals kept", file=out) as bar:
        bar.expect(2_048)
        bar(1_024)
        assert bar._bar.length == 2_048
        bar.expect(100)
        assert bar.length == 1_024
        bar(0)
    text = out.getvalue()
    assert "deals kept" in text and "1000000" not in text.replace(",", "")


def test_quiet_and_refused_input_write_nothing():
    out = io.StringIO()
    with LazyProgressBar(10, "decisions reviewed", hidden=True, file=out) as bar:
        bar.done_of(5, 10)
    with LazyProgressBar(10, "decisions reviewed", file=out):
        pass  # refused before any work: no bar, no label
    assert out.getvalue() == ""
