"""A run's summary as a tidy table and as JSON, every statistic with n and a 95% CI."""

from __future__ import annotations

import pandas as pd

from ..core.stats import proportion_ci
from .aggregate import Aggregate


def tidy_summary(agg: Aggregate) -> pd.DataFrame:
    """One row per statistic and seat: value, 95% CI and n, with the run's metadata."""
    s = agg.summary()
    rows = []

    def add(stat: str, seat: int | None, e: dict) -> None:
        rows.append({"statistic": stat, "seat": seat, "value": e["value"], "ci_low": e["low"],
                     "ci_high": e["high"], "n": e["n"]})

    for seat in range(3):
        add("mean_points", seat, s["mean_points"][seat])
        add("p_gou", seat, s["p_gou"][seat])
        add("p_ci", seat, s["p_ci_by_seat"][seat])
    add("p_ci_any_seat", None, s["p_ci"])
    add("mean_xian", None, s["mean_xian"])
    add("p_qiangci", None, s["p_qiangci"])
    hist = agg.captured_histogram()
    for seat in range(3):
        for cards, k in hist[f"seat{seat}"].items():
            add(f"p_captured_{cards}", seat, proportion_ci(int(k), agg.hands).as_dict())
    df = pd.DataFrame(rows)
    df["seat"] = df["seat"].astype("Int64")
    for key in ("game", "rules", "policy", "seed"):  # as in every game's tidy table
        df[key] = s[key]
    df.attrs.update(agg.meta)
    return df


HEAD_KEYS = ("game", "rules", "seed", "hands", "policy")  # first, in every game's run JSON


def summary_json(agg: Aggregate) -> dict:
    """The summary dict (game, rules, seed, hands and policy first) plus the captured-card
    distribution per seat, each with its CI."""
    s = agg.summary()
    s = {**{k: s[k] for k in HEAD_KEYS}, **s}
    hist = agg.captured_histogram()
    s["captured_distribution"] = [
        [proportion_ci(int(k), agg.hands).as_dict() for k in hist[f"seat{seat}"]]
        for seat in range(3)]
    return s
