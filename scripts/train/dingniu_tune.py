"""Tune the 顶牛 heuristic's weights by duplicate self-play with the cross-entropy method.

Each iteration draws a population of weight vectors around the current mean, plays each
against the default heuristic in a duplicate tournament (14 seatings a deal) on the
iteration's deals, keeps the best quarter and refits the mean and spread to them. The final
mean is measured against the defaults on fresh deals, and written with the seed, the
budget and the measured gain (95% CI) into ``analyzer/dingniu/tuned.json`` under the
preset's name, where the ``tuned`` and ``pimc`` policies read it.

Usage: python scripts/train/dingniu_tune.py [--rules seed|navpil] [--iterations 8]
                                      [--population 16] [--deals 5000]
                                      [--final-deals 100000] [--seed 1] [--dry-run]
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np

from analyzer.core.fileio import write_atomic
from analyzer.core.stats import mean_ci
from analyzer.core.tuning import cross_entropy
from analyzer.dingniu.rules import get_rules
from analyzer.dingniu.sim import TUNED_FILE, policy_vector
from analyzer.dingniu.tournament import duplicate
from kernels.dingniu import policies as kpol

SIGNED = (kpol.H_DOUBLE, kpol.H_KOU_KEEP)  # weights that may be negative


def gain(weights: np.ndarray, deals: int, seed: int, rules) -> tuple[float, float, float]:
    """Mean points per hand of ``weights`` minus the default heuristic, with its 95% CI."""
    base = policy_vector("heuristic", rules)
    cand = base.copy()
    cand[:kpol.N_HEURISTIC] = weights
    per_deal, _ = duplicate([kpol.HEURISTIC, kpol.HEURISTIC], [cand, base], deals, seed, rules)
    e = mean_ci(per_deal[:, 0] - per_deal[:, 1])
    return e.value, e.low, e.high


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="seed")
    ap.add_argument("--iterations", type=int, default=8)
    ap.add_argument("--population", type=int, default=16)
    ap.add_argument("--deals", type=int, default=5000)
    ap.add_argument("--final-deals", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--dry-run", action="store_true", help="Do not write tuned.json.")
    args = ap.parse_args()
    r = get_rules(args.rules)
    draw_seq, deal_seq, final_seq = np.random.SeedSequence(args.seed).spawn(3)
    rng = np.random.default_rng(draw_seq)
    deal_seeds = [int(c.generate_state(1)[0]) for c in deal_seq.spawn(args.iterations)]
    floor = np.zeros(kpol.N_HEURISTIC)
    floor[list(SIGNED)] = -np.inf
    t0 = time.perf_counter()
    mean, history = cross_entropy(
        lambda v, it: gain(v, args.deals, deal_seeds[it], r)[0],
        kpol.HEURISTIC_DEFAULTS.copy(), 0.3 * np.abs(kpol.HEURISTIC_DEFAULTS) + 0.5,
        iterations=args.iterations, population=args.population, rng=rng, floor=floor)
    hands = args.iterations * args.population * args.deals * 14
    final_seed = int(final_seq.generate_state(1)[0])
    value, low, high = gain(mean, args.final_deals, final_seed, r)
    hands += args.final_deals * 14
    entry = {
        "weights": [round(float(x), 4) for x in mean],
        "names": list(kpol.HEURISTIC_NAMES),
        "defaults": kpol.HEURISTIC_DEFAULTS.tolist(),
        "method": "cross-entropy on duplicate self-play against the default heuristic",
        "seed": args.seed, "iterations": args.iterations, "population": args.population,
        "deals_per_evaluation": args.deals, "budget_hands": hands,
        "seconds": round(time.perf_counter() - t0, 1),
        "final": {"deals": args.final_deals, "seed": final_seed, "gain": value,
                  "ci95": [low, high]},
        "history": history,
        "command": "python scripts/train/dingniu_tune.py " + " ".join(sys.argv[1:]),
    }
    print(f"tuned - default on {args.final_deals:,} fresh deals: {value:+.3f} points/hand "
          f"[{low:+.3f}, {high:+.3f}] (seed {final_seed}); weights {entry['weights']}")
    if not args.dry_run:
        data = json.loads(TUNED_FILE.read_text()) if TUNED_FILE.exists() else {}
        data[r.name] = entry
        write_atomic(str(TUNED_FILE), json.dumps(data, ensure_ascii=False, indent=1) + "\n")
        print(f"written to {TUNED_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
