"""A run's summary as text, CSV, JSON or Parquet, every statistic with n and a 95% CI."""

from __future__ import annotations

import io
import json

import pandas as pd

from .aggregate import Aggregate
from .stats import proportion_ci
from .summary import format_summary


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
    for key in ("rules", "policy", "seed"):
        df[key] = s[key]
    df.attrs.update(agg.meta)
    return df


def summary_json(agg: Aggregate) -> dict:
    """The summary dict plus the captured-card distribution per seat, each with its CI."""
    s = agg.summary()
    hist = agg.captured_histogram()
    s["captured_distribution"] = [
        [proportion_ci(int(k), agg.hands).as_dict() for k in hist[f"seat{seat}"]]
        for seat in range(3)]
    return s


def render_summary(agg: Aggregate, fmt: str) -> str | bytes:
    """The summary in ``fmt``: table, csv, json (text) or parquet (bytes)."""
    if fmt == "table":
        return format_summary(agg.summary()) + "\n"
    if fmt == "json":
        return json.dumps(summary_json(agg), ensure_ascii=False, indent=2) + "\n"
    df = tidy_summary(agg)
    if fmt == "csv":
        return df.to_csv(index=False)
    if fmt == "parquet":
        buf = io.BytesIO()
        try:
            df.to_parquet(buf, index=False)
        except ImportError:
            raise ValueError("Parquet output needs pyarrow: pip install pyarrow") from None
        return buf.getvalue()
    raise ValueError(f"unknown format {fmt!r}")
