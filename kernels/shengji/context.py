"""Trump context tables (docs/rules/shengji.md §2): effective suit (门) and ladder rung per face.

A context is one int64 array built from integers (trump T 0..3 or 4 = 无主 NT, level L
2..14, the ``nt_level_joker_tractor`` flag), cheap enough to rebuild when 扒鸡窝 changes T
mid-hand. Layout (offsets ``CX_*``):

- ``CX_ESUIT + f``: effective suit of face ``f``, 0..3 plain, 4 = 主 (trump);
- ``CX_RUNG + f``: rung of ``f`` inside its effective suit — strength and tractor adjacency
  (plain 0..11 with L removed; 主: 0..11 the T suit, 12 副级, 13 主级, 14 小王, 15 大王; NT:
  level cards on 12, or 13 with the flag);
- ``CX_HIGHER + f``: mask of the faces of f's effective suit on a strictly higher rung;
- ``CX_SUIT_MASK + e``: mask of the faces of effective suit ``e``;
- ``CX_RUNG_FACES + 16*e + r``: mask of the faces of suit ``e`` on rung ``r`` (several on
  the shared 副级 rung and on the NT level rung);
- ``CX_TRUMP``, ``CX_LEVEL``, ``CX_NT_FLAG``: the integers it was built from.
"""

from __future__ import annotations

import numpy as np

from ..jit import njit

N_FACES = 54
TRUMP = 4  # effective suit 主
NT = 4  # trump spec 无主
N_RUNGS = 16

CX_ESUIT = 0
CX_RUNG = CX_ESUIT + N_FACES
CX_HIGHER = CX_RUNG + N_FACES
CX_SUIT_MASK = CX_HIGHER + N_FACES
CX_RUNG_FACES = CX_SUIT_MASK + 5
CX_TRUMP = CX_RUNG_FACES + 5 * N_RUNGS
CX_LEVEL = CX_TRUMP + 1
CX_NT_FLAG = CX_LEVEL + 1
CX_SIZE = CX_NT_FLAG + 1


@njit(cache=True)
def fill_context(trump, level, nt_flag, ctx):
    """Write the tables of (T, L, flag) into ``ctx`` (int64[CX_SIZE])."""
    ctx[:] = 0
    for f in range(N_FACES):
        if f >= 52:
            e, r = TRUMP, f - 38  # 小王 14, 大王 15
        else:
            suit, rank = f // 13, f % 13 + 2
            if rank == level:
                e = TRUMP
                if trump == NT:
                    r = 13 if nt_flag else 12
                else:
                    r = 13 if suit == trump else 12
            else:
                e = TRUMP if suit == trump else suit
                r = rank - 2 if rank < level else rank - 3  # L-1 and L+1 become adjacent
        ctx[CX_ESUIT + f] = e
        ctx[CX_RUNG + f] = r
        ctx[CX_SUIT_MASK + e] |= np.int64(1) << f
        ctx[CX_RUNG_FACES + N_RUNGS * e + r] |= np.int64(1) << f
    for f in range(N_FACES):
        e = ctx[CX_ESUIT + f]
        h = np.int64(0)
        for r in range(ctx[CX_RUNG + f] + 1, N_RUNGS):
            h |= ctx[CX_RUNG_FACES + N_RUNGS * e + r]
        ctx[CX_HIGHER + f] = h
    ctx[CX_TRUMP] = trump
    ctx[CX_LEVEL] = level
    ctx[CX_NT_FLAG] = 1 if nt_flag else 0


@njit(cache=True)
def new_context(trump, level, nt_flag):
    """A fresh context array for (T, L, flag)."""
    ctx = np.empty(CX_SIZE, dtype=np.int64)
    fill_context(trump, level, nt_flag, ctx)
    return ctx


@njit(cache=True)
def suit_mask(ctx, e):
    """Mask of the faces of effective suit ``e``."""
    return ctx[CX_SUIT_MASK + e]


@njit(cache=True)
def higher(ctx, f):
    """Mask of the faces of f's effective suit on a strictly higher rung."""
    return ctx[CX_HIGHER + f]
