"""The kernels' dispatcher compiles a callee once per tuple type, not once per constant in a
tuple; a constant alone keeps its own build (the callee folds it)."""

from __future__ import annotations

import numba
import numpy as np
from numba.core import types

from kernels.jit import KernelDispatcher, njit, widened


def _pair(decorate):
    """A callee and a caller that passes it tuples holding constants and variables."""
    inner = decorate(lambda x, t: x + t[1])

    def outer_py(y, t):
        return inner(y, (t, 0)) + inner(y, (t, y)) + inner(y, t=(t, 4))

    return inner, decorate(outer_py)


def test_constants_in_tuples_share_one_build():
    inner, outer = _pair(njit)
    assert isinstance(inner, KernelDispatcher)
    assert outer(np.int64(3), np.int64(2)) == 3 + 0 + 3 + 3 + 3 + 4
    assert len(inner.signatures) == 1
    assert inner.signatures[0][1] == types.UniTuple(types.int64, 2)


def test_numbas_own_dispatcher_builds_per_constant():
    """The check above has teeth: Numba's dispatcher compiles the same calls more than once."""
    inner, outer = _pair(numba.njit)
    outer(np.int64(3), np.int64(2))
    assert len(inner.signatures) > 1


def test_a_constant_alone_keeps_its_build():
    """A constant argument on its own is Numba's literal, so that the callee can fold it."""
    inner = njit(lambda x, k: x * k)
    outer = njit(lambda y: inner(y, 4) + inner(y, y))
    assert outer(np.int64(3)) == 12 + 9
    assert len(inner.signatures) == 2
    assert types.literal(4) in {s[1] for s in inner.signatures}


def test_widened_reaches_into_tuples_and_keeps_named_tuples():
    lit = types.literal(0)
    assert widened(types.Tuple([types.int64, lit])) == types.UniTuple(types.int64, 2)
    from kernels.shengji.verbs import Rules

    rules = numba.typeof(Rules(np.zeros(3), np.zeros(2, dtype=np.int64), 1))
    assert widened(rules) == rules
