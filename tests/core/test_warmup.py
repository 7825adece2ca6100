"""``xianniu warmup``: the games in worker processes, longest first, failures one line each."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from analyzer import warmup as w
from analyzer.cli import cli, main
from analyzer.games import GAMES


def test_order_puts_the_longest_compile_first():
    assert w._order(["dingniu", "xianniu", "shengji"]) == ["shengji", "xianniu", "dingniu"]
    assert w._order(["dingniu", "other"]) == ["dingniu", "other"]
    assert set(w.LONGEST_FIRST) == set(GAMES)


def test_workers_report_each_failed_game_in_one_line(capsys):
    failed = w._in_workers(["no-such-game", "another-missing-game"], 2)
    assert sorted(f.split(":")[0] for f in failed) == ["another-missing-game", "no-such-game"]
    err = capsys.readouterr().err
    assert err.count("warmup failed") == 2
    assert all("\n" not in f for f in failed)
    assert "Traceback" not in err


@pytest.mark.parametrize("cores", [1, 2])
def test_a_failing_game_does_not_stop_the_others_and_ends_with_status_1(monkeypatch, cores):
    seen: list[str] = []

    def fake(name: str) -> float:
        seen.append(name)
        if name == "shengji":
            raise RuntimeError("boom\nsecond line")
        return 0.5

    monkeypatch.setattr(w, "compile_game", fake)
    monkeypatch.setattr(w, "_cores", lambda: cores)
    monkeypatch.setattr(w, "_in_workers", lambda names, workers: w._in_process(names))
    # through the root group, as on the command line (its -h/--help settings)
    result = CliRunner().invoke(cli, ["warmup", "--game", "all"])
    assert result.exit_code == 1
    assert seen == ["shengji", "xianniu", "dingniu"]  # the failing game first, the rest after
    lines = result.output.splitlines()
    assert "shengji: warmup failed: RuntimeError: boom second line" in lines
    assert "xianniu: kernels ready in 0.5 s" in lines
    assert "dingniu: kernels ready in 0.5 s" in lines


def test_one_game_compiles_in_process(monkeypatch, capsys):
    seen: list[str] = []
    monkeypatch.setattr(w, "compile_game", lambda name: seen.append(name) or 0.5)
    monkeypatch.setattr(w, "_in_workers", lambda *a: pytest.fail("no workers for one game"))
    assert main(["warmup", "--game", "dingniu"]) == 0
    assert seen == ["dingniu"]
    assert "dingniu: kernels ready in 0.5 s" in capsys.readouterr().err
