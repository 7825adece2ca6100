"""Training data for the ``learned`` policy: the teacher's self-play as Parquet parts.

Each part holds hands ``first .. first + part - 1`` of one preset, in two files
(``RULES-FIRST-decisions.parquet``, ``RULES-FIRST-candidates.parquet``) whose metadata carry
the seed and the teacher's parameters. Parts already written are kept, so a stopped run
resumes; the presets' parts alternate, so a short run holds both.

Usage: python scripts/train/xianniu_learned_data.py [--out build/learned]
           [--rules lanzhou,kanniutui]
           [--hands 12000] [--part 500] [--seed 17] [--budget 256] [--samples 16]
"""

from __future__ import annotations

import argparse
import sys
import time

from analyzer.xianniu.learned_data import TEACHER_BUDGET, TEACHER_SAMPLES, generate_parts
from analyzer.xianniu.rules import get_rules


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="build/learned")
    ap.add_argument("--rules", default="lanzhou,kanniutui")
    ap.add_argument("--hands", type=int, default=12_000, help="hands per preset")
    ap.add_argument("--part", type=int, default=500, help="hands per part")
    ap.add_argument("--seed", type=int, default=17)
    ap.add_argument("--budget", type=int, default=TEACHER_BUDGET)
    ap.add_argument("--samples", type=int, default=TEACHER_SAMPLES)
    args = ap.parse_args()
    t0 = time.perf_counter()

    def progress(rules, first, n, n_dec, n_cand):
        print(f"{rules} hands {first}..{first + n - 1}: {n_dec} decisions, {n_cand} actions "
              f"({time.perf_counter() - t0:.0f} s)", flush=True)

    try:
        presets = [get_rules(r).name for r in args.rules.split(",")]
        if min(args.hands, args.part, args.budget, args.samples) < 1:
            raise ValueError("--hands, --part, --budget and --samples must be positive")
        generate_parts(args.out, presets, args.hands, args.part, args.seed, args.budget,
                       args.samples, progress)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
