"""Batches of random streams: how a run is cut so that it can show progress as it goes."""

from __future__ import annotations

from collections.abc import Iterator


def chunk_batches(n: int, chunk: int, per_batch: int) -> Iterator[tuple[int, int, int, int]]:
    """The batches of ``per_batch`` streams of ``chunk`` hands each over ``n`` hands:
    ``(first stream, end stream, first hand, end hand)``. Each stream plays its own hands
    whatever the batching, so a run in batches (to show progress) plays the same hands.

    >>> list(chunk_batches(10, 4, 2))
    [(0, 2, 0, 8), (2, 3, 8, 10)]
    """
    n_chunks = -(-n // chunk)
    for a in range(0, n_chunks, per_batch):
        z = min(a + per_batch, n_chunks)
        yield a, z, a * chunk, min(z * chunk, n)
