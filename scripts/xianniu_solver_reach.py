"""How deep the 掀牛 open-hand solver solves exactly: time per position by cards left.

Positions come from ``analyzer.xianniu.solver.late_position`` (random play from seeded deals,
紧牌 called whenever it may be) at each level of cards left in the three hands together; each
position gets its own child of ``SeedSequence(--seed)``. Positions are solved on ``--workers``
processes (default 2, the 2 cores); a position not solved within ``--limit`` seconds counts as
unsolved. For each preset and level the script prints n, the median time with a
distribution-free 95% CI (order statistics), the max time among the solved, and the share
solved with its 95% CI.

Usage: python scripts/xianniu_solver_reach.py [--levels 3,6,9,12] [--n 20] [--limit 60]
                                              [--rules lanzhou,kanniutui] [--seed S]
"""

from __future__ import annotations

import argparse
import math
import signal
import time
from multiprocessing import Pool

import numpy as np

from analyzer.core.stats import format_percent, proportion_ci
from analyzer.xianniu.solver import late_position, solve


class _Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise _Timeout


def solve_one(job: tuple[np.random.SeedSequence, str, int, int]) -> tuple[float | None, int, int]:
    """(seconds or None if over the limit, positions in the table, table count) of a job."""
    seed, rules, level, limit = job
    st = late_position(seed, rules, level)
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(limit)
    t0 = time.perf_counter()
    try:
        sol = solve(st)
    except _Timeout:
        return None, 0, st.table_count()
    finally:
        signal.alarm(0)
    return time.perf_counter() - t0, sol.positions, st.table_count()


def _order_k(n: int) -> int:
    """The largest k with P(Binomial(n, 1/2) < k) <= 0.025."""
    cdf, k = 0.0, 0
    while True:
        nxt = cdf + math.comb(n, k) / 2 ** n
        if nxt > 0.025:
            return k
        cdf, k = nxt, k + 1


def median_ci(xs: list[float], n: int) -> tuple[float, float, float]:
    """Median of ``n`` times (the unsolved ``n - len(xs)`` counted as +inf) and its 95% CI."""
    v = np.sort(np.array(xs + [np.inf] * (n - len(xs))))
    k = max(1, _order_k(n))  # CI [x_(k), x_(n-k+1)], 1-indexed
    return float(np.median(v)), float(v[k - 1]), float(v[n - k])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--levels", default="3,6,9,12", help="cards left in the three hands")
    ap.add_argument("--n", type=int, default=20, help="positions per preset and level")
    ap.add_argument("--limit", type=int, default=60, help="seconds per position")
    ap.add_argument("--rules", default="lanzhou,kanniutui")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    levels = [int(x) for x in args.levels.split(",")]
    root = np.random.SeedSequence(args.seed)
    print(f"seed {args.seed}, {args.workers} processes, limit {args.limit} s per position")
    print("rules      cards left  n   table  median s [95% CI]          max s (solved)  "
          "positions (mean)  solved [95% CI]")
    with Pool(args.workers) as pool:
        for ri, rules in enumerate(args.rules.split(",")):
            for level in levels:
                seeds = root.spawn(args.n)
                jobs = [(s, rules, level, args.limit) for s in seeds]
                res = pool.map(solve_one, jobs, chunksize=1)
                times = [t for t, _, _ in res if t is not None]
                med, lo, hi = median_ci(times, args.n)
                share = proportion_ci(len(times), args.n)
                pos = np.mean([p for t, p, _ in res if t is not None]) if times else 0
                table = np.mean([c for _, _, c in res])
                print(f"{rules:<10} {level:>10} {args.n:>3} {table:6.1f}  {med:8.3f} "
                      f"[{lo:.3f}, {hi:.3f}]  {max(times) if times else float('nan'):13.3f}"
                      f"  {pos:16.0f}  {format_percent(share.value)} "
                      f"[{format_percent(share.low)}, {format_percent(share.high)}]",
                      flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
