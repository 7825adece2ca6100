"""Where compiled kernels are cached."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from kernels import cache


def test_cache_under_numba_cache_dir(monkeypatch, tmp_path):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    d = cache.cache_dir("xianniu")
    assert d.parent == tmp_path and d.name.startswith("xianniu-kernels-xianniu-")


def test_cache_falls_back_to_user_dir_when_package_is_read_only(monkeypatch, tmp_path):
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))

    def refuse(self, *a, **k):
        raise PermissionError("read-only file system")

    monkeypatch.setattr(Path, "touch", refuse)
    d = cache.cache_dir("dingniu")
    assert d.parent == tmp_path / "xianniu"


@pytest.mark.parametrize("edited_game, same_game, other_game", [
    ("xianniu", "xianniu", "dingniu"), ("dingniu", "dingniu", "xianniu")])
def test_cache_name_follows_own_and_shared_sources_only(monkeypatch, tmp_path, edited_game,
                                                        same_game, other_game):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    before = {g: cache.cache_dir(g) for g in ("xianniu", "dingniu")}
    src = Path(cache.__file__).parent / edited_game
    real = Path.read_bytes

    def edited(self):
        data = real(self)
        return data + b"\n# edited\n" if self.parent == src and self.name == "game.py" else data

    monkeypatch.setattr(Path, "read_bytes", edited)
    assert cache.cache_dir(same_game) != before[same_game]
    assert cache.cache_dir(other_game) == before[other_game]


def test_shared_source_changes_every_game(monkeypatch, tmp_path):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    before = {g: cache.cache_dir(g) for g in ("xianniu", "dingniu")}
    real = Path.read_bytes
    rng = Path(cache.__file__).with_name("rng.py")
    monkeypatch.setattr(Path, "read_bytes",
                        lambda self: real(self) + (b"#" if self == rng else b""))
    assert all(cache.cache_dir(g) != d for g, d in before.items())


def test_stale_caches_of_the_same_game_are_pruned(tmp_path):
    old = tmp_path / "xianniu-kernels-dingniu-0000"
    other = tmp_path / "xianniu-kernels-xianniu-0000"
    for d in (old, other):
        d.mkdir()
        (d / "x.nbi").write_text("stale")
    cache.prune_stale(tmp_path / "xianniu-kernels-dingniu-1111", "dingniu")
    assert not old.exists() and other.exists()


def test_locator_routes_each_kernel_to_its_game(tmp_path, monkeypatch):
    root = Path(cache.__file__).parent
    assert cache.game_of(root / "xianniu" / "game.py") == "xianniu"
    assert cache.game_of(root / "dingniu" / "game.py") == "dingniu"
    assert cache.game_of(root / "rng.py") == cache.SHARED
    assert cache.game_of(tmp_path / "other.py") is None


def test_compiled_kernels_land_in_their_games_folder():
    import numba

    from kernels.dingniu import game as kd
    from kernels.rng import seed_state

    out = np.empty(4, dtype=np.uint64)
    seed_state(np.uint64(3), out)
    dispatcher = next(v for v in vars(kd).values()
                      if isinstance(v, numba.core.registry.CPUDispatcher)
                      and v.py_func.__module__ == kd.__name__)
    path = Path(dispatcher._cache._cache_path)
    assert path.parent.name.startswith("xianniu-kernels-dingniu-")
    assert Path(seed_state._cache._cache_path).parent.name.startswith(
        "xianniu-kernels-shared-")


def test_a_compile_is_announced_once_per_game_and_a_cli_check_ignores_it(capsys):
    """announce_compiles names the game whose kernel starts compiling, once; the shared CLI
    checks drop that notice, so a test passes whichever test met the cold cache first."""
    import numba
    from cli_checks import run

    from kernels.cache import announce_compiles

    said = []
    announce_compiles(said.append)
    fake = Path(cache.__file__).parent / "dingniu" / "announce_probe.py"
    scope: dict = {}
    exec(compile("def probe(x):\n    return x + 1\n", str(fake), "exec"), scope)
    first, second = numba.njit(scope["probe"]), numba.njit(lambda x: x - 1)
    assert first(1) == 2 and first(2.5) == 3.5 and second(1) == 0
    assert said == ["dingniu"]  # two compiles of a 顶牛 kernel, one notice; none for others
    from analyzer.cli import _say_compiling
    _say_compiling("dingniu")
    rc, out, err = run(capsys, "dingniu", "--help")
    assert rc == 0 and err == "" and out.strip()
