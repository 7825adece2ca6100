"""Small traps a newcomer met, each now one clear line and exit 2 before any work, in every
game (issue 48: huge counts, output folders, a missing extra, messages that misled)."""

from __future__ import annotations

import importlib
import json
import os
import sys
from pathlib import Path

import pytest
from cli_checks import bad, write_json

from analyzer.cli import main
from analyzer.core import limits
from analyzer.xianniu import batch as xianniu_batch

GAMES = {"xianniu": [], "dingniu": ["dingniu"], "shengji": ["shengji"]}
BY_GAME = pytest.mark.parametrize("game", list(GAMES))
ODDS = {"xianniu": [], "dingniu": [], "shengji": ["--level", "2"]}
TRILLION = "1000000000000"
RECORDS = Path(__file__).resolve().parents[2] / "docs" / "examples"


class Started(Exception):
    """A command got past its checks and began its work."""


@pytest.fixture
def no_work(monkeypatch):
    """The machine as these tests see it (2 cores, 16 GiB), and the work of every command
    checked here replaced by a stub that records its arguments and raises
    :class:`Started`: a count or a path that gets past the checks ends the test at once,
    without compiling or playing anything."""
    monkeypatch.setattr(limits, "cores", lambda: 2)
    monkeypatch.setattr(limits, "physical_memory", lambda: 16 * 2**30)
    calls: list[tuple[str, tuple, dict]] = []

    def stub(name):
        def started(*args, **kwargs):
            calls.append((name, args, kwargs))
            raise Started(name)
        return started

    for game in GAMES:
        api = importlib.import_module(f"analyzer.{game}.api")
        for name in ("simulate", "tournament", "odds", "review", "review_many"):
            monkeypatch.setattr(api, name, stub(f"{game} {name}"))
    monkeypatch.setattr("analyzer.report.build.build_report", stub("report"))
    monkeypatch.setattr("analyzer.report.prewarm.Prewarm.__enter__", stub("report prewarm"))
    return calls


# ---- counts -------------------------------------------------------------------------------------

@BY_GAME
def test_simulate_a_trillion_hands_says_how_long_and_needs_yes(capsys, no_work, game):
    line = bad(capsys, *GAMES[game], "simulate", "--hands", TRILLION, "--seed", "1", "--quiet")
    assert f"--hands {int(TRILLION):,} would take at least" in line and "days" in line
    assert "give at most" in line and "(an hour)" in line and "--yes" in line


@BY_GAME
def test_a_count_written_as_a_power_is_read_not_refused_as_no_integer(capsys, no_work, game):
    line = bad(capsys, *GAMES[game], "simulate", "--hands", "10**12", "--quiet")
    assert "not a valid integer" not in line and f"{10**12:,} would take at least" in line


@BY_GAME
def test_two_to_the_63_hands_are_refused_even_with_yes(capsys, no_work, game):
    for extra in ([], ["--yes"]):
        line = bad(capsys, *GAMES[game], "simulate", "--hands", str(2**63), "--seed", "1",
                   "--quiet", *extra)
        assert "years" in line and "no run longer than a year is started" in line
    line = bad(capsys, *GAMES[game], "simulate", "--hands", "1e999", "--quiet")
    assert "would take at least a million years" in line


@BY_GAME
def test_yes_starts_a_run_over_the_hour(capsys, no_work, game):
    hands = {"xianniu": 10**10, "dingniu": 10**10, "shengji": 10**9}[game]  # over an hour
    bad(capsys, *GAMES[game], "simulate", "--hands", str(hands), "--quiet")
    with pytest.raises(Started):
        main([*GAMES[game], "simulate", "--hands", str(hands), "--quiet", "--yes"])
    assert no_work[-1][1][0] == hands


@pytest.mark.parametrize("written, hands", [("1_000", 1000), ("2.5e3", 2500), ("10**3", 1000),
                                            ("1,000", 1000)])
def test_counts_may_be_written_as_people_write_them(no_work, written, hands):
    with pytest.raises(Started):
        main(["simulate", "--hands", written, "--quiet"])
    assert no_work[-1][1][0] == hands


@pytest.mark.parametrize("written", ["lots", "1e-3", "1.5", "0x10", "1,00", "10**x", "1e"])
def test_a_count_that_is_not_a_whole_number_says_how_to_write_one(capsys, no_work, written):
    line = bad(capsys, "simulate", "--hands", written)
    assert "--hands" in line and "1_000_000, 1e6 or 10**6" in line


@pytest.mark.parametrize("game", ["xianniu", "shengji"])
def test_odds_of_a_trillion_deals_say_how_long(capsys, no_work, game):
    line = bad(capsys, *GAMES[game], "odds", *ODDS[game], "--deals", TRILLION)
    assert f"--deals {int(TRILLION):,} would take at least" in line and "--yes" in line


def test_dingniu_odds_of_a_trillion_deals_say_how_much_memory(capsys, no_work):
    line = bad(capsys, "dingniu", "odds", "--deals", TRILLION)
    assert "TiB in memory" in line and "this machine has 16 GiB" in line
    assert "give at most" in line and "--yes allows up to" in line


@BY_GAME
def test_a_tournament_of_a_trillion_deals_says_how_much_memory(capsys, no_work, game):
    line = bad(capsys, *GAMES[game], "tournament", "--policies", "heuristic,random", "--deals",
               TRILLION)
    assert "TiB in memory" in line and "bytes per deal" in line and "16 GiB" in line


def test_the_learned_tournament_of_the_issue_is_refused_too(capsys, no_work):
    line = bad(capsys, "tournament", "--policies", "learned,heuristic", "--deals", TRILLION)
    assert "in memory" in line and "give at most" in line


def test_yes_lifts_the_memory_bound_to_80_percent_not_beyond(capsys, no_work):
    most = int(16 * 2**30 * limits.HELD_YES) // xianniu_batch.COSTS["tournament"].held
    bad(capsys, "tournament", "--deals", str(most), "--quiet")  # over half without --yes
    with pytest.raises(Started):
        main(["tournament", "--deals", str(most), "--quiet", "--yes"])
    line = bad(capsys, "tournament", "--deals", str(most + 1), "--quiet", "--yes")
    assert f"give at most {most:,}" in line


def test_a_report_of_a_trillion_hands_is_refused(capsys, no_work):
    line = bad(capsys, "report", "--hands", TRILLION)
    assert "would take at least" in line and "years" in line
    with pytest.raises(Started):  # the full report is well within the bound
        main(["report", "--full", "--quiet"])


# ---- a missing extra ----------------------------------------------------------------------------

@pytest.fixture
def without_dask(monkeypatch):
    """``import dask.distributed`` fails, as in an install without the dask extra."""
    monkeypatch.setitem(sys.modules, "dask.distributed", None)


@BY_GAME
def test_backend_dask_without_dask_names_the_install_command(capsys, no_work, without_dask,
                                                             game):
    line = bad(capsys, *GAMES[game], "simulate", "--hands", "100", "--backend", "dask",
               "--scheduler", "tcp://127.0.0.1:1")
    assert 'pip install ".[dask]"' in line


@BY_GAME
def test_review_on_dask_without_dask_names_the_install_command(capsys, no_work, without_dask,
                                                               game):
    line = bad(capsys, *GAMES[game], "review", str(RECORDS), "--backend", "dask")
    assert 'pip install ".[dask]"' in line


def test_the_runner_names_the_install_command_too(without_dask):
    from analyzer.core.runner import map_tasks

    with pytest.raises(ValueError, match=r'pip install "\.\[dask\]"'):
        map_tasks([lambda: 1], backend="dask")


# ---- output paths -------------------------------------------------------------------------------

def _refuses_files(folder: str) -> bool:
    try:
        Path(folder, ".xianniu-probe").touch()
    except OSError:
        return True
    Path(folder, ".xianniu-probe").unlink()
    return False


needs_proc = pytest.mark.skipif(not os.path.isdir("/proc") or not _refuses_files("/proc"),
                                reason="needs a /proc that refuses new files")


@BY_GAME
def test_simulate_into_a_missing_folder_is_refused_and_makes_no_folder(capsys, tmp_path, game):
    target = tmp_path / "missing" / "dir" / "x.json"
    line = bad(capsys, *GAMES[game], "simulate", "--hands", "100", "--out", str(target),
               "--quiet")
    assert "does not exist" in line and str(target.parent) in line
    assert not (tmp_path / "missing").exists()


@needs_proc
@BY_GAME
def test_simulate_into_a_folder_that_refuses_files_names_the_folder(capsys, no_work, game):
    line = bad(capsys, *GAMES[game], "simulate", "--out", "/proc/x")
    assert line.startswith("xianniu: error: --out /proc/x: the folder /proc does not accept "
                           "new files")
    assert ".tmp" not in line and "checkpoint" not in line


@BY_GAME
def test_records_into_a_missing_folder_are_refused_before_the_run(capsys, no_work, game):
    line = bad(capsys, *GAMES[game], "simulate", "--hands", "100", "--records",
               "/proc/x/r.parquet")
    assert "--records /proc/x/r.parquet: the folder /proc/x does not exist" in line
    assert not no_work  # nothing was played


@BY_GAME
def test_an_output_beside_a_file_says_it_is_a_file(capsys, no_work, tmp_path, game):
    (tmp_path / "f").write_text("")
    line = bad(capsys, *GAMES[game], "simulate", "--out", str(tmp_path / "f" / "x.json"))
    assert f"{tmp_path / 'f'} is a file, not a folder" in line


@needs_proc
@BY_GAME
def test_review_html_into_proc_is_refused_before_the_review(capsys, no_work, game):
    line = bad(capsys, *GAMES[game], "review", str(RECORDS / f"{game}-hand.json"), "--html",
               "/proc/x.html")
    assert "--html /proc/x.html: the folder /proc does not accept new files" in line
    assert not no_work


@needs_proc
def test_record_convert_into_proc_is_refused(capsys):
    line = bad(capsys, "record", "convert", str(RECORDS / "xianniu-hand.json"), "--out",
               "/proc/x.txt")
    assert "the folder /proc does not accept new files" in line


def test_the_api_checks_records_before_the_run(monkeypatch, tmp_path):
    from analyzer.core import batchrun
    from analyzer.core.runner import RunSpec

    monkeypatch.setattr(batchrun, "run", lambda *a, **k: pytest.fail("the run started"))
    with pytest.raises(ValueError, match="does not exist"):
        batchrun.simulate_run(RunSpec("xianniu", 100, "lanzhou", "random"),
                              records=tmp_path / "no" / "r.parquet")


# ---- messages that misled -----------------------------------------------------------------------

@BY_GAME
def test_a_json_list_given_as_a_record_says_so(capsys, tmp_path, game):
    path = write_json(tmp_path / "list.json", [json.loads(
        (RECORDS / f"{game}-hand.json").read_text(encoding="utf-8"))])
    line = bad(capsys, *GAMES[game], "review", path)
    assert "holds a JSON list, not a record" in line and ".jsonl" in line
    assert "hands" not in line.split("not a record")[0]


def test_record_convert_of_a_json_list_says_so(capsys, tmp_path):
    line = bad(capsys, "record", "convert", write_json(tmp_path / "l.json", [1, 2]))
    assert "holds a JSON list, not a record" in line


@pytest.mark.parametrize("command", [["record", "convert"], ["review"], ["dingniu", "review"],
                                     ["shengji", "review"]])
def test_a_text_with_no_hands_says_it_gives_none(capsys, tmp_path, command):
    path = tmp_path / "notes.txt"
    path.write_text("hello there\n", encoding="utf-8")
    line = bad(capsys, *command, str(path))
    assert "the text gives no hands" in line and "'hand SEAT CARDS'" in line
    assert "must list the three" not in line


def test_a_xianniu_record_with_two_hands_says_how_many_it_has(capsys, tmp_path):
    rec = json.loads((RECORDS / "xianniu-hand.json").read_text(encoding="utf-8"))
    rec["hands"] = rec["hands"][:2]
    line = bad(capsys, "replay", write_json(tmp_path / "r.json", rec))
    assert "lists the three dealt hands" in line and "it lists 2" in line


def test_a_4_in_xianniu_is_not_read_as_the_4_of_spades(capsys):
    line = bad(capsys, "beats", "3s", "4h")
    assert "no 4s" not in line and "without the fours" in line and "'4h'" in line


def test_dingniu_advise_without_a_position_says_what_to_give(capsys):
    line = bad(capsys, "dingniu", "advise")
    assert "give the position" in line and "not both" not in line
