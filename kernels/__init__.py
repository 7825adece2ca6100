"""Numba kernels: bitmask hands, dealing and whole-hand play-outs.

Compiled kernels are cached on disk. Numba checks only the source file of the function
it compiled, not the kernels that function calls from other modules, so the cache lives in
a folder named after a hash of all kernel sources: change any kernel and every cached kernel
is rebuilt. The folder is under ``NUMBA_CACHE_DIR`` when that is set, else beside this
package when it is writable, else in the user's cache directory.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import numba


def _cache_dir() -> Path:
    here = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for src in sorted(here.glob("*.py")):
        digest.update(src.name.encode())
        digest.update(src.read_bytes())
    name = f"xianniu-kernels-{digest.hexdigest()[:16]}"
    if os.environ.get("NUMBA_CACHE_DIR"):
        return Path(os.environ["NUMBA_CACHE_DIR"]) / name
    local = here / "__pycache__"
    try:
        local.mkdir(exist_ok=True)
        probe = local / f".write-test-{os.getpid()}"
        probe.touch()
        probe.unlink()
        return local / name
    except OSError:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
        return base / "xianniu" / name


def _prune_stale(current: Path) -> None:
    """Remove caches of earlier kernel sources beside the current one (best effort)."""
    if current.exists() or not current.parent.is_dir():
        return
    for old in current.parent.glob("xianniu-kernels-*"):
        shutil.rmtree(old, ignore_errors=True)


CACHE_DIR = _cache_dir()
_prune_stale(CACHE_DIR)
numba.config.CACHE_DIR = str(CACHE_DIR)
