"""Where a random-policy hand spends its time, measured piece by piece on one thread.

Usage: python scripts/measure/xianniu_profile_kernels.py [--rules R] [--hands N]

Prints the decisions of an average hand by phase, then the cost of each piece measured
alone (median of repeats): dealing, counting and drawing a lead, counting and drawing an
answer, and the whole hand. Numba's JIT code carries no symbols a sampling profiler can
read, so the pieces are timed as separate kernels over the same hands.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numba
import numpy as np
from numba import njit

from analyzer.xianniu.rules import get_rules
from analyzer.xianniu.sim import logged_hands, policy_arrays, rule_arrays
from kernels.rng import bounded, states_from_seed
from kernels.xianniu import game as kg
from kernels.xianniu.batch import deal_many, play_deals
from kernels.xianniu.sampler import answer_at, count_answers, count_plays, play_at
from kernels.xianniu.tables import KIND_SET


@njit
def _deal_only(rng, n, hands):
    for _ in range(n):
        kg.deal(rng, hands)


@njit
def _leads(hands, params, beats, rng, info):
    acc = 0
    for h in range(hands.shape[0]):
        n = count_plays(hands[h], params, beats, 16)
        acc += play_at(hands[h], params, beats, 16, bounded(rng, n), info)
    return acc


@njit
def _answers(hands, tops, beats, rng, info):
    acc = 0
    for h in range(hands.shape[0]):
        t = tops[h]
        n = count_answers(hands[h], t[0], t[1], t[2], t[3], beats)
        if n > 0:
            acc += answer_at(hands[h], t[0], t[1], t[2], t[3], beats, bounded(rng, n), info)
    return acc


def _median_ns(fn, per: int, repeats: int = 7) -> float:
    fn()
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times) / per * 1e9


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rules", default="lanzhou")
    ap.add_argument("--hands", type=int, default=200_000)
    args = ap.parse_args()
    numba.set_num_threads(1)
    r = get_rules(args.rules)
    rk = rule_arrays(r)
    params, beats = rk[0], rk[1]
    phases = ("qiangci", "lead", "kou_ask", "trick", "discard")
    counts = dict.fromkeys(phases, 0)
    sample = logged_hands(3000, r, seed=1)
    for lh in sample:
        from analyzer.xianniu.engine import new_hand
        st = new_hand(list(lh.hands), r)
        for _, a in lh.actions:
            counts[st.phase] += 1
            st.apply(a)
    n = args.hands
    deals = np.empty((n, 3), dtype=np.int64)
    deal_many(states_from_seed(2, 1)[0], n, deals)
    info = np.empty(kg.INFO_COLS, dtype=np.int64)
    rng = states_from_seed(3, 1)[0]
    tops = np.array([[KIND_SET, 1 + (i % 3), i % 12, 0] for i in range(n)], dtype=np.int64)
    out = np.empty((n, kg.N_RESULT), dtype=np.int64)
    hands1 = np.empty(3, dtype=np.int64)
    whole = _median_ns(lambda: play_deals(deals, rng, rk, policy_arrays("random"), 0, out), n)
    dealing = _median_ns(lambda: _deal_only(rng, n, hands1), n)
    lead = _median_ns(lambda: _leads(deals[:, 0], params, beats, rng, info), n)
    answer = _median_ns(lambda: _answers(deals[:, 1], tops, beats, rng, info), n)
    per_hand = {k: v / len(sample) for k, v in counts.items()}
    print(f"rules {r.name}, one thread, {n} hands per timing, median of 7")
    print("decisions per hand: " + ", ".join(f"{k} {v:.1f}" for k, v in per_hand.items())
          + f"; total {sum(per_hand.values()):.1f}")
    print(f"whole hand (deal + play + score)  {whole:8.0f} ns")
    print(f"deal                              {dealing:8.0f} ns")
    print(f"one lead, 16-card hand            {lead:8.0f} ns  (count + draw + decode)")
    print(f"one answer to a set               {answer:8.0f} ns")
    est = dealing + per_hand["lead"] * lead + per_hand["trick"] * answer
    print(f"deal + leads + answers at these rates: {est:.0f} ns; the rest, "
          f"{whole - est:.0f} ns, is the state machine itself (phases, queues, captures, "
          f"scoring) at about {(whole - est) / sum(per_hand.values()):.0f} ns per decision")


if __name__ == "__main__":
    main()
