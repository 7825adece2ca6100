"""The library of hands: storing, recognising, refusing, migrating, and surviving a kill."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from analyzer.core import library as lib_mod
from analyzer.core.contract import random_record
from analyzer.core.library import Filter, Library, LibraryError, check_record
from analyzer.core.library_import import export, import_records, read_sources
from analyzer.core.notation import to_text
from analyzer.games import GAMES, get_game

ROOT = Path(__file__).resolve().parents[2]


def _records(game: str, preset: str, n: int, seed: int = 1) -> list[dict]:
    return [random_record(get_game(game), preset, c)
            for c in np.random.SeedSequence(seed).spawn(n)]


@pytest.fixture(scope="module")
def hands() -> dict[tuple[str, str], list[dict]]:
    return {(g.name, p): _records(g.name, p, 2, seed=7)
            for g in GAMES.values() for p in g.facts.presets}


def test_every_game_and_preset_is_stored_once_and_read_back(tmp_path, hands):
    with Library(tmp_path / "lib.sqlite") as lib:
        ids = {}
        for (game, preset), recs in hands.items():
            for i, rec in enumerate(recs):
                stored = lib.add(rec, seat=i % 2)
                assert stored.new
                ids[(game, preset, i)] = stored.id
        assert lib.count() == sum(len(r) for r in hands.values())
        for (game, preset), recs in hands.items():
            for i, rec in enumerate(recs):
                hand_id = ids[(game, preset, i)]
                # the same hand again: as it was, in the text notation, with extra fields
                text = to_text(get_game(game), rec)
                again = [rec, json.loads(json.dumps(rec)), {**rec, "source": "a friend"}]
                from analyzer.core.notation import from_text
                again.append(from_text(get_game(game), text))
                for other in again:
                    stored = lib.add(other)
                    assert (stored.id, stored.new) == (hand_id, False)
                assert lib.record(hand_id) == rec
        for (game, preset), recs in hands.items():
            rows = lib.hands(Filter(game=game, preset=preset))
            assert len(rows) == len(recs)
            for row, rec in zip(rows, recs):
                recs_mod = get_game(game).part("records")
                want = tuple(recs_mod.replay(rec).returns())
                assert row.returns == want and row.result == want[row.seat]
        assert lib.integrity() == "ok"


def test_a_different_hand_is_a_different_digest(hands):
    rec = hands[("xianniu", "lanzhou")][0]
    other = hands[("xianniu", "lanzhou")][1]
    assert check_record(rec).digest != check_record(other).digest
    # the same deal with one action fewer is not the same hand (nor a whole one)
    cut = {**rec, "actions": rec["actions"][:-1]}
    with pytest.raises(ValueError, match="ends before the hand does"):
        check_record(cut)


def test_an_import_refuses_bad_records_by_reason_and_keeps_the_rest(tmp_path, hands):
    good = hands[("dingniu", "seed")] + hands[("shengji", "zhengzhou")]
    illegal = json.loads(json.dumps(good[0]))
    illegal["actions"][3], illegal["actions"][4] = illegal["actions"][4], illegal["actions"][3]
    lines = [json.dumps(good[0]), "{not json", json.dumps(illegal), json.dumps(good[1]),
             json.dumps({"format": "something else"}), json.dumps(good[2]), "",
             json.dumps(good[3])]
    src = tmp_path / "hands.jsonl"
    src.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with Library(tmp_path / "lib.sqlite") as lib:
        report = import_records(lib, read_sources([str(src)]), tags=["club"])
        assert (report.added, report.duplicates) == (4, 0)
        where = [w for w, _ in report.refused]
        assert where == [f"{src}:2", f"{src}:3", f"{src}:5"]
        assert "not JSON" in report.refused[0][1]
        assert "action" in report.refused[1][1]
        assert "xianniu-record" in report.refused[2][1]
        assert [h.tags for h in lib.hands()] == [("club",)] * 4
        report = import_records(lib, read_sources([str(src)]))
        assert (report.added, report.duplicates, len(report.refused)) == (0, 4, 3)


def test_export_writes_what_an_import_reads_back(tmp_path, hands):
    with Library(tmp_path / "a.sqlite") as a:
        for recs in hands.values():
            for rec in recs:
                a.add(rec, tags=["x"])
        n = a.count()
        assert export(a, str(tmp_path / "all.jsonl")) == n
        folder = tmp_path / "out"
        folder.mkdir()
        assert export(a, str(folder), Filter(game="shengji")) == a.count(Filter(game="shengji"))
    with Library(tmp_path / "b.sqlite") as b:
        report = import_records(b, read_sources([str(tmp_path / "all.jsonl")]))
        assert (report.added, report.refused) == (n, [])
        report = import_records(b, read_sources([str(folder)]))
        assert report.added == 0 and report.duplicates == len(list(folder.glob("*.json")))


def test_filters_by_date_tag_and_game(tmp_path, hands):
    recs = hands[("xianniu", "kanniutui")] + hands[("dingniu", "navpil")]
    with Library(tmp_path / "lib.sqlite") as lib:
        for i, rec in enumerate(recs):
            lib.add(rec, played=lib_mod.parse_when(f"2026-11-0{i + 1}"), tags=[f"t{i % 2}"])
        assert [h.played[:10] for h in lib.hands(Filter(since="2026-11-02T00:00:00Z",
                                                        until="2026-11-03T23:59:59Z"))] == \
            ["2026-11-02", "2026-11-03"]
        assert [h.id for h in lib.hands(Filter(tag="t1"))] == [2, 4]
        assert lib.counts() == {"dingniu": 2, "xianniu": 2}
        lib.tag([1], ["t1"])
        assert lib.hands(Filter(ids=(1,)))[0].tags == ("t0", "t1")
        lib.tag([1], ["t0"], remove=True)
        assert lib.remove([4]) == 1 and lib.count() == 3
        with pytest.raises(LibraryError, match="no hand 99"):
            lib.tag([99], ["x"])
        with pytest.raises(ValueError, match="tag"):
            lib.add(recs[0], tags=["a\nb"])


def test_the_file_is_checked_and_migrated(tmp_path, monkeypatch):
    path = tmp_path / "lib.sqlite"
    with Library(path) as lib:
        assert lib.schema_version == lib_mod.SCHEMA_VERSION
        lib.add(_records("dingniu", "seed", 1)[0])
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA application_id").fetchone()[0] == lib_mod.APPLICATION_ID
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    db.close()
    # a later schema step runs once, in a transaction, and keeps every hand
    step = "ALTER TABLE hands ADD COLUMN note TEXT; CREATE TABLE notes (x INTEGER)"
    monkeypatch.setattr(lib_mod, "MIGRATIONS", (*lib_mod.MIGRATIONS, step))
    monkeypatch.setattr(lib_mod, "SCHEMA_VERSION", len(lib_mod.MIGRATIONS))
    with Library(path) as lib:
        assert lib.schema_version == lib_mod.SCHEMA_VERSION and lib.count() == 1
    # a failing step leaves the file as it was
    bad = "CREATE TABLE more (x INTEGER); CREATE TABLE more (y INTEGER)"
    monkeypatch.setattr(lib_mod, "MIGRATIONS", (*lib_mod.MIGRATIONS, bad))
    monkeypatch.setattr(lib_mod, "SCHEMA_VERSION", len(lib_mod.MIGRATIONS))
    with pytest.raises(LibraryError, match="already exists"):
        Library(path)
    monkeypatch.undo()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == lib_mod.SCHEMA_VERSION + 1
    assert not db.execute("SELECT 1 FROM sqlite_master WHERE name = 'more'").fetchone()
    db.close()
    with pytest.raises(LibraryError, match="newer xianniu"):
        Library(path)


def test_other_files_are_refused(tmp_path):
    other = tmp_path / "other.sqlite"
    db = sqlite3.connect(other)
    db.execute("CREATE TABLE t (x)")
    db.commit()
    db.close()
    with pytest.raises(LibraryError, match="another program"):
        Library(other)
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not a database at all" * 100)
    with pytest.raises(LibraryError, match="not a xianniu library"):
        Library(junk)
    with pytest.raises(LibraryError, match="does not exist"):
        Library(tmp_path / "no" / "lib.sqlite")
    with pytest.raises(LibraryError, match="no library"):
        Library(tmp_path / "absent.sqlite", create=False)


def test_twenty_writers_at_once_store_every_hand(tmp_path):
    recs = _records("dingniu", "navpil", 60, seed=3)
    path = tmp_path / "lib.sqlite"
    errors: list[BaseException] = []
    start = threading.Barrier(20)  # all at once: the file is made while the others open it

    def table(k: int) -> None:
        try:
            start.wait()
            with Library(path) as lib:
                for rec in recs[3 * k:3 * k + 3]:
                    assert lib.add(rec, seat=0).new
        except BaseException as e:  # noqa: BLE001 (reported below)
            errors.append(e)

    threads = [threading.Thread(target=table, args=(k,)) for k in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    with Library(path) as lib:
        assert lib.count() == 60 and lib.integrity() == "ok"


# a child that imports slowly enough to be killed in the middle (a sleep a record)
_SLOW_IMPORT = """
import sys, time
import analyzer.core.library_import as li
li.BATCH = 10
check = li.check_record
li.check_record = lambda r: (time.sleep(0.002), check(r))[1]
from analyzer.cli import main
sys.exit(main(["library", "add", sys.argv[1], "--library", sys.argv[2], "--quiet"]))
"""

# a child that stores hands one a transaction and says which after each commit
_TABLE_WRITES = """
import json, sys
from analyzer.core.library import Library
with Library(sys.argv[2]) as lib:
    for line in open(sys.argv[1], encoding="utf-8"):
        print(lib.add(json.loads(line), seat=0).id, flush=True)
"""


def _child(script: str, *args: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-c", script, *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)


def _count(path: Path) -> int:
    try:
        db = sqlite3.connect(path, timeout=30)
        try:
            return db.execute("SELECT count(*) FROM hands").fetchone()[0]
        finally:
            db.close()
    except sqlite3.OperationalError:  # not made yet
        return 0


def _whole(path: Path) -> set[int]:
    """The ids stored, after checking the file and that each stored record is the hand its
    digest names."""
    with Library(path) as lib:
        assert lib.integrity() == "ok"
        digests = lib.digests()
        for hand_id, digest in digests.items():
            assert check_record(lib.record(hand_id)).digest == digest
        return set(digests)


@pytest.fixture(scope="module")
def many(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("many") / "hands.jsonl"
    recs = _records("xianniu", "kanniutui", 600, seed=11)
    path.write_text("".join(json.dumps(r) + "\n" for r in recs), encoding="utf-8")
    return path


def test_an_import_killed_keeps_what_it_committed_and_resumes(tmp_path, many):
    path = tmp_path / "lib.sqlite"
    child = _child(_SLOW_IMPORT, str(many), str(path))
    deadline = time.monotonic() + 120
    while _count(path) < 50 and child.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    child.send_signal(signal.SIGKILL)
    child.wait()
    assert child.returncode == -signal.SIGKILL, child.stderr.read()  # killed mid-import
    kept = _whole(path)
    assert 50 <= len(kept) < 600
    from analyzer.cli import main

    assert main(["library", "add", str(many), "--library", str(path), "--quiet"]) == 0
    assert len(_whole(path)) == 600


def test_a_table_killed_while_writing_loses_no_committed_hand(tmp_path, many):
    path = tmp_path / "lib.sqlite"
    child = _child(_TABLE_WRITES, str(many), str(path))
    assert child.stdout is not None
    said = []
    for line in child.stdout:
        said.append(int(line))
        if len(said) == 40:
            child.send_signal(signal.SIGKILL)
            break
    child.wait()
    assert child.returncode == -signal.SIGKILL
    kept = _whole(path)
    assert set(said) <= kept and len(kept) < 600


def test_the_commands(tmp_path, capsys, hands):
    from cli_checks import bad, ok, run

    lib = str(tmp_path / "lib.sqlite")
    src = tmp_path / "in"
    src.mkdir()
    for (game, preset), recs in hands.items():
        (src / f"{game}-{preset}.txt").write_text(to_text(get_game(game), recs[0]),
                                                  encoding="utf-8")
        (src / f"{game}-{preset}.json").write_text(json.dumps(recs[1]), encoding="utf-8")
    n = 2 * len(hands)
    out = ok(capsys, "library", "add", str(src), "--library", lib, "--tag", "club",
             "--played", "2026-12-01")
    assert f"{n} added, 0 already there, 0 refused" in out
    listed = json.loads(ok(capsys, "library", "list", "--library", lib, "--json"))
    assert len(listed) == n and all(h["tags"] == ["club"] for h in listed)
    assert all(h["played"] == "2026-12-01T00:00:00Z" for h in listed)
    assert "shengji" in ok(capsys, "library", "list", "--game", "shengji", "--library", lib)
    assert ok(capsys, "library", "list", "--until", "2026-11-30", "--library", lib) == \
        "no hands\n"
    first = listed[0]["id"]
    shown = ok(capsys, "library", "show", str(first), "--library", lib)
    assert json.loads(shown)["game"] == listed[0]["game"]
    assert "hand 0" in ok(capsys, "library", "show", str(first), "--text", "--library", lib)
    ok(capsys, "library", "tag", str(first), "--tag", "best", "--library", lib)
    ok(capsys, "library", "seat", str(first), "--seat", "1", "--library", lib)
    assert json.loads(ok(capsys, "library", "list", "--tag", "best", "--json", "--library",
                         lib))[0]["seat"] == 1
    bad(capsys, "library", "seat", str(first), "--seat", "7", "--library", lib)
    ok(capsys, "library", "export", str(tmp_path / "all.jsonl"), "--tag", "best",
       "--library", lib)
    assert len((tmp_path / "all.jsonl").read_text().splitlines()) == 1
    info = json.loads(ok(capsys, "library", "info", "--library", lib, "--json"))
    assert sum(info["hands"].values()) == n and info["schema"] == lib_mod.SCHEMA_VERSION
    # a malformed record among good ones: refused by name, status 2, the others kept
    (src / "broken.json").write_text('{"format": "xianniu-record", "version": 2}')
    rc, out, err = run(capsys, "library", "add", str(src), "--library", lib)
    assert rc == 2 and f"0 added, {n} already there, 1 refused" in out
    assert err.strip().splitlines() == [f"xianniu: refused {src / 'broken.json'}: a record "
                                        f"names its \"game\""]
    # bad input: one line, status 2
    bad(capsys, "library", "add", str(tmp_path / "absent.json"), "--library", lib)
    bad(capsys, "library", "show", "999", "--library", lib)
    bad(capsys, "library", "list", "--since", "yesterday", "--library", lib)
    bad(capsys, "library", "list", "--game", "poker", "--library", lib)
    bad(capsys, "library", "add", str(src), "--library", str(tmp_path / "no" / "x.sqlite"))
    bad(capsys, "library", "list", "--library", str(src / "broken.json"))
    bad(capsys, "library", "export", str(tmp_path / "nofolder"), "--library", lib)
    bad(capsys, "library", "tag", "999", "--tag", "x", "--library", lib)
    bad(capsys, "library", "add", str(src), "--tag", "", "--library", lib)
