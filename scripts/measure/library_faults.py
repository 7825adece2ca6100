"""The library survives kills and shared use: the figures of docs/library.md.

    python scripts/measure/library_faults.py                 # 10,000 records, 5 kills each
    python scripts/measure/library_faults.py --records 2000 --kills 3 --seed 2

1. An import (``xianniu library add FILE.jsonl``) of ``--records`` records of the three
   games is killed (SIGKILL) at ``--kills`` random moments, each run going on from the last;
   after each kill the file must pass ``PRAGMA integrity_check``, every stored record must
   be the hand its digest names, and nothing stored before may be gone. A last run finishes
   the import: every record stored once.
2. A writer storing hands one a transaction, as a table does, printing each id once it is
   committed, is killed at random moments: every id it printed must be in the file.
3. ``--writers`` processes store ``--each`` hands each at once: every hand must be there.

Random records (random legal play, the reference engines) and the kill times are drawn from
``--seed``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from analyzer.core.contract import random_record  # noqa: E402
from analyzer.core.library import Library, check_record  # noqa: E402
from analyzer.games import get_game  # noqa: E402

SHARE = {"xianniu": 0.4, "dingniu": 0.4, "shengji": 0.2}  # of the records, by game

WRITER = """
import json, sys
from analyzer.core.library import Library
with Library(sys.argv[2]) as lib:
    for line in open(sys.argv[1], encoding="utf-8"):
        print(lib.add(json.loads(line), seat=0).id, flush=True)
"""


def records(n: int, seed: np.random.SeedSequence) -> list[dict]:
    out = []
    seeds = seed.spawn(len(SHARE))
    for (game, share), s in zip(SHARE.items(), seeds):
        g = get_game(game)
        k = n - len(out) if game == list(SHARE)[-1] else round(n * share)
        presets = g.facts.presets
        out += [random_record(g, presets[i % len(presets)], c)
                for i, c in enumerate(s.spawn(k))]
    return out


def child(script_args: list[str]) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, *script_args], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, env=env, cwd=ROOT)


def check(path: Path) -> set[int]:
    """The ids in the file, once it passes the integrity check and every record is the hand
    its digest names."""
    with Library(path) as lib:
        status = lib.integrity()
        if status != "ok":
            raise SystemExit(f"integrity_check: {status}")
        digests = lib.digests()
        for hand_id, digest in digests.items():
            if check_record(lib.record(hand_id)).digest != digest:
                raise SystemExit(f"hand {hand_id} is not the hand its digest names")
        return set(digests)


def count(path: Path) -> int:
    try:
        db = sqlite3.connect(path, timeout=30)
        try:
            return db.execute("SELECT count(*) FROM hands").fetchone()[0]
        finally:
            db.close()
    except sqlite3.OperationalError:
        return 0


def killed_imports(src: Path, n: int, kills: int, rng: random.Random, folder: Path) -> None:
    path = folder / "import.sqlite"
    cli = ["-c", "import sys; from analyzer.cli import main; sys.exit(main(sys.argv[1:]))",
           "library", "add", str(src), "--library", str(path), "--quiet"]
    t0 = time.perf_counter()
    p = child(cli)
    p.wait()
    whole = time.perf_counter() - t0
    print(f"an import of {n:,} records, uninterrupted: {whole:.1f} s, {count(path):,} stored")
    path.unlink()
    before: set[int] = set()
    for k in range(kills):
        p = child(cli)
        at = rng.uniform(0.5, whole * 0.9)
        time.sleep(at)
        p.send_signal(signal.SIGKILL)
        p.wait()
        kept = check(path)
        lost = before - kept
        print(f"kill {k + 1} after {at:.1f} s (status {p.returncode}): integrity ok, "
              f"{len(kept):,} hands, every one its digest's hand, {len(lost)} lost")
        if lost:
            raise SystemExit("hands committed before a kill are gone")
        before = kept
    p = child(cli)
    p.wait()
    kept = check(path)
    print(f"the import run once more: status {p.returncode}, {len(kept):,} hands")
    if len(kept) != n:
        raise SystemExit(f"{len(kept)} hands stored, not {n}")


def killed_writers(src: Path, kills: int, rng: random.Random, folder: Path) -> None:
    path = folder / "table.sqlite"
    for k in range(kills):
        p = child(["-c", WRITER, str(src), str(path)])
        assert p.stdout is not None
        stop = rng.randint(5, 400)
        said = []
        for line in p.stdout:
            said.append(int(line))
            if len(said) == stop:
                p.send_signal(signal.SIGKILL)
                break
        p.wait()
        kept = check(path)
        missing = set(said) - kept
        print(f"writer kill {k + 1} after {len(said)} commits (status {p.returncode}): "
              f"integrity ok, {len(kept):,} hands, {len(missing)} committed hands missing")
        if missing:
            raise SystemExit("a committed hand is missing")


def shared(records_: list[dict], writers: int, each: int, folder: Path) -> None:
    path = folder / "shared.sqlite"
    Library(path).close()
    files = []
    for w in range(writers):
        f = folder / f"writer{w}.jsonl"
        f.write_text("".join(json.dumps(r) + "\n" for r in records_[w * each:(w + 1) * each]),
                     encoding="utf-8")
        files.append(f)
    t0 = time.perf_counter()
    procs = [child(["-c", WRITER, str(f), str(path)]) for f in files]
    for p in procs:
        p.communicate()
    took = time.perf_counter() - t0
    kept = check(path)
    print(f"{writers} writers at once, {each} hands each, one a transaction: "
          f"{len(kept):,} hands stored in {took:.1f} s, integrity ok, "
          f"status {sorted({p.returncode for p in procs})}")
    if len(kept) != writers * each:
        raise SystemExit("a hand is missing")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--records", type=int, default=10_000)
    ap.add_argument("--kills", type=int, default=5)
    ap.add_argument("--writers", type=int, default=20)
    ap.add_argument("--each", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    make, kill = np.random.SeedSequence(args.seed).spawn(2)
    rng = random.Random(int(kill.generate_state(1)[0]))
    t0 = time.perf_counter()
    recs = records(args.records, make)
    shares = ", ".join(f"{g} {s:.0%}" for g, s in SHARE.items())
    print(f"{len(recs):,} records of random play ({shares}), made in "
          f"{time.perf_counter() - t0:.1f} s")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        src = folder / "hands.jsonl"
        src.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in recs),
                       encoding="utf-8")
        killed_imports(src, len(recs), args.kills, rng, folder)
        killed_writers(src, args.kills, rng, folder)
        shared(recs, args.writers, args.each, folder)


if __name__ == "__main__":
    main()
