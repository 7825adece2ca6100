"""heuristic2: four 9s (5s) counted and played as two 牛 (喜) pairs, point-aware answers, sure
plays cashed before 扣; each case is also run through the old heuristic, which must differ."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.xianniu.cards import FULL_DECK, mask_of, parse_cards
from analyzer.xianniu.rules import get_rules
from analyzer.xianniu.sim import rule_arrays
from kernels.xianniu.bits import FIVE, NINE, nib
from kernels.xianniu.game import MAX_ACTIONS, PH_KOU, PH_LEAD, PH_TRICK
from kernels.xianniu.plays import INFO_COLS, _push, gen_answers, gen_plays
from kernels.xianniu.policies import (
    H2_CASH,
    H2_QUAD,
    KIND_NIU,
    KIND_SET,
    KIND_XI,
    POLICY_DEFAULTS,
    heuristic2_choice,
    heuristic_choice,
    rank_points,
    sure_cards,
    sure_cards2,
)
from kernels.xianniu.tables import ACT_KOU, ACT_PLAY, ACT_XIAN, P_GOU

PHASES = {"lead": PH_LEAD, "trick": PH_TRICK, "kou": PH_KOU}


def _mask(text: str) -> int:
    return mask_of(parse_cards(text))


def _decide(fn, rules: str, hand_text: str, phase: str, top=None, captured: int = 0,
            may_kou: bool = False, w: np.ndarray | None = None):
    """The action ``fn`` picks for a seat holding ``hand_text`` that sees nothing else."""
    params, set_beats, beaters = rule_arrays(get_rules(rules))
    hand = _mask(hand_text)
    unseen = FULL_DECK & ~hand
    am = np.zeros(MAX_ACTIONS, dtype=np.int64)
    ai = np.zeros((MAX_ACTIONS, INFO_COLS), dtype=np.int64)
    n = 0
    if phase == "lead":
        if may_kou:
            n = _push(am, ai, 0, ACT_KOU, 0, -1, 0, -1, 0)
        n = gen_plays(hand, params, set_beats, 16, am, ai, n)
    elif phase == "trick":
        n = gen_answers(hand, top[0], top[1], top[2], top[3], set_beats, am, ai, 0)
    else:  # asked to agree to a 扣
        n = _push(am, ai, 0, ACT_KOU, 0, -1, 0, -1, 0)
        n = _push(am, ai, n, ACT_XIAN, 0, -1, 0, -1, 0)
    assert n > 1
    w = POLICY_DEFAULTS if w is None else w
    pos = (np.int64(PHASES[phase]), np.int64(1), np.int64(hand), np.int64(unseen),
           np.int64(captured), np.int64(0), params[P_GOU], np.int64(n))
    i = fn(pos, am, ai, beaters, w)
    return int(ai[i, 0]), int(ai[i, 1]), int(ai[i, 2]), int(am[i]), hand


def _left_points(rank: int, hand: int, play: int) -> int:
    return rank_points(rank, nib(hand & ~play, rank))


# (rules, hand, phase, top (kind, size, rank, k), captured, may 扣, expected: a function of
# (action type, kind, size, play mask, hand) that says the choice is right)
CASES = [
    # four 5s, no 亮子 sure: two 喜 pairs (the heuristic leads 555 and strands a 5)
    ("lanzhou", "5s 5h 5c 5d 2c 3d 7h", "lead", None, 0, False,
     lambda t, k, s, m, h: (k, s) == (KIND_XI, 2) and _left_points(FIVE, h, m) == 2),
    ("kanniutui", "5s 5h 5c 5d 2c 3d 7h", "lead", None, 0, False,
     lambda t, k, s, m, h: (k, s) == (KIND_XI, 2) and _left_points(FIVE, h, m) == 2),
    # four 9s: two 牛 pairs
    ("lanzhou", "9s 9h 9c 9d As 2h 6c", "lead", None, 0, False,
     lambda t, k, s, m, h: (k, s) == (KIND_NIU, 2) and _left_points(NINE, h, m) == 2),
    # 5555 is a sure 亮子 here (one card of each higher rank held): still two 喜 (4 > 2 points)
    ("lanzhou", "5s 5h 5c 5d 6s 7s 8s 9s 10s Js Qs Ks", "lead", None, 0, False,
     lambda t, k, s, m, h: (k, s) == (KIND_XI, 2) and _left_points(FIVE, h, m) == 2),
    # 2222 is not sure (a higher 亮子 may be out) but only a higher 亮子 in one hand beats it:
    # led whole, not as a lone 2 (the heuristic's smallest lead)
    ("lanzhou", "2s 2h 2c 2d 3s 6h 7c", "lead", None, 0, False,
     lambda t, k, s, m, h: (k, s) == (KIND_SET, 4)),
    ("kanniutui", "As Ah Ac Ad 3s 6h 7c", "lead", None, 0, False,
     lambda t, k, s, m, h: (k, s) == (KIND_SET, 4)),
    # the hand, asked to agree to the banker's opening 扣: two 牛 pairs and a K are 5
    # sure cards, the two Q are strong (the heuristic took the sure cards off them): 掀
    ("lanzhou", "9s 9h 9c 9d Ks Qh Qc Js 10h 8c 7h 6s 3c 3h 2s Ad", "kou", None, 0, False,
     lambda t, k, s, m, h: t == ACT_XIAN),
    # a pair of 8s to beat with 9999: a 牛 pair keeps a 牛 pair (not a same-colour pair)
    ("lanzhou", "9s 9h 9c 9d 2c 3d", "trick", (KIND_SET, 2, 6, 0), 0, False,
     lambda t, k, s, m, h: k == KIND_NIU and _left_points(NINE, h, m) == 2),
    ("kanniutui", "9s 9h 9c 9d Ac", "trick", (KIND_SET, 2, 6, 0), 0, False,
     lambda t, k, s, m, h: k == KIND_NIU and _left_points(NINE, h, m) == 2),
    # a single 8 to beat with 9♠9♥9♦: a red 9, so 9♠ and the other red 9 stay a 牛
    ("lanzhou", "9h 9d 9s 2d", "trick", (KIND_SET, 1, 6, 0), 0, False,
     lambda t, k, s, m, h: s == 1 and _left_points(NINE, h, m) == 2),
    # 够 (6 captured) with a 喜 pair and a K in hand: cash them before 扣
    ("lanzhou", "5s 5h Ks 2c 3d", "lead", None, 6, True,
     lambda t, k, s, m, h: t == ACT_PLAY),
    ("kanniutui", "9s 9h 2c 3d", "lead", None, 6, True,
     lambda t, k, s, m, h: t == ACT_PLAY and k == KIND_NIU),
]


@pytest.mark.parametrize("case", CASES, ids=[f"{c[0]}-{c[2]}-{c[1]}" for c in CASES])
def test_heuristic2_case_table(case):
    rules, hand, phase, top, captured, may_kou, right = case
    assert right(*_decide(heuristic2_choice, rules, hand, phase, top, captured, may_kou))


def test_old_heuristic_fails_the_table():
    """Teeth: the table is not a set of choices any policy makes; the heuristic fails every
    case (so a heuristic2 that fell back to it would fail too)."""
    for rules, hand, phase, top, captured, may_kou, right in CASES:
        assert not right(*_decide(heuristic_choice, rules, hand, phase, top, captured,
                                  may_kou)), (rules, hand, phase)


def test_cash_parameter_switches_the_cashing():
    """H2_CASH 0: 扣 once 够; 1: lead only sure point plays first; 2: any sure play."""
    def pick(cash, hand):
        w = POLICY_DEFAULTS.copy()
        w[H2_CASH] = cash
        return _decide(heuristic2_choice, "lanzhou", hand, "lead", None, 6, True, w)[0]
    assert pick(0.0, "5s 5h 2c 3d") == ACT_KOU
    assert pick(1.0, "5s 5h 2c 3d") == ACT_PLAY
    assert pick(1.0, "Ks 2c 3d") == ACT_KOU  # a sure K scores no points
    assert pick(2.0, "Ks 2c 3d") == ACT_PLAY
    assert pick(2.0, "2c 3d 6h") == ACT_KOU  # nothing sure to lead


def test_quad_parameter_switches_the_liang_lead():
    w = POLICY_DEFAULTS.copy()
    w[H2_QUAD] = 0.0
    t, k, s, m, h = _decide(heuristic2_choice, "lanzhou", "2s 2h 2c 2d 3s 6h 7c", "lead", w=w)
    assert (k, s) == (KIND_SET, 1)  # without the bonus: the smallest single, as the heuristic


@pytest.mark.parametrize("nibble,rank,points", [
    (15, NINE, 4), (15, FIVE, 4), (0b0111, NINE, 3), (0b0101, NINE, 0), (0b1010, FIVE, 0),
    (0b0011, FIVE, 2), (0b1001, NINE, 2), (0b0001, NINE, 0), (15, 11, 0), (0b0011, 0, 0)])
def test_rank_points(nibble, rank, points):
    assert rank_points(rank, nibble) == points


@pytest.mark.parametrize("hand_text,old,new", [
    ("9s 9h 9c 9d 2c", 0, 4),  # a higher 亮子 may be out: 9999 is not sure, two 牛 are
    ("5s 5h 5c 5d 2c", 0, 4),
    ("9s 9h 9c 2c", 3, 3),
    ("9s 9c 2c", 0, 0),  # same colour: an ordinary pair, beaten by 10s
    # the hand: no higher 亮子 can be out, so 9999 counts as sure either way
    ("9s 9h 9c 9d Ks Qh Qc Js 10h 8c 7h 6s 3c 3h 2s Ad", 5, 5)])
def test_sure_cards_count_four_nines_as_two_niu(hand_text, old, new):
    _, _, beaters = rule_arrays(get_rules("lanzhou"))
    hand = _mask(hand_text)
    unseen = FULL_DECK & ~hand
    assert sure_cards2(hand, unseen, beaters) == new
    assert sure_cards(hand, unseen, beaters) == old


def test_cli_accepts_heuristic2(capsys):
    """should-xian and stats values take heuristic2 by name; an unknown name is one error line."""
    import json

    from analyzer.cli import main

    hand = ["9s", "9h", "9c", "9d", "Ks", "Qh", "Qc", "Js", "10h", "8c", "7h", "6s", "3c", "3h", "2s", "Ad"]
    assert main(["should-xian", *hand, "--policy", "heuristic2", "--max-deals", "100",
                 "--precision", "50", "--json", "--quiet"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["policy"] == "heuristic2"
    assert main(["stats", "values", "--policy", "heuristic2", "--deals", "50", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["policy"] == "heuristic2"
    assert main(["should-xian", *hand, "--policy", "heuristic3", "--quiet"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
