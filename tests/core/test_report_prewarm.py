"""The report's background compile: it runs the later games' warmups and stops with the report."""

from __future__ import annotations

import sys
import time

from analyzer.report import prewarm
from analyzer.report.prewarm import Prewarm


def test_the_background_compile_runs_each_game_and_is_stopped(monkeypatch, tmp_path):
    log = tmp_path / "log"
    # A stand-in for the warmups, so the test needs no kernels: it writes each game, then
    # sleeps long enough that only the context manager's exit can end it.
    monkeypatch.setattr(prewarm, "_CODE", "import sys, time\n"
                        f"open({str(log)!r}, 'w').write(' '.join(sys.argv[1:]))\n"
                        "time.sleep(60)\n")
    t0 = time.perf_counter()
    with Prewarm(["dingniu", "shengji"]) as p:
        assert p.proc is not None
        for _ in range(200):
            if log.exists() and log.read_text():
                break
            time.sleep(0.05)
    assert log.read_text() == "dingniu shengji"
    assert p.proc.poll() is not None  # stopped, not left running
    assert time.perf_counter() - t0 < 30


def test_no_games_no_process():
    with Prewarm([]) as p:
        assert p.proc is None


def test_the_child_code_runs_each_games_warmup_in_order(monkeypatch):
    import analyzer.games as games

    calls = []

    class _Game:
        def __init__(self, name):
            self.name = name

        def part(self, what):
            assert what == "warmup"
            return type("W", (), {"warmup": staticmethod(lambda: calls.append(self.name))})

    monkeypatch.setattr(games, "get_game", _Game)
    monkeypatch.setattr(sys, "argv", ["-c", "dingniu", "shengji"])
    exec(prewarm._CODE, {})
    assert calls == ["dingniu", "shengji"]
