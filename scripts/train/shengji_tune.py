"""Tune the 双升 heuristic's parameters by duplicate self-play with the cross-entropy method.

Each iteration draws a population of parameter rows around the current mean, plays each
against the default heuristic in a team duplicate tournament (the tuned row on one team,
the defaults on the other, each deal again with the teams swapped) on the iteration's deals,
keeps the best quarter by levels per deal and refits the mean and spread to them. The final
mean is measured against the defaults on fresh deals and written, with the seed, the budget
and the measured gain (95% CI), into ``analyzer/shengji/tuned.json`` under the preset's name,
where the ``tuned`` tournament policy reads it. pimc's two parameters are not tuned.

Usage: python scripts/train/shengji_tune.py [--rules zhengzhou|classic] [--iterations 10]
                                      [--population 16] [--deals 8000]
                                      [--final-deals 50000] [--seed 1] [--dry-run]
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
from analyzer.shengji.rules import get_rules
from analyzer.shengji.sim import TUNED_FILE
from analyzer.shengji.tournament import play_duplicate, scores
from kernels.shengji import policies as kp

TUNED = [i for i in range(kp.N_HEURISTIC) if i not in (kp.P_PIMC_SAMPLES, kp.P_PIMC_Z)]
# Spread of the first population: 0.3 of each default + 0.5, but wider for the kitty
# parameters whose defaults are off (``bury_safe`` 99 starts at 16, ``guard`` at 0).
SPREAD = {kp.H_BURY_SAFE: 3.0, kp.H_GUARD: 50.0, kp.H_GUARD_CARDS: 3.0}


def duplicate_gain(row_a: np.ndarray, row_b: np.ndarray, deals: int, seed: int, rules):
    """Per deal, A − B in levels and in net attackers' points: A's row on one team and B's on
    the other, both heuristic, each deal played with the teams swapped."""
    rows = play_duplicate(["heuristic", "heuristic"], deals, rules, seed,
                          rows=(row_a, row_b))
    levels, net, _ = scores(rows)
    return levels[:, 0] - levels[:, 1], net[:, 0] - net[:, 1]


def first_spread(row: np.ndarray) -> np.ndarray:
    """The first population's spread of every tuned parameter (``row``: a full row)."""
    spread = 0.3 * np.abs(row) + 0.5
    for i, v in SPREAD.items():
        spread[i] = v
    return spread[TUNED]


def start_row() -> np.ndarray:
    """The defaults, with ``bury_safe`` brought into reach (its default 99 is off)."""
    row = kp.HEURISTIC_DEFAULTS.copy()
    row[kp.H_BURY_SAFE] = min(row[kp.H_BURY_SAFE], 16.0)
    return row


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="zhengzhou")
    ap.add_argument("--iterations", type=int, default=10)
    ap.add_argument("--population", type=int, default=16)
    ap.add_argument("--deals", type=int, default=8000)
    ap.add_argument("--final-deals", type=int, default=50_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--dry-run", action="store_true", help="Do not write tuned.json.")
    args = ap.parse_args()
    r = get_rules(args.rules)
    base = kp.HEURISTIC_DEFAULTS.copy()
    draw_seq, deal_seq, final_seq = np.random.SeedSequence(args.seed).spawn(3)
    rng = np.random.default_rng(draw_seq)
    deal_seeds = [int(c.generate_state(1)[0]) for c in deal_seq.spawn(args.iterations)]
    def score(v: np.ndarray, it: int) -> float:
        row = base.copy()
        row[TUNED] = v
        return float(duplicate_gain(row, base, args.deals, deal_seeds[it], r)[0].mean())

    t0 = time.perf_counter()
    mean, history = cross_entropy(score, start_row()[TUNED], first_spread(start_row()),
                                  iterations=args.iterations, population=args.population,
                                  rng=rng, unit="levels/deal")
    hands = args.iterations * args.population * args.deals * 2
    tuned = base.copy()
    tuned[TUNED] = mean
    final_seed = int(final_seq.generate_state(1)[0])
    d_lv, d_pts = duplicate_gain(tuned, base, args.final_deals, final_seed, r)
    hands += args.final_deals * 2
    lv, pts = mean_ci(d_lv), mean_ci(d_pts)
    names = [kp.HEURISTIC_NAMES[i] for i in TUNED]
    entry = {
        "weights": [round(float(x), 4) for x in mean],
        "names": names,
        "defaults": [float(base[i]) for i in TUNED],
        "method": "cross-entropy on team duplicate self-play against the default heuristic "
                  "(levels per deal)",
        "seed": args.seed, "iterations": args.iterations, "population": args.population,
        "deals_per_evaluation": args.deals, "budget_hands": hands,
        "seconds": round(time.perf_counter() - t0, 1),
        "final": {"deals": args.final_deals, "seed": final_seed,
                  "levels": lv.as_dict(), "attacker_points": pts.as_dict()},
        "history": history,
        "command": "python scripts/train/shengji_tune.py " + " ".join(sys.argv[1:]),
    }
    print(f"{r.name}: tuned - default on {args.final_deals:,} fresh deals (seed {final_seed}): "
          f"{lv.value:+.4f} [{lv.low:+.4f}, {lv.high:+.4f}] levels/deal, "
          f"{pts.value:+.2f} [{pts.low:+.2f}, {pts.high:+.2f}] attackers' points/deal; "
          f"{hands:,} hands in {entry['seconds']} s")
    print(json.dumps(dict(zip(names, entry["weights"])), ensure_ascii=False))
    if not args.dry_run:
        data = json.loads(TUNED_FILE.read_text(encoding="utf-8")) if TUNED_FILE.exists() \
            else {}
        data[r.name] = entry
        write_atomic(str(TUNED_FILE), json.dumps(data, ensure_ascii=False, indent=1) + "\n")
        print(f"written to {TUNED_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
