"""Odds of features of the 头牌's hand: exact by counting every six-tile hand, beside a
Monte Carlo estimate with its 95% CI from deals dealt in the kernels."""

from __future__ import annotations

from collections.abc import Callable
from itertools import product
from math import comb
from typing import Any

import numpy as np

from kernels.rng import states_from_seed

from ..core import drive
from ..core.stats import proportion_ci
from .rules import N_KINDS, N_SEATS, DingniuRules, get_rules
from .sim import policy_arrays, rule_arrays

Feature = Callable[[np.ndarray], np.ndarray]


def _features(r: DingniuRules) -> dict[str, Feature]:
    """Features of one hand (counts per kind) as functions of a [.., 13] count array."""
    hongba, hongshi = 4, 3
    single = ~r.double
    six = r.match[:, 6]

    def barred(h: np.ndarray) -> np.ndarray:  # some held tile the 头牌 may not lead (R3)
        out = np.zeros(h.shape[:-1], dtype=bool)
        for k in range(N_KINDS):
            a, b = r.ends[k]
            sel = single & (r.match[:, a] | r.match[:, b])
            outside = ((r.counts - h) * sel).sum(axis=-1)
            out |= (h[..., k] > 0) & (outside == 0)
        return out

    return {
        "both 红八 (led together, R4)": lambda h: h[..., hongba] == 2,
        "both 红十": lambda h: h[..., hongshi] == 2,
        "a lead barred by 不能拉三家 (R3)": barred,
        "3 or more 横牌 (doubles)": lambda h: (h * r.double).sum(axis=-1) >= 3,
        "no tile with a 六 end": lambda h: (h * six).sum(axis=-1) == 0,
        "60 or more pips": lambda h: (h * r.pips).sum(axis=-1) >= 60,
    }


def _all_hands(r: DingniuRules) -> tuple[np.ndarray, np.ndarray]:
    """Every distinct six-tile hand and its probability (exact, by counting)."""
    hands, weights = [], []
    for h in product(*(range(int(c) + 1) for c in r.counts)):
        if sum(h) == r.hand_size:
            hands.append(h)
            weights.append(np.prod([comb(int(c), x) for c, x in zip(r.counts, h)]))
    w = np.array(weights, dtype=np.float64)
    return np.array(hands, dtype=np.int64), w / comb(int(r.counts.sum()), r.hand_size)


def deal_rows(r: DingniuRules, n: int, seed: int) -> np.ndarray:
    """``[n, 4, 13]``: ``n`` deals from the play driver, played under no seating."""
    deals = drive.deal_rows(rule_arrays(r), policy_arrays("random"),
                            states_from_seed(seed, -(-n // 4096)), 4096, n)
    return deals.reshape(n, N_SEATS, N_KINDS)


def odds(n: int, seed: int = 0, rules: str | DingniuRules | None = None) -> dict[str, Any]:
    """P(feature) of the 头牌's hand: exact by counting, beside a Monte Carlo estimate."""
    r = get_rules(rules)
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"the number of deals must be a positive integer, got {n!r}")
    hands, prob = _all_hands(r)
    deals = deal_rows(r, int(n), seed)
    rows = []
    for name, f in _features(r).items():
        exact = float(prob[f(hands)].sum())
        mc = proportion_ci(int(f(deals[:, 0]).sum()), int(n))
        rows.append({"feature": name, "exact": exact, "monte_carlo": mc.as_dict()})
    return {"game": "dingniu", "rules": r.name, "seed": seed, "deals": int(n),
            "distinct_hands": len(hands), "features": rows}
