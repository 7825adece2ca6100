"""xoshiro256** random streams carried in arrays, seeded from ``SeedSequence`` children.

Each chunk of work owns one ``uint64[4]`` state; ``bounded`` draws unbiased integers
below ``n`` (Lemire's multiply-and-reject on 32-bit draws). All functions here are
jit-compiled and take arrays and integers only.
"""

from __future__ import annotations

import numpy as np

from .jit import njit

_M64 = np.uint64(0xFFFFFFFFFFFFFFFF)


@njit(inline="always", cache=True)
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit(cache=True)
def splitmix64(x):
    """One splitmix64 step: returns (next_state, output)."""
    x = x + np.uint64(0x9E3779B97F4A7C15)
    z = x
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x, z ^ (z >> np.uint64(31))


@njit(inline="always", cache=True)
def next_u64(s):
    """Next 64-bit output of the xoshiro256** state ``s`` (advanced in place)."""
    result = _rotl(s[1] * np.uint64(5), 7) * np.uint64(9)
    t = s[1] << np.uint64(17)
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = _rotl(s[3], 45)
    return result


@njit(inline="always", cache=True)
def bounded(s, n):
    """An unbiased integer in ``[0, n)`` for ``1 <= n < 2**32``."""
    nn = np.uint64(n)
    m = (next_u64(s) >> np.uint64(32)) * nn
    low = m & np.uint64(0xFFFFFFFF)
    if low < nn:
        threshold = (np.uint64(0x100000000) - nn) % nn
        while low < threshold:
            m = (next_u64(s) >> np.uint64(32)) * nn
            low = m & np.uint64(0xFFFFFFFF)
    return np.int64(m >> np.uint64(32))


@njit(cache=True)
def seed_state(word, out):
    """Fill ``out`` (uint64[4]) from one 64-bit seed word by splitmix64."""
    x = np.uint64(word)
    for i in range(4):
        x, out[i] = splitmix64(x)


def states_from_seed(seed: int | np.random.SeedSequence, n_streams: int) -> np.ndarray:
    """``n_streams`` independent xoshiro states: one spawned SeedSequence child each."""
    ss = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    out = np.empty((n_streams, 4), dtype=np.uint64)
    for i, child in enumerate(ss.spawn(n_streams)):
        seed_state(child.generate_state(1, dtype=np.uint64)[0], out[i])
    return out


def states_for_chunks(seed: int, first: int, count: int) -> np.ndarray:
    """Streams of chunks ``first .. first + count - 1`` of a run: the same as rows
    ``first:first + count`` of ``states_from_seed(seed, n)``, without spawning the others."""
    out = np.empty((count, 4), dtype=np.uint64)
    for i in range(count):
        child = np.random.SeedSequence(seed, spawn_key=(first + i,))
        seed_state(child.generate_state(1, dtype=np.uint64)[0], out[i])
    return out
