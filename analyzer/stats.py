"""Estimates with their sample size and a 95% confidence interval."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import numpy as np

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Estimate:
    """A statistic: value, 95% CI ``[low, high]`` and the sample size ``n``."""

    value: float
    low: float
    high: float
    n: int

    def as_dict(self) -> dict[str, float | int]:
        return asdict(self)

    def __str__(self) -> str:
        return f"{self.value:.4f} [{self.low:.4f}, {self.high:.4f}] (n={self.n})"


def mean_ci(values: np.ndarray | list[float]) -> Estimate:
    """Sample mean with a normal-approximation 95% CI."""
    x = np.asarray(values, dtype=np.float64)
    n = int(x.size)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    m = float(x.mean())
    half = Z95 * float(x.std(ddof=1)) / math.sqrt(n) if n > 1 else math.inf
    return Estimate(m, m - half, m + half, n)


def mean_ci_from_sums(total: float, total_sq: float, n: int) -> Estimate:
    """Mean and 95% CI from the mergeable sums Σx, Σx² and the count."""
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    m = total / n
    var = max(total_sq - n * m * m, 0.0) / (n - 1) if n > 1 else math.inf
    half = Z95 * math.sqrt(var / n)
    return Estimate(m, m - half, m + half, n)


def proportion_ci(successes: int, n: int) -> Estimate:
    """A proportion with the Wilson score 95% interval (sound near 0 and 1)."""
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    p = successes / n
    z2 = Z95 * Z95
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    low = 0.0 if successes == 0 else min(p, max(0.0, centre - half))
    high = 1.0 if successes == n else max(p, min(1.0, centre + half))
    return Estimate(p, low, high, n)
