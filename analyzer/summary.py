"""Summary statistics of simulated hands, each with n and a 95% CI."""

from __future__ import annotations

from typing import Any

import pandas as pd

from .aggregate import Aggregate


def summarize(df: pd.DataFrame) -> dict[str, Any]:
    """Summary of per-hand rows: see :meth:`Aggregate.summary`."""
    return Aggregate.from_frame(df).summary()


def format_summary(s: dict[str, Any]) -> str:
    """The summary as a short text table."""

    def ci(e: dict[str, float], pct: bool = False) -> str:
        f = 100.0 if pct else 1.0
        unit = "%" if pct else ""
        return f"{e['value'] * f:7.3f}{unit} [{e['low'] * f:.3f}, {e['high'] * f:.3f}]"

    lines = [f"{s['hands']} hands, rules {s['rules']}, policy {s['policy']}, seed {s['seed']} "
             f"(95% CIs in brackets)",
             f"{'seat':<22}{'0 (banker 头家)':>28}{'1 (二家)':>28}{'2 (三家)':>28}"]
    lines.append(f"{'mean points':<22}" + "".join(f"{ci(e):>28}" for e in s["mean_points"]))
    lines.append(f"{'P(够) enough':<21}" + "".join(f"{ci(e, True):>28}" for e in s["p_gou"]))
    lines.append(f"{'P(刺) ci':<21}" + "".join(f"{ci(e, True):>28}" for e in s["p_ci_by_seat"]))
    lines.append(f"P(刺) any seat: {ci(s['p_ci'], True).strip()}")
    lines.append(f"mean 掀 events per hand: {ci(s['mean_xian']).strip()}")
    return "\n".join(lines)
