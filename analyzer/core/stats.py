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


def format_percent(p: float, digits: int = 3) -> str:
    """A probability as a percentage with ``digits`` significant digits, so that small ones
    stay distinguishable from 0 (0.05% is not printed as 0.0%).

    >>> format_percent(0.0005), format_percent(0.0), format_percent(0.4567), format_percent(1)
    ('0.0500%', '0%', '45.7%', '100%')
    """
    if math.isnan(p):
        return "n/a"
    pct = 100.0 * p
    if pct == 0 or pct == 100:
        return f"{pct:.0f}%"
    decimals = max(0, digits - 1 - math.floor(math.log10(abs(pct))))
    return f"{pct:.{decimals}f}%"


def format_estimate(e: Estimate | dict, digits: int = 3, signed: bool = True,
                    percent: bool = False, unit: str = "") -> str:
    """``value [low, high] (n=…)``: decimals (``digits`` places, with a sign if ``signed``),
    or with ``percent`` percentages by :func:`format_percent` (``digits`` significant);
    ``unit`` names what n counts when it is not what the table says it is.

    >>> format_estimate({"value": 0.25, "low": 0.1, "high": 0.4, "n": 1000})
    '+0.250 [+0.100, +0.400] (n=1,000)'
    >>> format_estimate(Estimate(0.0005, 0.0001, 0.002, 20000), percent=True)
    '0.0500% [0.0100%, 0.200%] (n=20,000)'
    >>> format_estimate({"value": 41.2, "low": 40, "high": 42.4, "n": 20000}, 1, unit="hands")
    '+41.2 [+40.0, +42.4] (n=20,000 hands)'
    """
    d = e.as_dict() if isinstance(e, Estimate) else e
    if percent:
        def f(x: float) -> str:
            return format_percent(x, digits)
    else:
        spec = f"{'+' if signed else ''}.{digits}f"

        def f(x: float) -> str:
            return format(x, spec)
    n = f"{int(d['n']):,}" + (f" {unit}" if unit else "")
    return f"{f(d['value'])} [{f(d['low'])}, {f(d['high'])}] (n={n})"
