"""The race of paired play-outs that every game's ``advise`` runs.

Each deal plays every action still racing from one random stream, so the actions' values on
a deal are paired. After each batch an action whose gap to the leader excludes 0 at
``z = RACE_Z`` (a stricter bound than 95%, since the race looks many times) leaves; the race
stops when the leader is alone, when every action still racing is within the precision of
it (95% CI half-width of the paired gap), or at the sample limit.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from .stats import Z95, format_estimate

RACE_Z = 3.29  # an action leaves the race when its gap to the leader excludes 0 at this z


class Race:
    """The deals played so far (one row per deal, one column per action) and the sums the
    race reads: per action Σx and, over the deals all racing actions share, Σ x_a x_b."""

    def __init__(self, k: int):
        self.batches: list[np.ndarray] = []  # grown as deals come: memory follows n
        self.n = 0
        self.active = np.ones(k, dtype=np.int64)
        self.total = np.zeros(k)
        self.gram = np.zeros((k, k))

    def add(self, got: np.ndarray) -> None:
        self.batches.append(got)
        self.n += len(got)
        on = np.flatnonzero(self.active)
        x = got[:, on].astype(np.float64)
        self.total[on] += x.sum(axis=0)
        self.gram[np.ix_(on, on)] += x.T @ x

    def leader(self) -> int:
        on = np.flatnonzero(self.active)
        return int(on[np.argmax(self.total[on])])  # ties: the first in engine order

    def gaps(self, lead: int) -> list[tuple[int, float, float]]:
        """(action, mean gap leader − action, its standard error) for each racing action."""
        n, out = self.n, []
        for a in np.flatnonzero(self.active):
            if a == lead:
                continue
            s = self.total[lead] - self.total[a]
            ss = self.gram[lead, lead] + self.gram[a, a] - 2 * self.gram[lead, a]
            var = max(ss - s * s / n, 0.0) / (n - 1)
            out.append((int(a), s / n, math.sqrt(var / n)))
        return out

    def step(self, precision: float, samples: int, min_deals: int) -> str | None:
        """Drop the actions clearly behind; the stopping reason, or None to go on."""
        if self.n < min(min_deals, samples):
            return None
        lead = self.leader()
        for a, gap, se in self.gaps(lead):
            if gap - RACE_Z * se > 0:
                self.active[a] = 0
        if self.active.sum() == 1:
            return "leader alone"
        if all(Z95 * se <= precision for _, _, se in self.gaps(lead)):
            return "precision"
        return "samples" if self.n >= samples else None


def ranked_lines(d: dict[str, Any], label: Callable[[dict[str, Any]], str],
                 width: int = 30) -> list[str]:
    """The race's answer as a table (an advice's JSON: ``actions`` best first, each with
    ``action``, ``ev``, ``ci95``, ``n``, ``diff``; ``best``; ``separated``): rank, action
    (``label`` of each ranked action), EV with 95% CI and n, the paired gap best − action;
    then the best, whether it is separated from the second, and its record entry."""
    lines = [f"  {'#':>2}  {'action':<{width}} {'EV [95% CI] (n)':<36} best − this [95% CI] (n)"]
    for i, a in enumerate(d["actions"], 1):
        ev = {"value": a["ev"], "low": a["ci95"][0], "high": a["ci95"][1], "n": a["n"]}
        gap = "—" if i == 1 else format_estimate(a["diff"])
        lines.append(f"  {i:>2}  {label(a):<{width}} {format_estimate(ev):<36} {gap}")
    lines.append(f"best: {label(d['best'])}; "
                 + ("separated from the second (the CI of the gap excludes 0)"
                    if d["separated"] else "not separated from the second (the CI of the gap "
                    "holds 0)"))
    lines.append("record entry: " + json.dumps(d["best"]["action"], ensure_ascii=False))
    return lines
