"""Tune the heuristic's parameters by self-play with the cross-entropy method.

Each iteration draws a population of parameter vectors around the current mean, plays each
against the default heuristic in a duplicate tournament on the same deals, keeps the best
quarter and refits the mean and spread to them. The final mean is then measured against the
defaults on fresh deals. The seed, the budget (hands played) and the measured gain with its
95% CI are written to a JSON file.

Usage: python scripts/train/xianniu_tune.py [--rules R] [--iterations 6] [--population 12]
                                        [--deals 4000] [--final-deals 100000] [--seed 1]
                                        [--out reports/tuning_RULES.json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np

from analyzer.core.fileio import write_atomic
from analyzer.core.tuning import cross_entropy
from analyzer.xianniu.tournament import tournament
from kernels.xianniu.policies import HEURISTIC_DEFAULTS
from kernels.xianniu.policies import HEURISTIC_NAMES as NAMES


def evaluate(vec: np.ndarray, deals: int, rules: str, seed: int) -> tuple[float, float, float]:
    """Mean points per hand of ``vec`` minus the default heuristic, with its 95% CI."""
    res = tournament("heuristic:cand,heuristic", deals, rules, seed,
                     heuristic_params={"heuristic:cand": vec})
    d = res.differences().iloc[0]
    return float(d["diff"]), float(d["ci_low"]), float(d["ci_high"])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="lanzhou")
    ap.add_argument("--iterations", type=int, default=6)
    ap.add_argument("--population", type=int, default=12)
    ap.add_argument("--deals", type=int, default=4000)
    ap.add_argument("--final-deals", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    out = args.out or f"reports/tuning_{args.rules}.json"
    root = np.random.SeedSequence(args.seed)
    draw_seq, deal_seq, final_seq = root.spawn(3)
    rng = np.random.default_rng(draw_seq)
    deal_seeds = deal_seq.generate_state(args.iterations)
    t0 = time.perf_counter()
    mean, history = cross_entropy(
        lambda v, it: evaluate(v, args.deals, args.rules, int(deal_seeds[it]))[0],
        HEURISTIC_DEFAULTS.copy(), 0.3 * np.abs(HEURISTIC_DEFAULTS) + 0.5,
        iterations=args.iterations, population=args.population, rng=rng)
    hands = args.iterations * args.population * args.deals * 6
    final_seed = int(final_seq.generate_state(1)[0])
    gain, low, high = evaluate(mean, args.final_deals, args.rules, final_seed)
    hands += args.final_deals * 6
    result = {
        "rules": args.rules,
        "seed": args.seed,
        "method": "cross-entropy, duplicate self-play against the default heuristic",
        "iterations": args.iterations,
        "population": args.population,
        "deals_per_evaluation": args.deals,
        "budget_hands": hands,
        "seconds": round(time.perf_counter() - t0, 1),
        "defaults": dict(zip(NAMES, HEURISTIC_DEFAULTS.tolist())),
        "tuned": dict(zip(NAMES, [round(x, 4) for x in mean.tolist()])),
        "final_measurement": {"deals": args.final_deals, "seed": final_seed,
                              "gain_points_per_hand": gain, "ci95": [low, high]},
        "history": history,
        "command": "python scripts/train/xianniu_tune.py " + " ".join(sys.argv[1:]),
    }
    write_atomic(out, json.dumps(result, ensure_ascii=False, indent=2) + "\n")
    print(f"tuned vs defaults on {args.final_deals} fresh deals: {gain:+.3f} points/hand "
          f"[{low:+.3f}, {high:+.3f}]; written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
