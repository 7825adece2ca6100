"""双升 cards, notation, the §2 ladder and the rule presets."""

from __future__ import annotations

import dataclasses
import pathlib
import random
from collections import Counter

import pytest

from analyzer.shengji.cards import (
    BIG_JOKER,
    DECK,
    NT,
    SMALL_JOKER,
    TRUMP,
    card_name,
    context,
    context_index,
    context_tables,
    face,
    format_cards,
    parse_cards,
    parse_level,
    parse_trump,
    points,
)
from analyzer.shengji.rules import (
    CLASSIC,
    DEFAULT_RULES,
    PRESETS,
    ZHENGZHOU,
    ShengjiRules,
    get_rules,
)

S, H, C, D = 0, 1, 2, 3


# ---- notation -------------------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("As 10h Td 2c", [(S, 14), (H, 10), (D, 10), (C, 2)]),
    ("5h5h", [(H, 5), (H, 5)]),
    ("5H 5h", [(H, 5), (H, 5)]),
    ("♠K♠K", [(S, 13), (S, 13)]),
    ("K♠ k♠", [(S, 13), (S, 13)]),
    ("10♥ ♥10", [(H, 10), (H, 10)]),
    ("jc, qd、ks", [(C, 11), (D, 12), (S, 13)]),
    ("AsKsQsJsTs9s", [(S, r) for r in (14, 13, 12, 11, 10, 9)]),
])
def test_parse_plain_cards(text, expected):
    assert parse_cards(text) == tuple(sorted(face(s, r) for s, r in expected))


@pytest.mark.parametrize("text, expected", [
    ("大王 小王", (SMALL_JOKER, BIG_JOKER)),
    ("BJ LJ", (SMALL_JOKER, BIG_JOKER)),
    ("bjbj", (BIG_JOKER, BIG_JOKER)),
    ("大王大王小王小王", (SMALL_JOKER, SMALL_JOKER, BIG_JOKER, BIG_JOKER)),
    ("lj5h", (face(H, 5), SMALL_JOKER)),
    ("", ()),
])
def test_parse_jokers(text, expected):
    assert parse_cards(text) == expected


@pytest.mark.parametrize("text, token", [
    ("5h 5h 5h", "three copies of 5♥"),
    ("大王 bj BJ", "three copies of 大王"),
    ("As Zq", "'Zq'"),
    ("1h", "'1h'"),
    ("As 5x", "'5x'"),
    ("11s", "'11s'"),
    ("h5", "'h5'"),  # a suit letter never comes first
])
def test_parse_errors_name_the_bad_token(text, token):
    with pytest.raises(ValueError) as err:
        parse_cards(text)
    message = str(err.value)
    assert token in message and "\n" not in message


def test_format_uses_symbols_and_round_trips():
    assert format_cards(parse_cards("10h As 大王 lj")) == "大王 小王 A♠ 10♥"
    assert card_name(face(H, 10)) == "10♥"
    rng = random.Random(4)
    for _ in range(200):
        cards = tuple(sorted(rng.sample(DECK, rng.randint(0, 30))))
        assert parse_cards(format_cards(cards)) == cards
        ctx = context(rng.randint(2, 14), rng.randint(0, 4))
        assert parse_cards(format_cards(cards, ctx)) == cards


def test_format_with_context_puts_trumps_first_strongest_first():
    ctx = context(5, S)
    assert format_cards(parse_cards("♥A ♠3 ♦5 ♠5 大王 ♣2"), ctx) == "大王 5♠ 5♦ 3♠ A♥ 2♣"


@pytest.mark.parametrize("text, level", [
    ("2", 2), ("9", 9), ("10", 10), ("T", 10), ("t", 10), ("J", 11), ("q", 12), ("K", 13),
    ("A", 14), (5, 5),
])
def test_parse_level(text, level):
    assert parse_level(text) == level


@pytest.mark.parametrize("text", ["1", "11", "B", "", "joker"])
def test_parse_level_rejects(text):
    with pytest.raises(ValueError, match="unknown level"):
        parse_level(text)


@pytest.mark.parametrize("text, trump", [
    ("s", S), ("H", H), ("c", C), ("d", D), ("♠", S), ("♥", H), ("♣", C), ("♦", D),
    ("nt", NT), ("NT", NT), ("無主", NT), ("无主", NT), ("spades", S), (2, C),
])
def test_parse_trump(text, trump):
    assert parse_trump(text) == trump


@pytest.mark.parametrize("text", ["x", "", "joker", 7])
def test_parse_trump_rejects(text):
    with pytest.raises(ValueError, match="unknown trump"):
        parse_trump(text)


def test_deck_and_points():
    assert len(DECK) == 108 and set(Counter(DECK).values()) == {2} and len(set(DECK)) == 54
    assert points(DECK) == 200
    assert points(parse_cards("5s 10h Kc")) == 25
    assert points(parse_cards("大王 小王 As Qs 4d")) == 0


# ---- §2 trumps and the ladder ----------------------------------------------------------------

def test_section2_example_level5_spades():
    """L=5, T=♠: 36 主 cards in the stated order; plain ♥ runs A K … 6 4 3 2."""
    ctx = context(5, S)
    trumps = [f for f in DECK if ctx.esuit[f] == TRUMP]
    assert len(trumps) == 36
    expected_high_to_low = (
        ["大王"], ["小王"], ["5♠"], ["5♥", "5♣", "5♦"],
        *[[f"{r}♠"] for r in ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "4", "3", "2")])
    rungs = [sorted({ctx.rung[parse_cards(n)[0]] for n in names})
             for names in expected_high_to_low]
    assert all(len(r) == 1 for r in rungs)  # the three 副5 are equal in strength
    assert [r[0] for r in rungs] == list(range(15, -1, -1))
    hearts = [parse_cards(f"{r}h")[0] for r in ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "4", "3", "2"]]
    assert all(ctx.esuit[f] == H for f in hearts)
    assert [ctx.rung[f] for f in hearts] == list(range(11, -1, -1))


@pytest.mark.parametrize("flag, level_rung", [(False, 12), (True, 13)])
def test_section2_no_trump(flag, level_rung):
    ctx = context(5, NT, flag)
    trumps = [f for f in DECK if ctx.esuit[f] == TRUMP]
    assert len(trumps) == 12
    assert {ctx.rung[f] for f in trumps if f < 52} == {level_rung}
    assert (ctx.rung[SMALL_JOKER], ctx.rung[BIG_JOKER]) == (14, 15)
    assert ctx.faces_on(TRUMP, 13) == (() if not flag else tuple(face(s, 5) for s in range(4)))


@pytest.mark.parametrize("level", range(2, 15))
@pytest.mark.parametrize("trump", range(5))
@pytest.mark.parametrize("flag", [False, True])
def test_ladder_table_every_context(level, trump, flag):
    ctx = context(level, trump, flag)
    others = [r for r in range(2, 15) if r != level]  # L removed: L-1 and L+1 adjacent
    for s in range(4):
        for r in range(2, 15):
            f = face(s, r)
            if r == level:
                expect = (TRUMP, 13 if (trump == s or (trump == NT and flag)) else 12)
            else:
                expect = (TRUMP if s == trump else s, others.index(r))
            assert (ctx.esuit[f], ctx.rung[f]) == expect, card_name(f)
    assert ctx.esuit[SMALL_JOKER] == ctx.esuit[BIG_JOKER] == TRUMP
    assert (ctx.rung[SMALL_JOKER], ctx.rung[BIG_JOKER]) == (14, 15)
    n_trumps = sum(ctx.esuit[f] == TRUMP for f in range(54))
    assert n_trumps == (6 if trump == NT else 18)


def test_contexts_cached_and_tabled():
    assert context(7, H) is context(7, H, False) is context(7, H, nt_level_joker_tractor=0)
    assert context(7, NT, False) is not context(7, NT, True)
    esuit, rung = context_tables(True)
    assert esuit.shape == rung.shape == (65, 54)
    ctx = context(9, D, True)
    assert tuple(rung[context_index(9, D)]) == ctx.rung
    assert tuple(esuit[context_index(9, D)]) == ctx.esuit
    with pytest.raises(ValueError):
        context(1, S)
    with pytest.raises(ValueError):
        context(5, 6)


# ---- rules as data ---------------------------------------------------------------------------

SECTION9 = ["joker_colour", "joker_pair_may_open", "pair_overcall_by_suit", "suit_rank", "partner_may_overcall", "declare_start", "partner_declarer_becomes_banker", "stepdown_banker", "rebel_enabled", "rebel_scope", "rebel_threshold", "bajiwo_enabled", "bajiwo_reinforce", "nt_level_joker_tractor", "throw_whole_suit_only", "throw_check_players", "throw_fail_play", "throw_fail_penalty_per_card", "follow_rule", "ruff_rule", "trick_compare", "kitty_basis", "kitty_multiplier", "level_step", "turnover_at", "attacker_gain_cap", "must_defend_A"]


def test_every_section9_parameter_is_a_field_with_its_default():
    names = {f.name for f in dataclasses.fields(ShengjiRules)}
    assert set(SECTION9) | {"level_cards_need_joker", "name"} <= names
    z = ZHENGZHOU
    assert (z.joker_colour, z.suit_rank, z.declare_start, z.rebel_scope, z.rebel_threshold,
            z.throw_check_players, z.throw_fail_play, z.ruff_rule, z.trick_compare,
            z.kitty_basis, z.kitty_multiplier, z.level_step, z.turnover_at,
            z.attacker_gain_cap) == (
        "standard", "SHCD", "banker", "player", 15, "all_others", "largest_failed_shape",
        "match", "largest_unit", "winning_play", "pow2_pairs", 40, 80, None)
    assert (z.joker_pair_may_open, z.pair_overcall_by_suit, z.partner_may_overcall,
            z.partner_declarer_becomes_banker, z.rebel_enabled, z.bajiwo_enabled,
            z.bajiwo_reinforce, z.nt_level_joker_tractor, z.throw_whole_suit_only,
            z.must_defend_A, z.level_cards_need_joker) == (
        True, True, True, True, True, True, False, False, False, True, True)


def test_classic_differs_exactly_as_section13():
    diff = {f.name for f in dataclasses.fields(ShengjiRules)
            if getattr(ZHENGZHOU, f.name) != getattr(CLASSIC, f.name)}
    assert diff == {"name", "title", "level_cards_need_joker", "bajiwo_enabled",
                    "rebel_enabled", "nt_level_joker_tractor", "throw_fail_play",
                    "kitty_multiplier", "attacker_gain_cap"}
    assert (CLASSIC.throw_fail_play, CLASSIC.kitty_multiplier, CLASSIC.attacker_gain_cap) == (
        "first_failed_unit", "pow_size", 3)


def test_get_rules():
    assert get_rules() is ZHENGZHOU and DEFAULT_RULES == "zhengzhou"
    assert get_rules(" Classic ") is CLASSIC and set(PRESETS) == {"zhengzhou", "classic"}
    assert get_rules(CLASSIC) is CLASSIC
    with pytest.raises(ValueError, match="unknown 双升 rules 'beijing'"):
        get_rules("beijing")


@pytest.mark.parametrize("change", [
    {"trick_compare": "sum"}, {"ruff_rule": "counting"}, {"suit_rank": "SHDC"},
    {"joker_colour": "red"}, {"throw_fail_play": "all"}, {"kitty_basis": "lead"},
    {"kitty_multiplier": "pow3"}, {"level_step": 0}, {"rebel_threshold": -1},
    {"attacker_gain_cap": -2}, {"bajiwo_enabled": "yes"}, {"declare_start": "dealer"},
])
def test_rules_validate(change):
    with pytest.raises(ValueError):
        ZHENGZHOU.with_(**change)


def test_no_branch_on_a_preset_name():
    root = pathlib.Path(__file__).resolve().parents[2] / "analyzer" / "shengji"
    for path in root.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert ".name ==" not in text and '== "classic"' not in text, path.name
        assert '== "zhengzhou"' not in text, path.name
