"""Atomic writes: whole files, ordinary permissions, nothing left behind on failure."""

from __future__ import annotations

import os
import stat

import pytest

from analyzer.core.fileio import write_atomic


def test_written_file_has_ordinary_permissions(tmp_path):
    plain = tmp_path / "plain.txt"
    plain.write_text("x")
    atomic = tmp_path / "atomic.txt"
    write_atomic(atomic, "x")
    assert stat.S_IMODE(atomic.stat().st_mode) == stat.S_IMODE(plain.stat().st_mode)
    assert atomic.read_text() == "x"


def test_failed_write_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    target = tmp_path / "result.json"
    write_atomic(target, "old")

    def fail(fd):
        raise OSError("disk gone")

    monkeypatch.setattr(os, "fsync", fail)
    with pytest.raises(OSError):
        write_atomic(target, "new")
    assert target.read_text() == "old"
    assert os.listdir(tmp_path) == ["result.json"]
