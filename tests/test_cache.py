"""Where compiled kernels are cached."""

from __future__ import annotations

from pathlib import Path

import kernels


def test_cache_under_numba_cache_dir(monkeypatch, tmp_path):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    d = kernels._cache_dir()
    assert d.parent == tmp_path and d.name.startswith("xianniu-kernels-")


def test_cache_falls_back_to_user_dir_when_package_is_read_only(monkeypatch, tmp_path):
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))

    def refuse(self, *a, **k):
        raise PermissionError("read-only file system")

    monkeypatch.setattr(Path, "touch", refuse)
    d = kernels._cache_dir()
    assert d.parent == tmp_path / "xianniu"


def test_cache_name_follows_kernel_sources(monkeypatch, tmp_path):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    first = kernels._cache_dir()
    src = Path(kernels.__file__).parent
    real = Path.read_bytes

    def edited(self):
        data = real(self)
        return data + b"\n# edited\n" if self.parent == src and self.name == "game.py" else data

    monkeypatch.setattr(Path, "read_bytes", edited)
    assert kernels._cache_dir() != first


def test_stale_caches_are_pruned(tmp_path):
    old = tmp_path / "xianniu-kernels-0000"
    old.mkdir()
    (old / "x.nbi").write_text("stale")
    kernels._prune_stale(tmp_path / "xianniu-kernels-1111")
    assert not old.exists()
