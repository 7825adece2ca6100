"""The 双升 whole-hand engine (docs/rules/shengji.md §4–6): bidding paths rule by rule, play
and public information, and random whole hands of a rule variant checked for invariants at every
step (the presets' are the contract suite's)."""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest
from contract_shengji import HOOKS

from analyzer.core.game import TERMINAL
from analyzer.shengji.cards import DECK, NT, parse_cards, points, rank_of
from analyzer.shengji.combos import decompose
from analyzer.shengji.engine import (
    FACTS,
    Action,
    Chance,
    new_hand,
    play_only,
    play_random,
    random_action,
)
from analyzer.shengji.rules import CLASSIC, ZHENGZHOU

S, H, C, D = 0, 1, 2, 3
QUIET = ZHENGZHOU.with_(rebel_enabled=False)  # bidding cases without 造反 offers
PASS = Action("pass")


def declare(cards):
    return Action("declare", cards)


def build_deal(fixed=None, kitty=None, level=2, dump=None, pointless=(), seed=0):
    """A deal in which seat s holds ``fixed[s]`` (text) and random fill. With ``dump`` the
    jokers and level-``level`` cards not placed go to the kitty first, then to seat
    ``dump``; ``pointless`` seats get no point cards in their fill."""
    hands = [list(parse_cards((fixed or {}).get(s, ""))) for s in range(4)]
    kit = list(parse_cards(kitty)) if kitty is not None else None
    pool = Counter(DECK) - Counter(f for h in hands for f in h) - Counter(kit or [])
    rest = sorted(pool.elements())
    random.Random(seed).shuffle(rest)

    def special(f):
        return f >= 52 or rank_of(f) == level

    if dump is not None:
        rest.sort(key=lambda f: not special(f))  # stable: the specials first
        if kit is None:
            kit, rest = rest[:8], rest[8:]
        need = 25 - len(hands[dump])
        hands[dump] += rest[:need]
        rest = rest[need:]
    for s in pointless:
        fill = [f for f in rest if not points((f,)) and not (dump is not None and special(f))]
        fill = fill[:25 - len(hands[s])]
        hands[s] += fill
        rest = list((Counter(rest) - Counter(fill)).elements())
        random.Random(seed).shuffle(rest)
    if dump is not None:
        rest.sort(key=special)  # keep what is left of the specials for the kitty
    for s in range(4):
        need = 25 - len(hands[s])
        hands[s] += rest[:need]
        rest = rest[need:]
    kit = kit if kit is not None else rest
    assert all(len(h) == 25 for h in hands) and len(kit) == 8
    return [tuple(sorted(h)) for h in hands], tuple(sorted(kit))


def hand(rules=QUIET, fixed=None, kitty=None, levels=(2, 2), banker=0, dump=3, pointless=(),
         chance=None):
    level = levels[banker % 2] if banker is not None else 2
    hands, kit = build_deal(fixed, kitty, level, dump, pointless)
    return new_hand(rules, levels, banker, hands=hands, kitty=kit,
                    chance=chance or Chance(random.Random(7)))


def run(st, steps):
    """Apply ``(seat, action text or Action)`` steps; declare actions given as card text."""
    for seat, act in steps:
        if isinstance(act, str):
            act = PASS if act == "pass" else Action("rebel") if act == "rebel" else declare(act)
        st.apply(act, seat)
    return st


def finish_bidding(st, rng=None):
    """Bury the lowest cards and pass through 扒鸡窝 until play starts."""
    while st.phase in ("bury", "bajiwo"):
        if st.phase == "bury":
            st.apply(Action("bury", st.hands[st.turn][:8]))
        else:
            st.apply(PASS)
    return st


# -- §4.1 declaring with the joker of the card's colour ---------------------------------------


@pytest.mark.parametrize("shown, rules, ok, fragment", [
    ("大王 2h", QUIET, True, ""),
    ("大王 2d", QUIET, True, ""),
    ("小王 2s", QUIET, True, ""),
    ("小王 2c", QUIET, True, ""),
    ("大王 2s", QUIET, False, "joker of its colour (小王)"),
    ("小王 2h", QUIET, False, "joker of its colour (大王)"),
    ("2h", QUIET, False, "no declaration at level 2"),
    ("大王 2h 2h", QUIET, True, ""),
    ("大王 大王", QUIET, False, "does not hold"),
    ("小王 小王", QUIET, True, ""),
    ("大王 2s", QUIET.with_(joker_colour="swapped"), True, ""),
    ("2s", CLASSIC, True, ""),
    ("2h 2h", CLASSIC, True, ""),
    ("大王 3h", QUIET, False, "no declaration"),
])
def test_declaring_needs_the_joker_of_the_cards_colour(shown, rules, ok, fragment):
    st = hand(rules, fixed={0: "大王 小王 小王 2h 2h 2s 2c 2d 3h"})
    assert st.phase == "declare" and st.current_player() == 0
    assert st.can(declare(shown)) is ok
    if not ok:
        with pytest.raises(ValueError, match=re.escape(fragment)):
            st.verify(declare(shown))


def test_legal_actions_list_every_declaration_pass_first():
    st = hand(fixed={0: "大王 小王 小王 2h 2h 2s 2c 2d"})
    assert [str(a) for a in st.legal_actions()] == [
        "pass", "declare 小王 2♠", "declare 大王 2♥", "declare 小王 2♣", "declare 大王 2♦",
        "declare 大王 2♥ 2♥", "declare 小王 小王"]
    st = hand(CLASSIC.with_(rebel_enabled=False), fixed={0: "大王 小王 小王 2h 2h 2s 2c 2d"})
    assert [str(a) for a in st.legal_actions()] == [
        "pass", "declare 2♠", "declare 2♥", "declare 2♣", "declare 2♦", "declare 2♥ 2♥",
        "declare 小王 小王"]


# -- §4.2 overcalls and 加固, §4.3 turns ------------------------------------------------------

OVERCALL_DEAL = {0: "大王 2h 2h", 1: "小王 2s 2s", 2: "大王 2d 2d 2c", 3: "小王 2c"}
OVERCALL_CASES = [  # steps, error (index, fragment) or None, standing (seat, class, suit)
    ([(0, "大王 2h"), (1, "小王 2s")], (1, "never displaces another single"), None),
    ([(0, "大王 2h"), (1, "小王 2s 2s")], None, (1, 2, S)),
    ([(0, "大王 2h"), (1, "pass"), (2, "pass"), (3, "pass"), (0, "大王 2h 2h")], None, (0, 2, H)),
    ([(0, "大王 2h"), (1, "小王 2s 2s"), (2, "pass"), (3, "pass"), (0, "大王 2h 2h")],
     (4, "pair overcalls a pair only of a lower suit"), None),
    ([(0, "pass"), (1, "小王 2s"), (2, "pass"), (3, "pass"), (0, "pass"), (1, "小王 2s 2s")],
     None, (1, 2, S)),  # 加固 after a full lap
    ([(0, "大王 2h 2h"), (1, "小王 2s 2s")], None, (1, 2, S)),  # ♠ > ♥
    ([(0, "大王 2h 2h"), (1, "pass"), (2, "大王 2d 2d")], (2, "lower suit"), None),
    ([(0, "大王 2h"), (1, "pass"), (2, "大王 2d 2d")], None, (2, 2, D)),  # partner may overcall
    ([(0, "大王 2h"), (1, "pass"), (2, "pass"), (3, "小王 2c")], (3, "never displaces"), None),
    ([(0, "pass"), (1, "pass"), (2, "pass"), (3, "小王 2c"), (0, "pass"), (1, "pass"),
      (2, "pass"), (3, "pass")], None, (3, 1, C)),  # a declaration after three passes
    ([(0, "大王 2h"), (0, "pass")], (1, "not your turn"), None),
]


@pytest.mark.parametrize("steps, error, standing", OVERCALL_CASES)
def test_overcall_order_and_reinforce(steps, error, standing):
    st = hand(fixed=OVERCALL_DEAL, dump=None)
    if error is None:
        run(st, steps)
        d = st.standing
        assert (d.seat, d.cls, d.suit) == standing
        if st.phase != "declare":  # the round ended: T comes from the standing declaration
            assert st.trump == d.suit
        return
    index, fragment = error
    run(st, steps[:index])
    seat, act = steps[index]
    with pytest.raises(ValueError, match=fragment):
        run(st, [(seat, act)])


def test_four_passes_in_a_row_end_the_round():
    st = hand(fixed={0: "大王 2h 2h", 1: "小王 2s 2s"}, dump=None)
    run(st, [(0, "大王 2h"), (1, "pass"), (2, "pass"), (3, "pass")])
    assert st.phase == "declare" and st.current_player() == 0  # the declarer may 加固
    run(st, [(0, "pass")])
    assert (st.phase, st.turn, st.trump, st.banker, st.kitty_taker) == ("bury", 0, H, 0, 0)
    assert len(st.hands[0]) == 33 and st.kitty == ()
    st = hand(fixed={0: "大王 2h 2h", 1: "小王 2s 2s"}, dump=None)
    run(st, [(0, "pass"), (1, "小王 2s"), (2, "pass"), (3, "pass"), (0, "pass")])
    assert st.phase == "declare" and st.turn == 1  # a declaration restarts the count
    st = hand(fixed={0: "大王 2h 2h", 1: "小王 2s 2s"}, dump=None)
    run(st, [(0, "pass"), (1, "pass"), (2, "pass"), (3, "pass")])
    run(st, [(1, "pass"), (2, "pass"), (3, "pass"), (0, "pass")])
    assert st.phase == "bury" and st.banker == 1 and st.standing is None


@pytest.mark.parametrize("start, first", [("banker", 2), ("banker_next", 3)])
def test_declare_start(start, first):
    st = hand(QUIET.with_(declare_start=start), banker=2)
    assert st.current_player() == first
    st = hand(QUIET.with_(declare_start="random"), banker=2,
              chance=Chance(None, start_seats=[1]))
    assert st.current_player() == 1 and st.chance.start_seats == [1]


# -- §4.4 outcomes ------------------------------------------------------------------------


@pytest.mark.parametrize("rules, steps, banker, taker, leader", [
    # the partner declares and the banker made none: the partner banks (R7)
    (QUIET, [(0, "pass"), (1, "pass"), (2, "大王 2d")], 2, 2, 2),
    (QUIET.with_(partner_declarer_becomes_banker=False), [(0, "pass"), (1, "pass"),
                                                          (2, "大王 2d")], 0, 2, 0),
    # the banker declared and the partner overcalled: the banker keeps the kitty
    (QUIET, [(0, "大王 2h"), (1, "pass"), (2, "大王 2d 2d")], 0, 0, 0),
    # a defender's declaration only sets T
    (QUIET, [(0, "pass"), (1, "小王 2s")], 0, 0, 0),
])
def test_who_banks_and_takes_the_kitty(rules, steps, banker, taker, leader):
    st = hand(rules, fixed={0: "大王 2h", 1: "小王 2s", 2: "大王 2d 2d"}, dump=None)
    run(st, steps)
    while st.phase == "declare":
        st.apply(PASS)
    assert (st.banker, st.kitty_taker, st.turn) == (banker, taker, taker)
    finish_bidding(st)
    assert st.phase == "play" and st.current_player() == leader
    assert st.is_attacker((banker + 1) % 4) and not st.is_attacker((banker + 2) % 4)


def test_step_down_then_second_round_at_the_new_bankers_level():
    st = hand(fixed={3: "大王 3h", 2: "大王 7h"}, levels=(3, 7), banker=1, dump=None)
    assert st.level == 7 and st.current_player() == 1
    run(st, [(1, "pass"), (2, "pass"), (3, "pass"), (0, "pass")])
    # 下台: the banker's 下家 banks, at its team's level; the new banker opens round 2
    assert (st.stepped_down, st.banker, st.level, st.round, st.phase, st.turn) == (
        1, 2, 3, 2, "declare", 2)
    assert not st.can(declare("大王 7h"))
    run(st, [(2, "pass"), (3, "大王 3h"), (0, "pass"), (1, "pass"), (2, "pass"), (3, "pass")])
    assert (st.trump, st.banker, st.kitty_taker, st.level) == (H, 2, 2, 3)
    finish_bidding(st)
    assert st.current_player() == 2 and st.ctx.level == 3


@pytest.mark.parametrize("kitty, index, trump", [
    ("大王 3s 4s 6s 7s 8s 9s Js", 7, NT),  # sorted faces: the jokers come last
    ("大王 3s 4s 6s 7s 8s 9s Js", 0, S),
    ("小王 4c 6c 7c 8c 9c Jc Qc", 7, NT),
    ("Qd 4c 6c 7c 8c 9c Jc Qc", 7, D),
])
def test_random_trump_from_the_kitty_after_two_silent_rounds(kitty, index, trump):
    st = hand(kitty=kitty, dump=None, chance=Chance(None, trump_index=index))
    run(st, [(s % 4, "pass") for s in range(4)])
    assert st.banker == 1 and st.round == 2
    run(st, [(s % 4, "pass") for s in range(1, 5)])
    card = parse_cards(kitty)[index]
    assert (st.trump, st.random_trump_card, st.kitty_taker) == (trump, card, 1)
    assert card in st.hands[1]  # the drawn card stays in the kitty the banker takes
    assert all(st.view(s).random_trump_card == card for s in range(4))
    assert st.standing is None


def test_grab_hand_uses_own_team_levels():
    st = hand(fixed={0: "大王 5h 大王 9h", 1: "小王 9s 小王 5s"}, levels=(5, 9), banker=None,
              dump=None)
    assert st.grab and st.current_player() == 0 and st.level is None
    assert st.can(declare("大王 5h")) and not st.can(declare("大王 9h"))
    run(st, [(0, "pass")])
    assert st.can(declare("小王 9s")) and not st.can(declare("小王 5s"))
    run(st, [(1, "小王 9s"), (2, "pass"), (3, "pass"), (0, "pass"), (1, "pass")])
    assert (st.banker, st.level, st.trump, st.kitty_taker) == (1, 9, S, 1)
    finish_bidding(st)
    assert st.current_player() == 1 and st.is_attacker(0)


def test_grab_hand_nobody_declares_priority_seat_banks():
    st = hand(levels=(5, 9), banker=None, dump=None, chance=Chance(None, trump_index=2))
    run(st, [(s, "pass") for s in range(4)])
    assert (st.banker, st.level, st.phase) == (0, 5, "bury")
    assert st.random_trump_card is not None


# -- §4.5 造反 --------------------------------------------------------------------------------


def test_rebel_offer_and_redeal():
    redeal = build_deal(seed=99)
    st = hand(ZHENGZHOU, fixed={3: "Kd Kd 10s 10s"}, pointless=(1,), banker=0, dump=None,
              chance=Chance(None, redeals=[redeal]))
    assert st.phase == "rebel" and st.current_player() == 1
    assert [str(a) for a in st.legal_actions()] == ["pass", "rebel"]
    run(st, [(1, "rebel")])
    assert (st.rebel, st.grab, st.priority, st.banker, st.level) == (1, True, 1, None, None)
    assert st.phase == "declare" and st.current_player() == 1
    assert st.hands == redeal[0] and st.kitty == redeal[1] and len(st.deals) == 2
    assert st.chance.redeals == [(tuple(redeal[0]), redeal[1])]


@pytest.mark.parametrize("rules, fixed, pointless, asked", [
    (ZHENGZHOU, {3: "Kd Kd 10s 10s"}, (1,), [1]),
    (ZHENGZHOU, {}, (1, 3), [1, 3]),  # both qualify: asked from the banker's 下家
    (ZHENGZHOU, {1: "5s 10h", 3: "Kd Kd 10s 10s"}, (1,), []),  # exactly 15 does not qualify
    (ZHENGZHOU, {1: "5s 5h", 3: "Kd Kd 10s 10s"}, (1,), [1]),  # 10 qualifies
    (ZHENGZHOU.with_(rebel_scope="side"), {1: "5s", 3: "5h"}, (1, 3), [1, 3]),
    (ZHENGZHOU.with_(rebel_scope="side"), {1: "5s", 3: "Kd"}, (1, 3), []),
    (ZHENGZHOU.with_(rebel_threshold=30), {1: "Kd 10s", 3: "Kh Kh Ks"}, (1, 3), [1]),
    (ZHENGZHOU.with_(rebel_enabled=False), {}, (1, 3), []),
    (CLASSIC, {}, (1, 3), []),
])
def test_rebel_threshold_scope_and_order(rules, fixed, pointless, asked):
    st = hand(rules, fixed=fixed, pointless=pointless, banker=0, dump=None)
    got = []
    while st.phase == "rebel":
        got.append(st.current_player())
        st.apply(PASS)
    assert got == asked and st.phase == "declare" and st.current_player() == 0


def test_no_rebel_in_a_grab_hand():
    st = hand(ZHENGZHOU, pointless=(1, 3), banker=None, dump=None)
    assert st.phase == "declare"


# -- §4.7 扒鸡窝 ------------------------------------------------------------------------------

BAJIWO_DEAL = {0: "小王 2c", 1: "大王 2h 2h", 3: "小王 2s 2s"}


def test_bajiwo_swaps_the_kitty_and_keeps_banker_level_and_lead():
    st = hand(ZHENGZHOU.with_(rebel_enabled=False), fixed=BAJIWO_DEAL, dump=None)
    run(st, [(0, "小王 2c"), (1, "pass"), (2, "pass"), (3, "pass"), (0, "pass")])
    first_kitty = st.hands[0][-8:]
    st.apply(Action("bury", first_kitty))
    assert st.phase == "bajiwo" and st.current_player() == 1
    assert st.view(0).kitty == first_kitty and st.view(1).kitty is None
    run(st, [(1, "大王 2h 2h")])  # an overcall: seat 1 takes the kitty and buries
    assert (st.phase, st.turn, st.trump, len(st.hands[1])) == ("bury", 1, H, 33)
    assert not st.can(Action("bury", st.hands[1][:7]))
    with pytest.raises(ValueError, match="cannot bury 7 cards: bury exactly 8"):
        st.verify(Action("bury", st.hands[1][:7]))
    second = st.hands[1][:8]
    st.apply(Action("bury", second))
    assert st.current_player() == 2  # from the new burier's 下家
    run(st, [(2, "pass"), (3, "小王 2s 2s")])  # ♠ pair over ♥ pair
    assert st.trump == S and st.phase == "bury" and st.turn == 3
    st.apply(Action("bury", st.hands[3][:8]))
    assert st.current_player() == 0  # the burier is skipped: 0, 1, 2 may still 扒
    run(st, [(0, "pass"), (1, "pass")])
    assert st.phase == "bajiwo"
    run(st, [(2, "pass")])
    assert (st.phase, st.current_player(), st.banker, st.level) == ("play", 0, 0, 2)
    assert [s for s, _, _ in st.kitty_log] == [0, 1, 3]
    assert st.view(1).kitty_seen == ((first_kitty, second),)
    assert st.view(3).kitty == st.kitty and st.view(1).kitty is None
    assert st.view(2).kitty_takers == (0, 1, 3)
    assert [d[2] for d in st.declarations] == ["declare", "bajiwo", "bajiwo"]


@pytest.mark.parametrize("rules, ok", [(QUIET, False),
                                       (QUIET.with_(bajiwo_reinforce=True), True)])
def test_bajiwo_reinforce_only_when_allowed(rules, ok):
    st = hand(rules, fixed={1: "大王 2h 2h"}, dump=None)
    run(st, [(0, "pass"), (1, "大王 2h"), (2, "pass"), (3, "pass"), (0, "pass"), (1, "pass")])
    st.apply(Action("bury", st.hands[0][:8]))
    assert st.current_player() == 1 and st.can(declare("大王 2h 2h")) is ok
    if ok:  # the reinforcer takes the kitty like an overcaller
        run(st, [(1, "大王 2h 2h")])
        assert (st.phase, st.turn, st.standing.cls) == ("bury", 1, 2)
    else:
        with pytest.raises(ValueError, match="no reinforcing"):
            st.verify(declare("大王 2h 2h"))


def test_bajiwo_after_a_random_trump_any_declaration_counts():
    st = hand(QUIET.with_(joker_pair_may_open=False), fixed={2: "大王 2d 小王 小王"}, dump=None,
              chance=Chance(None, trump_index=0))
    run(st, [(s % 4, "pass") for s in (0, 1, 2, 3, 1, 2, 3, 4)])  # 下台, silence again
    st.apply(Action("bury", st.hands[1][:8]))
    assert st.phase == "bajiwo" and st.current_player() == 2 and st.standing is None
    assert st.can(declare("大王 2d")) and st.can(declare("小王 小王"))


def test_classic_has_no_bajiwo_and_no_rebel():
    st = hand(CLASSIC, fixed={0: "2h"}, pointless=(1, 3), dump=None)
    assert st.phase == "declare"
    run(st, [(0, "2h"), (1, "pass"), (2, "pass"), (3, "pass"), (0, "pass")])
    st.apply(Action("bury", st.hands[0][:8]))
    assert st.phase == "play" and st.current_player() == 0


# -- §5 play: throws, follows, voids ---------------------------------------------------------


def play_deal(fixed, level=10, trump=S, banker=0, rules=ZHENGZHOU, seed=3):
    hands, kitty = build_deal(fixed, level=level, seed=seed)
    return play_only(rules, hands, kitty, level, trump, banker)


@pytest.mark.parametrize("rules, thrower, penalty", [
    (ZHENGZHOU, 0, 0),
    (ZHENGZHOU.with_(throw_fail_penalty_per_card=10), 0, 50),  # a banker-side throw: + to P
    (ZHENGZHOU.with_(throw_fail_penalty_per_card=10), 1, -50),  # an attacker's throw: − from P
])
def test_failed_throw_is_revealed_and_the_forced_unit_led(rules, thrower, penalty):
    # the thrower holds every ♣ pair that could beat its 5544 tractor; seat +2 holds ♣A
    fixed = {thrower: "Kc Kc 5c 5c 4c 4c Qc Jc 9c 8c 7c 6c", (thrower + 2) % 4: "Ac"}
    st = play_deal(fixed, banker=thrower, rules=rules)
    if thrower == 1:  # seat 1 leads as if it had won the last trick, seat 0 banking
        st.banker = 0
    attempt = parse_cards("Kc 5c 5c 4c 4c")
    st.apply(Action("play", attempt))
    trick = st.tricks[-1]
    assert trick.failed and trick.attempt == attempt
    assert trick.plays[0] == parse_cards("Kc")  # only the single K fails (R18)
    view = st.view((thrower + 1) % 4)
    assert view.failed_throws == ((thrower, attempt, parse_cards("Kc")),)
    assert Counter(view.known_cards[thrower]) == Counter(parse_cards("5c 5c 4c 4c"))
    assert st.penalties == st.attacker_points == penalty
    assert len(st.hands[thrower]) == 24 and st.current_player() == (thrower + 1) % 4


def test_follow_refusals_name_the_reason():
    st = play_deal({0: "Qh Qh", 1: "8h 8h 3h"}, level=10, trump=S)
    with pytest.raises(ValueError, match="not your turn"):
        st.verify(Action("play", "8h 8h"), seat=1)
    st.apply(Action("play", "Qh Qh"))
    with pytest.raises(ValueError, match=r"seat 1 must follow with 1 ♥ pairs.*holds ♥ .*8♥ 8♥"):
        st.verify(Action("play", parse_cards("8h 3h")))
    with pytest.raises(ValueError, match="seat 1 does not hold Q♥"):
        st.verify(Action("play", "Qh 8h"))
    with pytest.raises(ValueError, match="seat 1 must play 2 cards, not 3"):
        st.verify(Action("play", "8h 8h 3h"))
    assert st.can(Action("play", st.some_follow()))
    st.apply(Action("play", "8h 8h"))
    assert st.hands[1].count(parse_cards("8h")[0]) == 0


def test_a_seat_that_does_not_follow_suit_is_proved_void():
    no_hearts = "2s 3s 4s 5s 6s 7s 8s 9s Js Qs Ks As 2c 3c 4c 5c 6c 7c 8c 9c Jc Qc Kc Ac 2d"
    st = play_deal({0: "Ah", 1: no_hearts}, level=10, trump=S)
    st.apply(Action("play", "Ah"))
    assert not any(st.view(0).voids)
    st.apply(Action("play", "2d"))
    assert st.view(3).voids[1] == {H}


def test_legal_leads_are_units():
    st = play_deal({0: "5c 5c 6c 6c 7c 10s 10s 10h 10h Ks Ks As As"}, level=10, trump=S)
    leads = st.legal_leads()
    assert parse_cards("5c 5c 6c 6c") in leads and parse_cards("7c") in leads
    # 副级 10♥ pair sits on the rung above ♠A: ♠A♠A 10♥10♥ is a tractor, and ♠K♠K♠A♠A 10♥10♥
    assert parse_cards("As As 10h 10h") in leads and parse_cards("Ks Ks As As 10h 10h") in leads
    assert parse_cards("Ks Ks As As 10s 10s") not in leads  # 10♠ is 主级, above the 副级
    for lead in leads:
        assert st.can(Action("play", lead)) and len(decompose(lead, st.ctx)) == 1


def test_view_tracks_shown_cards_and_the_kitty():
    st = hand(fixed={1: "小王 2s 2s"}, dump=None)
    run(st, [(0, "pass"), (1, "小王 2s")])
    shown = parse_cards("小王 2s")
    view = st.view(3)
    assert view.declarations == ((1, shown, "declare"),) and view.standing == (1, shown)
    assert view.known_cards[1] == shown and view.hand == st.hands[3]
    run(st, [(2, "pass"), (3, "pass"), (0, "pass"), (1, "小王 2s 2s")])
    assert st.view(0).known_cards[1] == parse_cards("2s 2s 小王")
    run(st, [(2, "pass"), (3, "pass"), (0, "pass"), (1, "pass")])
    assert st.phase == "bury" and st.kitty_taker == 0
    picked = st.picked_up
    assert st.view(0).kitty == picked and st.view(1).kitty is None
    st.apply(Action("bury", picked))  # burying the kitty as it came is legal
    assert st.view(0).kitty == picked and st.view(0).kitty_seen == ((picked,
                                                                                   picked),)
    assert st.view(2).kitty is None and st.view(2).kitty_takers == (0,)


def test_result_per_team_and_per_seat():
    st = play_random(new_hand(CLASSIC, (4, 6), 1, seed=11), random.Random(11))
    r = st.result
    assert r.team_gains[r.winner_team] == r.gain and r.team_gains[1 - r.winner_team] == 0
    assert st.returns() == tuple(r.team_gains[s % 2] for s in range(4))
    assert r.levels_after[r.winner_team] == min(14, r.levels_before[r.winner_team] + r.gain)


def test_clone_is_deep():
    st = new_hand("zhengzhou", banker=0, seed=4)
    twin = st.clone()
    play_random(twin, random.Random(1))
    assert st.phase != "done" and twin.phase == "done"
    again = st.clone()
    play_random(again, random.Random(1))
    assert again.result == twin.result and again.history == twin.history


# -- random whole hands of a variant: invariants at every step --------------------------------
# The presets' random hands are the contract suite's (tests/core/test_game_contract.py, with
# the invariants of tests/contract_shengji.py); here a variant of other parameters, whose
# 造反 threshold (45) makes 造反 common enough to be reached.

WILD = ZHENGZHOU.with_(rebel_threshold=45, declare_start="random",
                       partner_declarer_becomes_banker=False, bajiwo_reinforce=True,
                       throw_fail_penalty_per_card=10, kitty_basis="lead_shape",
                       attacker_gain_cap=3, suit_rank="DCHS")


def test_random_whole_hands_of_a_variant_keep_the_invariants():
    seen = Counter()
    for seed in range(80):
        levels = ((2, 2), (5, 9), (14, 13), (10, 2))[seed % 4]
        st = new_hand(WILD, levels, None if seed % 5 == 0 else seed % 4, seed=seed)
        rng = random.Random(f"policy {seed}")
        while not st.is_terminal():
            if st.phase in ("rebel", "declare", "bajiwo"):
                acts = st.legal_actions()
                assert acts and all(st.can(a) for a in acts)
            st.apply(random_action(st, rng), st.current_player())
            HOOKS.on_step(st, seen)
            assert len(st.history) <= FACTS.max_length
        HOOKS.on_end(st, seen)
        assert st.current_player() == TERMINAL and st.legal_actions() == []
    for what in ("stepdown", "random trump", "failed throw", "kou di", "bajiwo where played",
                 "rebel"):
        assert seen[what], f"random play never reached {what} ({dict(seen)})"


def test_play_only_random_hands():
    for seed in range(40):
        rng = random.Random(seed)
        deck = list(DECK)
        rng.shuffle(deck)
        hands = [tuple(sorted(deck[25 * s:25 * s + 25])) for s in range(4)]
        level, trump, banker = rng.randint(2, 14), rng.randint(0, 4), rng.randrange(4)
        st = play_only(ZHENGZHOU, hands, deck[100:], level, trump, banker)
        assert st.current_player() == banker and st.view(banker).kitty is not None
        play_random(st, rng)
        assert sum(t.points for t in st.tricks) + points(st.kitty) == 200
        assert st.result.banker == banker


def test_refusals_outside_the_phase():
    st = hand(fixed={0: "大王 2h"})
    with pytest.raises(ValueError, match="seat 0 may declare or pass during declaring, not play"):
        st.verify(Action("play", "大王"))
    with pytest.raises(ValueError, match="unknown action"):
        st.verify(Action("jump"))
    with pytest.raises(ValueError, match="pass takes no cards"):
        st.verify(Action("pass", "大王"))
    run(st, [(0, "大王 2h"), (1, "pass"), (2, "pass"), (3, "pass"), (0, "pass")])
    with pytest.raises(ValueError, match="not listed"):
        st.legal_actions()
    with pytest.raises(ValueError, match="seat 0 must bury 8 cards"):
        st.verify(PASS)
    with pytest.raises(ValueError, match="seat 0 does not hold"):
        st.verify(Action("bury", st.hands[0][:7] + st.hands[1][:1]))
    finish_bidding(st)
    with pytest.raises(ValueError, match="seat 0 must play cards now, not pass"):
        st.verify(PASS)
    first = st.hands[0][0]
    other = next(f for f in st.hands[0] if st.ctx.esuit[f] != st.ctx.esuit[first])
    with pytest.raises(ValueError, match="cannot lead .*: a lead must be one effective suit"):
        st.verify(Action("play", (first, other)))
    play_random(st, random.Random(0))
    with pytest.raises(ValueError, match="the hand is over"):
        st.verify(PASS)
    assert st.returns() == st.clone().returns()
