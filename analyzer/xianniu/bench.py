"""Throughput benchmark: kernels against the reference engine, in one run.

Machines are shared and noisy, so each figure is the median of several repeats, and the
kernels are compared with the reference engine measured in the same run.
"""

from __future__ import annotations

import json
import statistics
import time
from typing import Any

import numba

from kernels import drivers
from kernels.rng import states_from_seed

from ..core.bench import cold_and_warm, rates_all_and_one
from ..core.drive import no_seating, seatings_of
from .reference_sim import random_hands
from .rules import get_rules
from .sim import CHUNK_SIZE, driver_policies, policy_arrays, rule_arrays

_FIRST_CALL = ("import time; t = time.perf_counter(); "
               "from analyzer.xianniu.sim import simulate; simulate(1000, {rules!r}, seed=1); "
               "print(time.perf_counter() - t)")


def run_bench(rules: str | None = None, deals: int = 2_000_000, hands: int = 400_000,
              reference_hands: int = 300, repeats: int = 5, cold: bool = True,
              seed: int = 0) -> dict[str, Any]:
    """Deals/s, random- and heuristic-policy hands/s on all threads and on one, the
    reference engine's random-policy hands/s, the ratio, and cold and warm first calls."""
    r = get_rules(rules)
    rules = r.name
    rk = rule_arrays(r)
    pol = policy_arrays("random")

    deal_states = states_from_seed(seed, -(-deals // CHUNK_SIZE))
    dealt_only = rk.result_rows(deals, 0)
    hand_states = states_from_seed(seed, -(-hands // CHUNK_SIZE))
    out = rk.result_rows(hands)
    rand = seatings_of(driver_policies(pol))
    heur = seatings_of(driver_policies(policy_arrays("heuristic")))

    def run_deals():  # the play driver under no seating: dealing alone
        drivers.play(rk, no_seating(driver_policies(pol)), dealt_only,
                     streams=deal_states, chunk_size=CHUNK_SIZE)

    def run_hands():
        drivers.play(rk, rand, out, streams=hand_states, chunk_size=CHUNK_SIZE)

    def run_heuristic():
        drivers.play(rk, heur, out, streams=hand_states, chunk_size=CHUNK_SIZE)

    result: dict[str, Any] = {"rules": r.name, "threads": numba.config.NUMBA_NUM_THREADS,  # type: ignore[attr-defined]
                              "repeats": repeats, "statistic": "median", "deals": deals,
                              "hands": hands}
    result.update(rates_all_and_one({"deals": (run_deals, deals), "hands": (run_hands, hands),
                                     "heuristic_hands": (run_heuristic, hands)}, repeats))
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
        result.update(cold_and_warm(_FIRST_CALL.format(rules=r.name)))
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
        lines.append(f"first call (import + 1,000 hands): cold cache "
                     f"{b['cold_first_call_s']:.2f} s, "
                     f"warm cache {b['warm_first_call_s']:.2f} s")
    return "\n".join(lines)


if __name__ == "__main__":
    print(json.dumps(run_bench(), indent=2))
