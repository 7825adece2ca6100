"""Wall time of ``xianniu should-xian`` on typical hands, each query a fresh process.

Typical hands are seat 1's hands in uniformly dealt deals drawn from ``--seed``: the hands a
player is dealt, not hands picked to be easy. A first query warms the kernel cache and is
not counted.

Usage: python scripts/measure/xianniu_decision_timing.py [--hands K] [--seed S]
           [--rules lanzhou,kanniutui]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

from analyzer.xianniu.cards import format_cards
from analyzer.xianniu.sim import deal_hands


def query(hand: str, rules: str) -> tuple[float, dict]:
    cmd = [sys.executable, "-m", "analyzer.cli", "should-xian", *hand.split(), "--rules", rules,
           "--json"]
    t = time.perf_counter()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return time.perf_counter() - t, json.loads(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=10, help="typical hands per rule preset")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--rules", default="lanzhou,kanniutui")
    args = ap.parse_args()
    hands = [format_cards(int(d[1])) for d in deal_hands(args.hands, seed=args.seed)]
    query(hands[0], "lanzhou")  # warm the cache
    for rules in args.rules.split(","):
        times = []
        print(f"{rules}: {args.hands} typical hands (seat 1 of deals from seed {args.seed})")
        for hand in hands:
            wall, res = query(hand, rules)
            times.append(wall)
            diff = res["diff"]
            half = (diff["high"] - diff["low"]) / 2
            print(f"  {wall:5.2f} s  {res['deals']:6d} deals  ±{half:.3f}  "
                  f"{res['recommendation']:5s} {diff['value']:+.3f}  {hand}")
        print(f"  median {statistics.median(times):.2f} s, max {max(times):.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
