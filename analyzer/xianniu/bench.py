"""Throughput benchmark: kernels against the reference engine, in one run.

Machines are shared and noisy, so each figure is the median of several repeats, and the
kernels are compared with the reference engine measured in the same run.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

import numba
import numpy as np

from kernels.xianniu import game as kg
from kernels.xianniu.batch import deal_chunks, play_chunks
from kernels.rng import states_from_seed

from .reference_sim import random_hands
from .rules import get_rules
from .sim import CHUNK_SIZE, policy_arrays, rule_arrays

_FIRST_CALL = ("import time; t = time.perf_counter(); "
               "from analyzer.xianniu.sim import simulate; simulate(1000, {rules!r}, seed=1); "
               "print(time.perf_counter() - t)")


def _median_rate(fn, work: int, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return work / statistics.median(times)


def _threads(n: int):
    class _Ctx:
        def __enter__(self):
            self.old = numba.get_num_threads()
            numba.set_num_threads(n)

        def __exit__(self, *exc):
            numba.set_num_threads(self.old)
    return _Ctx()


def first_call_seconds(rules: str, cache_dir: str) -> float:
    """Seconds for import plus a first 1,000-hand simulate, in a fresh interpreter."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    out = subprocess.run([sys.executable, "-c", _FIRST_CALL.format(rules=rules)], env=env,
                         capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def run_bench(rules: str | None = None, deals: int = 2_000_000, hands: int = 400_000,
              reference_hands: int = 300, repeats: int = 5, cold: bool = True,
              seed: int = 0) -> dict[str, Any]:
    """Deals/s, random- and heuristic-policy hands/s on all threads and on one, the
    reference engine's random-policy hands/s, the ratio, and cold and warm first calls."""
    r = get_rules(rules)
    rules = r.name
    rk = rule_arrays(r)
    pol = policy_arrays("random")
    all_threads = numba.config.NUMBA_NUM_THREADS

    deal_states = states_from_seed(seed, -(-deals // CHUNK_SIZE))
    acc = np.empty(len(deal_states), dtype=np.int64)
    hand_states = states_from_seed(seed, -(-hands // CHUNK_SIZE))
    out = np.empty((hands, kg.N_RESULT), dtype=np.int64)

    def run_deals():
        deal_chunks(deal_states, CHUNK_SIZE, deals, acc)

    def run_hands():
        play_chunks(hand_states, CHUNK_SIZE, hands, rk, pol, out)

    heur = policy_arrays("heuristic")

    def run_heuristic():
        play_chunks(hand_states, CHUNK_SIZE, hands, rk, heur, out)

    run_deals()
    run_hands()  # compile or load from cache before timing
    run_heuristic()
    result: dict[str, Any] = {"rules": r.name, "threads": all_threads, "repeats": repeats,
                              "statistic": "median", "deals": deals, "hands": hands}
    with _threads(all_threads):
        result["deals_per_s_all"] = _median_rate(run_deals, deals, repeats)
        result["hands_per_s_all"] = _median_rate(run_hands, hands, repeats)
        result["heuristic_hands_per_s_all"] = _median_rate(run_heuristic, hands, repeats)
    with _threads(1):
        result["deals_per_s_one"] = _median_rate(run_deals, deals, repeats)
        result["hands_per_s_one"] = _median_rate(run_hands, hands, repeats)
        result["heuristic_hands_per_s_one"] = _median_rate(run_heuristic, hands, repeats)
    ref_times = []
    for i in range(max(1, repeats // 2)):
        t = time.perf_counter()
        random_hands(reference_hands, r, seed + i)
        ref_times.append(time.perf_counter() - t)
    result["reference_hands"] = reference_hands
    result["reference_hands_per_s"] = reference_hands / statistics.median(ref_times)
    result["speedup_one_thread"] = result["hands_per_s_one"] / result["reference_hands_per_s"]
    result["speedup_all_threads"] = result["hands_per_s_all"] / result["reference_hands_per_s"]
    if cold:
        with tempfile.TemporaryDirectory(prefix="xianniu-bench-cache-") as d:
            result["cold_first_call_s"] = first_call_seconds(r.name, d)
            result["warm_first_call_s"] = first_call_seconds(r.name, d)
    return result


def format_bench(b: dict[str, Any]) -> str:
    """The benchmark as text."""
    lines = [
        f"rules {b['rules']}, {b['threads']} threads, median of {b['repeats']} repeats",
        f"deals/s           all threads {b['deals_per_s_all']:>14,.0f}   one thread "
        f"{b['deals_per_s_one']:>14,.0f}",
        f"random hands/s    all threads {b['hands_per_s_all']:>14,.0f}   one thread "
        f"{b['hands_per_s_one']:>14,.0f}",
        f"heuristic hands/s all threads {b['heuristic_hands_per_s_all']:>14,.0f}   one thread "
        f"{b['heuristic_hands_per_s_one']:>14,.0f}",
        f"reference engine  {b['reference_hands_per_s']:,.0f} hands/s (one thread, "
        f"{b['reference_hands']} hands)",
        f"kernel / reference: {b['speedup_one_thread']:,.0f}x on one thread, "
        f"{b['speedup_all_threads']:,.0f}x on all threads",
    ]
    if "cold_first_call_s" in b:
        lines.append(f"first call (import + 1,000 hands): cold cache {b['cold_first_call_s']:.2f} s, "
                     f"warm cache {b['warm_first_call_s']:.2f} s")
    return "\n".join(lines)


if __name__ == "__main__":
    print(json.dumps(run_bench(), indent=2))
