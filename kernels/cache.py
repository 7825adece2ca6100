"""Where compiled kernels are cached: one folder per game, named after its sources.

Numba checks only the source file of the function it compiled, not the kernels that
function calls from other modules. So each game's kernels (``kernels/<game>/``) are cached
in a folder named after a hash of that game's sources and the shared ones (``kernels/*.py``):
change any of them and that game's kernels are rebuilt, the other games' are not. The shared
modules' own entries go to a folder of their own (``shared``), except the drivers'
(:mod:`kernels.drivers`): they are compiled once per game with that game's verbs inside, so
their folder (``drivers``) is named after every kernel source. The folders are under
``NUMBA_CACHE_DIR`` when that is set, else beside this package when it is writable, else in
the user's cache directory.

:func:`install` only registers the locator with Numba; folders are found (and stale ones of
the same game pruned) when Numba first caches a kernel of that game.
"""

from __future__ import annotations

import functools
import hashlib
import os
import shutil
from pathlib import Path
from typing import Any

from numba.core import caching

_HERE = Path(__file__).resolve().parent
SHARED = "shared"
DRIVERS = "drivers"  # the shared drivers, compiled per game: cached by every source


def game_of(py_file: str | os.PathLike[str]) -> str | None:
    """The game whose kernels live in ``py_file`` (``shared`` for ``kernels/*.py``)."""
    path = Path(py_file).resolve()
    if path.parent == _HERE:
        return DRIVERS if path.stem == DRIVERS else SHARED
    if path.parent.parent == _HERE:
        return path.parent.name
    return None


def cache_dir(game: str) -> Path:
    """The cache folder of ``game``'s kernels for the current sources."""
    digest = hashlib.sha256()
    if game == DRIVERS:
        own = sorted(_HERE.glob("*/*.py"))
    else:
        own = [] if game == SHARED else sorted((_HERE / game).glob("*.py"))
    for src in sorted(_HERE.glob("*.py")) + own:
        digest.update(src.name.encode())
        digest.update(src.read_bytes())
    name = f"xianniu-kernels-{game}-{digest.hexdigest()[:16]}"
    if os.environ.get("NUMBA_CACHE_DIR"):
        return Path(os.environ["NUMBA_CACHE_DIR"]) / name
    local = _HERE / "__pycache__"
    try:
        local.mkdir(exist_ok=True)
        probe = local / f".write-test-{os.getpid()}"
        probe.touch()
        probe.unlink()
        return local / name
    except OSError:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
        return base / "xianniu" / name


def prune_stale(current: Path, game: str) -> None:
    """Remove caches of ``game``'s earlier kernel sources beside the current one."""
    if current.exists() or not current.parent.is_dir():
        return
    for old in current.parent.glob(f"xianniu-kernels-{game}-*"):
        shutil.rmtree(old, ignore_errors=True)


# Numba renamed these from private to public names in 0.6x; accept both.
_UserLocator: Any = getattr(caching, "UserProvidedCacheLocator", None) or \
    getattr(caching, "_UserProvidedCacheLocator")  # noqa: B009 (older Numba's name)
_CacheImpl: Any = getattr(caching, "CacheImpl", None) or \
    getattr(caching, "_CacheImpl")  # noqa: B009


def announce_compiles(callback) -> None:
    """Call ``callback(game)`` once per game when Numba starts compiling one of its kernels
    (loading from the cache compiles nothing), so a command line can say why a first call
    is slow."""
    from numba.core import event

    said: set[str] = set()

    class _Listener(event.Listener):
        def on_start(self, ev):
            dispatcher = ev.data.get("dispatcher")
            py_func = getattr(dispatcher, "py_func", None)
            game = game_of(py_func.__code__.co_filename) if py_func is not None else None
            if game not in (None, SHARED, DRIVERS) and game not in said:
                said.add(game)
                callback(game)

        def on_end(self, ev):
            pass

    event.register("numba:compile", _Listener())


@functools.cache
def _folder(game: str) -> Path:
    folder = cache_dir(game)
    prune_stale(folder, game)
    return folder


class GameCacheLocator(_UserLocator):
    """Numba cache locator for functions defined under ``kernels/``: the game's folder."""

    def __init__(self, py_func, py_file):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = str(_folder(game_of(py_file)) / Path(py_file).stem)

    @classmethod
    def from_function(cls, py_func, py_file):
        if game_of(py_file) is None:
            return None
        self = cls(py_func, py_file)
        try:
            self.ensure_cache_path()
        except OSError:
            return None
        return self


def install() -> None:
    """Make Numba cache every kernel under ``kernels/`` in its game's folder (idempotent)."""
    locators = _CacheImpl._locator_classes
    if GameCacheLocator not in locators:
        locators.insert(0, GameCacheLocator)
