"""Exact deal odds (analyzer.shengji.odds) against closed forms, brute force over small hands,
the rule primitives deal by deal, and Monte Carlo agreement."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction
from math import comb

import numpy as np
import pytest

from analyzer.shengji import odds
from analyzer.shengji.bidding import declarable, qualifies_rebel
from analyzer.shengji.cards import NT, context, points
from analyzer.shengji.rules import CLASSIC, ZHENGZHOU

ALL = comb(108, 25)


def test_joker_pairs_closed_forms():
    ex = odds.exact(ZHENGZHOU, 2, 0)
    one = Fraction(comb(106, 23), ALL)
    assert ex["big_joker_pair"] == one == ex["small_joker_pair"]
    assert ex["joker_pair"] == 2 * one - Fraction(comb(104, 21), ALL)


@pytest.mark.parametrize("level, trump, n_trumps", [(2, 0, 36), (10, 3, 36), (14, 1, 36),
                                                     (2, NT, 12), (7, NT, 12)])
def test_trump_length_is_hypergeometric(level, trump, n_trumps):
    dist = odds.trump_length_distribution(level, trump)
    assert list(dist) == list(range(26))
    for t, p in dist.items():
        assert p == Fraction(comb(n_trumps, t) * comb(108 - n_trumps, 25 - t), ALL)


def test_points_distribution_closed_form():
    dist = odds.points_distribution()
    assert list(dist) == list(range(0, 205, 5)) and sum(dist.values()) == 1
    want: Counter[int] = Counter()
    for fives in range(9):  # 8 fives (5 points); 16 tens and kings (10 points); 84 others
        for tens in range(17):
            if fives + tens <= 25:
                want[5 * fives + 10 * tens] += (comb(8, fives) * comb(16, tens)
                                                * comb(84, 25 - fives - tens))
    assert dist == {p: Fraction(want[p], ALL) for p in dist}
    assert sum(p * q for p, q in dist.items()) == Fraction(200 * 25, 108)


def test_classic_declaring_closed_form():
    ex = odds.exact(CLASSIC, 2, 0)
    no_level = comb(100, 25)
    assert ex["declare_suited"] == 1 - Fraction(no_level, ALL)
    # no level card and no joker pair, by inclusion–exclusion over the two joker pairs
    assert ex["declare_any"] == 1 - Fraction(no_level - 2 * comb(98, 23) + comb(96, 21), ALL)


def test_zhengzhou_suited_declaring_inclusion_exclusion():
    """No suited declaration ⇔ (no 大王 or no red level card) and (no 小王 or no black one);
    cards to avoid: 大王 2, red level 4, 小王 2, black level 4."""
    sizes = {"B": 2, "R": 4, "S": 2, "K": 4}
    none = 0
    for left in ({"B"}, {"R"}, {"B", "R"}):
        for right in ({"S"}, {"K"}, {"S", "K"}):
            sign = (-1) ** (len(left) + len(right))
            avoid = sum(sizes[g] for g in left | right)
            none += sign * comb(108 - avoid, 25)
    assert odds.exact(ZHENGZHOU, 9, 2)["declare_suited"] == 1 - Fraction(none, ALL)


def test_level_and_suit_symmetry():
    a, b = odds.exact(ZHENGZHOU, 2, 0), odds.exact(ZHENGZHOU, 14, 3)
    for key in ("declare_any", "declare_suited", "rebel"):
        assert a[key] == b[key]
    assert a["trump_length"][0] == b["trump_length"][3]


def test_rule_switches():
    ex = odds.exact(ZHENGZHOU.with_(joker_pair_may_open=False), 2, 0)
    assert ex["declare_any"] == ex["declare_suited"]
    assert odds.exact(CLASSIC, 2, 0)["rebel"] == 0
    below = sum(p for pts, p in odds.points_distribution().items() if pts < 15)
    assert odds.exact(ZHENGZHOU, 2, 0)["rebel"] == below
    assert odds.rebel_probability(ZHENGZHOU.with_(rebel_threshold=20)) > below
    side = odds.rebel_probability(ZHENGZHOU.with_(rebel_scope="side"))
    assert side == sum(p for pts, p in odds.points_distribution(50).items() if pts < 15)
    assert 0 < side < Fraction(1, 10**4)


# ---- brute force: every 3-card subset of the 108 physical cards ---------------------------------

@pytest.fixture(scope="module")
def three_card_hands() -> Counter:
    """Every 3-card subset of the 108 physical cards, tallied by the faces it holds."""
    return Counter(tuple(c // 2 for c in cards)  # card c is a copy of face c // 2
                   for cards in itertools.combinations(range(108), 3))


@pytest.mark.parametrize("rules, level, trump", [(ZHENGZHOU, 2, 0), (CLASSIC, 2, NT),
                                                  (ZHENGZHOU, 10, NT)])
def test_exact_against_brute_force(three_card_hands, rules, level, trump):
    ex = odds.exact(rules, level, trump, hand=3)
    ctx = context(level, trump)
    tally: Counter = Counter()
    for faces, ways in three_card_hands.items():
        decl = declarable(faces, level, rules)
        big, small = faces.count(53) == 2, faces.count(52) == 2
        tally.update({"declare_suited": ways * any(d.cls <= 2 for d in decl),
                      "declare_any": ways * bool(decl), "big_joker_pair": ways * big,
                      "small_joker_pair": ways * small, "joker_pair": ways * (big or small),
                      "rebel": ways * qualifies_rebel(faces, rules),
                      ("points", points(faces)): ways,
                      ("trumps", sum(ctx.is_trump(f) for f in faces)): ways})
    total = sum(three_card_hands.values())
    assert total == odds.n_hands(3) == comb(108, 3)
    for key in ("declare_suited", "declare_any", "big_joker_pair", "small_joker_pair",
                "joker_pair", "rebel"):
        assert ex[key] == Fraction(tally[key], total), key
    assert ex["declare_suited"] > 0 and ex["big_joker_pair"] > 0
    for pts, p in ex["points"].items():
        assert p == Fraction(tally[("points", pts)], total)
    for t, p in ex["trump_length"][trump].items():
        assert p == Fraction(tally[("trumps", t)], total)


def test_count_helpers_agree():
    """The DP over faces and the enumeration of special faces count the same thing."""
    by_jokers = odds.count_by_statistic(lambda f: int(f == 53))
    assert by_jokers[2] == odds.count_special((53,), lambda c: len(c) == 2)
    assert sum(by_jokers.values()) == ALL


# ---- Monte Carlo ---------------------------------------------------------------------------------

@pytest.mark.parametrize("rules, level, trump", [(ZHENGZHOU, 2, 0), (CLASSIC, 13, 1)])
def test_vectorised_features_match_primitives(rules, level, trump):
    rng = np.random.default_rng(11)
    faces = np.stack([rng.permutation(108) // 2 for _ in range(300)])
    specs = odds.trump_specs(trump)
    got = odds._features(rules, level, specs, faces)
    for i, row in enumerate(faces):
        hand = tuple(int(f) for f in row[:25])
        decl = declarable(hand, level, rules)
        assert got["declare_suited"][i] == any(d.cls <= 2 for d in decl)
        assert got["declare_any"][i] == bool(decl)
        assert got["big_joker_pair"][i] == (hand.count(53) == 2)
        assert got["small_joker_pair"][i] == (hand.count(52) == 2)
        assert got["points"][i] == points(hand)
        assert got["rebel"][i] == qualifies_rebel(hand, rules)
        for t in specs:
            assert got["trump_length"][t][i] == sum(context(level, t).is_trump(f) for f in hand)


def test_monte_carlo_is_seeded_and_chunked():
    a = odds.monte_carlo(ZHENGZHOU, 2, None, 70_000, 3)  # crosses a chunk boundary
    b = odds.monte_carlo(ZHENGZHOU, 2, None, 70_000, 3)
    c = odds.monte_carlo(ZHENGZHOU, 2, None, 70_000, 4)
    assert len(a["points"]) == 70_000 and set(a["trump_length"]) == {0, NT}
    assert np.array_equal(a["points"], b["points"])
    assert not np.array_equal(a["points"], c["points"])
    assert np.array_equal(odds.monte_carlo(ZHENGZHOU, 2, None, 1000, 3)["points"],
                          a["points"][:1000])


@pytest.mark.parametrize("rules, level, trump", [(ZHENGZHOU, 2, 0), (CLASSIC, 5, NT),
                                                  (ZHENGZHOU.with_(rebel_scope="side",
                                                                   rebel_threshold=70), 2, 2)])
def test_monte_carlo_agrees_with_exact(rules, level, trump):
    n = 100_000
    table = odds.odds_table(rules, level, trump, n, seed=2024)
    rows = (table["features"] + table["points"]["rows"]
            + [r for b in table["trump_length"] for r in b["rows"]])
    for r in rows:  # a 5σ band: a deterministic seed, no flakiness, still a sharp test
        p, hits = r["exact"], r["monte_carlo"]["value"] * n
        assert abs(hits - n * p) <= 5 * math.sqrt(n * p * (1 - p)) + 2, r
    check = table["check"]
    assert check["rows"] == len(rows) and check["expected_outside"] == pytest.approx(
        0.05 * len(rows))
    assert check["outside_ci"] <= 3 * check["expected_outside"]
    for block in [table["points"]] + table["trump_length"]:
        mean, est = block["mean"]["exact"], block["mean"]["monte_carlo"]
        assert est["low"] - 0.05 <= mean <= est["high"] + 0.05


def test_side_rebel_counts_both_defenders():
    rules = ZHENGZHOU.with_(rebel_scope="side", rebel_threshold=70)
    mc = odds.monte_carlo(rules, 2, 0, 20_000, 9)
    p = float(odds.rebel_probability(rules))
    assert 0.01 < p < 0.2
    assert abs(mc["rebel"].mean() - p) < 5 * math.sqrt(p * (1 - p) / 20_000)
