"""The two builds of a kernel that say how Numba counts its references.

Numba counts a reference up and down, with atomic operations, for every array an
out-of-line call passes or a tuple unpacks. A kernel that allocates nothing can do without
(:data:`njit_uncounted`: ``njit(cache=True, _nrt=False)``); one that allocates needs the
counts. A kernel that says neither is compiled as its first caller is compiled, so one that
allocates and is called from an uncounted kernel says so (:data:`njit_counted`).
``tests/core/test_nrt.py`` checks that no uncounted kernel reaches an allocation.
"""

from __future__ import annotations

from numba import njit

# ``_nrt`` is not in Numba's type stubs
njit_uncounted = njit(cache=True, _nrt=False)  # type: ignore[call-overload]
njit_counted = njit(cache=True, _nrt=True)  # type: ignore[call-overload]
