"""Compile every kernel once so that later runs start warm (numba cache=True)."""

import time

t = time.perf_counter()
from analyzer.simulate import deal_hands, logged_hands, simulate  # noqa: E402

for rules in ("lanzhou", "kanniutui"):
    simulate(100, rules, seed=0)
    logged_hands(2, rules, seed=0)
deal_hands(10, seed=0)
print(f"kernels ready in {time.perf_counter() - t:.1f} s")
