"""Deal odds: exact probabilities by counting, beside Monte Carlo estimates from the kernels.

Each probability is for one seat's 16 cards out of the 48. Exact values count hands with
binomial coefficients (inclusion–exclusion, or a generating polynomial where ranks interact);
the estimates deal in the kernels and count seat 0's hand.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb
from typing import Any

import numpy as np

from kernels.rng import states_from_seed
from kernels.xianniu.batch import FEATURES, deal_features

from ..core.stats import proportion_ci
from .rules import Rules, get_rules
from .sim import rule_arrays

HAND, DECK = 16, 48
_ALL = comb(DECK, HAND)


def _missing_any(n_cards_each: int, n_groups: int) -> Fraction:
    """P(the hand holds at least one card of each of ``n_groups`` disjoint card groups)."""
    total = 0
    for j in range(n_groups + 1):
        total += (-1) ** j * comb(n_groups, j) * comb(DECK - n_cards_each * j, HAND)
    return Fraction(total, _ALL)


def _poly_mul(a: list[int], b: list[int]) -> list[int]:
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            out[i + j] += x * y
    return out


def _hands_by_rank_polys(polys: list[list[int]]) -> int:
    """Hands of 16 cards whose rank-by-rank choices are counted by ``polys`` (x^k: k cards)."""
    prod = [1]
    for p in polys:
        prod = _poly_mul(prod, p)
    return prod[HAND] if len(prod) > HAND else 0


def exact_odds(rules: str | Rules | None = None) -> dict[str, Any]:
    """Exact probabilities of the deal features for one seat under ``rules``."""
    r = get_rules(rules)
    # 牛 / 喜: a black and a red card of one rank (two of each colour in the deck)
    colour_pair = Fraction(_ALL - 2 * comb(DECK - 2, HAND) + comb(DECK - 4, HAND), _ALL)
    liang = Fraction(sum((-1) ** (j + 1) * comb(12, j) * comb(DECK - 4 * j, HAND - 4 * j)
                         for j in range(1, 5)), _ALL)
    at_least_two = [0, 0, comb(4, 2), comb(4, 3), comb(4, 4)]
    any_count = [comb(4, c) for c in range(5)]
    long_feng = Fraction(_hands_by_rank_polys([at_least_two] * 6 + [any_count] * 6), _ALL)
    even = [1, 0, comb(4, 2), 0, 1]
    colour_even = [1, 0, 2, 0, 1]  # 0, 2 (both black or both red) or 4 cards
    point_ranks = [colour_even] * 2 if r.eight_pairs_by_colour else [even] * 2
    eight_pairs = Fraction(_hands_by_rank_polys([even] * 10 + point_ranks), _ALL)
    three_ranks = _missing_any(4, 3)
    k_count = [Fraction(comb(4, k) * comb(DECK - 4, HAND - k), _ALL) for k in range(5)]
    return {"niu": float(colour_pair), "xi": float(colour_pair), "liang": float(liang),
            "long_feng": float(long_feng), "eight_pairs": float(eight_pairs),
            "fish": float(three_ranks), "bai": float(three_ranks),
            "k_count": [float(p) for p in k_count]}


def monte_carlo_odds(n_deals: int, rules: str | Rules | None = None, seed: int = 0,
                     chunk_size: int = 1 << 16) -> dict[str, Any]:
    """Kernel estimates of the same features, each with n and a 95% CI."""
    if not isinstance(n_deals, (int, np.integer)) or n_deals < 1:
        raise ValueError(f"the number of deals must be a positive integer, got {n_deals!r}")
    r = get_rules(rules)
    n_chunks = -(-int(n_deals) // chunk_size)
    out = np.zeros((n_chunks, len(FEATURES)), dtype=np.int64)
    deal_features(states_from_seed(seed, n_chunks), chunk_size, int(n_deals), rule_arrays(r)[0],
                  out)
    counts = dict(zip(FEATURES, out.sum(axis=0).tolist()))
    res: dict[str, Any] = {k: proportion_ci(counts[k], int(n_deals)).as_dict()
                           for k in FEATURES if not k.startswith("k")}
    res["k_count"] = [proportion_ci(counts[f"k{k}"], int(n_deals)).as_dict() for k in range(5)]
    return res


def odds(rules: str | Rules | None = None, n_deals: int = 1_000_000, seed: int = 0) -> dict:
    """Exact odds beside Monte Carlo estimates: ``{"exact": ..., "monte_carlo": ...}``."""
    r = get_rules(rules)
    return {"rules": r.name, "seat_cards": HAND, "exact": exact_odds(r),
            "monte_carlo": monte_carlo_odds(n_deals, r, seed), "seed": seed, "deals": n_deals}
