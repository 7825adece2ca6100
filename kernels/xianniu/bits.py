"""Bit-level primitives shared by the kernels: ranks, nibbles, popcounts, subset tables.

A hand is a 48-bit mask; rank ``r`` holds bits ``4r .. 4r+3`` (its "nibble"), one bit per
suit ♠ ♥ ♣ ♦, so ``nibble & 5`` are the black cards and ``nibble & 10`` the red ones.
"""

from __future__ import annotations

import numpy as np

from ..jit import njit
from .tables import KIND_NIU, KIND_SET, KIND_XI

ACE, TWO, THREE, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING = range(12)
POP4 = np.array([0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4], dtype=np.int64)


def _submask_tables():
    subs = np.zeros((16, 5, 6), dtype=np.int64)
    nsub = np.zeros((16, 5), dtype=np.int64)
    for n in range(16):
        for sub in range(1, 16):
            if sub & ~n == 0:
                k = bin(sub).count("1")
                subs[n, k, nsub[n, k]] = sub
                nsub[n, k] += 1
    return subs, nsub


# SUBS[nibble, k, :NSUB[nibble, k]]: the k-card subsets of a rank's held cards.
SUBS, NSUB = _submask_tables()


@njit(inline="always", cache=True)
def popcount(x):
    """Number of set bits of a non-negative int64 below 2**63."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101) >> 56


@njit(inline="always", cache=True)
def nib(mask, rank):
    return (mask >> (4 * rank)) & 15


@njit(inline="always", cache=True)
def same_rank_kind(rank, sub, size):
    """Kind of ``size`` cards of one rank (nibble ``sub``): 牛/喜 when both colours."""
    if (rank == NINE or rank == FIVE) and (size == 2 or size == 3) \
            and (sub & 5) != 0 and (sub & 10) != 0:
        return KIND_NIU if rank == NINE else KIND_XI
    return KIND_SET


_NIBBLE_LOW = 0x111111111111
_NIBBLE_HIGH = 0x888888888888


@njit(inline="always", cache=True)
def ranks_with_at_least(mask, k):
    """Bit ``4r + 3`` set for each rank holding at least ``k`` (1..4) cards of ``mask``."""
    x = mask - ((mask >> 1) & 0x555555555555)
    x = (x & 0x333333333333) + ((x >> 2) & 0x333333333333)  # per-nibble counts 0..4
    return (x + (8 - k) * _NIBBLE_LOW) & _NIBBLE_HIGH

