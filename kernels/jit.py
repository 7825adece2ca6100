"""How every kernel is compiled: :func:`njit`, and the two builds that say how Numba counts
a kernel's references.

**One build per tuple type, not per constant inside a tuple.** Numba types a constant
written at a call site as a literal and compiles the callee, and every layer below it, once
per constant it meets and once more for a variable. A constant alone (``f(x, 0)``,
``h(False)``) keeps that build: the callee then folds it (a loop of ``4``, a branch on a
mode), and whole hands ran measurably faster with it. A constant inside a tuple
(``g((plays, 0))``) gains nothing of the kind and made the search's largest functions
compile twice, so :class:`KernelDispatcher` types a tuple argument of a call from compiled
code with its constants widened (``Literal[int](0)`` to ``int64``).

**Reference counts.** Numba counts a reference up and down, with atomic operations, for
every array an out-of-line call passes or a tuple unpacks. A kernel that allocates nothing
can do without (:data:`njit_uncounted`: ``njit(cache=True, _nrt=False)``); one that
allocates needs the counts. A kernel that says neither is compiled as its first caller is
compiled, so one that allocates and is called from an uncounted kernel says so
(:data:`njit_counted`). ``tests/core/test_nrt.py`` checks that no uncounted kernel reaches
an allocation.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from numba.core import config, types
from numba.core.registry import CPUDispatcher


def widened(ty: Any) -> Any:
    """``ty`` without literal values, inside tuples too (a named tuple keeps its class)."""
    if isinstance(ty, types.BaseTuple):
        members: Any = ty  # a Numba tuple type iterates over its members' types
        return types.BaseTuple.from_types([widened(t) for t in members],
                                          getattr(ty, "instance_class", None))
    return types.unliteral(ty)


class KernelDispatcher(CPUDispatcher):
    """Numba's CPU dispatcher, typing a tuple argument of a call from compiled code on its
    widened type."""

    def get_call_template(self, args, kws):
        return super().get_call_template([_tuple_widened(a) for a in args],
                                         {k: _tuple_widened(v) for k, v in kws.items()})


def _tuple_widened(ty: Any) -> Any:
    """A tuple type widened; any other type as it is (a constant alone keeps its build)."""
    return widened(ty) if isinstance(ty, types.BaseTuple) else ty


def njit(function: Callable | None = None, *, cache: bool = False, **options: Any) -> Any:
    """``numba.njit`` (``cache``, ``nogil``, ``inline``, ``_nrt``, …) building a
    :class:`KernelDispatcher`; used bare (``@njit``) or with options."""
    def wrap(func: Callable) -> Any:
        if getattr(config, "DISABLE_JIT", False):  # set from NUMBA_DISABLE_JIT
            return func
        disp = KernelDispatcher(py_func=func, locals={},
                                targetoptions={"nopython": True, **options})
        if cache:
            disp.enable_caching()
        return disp

    return wrap if function is None else wrap(function)


njit_uncounted = njit(cache=True, _nrt=False)
njit_counted = njit(cache=True, _nrt=True)
