"""How far from the end the 双升 open-hand solver solves in ≤ 1 s, and what hidden cards cost.

Hands are whole hands from the deal played in the kernels by ``--policy`` (default tuned, the
default of ``shengji advise``) at every seat; hand i of a preset is dealt from child i of
``SeedSequence(--seed, spawn_key=(preset index,))``, and the same hands serve every row.
For each number k of tricks to go, the position is the start of the hand's k-th trick from
the end (the engine replays the logs up to it). The jit-compiled solver
(``kernels.shengji.solver``) solves it with all four hands open; a position that needs more
than ``--max-positions`` searched positions counts as over 1 s (unsolved). Timing covers the
search only (the engine's replay and the kernel arrays are not timed), on ``--workers``
processes (default 2, the 2 cores).

Per preset and k: n positions, the median and 90th percentile of the solve time (unsolved
as +inf), the max among the solved, the share solved in ≤ 1 s with its 95% CI, and at the
solved positions the cost of hidden information, two ways:

- **gap**: the attackers' points the policy actually ended on from that position (all four
  seats playing on, each from its own view) less the open-hand value (minimax, all hands
  open): mean with 95% CI, and the mean absolute gap;
- **lead loss**: the points the leader's side gives up with the lead the policy chose there,
  against the best lead with all hands open (both valued by the solver; ≥ 0): mean with its
  95% CI, and the share of best leads with its 95% CI.

Usage: python scripts/measure/shengji_solver_reach.py [--tricks 1,2,3,4,5,6,7,8] [--n 40]
       [--rules zhengzhou,classic] [--policy tuned] [--max-positions 5000000] [--seed S]
       [--workers 2]
"""

from __future__ import annotations

import argparse
import time
from multiprocessing import Pool

import numpy as np

from analyzer.core.stats import format_percent, mean_ci, proportion_ci
from analyzer.shengji.actions import PLAY, Action
from analyzer.shengji.crosscheck import kernel_hands, state_at_trick
from analyzer.shengji.rules import PRESETS
from analyzer.shengji.solver import SearchLimit, kernel_position, solve, table_rows
from kernels.shengji import hand as kh
from kernels.shengji import solver as ks
from kernels.shengji.game import W_PLAY
from kernels.shengji.planes import cards_of


def _hand(seed: np.random.SeedSequence, rules: str, policy: str):
    return kernel_hands(1, rules, int(seed.generate_state(1)[0] >> 1), levels=(2, 2),
                        banker=0, policies=policy)


def solve_one(job: tuple) -> tuple | None:
    """(seconds or None, positions, gap, lead loss, best lead?) of one job; None when the
    hand has fewer than k tricks."""
    seed, rules, policy, k, max_positions = job
    hands = _hand(seed, rules, policy)
    n_tricks = int(hands.res[0, W_PLAY + kh.R_TRICKS])
    if n_tricks < k:
        return None
    st = state_at_trick(hands, 0, rules, n_tricks - k)
    pos, rk = kernel_position(st)
    stack = ks.new_stack(ks.stack_depth(pos[0]))
    tt = ks.new_table(table_rows(st))
    t0 = time.perf_counter()
    to_come = int(ks.solve_position(pos, rk, tt, stack, max_positions))
    seconds = time.perf_counter() - t0
    info = stack[8]
    if info[ks.I_FAIL] != 0:
        return None, int(info[ks.I_NODES]), None, None, None
    value = st.attacker_points + to_come
    actual = int(hands.res[0, W_PLAY + kh.R_ATTACKER_POINTS])
    row = hands.tlogs[0, n_tricks - k]
    lead = Action(PLAY, cards_of(int(row[kh.LG_ATTEMPT]), int(row[kh.LG_ATTEMPT + 1])))
    child = st.clone()
    child.apply(lead)
    try:
        after = solve(child, max_positions).points
    except SearchLimit:
        return seconds, int(info[ks.I_NODES]), actual - value, None, None
    loss = value - after if st.is_attacker(st.turn) else after - value
    return seconds, int(info[ks.I_NODES]), actual - value, loss, loss == 0


def _warm(_: int) -> None:
    import random

    from analyzer.shengji.solver import late_position

    solve(late_position(random.Random(0), "zhengzhou", 2))


def _quantile(xs: list[float], n: int, q: float) -> float:
    v = np.sort(np.array(xs + [np.inf] * (n - len(xs))))
    return float(v[min(n - 1, int(np.ceil(q * n)) - 1)])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tricks", default="1,2,3,4,5,6,7,8", help="tricks to go")
    ap.add_argument("--n", type=int, default=40, help="hands per preset")
    ap.add_argument("--rules", default="zhengzhou,classic")
    ap.add_argument("--policy", default="tuned")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--max-positions", type=int, default=5_000_000,
                    help="positions searched before a position counts as unsolved")
    args = ap.parse_args()
    levels = [int(x) for x in args.tricks.split(",")]
    print(f"seed {args.seed}, policy {args.policy}, {args.workers} processes, limit "
          f"{args.max_positions:,} positions")
    print("rules      to go   n  median s  p90 s    max s (solved)  positions (mean)  "
          "≤1 s [95% CI]        gap (actual − open) [95% CI]  |gap|   lead loss [95% CI]"
          "        best lead [95% CI]")
    with Pool(args.workers) as pool:
        pool.map(_warm, range(args.workers), chunksize=1)
        for rules in args.rules.split(","):
            seeds = np.random.SeedSequence(args.seed,
                                           spawn_key=(list(PRESETS).index(rules),)
                                           ).spawn(args.n)
            for k in levels:
                jobs = [(s, rules, args.policy, k, args.max_positions) for s in seeds]
                res = [r for r in pool.map(solve_one, jobs, chunksize=1) if r is not None]
                n = len(res)
                times = [r[0] for r in res if r[0] is not None]
                fast = sum(1 for t in times if t <= 1.0)
                share = proportion_ci(fast, n)
                pos = np.mean([r[1] for r in res if r[0] is not None]) if times else 0
                gaps = [r[2] for r in res if r[2] is not None]
                losses = [r[3] for r in res if r[3] is not None]
                bests = [r[4] for r in res if r[4] is not None]
                g = mean_ci(np.array(gaps, dtype=float))
                lo = mean_ci(np.array(losses, dtype=float))
                b = proportion_ci(sum(bests), len(bests))
                print(f"{rules:<10} {k:>5} {n:>3}  {_quantile(times, n, 0.5):8.3f}  "
                      f"{_quantile(times, n, 0.9):6.3f}  "
                      f"{max(times) if times else float('nan'):13.3f}  {pos:16.0f}  "
                      f"{format_percent(share.value)} [{format_percent(share.low)}, "
                      f"{format_percent(share.high)}]  "
                      f"{g.value:+7.1f} [{g.low:+.1f}, {g.high:+.1f}] n {len(gaps):<4} "
                      f"{np.mean(np.abs(gaps)) if gaps else float('nan'):5.1f}  "
                      f"{lo.value:5.1f} [{lo.low:.1f}, {lo.high:.1f}] n {len(losses):<4} "
                      f"{format_percent(b.value)} [{format_percent(b.low)}, "
                      f"{format_percent(b.high)}]", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
