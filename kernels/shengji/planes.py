"""Card multisets of the 54 faces (docs/rules/shengji.md §1) as two bit planes.

A face is ``f = 13*suit + (rank - 2)`` (♠0 ♥1 ♣2 ♦3, ranks 2..14), 52 = 小王, 53 = 大王.
A multiset of the 108 cards is ``(one, two)``: bit ``f`` of ``one`` is set when the set
holds at least one copy of ``f``, bit ``f`` of ``two`` when it holds both, so ``two ⊆ one``
and pairs (对子) are just ``two``. Planes are int64 holding bits 0..53 only: Numba turns
mixed uint64/int64 arithmetic into floats, and 54 bits fit in a non-negative int64.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from ..jit import njit

SMALL_JOKER, BIG_JOKER = 52, 53
N_FACES = 54
ALL_FACES = (1 << 54) - 1
JOKERS = (1 << SMALL_JOKER) | (1 << BIG_JOKER)
# Faces worth 5 (the fives) and 10 (tens and kings): 分牌, §1.
FIVES = sum(1 << (13 * s + 3) for s in range(4))
TENS_KINGS = sum((1 << (13 * s + 8)) | (1 << (13 * s + 11)) for s in range(4))


if TYPE_CHECKING:  # as compiled code calls them: an intrinsic's own first argument is
    # Numba's typing context
    def popcount(x: int | np.integer) -> int: ...
    def lowest_bit(x: int | np.integer) -> int: ...
    def highest_bit(x: int | np.integer) -> int: ...
else:
    @intrinsic
    def popcount(typingctx, x):
        """Number of set bits of an int64 (one machine instruction)."""
        if not isinstance(x, types.Integer):
            return None

        def codegen(context, builder, sig, args):
            return builder.ctpop(args[0])
        return types.int64(types.int64), codegen


    @intrinsic
    def lowest_bit(typingctx, x):
        """Index of the lowest set bit of a non-zero int64."""
        if not isinstance(x, types.Integer):
            return None

        def codegen(context, builder, sig, args):
            return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))
        return types.int64(types.int64), codegen


    @intrinsic
    def highest_bit(typingctx, x):
        """Index of the highest set bit of a non-zero int64."""
        if not isinstance(x, types.Integer):
            return None

        def codegen(context, builder, sig, args):
            lz = builder.ctlz(args[0], ir.Constant(ir.IntType(1), 1))
            return builder.sub(ir.Constant(ir.IntType(64), 63), lz)
        return types.int64(types.int64), codegen


@njit(cache=True)
def count(one, two):
    """Number of cards in the set."""
    return popcount(one) + popcount(two)


@njit(cache=True)
def add(one_a, two_a, one_b, two_b):
    """The union A + B as ``(one, two)``; the caller keeps every count ≤ 2."""
    return one_a | one_b, two_a | two_b | (one_a & one_b)


@njit(cache=True)
def subtract(one_a, two_a, one_b, two_b):
    """A − B as ``(one, two)`` for B ⊆ A."""
    return (one_a & ~one_b) | (two_a & ~two_b), two_a & ~one_b


@njit(cache=True)
def contains(one_a, two_a, one_b, two_b):
    """Whether B ⊆ A."""
    return (one_b & ~one_a) == 0 and (two_b & ~two_a) == 0


@njit(cache=True)
def restrict(one, two, mask):
    """The cards whose faces are in ``mask`` (e.g. one effective suit's ``suit_mask``)."""
    return one & mask, two & mask


@njit(cache=True)
def points(one, two):
    """Point cards (分牌): 5 per five, 10 per ten or king."""
    return 5 * (popcount(one & FIVES) + popcount(two & FIVES)) \
        + 10 * (popcount(one & TENS_KINGS) + popcount(two & TENS_KINGS))


@njit(cache=True)
def add_face(one, two, f):
    """The set with one more copy of face ``f`` (at most two copies)."""
    b = np.int64(1) << f
    return one | b, two | (one & b)


@njit(cache=True)
def remove_face(one, two, f):
    """The set with one copy of face ``f`` removed (``f`` must be held)."""
    b = np.int64(1) << f
    if two & b:
        return one, two & ~b
    return one & ~b, two


def planes_of(cards) -> tuple[int, int]:
    """``(one, two)`` of an iterable of faces (Python side, for callers and tests)."""
    one = two = 0
    for f in cards:
        b = 1 << int(f)
        if two & b:
            raise ValueError(f"three copies of face {f}")
        two |= one & b
        one |= b
    return one, two


def cards_of(one: int, two: int) -> tuple[int, ...]:
    """The sorted faces of a two-plane set (Python side)."""
    one, two = int(one), int(two)
    out = []
    for f in range(N_FACES):
        if one >> f & 1:
            out.append(f)
            if two >> f & 1:
                out.append(f)
    return tuple(out)
