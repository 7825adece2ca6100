"""Cards, hands and their notation.

A card is an integer ``0..47``: ``rank_index * 4 + suit_index``. A set of cards is a
bitmask (one bit a card), the same form the kernels use.

Ranks, low to high in the usual order: ``A 2 3 5 6 7 8 9 10 J Q K`` (no 4s). Suits:
``♠ ♥ ♣ ♦`` (letters ``s h c d``); ♠♣ are black, ♥♦ red.

>>> format_cards(parse_cards("9s 9h Kc 10d"))
'9♠ 9♥ 10♦ K♣'
>>> format_cards(parse_cards("ts9H"), ascii=True)
'9h 10s'
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

RANKS = ("A", "2", "3", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUIT_SYMBOLS = ("♠", "♥", "♣", "♦")
SUIT_LETTERS = ("s", "h", "c", "d")
N_RANKS = 12
N_SUITS = 4
N_CARDS = 48
HAND_SIZE = 16
N_SEATS = 3
FULL_DECK = (1 << N_CARDS) - 1

# Rank indices of the cards the rules single out.
ACE, TWO, THREE, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING = range(12)

# Local names (地方叫法) used in docs and reports.
LOCAL_NAMES = {KING: "天", QUEEN: "虎", TWO: "地眼子", SIX: "串串"}

_RANK_OF_TOKEN = {r: i for i, r in enumerate(RANKS)}
_RANK_OF_TOKEN["T"] = TEN
_SUIT_OF_TOKEN = {s: i for i, s in enumerate(SUIT_SYMBOLS)}
_SUIT_OF_TOKEN.update({s: i for i, s in enumerate(SUIT_LETTERS)})
_SUIT_OF_TOKEN.update({"♤": 0, "♡": 1, "♧": 2, "♢": 3})

_CARD_RE = re.compile(r"(10|[AaJjQqKkTt235-9])([♠♥♣♦♤♡♧♢SsHhCcDd])")


def card(rank: int, suit: int) -> int:
    """The card of a rank index and a suit index."""
    return rank * N_SUITS + suit


def rank_of(c: int) -> int:
    """Rank index of a card."""
    return c >> 2


def suit_of(c: int) -> int:
    """Suit index of a card."""
    return c & 3


def is_red(c: int) -> bool:
    """True for ♥ and ♦."""
    return (c & 1) == 1


def bit(c: int) -> int:
    """The one-card mask of a card."""
    return 1 << c


def mask_of(cards: Iterable[int]) -> int:
    """Bitmask of an iterable of cards (duplicates collapse)."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: int) -> list[int]:
    """Cards of a bitmask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def count(mask: int) -> int:
    """Number of cards in a mask."""
    return int(mask).bit_count()


def rank_mask(rank: int) -> int:
    """Mask of the four cards of a rank."""
    return 0xF << (rank * N_SUITS)


def rank_counts(mask: int) -> list[int]:
    """How many cards of each rank a mask holds (length 12)."""
    return [count((mask >> (4 * r)) & 0xF) for r in range(N_RANKS)]


def parse_card(text: str) -> int:
    """Parse one card such as ``9s``, ``10♦``, ``Th``; raise ValueError with the reason."""
    t = text.strip()
    m = _CARD_RE.fullmatch(t)
    if m is None:
        raise ValueError(_why_not_a_card(t))
    return _card_of_match(m)


def _card_of_match(m: re.Match[str]) -> int:
    suit = m.group(2)
    return card(_RANK_OF_TOKEN[m.group(1).upper()],
                _SUIT_OF_TOKEN[suit.lower() if suit.isascii() else suit])


def _why_not_a_card(t: str) -> str:
    if t[:1] == "4":
        return (f"unknown card {t!r}: 掀牛 is played without the fours (no card of rank 4 in "
                f"any suit; ranks A 2 3 5 6 7 8 9 10 J Q K)")
    if t.lower() in ("joker", "jk", "bj", "rj", "大王", "小王") or "王" in t:
        return f"unknown card {t!r}: this game has no jokers"
    return (f"unknown card {t!r} (expected a rank A 2 3 5 6 7 8 9 10 J Q K and a suit ♠♥♣♦ "
            f"or s h c d)")


def parse_cards(text: str) -> list[int]:
    """Parse cards written with or without spaces or commas; reject duplicates.

    Returns the cards in the order written.
    """
    if not isinstance(text, str):
        raise ValueError(f"cards must be given as text, not {type(text).__name__}")
    out: list[int] = []
    seen = 0
    pos = 0
    s = text
    while pos < len(s):
        ch = s[pos]
        if ch.isspace() or ch in ",;[]+":
            pos += 1
            continue
        m = _CARD_RE.match(s, pos)
        if m is None:
            end = pos + 1
            while end < len(s) and not s[end].isspace() and s[end] not in ",;":
                end += 1
            raise ValueError(_why_not_a_card(s[pos:end]))
        c = _card_of_match(m)
        if seen >> c & 1:
            raise ValueError(f"duplicate card {format_card(c)}")
        seen |= 1 << c
        out.append(c)
        pos = m.end()
    return out


def parse_mask(text: str) -> int:
    """Parse cards into a bitmask; reject duplicates and empty input."""
    cards = parse_cards(text)
    if not cards:
        raise ValueError("no cards given")
    return mask_of(cards)


def parse_hand(text: str, size: int = HAND_SIZE) -> int:
    """Parse a hand of exactly ``size`` cards into a bitmask."""
    cards = parse_cards(text)
    if len(cards) != size:
        raise ValueError(f"a hand holds {size} cards, got {len(cards)}")
    return mask_of(cards)


def format_card(c: int, ascii: bool = False) -> str:
    """Print one card: ``9♠`` (or ``9s`` with ``ascii``)."""
    if not 0 <= c < N_CARDS:
        raise ValueError(f"no card has index {c}")
    suits = SUIT_LETTERS if ascii else SUIT_SYMBOLS
    return RANKS[rank_of(c)] + suits[suit_of(c)]


def format_cards(cards: Iterable[int] | int, ascii: bool = False, sep: str = " ") -> str:
    """Print cards (a mask or an iterable) in rank order, suits ♠♥♣♦ within a rank."""
    if isinstance(cards, int):
        return _format_mask(cards, ascii, sep)
    return sep.join(format_card(c, ascii) for c in sorted(cards))


@lru_cache(maxsize=1 << 14)
def _format_mask(mask: int, ascii: bool, sep: str) -> str:
    # memoised: the same masks (a card, a pair, a hand) are printed again and again
    return sep.join(format_card(c, ascii) for c in cards_of(mask))
