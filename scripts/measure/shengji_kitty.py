"""The 双升 heuristic's kitty handling measured by team duplicate: the heuristic that buries
point cards when its trump is strong (``bury_safe`` = T) and keeps its top trump for the last
trick (``guard`` G, ``guard_cards`` C) on one team, against the same heuristic with both off
(``bury_safe`` 99: point cards kept out of the kitty; ``guard`` 0) on the other, each deal
again with the teams swapped; new − old in levels and attackers' points per deal with 95%
CIs, and the kitty's part (the points 抠底 adds and P(抠底)) when each side banks.

Usage: python scripts/measure/shengji_kitty.py [--rules zhengzhou] [--thresholds 14,16,18]
                                       [--guard 0] [--guard-cards 6] [--deals 20000]
                                       [--seed 1]
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from analyzer.core.stats import mean_ci, proportion_ci
from analyzer.shengji.rules import get_rules
from analyzer.shengji.tournament import SEATINGS, play_duplicate, scores
from kernels.shengji import game as kw
from kernels.shengji import hand as kh
from kernels.shengji import policies as kp


def kitty_part(rows: np.ndarray, policy: int) -> tuple[str, str]:
    """Over the hands the policy's team banks: the attackers' points 抠底 adds per hand and
    P(抠底), each with its 95% CI and n."""
    team = np.array(SEATINGS)[:, 0]  # policy on team 0 per seating
    banker_policy = np.where(rows[:, :, kw.W_BANKER] % 2 == 0, team, 1 - team)
    mine = banker_policy == policy
    mult = rows[:, :, kw.W_PLAY + kh.R_MULTIPLIER][mine]
    added = rows[:, :, kw.W_PLAY + kh.R_KITTY_POINTS][mine] * mult
    kou = mult > 0
    return str(mean_ci(added)), str(proportion_ci(int(kou.sum()), int(kou.size)))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="zhengzhou")
    ap.add_argument("--thresholds", default="14,16,18")
    ap.add_argument("--deals", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--guard", type=float, default=0.0)
    ap.add_argument("--guard-cards", type=float, default=6.0)
    args = ap.parse_args()
    r = get_rules(args.rules)
    old = kp.HEURISTIC_DEFAULTS.copy()
    old[kp.H_BURY_SAFE], old[kp.H_GUARD] = 99.0, 0.0
    for t in (float(x) for x in args.thresholds.split(",")):
        new = old.copy()
        new[kp.H_BURY_SAFE] = t
        new[kp.H_GUARD], new[kp.H_GUARD_CARDS] = args.guard, args.guard_cards
        t0 = time.perf_counter()
        rows = play_duplicate(["heuristic", "heuristic"], args.deals, r, args.seed,
                              rows=(new, old))
        levels, net, _ = scores(rows)
        print(f"{r.name} bury_safe {t:g} guard {args.guard:g} guard_cards "
              f"{args.guard_cards:g} - both off, {args.deals:,} deals, seed "
              f"{args.seed}: levels/deal {mean_ci(levels[:, 0] - levels[:, 1])}; attackers' "
              f"points/deal {mean_ci(net[:, 0] - net[:, 1])} "
              f"({time.perf_counter() - t0:.0f} s)")
        for p, name in ((0, "new"), (1, "old")):
            add, kou = kitty_part(rows, p)
            print(f"  banking with {name}: points 抠底 adds per hand {add}; P(抠底) {kou}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
