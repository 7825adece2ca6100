"""A 顶牛 batch run's result: the counts vector, its statistics and their text, JSON and
tidy renderings.

A run keeps integer sums only (layout ``A_*``): per seat Σ points, Σ points², wins, Σ count
(扣 pips) and Σ count²; hands ending in a 算帐 and those the maker won. They add across
tasks exactly (:mod:`analyzer.dingniu.batch` fills them).
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from ..core.runner import RunCounts
from ..core.stats import format_percent, mean_ci_from_sums, proportion_ci
from .rules import N_SEATS, SEAT_NAMES

# Layout of the counts vector.
A_N, A_PTS, A_PTS_SQ, A_WIN, A_CNT, A_CNT_SQ = 0, 1, 5, 9, 13, 17
A_SUAN, A_SUAN_WON, AGG_SIZE = 21, 22, 23


class Result(RunCounts):
    """Counts of a 顶牛 run (layout ``A_*``) and what produced them."""

    game = "dingniu"

    def as_json(self) -> dict[str, Any]:
        """Per seat: mean points, P(win), mean count; P(算帐), its success rate and P(包庄)
        (a 算帐 that fails, per hand)."""
        c, n = self.counts, self.hands
        seats = [{"seat": s, "name": SEAT_NAMES[s],
                  "points": mean_ci_from_sums(float(c[A_PTS + s]), float(c[A_PTS_SQ + s]),
                                              n).as_dict(),
                  "p_win": proportion_ci(int(c[A_WIN + s]), n).as_dict(),
                  "count": mean_ci_from_sums(float(c[A_CNT + s]), float(c[A_CNT_SQ + s]),
                                             n).as_dict()} for s in range(N_SEATS)]
        return {**self.head(), "seats": seats, "p_suan": proportion_ci(int(c[A_SUAN]), n).as_dict(),
                "p_suan_success": proportion_ci(int(c[A_SUAN_WON]), int(c[A_SUAN])).as_dict(),
                "p_baozhuang": proportion_ci(int(c[A_SUAN] - c[A_SUAN_WON]), n).as_dict()}

    def tidy(self) -> pd.DataFrame:
        """One row per statistic and seat: value, 95% CI, n and the run's metadata."""
        s = self.as_json()
        rows = []
        for seat in s["seats"]:
            for stat in ("points", "p_win", "count"):
                rows.append({"statistic": stat, "seat": seat["seat"], **_ci_cols(seat[stat])})
        for stat in ("p_suan", "p_suan_success", "p_baozhuang"):
            rows.append({"statistic": stat, "seat": None, **_ci_cols(s[stat])})
        df = pd.DataFrame(rows)
        df["seat"] = df["seat"].astype("Int64")
        for key in ("game", "rules", "policy", "seed"):
            df[key] = s[key]
        return df

    def text(self) -> str:
        """A few lines of text, every figure with its 95% CI and n."""
        s = self.as_json()
        lines = [f"{s['hands']:,} hands of 顶牛, rules {s['rules']}, policy {s['policy']}, "
                 f"seed {s['seed']} (95% CIs)"]
        for seat in s["seats"]:
            lines.append(f"  seat {seat['seat']} {seat['name']}: points "
                         f"{_fmt(seat['points'], signed=True)}  P(win) {_pct(seat['p_win'])}  "
                         f"count {_fmt(seat['count'], 2)}")
        lines.append(f"  P(算帐) {_pct(s['p_suan'])}")
        lines.append(f"  P(算帐 succeeds | 算帐) {_pct(s['p_suan_success'])}")
        lines.append(f"  P(包庄) {_pct(s['p_baozhuang'])}")
        return "\n".join(lines)


def _ci_cols(e: dict) -> dict:
    return {"value": e["value"], "ci_low": e["low"], "ci_high": e["high"], "n": e["n"]}


def _fmt(e: dict, digits: int = 3, signed: bool = False) -> str:
    f = f"{{:{'+' if signed else ''}.{digits}f}}"
    return f"{f.format(e['value'])} [{f.format(e['low'])}, {f.format(e['high'])}] (n={e['n']:,})"


def _pct(e: dict) -> str:
    return f"{format_percent(e['value'])} [{format_percent(e['low'])}, " \
           f"{format_percent(e['high'])}] (n={e['n']:,})"
