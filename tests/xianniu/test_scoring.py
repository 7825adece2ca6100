"""Settling a hand (docs/rules/xianniu.md §4).

Every expected number is computed by hand from docs/rules/xianniu.md §4; the arithmetic is in
the comment beside each case. Seats: A = 0, B = 1, C = 2.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.xianniu.cards import FULL_DECK, parse_mask, rank_counts
from analyzer.xianniu.combos import classify, plays_in
from analyzer.xianniu.rules import get_rules
from analyzer.xianniu.scoring import settle

L = get_rules("lanzhou")
KN = get_rules("kanniutui")
PRESETS = {"lanzhou": L, "kanniutui": KN}
BOTH = ("lanzhou", "kanniutui")


def cap(rules, *texts):
    """The plays a seat captured, each given as the cards it was played as."""
    return [classify(parse_mask(t), rules) for t in texts]


def captures(rules, a, b, c):
    return [cap(rules, *a), cap(rules, *b), cap(rules, *c)]


def check(result, expected_points):
    assert result.points == expected_points
    assert sum(result.points) == 0
    net = [0, 0, 0]
    for pm in result.payments:
        assert pm.amount > 0
        net[pm.payer] -= pm.amount
        net[pm.payee] += pm.amount
    assert tuple(net) == result.points


# --- the seed's worked example ---------------------------------------------------------
# A captures 13 cards: 999 (牛 3), 5♠5♥ and 5♣5♦ (喜 2 + 2 = 4), and 777, QQ, 2 (no points).
# 3 + 2 + 2 + 3 + 2 + 1 = 13 cards; 亮 0; 刺 points 13 - 7 = 6. B captured K♠, C J♠J♥.
WORKED = (("9s 9h 9c", "5s 5h", "5c 5d", "7s 7h 7c", "Qs Qh", "2s"), ("Ks",), ("Js Jh",))


@pytest.mark.parametrize("preset", BOTH)
def test_worked_example_tally(preset):
    rules = PRESETS[preset]
    t = settle(captures(rules, *WORKED), [(1, 0)], rules).tallies
    assert (t[0].captured, t[0].gou, t[0].ci) == (13, True, True)
    assert (t[0].niu, t[0].xi, t[0].liang, t[0].ci_points) == (3, 4, 0, 6)
    assert (t[1].captured, t[1].gou, t[2].captured, t[2].gou) == (1, False, 2, False)


@pytest.mark.parametrize("preset, events, expected", [
    # [K] B last 掀ed A: B pays (3 + 4 + 6) * 2 = 26 (covers the 掀); C pays 3 + 4 = 7.
    # A = 26 + 7 = 33.
    ("kanniutui", [(1, 0)], (33, -26, -7)),
    # [L] unit(A) = 刺 6 + 牛 3 + 喜 4 = 13. 掀刺包刺: B pays 13 + C's 13 + 掀 2 = 28;
    # C pays nothing. A = 28.
    ("lanzhou", [(1, 0)], (28, -28, 0)),
    # [K] B 掀ed A twice: the doubled payment covers both: B 26, C 7.
    ("kanniutui", [(1, 0), (1, 0)], (33, -26, -7)),
    # [L] B 掀ed A twice: B 13 + 13 + 2 + 2 = 30, C 0.
    ("lanzhou", [(1, 0), (1, 0)], (30, -30, 0)),
    # [K] B then C 掀ed A; C is the last 掀er: C pays 2 * 13 = 26; B pays basic 7 + 掀 2 = 9.
    # A = 35.
    ("kanniutui", [(1, 0), (2, 0)], (35, -9, -26)),
    # [L] B then C 掀ed A: C pays 13 + 13 + 掀 2 = 28; B pays only its 掀 2. A = 30.
    ("lanzhou", [(1, 0), (2, 0)], (30, -2, -28)),
    # [K] C then B: B last: B pays 26 (its 掀 covered); C pays 7 + its 掀 2 = 9. A = 35.
    ("kanniutui", [(2, 0), (1, 0)], (35, -26, -9)),
    # [L] C then B: B pays 13 + 13 + 2 = 28; C pays its 掀 2. A = 30.
    ("lanzhou", [(2, 0), (1, 0)], (30, -28, -2)),
    # No 掀 at all: [K] each pays basic 7 + 刺 6 = 13 -> A 26; [L] each pays unit 13 -> A 26.
    ("kanniutui", [], (26, -13, -13)),
    ("lanzhou", [], (26, -13, -13)),
    # [K] A 掀ed B (A is 够, so A's 掀 costs nothing; A was never 掀ed): as with no 掀.
    ("kanniutui", [(0, 1)], (26, -13, -13)),
    ("lanzhou", [(0, 1)], (26, -13, -13)),
    # [K] C 掀ed B (neither 够): B, C each pay 13 to A; C pays B 2 -> (26, -11, -15).
    ("kanniutui", [(2, 1)], (26, -11, -15)),
    # [L] C 掀ed B: B is not 够, so that 掀 costs nothing -> (26, -13, -13).
    ("lanzhou", [(2, 1)], (26, -13, -13)),
])
def test_worked_example(preset, events, expected):
    rules = PRESETS[preset]
    res = settle(captures(rules, *WORKED), events, rules)
    check(res, expected)


def test_worked_example_payments_kanniutui():
    res = settle(captures(KN, *WORKED), [(1, 0)], KN)
    paid = {}
    for pm in res.payments:
        paid[(pm.payer, pm.payee)] = paid.get((pm.payer, pm.payee), 0) + pm.amount
    assert paid == {(1, 0): 26, (2, 0): 7}
    assert not any(pm.reason == "掀" for pm in res.payments)
    # C pays no 刺 points: only the basic 牛 + 喜
    assert sorted((pm.reason, pm.amount) for pm in res.payments if pm.payer == 2) == [
        ("喜", 4), ("牛", 3)]


def test_worked_example_payments_lanzhou():
    res = settle(captures(L, *WORKED), [(1, 0)], L)
    assert all(pm.payer == 1 and pm.payee == 0 for pm in res.payments)
    assert sum(pm.amount for pm in res.payments if pm.reason == "掀") == 2
    assert sum(pm.amount for pm in res.payments if pm.reason != "掀") == 26


# --- 刺 unit with 亮 -------------------------------------------------------------------
# A captures 7777 (亮 2) + 9♠9♥ (牛 2) + 5♠5♥ (喜 2) + 222 (nothing) = 4 + 2 + 2 + 3 = 11,
# 刺 points 11 - 7 = 4.
CI_LIANG = (("7s 7h 7c 7d", "9s 9h", "5s 5h", "2s 2h 2c"), ("Ks",), ("Qs",))


@pytest.mark.parametrize("preset, events, expected", [
    # [L] 刺 unit = 刺 4 + 牛 2 + 喜 2 = 8 (亮 dropped); B, C pay 8 each.
    ("lanzhou", [], (16, -8, -8)),
    # [K] basic 牛 2 + 喜 2 + 亮 2 = 6, plus 刺 4 = 10 each.
    ("kanniutui", [], (20, -10, -10)),
    # [L] C 掀ed A: C pays 8 + B's 8 + 掀 2 = 18; B pays nothing.
    ("lanzhou", [(2, 0)], (18, 0, -18)),
    # [K] C 掀ed A: C pays 2 * (6 + 4) = 20; B pays basic 6.
    ("kanniutui", [(2, 0)], (26, -6, -20)),
])
def test_ci_unit(preset, events, expected):
    rules = PRESETS[preset]
    res = settle(captures(rules, *CI_LIANG), events, rules)
    t = res.tallies[0]
    assert (t.captured, t.ci, t.niu, t.xi, t.liang, t.ci_points) == (11, True, 2, 2, 2, 4)
    check(res, expected)


# --- 够 without 刺 --------------------------------------------------------------------
# A captures 7777 (亮 2) + 9♠9♥ (牛 2) + 5♠5♥ (喜 2) = 8 cards, no 刺.
GOU_8 = (("7s 7h 7c 7d", "9s 9h", "5s 5h"), ("Ks", "Qs"), ("Js",))


@pytest.mark.parametrize("preset", BOTH)
def test_non_ci_unit(preset):
    # unit = 亮 2 + 牛 2 + 喜 2 = 6, both presets; B and C pay 6 each.
    rules = PRESETS[preset]
    check(settle(captures(rules, *GOU_8), [], rules), (12, -6, -6))


# docs/rules/xianniu.md §4.5: A captures KKKK (亮 2) + 9♠9♥ (牛 2) + 7♠7♥ = 8 cards; C 掀ed A once.
DOCS_SMALL = (("Ks Kh Kc Kd", "9s 9h", "7s 7h"), ("Qs",), ("Js",))


@pytest.mark.parametrize("preset", BOTH)
def test_docs_small_case(preset):
    # unit 4; B pays 4; C pays 4 + 掀 2 = 6. A = 10.
    rules = PRESETS[preset]
    check(settle(captures(rules, *DOCS_SMALL), [(2, 0)], rules), (10, -4, -6))


# --- nobody 够 -------------------------------------------------------------------------
# A: 9♠9♥ (牛) + 5♠5♥ (喜) + 7♠ = 5; B: KKKK (亮) + Q♠ = 5; C: 22 33 6 = 5. Nobody 够.
NOBODY = (("9s 9h", "5s 5h", "7s"), ("Ks Kh Kc Kd", "Qs"), ("2s 2h", "3s 3h", "6s"))


@pytest.mark.parametrize("preset, events, expected", [
    # [L] nobody is 够: nobody pays anything, 掀 or not.
    ("lanzhou", [(0, 1), (0, 1), (2, 1)], (0, 0, 0)),
    ("lanzhou", [(0, 1), (1, 2), (2, 0)], (0, 0, 0)),
    ("lanzhou", [], (0, 0, 0)),
    # [K] 掀 points still paid: A pays B 2 + 2 = 4, C pays B 2; B = +6.
    ("kanniutui", [(0, 1), (0, 1), (2, 1)], (-4, 6, -2)),
    # [K] a round of 掀: each pays 2 and receives 2.
    ("kanniutui", [(0, 1), (1, 2), (2, 0)], (0, 0, 0)),
    ("kanniutui", [], (0, 0, 0)),
])
def test_nobody_gou(preset, events, expected):
    rules = PRESETS[preset]
    res = settle(captures(rules, *NOBODY), events, rules)
    assert not any(t.gou for t in res.tallies)
    check(res, expected)
    if preset == "lanzhou":
        assert res.payments == ()
    else:
        assert all(pm.reason == "掀" and pm.amount == 2 for pm in res.payments)
        assert len(res.payments) == len(events)


# --- a 够 player whose 掀 costs nothing -----------------------------------------------
# A: QQQ + 777 = 6 cards, no points (unit 0); B: K♠ 2♠ 3♠; C: J♠ J♥ 6♠.
GOU_NO_POINTS = (("Qs Qh Qc", "7s 7h 7c"), ("Ks", "2s", "3s"), ("Js Jh", "6s"))
# A: KKKK (亮 2) + 9♠9♥ (牛 2) = 6 cards, unit 4; B: Q♠ 2♠; C: J♠ 6♠.
GOU_6 = (("Ks Kh Kc Kd", "9s 9h"), ("Qs", "2s"), ("Js", "6s"))


@pytest.mark.parametrize("preset", BOTH)
def test_gou_xianer_pays_nothing(preset):
    rules = PRESETS[preset]
    # A is 够 and 掀ed B: no payment for it; A's unit is 0, so nobody pays anything.
    res = settle(captures(rules, *GOU_NO_POINTS), [(0, 1)], rules)
    check(res, (0, 0, 0))
    assert res.payments == ()
    # A (unit 4) 掀ed B and C: still no 掀 payments; B and C pay the unit 4 each -> A 8.
    res = settle(captures(rules, *GOU_6), [(0, 1), (0, 2), (0, 1)], rules)
    check(res, (8, -4, -4))
    assert not any(pm.reason == "掀" for pm in res.payments)


@pytest.mark.parametrize("preset, expected", [
    # B (not 够) 掀ed C (not 够). [L] costs nothing: (8, -4, -4).
    ("lanzhou", (8, -4, -4)),
    # [K] B pays C 2: (8, -4 - 2, -4 + 2) = (8, -6, -2).
    ("kanniutui", (8, -6, -2)),
])
def test_xian_against_non_gou_target(preset, expected):
    rules = PRESETS[preset]
    check(settle(captures(rules, *GOU_6), [(1, 2)], rules), expected)


# --- two 够 players --------------------------------------------------------------------
# A: 9♠9♥ (牛 2) + 7777 (亮 2) = 6, unit 4. B: 5♠5♥5♣ (喜 3) + QQQ = 6, unit 3.
# C: 22 33 = 4, not 够.
TWO_GOU = (("9s 9h", "7s 7h 7c 7d"), ("5s 5h 5c", "Qs Qh Qc"), ("2s 2h", "3s 3h"))


@pytest.mark.parametrize("preset, events, expected", [
    # C pays A 4 and B 3: (4, 3, -7).
    ("lanzhou", [], (4, 3, -7)),
    ("kanniutui", [], (4, 3, -7)),
    # A 掀ed B (A 够: free), C 掀ed A (C pays A 2), B 掀ed C (B 够: free):
    # A = 4 + 2 = 6, B = 3, C = -(4 + 2 + 3) = -9.
    ("lanzhou", [(0, 1), (2, 0), (1, 2)], (6, 3, -9)),
    ("kanniutui", [(0, 1), (2, 0), (1, 2)], (6, 3, -9)),
    # C 掀ed both twice: C pays 4 + 3 + 2 * 4 = 15 -> A 4 + 4 = 8, B 3 + 4 = 7.
    ("lanzhou", [(2, 0), (2, 1), (2, 0), (2, 1)], (8, 7, -15)),
    ("kanniutui", [(2, 0), (2, 1), (2, 0), (2, 1)], (8, 7, -15)),
])
def test_two_gou_players(preset, events, expected):
    rules = PRESETS[preset]
    res = settle(captures(rules, *TWO_GOU), events, rules)
    assert [t.gou for t in res.tallies] == [True, True, False]
    check(res, expected)
    assert all(pm.payer == 2 for pm in res.payments)


# --- 亮 / 牛 / 喜 counting --------------------------------------------------------------

@pytest.mark.parametrize("preset, plays, niu, xi, liang", [
    # 亮子: 2
    ("lanzhou", ["7s 7h 7c 7d"], 0, 0, 2),
    ("kanniutui", ["7s 7h 7c 7d"], 0, 0, 2),
    # 鱼亮 AAAA+2+3: 2
    ("lanzhou", ["As Ah Ac Ad 2s 3s"], 0, 0, 2),
    ("kanniutui", ["As Ah Ac Ad 2s 3s"], 0, 0, 2),
    # 摆亮 KKKK+10+8: 2
    ("lanzhou", ["Ks Kh Kc Kd 10s 8s"], 0, 0, 2),
    ("kanniutui", ["Ks Kh Kc Kd 10s 8s"], 0, 0, 2),
    # [L] 喜包亮 = its parts: 喜 (2 or 3 fives) + 亮 2
    ("lanzhou", ["5s 5h 7s 7h 7c 7d"], 0, 2, 2),
    ("lanzhou", ["5s 5h 5c Qs Qh Qc Qd"], 0, 3, 2),
    ("lanzhou", ["5s 5h 9s 9h 9c 9d"], 0, 2, 2),  # its 9999 is a 亮子, not 牛
    # four 9s as two 牛 pairs: 牛 2 + 2 = 4, 亮 0; as 9999: 亮 2, 牛 0
    ("lanzhou", ["9s 9h", "9c 9d"], 4, 0, 0),
    ("kanniutui", ["9s 9h", "9c 9d"], 4, 0, 0),
    ("lanzhou", ["9s 9h 9c 9d"], 0, 0, 2),
    ("kanniutui", ["9s 9h 9c 9d"], 0, 0, 2),
    # 999 = 3; 99 + single 9 = 2; same-colour 99 = 0
    ("lanzhou", ["9s 9h 9c"], 3, 0, 0),
    ("kanniutui", ["9s 9h", "9c"], 2, 0, 0),
    ("lanzhou", ["9s 9c", "9h 9d"], 0, 0, 0),
    # 喜 likewise: two 喜 pairs 4; 555 3; 5555 is a 亮子 (亮 2, 喜 0); same-colour 55 0
    ("kanniutui", ["5s 5h", "5c 5d"], 0, 4, 0),
    ("lanzhou", ["5s 5h 5d"], 0, 3, 0),
    ("lanzhou", ["5s 5h 5c 5d"], 0, 0, 2),
    ("kanniutui", ["5s 5c", "5h 5d"], 0, 0, 0),
    # [K] KKK + K+10+8 by one player: 亮 2; [L] 0
    ("kanniutui", ["Ks Kh Kc", "Kd 10s 8s"], 0, 0, 2),
    ("lanzhou", ["Ks Kh Kc", "Kd 10s 8s"], 0, 0, 0),
    # [K] KKK alone, K+10+8 alone, KK + K+10+8: no 亮
    ("kanniutui", ["Ks Kh Kc"], 0, 0, 0),
    ("kanniutui", ["Kd 10s 8s"], 0, 0, 0),
    ("kanniutui", ["Ks Kh", "Kd 10s 8s"], 0, 0, 0),
    # several 亮 plays add up: 7777 + 鱼亮 + 摆亮 = 2 + 2 + 2
    ("lanzhou", ["7s 7h 7c 7d", "As Ah Ac Ad 2s 3s", "Ks Kh Kc Kd 10s 8s"], 0, 0, 6),
    ("kanniutui", ["7s 7h 7c 7d", "As Ah Ac Ad 2s 3s", "Ks Kh Kc Kd 10s 8s"], 0, 0, 6),
    # 鱼, 摆, K-摆, 龙凤: no points
    ("lanzhou", ["As Ah 2s 2h 3s 3h", "8s 10s Ks", "Kh Kc 10h 8h"], 0, 0, 0),
    ("kanniutui", ["As Ah 2s 2h 3s 3h Ks Kh 10s 10h 8s 8h"], 0, 0, 0),
    # 八大对 (docs rule 35): 2 亮 for each four of a kind inside it; its 9s/5s are not 牛/喜
    ("lanzhou", ["As Ah Ac Ad 2s 2h 3s 3h 5s 5c 6s 6h 7s 7h 9h 9d"], 0, 0, 2),
    ("kanniutui", ["As Ah 2s 2h 3s 3h 5s 5h 6s 6h 7s 7h 9s 9h Qs Qh"], 0, 0, 0),
])
def test_pattern_points(preset, plays, niu, xi, liang):
    rules = PRESETS[preset]
    t = settle([cap(rules, *plays), [], []], [], rules).tallies[0]
    assert (t.niu, t.xi, t.liang) == (niu, xi, liang)


@pytest.mark.parametrize("n, gou, ci, ci_points", [
    (5, False, False, 0), (6, True, False, 0), (10, True, False, 0),
    (11, True, True, 4), (12, True, True, 5), (13, True, True, 6), (16, True, True, 9),
])
def test_gou_ci_thresholds(n, gou, ci, ci_points):
    # n single-card plays; 刺 points n - 7 from 11 on.
    cards = [f"{r}s" for r in ("A", "2", "3", "5", "6", "7", "8", "9", "10", "J", "Q", "K")]
    cards += ["Ah", "2h", "3h", "5h"]
    for rules in (L, KN):
        t = settle([cap(rules, *cards[:n]), [], []], [], rules).tallies[0]
        assert (t.captured, t.gou, t.ci, t.ci_points) == (n, gou, ci, ci_points)


@pytest.mark.parametrize("preset, a_plays, expected", [
    # [K] A: KKK + K♦10♠8♠ = 6 cards, 够, 亮 2 -> B, C pay 2 each.
    ("kanniutui", ["Ks Kh Kc", "Kd 10s 8s"], (4, -2, -2)),
    # [L] the same capture is worth nothing.
    ("lanzhou", ["Ks Kh Kc", "Kd 10s 8s"], (0, 0, 0)),
    # [L] 16 cards: 7777 (亮 2) + 鱼亮 (亮 2) + 5♠5♥QQQQ (喜 2, 亮 2) = 4 + 6 + 6;
    # 刺 9; unit = 刺 9 + 牛 0 + 喜 2 = 11 (亮 6 dropped) -> (22, -11, -11).
    ("lanzhou", ["7s 7h 7c 7d", "As Ah Ac Ad 2s 3s", "5s 5h Qs Qh Qc Qd"], (22, -11, -11)),
    # [L] 16 cards: 7777 + 鱼亮 + 摆亮; 刺 9; unit 9 (亮 6 dropped) -> (18, -9, -9).
    ("lanzhou", ["7s 7h 7c 7d", "As Ah Ac Ad 2s 3s", "Ks Kh Kc Kd 10s 8s"], (18, -9, -9)),
    # [K] the same: basic 亮 6 + 刺 9 = 15 each -> (30, -15, -15).
    ("kanniutui", ["7s 7h 7c 7d", "As Ah Ac Ad 2s 3s", "Ks Kh Kc Kd 10s 8s"], (30, -15, -15)),
    # [L] 10 cards, no 刺: 7777 (亮 2) + 鱼亮 (亮 2) -> unit 4 -> (8, -4, -4).
    ("lanzhou", ["7s 7h 7c 7d", "As Ah Ac Ad 2s 3s"], (8, -4, -4)),
    # [L] 10 cards: 喜包亮 555+QQQQ (喜 3, 亮 2) + 9♠9♥ (牛 2) + 7♠ -> unit 2 + 2 + 3 = 7.
    ("lanzhou", ["5s 5h 5c Qs Qh Qc Qd", "9s 9h", "7s"], (14, -7, -7)),
    # [L] the same plus 2♠ makes 11 = 刺 4: unit = 4 + 2 + 3 = 9 (亮 dropped).
    ("lanzhou", ["5s 5h 5c Qs Qh Qc Qd", "9s 9h", "7s", "2s"], (18, -9, -9)),
    # [K] four 9s as two 牛 pairs + 2♠2♥ = 6 cards: basic 牛 4 -> (8, -4, -4).
    ("kanniutui", ["9s 9h", "9c 9d", "2s 2h"], (8, -4, -4)),
    # [K] 9999 + 2♠2♥: basic 亮 2 -> (4, -2, -2).
    ("kanniutui", ["9s 9h 9c 9d", "2s 2h"], (4, -2, -2)),
])
def test_settle_single_winner(preset, a_plays, expected):
    rules = PRESETS[preset]
    check(settle([cap(rules, *a_plays), [], []], [], rules), expected)


def test_bad_input():
    with pytest.raises(ValueError):
        settle([[], []], [], L)
    with pytest.raises(ValueError):
        settle([[], [], []], [(0, 0)], L)
    with pytest.raises(ValueError):
        settle([[], [], []], [(0, 3)], KN)


# --- hypothesis: random valid captures -------------------------------------------------

def _pool(rules):
    ps = plays_in(FULL_DECK, rules, max_size=7)
    ps.append(classify(parse_mask("As Ah 2s 2h 3s 3h Ks Kh 10s 10h 8s 8h"), rules))
    ps.append(classify(parse_mask("As Ah Ac Ad 2s 2h 3s 3h 5s 5c 6s 6h 7s 7h 9h 9d"), rules))
    return ps


POOLS = {name: _pool(r) for name, r in PRESETS.items()}


@st.composite
def hands(draw):
    preset = draw(st.sampled_from(BOTH))
    pool = POOLS[preset]
    picks = draw(st.lists(st.tuples(st.integers(0, len(pool) - 1),
                                    st.sampled_from([0, 0, 0, 1, 1, 2])),
                          max_size=14))
    captured = [[], [], []]
    used, total = 0, 0
    for i, seat in picks:
        p = pool[i]
        if p.mask & used or total + p.size > 16:
            continue
        used |= p.mask
        total += p.size
        captured[seat].append(p)
    events = draw(st.lists(st.sampled_from([(0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1)]),
                           max_size=6))
    return preset, captured, events


def _reference(captured, events, rules):
    """docs/rules/xianniu.md §4 written out once more, independently of analyzer.xianniu.scoring."""
    lanzhou = rules.name == "lanzhou"
    n, niu, xi, liang = [], [], [], []
    for plays in captured:
        n.append(sum(p.size for p in plays))
        niu.append(sum(p.size for p in plays if p.kind == "niu"))
        xi.append(sum(p.size for p in plays if p.kind == "xi")
                  + sum(rank_counts(p.mask)[3] for p in plays if p.kind == "xi_bao_liang"))
        lg = 0
        for p in plays:
            if p.kind in ("set", "fish_liang", "bai_liang", "xi_bao_liang", "eight_pairs"):
                lg += 2 * sum(1 for c in rank_counts(p.mask) if c == 4)
        if not lanzhou and any(p.kind == "set" and p.size == 3 and p.rank == 11 for p in plays) \
                and any(p.kind == "bai" and p.size == 3 for p in plays):
            lg += 2
        liang.append(lg)
    gou = [x >= 6 for x in n]
    ci = [x >= 11 for x in n]
    cip = [x - 7 if x >= 11 else 0 for x in n]
    last = {}
    for x, t in events:
        last[t] = x
    losers = [p for p in range(3) if not gou[p]]
    pts = [0, 0, 0]

    def pay(a, b, amount):
        pts[a] -= amount
        pts[b] += amount

    for w in range(3):
        if not gou[w]:
            continue
        if lanzhou:
            unit = cip[w] + niu[w] + xi[w] if ci[w] else liang[w] + niu[w] + xi[w]
            if ci[w] and w in last:
                pay(last[w], w, unit * len(losers))
            else:
                for p in losers:
                    pay(p, w, unit)
        else:
            basic = niu[w] + xi[w] + liang[w]
            for p in losers:
                if ci[w] and w in last:
                    pay(p, w, 2 * (basic + cip[w]) if p == last[w] else basic)
                else:
                    pay(p, w, basic + cip[w])
    for x, t in events:
        if gou[x]:
            continue
        if lanzhou and not gou[t]:
            continue
        if not lanzhou and ci[t] and last.get(t) == x:
            continue
        pay(x, t, 2)
    return tuple(pts)


@settings(max_examples=400, deadline=None)
@given(hand=hands())
def test_points_sum_to_zero(hand):
    preset, captured, events = hand
    rules = PRESETS[preset]
    res = settle(captured, events, rules)
    assert sum(res.points) == 0
    net = [0, 0, 0]
    for pm in res.payments:
        assert pm.amount > 0 and pm.payer != pm.payee
        assert not res.tallies[pm.payer].gou  # a 够 player never pays
        net[pm.payer] -= pm.amount
        net[pm.payee] += pm.amount
    assert tuple(net) == res.points
    if preset == "lanzhou" and not any(t.gou for t in res.tallies):
        assert res.points == (0, 0, 0)
    assert res.points == _reference(captured, events, rules)
