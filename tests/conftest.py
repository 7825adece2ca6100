"""Shared helpers (``cli_checks``) live beside this file; make them importable from every
game's test folder, and the test modules as ``tests.…`` however pytest is started (``pytest``
as well as ``python -m pytest``). Shared fixtures: ``nrt_counts``; every test's library of
hands is a file of its own (``XIANNIU_LIBRARY``), never the user's."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(1, str(Path(__file__).parent.parent))


@pytest.fixture(autouse=True)
def own_library(tmp_path_factory, monkeypatch):
    """``XIANNIU_LIBRARY`` points at a fresh file (commands run in subprocesses too)."""
    monkeypatch.setenv("XIANNIU_LIBRARY", str(tmp_path_factory.mktemp("lib") / "lib.sqlite"))


@pytest.fixture
def nrt_counts():
    """Numba's allocation counters switched on for the test: returns the function that reads
    them (``alloc``, ``free``, ``mi_alloc``, ``mi_free``)."""
    from numba.core.runtime import _nrt_python, rtsys

    was_on = _nrt_python.memsys_stats_enabled()
    _nrt_python.memsys_enable_stats()
    yield rtsys.get_allocation_stats
    if not was_on:
        _nrt_python.memsys_disable_stats()
