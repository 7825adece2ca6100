"""Duplicate tournaments, game-neutral: each deal is played under every seating, so every
policy holds every hand in every seat (and, with partnerships, every team); the result keeps
one mean per policy and deal, and differences are judged over deals."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from .stats import format_estimate, mean_ci


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

    def table(self) -> pd.DataFrame:
        """One row per policy: mean points per hand, 95% CI and n (deals)."""
        rows = []
        for i, p in enumerate(self.policies):
            e = mean_ci(self.per_deal[:, i])
            rows.append({"policy": p, self.score: e.value, "ci_low": e.low, "ci_high": e.high,
                         "n_deals": e.n})
        df = pd.DataFrame(rows)
        df.attrs.update(self.meta)
        return df

    def differences(self) -> pd.DataFrame:
        """One row per pair A − B: mean difference per hand, 95% CI and n (deals)."""
        rows = []
        for i in range(len(self.policies)):
            for j in range(i + 1, len(self.policies)):
                e = mean_ci(self.per_deal[:, i] - self.per_deal[:, j])
                rows.append({"a": self.policies[i], "b": self.policies[j], "diff": e.value,
                             "ci_low": e.low, "ci_high": e.high, "n_deals": e.n,
                             "significant": bool(e.low > 0 or e.high < 0)})
        df = pd.DataFrame(rows)
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
        diffs = []
        for i in range(len(self.policies)):
            for j in range(i + 1, len(self.policies)):
                e = mean_ci(self.per_deal[:, i] - self.per_deal[:, j])
                diffs.append({"a": self.policies[i], "b": self.policies[j],
                              "diff": e.as_dict(), "significant": bool(e.low > 0 or e.high < 0)})
        return {**head, **rest, "results": results, "differences": diffs}


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
    return lines
