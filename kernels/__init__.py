"""Numba kernels, one folder per game (``kernels.xianniu``, ``kernels.dingniu``) over shared
random streams (:mod:`kernels.rng`). Kernels take arrays and integers and import nothing
from ``analyzer``.

Importing this package registers where compiled kernels are cached (:mod:`kernels.cache`,
one folder per game); it reads and writes no file. A game's kernels compile on first use.
"""

from .cache import install as _install_cache

_install_cache()
