"""Compile every kernel the commands use, once, so that later runs start warm (cache=True).

Usage: python scripts/warmup.py
"""

import time

t = time.perf_counter()
from analyzer.decision import should_kou, should_xian  # noqa: E402
from analyzer.dingniu.analysis import simulate as dingniu_simulate  # noqa: E402
from analyzer.dingniu.analysis import tournament as dingniu_tournament  # noqa: E402
from analyzer.simulate import deal_hands, logged_hands, simulate, simulate_aggregate  # noqa: E402
from analyzer.tournament import tournament  # noqa: E402
from analyzer.values import pattern_values, xian_ev  # noqa: E402

HAND = "Ks Qh Qc Js 10h 9s 9d 8c 7h 6s 5d 3c 3h 2s Ad Ac"
for rules in ("lanzhou", "kanniutui"):
    simulate(100, rules, seed=0)
    simulate_aggregate(100, rules, seed=0)
    logged_hands(2, rules, seed=0)
    tournament("heuristic,random", 4, rules, seed=0)
    pattern_values(10, rules, seed=0)
    xian_ev(10, rules, seed=0)
    should_xian(HAND, 1, rules, max_hands=100, precision=10.0)
    should_kou(HAND, rules, max_hands=100, precision=10.0)
deal_hands(10, seed=0)
dingniu_simulate(100, "heuristic", 0)
dingniu_tournament("heuristic,random", 4, 0)
print(f"kernels ready in {time.perf_counter() - t:.1f} s")
