"""The kernels' dispatcher compiles a callee once per argument type, not once per constant."""

from __future__ import annotations

import numba
import numpy as np
from numba.core import types

from kernels.jit import KernelDispatcher, njit, widened


def _pair(decorate):
    """A callee and a caller that passes it constants and variables of the same types."""
    inner = decorate(lambda x, t, flag: x + t[1] + (1 if flag else 0))

    def outer_py(y, t):
        return inner(0, (t, 0), False) + inner(y, (t, y), True) + inner(y, (t, 4), flag=True)

    return inner, decorate(outer_py)


def test_constants_share_one_build():
    inner, outer = _pair(njit)
    assert isinstance(inner, KernelDispatcher)
    assert outer(np.int64(3), np.int64(2)) == 0 + 0 + 0 + 3 + 3 + 1 + 3 + 4 + 1
    assert len(inner.signatures) == 1
    assert all(not isinstance(t, types.Literal) for t in inner.signatures[0])


def test_numbas_own_dispatcher_builds_per_constant():
    """The check above has teeth: Numba's dispatcher compiles the same calls more than once."""
    inner, outer = _pair(numba.njit)
    outer(np.int64(3), np.int64(2))
    assert len(inner.signatures) > 1


def test_widened_reaches_into_tuples_and_keeps_named_tuples():
    lit = types.literal(0)
    assert widened(types.Tuple([types.int64, lit])) == types.UniTuple(types.int64, 2)
    from kernels.shengji.verbs import Rules

    rules = numba.typeof(Rules(np.zeros(3), np.zeros(2, dtype=np.int64), 1))
    assert widened(rules) == rules
