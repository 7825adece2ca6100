"""Benchmark helpers every game's ``bench`` uses: median rates on all threads and on one, and
the time of a first call in a fresh interpreter on a given kernel cache.

Machines are shared and noisy, so each rate is the median of several repeats.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import numba


def median_rate(fn: Callable[[], object], work: int, repeats: int) -> float:
    """``work`` units divided by the median time of ``repeats`` calls of ``fn``."""
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return work / statistics.median(times)


@contextmanager
def threads(n: int) -> Iterator[None]:
    """Run the kernels on ``n`` threads inside the block."""
    old = numba.get_num_threads()
    numba.set_num_threads(n)
    try:
        yield
    finally:
        numba.set_num_threads(old)


def rates_all_and_one(runs: dict[str, tuple[Callable[[], object], int]],
                      repeats: int) -> dict[str, float]:
    """``{name}_per_s_all`` and ``{name}_per_s_one`` for each ``name: (fn, work)``, on every
    thread Numba may use and then on one (each ``fn`` called once before timing, so that
    compiling or loading from the cache is not timed)."""
    for fn, _ in runs.values():
        fn()
    out: dict[str, float] = {}
    all_threads = numba.config.NUMBA_NUM_THREADS  # type: ignore[attr-defined]  # set at import
    for suffix, n in (("all", all_threads), ("one", 1)):
        with threads(n):
            for name, (fn, work) in runs.items():
                out[f"{name}_per_s_{suffix}"] = median_rate(fn, work, repeats)
    return out


def first_call_seconds(code: str, cache_dir: str) -> float:
    """Seconds ``code`` prints (its last line) when run in a fresh interpreter whose kernels
    are cached in ``cache_dir``."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def cold_and_warm(code: str) -> dict[str, float]:
    """``cold_first_call_s`` on an empty kernel cache, then ``warm_first_call_s`` on the cache
    that run left."""
    with tempfile.TemporaryDirectory(prefix="xianniu-bench-cache-") as d:
        return {"cold_first_call_s": first_call_seconds(code, d),
                "warm_first_call_s": first_call_seconds(code, d)}
