"""Duplicate tournaments, game-neutral: each deal is played under every seating, so every
policy holds every hand in every seat (and, with partnerships, every team); the result keeps
one mean per policy and deal, and differences are judged over deals."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from .stats import Estimate, format_estimate, mean_ci

Z_AHEAD = 1.6449  # one-sided 95%: the better player ahead with this probability


@dataclass
class TournamentResult:
    """Per-policy mean points per hand (or the ``score`` a game names) and pairwise
    differences, each with a 95% CI."""

    policies: list[str]
    rules: str
    seed: int
    deals: int
    per_deal: np.ndarray  # [deals, policies]: mean points per seat-hand on each deal
    meta: dict[str, Any] = field(default_factory=dict)
    score: str = "mean_points"  # the name of what per_deal holds (e.g. "levels")
    # each policy's standard deviation of one hand's result (a seat's, or a team's), over
    # every hand it played: what the cards alone spread, for :meth:`skill`
    hand_sd: tuple[float, ...] | None = None

    def skill(self, i: int, j: int) -> dict[str, Any] | None:
        """How much skill decides between policies ``i`` and ``j`` (None without
        ``hand_sd``): the gap per hand (duplicate, with its CI) against the spread of one
        hand's result, and the hands after which the better of two players, each playing
        their own cards, is ahead with 95% probability: n ≥ (z · √(σ_i² + σ_j²) / gap)²
        (z = 1.645, the normal approximation to the sum of n hands), with the n of the
        gap's CI ends (:func:`hands_ahead`)."""
        if self.hand_sd is None:
            return None
        gap = mean_ci(self.per_deal[:, i] - self.per_deal[:, j])
        spread = math.hypot(self.hand_sd[i], self.hand_sd[j])
        return {"gap": gap.as_dict(), "hand_sd": [self.hand_sd[i], self.hand_sd[j]],
                "spread": spread, "gap_in_spreads": gap.value / spread if spread else None,
                "hands_ahead_95": hands_ahead(gap, spread)}

    def _pair(self, i: int, j: int) -> dict[str, Any]:
        e = mean_ci(self.per_deal[:, i] - self.per_deal[:, j])
        row = {"a": self.policies[i], "b": self.policies[j], "diff": e.as_dict(),
               "significant": bool(e.low > 0 or e.high < 0)}
        if self.hand_sd is not None:
            row["skill"] = self.skill(i, j)
        return row

    def table(self) -> pd.DataFrame:
        """One row per policy: mean points per hand, 95% CI and n (deals)."""
        rows = []
        for i, p in enumerate(self.policies):
            e = mean_ci(self.per_deal[:, i])
            rows.append({"policy": p, self.score: e.value, "ci_low": e.low, "ci_high": e.high,
                         "n_deals": e.n})
        df = whole_counts(pd.DataFrame(rows))
        df.attrs.update(self.meta)
        return df

    def differences(self) -> pd.DataFrame:
        """One row per pair A − B: mean difference per hand, 95% CI and n (deals); with
        ``hand_sd``, also the :meth:`skill` columns (:func:`skill_columns`)."""
        rows = []
        for i in range(len(self.policies)):
            for j in range(i + 1, len(self.policies)):
                e = mean_ci(self.per_deal[:, i] - self.per_deal[:, j])
                rows.append({"a": self.policies[i], "b": self.policies[j], "diff": e.value,
                             "ci_low": e.low, "ci_high": e.high, "n_deals": e.n,
                             "significant": bool(e.low > 0 or e.high < 0),
                             **skill_columns(self.skill(i, j))})
        df = whole_counts(pd.DataFrame(rows))
        df.attrs.update(self.meta)
        return df

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready: game, rules, seed, deals and the policies first; then each policy's
        mean points per hand and each pairwise difference as ``{"value", "low", "high",
        "n"}`` (n = deals)."""
        head = {"game": self.meta.get("game"), "rules": self.rules,
                "seed": self.seed, "deals": self.deals, "policies": list(self.policies)}
        rest = {k: v for k, v in self.meta.items() if k not in head}
        results = [{"policy": p, self.score: mean_ci(self.per_deal[:, i]).as_dict()}
                   for i, p in enumerate(self.policies)]
        k = len(self.policies)
        diffs = [self._pair(i, j) for i in range(k) for j in range(i + 1, k)]
        return {**head, **rest, "results": results, "differences": diffs}


def hands_ahead(gap: Estimate, spread: float) -> dict[str, Any] | None:
    """Hands after which the better player's total is ahead with 95% probability, for a gap
    per hand ``gap`` and a spread (SD) of one hand's difference ``spread``: the value and
    the n of the gap's CI ends (``high`` None where the CI reaches 0: then no number of
    hands is sure); None for a gap of 0."""
    def n(g: float) -> int | None:
        return math.ceil((Z_AHEAD * spread / abs(g)) ** 2) if g else None
    if not gap.value:
        return None
    sure = gap.low > 0 or gap.high < 0
    near, far = sorted((gap.low, gap.high), key=abs)
    return {"value": n(gap.value), "low": n(far), "high": n(near) if sure else None,
            "n": gap.n}


SKILL_COLUMNS = ("hand_sd_a", "hand_sd_b", "gap_in_spreads", "gap_in_spreads_low",
                 "gap_in_spreads_high", "hands_ahead", "hands_ahead_low", "hands_ahead_high")


AHEAD_COLUMNS = SKILL_COLUMNS[-3:]  # the hands to be ahead and those of the CI's ends


def whole_counts(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` with its hands-to-be-ahead columns as whole numbers, empty where there is none
    (a CSV then writes ``48``, not ``48.0``)."""
    for c in AHEAD_COLUMNS:
        if c in df:
            df[c] = pd.array([None if pd.isna(v) else int(v) for v in df[c]], dtype="Int64")
    return df


def skill_columns(sk: dict[str, Any] | None) -> dict[str, Any]:
    """A :meth:`TournamentResult.skill` as flat table columns (none without one): each
    side's SD of one hand, the gap in their combined spread with its CI, and the hands to be
    ahead with 95% probability with the n of the gap's CI ends (empty where there is
    none)."""
    if sk is None:
        return {}
    ahead, spread = sk["hands_ahead_95"] or {}, sk["spread"]
    low, high = ((sk["gap"][k] / spread if spread else None) for k in ("low", "high"))
    return dict(zip(SKILL_COLUMNS, (sk["hand_sd"][0], sk["hand_sd"][1], sk["gap_in_spreads"],
                                    low, high, ahead.get("value"), ahead.get("low"),
                                    ahead.get("high"))))


def seat_results(points: np.ndarray, seatings: Sequence[Sequence[int]], k: int
                 ) -> tuple[np.ndarray, tuple[float, ...]]:
    """From ``points`` [deals, seatings, seats] (each seat's result of each hand) and the
    policy on each seat of each seating: each policy's mean result per seat-hand on each
    deal ([deals, k]) and the SD of one seat-hand's result of each."""
    per_deal = np.zeros((len(points), k))
    sds = []
    for i in range(k):
        mask = np.array([[p == i for p in s] for s in seatings])  # [seatings, seats]
        per_deal[:, i] = (points * mask).sum(axis=(1, 2)) / mask.sum()
        sds.append(float(points[:, mask].std(ddof=1)))
    return per_deal, tuple(sds)


def skill_line(row: dict[str, Any], unit: str) -> str:
    """One difference's :meth:`TournamentResult.skill` as text."""
    sk = row["skill"]
    better, worse = (row["a"], row["b"]) if sk["gap"]["value"] >= 0 else (row["b"], row["a"])
    sd = " and ".join(f"{x:.2f}" for x in sk["hand_sd"])
    ahead = sk["hands_ahead_95"]
    if ahead is None:
        return f"    one hand's spread (SD) {sd} {unit}: no gap to measure"
    share = abs(sk["gap_in_spreads"])
    head = (f"    one hand's spread (SD) {sd} {unit}; the gap is {share:.3f} of their "
            f"combined spread")
    if ahead["high"] is None:
        return (f"{head}: were the gap as measured, {better} would be ahead of {worse} after "
                f"{ahead['value']:,} hands of their own with 95% probability, but its CI holds "
                f"0, so no number of hands is sure")
    return (f"{head}: {better} is ahead of {worse} after {ahead['value']:,} hands of their own "
            f"with 95% probability (95% CI {ahead['low']:,} to {ahead['high']:,})")


def tournament_lines(d: dict) -> list[str]:
    """A duplicate tournament's JSON (either game) as text: each policy's mean points per
    hand, then each difference, with 95% CIs over deals."""
    lines = [f"{d['deals']:,} deals x {d['seatings']} seatings = {d['hands_played']:,} hands, "
             f"rules {d['rules']}, seed {d['seed']} (points per hand, 95% CIs; n = deals)"]
    for row in d["results"]:
        lines.append(f"  {row['policy']:<22} {format_estimate(row['mean_points'])}")
    for row in d["differences"]:
        mark = "" if row["significant"] else "  (CI holds 0)"
        lines.append(f"  {row['a']} - {row['b']}: {format_estimate(row['diff'])}{mark}")
        if row.get("skill"):
            lines.append(skill_line(row, "points"))
    return lines
