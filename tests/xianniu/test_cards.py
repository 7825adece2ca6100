"""Card notation: parsing, printing and their round trip (docs/rules/xianniu.md, "Card notation")."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.xianniu.cards import (
    FULL_DECK,
    N_CARDS,
    RANKS,
    SUIT_LETTERS,
    SUIT_SYMBOLS,
    card,
    cards_of,
    format_card,
    format_cards,
    mask_of,
    parse_card,
    parse_cards,
    parse_hand,
    parse_mask,
)

# Rank indices, written out so the expectations below read without the library's constants.
A, R2, R3, R5, R6, R7, R8, R9, R10, J, Q, K = range(12)
S, H, C, D = range(4)


# --- parsing ---------------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("9s 9h Kc 10d", [card(R9, S), card(R9, H), card(K, C), card(R10, D)]),
    ("Ts", [card(R10, S)]),
    ("tS", [card(R10, S)]),
    ("10s", [card(R10, S)]),
    ("9♠ 9♥", [card(R9, S), card(R9, H)]),
    ("9♠9♥", [card(R9, S), card(R9, H)]),
    ("9s9hKc", [card(R9, S), card(R9, H), card(K, C)]),
    ("9S9HKC", [card(R9, S), card(R9, H), card(K, C)]),
    ("9S 9H KC TD", [card(R9, S), card(R9, H), card(K, C), card(R10, D)]),
    ("ah 2C 3d 5S", [card(A, H), card(R2, C), card(R3, D), card(R5, S)]),
    ("jS qH kC Ad", [card(J, S), card(Q, H), card(K, C), card(A, D)]),
    ("10♦J♣Q♥K♠", [card(R10, D), card(J, C), card(Q, H), card(K, S)]),
    ("6s,7h, 8c ;9d", [card(R6, S), card(R7, H), card(R8, C), card(R9, D)]),
    ("  Kd\t\n", [card(K, D)]),
    ("", []),
])
def test_parse_cards(text, expected):
    # parse_cards keeps the order in which the cards were written.
    assert parse_cards(text) == expected


def test_parse_cards_any_case_same_cards():
    forms = ["9s 9h Kc 10d", "9S 9H KC 10D", "9s9hkc10d", "9♠ 9♥ K♣ 10♦", "9♠9♥K♣T♦", "9S9hKcTd"]
    assert len({tuple(parse_cards(f)) for f in forms}) == 1


def test_parse_card_single():
    assert parse_card("Q♦") == card(Q, D)
    assert parse_card(" td ") == card(R10, D)


def test_parse_mask_and_hand():
    assert parse_mask("9s 9h") == (1 << card(R9, S)) | (1 << card(R9, H))
    hand = ("A♠ A♥ 2♠ 2♥ 3♠ 3♥ 5♠ 5♥ 6♠ 6♥ 7♠ 7♥ 8♠ 8♥ 9♠ 9♥")
    assert bin(parse_hand(hand)).count("1") == 16
    assert parse_hand("As 2s 3s", size=3) == mask_of([card(A, S), card(R2, S), card(R3, S)])


def test_card_index_layout():
    # card index = rank_index * 4 + suit_index; ranks A 2 3 5 6 7 8 9 10 J Q K; suits ♠♥♣♦.
    assert parse_cards("As") == [0]
    assert parse_cards("Ad") == [3]
    assert parse_cards("2s") == [4]
    assert parse_cards("5s") == [12]  # no 4s: 5 is rank index 3
    assert parse_cards("Kd") == [47]


# --- printing --------------------------------------------------------------------------

def test_format_uses_symbols_by_default_in_rank_order():
    assert format_cards(parse_cards("9s 9h Kc 10d")) == "9♠ 9♥ 10♦ K♣"
    assert format_cards(parse_mask("Kc 10d 9h 9s")) == "9♠ 9♥ 10♦ K♣"
    assert format_cards(parse_cards("ts9H"), ascii=True) == "9h 10s"
    assert format_cards(parse_mask("Jd Js Jh Jc")) == "J♠ J♥ J♣ J♦"
    assert format_card(card(R10, C)) == "10♣"
    assert format_card(card(R10, C), ascii=True) == "10c"
    assert format_cards([]) == ""
    assert format_cards(0) == ""


def test_format_full_deck():
    text = format_cards(FULL_DECK)
    assert text.split()[:5] == ["A♠", "A♥", "A♣", "A♦", "2♠"]
    assert text.split()[-1] == "K♦"
    assert len(text.split()) == 48


# --- errors ----------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "4s",            # no 4s in this game
    "4♠",
    "9s 4h",
    "4",
    "Xs",            # unknown rank
    "9x",            # unknown suit
    "1s",
    "11s",
    "9",             # rank without suit
    "joker",
    "Joker",
    "JK",
    "大王",
    "小王",
    "9s 大王",
    "9s9s",          # duplicate
    "9s 9S",
    "9♠ 9s",
    "Ts 10s",
    "9s hello",
])
def test_parse_cards_rejects(text):
    with pytest.raises(ValueError):
        parse_cards(text)


@pytest.mark.parametrize("text", ["4s", "4♦", "joker", "zz", "9"])
def test_parse_card_rejects(text):
    with pytest.raises(ValueError):
        parse_card(text)


def test_error_messages_give_the_reason():
    with pytest.raises(ValueError, match="4"):
        parse_cards("4")
    with pytest.raises(ValueError, match="joker"):
        parse_cards("joker")
    with pytest.raises(ValueError, match="duplicate"):
        parse_cards("9s 9♠")


def test_parse_mask_rejects_empty():
    with pytest.raises(ValueError):
        parse_mask("")
    with pytest.raises(ValueError):
        parse_mask("   ")


@pytest.mark.parametrize("text, size", [
    ("9s 9h Kc", 16),
    ("As 2s 3s", 2),
    ("As 2s 3s", 4),
    ("", 16),
    (" ".join(format_card(c) for c in range(17)), 16),
])
def test_parse_hand_wrong_count(text, size):
    with pytest.raises(ValueError):
        parse_hand(text, size=size)


def test_parse_cards_rejects_non_text():
    with pytest.raises(ValueError):
        parse_cards(12)  # type: ignore[arg-type]


# --- round trip (hypothesis) -----------------------------------------------------------

subsets = st.integers(min_value=0, max_value=FULL_DECK)
separators = st.sampled_from(["", " ", "  ", ",", ", ", "\t", "\n", ";", " , "])


def _random_case(text: str, flips: list[bool]) -> str:
    return "".join(ch.upper() if f else ch.lower() for ch, f in zip(text, flips))


@settings(max_examples=200, deadline=None)
@given(mask=subsets)
def test_round_trip_symbols(mask):
    assert mask_of(parse_cards(format_cards(mask))) == mask
    assert parse_cards(format_cards(mask)) == cards_of(mask)


@settings(max_examples=200, deadline=None)
@given(mask=subsets)
def test_round_trip_ascii(mask):
    assert parse_cards(format_cards(mask, ascii=True)) == cards_of(mask)


@settings(max_examples=200, deadline=None)
@given(data=st.data(), mask=subsets, ascii=st.booleans(), ten_as_t=st.booleans())
def test_round_trip_random_case_spacing_order(data, mask, ascii, ten_as_t):
    cards = data.draw(st.permutations(cards_of(mask)))
    tokens = []
    for c in cards:
        tok = format_card(c, ascii=ascii)
        if ten_as_t and tok.startswith("10"):
            tok = "T" + tok[2:]
        flips = data.draw(st.lists(st.booleans(), min_size=len(tok), max_size=len(tok)))
        tokens.append(_random_case(tok, flips))
    text = data.draw(separators)
    for tok in tokens:
        text += tok + data.draw(separators)
    assert parse_cards(text) == list(cards)
    if cards:
        assert parse_mask(text) == mask
        assert parse_hand(text, size=len(cards)) == mask
    # Printing does not depend on the order or form the cards were written in.
    assert format_cards(parse_cards(text)) == format_cards(mask)


@settings(max_examples=100, deadline=None)
@given(mask=subsets, sep=st.sampled_from([" ", ",", ""]))
def test_format_sep_round_trip(mask, sep):
    assert mask_of(parse_cards(format_cards(mask, sep=sep))) == mask


def test_every_card_round_trips():
    for c in range(N_CARDS):
        for ascii in (False, True):
            assert parse_card(format_card(c, ascii=ascii)) == c
    assert [format_card(c, ascii=True) for c in range(4)] == [f"A{s}" for s in SUIT_LETTERS]
    assert [format_card(c)[-1] for c in range(4)] == list(SUIT_SYMBOLS)
    assert [format_card(4 * r)[:-1] for r in range(12)] == list(RANKS)
