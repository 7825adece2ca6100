"""A 掀牛 batch run's result: mergeable counts and sums, and their text, JSON and tidy forms.

A run of any size is summarised from these, never from per-hand rows, so a billion hands
need no more memory than a thousand. Integer sums make merging exact and order-free.
Every statistic comes with n and a 95% CI.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
import pandas as pd

from kernels.xianniu import batch as kb
from kernels.xianniu.game import END_NAMES

from ..core.runner import RunCounts
from ..core.stats import format_percent, mean_ci_from_sums, proportion_ci
from .cards import N_SEATS

HEAD_KEYS = ("game", "rules", "seed", "hands", "policy")  # first, in every game's run JSON


class Result(RunCounts):
    """Counts and sums over hands (layout ``kernels.xianniu.batch.AGG_*``, the number of
    hands first) and what produced them."""

    game: ClassVar[str] = "xianniu"

    def merge(self, other: Result) -> Result:
        """The result of both runs."""
        return Result(self.counts + other.counts, dict(self.meta))

    @classmethod
    def from_frame(cls, df: pd.DataFrame, gou_min: int = 6, ci_min: int = 11) -> Result:
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
            "game": self.game,
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
        """The summary (game, rules, seed, hands and policy first) plus the captured-card
        distribution per seat, each with its CI (``--format json``)."""
        s = self.summary()
        s = {**{k: s[k] for k in HEAD_KEYS}, **s}
        hist = self.captured_histogram()
        s["captured_distribution"] = [
            [proportion_ci(int(k), self.hands).as_dict() for k in hist[f"seat{seat}"]]
            for seat in range(N_SEATS)]
        return s

    def tidy(self) -> pd.DataFrame:
        """One row per statistic and seat: value, 95% CI and n, with the run's metadata
        (``--format csv|parquet``)."""
        s = self.summary()
        rows = []

        def add(stat: str, seat: int | None, e: dict) -> None:
            rows.append({"statistic": stat, "seat": seat, "value": e["value"],
                         "ci_low": e["low"], "ci_high": e["high"], "n": e["n"]})

        for seat in range(N_SEATS):
            add("mean_points", seat, s["mean_points"][seat])
            add("p_gou", seat, s["p_gou"][seat])
            add("p_ci", seat, s["p_ci_by_seat"][seat])
        add("p_ci_any_seat", None, s["p_ci"])
        add("mean_xian", None, s["mean_xian"])
        add("p_qiangci", None, s["p_qiangci"])
        hist = self.captured_histogram()
        for seat in range(N_SEATS):
            for cards, k in hist[f"seat{seat}"].items():
                add(f"p_captured_{cards}", seat, proportion_ci(int(k), self.hands).as_dict())
        df = pd.DataFrame(rows)
        df["seat"] = df["seat"].astype("Int64")
        for key in ("game", "rules", "policy", "seed"):  # as in every game's tidy table
            df[key] = s[key]
        df.attrs.update(self.meta)
        return df

    def text(self) -> str:
        """A short text table (``--format table``)."""
        return format_summary(self.summary())


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
