"""Time per decision of the xianniu pimc policies (``pimc``, ``pimc2``) on the same positions.

Hands are dealt from ``--seed`` and played by ``pimc`` at every seat; at each decision with
more than one legal action every policy named decides the same position, in turn (A/B/A/B,
so load on a shared machine falls on both alike), and its wall time is kept. Prints the
median and 95th percentile per policy and the ratios to the first policy.

Usage: python scripts/measure/xianniu_pimc_timing.py [--hands K] [--seed S] [--rules lanzhou]
       [--policies pimc,pimc2] [--samples N] [--budget B] [--endgame E]
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from analyzer.xianniu.rules import get_rules
from analyzer.xianniu.sim import deal_hands, policy_arrays, rule_arrays
from kernels.arrays import copy_into
from kernels.rng import states_from_seed
from kernels.xianniu import game as kg
from kernels.xianniu.pimc import pimc_pick
from kernels.xianniu.policies import PIMC_BUDGET, PIMC_ENDGAME


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=12)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--rules", default="lanzhou")
    ap.add_argument("--policies", default="pimc,pimc2")
    ap.add_argument("--samples", type=int, default=None, help="pimc samples per decision")
    ap.add_argument("--budget", type=int, default=None,
                    help="play-outs per decision of the policies after the first")
    ap.add_argument("--endgame", type=int, default=None,
                    help="exact play-outs at this many cards left, the last policy")
    args = ap.parse_args()
    names = args.policies.split(",")
    rk = rule_arrays(get_rules(args.rules))
    rows = [policy_arrays(n, pimc_samples=args.samples)[1][0] for n in names]
    labels = list(names)
    for i in range(1, len(names)):  # a policy may be named twice: the first as it is
        if args.budget is not None:
            rows[i][PIMC_BUDGET] = args.budget
            labels[i] += f" budget {args.budget}"
    if args.endgame is not None:  # the last policy only: pimc2,pimc2 --endgame E compares
        rows[-1][PIMC_ENDGAME] = args.endgame
        labels[-1] += f" endgame {args.endgame}"
    ids, params = policy_arrays(names[0], pimc_samples=args.samples)
    rng = states_from_seed(args.seed, 1)[0]
    scratch, work = kg.new_scratch(), kg.new_scratch()
    ws = scratch[2]
    logbuf = (np.empty((kg.MAX_LOG, 3), dtype=np.int64), np.empty((1, 2), dtype=np.int64),
              np.empty(1, dtype=np.int64))
    times = [[] for _ in names]
    for d, deal in enumerate(deal_hands(args.hands, seed=args.seed).astype(np.int64)):
        kg.start_hand(deal, np.int64(d % 3), rk[0], ws)
        ws[kg.S_TRACK] = 1
        status = kg.advance(rk, (ids, params), rng, scratch, logbuf, np.int64(0), np.int64(-1))
        while status != 0:
            saved = ws.copy()
            pick = 0
            for i in range(len(names)):
                copy_into(ws, saved)
                branch = rng.copy()
                t = time.perf_counter()
                p = pimc_pick(rk, rows[i], branch, scratch, work)
                times[i].append(time.perf_counter() - t)
                if i == 0:
                    pick, after = p, branch
            copy_into(ws, saved)
            rng[:] = after
            status = kg.advance(rk, (ids, params), rng, scratch, logbuf, np.int64(0),
                                np.int64(pick))
    first = np.array(times[0])
    print(f"{args.rules}: {len(first)} decisions in {args.hands} hands (seed {args.seed}), "
          f"ms per decision")
    for n, ts in zip(labels, times):
        t = np.array(ts) * 1e3
        print(f"  {n:8s} median {np.median(t):6.2f}  p95 {np.percentile(t, 95):6.2f}  "
              f"ratio to {names[0]}: median {np.median(t) / np.median(first * 1e3):.2f}, "
              f"p95 {np.percentile(t, 95) / np.percentile(first * 1e3, 95):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
