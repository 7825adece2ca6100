"""Throughput benchmark of the 顶牛 kernels against the reference engine, in one run
(``xianniu bench --game dingniu``).

Kernel figures: deals/s (the play driver under no seating), random-policy and
heuristic-policy hands/s (the play driver, every seat on the policy), on all threads and on
one, each the
median of ``repeats``. The reference engine plays random hands (``engine.random_start`` and
``random_action``) in the same run, so the ratio holds on a shared, noisy machine.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

import numba

from kernels import drivers
from kernels.rng import states_from_seed

from ..core.bench import cold_and_warm, rates_all_and_one
from ..core.drive import no_seating
from .engine import random_action, random_start
from .rules import get_rules
from .sim import CHUNK, policy_arrays, rule_arrays, seatings_of

DEAL_CHUNK = 16_384  # deals per chunk of the deals benchmark
_FIRST_CALL = ("import time; t = time.perf_counter(); "
               "from analyzer.dingniu.sim import play_hands; "
               "play_hands(1000, 'heuristic', 1, {rules!r}); "
               "print(time.perf_counter() - t)")


def reference_hands_per_s(rules: str, n: int, seed: int) -> float:
    """Random hands/s of the reference engine over ``n`` hands."""
    rng = random.Random(seed)
    t = time.perf_counter()
    for _ in range(n):
        st = random_start(rules, rng)
        while not st.is_terminal():
            st.apply(random_action(st, rng))
    return n / (time.perf_counter() - t)


def run_bench(rules: str | None = None, deals: int = 4_000_000, hands: int = 400_000,
              reference_hands: int = 300, repeats: int = 5, cold: bool = True,
              seed: int = 0) -> dict[str, Any]:
    """Deals/s, random- and heuristic-policy hands/s on all threads and on one, the
    reference engine's random hands/s, the ratios, and cold and warm first calls."""
    r = get_rules(rules)
    rk = rule_arrays(r)
    deal_states = states_from_seed(seed, -(-deals // DEAL_CHUNK))
    dealt_only = rk.result_rows(deals, 0)
    hand_states = states_from_seed(seed, -(-hands // CHUNK))
    out = rk.result_rows(hands)
    rand = seatings_of(policy_arrays("random", r))
    heur = seatings_of(policy_arrays("heuristic", r))

    def run_deals() -> None:  # the play driver under no seating: dealing alone
        drivers.play(rk, no_seating(policy_arrays("random", r)), dealt_only,
                     streams=deal_states, chunk_size=DEAL_CHUNK)

    def run_random() -> None:
        drivers.play(rk, rand, out, streams=hand_states, chunk_size=CHUNK)

    def run_heuristic() -> None:
        drivers.play(rk, heur, out, streams=hand_states, chunk_size=CHUNK)

    b: dict[str, Any] = {"game": "dingniu", "rules": r.name,
                         # numba.config sets its attributes when it loads: no stubs know them
                         "threads": numba.config.NUMBA_NUM_THREADS,  # type: ignore[attr-defined]
                         "repeats": repeats,
                         "statistic": "median", "deals": deals, "hands": hands}
    b.update(rates_all_and_one({"deals": (run_deals, deals), "hands": (run_random, hands),
                                "heuristic_hands": (run_heuristic, hands)}, repeats))
    rates = [reference_hands_per_s(r.name, reference_hands, seed + i)
             for i in range(max(1, repeats // 2))]
    b["reference_hands"] = reference_hands
    b["reference_hands_per_s"] = statistics.median(rates)
    b["speedup_one_thread"] = b["hands_per_s_one"] / b["reference_hands_per_s"]
    b["speedup_all_threads"] = b["hands_per_s_all"] / b["reference_hands_per_s"]
    if cold:
        b.update(cold_and_warm(_FIRST_CALL.format(rules=r.name)))
    return b


def format_bench(b: dict[str, Any]) -> str:
    """The benchmark as text."""
    lines = [
        f"顶牛 rules {b['rules']}, {b['threads']} threads, median of {b['repeats']} repeats",
        f"deals/s           all threads {b['deals_per_s_all']:>14,.0f}   one thread "
        f"{b['deals_per_s_one']:>14,.0f}",
        f"random hands/s    all threads {b['hands_per_s_all']:>14,.0f}   one thread "
        f"{b['hands_per_s_one']:>14,.0f}",
        f"heuristic hands/s all threads {b['heuristic_hands_per_s_all']:>14,.0f}   one thread "
        f"{b['heuristic_hands_per_s_one']:>14,.0f}",
        f"reference engine  {b['reference_hands_per_s']:,.0f} random hands/s (one thread, "
        f"{b['reference_hands']} hands)",
        f"kernel / reference: {b['speedup_one_thread']:,.0f}x on one thread, "
        f"{b['speedup_all_threads']:,.0f}x on all threads",
    ]
    if "cold_first_call_s" in b:
        lines.append(f"first call (import + 1,000 heuristic hands): cold cache "
                     f"{b['cold_first_call_s']:.2f} s, warm cache {b['warm_first_call_s']:.2f} s")
    return "\n".join(lines)
