"""双升 random policy and play-only hands: every play legal by the oracle, cards and points
conserved, whole hands replayed trick by trick in the Python oracle."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import numba
import numpy as np
import pytest
from test_shengji_kernel_diff import random_deal, random_lead, rich_hands

from analyzer.shengji.cards import DECK, TRUMP, context, points
from analyzer.shengji.combos import decompose, follow_ok
from analyzer.shengji.rules import CLASSIC, ZHENGZHOU
from analyzer.shengji.scoring import kitty_basis_cards, kitty_multiplier
from analyzer.shengji.tricks import check_throw, lead_ok, trick_winner
from kernels.rng import states_from_seed
from kernels.shengji import batch as kb
from kernels.shengji import hand as kh
from kernels.shengji import random_policy as kpo
from kernels.shengji.context import new_context
from kernels.shengji.deal import deal_many
from kernels.shengji.params import param_vector
from kernels.shengji.planes import cards_of, planes_of

VARIANTS = {
    "zhengzhou": ZHENGZHOU,
    "classic": CLASSIC,
    "penalty_whole_suit": ZHENGZHOU.with_(throw_fail_penalty_per_card=10,
                                          throw_whole_suit_only=True, kitty_basis="lead_shape",
                                          ruff_rule="count", trick_compare="all_units"),
}


def setup(rules, level, trump):
    return (context(level, trump, rules.nt_level_joker_tractor),
            new_context(trump, level, rules.nt_level_joker_tractor),
            param_vector(dataclasses.asdict(rules)))


@pytest.mark.parametrize("level, trump", [(2, 0), (10, 1), (14, 4), (5, 4)])
@pytest.mark.parametrize("name", list(VARIANTS))
def test_random_follows_and_leads_are_legal(name, level, trump):
    rules = VARIANTS[name]
    ctx, kctx, params = setup(rules, level, trump)
    rng = random.Random(f"{name}{level}{trump}")
    state = states_from_seed(level * 5 + trump, 1)[0]
    forced_structure = 0
    for i in range(600):
        hands = rich_hands(rng, ctx, rng.choice([TRUMP, 0, 1, 2, 3]), 2) if i % 2 \
            else random_deal(rng)[0]
        if not hands[0]:
            continue
        lead = cards_of(*kpo.random_lead(*planes_of(hands[0]), kctx, params, state))
        assert lead_ok(lead, hands[0], ctx, rules)[0]
        units = decompose(ctx.suit_cards(hands[0], ctx.esuit[lead[0]]), ctx)
        assert Counter(lead) == Counter(f for u in units for f in u.cards if
                                        Counter(u.cards) <= Counter(lead))  # whole units
        lead = random_lead(rng, hands[0], ctx)  # a broader lead for the follow
        if len(hands[1]) < len(lead):
            continue
        play = cards_of(*kpo.random_follow(*planes_of(lead), *planes_of(hands[1]), kctx, params,
                                           state))
        assert follow_ok(lead, hands[1], play, ctx, rules) == (True, "")
        held = ctx.suit_cards(hands[1], ctx.esuit[lead[0]])
        forced_structure += len(held) > len(lead) and any(u.pairs for u in decompose(lead, ctx))
    assert forced_structure > 50


def test_random_follow_discards_are_uniform():
    """A void follower discards a uniform subset of its physical cards."""
    kctx, params = new_context(0, 2, False), param_vector({})
    hand = planes_of(DECK[8:14] + (30, 30))  # ♠6 ♠7 ♠8 and ♣6, two of each: no ♥
    lead = planes_of((14, 15))  # ♥3 ♥4
    state = states_from_seed(4, 1)[0]
    seen = Counter(cards_of(*kpo.random_follow(*lead, *hand, kctx, params, state))
                   for _ in range(28000))
    # 8 physical cards: C(8, 2) = 28 equally likely pairs of cards, which make 4 pairs of
    # one face (1 way each) and 6 mixed multisets (4 ways each)
    assert len(seen) == 10
    for cards, n in seen.items():
        expect = 28000 * (1 if cards[0] == cards[1] else 4) / 28
        assert abs(n - expect) < 5 * np.sqrt(expect)


def replay(deal, banker, rules, ctx, res, log):
    """Check a logged kernel hand step by step with the oracle; returns the trick count."""
    hands = [list(cards_of(*deal[s])) for s in range(4)]
    kitty = cards_of(*deal[4])
    leader, attackers = banker, (banker + 1) % 2
    trick_pts = [0, 0]
    penalty = 0
    played = Counter()
    for t in range(res[kh.R_TRICKS]):
        row = log[t]
        assert row[kh.LG_LEADER] == leader
        attempt = cards_of(row[kh.LG_ATTEMPT], row[kh.LG_ATTEMPT + 1])
        plays = [cards_of(row[kh.LG_PLAYS + 2 * k], row[kh.LG_PLAYS + 2 * k + 1])
                 for k in range(4)]
        assert lead_ok(attempt, hands[leader], ctx, rules)[0]
        others = [hands[(leader + k) % 4] for k in (1, 2, 3)]
        stands, forced = check_throw(attempt, others, ctx, rules)
        assert plays[0] == forced
        if not stands:
            cost = rules.throw_fail_penalty_per_card * len(attempt)
            penalty += -cost if leader % 2 == attackers else cost
        for k in (1, 2, 3):
            s = (leader + k) % 4
            assert follow_ok(plays[0], hands[s], plays[k], ctx, rules) == (True, "")
        for k in range(4):
            s = (leader + k) % 4
            hands[s] = list((Counter(hands[s]) - Counter(plays[k])).elements())
            played.update(plays[k])
        w = trick_winner(plays, ctx, rules)
        assert row[kh.LG_WINNER] == w
        pts = sum(points(p) for p in plays)
        assert row[kh.LG_POINTS] == pts
        leader = (leader + w) % 4
        trick_pts[leader % 2 == attackers] += pts
    assert all(not h for h in hands)  # every hand emptied together
    assert played + Counter(kitty) == Counter(DECK)  # 108 cards conserved
    mult = 0
    if leader % 2 == attackers:
        mult = kitty_multiplier(kitty_basis_cards(plays[0], plays[w], rules), ctx, rules)
    assert res[kh.R_MULTIPLIER] == mult
    assert res[kh.R_TRICK_POINTS] == trick_pts[1]
    assert res[kh.R_BANKER_TRICK_POINTS] == trick_pts[0]
    assert res[kh.R_ATTACKER_POINTS] == trick_pts[1] + penalty + points(kitty) * mult
    assert res[kh.R_LAST_WINNER] == leader
    return res[kh.R_TRICKS]


@pytest.mark.parametrize("level, trump, banker", [(2, 0, 0), (10, 2, 1), (14, 4, 3), (5, 4, 2)])
@pytest.mark.parametrize("name", list(VARIANTS))
def test_play_only_hands_replay_in_the_oracle(name, level, trump, banker):
    rules = VARIANTS[name]
    ctx, kctx, params = setup(rules, level, trump)
    n = 40
    deals = np.empty((n, 5, 2), dtype=np.int64)
    deal_many(states_from_seed(level + 20 * trump, 1)[0], n, deals)
    state = states_from_seed(banker + 100, 1)[0]
    res = np.empty(kh.N_RESULT, dtype=np.int64)
    log = np.empty((kh.MAX_TRICKS, kh.LOG_WIDTH), dtype=np.int64)
    tricks = throws = 0
    for d in deals:
        kh.play_logged(d, banker, kctx, params, state, res, log)
        tricks += replay(d, banker, rules, ctx, res, log)
        throws += res[kh.R_THROWS]
    assert tricks > n * 10 and throws > n


def play(seed, n, rules=ZHENGZHOU, threads=None):
    out = np.empty((n, kh.N_RESULT), dtype=np.int64)
    before = numba.get_num_threads()
    try:
        if threads:
            numba.set_num_threads(threads)
        kb.play_chunks(states_from_seed(seed, 8), -(-n // 8), n, (2, 0, 0),
                       param_vector(dataclasses.asdict(rules)), out)
    finally:
        numba.set_num_threads(before)
    return out


def test_play_chunks_invariants_and_thread_independence():
    out = play(1, 3000, threads=1)
    assert np.array_equal(out, play(1, 3000, threads=max(2, numba.get_num_threads())))
    assert not np.array_equal(out, play(2, 3000))
    total = out[:, kh.R_TRICK_POINTS] + out[:, kh.R_BANKER_TRICK_POINTS] + out[:, kh.R_KITTY_POINTS]
    assert (total == 200).all()  # points in tricks + kitty = 200
    assert ((out[:, kh.R_TRICKS] >= 1) & (out[:, kh.R_TRICKS] <= 25)).all()
    kou = out[:, kh.R_MULTIPLIER] > 0
    assert (out[kou, kh.R_LAST_WINNER] % 2 == 1).all()  # attackers are seats 1, 3
    assert (out[~kou, kh.R_LAST_WINNER] % 2 == 0).all()
    assert 0.2 < kou.mean() < 0.8
    assert set(np.unique(out[kou, kh.R_MULTIPLIER])) <= {2, 4, 8, 16, 32, 64}
    assert (out[:, kh.R_ATTACKER_POINTS] == out[:, kh.R_TRICK_POINTS]
            + out[:, kh.R_KITTY_POINTS] * out[:, kh.R_MULTIPLIER]).all()  # no penalty
