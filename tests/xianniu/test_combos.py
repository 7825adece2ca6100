"""Combinations: classification and the beat relation, table-driven from docs/rules/xianniu.md §2.

Every expectation below is read off docs/rules/xianniu.md §2, not off the code.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.xianniu.cards import (
    FULL_DECK,
    cards_of,
    count,
    format_card,
    format_cards,
    mask_of,
    parse_mask,
)
from analyzer.xianniu.combos import (
    answers_to,
    beats,
    classify,
    plays_in,
    qiangci_plays,
    try_classify,
)
from analyzer.xianniu.rules import get_rules

L = get_rules("lanzhou")
KN = get_rules("kanniutui")
PRESETS = {"lanzhou": L, "kanniutui": KN}
BOTH = ("lanzhou", "kanniutui")

# Rank indices A 2 3 5 6 7 8 9 10 J Q K
A, R2, R3, R5, R6, R7, R8, R9, R10, J, Q, K = range(12)


def play(text: str, rules):
    return classify(parse_mask(text), rules)


# --- classify --------------------------------------------------------------------------
# (cards, preset(s), expected kind, expected rank or None to skip, expected k or None)

CLASSIFY_OK = [
    # sets of each size
    ("7s", BOTH, "set", R7, None),
    ("Qs Qh", BOTH, "set", Q, None),
    ("3s 3h 3c", BOTH, "set", R3, None),
    ("Ks Kh Kc Kd", BOTH, "set", K, None),
    ("10s", BOTH, "set", R10, None),
    ("Js Jd", BOTH, "set", J, None),
    ("9s", BOTH, "set", R9, None),
    ("5d", BOTH, "set", R5, None),
    # 牛: 99 of both colours, 999 always
    ("9s 9h", BOTH, "niu", R9, None),
    ("9c 9d", BOTH, "niu", R9, None),
    ("9s 9d", BOTH, "niu", R9, None),
    ("9s 9h 9c", BOTH, "niu", R9, None),
    ("9h 9c 9d", BOTH, "niu", R9, None),
    # same-colour 9 pairs are ordinary pairs; 9999 is an ordinary 亮子
    ("9s 9c", BOTH, "set", R9, None),
    ("9h 9d", BOTH, "set", R9, None),
    ("9s 9h 9c 9d", BOTH, "set", R9, None),
    # 喜 likewise
    ("5s 5h", BOTH, "xi", R5, None),
    ("5c 5h", BOTH, "xi", R5, None),
    ("5s 5h 5c", BOTH, "xi", R5, None),
    ("5s 5h 5d", BOTH, "xi", R5, None),
    ("5s 5c", BOTH, "set", R5, None),
    ("5h 5d", BOTH, "set", R5, None),
    ("5s 5h 5c 5d", BOTH, "set", R5, None),
    # 鱼 k × (A+2+3)
    ("As 2h 3c", BOTH, "fish", None, 1),
    ("As Ah 2s 2h 3s 3h", BOTH, "fish", None, 2),
    ("As Ah Ac 2s 2h 2c 3s 3h 3c", ("lanzhou",), "fish", None, 3),
    ("As Ah Ac Ad 2s 2h 2c 2d 3s 3h 3c 3d", ("lanzhou",), "fish", None, 4),
    # 鱼亮 AAAA+2+3
    ("As Ah Ac Ad 2s 3d", BOTH, "fish_liang", None, None),
    # 摆 k × (8+10+K)
    ("8s 10h Kc", BOTH, "bai", None, 1),
    ("8s 8h 10s 10h Ks Kh", BOTH, "bai", None, 2),
    ("8s 8h 8c 10s 10h 10c Ks Kh Kc", ("lanzhou",), "bai", None, 3),
    ("8s 8h 8c 8d 10s 10h 10c 10d Ks Kh Kc Kd", ("lanzhou",), "bai", None, 4),
    # 摆亮 KKKK+10+8
    ("Ks Kh Kc Kd 10s 8d", BOTH, "bai_liang", None, None),
    # K-摆 [L]
    ("Ks Kh 10s 8s", ("lanzhou",), "k_bai", None, None),
    ("Ks Kh Kc 10d 8c", ("lanzhou",), "k_bai", None, None),
    # 喜包亮 [L]: 6 and 7 cards
    ("5s 5h 7s 7h 7c 7d", ("lanzhou",), "xi_bao_liang", R7, None),
    ("5s 5h 5c Qs Qh Qc Qd", ("lanzhou",), "xi_bao_liang", Q, None),
    ("5c 5d As Ah Ac Ad", ("lanzhou",), "xi_bao_liang", A, None),
    ("5s 5h 9s 9h 9c 9d", ("lanzhou",), "xi_bao_liang", R9, None),
    # 龙凤 AA+22+33+KK+1010+88
    ("As Ah 2s 2h 3s 3h Ks Kh 10s 10h 8s 8h", BOTH, "long_feng", None, None),
    ("Ac Ad 2c 2d 3c 3d Kc Kd 10c 10d 8c 8d", BOTH, "long_feng", None, None),
    # 八大对, 9s and 5s paired by colour: fine under both
    ("As Ah 2s 2h 3s 3h 5s 5c 6s 6h 7s 7h 9h 9d Qs Qh", BOTH, "eight_pairs", None, None),
    # a 亮子 counts as two pairs
    ("As Ah Ac Ad 2s 2h 3s 3h 6s 6h 7s 7h 9s 9c Qs Qh", BOTH, "eight_pairs", None, None),
    ("5s 5h 5c 5d 9s 9h 9c 9d 2s 2h 3s 3h 6s 6h 7s 7h", BOTH, "eight_pairs", None, None),
    # 八大对 with mixed-colour 9 and 5 pairs: [K] only
    ("As Ah 2s 2h 3s 3h 5s 5h 6s 6h 7s 7h 9s 9h Qs Qh", ("kanniutui",), "eight_pairs", None,
     None),
    ("As Ah 2s 2h 3s 3h 5s 5c 6s 6h 7s 7h 9s 9d Qs Qh", ("kanniutui",), "eight_pairs", None,
     None),
]

CLASSIFY_BAD = [
    # mixed ranks that make no combination
    ("7s 8s", BOTH),
    ("Ks Kh Qs Qh", BOTH),
    ("9s 9h 5s 5h", BOTH),
    ("10s Js", BOTH),  # 10 = J in strength, but they are still two ranks
    ("Js Jh Jc Jd 10s", BOTH),
    # a 鱼 needs equal counts
    ("As Ah 2s 3s", BOTH),
    ("As Ah Ac 2s 3s", BOTH),
    ("As 2s", BOTH),
    ("As 2s 3s 5s", BOTH),
    # kanniutui allows at most 2 鱼 / 摆 units
    ("As Ah Ac 2s 2h 2c 3s 3h 3c", ("kanniutui",)),
    ("As Ah Ac Ad 2s 2h 2c 2d 3s 3h 3c 3d", ("kanniutui",)),
    ("8s 8h 8c 10s 10h 10c Ks Kh Kc", ("kanniutui",)),
    ("8s 8h 8c 8d 10s 10h 10c 10d Ks Kh Kc Kd", ("kanniutui",)),
    # 摆 uses 10, and other shapes are not 摆/摆亮/K-摆
    ("8s Jh Kc", BOTH),
    ("Ks Kh 10s 8s 8h", BOTH),
    ("Ks 10s 10h 8s", BOTH),
    ("Ks Kh Kc Kd 10s 10h 8s", BOTH),
    ("As Ah Ac Ad 2s 2h 3s", BOTH),  # AAAA+22+3 is not 鱼亮
    ("As Ah Ac Ad 2s", BOTH),
    # K-摆 is lanzhou only
    ("Ks Kh 10s 8s", ("kanniutui",)),
    ("Ks Kh Kc 10d 8c", ("kanniutui",)),
    # 喜包亮 is lanzhou only, and needs a real 喜 and a full 亮子 of another rank
    ("5s 5h 7s 7h 7c 7d", ("kanniutui",)),
    ("5s 5h 5c Qs Qh Qc Qd", ("kanniutui",)),
    ("5s 5c 7s 7h 7c 7d", BOTH),  # same-colour 55 is no 喜
    ("5s 5h 7s 7h 7c", BOTH),  # 777 is no 亮子
    ("5s 5h 5c 5d 7s 7h 7c 7d", BOTH),  # 5555 is no 喜
    ("5s 7s 7h 7c 7d", BOTH),
    # 龙凤 needs exactly a pair of each
    ("As Ah 2s 2h 3s 3h Ks Kh 10s 10h 8s", BOTH),
    ("As Ah 2s 2h 3s 3h Ks Kh Js Jh 8s 8h", BOTH),
    # 八大对 with mixed-colour 9 or 5 pairs: rejected under lanzhou
    ("As Ah 2s 2h 3s 3h 5s 5h 6s 6h 7s 7h 9s 9c Qs Qh", ("lanzhou",)),
    ("As Ah 2s 2h 3s 3h 5s 5c 6s 6h 7s 7h 9s 9h Qs Qh", ("lanzhou",)),
    ("As Ah 2s 2h 3s 3h 5s 5c 6s 6h 7s 7h 9s 9d Qs Qh", ("lanzhou",)),
    # 16 cards that are not 8 pairs
    ("As Ah Ac 2s 3s 3h 5s 5c 6s 6h 7s 7h 9s 9c Qs Qh", BOTH),
]


def _rows(table):
    for row in table:
        for name in row[1]:
            yield pytest.param(name, row[0], *row[2:], id=f"{name}:{row[0]}")


@pytest.mark.parametrize("preset, text, kind, rank, k", list(_rows(CLASSIFY_OK)))
def test_classify(preset, text, kind, rank, k):
    rules = PRESETS[preset]
    mask = parse_mask(text)
    p = classify(mask, rules)
    assert p.kind == kind
    assert p.mask == mask
    assert p.size == count(mask)
    if rank is not None:
        assert p.rank == rank
    if k is not None:
        assert p.k == k
    assert try_classify(mask, rules) == p


@pytest.mark.parametrize("preset, text", list(_rows(CLASSIFY_BAD)))
def test_classify_rejects(preset, text):
    rules = PRESETS[preset]
    mask = parse_mask(text)
    with pytest.raises(ValueError):
        classify(mask, rules)
    assert try_classify(mask, rules) is None


@pytest.mark.parametrize("preset", BOTH)
def test_classify_empty(preset):
    with pytest.raises(ValueError):
        classify(0, PRESETS[preset])


def test_rejection_reasons_name_the_rule():
    with pytest.raises(ValueError, match="鱼|fish"):
        classify(parse_mask("As Ah Ac 2s 2h 2c 3s 3h 3c"), KN)
    with pytest.raises(ValueError, match="K-摆|KK"):
        classify(parse_mask("Ks Kh 10s 8s"), KN)
    with pytest.raises(ValueError, match="喜包亮"):
        classify(parse_mask("5s 5h 7s 7h 7c 7d"), KN)


def test_niu_and_xi_all_mixed_pairs_and_triples():
    # Of the C(4,2) = 6 pairs of 9s, 4 mix colours (牛) and 2 do not; all 4 triples are 牛.
    for rank_char, kind in (("9", "niu"), ("5", "xi")):
        suits = "shcd"
        for rules in (L, KN):
            pairs = [classify(parse_mask(f"{rank_char}{a} {rank_char}{b}"), rules).kind
                     for a, b in combinations(suits, 2)]
            assert sorted(pairs) == sorted([kind] * 4 + ["set"] * 2)
            triples = [classify(parse_mask(" ".join(rank_char + s for s in t)), rules).kind
                       for t in combinations(suits, 3)]
            assert triples == [kind] * 4


# --- beats -----------------------------------------------------------------------------
# (top, challenger, preset(s), does challenger beat top?)

BEATS = [
    # sets: higher rank beats, same size only
    ("7s", "8s", BOTH, True),
    ("8s", "7s", BOTH, False),
    ("7s", "7h", BOTH, False),  # equal ranks never beat
    ("As", "2s", BOTH, True),
    ("Qs", "Ks", BOTH, True),
    ("7s 7h", "8s 8h", BOTH, True),
    ("7s 7h 7c", "Qs Qh Qc", BOTH, True),
    ("7s 7h 7c 7d", "8s 8h 8c 8d", BOTH, True),
    ("8s 8h 8c 8d", "7s 7h 7c 7d", BOTH, False),
    # 10 = J in every size
    ("10s", "Js", BOTH, False),
    ("Js", "10s", BOTH, False),
    ("10s 10h", "Js Jh", BOTH, False),
    ("Js Jh", "10s 10h", BOTH, False),
    ("10s 10h 10c", "Js Jh Jc", BOTH, False),
    ("Js Jh Jc", "10s 10h 10c", BOTH, False),
    ("10s 10h 10c 10d", "Js Jh Jc Jd", BOTH, False),
    ("Js Jh Jc Jd", "10s 10h 10c 10d", BOTH, False),
    ("9s", "10s", BOTH, True),
    ("9s", "Js", BOTH, True),
    ("10s", "Qs", BOTH, True),
    ("Js Jh", "Qs Qh", BOTH, True),
    ("10s 10h 10c 10d", "Qs Qh Qc Qd", BOTH, True),
    # [L] 3 and 6 never beat each other, in any size; 5 beats 3 and 6 beats 5
    ("3s", "6s", ("lanzhou",), False),
    ("6s", "3s", ("lanzhou",), False),
    ("3s 3h", "6s 6h", ("lanzhou",), False),
    ("6s 6h", "3s 3h", ("lanzhou",), False),
    ("3s 3h 3c", "6s 6h 6c", ("lanzhou",), False),
    ("6s 6h 6c", "3s 3h 3c", ("lanzhou",), False),
    ("3s 3h 3c 3d", "6s 6h 6c 6d", ("lanzhou",), False),
    ("6s 6h 6c 6d", "3s 3h 3c 3d", ("lanzhou",), False),
    ("3s", "5s", ("lanzhou",), True),
    ("5s", "6s", ("lanzhou",), True),
    ("5s", "3s", ("lanzhou",), False),
    ("3s 3h", "5s 5c", ("lanzhou",), True),
    ("5s 5c", "6s 6h", ("lanzhou",), True),
    ("3s 3h 3c 3d", "5s 5h 5c 5d", ("lanzhou",), True),
    ("5s 5h 5c 5d", "6s 6h 6c 6d", ("lanzhou",), True),
    ("2s", "3s", ("lanzhou",), True),
    ("6s", "7s", ("lanzhou",), True),
    ("3s 3h 3c", "7s 7h 7c", ("lanzhou",), True),
    # [K] singles: usual order, 6 beats 3
    ("3s", "6s", ("kanniutui",), True),
    ("6s", "3s", ("kanniutui",), False),
    ("3s", "5s", ("kanniutui",), True),
    ("5s", "3s", ("kanniutui",), False),
    ("5s", "6s", ("kanniutui",), True),
    # [K] pairs/triples/亮子: A < 2 < 5 < 3 = 6 < 7
    ("3s 3h", "6s 6h", ("kanniutui",), False),
    ("6s 6h", "3s 3h", ("kanniutui",), False),
    ("3s 3h 3c", "6s 6h 6c", ("kanniutui",), False),
    ("6s 6h 6c", "3s 3h 3c", ("kanniutui",), False),
    ("3s 3h 3c 3d", "6s 6h 6c 6d", ("kanniutui",), False),
    ("6s 6h 6c 6d", "3s 3h 3c 3d", ("kanniutui",), False),
    ("5s 5c", "3s 3h", ("kanniutui",), True),   # 55 (same colour) < 33
    ("3s 3h", "5s 5c", ("kanniutui",), False),
    ("5h 5d", "6s 6h", ("kanniutui",), True),
    ("6s 6h", "5h 5d", ("kanniutui",), False),
    ("5s 5h 5c 5d", "3s 3h 3c 3d", ("kanniutui",), True),
    ("3s 3h 3c 3d", "5s 5h 5c 5d", ("kanniutui",), False),
    ("2s 2h", "5s 5c", ("kanniutui",), True),
    ("5s 5c", "2s 2h", ("kanniutui",), False),
    ("2s 2h 2c 2d", "5s 5h 5c 5d", ("kanniutui",), True),
    ("2s 2h", "3s 3h", ("kanniutui",), True),
    ("3s 3h", "7s 7h", ("kanniutui",), True),
    ("6s 6h 6c", "7s 7h 7c", ("kanniutui",), True),
    ("7s 7h", "6s 6h", ("kanniutui",), False),
    # 牛 vs K: neither beats; 牛 beats Q and same-colour 99
    ("Ks Kh", "9s 9h", BOTH, False),
    ("9s 9h", "Ks Kh", BOTH, False),
    ("Qs Qh", "9s 9h", BOTH, True),
    ("9s 9c", "9h 9d", BOTH, False),  # both same-colour pairs: ordinary 99 vs 99, equal
    ("Ks Kh Kc", "9s 9h 9c", BOTH, False),
    ("9s 9h 9c", "Ks Kh Kc", BOTH, False),
    ("Qs Qh Qc", "9s 9h 9c", BOTH, True),
    ("10s 10h 10c", "9s 9h 9d", BOTH, True),
    ("As Ah", "9c 9d", BOTH, True),  # 9♣9♦ is black + red: a 牛
    ("8s 8h", "9s 9h", BOTH, True),
    ("Js Jh", "9c 9d", BOTH, True),
    ("Qs Qh Qc", "9s 9h 9d", BOTH, True),
    ("As Ah Ac", "9s 9c 9d", BOTH, True),
    ("5s 5c", "9s 9h", BOTH, True),  # same-colour 55 is a set
    ("3s 3h", "9s 9h", BOTH, True),
    ("9s 9c", "Ks Kh", BOTH, True),  # KK beats a same-colour 99 (an ordinary pair)
    ("9s 9c", "Qs Qh", BOTH, True),
    ("9s 9c", "8s 8h", BOTH, False),
    # nothing beats 牛
    ("9s 9h", "Ks Kd", BOTH, False),
    ("9s 9h", "9c 9d", BOTH, False),  # 牛 vs 牛
    ("9s 9h", "Qs Qh", BOTH, False),
    ("9s 9h 9c", "Ks Kh Kc", BOTH, False),
    # 喜 beats nothing and is never beaten
    ("5s 5h", "9c 9d", BOTH, False),
    ("5s 5h", "Ks Kh", BOTH, False),
    ("5s 5h", "5c 5d", BOTH, False),
    ("5s 5h 5c", "Ks Kh Kc", BOTH, False),
    ("5s 5h 5c", "9s 9h 9c", BOTH, False),
    ("As Ah", "5s 5h", BOTH, False),
    ("3s 3h", "5s 5h", BOTH, False),
    ("As Ah Ac", "5s 5h 5c", BOTH, False),
    ("9s 9h", "5c 5d", BOTH, False),
    # 鱼 only by 摆 of the same k
    ("As 2s 3s", "8s 10s Ks", BOTH, True),
    ("As Ah 2s 2h 3s 3h", "8s 8h 10s 10h Ks Kh", BOTH, True),
    ("As Ah Ac 2s 2h 2c 3s 3h 3c", "8s 8h 8c 10s 10h 10c Ks Kh Kc", ("lanzhou",), True),
    ("As Ah Ac Ad 2s 2h 2c 2d 3s 3h 3c 3d", "8s 8h 8c 8d 10s 10h 10c 10d Ks Kh Kc Kd",
     ("lanzhou",), True),
    ("As 2s 3s", "8s 8h 10s 10h Ks Kh", BOTH, False),   # different k (sizes differ)
    ("As Ah 2s 2h 3s 3h", "8s 10s Ks", BOTH, False),
    ("As 2s 3s", "Ah 2h 3h", BOTH, False),                # 鱼 does not beat 鱼
    ("As 2s 3s", "Ks Kh Kc", BOTH, False),                # nor does a set
    ("As 2s 3s", "9s 9h 9c", BOTH, False),                # 牛 does not beat 鱼
    ("As 2s 3s", "5s 5h 5c", BOTH, False),
    ("As Ah 2s 2h 3s 3h", "Ks Kh Kc Kd 10s 8s", BOTH, False),  # 摆亮 does not beat 2-鱼
    ("As Ah 2s 2h 3s 3h", "5s 5h 7s 7h 7c 7d", ("lanzhou",), False),
    # 鱼亮 only by 摆亮
    ("As Ah Ac Ad 2s 3s", "Ks Kh Kc Kd 10s 8s", BOTH, True),
    ("As Ah Ac Ad 2s 3s", "8s 8h 10s 10h Ks Kh", BOTH, False),  # 摆(k=2) is 6 cards too
    ("As Ah Ac Ad 2s 3s", "5s 5h Qs Qh Qc Qd", ("lanzhou",), False),
    # 摆, 摆亮, K-摆 are never beaten; 摆 beats only 鱼, 摆亮 only 鱼亮, K-摆 nothing
    ("8s 10s Ks", "8h 10h Kh", BOTH, False),
    ("8s 10s Ks", "As 2s 3s", BOTH, False),
    ("8s 10s Ks", "9s 9h 9c", BOTH, False),
    ("8s 8h 10s 10h Ks Kh", "8c 8d 10c 10d Kc Kd", BOTH, False),
    ("8s 8h 10s 10h Ks Kh", "As Ah Ac Ad 2s 3s", BOTH, False),
    ("8s 8h 10s 10h Ks Kh", "As Ah 2s 2h 3s 3h", BOTH, False),
    ("Ks Kh Kc Kd 10s 8s", "As Ah Ac Ad 2s 3s", BOTH, False),
    ("Ks Kh Kc Kd 10s 8s", "Qs Qh Qc Qd 5s 5h", ("lanzhou",), False),
    ("Ks Kh 10s 8s", "Ah Ac Ad As", ("lanzhou",), False),
    ("Ks Kh 10s 8s", "Qh Qc Qd Qs", ("lanzhou",), False),
    ("Ks Kh 10s 8s", "Kc Kd 10h 8h", ("lanzhou",), False),
    ("Qs Qh Qc Qd", "Ks Kh 10s 8s", ("lanzhou",), False),
    # 喜包亮 [L]: beaten only by a 喜包亮 of the same size with a higher 亮子
    ("5s 5h 7s 7h 7c 7d", "5c 5d Qs Qh Qc Qd", ("lanzhou",), True),
    ("5s 5h Qs Qh Qc Qd", "5c 5d 7s 7h 7c 7d", ("lanzhou",), False),
    ("5s 5h 7s 7h 7c 7d", "5c 5d Ks Kh Kc Kd", ("lanzhou",), True),
    ("5s 5h 10s 10h 10c 10d", "5c 5d Js Jh Jc Jd", ("lanzhou",), False),  # 10 = J
    ("5s 5h 7s 7h 7c 7d", "Ks Kh Kc Kd 10s 8s", ("lanzhou",), False),
    ("5s 5h 7s 7h 7c 7d", "8s 8h 10s 10h Ks Kh", ("lanzhou",), False),
    ("5s 5h 7s 7h 7c 7d", "As Ah Ac Ad 2s 3s", ("lanzhou",), False),
    ("As Ah Ac Ad 2s 3s", "5s 5h 7s 7h 7c 7d", ("lanzhou",), False),
    ("8s 8h 10s 10h Ks Kh", "5s 5h 7s 7h 7c 7d", ("lanzhou",), False),
    # different sizes never beat
    ("7s", "Ks Kh", BOTH, False),
    ("7s 7h", "Ks", BOTH, False),
    ("7s 7h", "9s 9h 9c", BOTH, False),
    ("7s 7h 7c", "9s 9h", BOTH, False),
    ("7s", "9s 9h", BOTH, False),
    ("As 2s 3s", "8s 8h 10s 10h Ks Kh", BOTH, False),
    # a 亮子 does not beat a pair (or anything smaller)
    ("7s 7h", "Ks Kh Kc Kd", BOTH, False),
    ("7s", "Ks Kh Kc Kd", BOTH, False),
    ("7s 7h 7c", "Qs Qh Qc Qd", BOTH, False),
]


def _beats_rows():
    for top, ch, presets, expected in BEATS:
        for name in presets:
            yield pytest.param(name, top, ch, expected, id=f"{name}:{top}<-{ch}")


@pytest.mark.parametrize("preset, top, challenger, expected", list(_beats_rows()))
def test_beats(preset, top, challenger, expected):
    rules = PRESETS[preset]
    t, c = parse_mask(top), parse_mask(challenger)
    assert t & c == 0, "test rows use disjoint cards"
    assert beats(classify(t, rules), classify(c, rules), rules) is expected


@pytest.mark.parametrize("preset", BOTH)
def test_niu_beats_same_colour_nines(preset):
    # A 牛 beats a same-colour 99. In play the two can never meet (a red 99 leaves only
    # black 9s, which make no 牛), so compare the plays directly: beats() is a relation on
    # plays, and the cards may overlap here.
    rules = PRESETS[preset]
    same = classify(parse_mask("9h 9d"), rules)
    niu = classify(parse_mask("9s 9h"), rules)
    assert same.kind == "set" and niu.kind == "niu"
    assert beats(same, niu, rules)
    assert not beats(niu, same, rules)


def test_xi_bao_liang_sizes():
    # Two 7-card 喜包亮 need six 5s, so they never meet in play; compare the plays directly.
    top7 = classify(parse_mask("5s 5h 5c 7s 7h 7c 7d"), L)
    hi7 = classify(parse_mask("5s 5h 5d Qs Qh Qc Qd"), L)
    hi6 = classify(parse_mask("5c 5d Ks Kh Kc Kd"), L)
    assert (top7.size, hi7.size, hi6.size) == (7, 7, 6)
    assert beats(top7, hi7, L)        # same size, higher 亮子
    assert not beats(hi7, top7, L)    # lower 亮子
    assert not beats(top7, hi6, L)    # different size, even with K亮子
    low6 = classify(parse_mask("5s 5h 2s 2h 2c 2d"), L)
    assert not beats(low6, top7, L)


# --- whole-deck checks of the "never beaten" rows --------------------------------------

def _rest(text):
    return FULL_DECK & ~parse_mask(text)


@pytest.mark.parametrize("preset", BOTH)
@pytest.mark.parametrize("text", ["9s 9h", "9s 9h 9c", "9c 9d", "5s 5h", "5s 5h 5d",
                                  "8s 10s Ks", "8s 8h 10s 10h Ks Kh",
                                  "Ks Kh Kc Kd 10s 8s", "Ks Kh Kc Kd", "Ks Kh Kc", "Ks"])
def test_never_beaten_against_whole_deck(preset, text):
    # 牛, 喜, 摆, 摆亮 and K sets: nothing made of the rest of the deck beats them.
    rules = PRESETS[preset]
    assert answers_to(_rest(text), classify(parse_mask(text), rules), rules) == []


@pytest.mark.parametrize("text", ["Ks Kh 10s 8s", "Ks Kh Kc 10s 8s",
                                  "8s 8h 8c 10s 10h 10c Ks Kh Kc",
                                  "8s 8h 8c 8d 10s 10h 10c 10d Ks Kh Kc Kd",
                                  "5s 5h Ks Kh Kc Kd", "5s 5h 5c Ks Kh Kc Kd"])
def test_never_beaten_lanzhou_only_kinds(text):
    assert answers_to(_rest(text), classify(parse_mask(text), L), L) == []


@pytest.mark.parametrize("preset", BOTH)
@pytest.mark.parametrize("text", ["9s 9h", "9s 9h 9c", "5s 5h", "5s 5h 5c", "Ks Kh 10s 8s",
                                  "Ks Kh Kc 10s 8s"])
def test_beats_nothing(preset, text):
    # 喜 and K-摆 beat nothing; 牛 beats only sets.
    rules = PRESETS[preset]
    m = parse_mask(text)
    ch = try_classify(m, rules)
    if ch is None:
        assert preset == "kanniutui"  # K-摆 does not exist there
        return
    for top in plays_in(FULL_DECK & ~m, rules, max_size=ch.size):
        if beats(top, ch, rules):
            assert ch.kind == "niu" and top.kind == "set" and top.rank != K


@pytest.mark.parametrize("preset, k", [("lanzhou", 1), ("lanzhou", 2), ("lanzhou", 3),
                                      ("lanzhou", 4), ("kanniutui", 1), ("kanniutui", 2)])
def test_fish_answered_exactly_by_bai_of_same_k(preset, k):
    rules = PRESETS[preset]
    fish_text = " ".join(f"{r}{s}" for r in "A23" for s in "shcd"[:k])
    top = classify(parse_mask(fish_text), rules)
    assert top.kind == "fish" and top.k == k
    answers = answers_to(_rest(fish_text), top, rules)
    assert answers and all(p.kind == "bai" and p.k == k for p in answers)
    # every 摆 of k units in the remaining deck: C(4,k)^3 of them
    assert len(answers) == comb(4, k) ** 3


@pytest.mark.parametrize("preset", BOTH)
def test_fish_liang_answered_exactly_by_bai_liang(preset):
    rules = PRESETS[preset]
    text = "As Ah Ac Ad 2s 3s"
    answers = answers_to(_rest(text), classify(parse_mask(text), rules), rules)
    # 摆亮 = KKKK + one of four 10s + one of four 8s = 16
    assert len(answers) == 16
    assert all(p.kind == "bai_liang" for p in answers)


def test_xi_bao_liang_answered_only_by_higher_xi_bao_liang():
    text = "5s 5h 7s 7h 7c 7d"
    answers = answers_to(_rest(text), classify(parse_mask(text), L), L)
    assert answers and all(p.kind == "xi_bao_liang" for p in answers)
    # remaining fives 5♣5♦ make one 喜 pair; higher 亮子 ranks 8 9 10 J Q K = 6
    assert {p.rank for p in answers} == {R8, R9, R10, J, Q, K}
    assert len(answers) == 6


# --- enumeration -----------------------------------------------------------------------

# (hand, preset, max_size, expected number of plays, hand count in the comment)
PLAYS_IN = [
    # 9♠ 9♥ K♣: singles 3 + 牛 9♠9♥ = 4
    ("9s 9h Kc", "lanzhou", 16, 4),
    ("9s 9h Kc", "kanniutui", 16, 4),
    # 9♠ 9♣ K♣: singles 3 + ordinary pair 9♠9♣ = 4
    ("9s 9c Kc", "lanzhou", 16, 4),
    # A♠ 2♠ 3♠ 3♥: singles 4 + pair 33 + 鱼 A23 with either 3 (2) = 7
    ("As 2s 3s 3h", "lanzhou", 16, 7),
    ("As 2s 3s 3h", "kanniutui", 16, 7),
    ("As 2s 3s 3h", "lanzhou", 2, 5),
    ("As 2s 3s 3h", "lanzhou", 1, 4),
    # 5♠ 5♣ 5♥: singles 3 + pairs (5♠5♣ set, 5♠5♥ 喜, 5♣5♥ 喜) 3 + 喜 555 = 7
    ("5s 5c 5h", "lanzhou", 16, 7),
    ("5s 5c 5h", "kanniutui", 2, 6),
    # K♠ K♥ 10♠ 8♠: singles 4 + KK + 摆 K+10+8 (2 Ks) 2 + K-摆 KK+10+8 1 = 8 [L]; 7 [K]
    ("Ks Kh 10s 8s", "lanzhou", 16, 8),
    ("Ks Kh 10s 8s", "kanniutui", 16, 7),
    ("Ks Kh 10s 8s", "lanzhou", 3, 7),
    # 7777 5♠5♥: 7s 4+6+4+1 = 15, 5s 2 singles + 喜 = 3, 喜包亮 1 -> 19 [L]; 18 [K]
    ("7s 7h 7c 7d 5s 5h", "lanzhou", 16, 19),
    ("7s 7h 7c 7d 5s 5h", "kanniutui", 16, 18),
    ("7s 7h 7c 7d 5s 5h", "lanzhou", 4, 18),
    # AAAA 2♠ 3♠: A subsets 15 + 2 + 3 + 鱼 (4 aces) 4 + 鱼亮 1 = 22
    ("As Ah Ac Ad 2s 3s", "lanzhou", 16, 22),
    ("As Ah Ac Ad 2s 3s", "kanniutui", 16, 22),
    # AA 22 33: singles 6 + pairs 3 + 鱼 k=1 (2*2*2) 8 + 鱼 k=2 1 = 18
    ("As Ah 2s 2h 3s 3h", "lanzhou", 16, 18),
    ("As Ah 2s 2h 3s 3h", "kanniutui", 16, 18),
    # AAA 222 333: sets 3*(3+3+1) = 21 + 鱼 k=1 27 + k=2 27 + k=3 1 = 76 [L]; 75 [K]
    ("As Ah Ac 2s 2h 2c 3s 3h 3c", "lanzhou", 16, 76),
    ("As Ah Ac 2s 2h 2c 3s 3h 3c", "kanniutui", 16, 75),
    # 10♠ J♠: two singles, no pair (10 and J are different ranks)
    ("10s Js", "lanzhou", 16, 2),
]


@pytest.mark.parametrize("hand, preset, max_size, expected", PLAYS_IN)
def test_plays_in_counts(hand, preset, max_size, expected):
    rules = PRESETS[preset]
    plays = plays_in(parse_mask(hand), rules, max_size)
    assert len(plays) == expected
    assert len({p.mask for p in plays}) == len(plays)


def test_plays_in_exact_small_hand():
    ps = plays_in(parse_mask("9s 9h Kc"), L)
    assert [(format_cards(p.mask), p.kind) for p in ps] == [
        ("9♠", "set"), ("9♥", "set"), ("K♣", "set"), ("9♠ 9♥", "niu")]


@pytest.mark.parametrize("preset, expected", [
    # whole deck, by hand:
    # sets 12 ranks * 15 subsets = 180, less 4 mixed 99 + 4 999 + same for 5s = 164
    # 牛 8, 喜 8; 鱼 = sum_k C(4,k)^3 = 64 + 216 + 64 + 1 = 345 [L], 280 [K]; 摆 the same;
    # 鱼亮 4 * 4 = 16, 摆亮 16; K-摆 (C(4,2) + C(4,3)) * 4 * 4 = 160 [L];
    # 喜包亮 (4 mixed 55 + 4 喜 555) * 11 other ranks = 88 [L]
    ("lanzhou", {"set": 164, "niu": 8, "xi": 8, "fish": 345, "bai": 345, "fish_liang": 16,
                 "bai_liang": 16, "k_bai": 160, "xi_bao_liang": 88}),
    ("kanniutui", {"set": 164, "niu": 8, "xi": 8, "fish": 280, "bai": 280, "fish_liang": 16,
                   "bai_liang": 16}),
])
def test_plays_in_whole_deck(preset, expected):
    ps = plays_in(FULL_DECK, PRESETS[preset])
    assert dict(Counter(p.kind for p in ps)) == expected


def _brute(hand, rules, max_size=16):
    out = []
    cards = cards_of(hand)
    for n in range(1, min(len(cards), max_size) + 1):
        for combo in combinations(cards, n):
            p = try_classify(mask_of(combo), rules)
            if p is not None and p.kind not in ("long_feng", "eight_pairs"):
                out.append(p)
    return out


# Small hands built from the ranks where combinations live, so brute force meets every kind.
_INTERESTING = [c for c in range(48) if c // 4 in (A, R2, R3, R5, R6, R7, R8, R9, R10, K)]
hands = st.lists(st.sampled_from(_INTERESTING), min_size=1, max_size=10, unique=True)


@settings(max_examples=40, deadline=None)
@given(cards=hands, preset=st.sampled_from(BOTH), max_size=st.integers(1, 10))
def test_plays_in_matches_brute_force(cards, preset, max_size):
    rules = PRESETS[preset]
    hand = mask_of(cards)
    got = plays_in(hand, rules, max_size)
    for p in got:
        assert classify(p.mask, rules) == p
        assert p.size <= max_size
        assert p.mask & ~hand == 0
    assert sorted(got) == sorted(_brute(hand, rules, max_size))


_TOPS = ["7s", "3h", "6d", "Ks", "9s 9c", "5s 5c", "3s 3h", "6s 6h", "Qs Qh", "Js Jh",
         "9s 9h", "7s 7h 7c", "As 2s 3s", "8s 10s Ks", "As Ah 2s 2h 3s 3h", "2s 2h 2c 2d",
         "As Ah Ac Ad 2s 3s", "5h 5d 6s 6h 6c 6d", "Qs Qh Qc", "5s 5h 5c"]


@settings(max_examples=40, deadline=None)
@given(cards=hands, preset=st.sampled_from(BOTH))
def test_answers_to_matches_brute_force(cards, preset):
    rules = PRESETS[preset]
    hand = mask_of(cards)
    everything = _brute(hand, rules)
    for text in _TOPS:
        top = try_classify(parse_mask(text), rules)
        if top is None:
            continue
        expected = sorted(p for p in everything if beats(top, p, rules))
        assert sorted(answers_to(hand, top, rules)) == expected


def test_answers_to_examples():
    # 3♠ led under lanzhou; hand 5♥ 6♥ 7♥: 5 and 7 beat a 3, 6 does not.
    hand = parse_mask("5h 6h 7h")
    got = answers_to(hand, classify(parse_mask("3s"), L), L)
    assert sorted(format_cards(p.mask) for p in got) == ["5♥", "7♥"]
    got = answers_to(hand, classify(parse_mask("3s"), KN), KN)
    assert sorted(format_cards(p.mask) for p in got) == ["5♥", "6♥", "7♥"]
    # 33 led under kanniutui; hand 5♠5♣ 6♠6♥ 7♠7♥ 9♥9♦: 55 < 33 = 66, so 77 and 99 only.
    hand = parse_mask("5s 5c 6s 6h 7s 7h 9h 9d")
    got = answers_to(hand, classify(parse_mask("3s 3h"), KN), KN)
    assert sorted(format_cards(p.mask) for p in got) == ["7♠ 7♥", "9♥ 9♦"]
    # and under lanzhou 55 beats 33, 66 does not
    got = answers_to(hand, classify(parse_mask("3s 3h"), L), L)
    assert sorted(format_cards(p.mask) for p in got) == ["5♠ 5♣", "7♠ 7♥", "9♥ 9♦"]


# --- 抢刺 ------------------------------------------------------------------------------

@pytest.mark.parametrize("preset", BOTH)
def test_qiangci_plays(preset):
    rules = PRESETS[preset]
    lf = "As Ah 2s 2h 3s 3h Ks Kh 10s 10h 8s 8h"
    hand = parse_mask(lf + " Ac 7s 7h 7c")
    ps = qiangci_plays(hand, rules)
    # three aces -> C(3,2) = 3 choices of the A pair
    assert len(ps) == 3 and all(p.kind == "long_feng" and p.size == 12 for p in ps)
    assert parse_mask(lf) in {p.mask for p in ps}
    pairs = parse_mask("As Ah 2s 2h 3s 3h 5s 5c 6s 6h 7s 7h 9h 9d Qs Qh")
    assert [p.kind for p in qiangci_plays(pairs, rules)] == ["eight_pairs"]
    mixed = parse_mask("As Ah 2s 2h 3s 3h 5s 5h 6s 6h 7s 7h 9s 9h Qs Qh")
    assert len(qiangci_plays(mixed, rules)) == (0 if preset == "lanzhou" else 1)


@pytest.mark.parametrize("preset", BOTH)
def test_qiangci_kinds_not_in_plays_in(preset):
    rules = PRESETS[preset]
    lf = parse_mask("As Ah 2s 2h 3s 3h Ks Kh 10s 10h 8s 8h")
    assert all(p.kind not in ("long_feng", "eight_pairs") for p in plays_in(lf, rules))


# --- hypothesis: classify on random subsets --------------------------------------------

random_subsets = st.one_of(
    st.integers(min_value=1, max_value=FULL_DECK),
    st.lists(st.sampled_from(_INTERESTING), min_size=1, max_size=16, unique=True).map(mask_of),
    st.lists(st.sampled_from(range(48)), min_size=1, max_size=7, unique=True).map(mask_of),
)


@settings(max_examples=300, deadline=None)
@given(mask=random_subsets, preset=st.sampled_from(BOTH))
def test_classify_total(mask, preset):
    rules = PRESETS[preset]
    try:
        p = classify(mask, rules)
    except ValueError as e:
        assert str(e)
        assert try_classify(mask, rules) is None
        return
    assert p.size == count(mask)
    assert p.mask == mask
    assert try_classify(mask, rules) == p


@settings(max_examples=150, deadline=None)
@given(data=st.data(), mask=random_subsets, preset=st.sampled_from(BOTH),
       ascii=st.booleans(), seed=st.integers(0, 2**32 - 1))
def test_classify_order_independent(data, mask, preset, ascii, seed):
    rules = PRESETS[preset]
    cards = cards_of(mask)
    random.Random(seed).shuffle(cards)
    text = " ".join(format_card(c, ascii=ascii) for c in cards)
    assert try_classify(parse_mask(text), rules) == try_classify(mask, rules)
    cards.reverse()
    text2 = "".join(format_card(c, ascii=not ascii) for c in cards)
    assert try_classify(parse_mask(text2), rules) == try_classify(mask, rules)
