"""The 双升 heuristic's choices in pinned positions (level 2, trump ♠ unless said): it feeds
points to a partner who wins, ducks when an opponent wins out of reach, wins cheaply, trumps a
trick worth points, throws only what stands by its own count of unknown cards (and counts the
cards played), and declares, rebels and buries by its thresholds. Every play it makes is also
checked against the kernels' follow rules."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from analyzer.shengji.cards import parse_cards
from analyzer.shengji.rules import ZHENGZHOU
from kernels.shengji import heuristic as kh
from kernels.shengji import heuristic_bid as kb
from kernels.shengji import policies as kp
from kernels.shengji.context import new_context
from kernels.shengji.params import param_vector
from kernels.shengji.planes import cards_of, planes_of
from kernels.shengji.play import FOLLOW_OK, follow_error
from kernels.shengji.random_policy import lead_pairs
from kernels.shengji.units import effective_suit, new_units, new_work

PARAMS = param_vector(dataclasses.asdict(ZHENGZHOU))
HP = kp.HEURISTIC_DEFAULTS.copy()
CTX = new_context(0, 2, False)  # trump ♠, level 2


def pl(text):
    return planes_of(parse_cards(text))


def follow(seat, plays_text, hand_text, played=""):
    """The heuristic's follow as the next play after ``plays_text`` ('A | B | …', the lead
    first, by the seats before ``seat``)."""
    groups = [pl(p) for p in plays_text.split("|")]
    plays = np.zeros((4, 2), dtype=np.int64)
    for i, g in enumerate(groups):
        plays[i] = g
    kn = kp.new_knowledge()
    if played:
        kn[kp.KN_PLAYED], kn[kp.KN_PLAYED + 1] = pl(played)
    for g in groups:
        kn[kp.KN_PLAYED], kn[kp.KN_PLAYED + 1] = (kn[kp.KN_PLAYED] | g[0],
                                                  kn[kp.KN_PLAYED + 1] | g[1]
                                                  | (kn[kp.KN_PLAYED] & g[0]))
    units, work = new_units(), new_work()
    e = effective_suit(plays[0, 0], CTX)
    ks = np.zeros(16, dtype=np.int64)
    m, n2 = lead_pairs(plays[0, 0], plays[0, 1], CTX, e, units, ks)
    hand = pl(hand_text)
    o, t = kh.heuristic_follow((seat, HP, kn), (plays, len(groups)), (ks, m, n2), hand[0],
                               hand[1], (CTX, PARAMS), (units, work))
    assert follow_error(groups[0][0], groups[0][1], hand[0], hand[1], o, t, CTX,
                        PARAMS) == FOLLOW_OK
    return sorted(cards_of(o, t))


def lead(hand_text, played="", seat=0):
    kn = kp.new_knowledge()
    if played:
        kn[kp.KN_PLAYED], kn[kp.KN_PLAYED + 1] = pl(played)
    hand = pl(hand_text)
    return sorted(cards_of(*kh.heuristic_lead(seat, hand[0], hand[1], CTX, PARAMS, HP, kn,
                                              new_units())))


def cards(text):
    return sorted(parse_cards(text))


def test_feeds_points_to_a_partner_who_wins_last():
    # seat 3 plays last; its partner (seat 1) wins with ♥A
    assert follow(3, "♥3 | ♥A | ♥4", "♥K ♥6 ♥9 ♣3") == cards("♥K")


def test_feeds_points_when_void_and_the_partner_wins():
    assert follow(3, "♥3 | ♥A | ♥4", "♣K ♣3 ♦6 ♠3") == cards("♣K")


def test_ducks_when_an_opponent_wins_out_of_reach():
    # the leader (an opponent) holds the trick with ♥A: the lowest card that gives no points
    assert follow(3, "♥A | ♥3 | ♥4", "♥K ♥6 ♥9 ♥10") == cards("♥6")


def test_does_not_feed_an_opponent_when_void():
    assert follow(3, "♥A | ♥3 | ♥4", "♣K ♣3 ♦10 ♦4 ♠3") == cards("♣3")


def test_wins_cheaply_in_last_seat():
    assert follow(3, "♥Q | ♥3 | ♥4", "♥K ♥A ♥6") == cards("♥K")


def test_beats_a_pair_with_the_lowest_pair_that_beats_it():
    assert follow(3, "♥9♥9 | ♥3♥4 | ♥5♥6", "♥J♥J ♥A♥A ♥7") == cards("♥J♥J")


def test_trumps_a_trick_worth_points_with_its_lowest_trump():
    assert follow(3, "♥10 | ♥3 | ♥K", "♠4 ♠A 大王 ♣3") == cards("♠4")


def test_over_trumps_cheaply():
    assert follow(3, "♥10 | ♥3 | ♠6", "♠4 ♠9 ♠A ♣3") == cards("♠9")


def test_does_not_trump_an_empty_trick_early():
    # second seat, nothing to win: no trump spent
    assert follow(1, "♥3", "♠4 ♠A ♣3 ♣6") == cards("♣3")


def test_feeds_partner_in_third_seat_only_when_its_card_stands():
    # the partner led ♥Q, but both ♥A are unknown to this seat (it holds both ♥K): the last
    # seat may beat it, so it ducks
    assert follow(2, "♥Q | ♥3", "♥K ♥K ♥6 ♥9") == cards("♥6")
    # with both ♥A played before, the lead stands by count: feed the ♥K
    assert follow(2, "♥Q | ♥3", "♥K ♥K ♥6 ♥9", played="♥A ♥A") == cards("♥K")


def test_throws_only_what_stands_by_its_own_count():
    # the other ♣A is unknown: ♣K does not stand, so no throw; ♣A leads alone
    assert lead("♣A ♣K ♦3 ♦4 ♥7") == cards("♣A")
    # holding both ♣A, the pair and ♣K all stand: one throw
    assert lead("♣A ♣A ♣K ♦3 ♥7") == cards("♣A ♣A ♣K")
    # the other ♣A has been played: ♣A ♣K is thrown
    assert lead("♣A ♣K ♦3 ♦4 ♥7", played="♣A") == cards("♣A ♣K")


def test_leads_low_without_points_when_nothing_stands():
    assert lead("♣Q ♣5 ♣3 ♦4 ♦K ♥9") == cards("♣3")


def test_declares_by_trump_value():
    hand = pl("大王 ♥2 ♥3 ♥4 ♥5 ♥6 ♥7 ♥8 ♥9 ♥10 ♥J ♣3 ♣4 ♣5 ♦3 ♦4 ♦6 ♠3 ♠4 ♠5 ♠6 ♠7 ♠8 "
              "♠9 ♣9")
    dcls, dsuit = np.zeros(10, np.int64), np.zeros(10, np.int64)
    dcls[0], dsuit[0] = 1, 1  # single ♥ (大王 + ♥2)
    # an attacker (seat 1, banker 0) opens with 11 trumps (+ 1 for 2 high cards)
    assert kb.heuristic_declare(hand[0], hand[1], 2, (0, 0, -1), (1, 0, 0, 0), (dcls, dsuit, 1),
                                HP) == 1
    # never over its partner (seat 3's standing declaration)
    assert kb.heuristic_declare(hand[0], hand[1], 2, (1, 2, 3), (1, 0, 0, 0), (dcls, dsuit, 1),
                                HP) == 0
    weak = pl("大王 ♥2 ♣3 ♣4 ♣5 ♦3 ♦4 ♦6 ♠3 ♠4 ♠5 ♠6 ♠7 ♠8 ♠9 ♣9 ♣10 ♣J ♣Q ♦8 ♦9 ♦10 ♦J "
              "♦Q ♦K")
    assert kb.heuristic_declare(weak[0], weak[1], 2, (0, 0, -1), (1, 0, 0, 0), (dcls, dsuit, 1),
                                HP) == 0  # an attacker does not open weak
    assert kb.heuristic_declare(weak[0], weak[1], 2, (0, 0, -1), (2, 0, 0, 0), (dcls, dsuit, 1),
                                HP) == 1  # the banker's partner does


def test_rebels_with_a_weak_hand_only():
    weak = pl("♣3 ♣4 ♣6 ♦3 ♦4 ♦6 ♠3 ♠4 ♠6 ♠7 ♠8 ♠9 ♣9 ♣J ♣Q ♦8 ♦9 ♦J ♦Q ♥3 ♥4 ♥6 ♥7 "
              "♥8 ♥9")
    strong = pl("大王 大王 ♠A ♥A ♣3 ♣4 ♣6 ♦3 ♦4 ♦6 ♠3 ♠4 ♠6 ♠7 ♠8 ♠9 ♣9 ♣J ♣Q ♦8 ♦9 ♦J "
                "♦Q ♥3 ♥4")
    assert kb.heuristic_rebel(weak[0], weak[1], 2, HP)
    assert not kb.heuristic_rebel(strong[0], strong[1], 2, HP)


def test_bury_makes_a_void_and_keeps_points_and_trumps():
    hand = pl("♦3 ♦4 ♦6 ♣6 ♣7 ♣8 ♣9 ♣J ♣Q ♣A ♥3 ♥4 ♥6 ♥7 ♥8 ♥9 ♥J ♥Q ♥A ♥10 ♥K ♣K ♣10 "
              "♠3 ♠4 ♠5 ♠6 ♠7 ♠8 ♠9 大王 小王 ♠A")
    one, two = kb.heuristic_bury(hand[0], hand[1], CTX, HP)
    buried = sorted(cards_of(one, two))
    assert len(buried) == 8
    assert set(cards("♦3 ♦4 ♦6")) <= set(buried)  # the short ♦ suit, buried whole
    assert not any(f in buried for f in cards("♥10 ♥K ♣K ♣10 ♠3 大王 ♠A"))


@pytest.mark.parametrize("seed", range(3))
def test_heuristic_follows_are_legal_in_random_positions(seed):
    """Random deals, leads from one hand, the heuristic's follows from the others: each
    passes the kernels' follow check (the engine replays whole hands elsewhere)."""
    rng = np.random.default_rng(seed)
    deck = np.repeat(np.arange(54), 2)
    units, work = new_units(), new_work()
    for _ in range(300):
        rng.shuffle(deck)
        hands = [planes_of(deck[25 * i:25 * i + 25]) for i in range(4)]
        h0 = hands[0]
        lead_one, lead_two = kh.heuristic_lead(0, h0[0], h0[1], CTX, PARAMS, HP,
                                               kp.new_knowledge(), units)
        plays = np.zeros((4, 2), dtype=np.int64)
        plays[0] = lead_one, lead_two
        e = effective_suit(lead_one, CTX)
        ks = np.zeros(16, dtype=np.int64)
        m, n2 = lead_pairs(lead_one, lead_two, CTX, e, units, ks)
        for k in range(1, 4):
            o, t = kh.heuristic_follow((k, HP, kp.new_knowledge()), (plays, k), (ks, m, n2),
                                       hands[k][0], hands[k][1], (CTX, PARAMS), (units, work))
            assert follow_error(lead_one, lead_two, hands[k][0], hands[k][1], o, t, CTX,
                                PARAMS) == FOLLOW_OK
            plays[k] = o, t
