"""The shared chunk driver: every chunk once, any thread count, errors raised."""

from __future__ import annotations

import threading

import numba
import numpy as np
import pytest
from numba import njit

from kernels.parallel import for_each_chunk


@njit(nogil=True)
def _fill(c, out, width):
    for i in range(width):
        out[c, i] = c * 1000 + i


@pytest.fixture(params=[1, 2])
def threads(request):
    before = numba.get_num_threads()
    numba.set_num_threads(min(request.param, numba.config.NUMBA_NUM_THREADS))
    yield request.param
    numba.set_num_threads(before)


def test_every_chunk_runs_once(threads):
    out = np.full((37, 5), -1, dtype=np.int64)
    for_each_chunk(_fill, 37, out, 5)
    assert (out == np.arange(37)[:, None] * 1000 + np.arange(5)).all()


def test_chunks_spread_over_threads_and_each_runs_once(threads):
    seen: list[tuple[int, str]] = []
    lock = threading.Lock()

    def record(c):
        with lock:
            seen.append((c, threading.current_thread().name))

    for_each_chunk(record, 50)
    assert sorted(c for c, _ in seen) == list(range(50))


def test_zero_chunks_do_nothing(threads):
    for_each_chunk(lambda c: (_ for _ in ()).throw(AssertionError("called")), 0)


def test_an_error_in_a_chunk_is_raised_and_stops_the_rest(threads):
    done: list[int] = []

    def work(c):
        if c == 3:
            raise ValueError("chunk 3 failed")
        done.append(c)

    with pytest.raises(ValueError, match="chunk 3 failed"):
        for_each_chunk(work, 10_000)
    assert len(done) < 10_000 - 1
