"""Mergeable aggregates of simulated hands: counts and sums that add across chunks.

A run of any size is summarised from these, never from per-hand rows, so a billion hands
need no more memory than a thousand. Integer sums make merging exact and order-free.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from kernels.xianniu import batch as kb
from kernels.xianniu.game import END_NAMES

from ..core.stats import mean_ci_from_sums, proportion_ci
from .cards import N_SEATS


@dataclass
class Aggregate:
    """Counts and sums over hands (layout ``kernels.xianniu.batch.AGG_*``) and what produced
    them."""

    counts: np.ndarray = field(default_factory=lambda: np.zeros(kb.AGG_SIZE, dtype=np.int64))
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def hands(self) -> int:
        return int(self.counts[kb.AGG_N])

    def merge(self, other: Aggregate) -> Aggregate:
        """The aggregate of both runs."""
        return Aggregate(self.counts + other.counts, dict(self.meta))

    @classmethod
    def from_frame(cls, df: pd.DataFrame, gou_min: int = 6, ci_min: int = 11) -> Aggregate:
        """Aggregate per-hand rows (from ``simulate`` or the reference engine)."""
        c = np.zeros(kb.AGG_SIZE, dtype=np.int64)
        c[kb.AGG_N] = len(df)
        for s in range(N_SEATS):
            p = df[f"points{s}"].to_numpy(np.int64)
            cap = df[f"captured{s}"].to_numpy(np.int64)
            c[kb.AGG_PTS + s] = p.sum()
            c[kb.AGG_PTS_SQ + s] = (p * p).sum()
            c[kb.AGG_GOU + s] = (cap >= gou_min).sum()
            c[kb.AGG_CI + s] = (cap >= ci_min).sum()
            c[kb.AGG_CAP_HIST + 17 * s:kb.AGG_CAP_HIST + 17 * (s + 1)] = np.bincount(cap,
                                                                                     minlength=17)
        x = df["xian_count"].to_numpy(np.int64)
        c[kb.AGG_XIAN] = x.sum()
        c[kb.AGG_XIAN_SQ] = (x * x).sum()
        ends = pd.Series(df["end"]).astype(str)
        for i, name in enumerate(END_NAMES):
            c[kb.AGG_END + i] = int((ends == name).sum())
        if "qiangci_seat" in df:
            c[kb.AGG_QIANGCI] = int((df["qiangci_seat"] >= 0).sum())
        return cls(c, dict(df.attrs))

    def captured_histogram(self) -> pd.DataFrame:
        """Hands by captured cards (rows 0..16) and seat (columns)."""
        h = self.counts[kb.AGG_CAP_HIST:kb.AGG_CAP_HIST + 51].reshape(3, 17).T
        return pd.DataFrame(h, columns=[f"seat{s}" for s in range(N_SEATS)],
                            index=pd.RangeIndex(17, name="captured"))

    def summary(self) -> dict[str, Any]:
        """Mean points, P(够), P(刺) per seat and mean 掀 count, each with n and a 95% CI."""
        c, n = self.counts, self.hands
        ci_total = int(c[kb.AGG_CI:kb.AGG_CI + 3].sum())  # at most one seat can hold 刺
        return {
            "game": "xianniu",
            "rules": self.meta.get("rules"),
            "policy": self.meta.get("policy"),
            "seed": self.meta.get("seed"),
            "hands": n,
            "mean_points": [mean_ci_from_sums(float(c[kb.AGG_PTS + s]),
                                              float(c[kb.AGG_PTS_SQ + s]), n).as_dict()
                            for s in range(N_SEATS)],
            "p_ci": proportion_ci(ci_total, n).as_dict(),
            "p_ci_by_seat": [proportion_ci(int(c[kb.AGG_CI + s]), n).as_dict()
                             for s in range(N_SEATS)],
            "p_gou": [proportion_ci(int(c[kb.AGG_GOU + s]), n).as_dict() for s in range(N_SEATS)],
            "mean_xian": mean_ci_from_sums(float(c[kb.AGG_XIAN]), float(c[kb.AGG_XIAN_SQ]),
                                           n).as_dict(),
            "end": {name: int(c[kb.AGG_END + i]) for i, name in enumerate(END_NAMES)},
            "p_qiangci": proportion_ci(int(c[kb.AGG_QIANGCI]), n).as_dict(),
        }

    def as_json(self) -> dict[str, Any]:
        """The summary plus the captured-card distribution per seat (``--format json``)."""
        from .report_formats import summary_json

        return summary_json(self)

    def tidy(self) -> pd.DataFrame:
        """One row per statistic and seat (``--format csv|parquet``)."""
        from .report_formats import tidy_summary

        return tidy_summary(self)

    def text(self) -> str:
        """A short text table (``--format table``)."""
        from .summary import format_summary

        return format_summary(self.summary())
