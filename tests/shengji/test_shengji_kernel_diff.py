"""The 双升 play kernels against the Python oracle (analyzer.shengji) on random positions.

Decomposition, follow legality, matching, the trick winner, throw checks and the 抠底
multiplier must agree exactly, for both presets and rule variants, in several (L, T)
contexts including 无主 and L = A. A deliberately wrong context table must be caught.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import numpy as np
import pytest

from analyzer.shengji.cards import DECK, TRUMP, context
from analyzer.shengji.combos import decompose, follow_ok, legal_follow, matches
from analyzer.shengji.rules import CLASSIC, ZHENGZHOU
from analyzer.shengji.scoring import kitty_multiplier
from analyzer.shengji.tricks import check_throw, trick_winner
from kernels.shengji import params as kpar
from kernels.shengji import play as kp
from kernels.shengji.context import (
    CX_ESUIT,
    CX_HIGHER,
    CX_RUNG,
    CX_RUNG_FACES,
    N_RUNGS,
    new_context,
)
from kernels.shengji.params import param_vector
from kernels.shengji.planes import cards_of, planes_of
from kernels.shengji.units import MAX_UNITS
from kernels.shengji.units import decompose as k_decompose

CONTEXTS = [(2, 0), (5, 0), (10, 1), (14, 2), (7, 3), (5, 4), (14, 4), (2, 4)]  # (L, T)
RULES = {
    "zhengzhou": ZHENGZHOU,
    "classic": CLASSIC,
    "count_all_units": ZHENGZHOU.with_(ruff_rule="count", trick_compare="all_units"),
    "count_highest": CLASSIC.with_(ruff_rule="count", trick_compare="highest_card"),
    "smallest_opponents": ZHENGZHOU.with_(throw_fail_play="smallest_card",
                                          throw_check_players="opponents",
                                          kitty_multiplier="times_size"),
}


def kernel_args(rules, level, trump, override=None):
    """The kernels' context and rule vector; ``override(ctx, params)`` may corrupt them."""
    kctx = new_context(trump, level, rules.nt_level_joker_tractor)
    params = param_vector(dataclasses.asdict(rules))
    if override is not None:
        kctx, params = override(kctx, params)
    return kctx, params


# ---- random positions --------------------------------------------------------------------


def random_deal(rng):
    deck = list(DECK)
    rng.shuffle(deck)
    return [tuple(sorted(deck[25 * s:25 * s + 25])) for s in range(4)], tuple(sorted(deck[100:]))


def rich_hands(rng, ctx, es, n_players=4):
    """Hands crowded with pairs of effective suit ``es`` (tractors and multi-tractor leads
    are rare in random deals), plus a few other cards each."""
    hands = [[] for _ in range(n_players)]
    free = Counter(DECK)
    for f in range(54):
        if ctx.esuit[f] != es or rng.random() < 0.25:
            continue
        if rng.random() < 0.6:
            hands[rng.randrange(n_players)] += [f, f]
        else:
            for _ in range(2):
                hands[rng.randrange(n_players)].append(f)
        free[f] -= 2
    rest = list(free.elements())
    rng.shuffle(rest)
    for h in hands:
        for _ in range(rng.randrange(0, 8)):
            h.append(rest.pop())
    return [tuple(sorted(h)) for h in hands]


def random_lead(rng, hand, ctx):
    """A unit or a throw from one effective suit of ``hand`` (None if the hand is empty)."""
    if not hand:
        return None
    es = ctx.esuit[rng.choice(hand)]
    units = decompose(ctx.suit_cards(hand, es), ctx)
    if rng.random() < 0.15:  # an arbitrary sub-multiset: odd shapes
        held = list(ctx.suit_cards(hand, es))
        return tuple(sorted(rng.sample(held, rng.randint(1, len(held)))))
    k = 1 if rng.random() < 0.4 else rng.randint(1, len(units))
    return tuple(sorted(f for u in rng.sample(units, k) for f in u.cards))


def random_subset(rng, cards, n):
    cards = list(cards)
    return tuple(sorted(rng.sample(cards, n))) if len(cards) >= n else None


def candidate_plays(rng, lead, hand, ctx, rules):
    """Legal and illegal candidates: the oracle's legal follow, one-card perturbations of
    it, random subsets of the hand and of its led-suit cards."""
    n = len(lead)
    out = [legal_follow(lead, hand, ctx, rules)]
    es = ctx.esuit[lead[0]]
    held = ctx.suit_cards(hand, es)
    for _ in range(3):
        p = random_subset(rng, held, n)
        if p:
            out.append(p)
    for _ in range(2):
        p = random_subset(rng, hand, n)
        if p:
            out.append(p)
    base = list(out[0])
    rest = list((Counter(hand) - Counter(base)).elements())
    if rest:
        for _ in range(2):
            q = base[:]
            q[rng.randrange(n)] = rng.choice(rest)
            if max(Counter(q).values()) <= 2 and not Counter(q) - Counter(hand):
                out.append(tuple(sorted(q)))
    return out


def units_k(cards, kctx):
    units = np.zeros((MAX_UNITS, 3), dtype=np.int64)
    n = k_decompose(*planes_of(cards), kctx, units)
    return [(int(units[i, 0]), int(units[i, 1]),
             cards_of(units[i, 2], units[i, 2] if units[i, 0] else 0)) for i in range(n)]


def planes_arr(plays):
    return np.array([planes_of(p) for p in plays], dtype=np.int64)


# ---- the comparisons (each returns the number of disagreements and checks made) ----------


def compare_decompositions(rng, rules, level, trump, n, override=None):
    ctx = context(level, trump, rules.nt_level_joker_tractor)
    kctx, _ = kernel_args(rules, level, trump, override)
    bad = 0
    for _ in range(n):
        hands = rich_hands(rng, ctx, rng.choice([TRUMP, 0, 1, 2, 3]), 2)
        cards = hands[0]
        if not cards:
            continue
        want = [(u.pairs, u.top, u.cards) for u in decompose(cards, ctx)]
        bad += units_k(cards, kctx) != want
    return bad


def compare_follows(rng, rules, level, trump, n, override=None):
    ctx = context(level, trump, rules.nt_level_joker_tractor)
    kctx, params = kernel_args(rules, level, trump, override)
    bad = checks = legal = 0
    for i in range(n):
        es = rng.choice([TRUMP, 0, 1, 2, 3])
        if i % 2:
            hands = rich_hands(rng, ctx, es, 2)
        else:
            hands, _ = random_deal(rng)
        lead = random_lead(rng, hands[0], ctx)
        if lead is None or not hands[1]:
            continue
        if len(hands[1]) < len(lead):
            continue
        for play in candidate_plays(rng, lead, hands[1], ctx, rules):
            want = follow_ok(lead, hands[1], play, ctx, rules)[0]
            got = kp.is_legal_follow(*planes_of(lead), *planes_of(hands[1]), *planes_of(play),
                                     kctx, params)
            bad += want != got
            checks += 1
            legal += want
    return bad, checks, legal


def compare_tricks(rng, rules, level, trump, n, override=None):
    ctx = context(level, trump, rules.nt_level_joker_tractor)
    kctx, params = kernel_args(rules, level, trump, override)
    bad = checks = 0
    wins = Counter()
    for i in range(n):
        es = rng.choice([TRUMP, 0, 1, 2, 3])
        hands = rich_hands(rng, ctx, es) if i % 2 else random_deal(rng)[0]
        lead = random_lead(rng, hands[0], ctx)
        if lead is None:
            continue
        plays = [lead]
        for s in (1, 2, 3):
            if len(hands[s]) < len(lead):
                break
            r = rng.random()
            trumps = ctx.suit_cards(hands[s], TRUMP)
            if r < 0.4:
                p = legal_follow(lead, hands[s], ctx, rules)
            elif r < 0.7 and len(trumps) >= len(lead):
                p = random_subset(rng, trumps, len(lead))  # a ruff attempt
            elif r < 0.85:
                p = random_subset(rng, ctx.suit_cards(hands[s], es), len(lead)) \
                    or random_subset(rng, hands[s], len(lead))
            else:
                p = random_subset(rng, hands[s], len(lead))
            plays.append(p)
        if len(plays) < 2:
            continue
        want = trick_winner(plays, ctx, rules)
        got = kp.trick_winner(planes_arr(plays), len(plays), kctx, params)
        bad += want != got
        checks += 1
        wins[want] += 1
        for p in plays[1:]:
            units = decompose(lead, ctx)
            bad += matches(units, p, ctx, rules) != kp.matches(*planes_of(lead), *planes_of(p),
                                                               kctx, params)
    return bad, checks, wins


def compare_throws(rng, rules, level, trump, n, override=None):
    ctx = context(level, trump, rules.nt_level_joker_tractor)
    kctx, params = kernel_args(rules, level, trump, override)
    bad = checks = fails = 0
    forced = np.zeros(2, dtype=np.int64)
    for i in range(n):
        es = rng.choice([TRUMP, 0, 1, 2, 3])
        hands = rich_hands(rng, ctx, es) if i % 2 else random_deal(rng)[0]
        lead = random_lead(rng, hands[0], ctx)
        if lead is None:
            continue
        stands, played = check_throw(lead, hands[1:], ctx, rules)
        got = kp.check_throw(*planes_of(lead), planes_arr(hands[1:]), kctx, params, forced)
        bad += (stands, played) != (got, cards_of(forced[0], forced[1]))
        checks += 1
        fails += not stands
    return bad, checks, fails


def compare_kitty(rng, rules, level, trump, n, override=None):
    ctx = context(level, trump, rules.nt_level_joker_tractor)
    kctx, params = kernel_args(rules, level, trump, override)
    bad = 0
    for _ in range(n):
        hands = rich_hands(rng, ctx, rng.choice([TRUMP, 0, 1, 2, 3]), 2)
        cards = random_lead(rng, hands[0], ctx) if rng.random() < 0.7 else hands[0]
        if not cards:
            continue
        bad += kitty_multiplier(cards, ctx, rules) != kp.kitty_multiplier(*planes_of(cards),
                                                                          kctx, params)
    return bad


# ---- tests -------------------------------------------------------------------------------


@pytest.mark.parametrize("level, trump", CONTEXTS)
@pytest.mark.parametrize("name", ["zhengzhou", "classic"])
def test_decomposition_matches_oracle(name, level, trump):
    rng = random.Random(f"dec{name}{level}{trump}")
    assert compare_decompositions(rng, RULES[name], level, trump, 400) == 0


@pytest.mark.parametrize("level, trump", CONTEXTS)
@pytest.mark.parametrize("name", list(RULES))
def test_follow_legality_matches_oracle(name, level, trump):
    rng = random.Random(f"fol{name}{level}{trump}")
    bad, checks, legal = compare_follows(rng, RULES[name], level, trump, 150)
    assert bad == 0
    assert checks > 800 and 0.15 * checks < legal < 0.9 * checks  # both verdicts exercised


@pytest.mark.parametrize("level, trump", CONTEXTS)
@pytest.mark.parametrize("name", list(RULES))
def test_trick_winner_matches_oracle(name, level, trump):
    rng = random.Random(f"tri{name}{level}{trump}")
    bad, checks, wins = compare_tricks(rng, RULES[name], level, trump, 250)
    assert bad == 0
    assert checks > 200 and len(wins) >= 3  # followers win too


@pytest.mark.parametrize("level, trump", CONTEXTS)
@pytest.mark.parametrize("name", list(RULES))
def test_throw_check_matches_oracle(name, level, trump):
    rng = random.Random(f"thr{name}{level}{trump}")
    bad, checks, fails = compare_throws(rng, RULES[name], level, trump, 250)
    assert bad == 0
    assert checks > 200 and 20 < fails < checks - 20  # throws both stand and fail


@pytest.mark.parametrize("level, trump", CONTEXTS)
@pytest.mark.parametrize("name", list(RULES))
def test_kitty_multiplier_matches_oracle(name, level, trump):
    rng = random.Random(f"kit{name}{level}{trump}")
    assert compare_kitty(rng, RULES[name], level, trump, 150) == 0


def _swap_level_rungs(kctx, params):
    """副级 and 主级 swapped, every table rebuilt to agree: a wrong context the comparisons
    must notice."""
    bad = kctx.copy()
    for f in range(52):
        if bad[CX_ESUIT + f] == TRUMP and bad[CX_RUNG + f] in (12, 13):
            bad[CX_RUNG + f] = 25 - bad[CX_RUNG + f]
    bad[CX_RUNG_FACES:CX_RUNG_FACES + 5 * N_RUNGS] = 0
    for f in range(54):
        bad[CX_RUNG_FACES + N_RUNGS * bad[CX_ESUIT + f] + bad[CX_RUNG + f]] |= 1 << f
    for f in range(54):
        bad[CX_HIGHER + f] = sum(1 << g for g in range(54) if bad[CX_ESUIT + g]
                                 == bad[CX_ESUIT + f] and bad[CX_RUNG + g] > bad[CX_RUNG + f])
    return bad, params


def test_differential_check_has_teeth():
    """A context with 副级 and 主级 swapped disagrees with the oracle."""
    rng = random.Random(7)
    level, trump = 5, 0
    assert compare_decompositions(rng, ZHENGZHOU, level, trump, 400) == 0
    assert compare_decompositions(rng, ZHENGZHOU, level, trump, 400, _swap_level_rungs) > 0
    assert compare_follows(rng, ZHENGZHOU, level, trump, 400, _swap_level_rungs)[0] > 0
    assert compare_tricks(rng, ZHENGZHOU, level, trump, 400, _swap_level_rungs)[0] > 0
    assert compare_throws(rng, ZHENGZHOU, level, trump, 400, _swap_level_rungs)[0] > 0


def _wrong_param(index, value):
    def override(kctx, params):
        params = params.copy()
        params[index] = value
        return kctx, params
    return override


@pytest.mark.parametrize("index, value, compare", [
    (kpar.P_TRICK_COMPARE, kpar.COMPARE_ALL_UNITS, "tricks"),
    (kpar.P_TRICK_COMPARE, kpar.COMPARE_HIGHEST_CARD, "tricks"),
    (kpar.P_THROW_FAIL_PLAY, kpar.THROW_FAIL_SMALLEST_CARD, "throws"),
    (kpar.P_THROW_CHECK_PLAYERS, kpar.THROW_CHECK_OPPONENTS, "throws"),
    (kpar.P_KITTY_MULTIPLIER, kpar.KITTY_POW_SIZE, "kitty"),
])
def test_differential_check_catches_a_wrong_rule_vector(index, value, compare):
    """Kernels fed one wrong rule parameter disagree with the oracle."""
    rng = random.Random(11)
    wrong = _wrong_param(index, value)
    if compare == "tricks":
        assert compare_tricks(rng, ZHENGZHOU, 10, 0, 600, wrong)[0] > 0
    elif compare == "throws":
        assert compare_throws(rng, ZHENGZHOU, 10, 0, 400, wrong)[0] > 0
    else:
        assert compare_kitty(rng, ZHENGZHOU, 10, 0, 200, wrong) > 0
