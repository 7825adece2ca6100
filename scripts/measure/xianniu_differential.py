"""A long differential run: kernel hands replayed move for move in the reference engine.

Usage: python scripts/measure/xianniu_differential.py [HANDS] [SEED]
(both presets, random and themed deals)
"""

import sys
import time

from analyzer.xianniu.crosscheck import crosscheck

hands = int(sys.argv[1]) if len(sys.argv) > 1 else 50_000
seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
failed = False
for rules in ("lanzhou", "kanniutui"):
    for themed in (False, True):
        t = time.perf_counter()
        r = crosscheck(hands, rules, seed=seed, themed=themed, max_mismatches=20)
        print(f"{rules:10s} themed={themed!s:5s} hands={r.hands} decisions={r.decisions} "
              f"legal actions compared={r.legal_compared} mismatches={len(r.mismatches)} "
              f"({time.perf_counter() - t:.0f} s)")
        for m in r.mismatches:
            print("   ", m)
        failed |= not r.ok
sys.exit(1 if failed else 0)
