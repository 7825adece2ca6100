"""The report's progress on standard error: one bar per step, with its time left, and a line
at least every :data:`INTERVAL` seconds with the time left for the whole report.

A section's ``run`` gets a :data:`StepFn`: ``advance = progress(what, total)`` starts the
step ``what`` of ``total`` units (hands, deals, positions; 0 when it cannot say) and
returns ``advance(n)``, to call as units are done. The bar shows the step's number among
all steps, the units done and an estimate of the time left from the units' rate so far.

Some steps report their units only when they end (and a step of no total never does), so a
bar alone can stand still for minutes: a watcher thread writes a line whenever
:data:`INTERVAL` seconds have passed without one, in a log and on a terminal alike: how
long the step has run, its units done when it counts them, and the whole report's share
done and time left. That estimate counts each step as one equal part of the report (the
running one in proportion to its units done, or to its time against the mean step's when it
counts none; see :meth:`Bars.fraction`), so it is rough while the early steps run and firms
up as they end.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from typing import Any, TextIO

import click

from ..core.limits import clock_text

Advance = Callable[[int], None]
StepFn = Callable[..., Advance]  # (what: str, total: int = 0) -> Advance
INTERVAL = 10.0  # seconds: no longer than this without a line
TICK = 0.5  # how often the watcher looks


def _nothing(n: int) -> None:
    """Progress nobody shows."""


def silent(what: str, total: int = 0) -> Advance:
    """A step function that shows nothing."""
    return _nothing


def english_note(into: str, i: int, total: int, units: str, pct: str, left: str | None) -> str:
    """The watcher's line, in English (``left`` None: not known yet)."""
    whole = (f"the whole report {pct} done, about {left} left" if left is not None else
             "the whole report's time left is known once a step has ended")
    return f"    … {into} into step {i}/{total}{units}; {whole}"


class Bars:
    """Steps shown as ``[i/N] what`` lines on ``file``, each followed by its own bar (with
    units done and the time left) while it runs. A step that gives no total is one line.
    Where ``file`` is no terminal (a log), each step's line is followed by its time taken
    once it ends, so a log says where the time went. In both, a line (``note``) comes at
    least every ``interval`` seconds with the time left for the whole report; ``heartbeat``
    False leaves the watching to whoever calls :meth:`poll` (the tests, on a fake
    ``clock``). Call :meth:`stop` once the last step has ended."""

    def __init__(self, total_steps: int, label: Callable[[int, int, str], str],
                 file: TextIO | None = None, *,
                 note: Callable[..., str] = english_note, interval: float = INTERVAL,
                 clock: Callable[[], float] = time.monotonic, heartbeat: bool = True):
        self.total_steps, self.label, self.note = total_steps, label, note
        self.file = file if file is not None else sys.stderr
        self.interval, self.clock = float(interval), clock
        self.count = 0
        self._bar: Any = None
        self._tty = bool(getattr(self.file, "isatty", lambda: False)())
        self._started: float | None = None  # the running step's start
        self._begun: float | None = None  # the first step's start
        self._last = 0.0  # when a line was last written
        self._done = self._length = 0  # the running step's units, done and in all
        self._lock = threading.RLock()
        self._heartbeat = heartbeat
        self._thread: threading.Thread | None = None
        self._stopped = threading.Event()

    def _echo(self, text: str) -> None:
        """Write a line (under the lock); on a terminal, above the running bar."""
        bar = self._bar if self._tty else None
        if bar is not None:
            self.file.write("\r\x1b[K")
        click.echo(text, file=self.file)
        self._last = self.clock()
        if bar is not None:
            bar.render_progress()

    def fraction(self) -> float:
        """The share of the report done: each step one equal part, the running one in
        proportion to its units done (one that counts none: t / (t + m) after t seconds,
        m the mean time of the steps ended, so half done at the mean)."""
        if not self.count:
            return 0.0
        if self._length:
            within = min(1.0, self._done / self._length)
        elif self.count > 1 and self._started is not None and self._begun is not None:
            t = self.clock() - self._started
            m = (self._started - self._begun) / (self.count - 1)
            within = t / (t + m) if t + m > 0 else 0.0
        else:
            within = 0.0
        return min(1.0, (self.count - 1 + within) / max(1, self.total_steps))

    def left(self, now: float) -> float | None:
        """Seconds left for the whole report, from its share done so far (None before any
        share is done)."""
        f = self.fraction()
        if self._begun is None or f <= 0:
            return None
        return (now - self._begun) * (1 - f) / f

    def poll(self) -> None:
        """Write the note line if the next look would come more than ``interval`` seconds
        after the last line (the watcher looks every :data:`TICK` seconds, and a loaded
        machine wakes it late: so the line comes a little early, never late)."""
        with self._lock:
            if self._started is None:
                return
            now = self.clock()
            if now - self._last < self.interval - min(2 * TICK, self.interval / 2):
                return
            units = f" ({self._done:,}/{self._length:,})" if self._length else ""
            left = self.left(now)
            self._echo(self.note(into=clock_text(now - self._started), i=self.count,
                                 total=self.total_steps, units=units,
                                 pct=f"{self.fraction():.0%}",
                                 left=None if left is None else clock_text(left)))

    def _watch(self) -> None:
        while not self._stopped.wait(min(TICK, self.interval / 2)):
            self.poll()

    def close(self) -> None:
        """End the running step's bar (in a log: write the time it took)."""
        with self._lock:
            if self._bar is not None:
                self._bar.__exit__(None, None, None)
                self._bar = None
            if self._started is not None and not self._tty:
                self._echo(f"    {self.clock() - self._started:.1f} s")
            self._started = None

    def stop(self) -> None:
        """End the last step and the watcher."""
        self.close()
        self._stopped.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __call__(self, what: str, total: int = 0) -> Advance:
        with self._lock:
            self.close()
            self.count += 1
            self._echo(self.label(self.count, self.total_steps, what))
            self._started = self.clock()
            if self._begun is None:
                self._begun = self._started
            self._done, self._length = 0, max(0, int(total))
            if self._heartbeat and self._thread is None and not self._stopped.is_set():
                self._thread = threading.Thread(target=self._watch, name="report-progress",
                                                daemon=True)
                self._thread.start()
            if total <= 0:
                return _nothing
            bar = click.progressbar(length=int(total), file=self.file, show_eta=True,
                                    show_pos=True, show_percent=True, width=24,
                                    hidden=not self._tty)  # a log gets the lines only
            bar.__enter__()
            self._bar = bar

        def advance(n: int) -> None:
            with self._lock:
                self._done += int(n)
                if self._bar is bar:
                    bar.update(int(n))

        return advance
