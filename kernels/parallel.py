"""The shared parallel driver: run a chunk kernel over every chunk on Numba's thread count.

A chunk kernel is ``@njit(nogil=True)`` and takes the chunk index first; each chunk owns
its random stream and its output rows, so chunks may run in any order on any thread and
the results depend on the seed alone. Threads are plain Python threads: a kernel releases
the GIL while it runs. This costs a few microseconds per chunk, where Numba's
``parallel=True`` would cost several seconds of compile time per kernel.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import numba


def for_each_chunk(chunk_kernel, n_chunks: int, *args) -> None:
    """Call ``chunk_kernel(c, *args)`` for ``c`` in ``range(n_chunks)`` on up to
    ``numba.get_num_threads()`` threads; the first error stops the others and is raised."""
    n_chunks = int(n_chunks)
    n_threads = min(numba.get_num_threads(), n_chunks)
    if n_threads <= 1:
        for c in range(n_chunks):
            chunk_kernel(c, *args)
        return
    lock = threading.Lock()
    todo = iter(range(n_chunks))
    stop = threading.Event()

    def work() -> None:
        while not stop.is_set():
            with lock:
                c = next(todo, None)
            if c is None:
                return
            try:
                chunk_kernel(c, *args)
            except BaseException:
                stop.set()
                raise

    with ThreadPoolExecutor(n_threads, thread_name_prefix="kernel-chunk") as pool:
        futures = [pool.submit(work) for _ in range(n_threads)]
        try:
            for f in futures:
                f.result()
        finally:
            stop.set()
