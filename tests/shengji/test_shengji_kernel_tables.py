"""双升 kernel foundations: the rule vector, two-plane card sets and context tables."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import numpy as np
import pytest
from numba import njit

from analyzer.shengji.cards import DECK, context, points
from analyzer.shengji.rules import CHOICES, CLASSIC, ZHENGZHOU, ShengjiRules
from kernels.shengji import params as kpar
from kernels.shengji import planes as kpl
from kernels.shengji.context import (
    CX_ESUIT,
    CX_HIGHER,
    CX_LEVEL,
    CX_NT_FLAG,
    CX_RUNG,
    CX_RUNG_FACES,
    CX_SUIT_MASK,
    CX_TRUMP,
    N_RUNGS,
    new_context,
)


def random_multiset(rng):
    pool = list(DECK)
    return tuple(sorted(rng.sample(pool, rng.randint(0, 40))))


# ---- the rule vector ---------------------------------------------------------------------


def test_param_names_are_the_rules_fields():
    names = [f.name for f in dataclasses.fields(ShengjiRules) if f.name not in ("name", "title")]
    assert list(kpar.PARAM_NAMES) == names
    assert kpar.ENUM_VALUES == CHOICES  # codes are the positions in the oracle's CHOICES
    assert {k: v for k, v in dataclasses.asdict(ZHENGZHOU).items()
            if k in kpar.PARAM_NAMES} == kpar.DEFAULTS
    for i, name in enumerate(kpar.PARAM_NAMES):
        assert getattr(kpar, "P_" + name.upper()) == i


@pytest.mark.parametrize("rules", [ZHENGZHOU, CLASSIC], ids=["zhengzhou", "classic"])
def test_param_vector_of_presets(rules):
    v = kpar.param_vector(dataclasses.asdict(rules))
    assert v.dtype == np.int64 and v.shape == (kpar.N_PARAMS,)
    for i, name in enumerate(kpar.PARAM_NAMES):
        value = getattr(rules, name)
        if name in CHOICES:
            assert v[i] == CHOICES[name].index(value)
        elif value is None:
            assert v[i] == -1
        else:
            assert v[i] == int(value)
    assert (v[kpar.P_THROW_FAIL_PLAY] == kpar.THROW_FAIL_FIRST_FAILED_UNIT) == (rules is CLASSIC)
    assert v[kpar.P_KITTY_MULTIPLIER] == (kpar.KITTY_POW_SIZE if rules is CLASSIC
                                          else kpar.KITTY_POW2_PAIRS)


def test_param_vector_rejects_unknown_values():
    with pytest.raises(ValueError, match="ruff_rule"):
        kpar.param_vector({"ruff_rule": "sometimes"})
    with pytest.raises(ValueError, match="may not be None"):
        kpar.param_vector({"level_step": None})


# ---- planes --------------------------------------------------------------------------------


def test_planes_round_trip_and_count():
    rng = random.Random(1)
    for _ in range(300):
        cards = random_multiset(rng)
        one, two = kpl.planes_of(cards)
        assert two & ~one == 0
        assert kpl.cards_of(one, two) == cards
        assert kpl.count(one, two) == len(cards)
        assert kpl.points(one, two) == points(cards)


def test_planes_add_subtract_contains_restrict():
    rng = random.Random(2)
    for _ in range(300):
        deck = list(DECK)
        rng.shuffle(deck)
        a = tuple(sorted(deck[:30]))
        b = tuple(sorted(deck[30:30 + rng.randint(0, 30)]))
        sub = tuple(sorted(rng.sample(a, rng.randint(0, len(a)))))
        pa, pb, ps = kpl.planes_of(a), kpl.planes_of(b), kpl.planes_of(sub)
        assert kpl.cards_of(*kpl.add(*pa, *pb)) == tuple(sorted(a + b))
        assert kpl.cards_of(*kpl.subtract(*pa, *ps)) == tuple(sorted((Counter(a) - Counter(sub))
                                                                     .elements()))
        assert kpl.contains(*pa, *ps)
        assert kpl.contains(*pa, *pb) == (not Counter(b) - Counter(a))
        mask = rng.getrandbits(54)
        assert kpl.cards_of(*kpl.restrict(*pa, mask)) == tuple(f for f in a if mask >> f & 1)
        f = rng.choice(a)
        assert kpl.cards_of(*kpl.remove_face(*pa, f)) == tuple(sorted((Counter(a) - Counter([f]))
                                                                      .elements()))
        if a.count(f) < 2:
            assert kpl.cards_of(*kpl.add_face(*pa, f)) == tuple(sorted(a + (f,)))


@njit
def _bits(x):
    return kpl.popcount(x), kpl.lowest_bit(x), kpl.highest_bit(x)


def test_bit_intrinsics():
    for x in (1, 2, 3, 0b1011000, (1 << 53) | 5, kpl.ALL_FACES, (1 << 62) + 7):
        assert _bits(x) == (bin(x).count("1"), (x & -x).bit_length() - 1, x.bit_length() - 1)


def test_point_masks():
    assert kpl.points(*kpl.planes_of(DECK)) == 200
    assert kpl.points(kpl.JOKERS, kpl.JOKERS) == 0


# ---- contexts ------------------------------------------------------------------------------


@pytest.mark.parametrize("flag", [False, True])
@pytest.mark.parametrize("trump", range(5))
def test_context_tables_match_the_oracle(trump, flag):
    for level in range(2, 15):
        ref = context(level, trump, flag)
        ctx = new_context(trump, level, flag)
        assert list(ctx[CX_ESUIT:CX_ESUIT + 54]) == list(ref.esuit)
        assert list(ctx[CX_RUNG:CX_RUNG + 54]) == list(ref.rung)
        for e in range(5):
            assert ctx[CX_SUIT_MASK + e] == sum(1 << f for f in range(54) if ref.esuit[f] == e)
            for r in range(N_RUNGS):
                on = sum(1 << f for f in ref.faces_on(e, r))
                assert ctx[CX_RUNG_FACES + N_RUNGS * e + r] == on
        for f in range(54):
            above = sum(1 << g for g in range(54)
                        if ref.esuit[g] == ref.esuit[f] and ref.rung[g] > ref.rung[f])
            assert ctx[CX_HIGHER + f] == above
        assert (ctx[CX_TRUMP], ctx[CX_LEVEL], ctx[CX_NT_FLAG]) == (trump, level, flag)


def test_context_examples():
    ctx = new_context(0, 5, False)  # §2: L = 5, T = ♠ has 36 主 cards
    assert 2 * bin(ctx[CX_SUIT_MASK + 4]).count("1") == 36
    nt = new_context(4, 5, False)
    assert 2 * bin(nt[CX_SUIT_MASK + 4]).count("1") == 12
    assert nt[CX_RUNG_FACES + N_RUNGS * 4 + 13] == 0  # NT: rung 13 empty
    assert new_context(4, 5, True)[CX_RUNG_FACES + N_RUNGS * 4 + 12] == 0  # classic: on 13
