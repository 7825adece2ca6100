"""Whole 双升 hands per second of ``net`` against ``tuned``, every seat on the policy.

Runs alternate between the two policies (``--repeats`` each, the same deals from
``--seed``) on all of Numba's threads, so that a change in the machine's load falls on both;
each policy's figure is the median of its runs, with the spread (min–max) of the runs.
Team levels 2 and 2, seat 0 the banker going in, as the tournaments.

Usage: python scripts/measure/shengji_net_speed.py [--hands 100000] [--repeats 5] [--rules R]
           [--seed 1]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import numba
import numpy as np

from analyzer.shengji.sim import CHUNK, check_n, kernel_rules, seat_policies, whole_hand_rows
from kernels.rng import states_from_seed


def rate(policy: str, rules: str, hands: int, seed: int) -> float:
    """Whole hands/s of ``hands`` hands with every seat on ``policy``."""
    pols = seat_policies(policy, rules)
    states = states_from_seed(seed, -(-hands // CHUNK))
    kr = kernel_rules(rules, np.array([2, 2], dtype=np.int64), 0)
    t = time.perf_counter()
    whole_hand_rows(kr, pols, states, CHUNK, hands)
    return hands / (time.perf_counter() - t)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=100_000)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--rules", default="zhengzhou")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    try:
        check_n(args.hands)
        check_n(args.repeats, "repeats")
        for p in ("net", "tuned"):
            rate(p, args.rules, 1000, args.seed)  # compile and warm up
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    runs: dict[str, list[float]] = {"net": [], "tuned": []}
    for _ in range(args.repeats):
        for p in runs:
            runs[p].append(rate(p, args.rules, args.hands, args.seed))
    print(f"{args.rules}, {args.hands:,} whole hands a run, {args.repeats} runs each "
          f"alternated, {numba.get_num_threads()} threads, seed {args.seed}")
    for p, r in runs.items():
        print(f"  {p:<6} {statistics.median(r):>9,.0f} hands/s (median; runs "
              f"{min(r):,.0f}-{max(r):,.0f})")
    print(f"  net / tuned {statistics.median(runs['net']) / statistics.median(runs['tuned']):.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
