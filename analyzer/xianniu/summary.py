"""Summary statistics of simulated hands, each with n and a 95% CI."""

from __future__ import annotations

from typing import Any

import pandas as pd

from ..core.stats import format_percent
from .aggregate import Aggregate


def summarize(df: pd.DataFrame) -> dict[str, Any]:
    """Summary of per-hand rows: see :meth:`Aggregate.summary`."""
    return Aggregate.from_frame(df).summary()


def format_summary(s: dict[str, Any]) -> str:
    """The summary as a short text table: points as signed decimals, probabilities in
    percent (:func:`analyzer.core.stats.format_percent`), each with its 95% CI."""

    def ci(e: dict[str, float], pct: bool = False, sign: str = "+") -> str:
        if pct:
            return (f"{format_percent(e['value'])} [{format_percent(e['low'])}, "
                    f"{format_percent(e['high'])}]")
        return f"{e['value']:{sign}.3f} [{e['low']:{sign}.3f}, {e['high']:{sign}.3f}]"

    lines = [f"{s['hands']:,} hands, rules {s['rules']}, policy {s['policy']}, seed "
             f"{s['seed']} (95% CIs in brackets; n = {s['hands']:,} hands)",
             f"{'seat':<22}{'0 (banker 头家)':>28}{'1 (二家)':>28}{'2 (三家)':>28}"]
    lines.append(f"{'mean points':<22}" + "".join(f"{ci(e):>28}" for e in s["mean_points"]))
    lines.append(f"{'P(够) enough':<21}" + "".join(f"{ci(e, True):>28}" for e in s["p_gou"]))
    lines.append(f"{'P(刺) ci':<21}" + "".join(f"{ci(e, True):>28}" for e in s["p_ci_by_seat"]))
    lines.append(f"P(刺) any seat: {ci(s['p_ci'], True)}")
    lines.append(f"P(抢刺) any seat: {ci(s['p_qiangci'], True)}")
    lines.append(f"mean 掀 events per hand: {ci(s['mean_xian'], sign='')}")
    return "\n".join(lines)
