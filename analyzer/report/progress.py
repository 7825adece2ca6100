"""The report's progress on standard error: one bar per step, with its time left.

A section's ``run`` gets a :data:`StepFn`: ``advance = progress(what, total)`` starts the
step ``what`` of ``total`` units (hands, deals, positions; 0 when it cannot say) and
returns ``advance(n)``, to call as units are done. The bar shows the step's number among
all steps, the units done and an estimate of the time left from the units' rate so far.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any, TextIO

import click

Advance = Callable[[int], None]
StepFn = Callable[..., Advance]  # (what: str, total: int = 0) -> Advance


def _nothing(n: int) -> None:
    """Progress nobody shows."""


def silent(what: str, total: int = 0) -> Advance:
    """A step function that shows nothing."""
    return _nothing


class Bars:
    """Steps shown as ``[i/N] what`` lines on ``file``, each followed by its own bar (with
    units done and the time left) while it runs. A step that gives no total is one line.
    Where ``file`` is no terminal (a log), each step's line is followed by its time taken
    once it ends, so a log says where the time went."""

    def __init__(self, total_steps: int, label: Callable[[int, int, str], str],
                 file: TextIO | None = None):
        self.total_steps, self.label = total_steps, label
        self.file = file if file is not None else sys.stderr
        self.count = 0
        self._bar: Any = None
        self._tty = bool(getattr(self.file, "isatty", lambda: False)())
        self._started: float | None = None

    def close(self) -> None:
        """End the running step's bar (in a log: write the time it took)."""
        if self._bar is not None:
            self._bar.__exit__(None, None, None)
            self._bar = None
        if self._started is not None and not self._tty:
            click.echo(f"    {time.perf_counter() - self._started:.1f} s", file=self.file)
        self._started = None

    def __call__(self, what: str, total: int = 0) -> Advance:
        self.close()
        self.count += 1
        text = self.label(self.count, self.total_steps, what)
        click.echo(text, file=self.file)
        self._started = time.perf_counter()
        if total <= 0:
            return _nothing
        bar = click.progressbar(length=int(total), file=self.file, show_eta=True,
                                show_pos=True, show_percent=True, width=24,
                                hidden=not self._tty)  # a log gets the step lines only
        bar.__enter__()
        self._bar = bar

        def advance(n: int) -> None:
            bar.update(int(n))

        return advance
