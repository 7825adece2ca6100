"""The open readings of the seed as rule parameters (R6–R11 of docs/rules/dingniu.md): the engine
situation by situation, the kernels and the solver against the engine under every reading."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace

import pytest
from test_dingniu_rules import random_deal
from test_dingniu_solver import naive

from analyzer.dingniu.crosscheck import crosscheck
from analyzer.dingniu.engine import is_suan, lock_values, new_hand, suan_totals
from analyzer.dingniu.rules import NAVPIL, PRESETS, SEED, TILES, get_rules
from analyzer.dingniu.sim import rule_arrays
from analyzer.dingniu.solver import solve
from analyzer.dingniu.tiles import parse_tiles
from kernels.dingniu import game as kd

K = {t.name: k for k, t in enumerate(TILES)}
VALUE = replace(SEED, name="value", lock_scope="value")


def hands(*texts: str) -> list[list[int]]:
    """Four hands (counts per kind) from tile strings; they need not make a whole deal."""
    return [parse_tiles(t) if t else [0] * len(TILES) for t in texts]


def test_hands_are_counts_per_kind():
    assert sum(map(sum, hands("", "一五 一六", "", ""))) == 2


def bits(*values: int) -> int:
    return sum(1 << v for v in values)


# -- R6: what a lock is ---------------------------------------------------------------------

@pytest.mark.parametrize("rules,others,before,after,shut", [
    # 闷五帐: 一三 laid on the 1 leaves 一五 nowhere to go; 一六 still goes on the 6
    (SEED, "一五 一六", (1, 6), (3, 6), 0),
    (VALUE, "一五 一六", (1, 6), (3, 6), bits(5)),
    # every 竖牌 of the others shut out: a lock under both readings
    (SEED, "一五 大天", (1, 6), (3, 6), bits(1, 5)),
    (VALUE, "一五 大天", (1, 6), (3, 6), bits(1, 5)),
    # a table already shut is not shut again
    (SEED, "一五", (3, 6), (3, 3), 0),
    (VALUE, "一五", (3, 6), (3, 3), 0),
    # others holding only doubles: nothing to shut
    (SEED, "大天 二板", (1, 6), (3, 6), 0),
    # 砸红帐: the 4s of 红十 shut while 一六 still goes on the 1
    (VALUE, "红十 一六", (1, 6), (1, 1), bits(4)),
])
def test_lock_values(rules, others, before, after, shut):
    h = hands("", others, "", "")
    assert lock_values(rules, h, 0, before, after) == shut


# -- R7: 死砸 ---------------------------------------------------------------------------------

@pytest.mark.parametrize("dead,alternatives,suan", [
    ((1, 2, 3, 4, 5, 6), [], False),  # forced lock of 5: 死砸
    ((4, 5), [], False),  # 闷五帐 forced: 死砸 under both readings
    ((4,), [], True),  # only 砸红帐 may be 死砸: a forced lock of 5 is a 算帐
    ((1, 2, 3, 4, 5, 6), [K["一六"] * 8 + 6], True),  # a play that keeps 5 open: 算帐
])
def test_dead_smash(dead, alternatives, suan):
    r = replace(VALUE, dead_smash_values=dead)
    # seat 1 lays 一三 on the 1 of (1, 6): 一五 (seat 2) is shut out, values 1 and 5
    h = [parse_tiles("大五"), parse_tiles("二板"), parse_tiles("一五"), parse_tiles("大天")]
    assert is_suan(r, h, 1, (1, 6), (3, 6), alternatives) is suan


# -- R8, R9: the count after a 算帐 -----------------------------------------------------------

@pytest.mark.parametrize("doubles,count_hand,totals", [
    (False, True, [10 + 4, 5 + 12 + 6, 0 + 8, 3 + 4]),
    (True, True, [10 + 4, 5, 0 + 8, 3 + 4]),  # 大天 and 长三 go on the 6 and the 3 first
    (False, False, [10 + 4, 5, 0, 3]),  # the locking seat's hand counts, not the others'
    (True, False, [10 + 4, 5, 0, 3]),
])
def test_suan_totals(doubles, count_hand, totals):
    r = replace(SEED, closing_doubles=doubles, count_others_hand=count_hand)
    # seat 0 locked with 二板 left, ends (3, 6); 地幺 matches no end; 二六 is no double
    h = [parse_tiles("二板"), parse_tiles("大天 长三"), parse_tiles("二六"),
         parse_tiles("地幺 地幺")]
    assert suan_totals(r, [10, 5, 0, 3], h, 0, (3, 6)) == totals


# -- R11: the 头牌's lock ----------------------------------------------------------------------

@pytest.mark.parametrize("exempt,mine,suan", [
    ("last_tile", "", False),  # out with the locking tile: 净手, no 算帐
    ("last_tile", "大天", True),  # a tile left: an ordinary 算帐
    ("playable_hand", "大天", False),  # the tile left can still be laid: no 算帐
    ("playable_hand", "二板", True),  # a tile left that cannot go: 算帐
])
def test_tou_pai_lock(exempt, mine, suan):
    r = replace(SEED, tou_exempt=exempt)
    h = [parse_tiles(mine) if mine else [0] * len(TILES), parse_tiles("一五"),
         parse_tiles("大五"), parse_tiles("长三")]
    # 头牌 lays 一三 on the 1 of (1, 6); 一六 on the 6 would have kept the 1 open
    assert is_suan(r, h, 0, (1, 6), (3, 6), [K["一六"] * 8 + 6]) is suan


# -- presets ------------------------------------------------------------------------------------

def test_presets_and_the_former_name():
    assert set(PRESETS) == {"seed", "navpil"}
    assert get_rules() is SEED and get_rules("standard") is SEED and get_rules("NAVPIL") is NAVPIL
    assert (NAVPIL.lock_scope, NAVPIL.closing_doubles) == ("value", True)
    with pytest.raises(ValueError, match="lock_scope"):
        replace(SEED, lock_scope="some")
    with pytest.raises(ValueError, match="tou_exempt"):
        replace(SEED, tou_exempt="never")


# -- kernels against the engine ---------------------------------------------------------------

@pytest.mark.parametrize("policies", ["random", "heuristic,random,heuristic,random"])
def test_navpil_kernel_hands_replay_in_reference(policies):
    rep = crosscheck(2500, NAVPIL, seed=20261201, policies=policies)
    assert rep.mismatches == []
    assert 0 < rep.suan < 2500


COMBOS = list(itertools.product(("all", "value"), ((1, 2, 3, 4, 5, 6), (4, 5)), (False, True),
                                (True, False), ("last_tile", "playable_hand")))


@pytest.mark.parametrize("scope,dead,doubles,count_hand,exempt", COMBOS)
def test_every_reading_replays_in_reference(scope, dead, doubles, count_hand, exempt):
    """All 32 combinations of R6, R7, R8, R9 and R11."""
    r = replace(SEED, name="mix", lock_scope=scope, dead_smash_values=dead,
                closing_doubles=doubles, count_others_hand=count_hand, tou_exempt=exempt)
    rep = crosscheck(120, r, seed=len(str(r)), policies="heuristic,random,random,heuristic")
    assert rep.mismatches == []


@pytest.mark.parametrize("rules,param,value", [
    (SEED, kd.P_LOCK_VALUE, 1),
    (NAVPIL, kd.P_LOCK_VALUE, 0),
    (NAVPIL, kd.P_DEAD_MASK, bits(4, 5)),
    (NAVPIL, kd.P_DOUBLES, 0),
    (SEED, kd.P_COUNT_HAND, 0),
    (SEED, kd.P_TOU_PLAYABLE, 1),
])
def test_crosscheck_catches_a_wrong_reading(rules, param, value):
    """Teeth: kernels given one reading the engine does not play are caught."""
    tiles, params = (a.copy() for a in rule_arrays(rules))
    params[param] = value
    rep = crosscheck(1500, rules, seed=4, policies="random", arrays=(tiles, params))
    assert rep.mismatches


# -- the solver under the second preset ---------------------------------------------------------

@pytest.mark.parametrize("seed", range(8))
def test_solver_equals_brute_force_under_navpil(seed):
    rng = random.Random(seed)
    while True:
        st = new_hand(random_deal(rng), NAVPIL)
        for _ in range(12):
            if st.is_terminal():
                break
            st.apply(rng.choice(st.legal_actions()))
        if not st.is_terminal():
            break
    assert solve(st).values == naive(st)
