"""双升 抠底, the level table, banker rotation and level advance (§6)."""

from __future__ import annotations

import pytest

from analyzer.shengji.cards import context, parse_cards
from analyzer.shengji.rules import CLASSIC, ZHENGZHOU
from analyzer.shengji.scoring import (
    advance_level,
    kitty_basis_cards,
    kitty_multiplier,
    level_result,
    settle,
    throw_penalty_to_attackers,
    wins_match,
)

CTX = context(10, 0)
KITTY = parse_cards("♣10 ♦5 ♥K ♣3 ♣4 ♦6 ♦7 ♥2")  # 25 points


def test_section62_example():
    s = settle(0, KITTY, True, parse_cards("♠K♠K"), CTX, ZHENGZHOU)
    assert (s.kitty_points, s.multiplier, s.attacker_points) == (25, 4, 100)
    assert (s.winner, s.levels, s.next_banker) == ("attackers", 0, "next_seat")


@pytest.mark.parametrize("cards, pow2_pairs, times_size, pow_size", [
    ("♣A", 2, 2, 2),
    ("♣5 ♣9 ♣K ♣3 ♣7", 2, 2, 2),  # 5張單摳底算單摳
    ("♣A♣A", 4, 4, 4),
    ("♣A♣A ♣9♣9 ♣3", 4, 4, 4),  # 含一對或者兩對算對摳
    ("♣3♣3♣4♣4", 8, 8, 16),  # 兩拖
    ("♣3♣3♣4♣4♣5♣5", 16, 12, 64),
    ("♣3♣3♣4♣4♣5♣5♣6♣6", 32, 16, 256),
    ("♣3♣3♣4♣4♣5♣5♣6♣6♣7♣7", 64, 20, 1024),
    ("♣3♣3♣4♣4 ♣7♣7♣8♣8♣9♣9", 16, 12, 64),  # the longest tractor decides
])
def test_kitty_multipliers(cards, pow2_pairs, times_size, pow_size):
    got = tuple(kitty_multiplier(parse_cards(cards), CTX, ZHENGZHOU.with_(kitty_multiplier=m))
                for m in ("pow2_pairs", "times_size", "pow_size"))
    assert got == (pow2_pairs, times_size, pow_size)


def test_kitty_basis():
    lead, ruff = parse_cards("♣3 ♣4"), parse_cards("♠3♠3")  # a pair ruffing two singles
    winning = kitty_basis_cards(lead, ruff, ZHENGZHOU)
    led = kitty_basis_cards(lead, ruff, ZHENGZHOU.with_(kitty_basis="lead_shape"))
    assert kitty_multiplier(winning, CTX, ZHENGZHOU) == 4
    assert kitty_multiplier(led, CTX, ZHENGZHOU) == 2


def test_banker_side_takes_the_last_trick_kitty_counts_for_nobody():
    s = settle(75, KITTY, False, parse_cards("♠K♠K"), CTX, ZHENGZHOU)
    assert (s.multiplier, s.attacker_points, s.winner, s.levels, s.next_banker) == (
        0, 75, "banker", 1, "partner")


LEVEL_TABLE = [  # P, winner, levels (no cap), levels with cap 3
    (0, "banker", 3, 3), (5, "banker", 2, 2), (35, "banker", 2, 2), (40, "banker", 1, 1),
    (75, "banker", 1, 1), (80, "attackers", 0, 0), (115, "attackers", 0, 0),
    (120, "attackers", 1, 1), (155, "attackers", 1, 1), (160, "attackers", 2, 2),
    (195, "attackers", 2, 2), (200, "attackers", 3, 3), (239, "attackers", 3, 3),
    (240, "attackers", 4, 3), (279, "attackers", 4, 3), (280, "attackers", 5, 3),
    (600, "attackers", 13, 3),
]


@pytest.mark.parametrize("points, winner, levels, capped", LEVEL_TABLE)
def test_level_table(points, winner, levels, capped):
    assert level_result(points, ZHENGZHOU) == (winner, levels)
    assert level_result(points, ZHENGZHOU.with_(attacker_gain_cap=3)) == (winner, capped)
    assert level_result(points, CLASSIC) == (winner, capped)


def test_level_table_parameters():
    rules = ZHENGZHOU.with_(level_step=30, turnover_at=60)
    assert [level_result(p, rules)[1] for p in (0, 5, 30, 59, 60, 90, 120)] == [3, 2, 1, 1,
                                                                                  0, 1, 2]
    assert level_result(-20, ZHENGZHOU) == ("banker", 3)  # penalties may push P below 0


def test_level_table_is_monotone():
    banker = [level_result(p, ZHENGZHOU)[1] for p in range(0, 80, 5)]
    attackers = [level_result(p, ZHENGZHOU)[1] for p in range(80, 400, 5)]
    assert banker == sorted(banker, reverse=True) and attackers == sorted(attackers)


@pytest.mark.parametrize("points, next_banker", [(0, "partner"), (75, "partner"),
                                                 (80, "next_seat"), (300, "next_seat")])
def test_next_banker(points, next_banker):
    assert settle(points, (), False, (), CTX, ZHENGZHOU).next_banker == next_banker


def test_kitty_pushes_points_across_the_table():
    s = settle(60, parse_cards("♣K ♦K ♥10"), True, parse_cards("♠3♠3♠4♠4"), CTX, ZHENGZHOU)
    assert s.attacker_points == 60 + 30 * 8 and (s.winner, s.levels) == ("attackers", 5)
    s = settle(60, parse_cards("♣K ♦K ♥10"), True, parse_cards("♠3♠3♠4♠4"), CTX, CLASSIC)
    assert s.attacker_points == 60 + 30 * 16 and s.levels == 3


@pytest.mark.parametrize("level, gain, defend, expected", [
    (2, 3, True, 5), (12, 3, True, 14), (14, 2, True, 14), (13, 0, True, 13),
    (12, 3, False, 15), (14, 1, False, 15),
])
def test_advance_level(level, gain, defend, expected):
    assert advance_level(level, gain, ZHENGZHOU.with_(must_defend_A=defend)) == expected


def test_advance_level_rejects_and_match_end():
    with pytest.raises(ValueError):
        advance_level(15, 1, ZHENGZHOU)
    assert wins_match(14, True, True, 1, ZHENGZHOU)
    assert not wins_match(14, False, True, 3, ZHENGZHOU)  # A必打: the attackers stop at A
    assert not wins_match(13, True, True, 3, ZHENGZHOU)
    assert wins_match(13, True, True, 3, ZHENGZHOU.with_(must_defend_A=False))
    assert not wins_match(14, True, False, 0, ZHENGZHOU)


def test_throw_penalty():
    attempt = parse_cards("♣9♣8♣8♣4♣4")
    assert throw_penalty_to_attackers(attempt, True, ZHENGZHOU) == 0
    rules = ZHENGZHOU.with_(throw_fail_penalty_per_card=10)
    assert throw_penalty_to_attackers(attempt, True, rules) == -50
    assert throw_penalty_to_attackers(attempt, False, rules) == 50
