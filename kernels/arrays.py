"""Small array helpers shared by every game's kernels.

``dst[:] = src`` between arrays makes Numba compile a shape check whose error message
formats both shapes: string, repr and concatenation code, several seconds of compile time
per kernel that holds one. These loops copy without it; callers pass equal lengths.
"""

from __future__ import annotations

from .jit import njit


@njit(cache=True, inline="always")
def copy_into(dst, src):
    """``dst[i] = src[i]`` for every ``i`` of the 1-d array ``src`` (``dst`` at least as long)."""
    for i in range(src.shape[0]):
        dst[i] = src[i]


@njit(cache=True, inline="always")
def copy_rows(dst, src):
    """``copy_into`` for 2-d arrays: ``dst[i, j] = src[i, j]`` over ``src``'s shape."""
    for i in range(src.shape[0]):
        for j in range(src.shape[1]):
            dst[i, j] = src[i, j]
