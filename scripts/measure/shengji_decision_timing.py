"""Wall time of the 双升 decision queries (should-declare, bury, should-rebel, should-throw) on
typical positions, each query a fresh process at the default precision (±0.1 levels).

Positions come from uniformly dealt deals (seed ``--seed``): for should-declare seat 0's
hand at level 2 where it can declare; for bury seat 0's 25 cards and the kitty, trump ♠ at
level 2; for should-rebel the first defender of a deal with fewer than 15 points; for
should-throw a record of a random hand stopped at the 4th lead. A first query of each kind
warms the kernel cache and is not counted. Each position is timed twice: as a fresh
process (start-up and loading the cached kernels included) and in this process once the
kernels are loaded (the query alone).

Usage: python scripts/measure/shengji_decision_timing.py [--positions K] [--seed S]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from analyzer.cli import main as cli_main
from analyzer.core.records import dumps
from analyzer.shengji.bidding import classify_declaration
from analyzer.shengji.cards import format_cards, points
from analyzer.shengji.engine import PLAY_PHASE, deal, new_hand, random_action
from analyzer.shengji.records import record_of
from analyzer.shengji.rules import get_rules


def query(args: list[str]) -> tuple[float, dict]:
    """A fresh process: start-up, loading the cached kernels and the query."""
    cmd = [sys.executable, "-m", "analyzer.cli", "shengji", *args, "--json"]
    t = time.perf_counter()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return time.perf_counter() - t, json.loads(out)


def query_here(args: list[str]) -> float:
    """The same query in this process, its kernels loaded: the query alone."""
    buf = io.StringIO()
    t = time.perf_counter()
    with contextlib.redirect_stdout(buf):
        rc = cli_main(["shengji", *args, "--json"])
    if rc != 0:
        raise SystemExit(f"query failed: {args}")
    return time.perf_counter() - t


def _can_declare(hand) -> bool:
    r = get_rules(None)
    jokers = [f for f in hand if f >= 52]
    return any(classify_declaration((j, f), 2, r) for j in jokers for f in hand if f < 52)


def positions(kind: str, k: int, seed: int, tmp: Path) -> list[list[str]]:
    """``k`` argument lists for ``kind`` from deals drawn with ``seed``."""
    rng = random.Random(seed)
    out: list[list[str]] = []
    while len(out) < k:
        hands, kitty = deal(rng)
        if kind == "should-declare" and _can_declare(hands[0]):
            out.append([*format_cards(hands[0]).split(), "--level", "2"])
        elif kind == "bury":
            out.append([*format_cards(hands[0] + kitty).split(), "--level", "2", "--trump",
                        "s"])
        elif kind == "should-rebel" and points(hands[1]) < 15:
            out.append([*format_cards(hands[1]).split(), "--level", "2"])
        elif kind == "should-throw":
            st = new_hand(None, levels=(2, 2), banker=0, hands=hands, kitty=kitty,
                          rng=random.Random(rng.random()))
            while not (st.phase == PLAY_PHASE and len(st.tricks) >= 4
                       and not st.tricks[-1].plays):
                st.apply(random_action(st, rng))
            path = tmp / f"throw{len(out)}.json"
            path.write_text(dumps(record_of(st)), encoding="utf-8")
            out.append(["--record", str(path)])
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=8, help="typical positions per query")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--queries", default="should-declare,bury,should-rebel,should-throw")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for kind in args.queries.split(","):
            todo = positions(kind, args.positions + 1, args.seed, Path(tmp))
            query([kind, *todo[0]])  # warm the cache
            query_here([kind, *todo[0]])  # load the kernels into this process
            times, here = [], []
            print(f"{kind}: {args.positions} typical positions (deals from seed {args.seed}); "
                  "fresh process / in a warm process")
            for pos in todo[1:]:
                wall, res = query([kind, *pos])
                times.append(wall)
                here.append(query_here([kind, *pos]))
                half = max((o["diff_vs_reference"]["high"] - o["diff_vs_reference"]["low"]) / 2
                           for o in res["options"])
                print(f"  {wall:5.2f} s / {here[-1]:5.2f} s  {res['samples']:6d} deals  "
                      f"{len(res['options'])} options  max ±{half:.3f}  {res['recommendation']}")
            print(f"  fresh process: median {statistics.median(times):.2f} s, max "
                  f"{max(times):.2f} s; warm process: median {statistics.median(here):.2f} s, "
                  f"max {max(here):.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
