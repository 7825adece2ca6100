"""How the report prints numbers: points, probabilities, counts and intervals.

Probabilities keep three significant digits however small (``0.0436%``, not ``0.0%``), so
a rare event is never shown as impossible; only an exact 0 prints as ``0%``. Minus signs
are true minus signs (U+2212).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable


def _finite(f: Callable[[float], str]) -> Callable[[float], str]:
    """``f``, with a dash for NaN and infinities."""
    @functools.wraps(f)
    def g(v: float) -> str:
        return "—" if not math.isfinite(v) else f(v)
    return g


def minus(text: str) -> str:
    """``text`` with its hyphen-minus signs as true minus signs."""
    return text.replace("-", "−")


@_finite
def fmt_points(v: float) -> str:
    """Points per hand, signed: ``+1.342``, ``−0.027``."""
    return minus(f"{v:+.3f}")


@_finite
def fmt_pct(v: float) -> str:
    """A probability in percent to 3 significant digits: ``30.5%``, ``0.0436%``, ``0%``."""
    if v == 0:
        return "0%"
    if abs(v) >= 0.9995:
        return f"{100 * v:.1f}%"
    rounded = abs(float(f"{100 * v:.3g}"))  # decimals from the rounded value: 9.9996 → 10.0
    decimals = max(0, 2 - math.floor(math.log10(rounded)))
    return minus(f"{100 * v:.{decimals}f}%")


def fmt_count(v: float, signed: bool = False) -> str:
    """A mean count to 3 decimals (``0.505``), signed for a difference."""
    return "—" if not math.isfinite(v) else minus(f"{v:+.3f}" if signed else f"{v:.3f}")


def fmt_ci(v: float, lo: float, hi: float, unit: str = "points",
           signed: bool = False) -> str:
    """``value [low, high]`` in the unit's format (points, probability or count);
    ``signed`` marks a difference."""
    if unit == "points":
        f = fmt_points
    elif unit == "probability":
        f = _finite(lambda x: ("+" if signed and x >= 0 else "") + fmt_pct(x))
    else:
        f = functools.partial(fmt_count, signed=signed)
    return f"{f(v)} [{f(lo)}, {f(hi)}]"


def fmt_n(n: int, unit: str) -> str:
    """A sample size with thousands separators and its unit: ``400,000 局``."""
    return f"{int(n):,} {unit}"
