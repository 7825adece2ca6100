"""How deep the 掀牛 open-hand solver solves exactly: time per position by cards left.

Positions come from ``analyzer.xianniu.solver.late_position`` (random play from seeded deals,
紧牌 called whenever it may be) at each level of cards left in the three hands together; each
position gets its own child of ``SeedSequence(--seed, spawn_key=(preset, level))``. They are
solved by the jit-compiled solver (``--engine reference``: the pure-Python one) on
``--workers`` processes (default 2, the 2 cores); a position not solved within
``--max-positions`` searched positions (kernel) or ``--limit`` seconds (reference) counts as
unsolved. For each preset and level the script prints n, the median time with a
distribution-free 95% CI (order statistics), the max time among the solved, and the share
solved with its 95% CI.

Usage: python scripts/measure/xianniu_solver_reach.py [--levels 6,9,12,15] [--n 20] [--limit 60]
                                              [--max-positions 50000000]
                                              [--rules lanzhou,kanniutui] [--seed S]
                                              [--engine kernel|reference]
"""

from __future__ import annotations

import argparse
import math
import signal
import time
from multiprocessing import Pool

import numpy as np

from analyzer.core.stats import format_percent, proportion_ci
from analyzer.xianniu.kernel_state import ws_from_state
from analyzer.xianniu.rules import PRESETS
from analyzer.xianniu.sim import rule_arrays
from analyzer.xianniu.solver import late_position, solve, solve_kernel
from kernels.xianniu import solver as ks


class _Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise _Timeout


def solve_one(job: tuple) -> tuple[float | None, int, int]:
    """(seconds or None if over the limit, positions searched, table count) of a job."""
    seed, rules, level, limit, engine, max_positions = job
    st = late_position(seed, rules, level)
    if engine == "kernel":  # a jit-compiled search cannot be interrupted: limit its size
        ws = ws_from_state(st)  # the engine's replay into state words is not timed
        rk, stack = rule_arrays(st.rules), ks.new_stack(ks.stack_depth(ws))
        tt = ks.new_table(table_rows(level))
        t0 = time.perf_counter()
        nodes = ks.solve_ws(ws, rk, tt, 1, stack, max_positions)
        seconds = time.perf_counter() - t0
        return (seconds if nodes >= 0 else None), max(nodes, 0), st.table_count()
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


def table_rows(cards: int) -> int:
    """log2 of the table rows for a position with ``cards`` left: about the positions a
    search of that size keeps (a fresh table much larger only costs page faults)."""
    return min(22, max(12, cards + 6))


def _warm(_: int) -> None:
    """Load the compiled solver in a worker before any position is timed."""
    solve_kernel(late_position(np.random.SeedSequence(0), "lanzhou", 3), 12)


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
    ap.add_argument("--levels", default="6,9,12,15", help="cards left in the three hands")
    ap.add_argument("--n", type=int, default=20, help="positions per preset and level")
    ap.add_argument("--limit", type=int, default=60, help="seconds per position")
    ap.add_argument("--rules", default="lanzhou,kanniutui")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--engine", choices=["kernel", "reference"], default="kernel")
    ap.add_argument("--max-positions", type=int, default=50_000_000,
                    help="kernel: positions searched before a position counts as unsolved")
    args = ap.parse_args()
    levels = [int(x) for x in args.levels.split(",")]
    limit = (f"{args.max_positions:,} positions" if args.engine == "kernel"
             else f"{args.limit} s")
    print(f"seed {args.seed}, {args.engine} solver, {args.workers} processes, "
          f"limit {limit} per position")
    print("rules      cards left  n   table  median s [95% CI]          max s (solved)  "
          "positions (mean)  solved [95% CI]")
    with Pool(args.workers) as pool:
        if args.engine == "kernel":
            pool.map(_warm, range(args.workers), chunksize=1)
        for rules in args.rules.split(","):
            for level in levels:
                # a row's positions depend on its preset and level only
                seeds = np.random.SeedSequence(args.seed,
                                               spawn_key=(list(PRESETS).index(rules), level)
                                               ).spawn(args.n)
                jobs = [(s, rules, level, args.limit, args.engine, args.max_positions)
                        for s in seeds]
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
