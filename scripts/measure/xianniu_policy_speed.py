"""Whole 掀牛 hands per second under each policy, alternated in one run (A/B/A/B).

Every seat plays the policy; each round times every policy once on the same deals, in an
order that alternates between rounds, so a machine shared with other work slows all of them
alike. Prints each policy's median rate and the median ratio of each to the first.

Usage: python scripts/measure/xianniu_policy_speed.py [--rules lanzhou]
           [--policies heuristic,heuristic2] [--hands 400000] [--rounds 6] [--seed 0]
"""

from __future__ import annotations

import argparse
import statistics
import time

import numba

from analyzer.xianniu.rules import get_rules
from analyzer.xianniu.sim import CHUNK_SIZE, play_hands, policy_arrays, rule_arrays
from kernels.rng import states_from_seed


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="lanzhou")
    ap.add_argument("--policies", default="heuristic,heuristic2")
    ap.add_argument("--hands", type=int, default=400_000)
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    names = args.policies.split(",")
    rules = rule_arrays(get_rules(args.rules))
    states = states_from_seed(args.seed, -(-args.hands // CHUNK_SIZE))
    pols = {p: policy_arrays(p) for p in names}
    for p in names:  # compile or load from the cache, untimed
        play_hands(states, CHUNK_SIZE, min(args.hands, 20_000), rules, pols[p])
    secs: dict[str, list[float]] = {p: [] for p in names}
    for r in range(args.rounds):
        for p in (names if r % 2 == 0 else names[::-1]):
            t = time.perf_counter()
            play_hands(states, CHUNK_SIZE, args.hands, rules, pols[p])
            secs[p].append(time.perf_counter() - t)
    base = names[0]
    for p in names:
        rate = args.hands / statistics.median(secs[p])
        ratio = statistics.median(b / s for b, s in zip(secs[base], secs[p]))
        print(f"{args.rules} {p}: median {rate:,.0f} hands/s ({args.rounds} rounds, "
              f"{numba.get_num_threads()} threads); speed / {base}: {ratio:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
