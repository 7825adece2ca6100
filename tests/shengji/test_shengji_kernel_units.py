"""双升 play kernels on the rules' own examples, pinned by hand.

The examples are those of docs/rules/shengji.md §3, §5 and §6.1.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from analyzer.shengji.cards import parse_cards
from analyzer.shengji.rules import CLASSIC, ZHENGZHOU
from kernels.shengji import play as kp
from kernels.shengji.context import new_context
from kernels.shengji.params import param_vector
from kernels.shengji.planes import cards_of, planes_of
from kernels.shengji.units import MAX_UNITS, decompose

S, H, C, D, NT = 0, 1, 2, 3, 4
ZZ = param_vector(dataclasses.asdict(ZHENGZHOU))
CL = param_vector(dataclasses.asdict(CLASSIC))


def pl(text):
    return planes_of(parse_cards(text))


def units(text, ctx):
    u = np.zeros((MAX_UNITS, 3), dtype=np.int64)
    n = decompose(*pl(text), ctx, u)
    return [(int(u[i, 0]), int(u[i, 1]), cards_of(u[i, 2], u[i, 2] if u[i, 0] else 0))
            for i in range(n)]


def shape(text, ctx):
    return [(p, top) for p, top, _ in units(text, ctx)]


L5S = new_context(S, 5, False)
L10S = new_context(S, 10, False)

SECTION3 = [  # L = 5, T = ♠: cards, (pairs, top) of each unit
    ("♣3♣3♣4♣4", [(2, 2)]),
    ("♠3♠3♠4♠4", [(2, 2)]),
    ("♥4♥4♥6♥6", [(2, 3)]),  # 5 removed: 4 and 6 touch
    ("♥5♥5♠5♠5", [(2, 13)]),  # 副5 + 主5
    ("大王大王小王小王", [(2, 15)]),
    ("♠A♠A♦5♦5", [(2, 12)]),
    ("♠5♠5 小王小王", [(2, 14)]),
    ("♥5♥5♥6♥6", [(1, 12), (1, 3)]),  # ♥5 is 主, ♥6 plain
    ("♥5♥5♣5♣5", [(1, 12), (1, 12)]),  # one shared rung
    ("♥5♣5", [(0, 12), (0, 12)]),  # equal strength, not a pair
    ("♠A♠A ♥5♥5 ♣5♣5 ♠5♠5", [(3, 13), (1, 12)]),
    ("♣3♣3♣4♣4♣6♣6 ♣8♣8♣9♣9 ♣J", [(3, 3), (2, 6), (0, 8)]),
]


@pytest.mark.parametrize("cards, expected", SECTION3)
def test_section3_units(cards, expected):
    assert shape(cards, L5S) == expected


def test_shared_rung_gives_its_lowest_suit_to_the_tractor():
    assert units("♠A♠A ♥5♥5 ♣5♣5 ♠5♠5", L5S)[1][2] == parse_cards("♣5♣5")


def test_nt_level_and_small_joker():
    assert shape("♥5♥5 小王小王", new_context(NT, 5, False)) == [(1, 14), (1, 12)]
    assert shape("♥5♥5 小王小王", new_context(NT, 5, True)) == [(2, 14)]
    assert shape("♠K♠K ♥A♥A", new_context(S, 14, False)) == [(2, 12)]  # L = A
    assert shape("♣A♣A♣2♣2", new_context(S, 5, False)) == [(1, 11), (1, 0)]  # no wrap-around


FOLLOWS = [  # §5.3, L = 10, T = ♠, lead ♥Q♥Q♥J♥J
    ("♥3♥3 ♥7♥7 ♥8 ♥K", "♥3♥3♥7♥7", kp.FOLLOW_OK),
    ("♥3♥3 ♥7♥7 ♥8 ♥K", "♥3♥3♥7 ♥8", kp.FOLLOW_PAIRS),
    ("♥8♥8♥9♥9♥2", "♥8♥8♥9♥9", kp.FOLLOW_OK),
    ("♥8♥8♥9♥9♥2", "♥8♥8♥9 ♥2", kp.FOLLOW_TRACTORS),
    ("♥9♥9♥J♥J♥2 ♥3♥3", "♥9♥9♥3♥3", kp.FOLLOW_TRACTORS),  # 9 and J touch at L = 10
    ("♥A ♥2 ♣3 ♣4 ♦5", "♥A ♥2 ♣3 ♦5", kp.FOLLOW_OK),
    ("♥A ♥2 ♣3 ♣4 ♦5", "♥A ♣3 ♣4 ♦5", kp.FOLLOW_SUIT),
    ("♥A ♥2 ♣3 ♣4 ♦5", "♥A ♥2 ♣3 ♣3", kp.FOLLOW_NOT_HELD),
    ("♥A ♥2 ♣3 ♣4 ♦5", "♥A ♥2 ♣3", kp.FOLLOW_COUNT),
    ("♣3 ♣4 ♠5 ♠5 大王", "♠5♠5 ♣3 大王", kp.FOLLOW_OK),
]


@pytest.mark.parametrize("hand, play, reason", FOLLOWS)
def test_section53_follow_examples(hand, play, reason):
    assert kp.follow_error(*pl("♥Q♥Q♥J♥J"), *pl(hand), *pl(play), L10S, ZZ) == reason


def test_multi_tractor_lead_uses_disjoint_subtractors():
    lead = pl("♣3♣3♣4♣4 ♣7♣7♣8♣8")
    hand = pl("♣2♣2♣3♣3♣4♣4 ♣9♣9 ♣K")  # one sub-tractor only (TS = 2), four pairs due
    assert kp.is_legal_follow(*lead, *hand, *pl("♣2♣2♣3♣3♣4♣4 ♣9♣9"), L10S, ZZ)
    assert not kp.is_legal_follow(*lead, *hand, *pl("♣2♣2♣3♣3 ♣9♣9 ♣4 ♣K"), L10S, ZZ)
    hand = pl("♣2♣2♣3♣3 ♣8♣8♣9♣9 ♣A ♣K ♣Q♣Q")  # two tractors: both due (TS = 4)
    assert kp.is_legal_follow(*lead, *hand, *pl("♣2♣2♣3♣3♣8♣8♣9♣9"), L10S, ZZ)
    assert not kp.is_legal_follow(*lead, *hand, *pl("♣2♣2♣3♣3♣Q♣Q♣8♣8"), L10S, ZZ)


def test_two_shared_rung_pairs_serve_two_subtractors():
    # L = 5, T = ♠: ♠A ♥5 and ♣5 ♠5 are two disjoint 2-pair trump tractors (TS = 4)
    lead = pl("♠3♠3♠4♠4 ♠7♠7♠8♠8")
    hand = pl("♠A♠A ♥5♥5 ♣5♣5 ♠5♠5 ♠2")
    assert kp.is_legal_follow(*lead, *hand, *pl("♠A♠A ♥5♥5 ♣5♣5 ♠5♠5"), L5S, ZZ)
    assert not kp.is_legal_follow(*lead, *hand, *pl("♠A♠A ♥5♥5 ♣5♣5 ♠5 ♠2"), L5S, ZZ)


TRUMPING = [  # §5.5, L = 10, T = ♠, lead in ♣
    (["♣A ♣K ♣5♣5♣4♣4", "♠9♠9♠8♠8 ♠7 ♠2"], 1),
    (["♣A♣A ♣5♣5♣4♣4", "♠9♠9♠8♠8 ♠7 ♠2"], 0),
    (["♣5 ♣4♣4", "♠9 ♠7♠7", "♠8♠8 ♠4"], 2),
    (["♣5 ♣6 ♣7", "♠9 ♠7 ♠7", "♠8 ♠8 ♠4"], 1),
]


@pytest.mark.parametrize("plays, winner", TRUMPING)
def test_section56_trumping_examples(plays, winner):
    arr = np.array([pl(p) for p in plays], dtype=np.int64)
    assert kp.trick_winner(arr, len(plays), L10S, ZZ) == winner


def test_ruff_rule_match_vs_count():
    lead, ruff = pl("♣3♣3♣4♣4♣5♣5"), pl("♠7♠7♠8♠8 ♠J♠J")  # T3 against T2 + P
    assert not kp.matches(*lead, *ruff, L10S, ZZ)
    count = param_vector(dataclasses.asdict(ZHENGZHOU.with_(ruff_rule="count")))
    assert kp.matches(*lead, *ruff, L10S, count)


def test_equal_plays_keep_the_earlier_one():
    arr = np.array([pl("♥5"), pl("♣5"), pl("♦5")], dtype=np.int64)  # 副5 singles, T = ♠
    assert kp.trick_winner(arr, 3, L5S, ZZ) == 0
    arr = np.array([pl("♣A"), pl("♥5"), pl("♣5")], dtype=np.int64)
    assert kp.trick_winner(arr, 3, L5S, ZZ) == 1


@pytest.mark.parametrize("holding, stands, forced", [
    ("♣J", False, "♣9"),  # a J beats only the single 9
    ("♣5♣5", False, "♣4♣4"),  # 55 beats only the pair 44
    ("♣Q♣Q", False, "♣4♣4"),  # QQ beats 9 and both pairs: the largest failing shape
    ("♣2♣3 ♠A♠A", True, "♣9♣8♣8♣4♣4"),  # trumps never make a throw fail
])
def test_failed_throw_98844(holding, stands, forced):
    # the classic text's example at L = 10, T = ♠: 98844 led, one other player holds ...
    others = np.array([pl(holding), pl("♥3"), pl("♦3")], dtype=np.int64)
    out = np.zeros(2, dtype=np.int64)
    assert kp.check_throw(*pl("♣9♣8♣8♣4♣4"), others, L10S, ZZ, out) is stands
    assert cards_of(*out) == parse_cards(forced)


def test_failed_throw_options():
    others = np.array([pl("♥3"), pl("♣Q♣Q"), pl("♣J")], dtype=np.int64)
    out = np.zeros(2, dtype=np.int64)
    smallest = param_vector(dataclasses.asdict(ZHENGZHOU.with_(throw_fail_play="smallest_card")))
    assert not kp.check_throw(*pl("♣9♣8♣8♣4♣4"), others, L10S, smallest, out)
    assert cards_of(*out) == parse_cards("♣4")
    # first_failed_unit: the first beating player from the 下家 is QQ's (pairs and the 9);
    # the lowest unit of the smallest shape it beats: the single 9
    assert not kp.check_throw(*pl("♣9♣8♣8♣4♣4"), others, L10S, CL, out)
    assert cards_of(*out) == parse_cards("♣9")
    opponents = param_vector(dataclasses.asdict(ZHENGZHOU.with_(throw_check_players="opponents")))
    assert kp.check_throw(*pl("♣9♣8♣8♣4♣4"), np.array([pl("♥3"), pl("♣Q♣Q"), pl("♦2")]),
                          L10S, opponents, out)  # only the partner could beat it


@pytest.mark.parametrize("cards, pow2_pairs, times_size, pow_size", [
    ("♠K", 2, 2, 2), ("♠K♠K", 4, 4, 4), ("♠Q♠Q♠K♠K", 8, 8, 16),
    ("♠J♠J♠Q♠Q♠K♠K ♠2", 16, 12, 64), ("♠K♠K ♣A", 4, 4, 4),
])
def test_kitty_multipliers(cards, pow2_pairs, times_size, pow_size):
    for rule, m in (("pow2_pairs", pow2_pairs), ("times_size", times_size), ("pow_size", pow_size)):
        params = param_vector(dataclasses.asdict(ZHENGZHOU.with_(kitty_multiplier=rule)))
        assert kp.kitty_multiplier(*pl(cards), L10S, params) == m


def test_lead_errors():
    hand = pl("♣9♣8♣8♣4♣4 ♥3")
    assert kp.lead_error(*pl("♣9♣8♣8"), *hand, L10S, ZZ) == kp.LEAD_OK
    assert kp.lead_error(*pl("♣9 ♥3"), *hand, L10S, ZZ) == kp.LEAD_MIXED
    assert kp.lead_error(*pl("♣9♣9"), *hand, L10S, ZZ) == kp.LEAD_NOT_HELD
    assert kp.lead_error(0, 0, *hand, L10S, ZZ) == kp.LEAD_EMPTY
    whole = param_vector(dataclasses.asdict(ZHENGZHOU.with_(throw_whole_suit_only=True)))
    assert kp.lead_error(*pl("♣9♣8♣8"), *hand, L10S, whole) == kp.LEAD_NOT_WHOLE_SUIT
    assert kp.lead_error(*pl("♣8♣8"), *hand, L10S, whole) == kp.LEAD_OK
    assert kp.lead_error(*pl("♣9♣8♣8♣4♣4"), *hand, L10S, whole) == kp.LEAD_OK
