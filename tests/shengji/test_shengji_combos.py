"""双升 units, follow duty, matching, the trick winner and throws (§3, §5)."""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.shengji.cards import DECK, NT, TRUMP, context, format_cards, parse_cards, rank_of
from analyzer.shengji.combos import (
    classify,
    decompose,
    follow_ok,
    legal_follow,
    matches,
    pair_faces,
    verify_follow,
)
from analyzer.shengji.rules import CLASSIC, ZHENGZHOU, get_rules
from analyzer.shengji.tricks import (
    check_throw,
    throw_failures,
    trick_points,
    trick_winner,
    verify_lead,
)

S, H, C, D = 0, 1, 2, 3
P = parse_cards
L5S = context(5, S)  # the seed's "打5" examples
L10S = context(10, S)  # the classic text's level-10 examples


def shape(cards, ctx):
    return [(u.kind, u.pairs, u.top) for u in decompose(cards, ctx)]


def is_tractor(cards, ctx):
    units = decompose(cards, ctx)
    return len(units) == 1 and units[0].kind == "tractor"


# ---- §3 units --------------------------------------------------------------------------------

SECTION3 = [  # seed, cards at L=5 T=♠, rungs, tractor?
    ("3344", "♣3♣3♣4♣4", (1, 2), True),
    ("3344 in 主", "♠3♠3♠4♠4", (1, 2), True),
    ("4466", "♥4♥4♥6♥6", (2, 3), True),
    ("副5副5主5主5", "♥5♥5♠5♠5", (12, 13), True),
    ("大王大王小王小王", "大王大王小王小王", (14, 15), True),
    ("AA副5副5", "♠A♠A♦5♦5", (11, 12), True),
    ("主5主5小王小王", "♠5♠5 小王小王", (13, 14), True),
    ("5566", "♥5♥5♥6♥6", None, False),
    ("two 副5 pairs", "♥5♥5♣5♣5", (12, 12), False),
]


@pytest.mark.parametrize("seed, cards, rungs, tractor", SECTION3, ids=[r[0] for r in SECTION3])
def test_section3_tractor_table(seed, cards, rungs, tractor):
    assert is_tractor(cards, L5S) is tractor
    if rungs is not None:
        assert sorted({L5S.rung[f] for f in P(cards)}) == sorted(set(rungs))


def test_section3_non_tractors_split_into_pairs():
    assert shape("♥5♥5♥6♥6", L5S) == [("pair", 1, 12), ("pair", 1, 3)]
    assert shape("♥5♥5♣5♣5", L5S) == [("pair", 1, 12), ("pair", 1, 12)]
    assert shape("♥5♣5", L5S) == [("single", 0, 12), ("single", 0, 12)]  # equal, not a pair
    assert shape("大王小王", L5S) == [("single", 0, 15), ("single", 0, 14)]


def test_level_ace_king_and_off_ace_is_a_tractor_and_no_wraparound():
    assert is_tractor("♠K♠K ♥A♥A", context(14, S))
    assert is_tractor("♠K♠K ♦A♦A", context(14, S))
    for level in (5, 10, 13):
        assert not is_tractor("♣A♣A♣2♣2", context(level, S))
        assert not is_tractor("♠A♠A♠2♠2", context(level, S))
    assert is_tractor("♣A♣A♣K♣K", context(2, S))  # A and K still touch when L=2


@pytest.mark.parametrize("preset, tractor", [("zhengzhou", False), ("classic", True)])
def test_no_trump_level_and_small_joker(preset, tractor):
    ctx = context(5, NT, get_rules(preset).nt_level_joker_tractor)
    assert is_tractor("♥5♥5 小王小王", ctx) is tractor
    assert not is_tractor("♥5♥5♣5♣5", ctx)  # one shared rung either way
    assert is_tractor("大王大王小王小王", ctx)


@pytest.mark.parametrize("cards, expected", [
    # longest tractor first; the shared 副5 rung gives its lowest suit (♥) to the tractor
    ("♠A♠A ♥5♥5 ♣5♣5 ♠5♠5", [("tractor", 3, 13, "5♠ 5♠ 5♥ 5♥ A♠ A♠"), ("pair", 1, 12, "5♣ 5♣")]),
    ("♠A♠A ♦5♦5 ♠5♠5 小王小王 ♣5♣5",
     [("tractor", 4, 14, "小王 小王 5♠ 5♠ 5♣ 5♣ A♠ A♠"), ("pair", 1, 12, "5♦ 5♦")]),
    ("♣3♣3♣4♣4♣6♣6 ♣8♣8♣9♣9 ♣J", [("tractor", 3, 3, "6♣ 6♣ 4♣ 4♣ 3♣ 3♣"),
                                 ("tractor", 2, 6, "9♣ 9♣ 8♣ 8♣"), ("single", 0, 8, "J♣")]),
    ("♣2♣2♣3♣3 ♣Q♣Q♣K♣K ♣7♣7", [("tractor", 2, 10, "K♣ K♣ Q♣ Q♣"),
                               ("tractor", 2, 1, "3♣ 3♣ 2♣ 2♣"), ("pair", 1, 4, "7♣ 7♣")]),
])
def test_canonical_decomposition(cards, expected):
    got = [(u.kind, u.pairs, u.top, format_cards(u.cards, L5S)) for u in decompose(cards, L5S)]
    assert got == expected


def test_classify():
    assert classify("♠3♠3♠4♠4", L5S)[0] == "trump"
    assert classify("♥5 大王", L5S)[0] == "trump"
    assert classify("♥6♥6", L5S) == ("h", decompose("♥6♥6", L5S))
    suit, units = classify("♥6 ♣7♣7", L5S)
    assert suit == "mixed" and [u.kind for u in units] == ["single", "pair"]
    with pytest.raises(ValueError):
        classify("", L5S)


cards_st = st.lists(st.sampled_from(range(54)), max_size=25).map(
    lambda fs: tuple(sorted(f for f, n in Counter(fs).items() for _ in range(min(n, 2)))))
ctx_st = st.builds(context, st.integers(2, 14), st.integers(0, 4), st.booleans())


@settings(max_examples=300, deadline=None)
@given(cards_st, ctx_st)
def test_decomposition_properties(cards, ctx):
    units = decompose(cards, ctx)
    assert tuple(sorted(f for u in units for f in u.cards)) == cards  # re-concatenates, no overlap
    pair_units = {}
    for u in units:
        assert len({ctx.esuit[f] for f in u.cards}) == 1
        faces = Counter(u.cards)
        if u.kind == "single":
            assert u.pairs == 0 and len(u.cards) == 1 and u.top == ctx.rung[u.cards[0]]
        else:
            assert set(faces.values()) == {2} and len(faces) == u.pairs  # identical faces
            rungs = sorted(ctx.rung[f] for f in faces)
            assert rungs == list(range(u.top - u.pairs + 1, u.top + 1))  # one per rung
            assert (u.kind == "pair") == (u.pairs == 1)
        if u.kind == "pair":
            pair_units.setdefault(ctx.esuit[u.cards[0]], set()).add(u.top)
    singles = [u.cards[0] for u in units if u.kind == "single"]
    assert len(set(singles)) == len(singles)  # every pair went into a pair or a tractor
    for rungs in pair_units.values():  # leftover pairs never form a tractor
        assert not any(r + 1 in rungs for r in rungs)


# ---- §5.3 following --------------------------------------------------------------------------

LEAD_QQJJ = "♥Q♥Q♥J♥J"
FOLLOWS = [  # L=10 T=♠, lead ♥QQJJ; hand, play, legal
    ("♥3♥3 ♥7♥7 ♥8 ♥K", "♥3♥3♥7♥7", True),
    ("♥3♥3 ♥7♥7 ♥8 ♥K", "♥3♥3♥7 ♥8", False),
    ("♥3♥3 ♥7♥7 ♥8 ♥K", "♥8 ♥K ♥7♥7", False),
    ("♥8♥8♥9♥9♥2", "♥8♥8♥9♥9", True),
    ("♥8♥8♥9♥9♥2", "♥8♥8♥9 ♥2", False),
    ("♥9♥9♥J♥J♥2 ♥3♥3", "♥9♥9♥J♥J", True),  # 9 and J touch at L=10
    ("♥9♥9♥J♥J♥2 ♥3♥3", "♥9♥9♥3♥3", False),
    ("♥A ♥2 ♣3 ♣4 ♦5", "♥A ♥2 ♣3 ♦5", True),
    ("♥A ♥2 ♣3 ♣4 ♦5", "♥A ♣3 ♣4 ♦5", False),
    ("♣3 ♣4 ♠5 ♠5 大王", "♠5♠5 ♣3 大王", True),  # void: trump or discard freely
]


@pytest.mark.parametrize("hand, play, legal", FOLLOWS)
def test_section53_follow_examples(hand, play, legal):
    ok, reason = follow_ok(LEAD_QQJJ, hand, play, L10S, ZHENGZHOU)
    assert ok is legal and (reason == "") is legal


def test_follow_reasons_are_one_line():
    with pytest.raises(ValueError, match="must follow with 2 ♥ pairs"):
        verify_follow(LEAD_QQJJ, "♥3♥3 ♥7♥7 ♥8 ♥K", "♥3♥3♥7 ♥8", L10S)
    with pytest.raises(ValueError, match="must play every ♥ card held"):
        verify_follow(LEAD_QQJJ, "♥A ♥2 ♣3 ♣4 ♦5", "♥A ♣3 ♣4 ♦5", L10S)
    with pytest.raises(ValueError, match="not in the hand"):
        verify_follow(LEAD_QQJJ, "♥A ♥2 ♣3 ♣4 ♦5", "♥A ♥2 ♣3 ♣3", L10S)
    with pytest.raises(ValueError, match="must play 4 cards"):
        verify_follow(LEAD_QQJJ, "♥A ♥2 ♣3 ♣4 ♦5", "♥A ♥2 ♣3", L10S)


def test_follow_pairs_inside_tractors_count():
    # a pair lead must be followed by a pair taken out of a tractor
    assert not follow_ok("♣A♣A", "♣3♣3♣4♣4 ♣9", "♣3 ♣9", L10S)[0]
    assert follow_ok("♣A♣A", "♣3♣3♣4♣4 ♣9", "♣4♣4", L10S)[0]


def test_follow_multi_tractor_lead_uses_disjoint_subtractors():
    lead = "♣3♣3♣4♣4 ♣7♣7♣8♣8"  # two 2-pair tractors, N2 = 4
    # 223344 supplies one 2-pair sub-tractor only (TS = 2); all four pairs must still come
    hand = "♣2♣2♣3♣3♣4♣4 ♣9♣9 ♣K"
    assert follow_ok(lead, hand, "♣2♣2♣3♣3♣4♣4 ♣9♣9", L10S)[0]
    assert not follow_ok(lead, hand, "♣2♣2♣3♣3 ♣9♣9 ♣4 ♣K", L10S)[0]
    # two separate tractors in hand must both be played (TS = 4)
    hand = "♣2♣2♣3♣3 ♣8♣8♣9♣9 ♣A ♣K ♣Q♣Q"
    assert follow_ok(lead, hand, "♣2♣2♣3♣3♣8♣8♣9♣9", L10S)[0]
    assert not follow_ok(lead, hand, "♣2♣2♣3♣3♣Q♣Q♣8♣8", L10S)[0]


@pytest.mark.parametrize("lead, hand, play, legal, ctx", [
    # a longer tractor in hand supplies any 2-pair sub-tractor
    (LEAD_QQJJ, "♥3♥3♥4♥4♥5♥5 ♥9", "♥3♥3♥4♥4", True, L10S),
    (LEAD_QQJJ, "♥3♥3♥4♥4♥5♥5 ♥9", "♥4♥4♥5♥5", True, L10S),
    (LEAD_QQJJ, "♥3♥3♥4♥4♥5♥5 ♥9", "♥3♥3♥5♥5", False, L10S),
    # 主 tractors across the ladder: A, 副级, 主级
    ("♠3♠3♠4♠4", "♠A♠A ♦5♦5 ♠7 ♠8", "♠A♠A♦5♦5", True, L5S),
    ("♠3♠3♠4♠4", "♠A♠A ♦5♦5 ♠7 ♠8", "♠A♠A♠7♠8", False, L5S),
    ("♠3♠3♠4♠4", "♥5♥5 ♣5♣5 ♠7 ♠8", "♥5♥5 ♣5♣5", True, L5S),  # two pairs, no tractor
    ("♠3♠3♠4♠4", "♥5♥5 ♣5♣5 ♠7 ♠8", "♥5♥5 ♠7 ♠8", False, L5S),
    # a trump lead is followed with trumps; level cards and jokers are trumps
    ("♠3", "♥5 ♥A", "♥5", True, L5S),
    ("♠3", "♥5 ♥A", "♥A", False, L5S),
    ("大王", "小王 ♠2 ♥A", "♠2", True, L5S),
    ("♥A", "小王 ♥5 ♥K", "♥K", True, L5S),  # ♥5 is 主 at level 5
])
def test_follow_situations(lead, hand, play, legal, ctx):
    assert follow_ok(lead, hand, play, ctx)[0] is legal


@pytest.mark.parametrize("throw, holding, stands, forced", [
    ("♠5 ♥5", "♣5 ♦5 ♠A", True, None),  # an equal 副级 is not higher
    ("♠5 ♥5", "小王", False, "♥5"),
    ("♠A ♠K", "♥5", False, "♠K"),  # a 副级 single beats trump-suit singles
    ("小王 ♠5♠5", "大王", False, "小王"),
])
def test_trump_throws_with_level_cards(throw, holding, stands, forced):
    got = check_throw(throw, [holding, "", ""], L5S, ZHENGZHOU)
    assert got == (stands, P(forced) if forced else P(throw))


def structure_brute(cards, lead, ctx):
    """Independent TS/PS: try every set of disjoint sub-tractors by enumerating pair faces."""
    units = decompose(lead, ctx)
    ks = [u.pairs for u in units if u.pairs >= 2]
    n2 = sum(u.pairs for u in units)
    pairs = pair_faces(cards)
    cands = [()]
    for size in range(2, max(ks, default=0) + 1):
        for combo in itertools.combinations(pairs, size):
            rungs = sorted(ctx.rung[f] for f in combo)
            if rungs == list(range(rungs[0], rungs[0] + size)):
                cands.append(combo)
    best = 0

    def go(i, used, total):
        nonlocal best
        best = max(best, total)
        if i == len(ks):
            return
        for c in cands:
            if len(c) <= ks[i] and not used & set(c):
                go(i + 1, used | set(c), total + len(c))

    go(0, set(), 0)
    return best, min(n2, len(pairs))


def sub_multisets(hand, n):
    return sorted(set(itertools.combinations(hand, n)))


LEADS = ["♣9", "♣9♣9", "♣3♣3♣4♣4", "♣3♣3♣4♣4♣5♣5", "♣9♣9 ♣J", "♣3♣3♣4♣4 ♣9♣9",
         "♣3♣3♣4♣4 ♣7♣7♣8♣8", "♠3♠3♠4♠4", "♠3 ♠4", "♠A♠A 小王小王"]


@pytest.mark.parametrize("lead", LEADS)
def test_follow_exhaustive_small_hands(lead):
    """Every hand has a legal follow; legal_follow is one; short suits must be played out;
    the oracle agrees with an independent brute force of TS and PS."""
    rng = random.Random(hash(lead) & 0xFFFF)
    ctx = context(10, S)
    pool = [f for f in DECK if ctx.esuit[f] in (C, TRUMP) and ctx.rung[f] < 9] + list(
        P("♥2 ♥3 ♦4"))
    n = len(P(lead))
    for _ in range(25):
        hand = tuple(sorted(rng.sample(pool, rng.randint(n, min(n + 5, 10)))))
        hand = tuple(sorted(f for f, k in Counter(hand).items() for _ in range(min(k, 2))))
        if len(hand) < n:
            continue
        es = ctx.esuit[P(lead)[0]]
        held = ctx.suit_cards(hand, es)
        legal = [p for p in sub_multisets(hand, n) if follow_ok(lead, hand, p, ctx)[0]]
        assert legal, format_cards(hand)
        assert legal_follow(lead, hand, ctx) in legal
        if len(held) <= n:  # exactly the plays holding all of H_E are legal
            assert legal == [p for p in sub_multisets(hand, n) if Counter(held) <= Counter(p)]
        else:
            need = structure_brute(held, lead, ctx)
            for p in sub_multisets(hand, n):
                in_suit = ctx.suit_cards(p, es)
                expect = len(in_suit) == n and structure_brute(in_suit, lead, ctx) == need
                assert (p in legal) is expect, (format_cards(hand), format_cards(p))


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1), ctx_st)
def test_legal_follow_always_exists_for_random_deals(seed, ctx):
    rng = random.Random(seed)
    deck = list(DECK)
    rng.shuffle(deck)
    leader, follower = tuple(sorted(deck[:25])), tuple(sorted(deck[25:50]))
    units = decompose(leader, ctx)
    lead = rng.choice(units).cards
    if rng.random() < 0.5:  # sometimes a whole-suit throw
        lead = ctx.suit_cards(leader, ctx.esuit[lead[0]])
    play = legal_follow(lead, follower, ctx)
    verify_follow(lead, follower, play, ctx)
    held = ctx.suit_cards(follower, ctx.esuit[lead[0]])
    if len(held) <= len(lead):
        assert Counter(held) <= Counter(play)


# ---- §5.4–5.5 matching and the trick winner ---------------------------------------------------

SECTION56 = [  # L=10 T=♠, lead in ♣; plays in order; winner under largest_unit
    ("♣A ♣K ♣5♣5♣4♣4", ["♠9♠9♠8♠8 ♠7 ♠2"], 1),
    ("♣A♣A ♣5♣5♣4♣4", ["♠9♠9♠8♠8♠7♠2"], 0),
    ("♣5 ♣4♣4", ["♠9 ♠7♠7", "♠8♠8 ♠4"], 2),
    ("♣5 ♣6 ♣7", ["♠9 ♠7 ♠7", "♠8 ♠8 ♠4"], 1),
]


@pytest.mark.parametrize("lead, plays, winner", SECTION56)
def test_section56_trumping_examples(lead, plays, winner):
    assert trick_winner([lead, *plays], L10S, ZHENGZHOU) == winner


def test_section56_match_and_discard():
    lead = decompose("♣A ♣K ♣5♣5♣4♣4", L10S)
    assert matches(lead, "♠9♠9♠8♠8 ♠7 ♠2", L10S, ZHENGZHOU)
    assert not matches(decompose("♣A♣A ♣5♣5♣4♣4", L10S), "♠9♠9♠8♠8♠7♠2", L10S, ZHENGZHOU)
    assert not matches(lead, "♠9♠9♠8♠8 ♠7 ♥2", L10S, ZHENGZHOU)  # mixed suits: a discard
    assert not matches(lead, "♥9♥9♥8♥8 ♥7 ♥2", L10S, ZHENGZHOU)  # another plain suit


@pytest.mark.parametrize("lead, plays, expected", [
    # all three options agree on the seed's rows except the 盖毙 row under all_units, where
    # the 4 of 884 does not beat the 9 of 977
    ("♣A ♣K ♣5♣5♣4♣4", ["♠9♠9♠8♠8 ♠7 ♠2"], (1, 1, 1)),
    ("♣A♣A ♣5♣5♣4♣4", ["♠9♠9♠8♠8♠7♠2"], (0, 0, 0)),
    ("♣5 ♣4♣4", ["♠9 ♠7♠7", "♠8♠8 ♠4"], (2, 1, 1)),
    ("♣5 ♣6 ♣7", ["♠9 ♠7 ♠7", "♠8 ♠8 ♠4"], (1, 1, 1)),
    # largest unit vs highest card: the higher tractor wins unless only the top card counts
    ("♣5♣5♣4♣4 ♣A", ["♠9♠9♠8♠8 ♠2", "♠3♠3♠4♠4 大王"], (1, 1, 2)),
    # all units: every unit must be higher
    ("♣5♣5♣4♣4 ♣A", ["♠3♠3♠4♠4 ♠2", "♠9♠9♠8♠8 ♠6"], (2, 2, 2)),
    ("♣5♣5♣4♣4 ♣A", ["♠3♠3♠4♠4 ♠7", "♠9♠9♠8♠8 ♠6"], (2, 1, 2)),
])
def test_trick_compare_options(lead, plays, expected):
    got = tuple(trick_winner([lead, *plays], L10S, ZHENGZHOU.with_(trick_compare=m))
                for m in ("largest_unit", "all_units", "highest_card"))
    assert got == expected


@pytest.mark.parametrize("lead, ruff, match, count", [
    # a 3-pair tractor led: 2-pair tractor + pair counts but does not match (R20)
    ("♣3♣3♣4♣4♣5♣5", "♠9♠9♠8♠8 ♠3♠3", False, True),
    ("♣3♣3♣4♣4♣5♣5", "♠9♠9♠8♠8♠7♠7", True, True),
    # two 2-pair tractors led: a 4-pair tractor splits into both
    ("♣3♣3♣4♣4 ♣8♣8♣9♣9", "♠3♠3♠4♠4♠5♠5♠6♠6", True, True),
    ("♣3♣3♣4♣4 ♣8♣8♣9♣9", "♠3♠3♠4♠4♠5♠5 ♠9♠9", False, False),
    ("♣3♣3♣4♣4 ♣A♣A", "♠3♠3♠4♠4 ♠7 ♠9", False, False),
])
def test_ruff_rule_match_vs_count(lead, ruff, match, count):
    units = decompose(lead, L10S)
    assert matches(units, ruff, L10S, ZHENGZHOU) is match
    assert matches(units, ruff, L10S, ZHENGZHOU.with_(ruff_rule="count")) is count
    assert trick_winner([lead, ruff], L10S, ZHENGZHOU) == int(match)
    assert trick_winner([lead, ruff], L10S, ZHENGZHOU.with_(ruff_rule="count")) == int(count)


def test_equal_plays_keep_the_earlier_one():
    # R1: an identical copy or another 副级 never beats
    assert trick_winner(["♥5", "♣5", "♦5", "♥5"], L5S, ZHENGZHOU) == 0
    assert trick_winner(["♣3", "♥5", "♣5", "♠5"], L5S, ZHENGZHOU) == 3
    assert trick_winner(["♣3♣3", "♥5♥5", "♦5♦5", "♠A♠A"], L5S, ZHENGZHOU) == 1


def test_first_valid_ruff_beats_plain_and_only_higher_trump_overtakes():
    plays = ["♣A", "♣K", "♠2", "♣A"]
    assert trick_winner(plays, L10S, ZHENGZHOU) == 2
    assert trick_winner(["♣A", "♠2", "♠3", "♠2"], L10S, ZHENGZHOU) == 2
    assert trick_winner(["♣A♣A", "♠2 ♠3", "♥4♥4", "♣K♣K"], L10S, ZHENGZHOU) == 0


def single_winner_brute(plays, ctx):
    """An independent rule for single-card leads: the first card of the best (主, rung)."""
    lead_suit = ctx.esuit[plays[0][0]]

    def key(card):
        es = ctx.esuit[card]
        return (es == TRUMP, ctx.rung[card]) if es in (lead_suit, TRUMP) else (False, -1)
    best = 0
    for i, p in enumerate(plays):
        if key(p[0]) > key(plays[best][0]):
            best = i
    return best


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(range(54)), min_size=4, max_size=4), ctx_st,
       st.sampled_from(["largest_unit", "all_units", "highest_card"]))
def test_single_leads_match_an_independent_rule(cards, ctx, compare):
    plays = [(f,) for f in cards]
    assert trick_winner(plays, ctx, ZHENGZHOU.with_(trick_compare=compare)) == \
        single_winner_brute(plays, ctx)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1), ctx_st)
def test_trick_winner_invariants(seed, ctx):
    """Single-unit leads: the three comparisons agree. Appending an off-suit discard never
    changes the winner. The winner matches the lead."""
    rng = random.Random(seed)
    deck = list(DECK)
    rng.shuffle(deck)
    hands = [tuple(sorted(deck[25 * i:25 * i + 25])) for i in range(4)]
    lead_units = decompose(hands[0], ctx)
    lead = rng.choice(lead_units).cards
    plays = [lead] + [legal_follow(lead, h, ctx) for h in hands[1:]]
    winners = {trick_winner(plays, ctx, ZHENGZHOU.with_(trick_compare=m))
               for m in ("largest_unit", "all_units", "highest_card")}
    assert len(winners) == 1
    w = winners.pop()
    assert w == 0 or matches(decompose(lead, ctx), plays[w], ctx, ZHENGZHOU)
    off = [f for f in deck if ctx.esuit[f] not in (ctx.esuit[lead[0]], TRUMP)]
    if len(off) >= len(lead):
        discard = tuple(sorted(off[:len(lead)]))
        assert trick_winner(plays[:3] + [discard], ctx, ZHENGZHOU) == \
            trick_winner(plays[:3], ctx, ZHENGZHOU)


def test_trick_points():
    assert trick_points([P("♣5 ♣K"), P("♠10 ♠2"), P("♥5 ♥5"), P("大王 小王")]) == 35


# ---- §5.2 throws -----------------------------------------------------------------------------

THROW = "♣9♣8♣8♣4♣4"  # the classic text's 98844


@pytest.mark.parametrize("holder, largest, smallest, first", [
    ("♣J", "♣9", "♣4", "♣9"),
    ("♣Q♣Q", "♣4♣4", "♣4", "♣9"),
    ("♣5♣5", "♣4♣4", "♣4", "♣4♣4"),
])
def test_98844_failed_throw(holder, largest, smallest, first):
    for option, expected in (("largest_failed_shape", largest), ("smallest_card", smallest),
                             ("first_failed_unit", first)):
        rules = ZHENGZHOU.with_(throw_fail_play=option)
        for seat in range(3):  # all three others count by default
            others = ["♣2 ♦3", "♦4", "♥6"]
            others[seat] += " " + holder
            assert check_throw(THROW, others, L10S, rules) == (False, P(expected)), option


def test_98844_stands_and_first_failing_player_decides():
    others = ["♣2♣3 ♣7", "♠A♠A 大王", "♣3♣3 ♣6"]
    assert check_throw(THROW, others, L10S, ZHENGZHOU) == (True, P(THROW))
    others = ["♣J", "♣5♣5", ""]  # the 下家 beats the single, the partner the pair
    assert check_throw(THROW, others, L10S, CLASSIC)[1] == P("♣9")
    assert check_throw(THROW, others, L10S, ZHENGZHOU)[1] == P("♣4♣4")
    others = ["♣5♣5", "♣J", ""]
    assert check_throw(THROW, others, L10S, CLASSIC)[1] == P("♣4♣4")


def test_throw_check_players_opponents_skip_the_partner():
    others = ["♣2", "♣Q♣Q", "♣3"]
    assert check_throw(THROW, others, L10S, ZHENGZHOU)[0] is False
    assert check_throw(THROW, others, L10S, ZHENGZHOU.with_(throw_check_players="opponents")) \
        == (True, P(THROW))
    assert [i for i, _ in throw_failures(THROW, ["♣Q", "", "♣J"], L10S,
                                         ZHENGZHOU.with_(throw_check_players="opponents"))] \
        == [0, 2]


@pytest.mark.parametrize("throw, holding, stands, forced, ctx", [
    ("♣3♣3♣4♣4 ♣A", "♣7♣7♣8♣8", False, "♣3♣3♣4♣4", L10S),
    ("♣3♣3♣4♣4 ♣A", "♣6♣6♣7♣7♣8♣8", False, "♣3♣3♣4♣4", L10S),  # a longer tractor counts
    ("♣3♣3♣4♣4 ♣A", "♣7♣7 ♣9♣9 ♣K", True, None, L10S),  # pairs do not beat a tractor
    ("♣3♣3♣4♣4♣5♣5 ♣A", "♣7♣7♣8♣8", True, None, L10S),  # nor does a shorter tractor
    ("♣A ♣K", "♠2 大王", True, None, L10S),  # trumps never make a throw fail
    ("♠A ♠K", "♠2 大王", False, "♠K", L10S),  # 主 throws are checked against 主
    ("♠5♠5 ♥5♥5", "♣5 ♦5", True, None, L5S),  # 主级 pair and 副级 pair at L=5, T=♠
    ("♥5♥5 ♠A", "♣5♣5", False, "♠A", L5S),  # an equal 副级 pair never beats; a 副级 single beats ♠A
])
def test_throw_check_units(throw, holding, stands, forced, ctx):
    got = check_throw(throw, [holding, "", ""], ctx, ZHENGZHOU)
    assert got == (stands, P(forced) if forced else P(throw))


def test_single_unit_leads_always_stand():
    assert check_throw("♣3♣3♣4♣4", ["♣Q♣Q♣K♣K", "", ""], L10S, ZHENGZHOU) == (True, P("♣3♣3♣4♣4"))


def test_verify_lead_and_whole_suit_throws():
    hand = "♣A ♣K ♣3 ♥2 ♠5"
    verify_lead("♣A ♣K", hand, L10S, ZHENGZHOU)
    whole = ZHENGZHOU.with_(throw_whole_suit_only=True)
    with pytest.raises(ValueError, match="every card held in its suit"):
        verify_lead("♣A ♣K", hand, L10S, whole)
    verify_lead("♣A ♣K ♣3", hand, L10S, whole)
    verify_lead("♣A", hand, L10S, whole)  # a single unit is no throw
    with pytest.raises(ValueError, match="one effective suit"):
        verify_lead("♣A ♥2", hand, L10S, ZHENGZHOU)
    with pytest.raises(ValueError, match="not in the hand"):
        verify_lead("♣Q", hand, L10S, ZHENGZHOU)


# ---- the checks have teeth: a wrong ladder must change the examples' answers ------------------

def wrong_ladder(ctx, fn):
    return dataclasses.replace(ctx, rung=tuple(fn(f, r) for f, r in enumerate(ctx.rung)))


def test_teeth_swapped_level_rungs():
    bad = wrong_ladder(L5S, lambda f, r: {12: 13, 13: 12}.get(r, r) if L5S.esuit[f] == TRUMP
                       else r)
    assert is_tractor("♠A♠A♦5♦5", L5S) and not is_tractor("♠A♠A♦5♦5", bad)
    assert is_tractor("♠5♠5 小王小王", L5S) and not is_tractor("♠5♠5 小王小王", bad)
    assert trick_winner(["♠5", "♥5"], L5S, ZHENGZHOU) == 0
    assert trick_winner(["♠5", "♥5"], bad, ZHENGZHOU) == 1


def test_teeth_level_not_removed():
    def no_removal(ctx):  # rank − 2 for every non-level suit card: a gap where L was
        return wrong_ladder(ctx, lambda f, r: r if f >= 52 or rank_of(f) == ctx.level
                            else rank_of(f) - 2)
    bad5, bad10 = no_removal(L5S), no_removal(L10S)
    assert is_tractor("♥4♥4♥6♥6", L5S) and not is_tractor("♥4♥4♥6♥6", bad5)
    hand, play = "♥9♥9♥J♥J♥2 ♥3♥3", "♥9♥9♥3♥3"
    assert not follow_ok(LEAD_QQJJ, hand, play, L10S)[0]
    assert follow_ok(LEAD_QQJJ, hand, play, bad10)[0]


def test_teeth_nt_flag_changes_the_seed_example():
    zheng, classic = context(5, NT, False), context(5, NT, True)
    lead = "小王小王 ♥5♥5"
    assert check_throw(lead, ["♣5♣5 大王大王", "", ""], zheng, ZHENGZHOU)[0] is False
    assert check_throw(lead, ["♣5♣5 大王大王", "", ""], classic, CLASSIC)[0] is True


def test_random_throw_checks_are_consistent():
    """A throw stands iff no counted player beats any unit; a forced play is one unit of it."""
    rng = random.Random(7)
    for _ in range(300):
        ctx = context(rng.randint(2, 14), rng.randint(0, 4), rng.random() < 0.5)
        deck = list(DECK)
        rng.shuffle(deck)
        hands = [tuple(sorted(deck[25 * i:25 * i + 25])) for i in range(4)]
        es = rng.choice(sorted(ctx.esuits(hands[0])))
        throw = ctx.suit_cards(hands[0], es)
        rules = ZHENGZHOU.with_(throw_fail_play=rng.choice(
            ["largest_failed_shape", "smallest_card", "first_failed_unit"]))
        stands, played = check_throw(throw, hands[1:], ctx, rules)
        if len(decompose(throw, ctx)) == 1:
            assert (stands, played) == (True, throw)
            continue
        assert stands == (not throw_failures(throw, hands[1:], ctx, rules))
        if stands:
            assert played == throw
        else:
            assert Counter(played) <= Counter(throw)
            units = decompose(played, ctx)
            assert len(units) == 1
            if rules.throw_fail_play == "smallest_card":
                assert len(played) == 1
            else:
                assert units[0] in decompose(throw, ctx)
