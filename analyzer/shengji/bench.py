"""Throughput benchmark of the 双升 kernels against the reference engine, in one run.

Kernel figures: deals/s (``deal_chunks``), play-only random hands/s (``play_chunks``),
whole random hands/s from the deal, bidding included (the play driver: team levels 2 and 2,
seat 0 banker going in) and the same whole hands with every seat on the heuristic policy
(a quarter as many hands), on all threads and on one, each the median of ``repeats``. The
reference engine plays the same kinds of hand (``engine.play_only`` / ``engine.new_hand``
+ ``play_random``) at some tens of hands/s, so it plays at most ``REFERENCE_CAP`` hands a
repeat whatever ``reference_hands`` asks for (the root ``xianniu bench`` default of 300
would take minutes).
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

import numba
import numpy as np

from kernels.rng import states_from_seed
from kernels.shengji.batch import play_chunks
from kernels.shengji.deal import DEAL_AGG_SIZE, deal_chunks
from kernels.shengji.hand import N_RESULT
from kernels.shengji.policies import POLICY_HEURISTIC, default_params
from kernels.shengji.policies import seat_policies as kernel_seats

from ..core.bench import cold_and_warm, rates_all_and_one
from .batch import BANKER, LEVEL, LEVELS, START_BANKER, TRUMP
from .engine import deal, new_hand, play_only, play_random
from .rules import get_rules
from .sim import CHUNK, kernel_rules, rule_arrays, whole_hand_rows

REFERENCE_CAP = 20  # reference-engine hands a repeat, at most
_FIRST_CALL = ("import time; t = time.perf_counter(); "
               "from analyzer.shengji.sim import deal_features, play_hands, whole_hands; "
               "play_hands(1000, {rules!r}, 1); whole_hands(1000, {rules!r}, 1); "
               "deal_features(1000, 2, 0, {rules!r}, 1); "
               "print(time.perf_counter() - t)")


def reference_hands_per_s(rules, n: int, seed: int) -> float:
    """Play-only random hands/s of the reference engine over ``n`` hands."""
    rng = random.Random(seed)
    t = time.perf_counter()
    for _ in range(n):
        hands, kitty = deal(rng)
        play_random(play_only(rules, hands, kitty, LEVEL, TRUMP, BANKER), rng)
    return n / (time.perf_counter() - t)


def reference_whole_per_s(rules, n: int, seed: int) -> float:
    """Whole random hands/s of the reference engine (``new_hand`` + ``play_random``) over
    ``n`` hands, from the kernels' setting."""
    rng = random.Random(seed)
    t = time.perf_counter()
    for _ in range(n):
        play_random(new_hand(rules, LEVELS, START_BANKER, rng=rng), rng)
    return n / (time.perf_counter() - t)


def run_bench(rules: str | None = None, deals: int = 4_000_000, hands: int = 400_000,
              reference_hands: int = REFERENCE_CAP, repeats: int = 5, cold: bool = True,
              seed: int = 0) -> dict[str, Any]:
    """Deals/s, play-only and whole random hands/s on all threads and on one, the
    reference engine's play-only and whole hands/s (``min(reference_hands,
    REFERENCE_CAP)`` a repeat), the ratios, and cold and warm first calls."""
    r = get_rules(rules)
    params = rule_arrays(r)
    ref_n = max(1, min(reference_hands, REFERENCE_CAP))
    deal_states = states_from_seed(seed, -(-deals // CHUNK))
    agg = np.empty((len(deal_states), DEAL_AGG_SIZE), dtype=np.int64)
    hand_states = states_from_seed(seed, -(-hands // CHUNK))
    out = np.empty((hands, N_RESULT), dtype=np.int64)
    levels = np.array(LEVELS, dtype=np.int64)
    heuristic_hands = max(1, hands // 4)
    heuristic = np.full(4, POLICY_HEURISTIC, dtype=np.int64)

    def run_deals():
        deal_chunks(deal_states, CHUNK, deals, LEVEL, TRUMP, BANKER, params, agg)

    def run_hands():
        play_chunks(hand_states, CHUNK, hands, (LEVEL, TRUMP, BANKER), params, out)

    kr = kernel_rules(r, levels, START_BANKER)

    def run_whole():
        whole_hand_rows(kr, kernel_seats(), hand_states, CHUNK, hands)

    def run_heuristic():
        whole_hand_rows(kr, (heuristic, default_params()), hand_states, CHUNK, heuristic_hands)

    b: dict[str, Any] = {"game": "shengji", "rules": r.name,
                         # numba.config sets its attributes when imported: no stub has them
                         "threads": numba.config.NUMBA_NUM_THREADS,  # type: ignore[attr-defined]
                         "repeats": repeats,
                         "statistic": "median", "deals": deals, "hands": hands,
                         "play_only": True}
    b.update(rates_all_and_one({"deals": (run_deals, deals), "hands": (run_hands, hands),
                                "whole": (run_whole, hands),
                                "heuristic": (run_heuristic, heuristic_hands)}, repeats))
    b["heuristic_hands"] = heuristic_hands
    rates = [reference_hands_per_s(r, ref_n, seed + i) for i in range(max(1, repeats // 2))]
    b["reference_hands"] = ref_n
    b["reference_hands_per_s"] = statistics.median(rates)
    b["speedup_one_thread"] = b["hands_per_s_one"] / b["reference_hands_per_s"]
    b["speedup_all_threads"] = b["hands_per_s_all"] / b["reference_hands_per_s"]
    whole = [reference_whole_per_s(r, ref_n, seed + i) for i in range(max(1, repeats // 2))]
    b["reference_whole_per_s"] = statistics.median(whole)
    b["whole_speedup_one_thread"] = b["whole_per_s_one"] / b["reference_whole_per_s"]
    b["whole_speedup_all_threads"] = b["whole_per_s_all"] / b["reference_whole_per_s"]
    if cold:
        b.update(cold_and_warm(_FIRST_CALL.format(rules=r.name)))
    return b


def format_bench(b: dict[str, Any]) -> str:
    """The benchmark as text."""
    lines = [
        f"双升 rules {b['rules']}, {b['threads']} threads, median of {b['repeats']} repeats; "
        f"play-only hands: level 2, trump ♠, banker seat 0; whole hands: bidding included, "
        f"team levels 2 and 2, seat 0 banker going in",
        f"deals/s               all threads {b['deals_per_s_all']:>14,.0f}   one thread "
        f"{b['deals_per_s_one']:>14,.0f}",
        f"play-only hands/s     all threads {b['hands_per_s_all']:>14,.0f}   one thread "
        f"{b['hands_per_s_one']:>14,.0f}",
        f"whole hands/s         all threads {b['whole_per_s_all']:>14,.0f}   one thread "
        f"{b['whole_per_s_one']:>14,.0f}",
        f"heuristic whole/s     all threads {b['heuristic_per_s_all']:>14,.0f}   one thread "
        f"{b['heuristic_per_s_one']:>14,.0f}   (every seat heuristic)",
        f"reference engine      {b['reference_hands_per_s']:,.1f} play-only hands/s, "
        f"{b['reference_whole_per_s']:,.1f} whole hands/s (one thread, "
        f"{b['reference_hands']} hands)",
        f"kernel / reference, play-only: {b['speedup_one_thread']:,.0f}x on one thread, "
        f"{b['speedup_all_threads']:,.0f}x on all threads",
        f"kernel / reference, whole:     {b['whole_speedup_one_thread']:,.0f}x on one thread, "
        f"{b['whole_speedup_all_threads']:,.0f}x on all threads",
    ]
    if "cold_first_call_s" in b:
        lines.append(f"first call (import + 1,000 play-only + 1,000 whole hands + 1,000 "
                     f"deals): cold cache "
                     f"{b['cold_first_call_s']:.2f} s, warm cache {b['warm_first_call_s']:.2f} s")
    return "\n".join(lines)
