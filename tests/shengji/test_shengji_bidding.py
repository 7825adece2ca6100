"""双升 declaring, overcalling, 加固 and 造反 eligibility (§4.1–4.2, §4.5, §4.7)."""

from __future__ import annotations

import itertools

import pytest

from analyzer.shengji.bidding import (
    Declaration,
    classify_declaration,
    declarable,
    joker_for_suit,
    overcall_valid,
    qualifies_rebel,
    trump_from_kitty_card,
    verify_overcall,
)
from analyzer.shengji.cards import BIG_JOKER, NT, SMALL_JOKER, parse_cards
from analyzer.shengji.rules import CLASSIC, ZHENGZHOU

S, H, C, D = 0, 1, 2, 3
SWAPPED = ZHENGZHOU.with_(joker_colour="swapped")


@pytest.mark.parametrize("cards, level, rules, expected", [
    # zhengzhou: a level card declares only beside the joker of its colour (大王 ↔ ♥♦)
    ("大王 2h", 2, ZHENGZHOU, (1, H)),
    ("大王 2d", 2, ZHENGZHOU, (1, D)),
    ("小王 2s", 2, ZHENGZHOU, (1, S)),
    ("小王 2c 2c", 2, ZHENGZHOU, (2, C)),
    ("大王 2h 2h", 2, ZHENGZHOU, (2, H)),
    ("大王 2s", 2, ZHENGZHOU, None),
    ("小王 2h 2h", 2, ZHENGZHOU, None),
    ("2h", 2, ZHENGZHOU, None),
    ("2h 2h", 2, ZHENGZHOU, None),
    ("大王 大王 2h", 2, ZHENGZHOU, None),
    ("大王 2h 2d", 2, ZHENGZHOU, None),
    ("大王 3h", 2, ZHENGZHOU, None),
    ("大王 Jh", 11, ZHENGZHOU, (1, H)),
    ("小王 小王", 2, ZHENGZHOU, (3, NT)),
    ("大王 大王", 2, ZHENGZHOU, (4, NT)),
    ("大王 小王", 2, ZHENGZHOU, None),
    ("大王", 2, ZHENGZHOU, None),
    # joker_colour swapped: 大王 goes with ♠♣
    ("大王 2s", 2, SWAPPED, (1, S)),
    ("大王 2h", 2, SWAPPED, None),
    ("小王 2d 2d", 2, SWAPPED, (2, D)),
    # classic: level cards alone; a joker beside them changes nothing
    ("2h", 2, CLASSIC, (1, H)),
    ("2h 2h", 2, CLASSIC, (2, H)),
    ("小王 2h", 2, CLASSIC, (1, H)),
    ("大王 2s 2s", 2, CLASSIC, (2, S)),
    ("2h 2d", 2, CLASSIC, None),
    ("3h", 2, CLASSIC, None),
    ("小王 小王", 2, CLASSIC, (3, NT)),
])
def test_classify_declaration(cards, level, rules, expected):
    got = classify_declaration(cards, level, rules)
    assert (None if got is None else (got.cls, got.suit)) == expected


def test_joker_colour():
    assert [joker_for_suit(s, ZHENGZHOU) for s in range(4)] == [SMALL_JOKER, BIG_JOKER,
                                                                SMALL_JOKER, BIG_JOKER]
    assert [joker_for_suit(s, SWAPPED) for s in range(4)] == [BIG_JOKER, SMALL_JOKER,
                                                              BIG_JOKER, SMALL_JOKER]


def decl(cls, suit, seat=None):
    return Declaration(cls, suit, (), seat)


SINGLE_H, SINGLE_S = decl(1, H), decl(1, S)  # no seats: same_player says who acts
PAIR = {s: decl(2, s) for s in range(4)}
SMALL, BIG = decl(3, NT), decl(4, NT)
BY_SUIT_OFF = ZHENGZHOU.with_(pair_overcall_by_suit=False)
DCHS = ZHENGZHOU.with_(suit_rank="DCHS")

OVERCALLS = [  # standing, new, same player, rules, valid
    (None, SINGLE_H, False, ZHENGZHOU, True),
    (None, PAIR[D], False, ZHENGZHOU, True),
    (None, SMALL, False, ZHENGZHOU, True),
    (None, BIG, False, ZHENGZHOU.with_(joker_pair_may_open=False), False),
    (None, PAIR[D], False, ZHENGZHOU.with_(joker_pair_may_open=False), True),
    (SINGLE_H, SINGLE_S, False, ZHENGZHOU, False),  # singles never displace each other
    (SINGLE_H, PAIR[D], False, ZHENGZHOU, True),  # 對級牌反1個級牌, any suit
    (SINGLE_H, SMALL, False, ZHENGZHOU, True),
    (PAIR[H], PAIR[S], False, ZHENGZHOU, True),  # ♠ > ♥ > ♣ > ♦
    (PAIR[S], PAIR[H], False, ZHENGZHOU, False),
    (PAIR[D], PAIR[C], False, ZHENGZHOU, True),
    (PAIR[H], PAIR[H], False, ZHENGZHOU, False),
    (PAIR[H], PAIR[S], False, DCHS, False),
    (PAIR[S], PAIR[H], False, DCHS, True),
    (PAIR[D], PAIR[S], False, BY_SUIT_OFF, False),
    (PAIR[S], SMALL, False, ZHENGZHOU, True),  # 對小王、對大王可以反對級牌
    (PAIR[S], BIG, False, ZHENGZHOU, True),
    (SMALL, PAIR[S], False, ZHENGZHOU, False),  # a joker + pair cannot overcall 对王
    (BIG, PAIR[S], False, ZHENGZHOU, False),
    (SMALL, BIG, False, ZHENGZHOU, True),  # 對大王可以反對小王
    (BIG, SMALL, False, ZHENGZHOU, False),
    (SMALL, SMALL, False, ZHENGZHOU, False),
    # 加固: only the standing single, only to the pair of its suit
    (SINGLE_H, PAIR[H], True, ZHENGZHOU, True),
    (SINGLE_H, PAIR[S], True, ZHENGZHOU, False),
    (SINGLE_H, SMALL, True, ZHENGZHOU, False),
    (PAIR[H], BIG, True, ZHENGZHOU, False),
    (SINGLE_H, PAIR[H], True, CLASSIC, True),
    (SINGLE_H, SINGLE_S, False, CLASSIC, False),
    (PAIR[H], PAIR[S], False, CLASSIC, True),
    (SMALL, PAIR[S], False, CLASSIC, False),
]


@pytest.mark.parametrize("standing, new, same, rules, valid", OVERCALLS)
def test_overcall_matrix(standing, new, same, rules, valid):
    assert overcall_valid(standing, new, same, rules) is valid
    if not valid:
        with pytest.raises(ValueError) as err:
            verify_overcall(standing, new, same, rules)
        assert err.value.args[0] and "\n" not in err.value.args[0]


def test_overcall_by_seats_partner_and_bajiwo():
    standing = decl(1, H, 0)
    assert overcall_valid(standing, decl(2, D, 2), rules=ZHENGZHOU)
    no_partner = ZHENGZHOU.with_(partner_may_overcall=False)
    assert not overcall_valid(standing, decl(2, D, 2), rules=no_partner)
    assert overcall_valid(standing, decl(2, D, 1), rules=no_partner)
    assert overcall_valid(standing, decl(2, H, 0), rules=ZHENGZHOU)  # equal seats mean 加固
    assert not overcall_valid(standing, decl(2, D, 0), rules=ZHENGZHOU)
    # 扒鸡窝: no 加固 unless bajiwo_reinforce; after a random trump any declaration opens
    assert not overcall_valid(standing, decl(2, H, 0), rules=ZHENGZHOU, bajiwo=True)
    assert overcall_valid(standing, decl(2, H, 0), rules=ZHENGZHOU.with_(bajiwo_reinforce=True),
                          bajiwo=True)
    no_open = ZHENGZHOU.with_(joker_pair_may_open=False)
    assert overcall_valid(None, decl(4, NT, 1), rules=no_open, bajiwo=True)
    with pytest.raises(ValueError, match="no declaration"):
        verify_overcall(standing, None, rules=ZHENGZHOU)


def test_overcall_chain_is_finite():
    """Strict overcalls by other players form a DAG whose longest path is 6 displacements."""
    all_decls = [decl(1, s) for s in range(4)] + [decl(2, s) for s in range(4)] + [SMALL, BIG]
    for rules in (ZHENGZHOU, CLASSIC, DCHS, BY_SUIT_OFF):
        edges = {a: [b for b in all_decls if overcall_valid(a, b, False, rules)]
                 for a in all_decls}

        def longest(d, seen=()):
            assert d not in seen  # no cycle
            return max((1 + longest(e, seen + (d,)) for e in edges[d]), default=0)  # noqa: B023
        expect = 6 if rules.pair_overcall_by_suit else 3
        assert max(longest(d) for d in all_decls) == expect


@pytest.mark.parametrize("hand, rules, expected", [
    ("大王 2h 2h 2s 小王 3c", ZHENGZHOU, [(1, S), (1, H), (2, H)]),
    ("大王 2s 2c", ZHENGZHOU, []),
    ("大王 2s 2c", SWAPPED, [(1, S), (1, C)]),
    ("小王 小王 大王 大王 2d", ZHENGZHOU, [(1, D), (3, NT), (4, NT)]),
    ("2h 2h 2s 小王 小王", CLASSIC, [(1, S), (1, H), (2, H), (3, NT)]),
    ("Ah Kh", ZHENGZHOU, []),
])
def test_declarable(hand, rules, expected):
    got = declarable(hand, 2, rules)
    assert [(d.cls, d.suit) for d in got] == expected
    for d in got:  # every listed declaration is what its cards classify as
        c = classify_declaration(d.cards, 2, rules)
        assert (c.cls, c.suit) == (d.cls, d.suit)


def test_declarable_agrees_with_classify_on_every_small_subset():
    hand = parse_cards("大王 小王 小王 5h 5h 5s 5c 5d 9h")
    for rules in (ZHENGZHOU, CLASSIC, SWAPPED):
        listed = {(d.cls, d.suit) for d in declarable(hand, 5, rules)}
        found = set()
        for n in range(1, 4):
            for sub in set(itertools.combinations(hand, n)):
                c = classify_declaration(sub, 5, rules)
                if c is not None:
                    found.add((c.cls, c.suit))
        assert found == listed


@pytest.mark.parametrize("hand, partner, rules, expected", [
    ("5s 5h As Kd", None, ZHENGZHOU, False),  # 5 + 5 + 10 = 20
    ("5s 5h As 4d", None, ZHENGZHOU, True),  # 10 < 15
    ("5s 10h As", None, ZHENGZHOU, False),  # exactly 15 does not qualify
    ("5s 5h As 4d", None, CLASSIC, False),  # no 造反 in classic
    ("5s 5h", "Kd", ZHENGZHOU.with_(rebel_scope="side"), False),
    ("5s", "4d", ZHENGZHOU.with_(rebel_scope="side"), True),
    ("5s 5h", None, ZHENGZHOU.with_(rebel_threshold=10), False),
])
def test_qualifies_rebel(hand, partner, rules, expected):
    assert qualifies_rebel(hand, rules, partner) is expected


def test_rebel_side_needs_the_partner_and_random_trump():
    with pytest.raises(ValueError, match="partner"):
        qualifies_rebel("5s", ZHENGZHOU.with_(rebel_scope="side"))
    assert trump_from_kitty_card(parse_cards("Qd")[0]) == D
    assert trump_from_kitty_card(SMALL_JOKER) == NT
