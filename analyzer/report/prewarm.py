"""Compile the later sections' kernels in the background while the first section runs.

On a fresh install most of a first report's time is compiling, one game after another, on
one core (Numba compiles in one thread), while the batch kernels of the section that runs
use every core only between compiles. One background process, at a lower priority, compiles
(or loads from the cache) the kernels of the games whose sections come later, one game after
another; Numba caches what it compiles, so when the report reaches that game its kernels
load from the cache. A warm cache costs the background process about a second a game. It
is stopped when the report ends, and nothing depends on it: a kernel it has not reached yet
is compiled by the report as before.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterable

_CODE = ("import sys\n"
         "from analyzer.games import get_game\n"
         "for name in sys.argv[1:]:\n"
         "    get_game(name).part('warmup').warmup()\n")


def _lower_priority() -> None:  # runs in the child, before it starts
    with contextlib.suppress(OSError):
        os.nice(10)


class Prewarm:
    """The background compile of ``games`` (in order); a context manager that stops it."""

    def __init__(self, games: Iterable[str]):
        self.games = list(games)
        self.proc: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> Prewarm:
        if self.games:
            try:
                self.proc = subprocess.Popen(
                    [sys.executable, "-c", _CODE, *self.games], stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                    preexec_fn=_lower_priority if os.name == "posix" else None)
            except OSError:
                self.proc = None  # no background: the report compiles as it goes
        return self

    def __exit__(self, *exc: object) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
