"""Cross-entropy search over a policy's weight vector, shared by every game's tuning script.

Each iteration draws a population around the current mean, scores every member (a duplicate
match against the default weights, on the iteration's deals), and moves the mean and spread
to those of the best quarter. Draws come from the generator the caller seeds, so a run is
reproducible.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

import numpy as np


def cross_entropy(score: Callable[[np.ndarray, int], float], mean: np.ndarray,
                  spread: np.ndarray, *, iterations: int, population: int,
                  rng: np.random.Generator, floor: float | np.ndarray = 0.0,
                  unit: str = "points/hand") -> tuple[np.ndarray, list[dict]]:
    """The tuned mean and one history entry per iteration.

    ``score(weights, iteration)`` is the gain of ``weights`` over the defaults (higher is
    better); members are clipped below at ``floor``. Progress goes to stderr in ``unit``.
    """
    n_elite = max(2, population // 4)
    history: list[dict] = []
    t0 = time.perf_counter()
    for it in range(iterations):
        pop = np.maximum(mean + spread * rng.standard_normal((population, mean.size)), floor)
        scores = np.array([score(v, it) for v in pop])
        top = np.argsort(scores)[-n_elite:]
        mean, spread = pop[top].mean(axis=0), pop[top].std(axis=0) + 0.05
        seconds = round(time.perf_counter() - t0, 1)
        history.append({"iteration": it, "best": float(scores.max()),
                        "elite_mean": float(scores[top].mean()), "seconds": seconds})
        print(f"iteration {it}: best {scores.max():+.3f}, elite mean {scores[top].mean():+.3f} "
              f"{unit} vs defaults ({seconds:.0f} s)", file=sys.stderr)
    return mean, history
