"""How the report prints numbers: points, probabilities, counts and intervals.

Probabilities keep three significant digits however small (``0.0436%``, not ``0.0%``), so
a rare event is never shown as impossible; only an exact 0 prints as ``0%``. Minus signs
are true minus signs (U+2212).

Two floors keep numbers too thin to read out of the tables: a cell on fewer than
:data:`MIN_CASES` cases prints only a dash and its n (:func:`fmt_cell`), and a match (a
player against another) on fewer than :data:`MIN_DEALS` deals gets no row
(:func:`enough_deals`); the page says so under each table that meets either
(:meth:`analyzer.report.render.Page.table`).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

import pandas as pd


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


MIN_CASES = 30  # fewer cases: the CI is too wide to read and its normal approximation rough
MIN_DEALS = 200  # fewer deals: a match's difference is mostly the deals' luck
FEW = "—"  # what a cell under the floor prints before its n


def fmt_cell(v: float, lo: float, hi: float, n: int, unit: str = "points",
             signed: bool = False, what: str = "") -> str:
    """``value [low, high] (n=…)`` (:func:`fmt_ci`; ``what`` names what n counts), or only
    ``— (n=…)`` on fewer than :data:`MIN_CASES` cases."""
    count = f"n={int(n):,}" + (f" {what}" if what else "")
    if int(n) < MIN_CASES:
        return f"{FEW} ({count})"
    return f"{fmt_ci(v, lo, hi, unit, signed)} ({count})"


def too_few(cell: object) -> bool:
    """Whether a table cell is one :func:`fmt_cell` left out for want of cases."""
    return isinstance(cell, str) and cell.startswith(f"{FEW} (n=")


def enough_deals(n: int) -> bool:
    """Whether a match played on ``n`` deals gets a row (at least :data:`MIN_DEALS`)."""
    return int(n) >= MIN_DEALS


def played_deals(n: int) -> int:
    """The deals a slow player's match plays at a planned ``n``: ``n`` where it reaches
    :data:`MIN_DEALS`, else 0 (not played: its row would be left out, so its minutes would
    be spent on nothing the page shows)."""
    return int(n) if enough_deals(n) else 0


def _count(x: Any) -> int | None:
    """``x`` as a whole count, None for a missing one (None, NaN or pandas' NA)."""
    if x is None or x is pd.NA or (isinstance(x, float) and not math.isfinite(x)):
        return None
    return int(x)


def fmt_ahead(value: object, low: object, high: object) -> str:
    """Hands after which the better player is ahead with 95% probability, with the n of its
    gap's CI ends: ``1,234 [567, 3,456]``; ``∞`` where the gap's CI holds 0 (no number of
    hands is sure); a dash for no gap."""
    v, lo, hi = _count(value), _count(low), _count(high)
    if v is None:
        return FEW
    return f"{v:,} [{lo:,}, {'∞' if hi is None else f'{hi:,}'}]"


def fmt_n(n: int, unit: str) -> str:
    """A sample size with thousands separators and its unit: ``400,000 局``."""
    return f"{int(n):,} {unit}"
