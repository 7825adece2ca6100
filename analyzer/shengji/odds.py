"""Deal odds for one player's 25 cards (docs/rules/shengji.md §1, §4.1, §4.5): exact by counting,
beside a Monte Carlo estimate with its 95% Wilson interval from the Numba deal kernel
(``kernel_monte_carlo``); ``monte_carlo`` is an independent numpy sampler kept to cross-check
the kernel and the counting.

A hand is a uniformly random 25-card subset of the 108 physical cards (two copies of each
of the 54 faces), so P(feature) = (number of subsets with it) / C(108, 25). The counts come
from a dynamic programme over faces (additive statistics: points, trump length) or from an
enumeration of the copies held of the few faces that matter (declaring: jokers and level
cards), with the other cards filled in by one binomial coefficient.

>>> from analyzer.shengji.rules import ZHENGZHOU
>>> float(exact(ZHENGZHOU, 2, 0)["big_joker_pair"])  # C(106,23) / C(108,25)
0.05192107995846314
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import cache
from itertools import product
from math import comb, prod
from typing import Any

import numpy as np

from ..core.stats import mean_ci_from_sums, proportion_ci
from .bidding import declarable, joker_for_suit
from .cards import BIG_JOKER, N_FACES, NT, SMALL_JOKER, SUIT_LETTERS, context, face, points
from .rules import ShengjiRules

N_CARDS = 108  # two decks
COPIES = 2
HAND = 25
SUITED = (0, 1, 2, 3)
_WAYS = (1, 2, 1)  # ways to hold 0, 1, 2 of a face's two copies: C(2, c)
_CHUNK = 1 << 16  # deals per vectorised batch (fixed: the draws depend on it)
ALPHA_SHARE = 0.05  # share of exact values a 95% interval misses by chance

FACE_POINTS = np.array([points((f,)) for f in range(N_FACES)], dtype=np.int16)


def n_hands(hand: int = HAND) -> int:
    """Number of distinct hands: C(108, hand) subsets of physical cards."""
    return comb(N_CARDS, hand)


def count_by_statistic(stat: Callable[[int], int], hand: int = HAND) -> dict[int, int]:
    """Number of ``hand``-card subsets by the sum of ``stat(face)`` over their cards.

    DP over the 54 faces: state (cards so far, statistic so far) → number of subsets.
    """
    dp: dict[tuple[int, int], int] = {(0, 0): 1}
    for f in range(N_FACES):
        s = stat(f)
        nxt: dict[tuple[int, int], int] = {}
        for (k, v), w in dp.items():
            for c in range(min(COPIES, hand - k) + 1):
                key = (k + c, v + c * s)
                nxt[key] = nxt.get(key, 0) + w * _WAYS[c]
        dp = nxt
    return dict(sorted((v, w) for (k, v), w in dp.items() if k == hand))


def count_special(special: tuple[int, ...], predicate: Callable[[tuple[int, ...]], bool],
                  hand: int = HAND) -> int:
    """Number of ``hand``-card subsets whose cards among the ``special`` faces satisfy
    ``predicate`` (called with those cards as a sorted face tuple)."""
    rest = N_CARDS - COPIES * len(special)
    total = 0
    for held in product(range(COPIES + 1), repeat=len(special)):
        k = sum(held)
        if k > hand:
            continue
        cards = tuple(sorted(f for f, c in zip(special, held) for _ in range(c)))
        if predicate(cards):
            total += prod(_WAYS[c] for c in held) * comb(rest, hand - k)
    return total


def _declare_predicates(rules: ShengjiRules, level: int):
    def suited(cards):  # 单亮 / 对亮: a level card (beside its joker when the rules ask)
        return any(d.cls <= 2 for d in declarable(cards, level, rules))

    def any_declaration(cards):  # the first declaration: 对王 counts if it may open
        return any(d.cls <= 2 or rules.joker_pair_may_open
                   for d in declarable(cards, level, rules))

    return suited, any_declaration


def _big_pair(cards) -> bool:
    return cards.count(BIG_JOKER) == 2


def _small_pair(cards) -> bool:
    return cards.count(SMALL_JOKER) == 2


def _joker_pair(cards) -> bool:
    return _big_pair(cards) or _small_pair(cards)


def trump_specs(trump: int | None) -> tuple[int, ...]:
    """Trump specs reported: the given one and NT; ♠ (every suit alike) and NT by default."""
    if trump is None:
        return (0, NT)
    return (trump,) if trump == NT else (trump, NT)


def exact(rules: ShengjiRules, level: int, trump: int | None = None, hand: int = HAND
          ) -> dict[str, Any]:
    """Exact probabilities (Fractions) for one ``hand``-card hand at ``level``.

    Keys: ``declare_any``, ``declare_suited``, ``joker_pair``, ``big_joker_pair``,
    ``small_joker_pair``, ``rebel``; ``points`` {total: P}; ``trump_length``
    {spec: {length: P}}. ``rebel`` with ``rebel_scope="side"`` counts the two defenders'
    2·``hand`` cards together.
    """
    total = n_hands(hand)
    special = tuple(face(s, level) for s in SUITED) + (SMALL_JOKER, BIG_JOKER)
    suited, any_decl = _declare_predicates(rules, level)
    out: dict[str, Any] = {
        "declare_any": Fraction(count_special(special, any_decl, hand), total),
        "declare_suited": Fraction(count_special(special, suited, hand), total),
    }
    for key, pred in (("joker_pair", _joker_pair), ("big_joker_pair", _big_pair),
                      ("small_joker_pair", _small_pair)):
        out[key] = Fraction(count_special((SMALL_JOKER, BIG_JOKER), pred, hand), total)
    out["points"] = points_distribution(hand)
    out["rebel"] = rebel_probability(rules, hand)
    out["trump_length"] = {t: trump_length_distribution(level, t, hand)
                           for t in trump_specs(trump)}
    return out


def points_distribution(hand: int = HAND) -> dict[int, Fraction]:
    """P(point total = p) for p = 0, 5, …, 200 (分牌: 5, 10, K)."""
    return dict(_points_distribution(hand))


@cache
def _points_distribution(hand: int) -> tuple[tuple[int, Fraction], ...]:
    counts = count_by_statistic(lambda f: int(FACE_POINTS[f]) // 5, hand)
    total = n_hands(hand)
    return tuple((5 * v, Fraction(counts.get(v, 0), total)) for v in range(41))


def rebel_probability(rules: ShengjiRules, hand: int = HAND) -> Fraction:
    """P(a given defender qualifies for 造反): points < ``rebel_threshold`` (§4.5); 0 when
    ``rebel_enabled`` is off; with ``rebel_scope="side"`` the pair's 2·``hand`` cards."""
    if not rules.rebel_enabled:
        return Fraction(0)
    dist = points_distribution(2 * hand if rules.rebel_scope == "side" else hand)
    return sum((p for pts, p in dist.items() if pts < rules.rebel_threshold), Fraction(0))


def trump_length_distribution(level: int, trump: int, hand: int = HAND) -> dict[int, Fraction]:
    """P(the hand holds t 主 cards), t = 0..hand, for level L and trump spec T (§2)."""
    return dict(_trump_length_distribution(level, trump, hand))


@cache
def _trump_length_distribution(level: int, trump: int, hand: int
                               ) -> tuple[tuple[int, Fraction], ...]:
    ctx = context(level, trump)
    counts = count_by_statistic(lambda f: int(ctx.is_trump(f)), hand)
    total = n_hands(hand)
    return tuple((t, Fraction(counts.get(t, 0), total)) for t in range(hand + 1))


def monte_carlo(rules: ShengjiRules, level: int, trump: int | None, n: int, seed: int
                ) -> dict[str, Any]:
    """The same features over ``n`` random deals of seat 0 (seat 2 its partner), drawn as
    permutations of the 108 cards by a Generator seeded with ``SeedSequence(seed)``.

    Returns per-deal arrays under the keys of ``exact`` (booleans; ``points`` and
    ``trump_length`` {spec: lengths} as integers). Features are computed from face counts
    directly, independently of the counting in ``exact``.
    """
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed)))
    specs = trump_specs(trump)
    parts: list[dict[str, Any]] = []
    for start in range(0, n, _CHUNK):
        m = min(_CHUNK, n - start)
        deck = np.broadcast_to(np.arange(N_CARDS, dtype=np.int8), (m, N_CARDS))
        faces = rng.permuted(deck, axis=1) // COPIES  # card c is a copy of face c // 2
        parts.append(_features(rules, level, specs, faces))
    keys = [k for k in parts[0] if k != "trump_length"] if parts else []
    out: dict[str, Any] = {k: np.concatenate([p[k] for p in parts]) for k in keys}
    out["trump_length"] = {t: np.concatenate([p["trump_length"][t] for p in parts])
                           for t in specs} if parts else {}
    return out


def _face_counts(faces: np.ndarray) -> np.ndarray:
    m = faces.shape[0]
    idx = faces.astype(np.int64) + N_FACES * np.arange(m)[:, None]
    return np.bincount(idx.ravel(), minlength=m * N_FACES).reshape(m, N_FACES)


def _features(rules: ShengjiRules, level: int, specs, faces: np.ndarray) -> dict[str, Any]:
    hand = faces[:, :HAND]
    counts = _face_counts(hand)
    big, small = counts[:, BIG_JOKER] == 2, counts[:, SMALL_JOKER] == 2
    suited = np.zeros(len(hand), dtype=bool)
    for s in SUITED:
        has_level = counts[:, face(s, level)] > 0
        if rules.level_cards_need_joker:
            has_level &= counts[:, joker_for_suit(s, rules)] > 0
        suited |= has_level
    pts = FACE_POINTS[hand].sum(axis=1)
    if rules.rebel_scope == "side":  # seat 2 (cards 50..74) is seat 0's partner
        rebel_pts = pts + FACE_POINTS[faces[:, 2 * HAND:3 * HAND]].sum(axis=1)
    else:
        rebel_pts = pts
    trump_len = {}
    for t in specs:
        is_trump = np.array(context(level, t).esuit) == 4
        trump_len[t] = (counts * is_trump).sum(axis=1)
    return {
        "declare_any": suited | ((big | small) & rules.joker_pair_may_open),
        "declare_suited": suited,
        "joker_pair": big | small,
        "big_joker_pair": big,
        "small_joker_pair": small,
        "rebel": (rebel_pts < rules.rebel_threshold) & rules.rebel_enabled,
        "points": pts,
        "trump_length": trump_len,
    }


def feature_labels(rules: ShengjiRules) -> dict[str, str]:
    """Readable names of the scalar features under ``rules``."""
    level_card = ("a level card beside the joker of its colour" if rules.level_cards_need_joker
                  else "a level card")
    scope = "side's" if rules.rebel_scope == "side" else "own"
    rebel = (f"qualifies for 造反 (rebel: {scope} points < {rules.rebel_threshold})"
             if rules.rebel_enabled else "qualifies for 造反 (rebel; off in these rules)")
    return {
        "declare_any": "can declare (亮主) at all, joker pairs included",
        "declare_suited": f"can declare a suit: {level_card}",
        "joker_pair": "holds a joker pair (对王: 大王 or 小王)",
        "big_joker_pair": "holds the 大王 pair",
        "small_joker_pair": "holds the 小王 pair",
        "rebel": rebel,
    }


def _row(exact_p: Fraction, hits: int | None, n: int) -> dict[str, Any]:
    row: dict[str, Any] = {"exact": float(exact_p)}
    if hits is not None:
        est = proportion_ci(int(hits), n)
        row["monte_carlo"] = est.as_dict()
        row["outside_ci"] = not est.low <= float(exact_p) <= est.high
    return row


def _mean(dist: dict[int, Fraction]) -> Fraction:
    return sum((k * p for k, p in dist.items()), Fraction(0))


def _distribution(dist: dict[int, Fraction], mc: dict[str, Any] | None, n: int,
                  key: str, width: int = 1) -> dict[str, Any]:
    """Exact rows beside the kernel's histogram (``mc``: ``hist`` by ``width``, ``sum``,
    ``sum_sq``) and the mean."""
    rows = []
    for value, p in dist.items():
        hits = None
        if mc is not None:
            i = value // width
            hits = int(mc["hist"][i]) if i < len(mc["hist"]) else 0
        rows.append({key: value} | _row(p, hits, n))
    mean: dict[str, Any] = {"exact": float(_mean(dist))}
    if mc is not None:
        mean["monte_carlo"] = mean_ci_from_sums(float(mc["sum"]), float(mc["sum_sq"]),
                                                n).as_dict()
    return {"mean": mean, "rows": rows}


def kernel_monte_carlo(rules: ShengjiRules, level: int, trump: int | None, n: int, seed: int
                       ) -> dict[str, Any]:
    """Seat 0's features over ``n`` deals of the Numba deal kernel (``sim.deal_features``,
    streams from ``SeedSequence(seed)``): hit counts under the keys of ``exact``, and
    ``points`` / ``trump_length[spec]`` as ``{hist, sum, sum_sq}``. Seat 0's partner is
    seat 2, so the deal is read with banker seat 1 (the defenders are seats 0 and 2)."""
    from kernels.shengji import deal as kd

    from .sim import deal_features, seat0_joker_pairs

    specs = trump_specs(trump)
    aggs = {t: deal_features(n, level, t, rules, seed, banker=1) for t in specs}
    a = aggs[specs[0]]  # the deals are the same whatever the trump
    big, small = seat0_joker_pairs(n, seed)
    rebel = (int(a[kd.DT + kd.DT_SIDE_REBEL]) if rules.rebel_scope == "side"
             else int(a[kd.DS_REBEL]))
    out: dict[str, Any] = {
        "declare_any": int(a[kd.DS_CAN_DECLARE]), "declare_suited": int(a[kd.DS_SUITED]),
        "joker_pair": int(a[kd.DS_JOKER_PAIR]), "big_joker_pair": big,
        "small_joker_pair": small, "rebel": rebel if rules.rebel_enabled else 0,
        "points": {"hist": a[kd.DS_POINTS_HIST:kd.DS_POINTS_HIST + 41],
                   "sum": a[kd.DS_POINTS], "sum_sq": a[kd.DS_POINTS_SQ]},
        "trump_length": {t: {"hist": g[kd.DS_TRUMP_HIST:kd.DS_TRUMP_HIST + HAND + 1],
                             "sum": g[kd.DS_TRUMP], "sum_sq": g[kd.DS_TRUMP_SQ]}
                         for t, g in aggs.items()},
    }
    return out


def odds_table(rules: ShengjiRules, level: int, trump: int | None, deals: int, seed: int
               ) -> dict[str, Any]:
    """Every exact value beside its Monte Carlo estimate from the deal kernel (``deals`` = 0:
    exact only), and how many exact values fall outside their 95% interval against the 5%
    chance predicts."""
    ex = exact(rules, level, trump)
    mc = kernel_monte_carlo(rules, level, trump, deals, seed) if deals else None
    labels = feature_labels(rules)
    features = []
    for key, label in labels.items():
        hits = None if mc is None else mc[key]
        features.append({"feature": key, "label": label} | _row(ex[key], hits, deals))
    pts = _distribution(ex["points"], None if mc is None else mc["points"], deals, "points", 5)
    lengths: list[dict[str, Any]] = []
    for t, dist in ex["trump_length"].items():
        ctx = context(level, t)
        block = _distribution(dist, None if mc is None else mc["trump_length"][t], deals,
                              "length")
        lengths.append({"trump": "nt" if t == NT else SUIT_LETTERS[t],
                        "trump_cards": 2 * sum(ctx.is_trump(f) for f in range(N_FACES))}
                       | block)
    rows = features + pts["rows"] + [r for b in lengths for r in b["rows"]]
    out: dict[str, Any] = {
        "game": "shengji", "rules": rules.label, "level": level,
        "trump": None if trump is None else "nt" if trump == NT else SUIT_LETTERS[trump],
        "hand_cards": HAND, "deals": deals, "seed": seed,
        "features": features, "points": pts, "trump_length": lengths,
    }
    if mc is not None:
        outside = sum(r["outside_ci"] for r in rows)
        out["check"] = {"rows": len(rows), "outside_ci": outside,
                        "expected_outside": round(ALPHA_SHARE * len(rows), 2)}
    return out


__all__ = ["count_by_statistic", "count_special", "exact", "kernel_monte_carlo", "monte_carlo",
           "n_hands", "odds_table", "points_distribution", "rebel_probability",
           "trump_length_distribution", "trump_specs"]
