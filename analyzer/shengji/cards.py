"""Cards, notation, points and the trump context (docs/rules/shengji.md §1–2).

A face is ``f = 13*suit + (rank - 2)`` with ♠0 ♥1 ♣2 ♦3 and ranks 2..14 (J=11 … A=14);
52 is 小王 and 53 is 大王. The 108-card deck holds two copies of each face. A card multiset
is a sorted ``tuple[int, ...]`` of faces, each at most twice.

Notation: ``As 10h Td 2c ♠K 大王 小王 BJ LJ``, case-insensitive, spaces optional (``5h5h``).
A suit symbol may come before the rank (``♠K♠K``); a suit letter only after it.

>>> parse_cards("As 10h 5h5h BJ")
(12, 16, 16, 21, 53)
>>> format_cards(parse_cards("♠K♠K 小王 10h"))
'小王 K♠ K♠ 10♥'
>>> ctx = context(5, parse_trump("s"))
>>> [ctx.rung[face(s, r)] for s, r in ((SPADES, 5), (HEARTS, 5), (SPADES, 14), (HEARTS, 6))]
[13, 12, 11, 3]
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from operator import eq

import numpy as np

SPADES, HEARTS, CLUBS, DIAMONDS = 0, 1, 2, 3
NT = 4  # trump spec 无主
TRUMP = 4  # effective suit 主
SMALL_JOKER, BIG_JOKER = 52, 53
N_FACES = 54
DECK: tuple[int, ...] = tuple(sorted(list(range(N_FACES)) * 2))

SUIT_SYMBOLS = "♠♥♣♦"
SUIT_LETTERS = "shcd"
ESUIT_NAMES = ("s", "h", "c", "d", "trump")
ESUIT_LABELS = ("♠", "♥", "♣", "♦", "主")
RANK_NAMES = {r: str(r) for r in range(2, 11)} | {11: "J", 12: "Q", 13: "K", 14: "A"}
_RANK_OF = {str(r): r for r in range(2, 11)} | {"t": 10, "j": 11, "q": 12, "k": 13, "a": 14}
_SUIT_OF = {c: i for i, c in enumerate(SUIT_LETTERS)} | {c: i for i, c in enumerate(SUIT_SYMBOLS)}
_TRUMP_OF = _SUIT_OF | {"nt": NT, "無主": NT, "无主": NT, "spades": 0, "hearts": 1,
                        "clubs": 2, "diamonds": 3}

_TOKEN = re.compile(
    r"(?P<big>大王|bj)|(?P<small>小王|lj)"
    r"|(?P<r1>10|[2-9tjqka])(?P<s1>[shcd♠♥♣♦])|(?P<s2>[♠♥♣♦])(?P<r2>10|[2-9tjqka])"
)
_SEP = re.compile(r"[\s,，、;；]+")


def face(suit: int, rank: int) -> int:
    """The face of ``rank`` (2..14) in ``suit`` (0..3)."""
    return 13 * suit + rank - 2


def suit_of(f: int) -> int:
    """Printed suit 0..3 of a face; 4 for a joker."""
    return f // 13 if f < 52 else 4


def rank_of(f: int) -> int:
    """Printed rank 2..14 of a face; 15 小王, 16 大王."""
    return f % 13 + 2 if f < 52 else f - 37


def card_name(f: int) -> str:
    """``10♥``, ``A♠``, ``大王``."""
    if f == BIG_JOKER:
        return "大王"
    if f == SMALL_JOKER:
        return "小王"
    if not 0 <= f < 52:
        raise ValueError(f"no card with face number {f}")
    return RANK_NAMES[rank_of(f)] + SUIT_SYMBOLS[suit_of(f)]


def _token_face(m: re.Match) -> int:
    if m.group("big"):
        return BIG_JOKER
    if m.group("small"):
        return SMALL_JOKER
    if m.group("r1"):
        rank, suit = m.group("r1"), m.group("s1")
    else:
        rank, suit = m.group("r2"), m.group("s2")
    return face(_SUIT_OF[suit], _RANK_OF[rank])


def parse_cards(text: str) -> tuple[int, ...]:
    """The sorted faces written in ``text``; ValueError naming the bad token."""
    faces: list[int] = []
    for chunk in _SEP.split(str(text).strip()):
        low, pos = chunk.lower(), 0
        while pos < len(low):
            m = _TOKEN.match(low, pos)
            if m is None:
                raise ValueError(f"unknown card {chunk[pos:]!r} in {text!r} "
                                 "(write e.g. As 10h Td 5♠ ♠5 大王 小王 BJ LJ)")
            faces.append(_token_face(m))
            pos = m.end()
    return check_cards(faces)


def check_cards(cards) -> tuple[int, ...]:
    """``cards`` as a sorted multiset; ValueError for a bad face or a third copy."""
    out = tuple(sorted(map(int, cards)))
    if out and not (out[0] >= 0 and out[-1] < N_FACES):
        bad = out[0] if out[0] < 0 else out[-1]
        raise ValueError(f"no card with face number {bad}")
    if any(map(eq, out, out[2:])):  # sorted: a third copy sits two places after the first
        f = next(a for a, b in zip(out, out[2:]) if a == b)
        raise ValueError(f"three copies of {card_name(f)} (the two decks hold two)")
    return out


def as_cards(cards) -> tuple[int, ...]:
    """Text or faces as a checked multiset."""
    return parse_cards(cards) if isinstance(cards, str) else check_cards(cards)


def parse_level(text: str | int) -> int:
    """A level rank 2..14 from ``"10"``, ``"T"``, ``"J"``, ``"A"``, ``5``…"""
    key = str(text).strip().lower()
    if key not in _RANK_OF:
        raise ValueError(f"unknown level {text!r} (write 2–10, T, J, Q, K or A)")
    return _RANK_OF[key]


def level_name(level: int | str) -> str:
    """A level as players write it: 2–10, J, Q, K, A.

    >>> level_name(13), level_name("A"), level_name(10)
    ('K', 'A', '10')
    """
    rank = level if isinstance(level, int) else parse_level(level)
    if not 2 <= rank <= 14:
        raise ValueError(f"no level {level!r} (2..14)")
    return {11: "J", 12: "Q", 13: "K", 14: "A"}.get(rank, str(rank))


def parse_trump(text: str | int) -> int:
    """A trump spec 0..3 (♠♥♣♦) or 4 (NT) from ``"s"``, ``"♥"``, ``"nt"``, ``"无主"``…"""
    if isinstance(text, int) and 0 <= text <= 4:
        return text
    key = str(text).strip().lower()
    if key not in _TRUMP_OF:
        raise ValueError(f"unknown trump {text!r} (write s, h, c, d, ♠, ♥, ♣, ♦ or nt)")
    return _TRUMP_OF[key]


def points(cards) -> int:
    """Point cards (分牌): 5 → 5, 10 → 10, K → 10."""
    return sum(_POINTS[f] for f in cards)


_POINTS = tuple({5: 5, 10: 10, 13: 10}.get(rank_of(f), 0) if f < 52 else 0
                for f in range(N_FACES))


@dataclass(frozen=True)
class Context:
    """Per-face effective suit (门) and ladder rung for one level L and trump spec T (§2).

    ``esuit[f]`` is 0..3 for a plain suit, 4 for 主. ``rung[f]`` orders faces inside their
    effective suit and defines tractor adjacency: plain 0..11 (L removed); 主 with T a suit:
    0..11 the T suit, 12 副级, 13 主级, 14 小王, 15 大王; 主 in NT: level on 12 (13 when
    ``nt_level_joker_tractor``), 14 小王, 15 大王.
    """

    level: int
    trump: int
    nt_level_joker_tractor: bool
    esuit: tuple[int, ...]
    rung: tuple[int, ...]

    def is_trump(self, f: int) -> bool:
        return self.esuit[f] == TRUMP

    def suit_cards(self, cards, esuit: int) -> tuple[int, ...]:
        """The cards of effective suit ``esuit``."""
        return tuple(f for f in cards if self.esuit[f] == esuit)

    def esuits(self, cards) -> set[int]:
        return {self.esuit[f] for f in cards}

    def faces_on(self, esuit: int, rung: int) -> tuple[int, ...]:
        """Faces of ``esuit`` on ``rung`` (several on the shared 副级 / NT level rung)."""
        return tuple(f for f in range(N_FACES) if self.esuit[f] == esuit and self.rung[f] == rung)

    def sort_key(self, f: int) -> tuple[int, int, int]:
        """Display order: 主 first, then ♠♥♣♦; strongest first; lower suit first on a tie."""
        es = self.esuit[f]
        return (-1 if es == TRUMP else es, -self.rung[f], f)

    def __repr__(self) -> str:
        t = "NT" if self.trump == NT else SUIT_SYMBOLS[self.trump]
        return f"Context(level={RANK_NAMES[self.level]}, trump={t})"


def _ladder(level: int, trump: int, nt_flag: bool) -> tuple[tuple[int, ...], tuple[int, ...]]:
    esuit, rung = [], []
    for f in range(N_FACES):
        if f >= 52:
            esuit.append(TRUMP)
            rung.append(14 if f == SMALL_JOKER else 15)
            continue
        s, r = suit_of(f), rank_of(f)
        if r == level:
            esuit.append(TRUMP)
            if trump == NT:
                rung.append(13 if nt_flag else 12)
            else:
                rung.append(13 if s == trump else 12)
            continue
        esuit.append(TRUMP if s == trump else s)
        rung.append(r - 2 if r < level else r - 3)  # L is removed: L-1 and L+1 touch
    return tuple(esuit), tuple(rung)


def context(level: int, trump: int, nt_level_joker_tractor: bool = False) -> Context:
    """The cached context for level L (2..14) and trump T (0..3, 4 = NT)."""
    if not (isinstance(level, int) and 2 <= level <= 14):
        raise ValueError(f"level must be 2..14, got {level!r}")
    if trump not in (0, 1, 2, 3, 4):
        raise ValueError(f"trump must be 0..3 or 4 (NT), got {trump!r}")
    return _context(int(level), int(trump), bool(nt_level_joker_tractor))


@cache
def _context(level: int, trump: int, flag: bool) -> Context:
    return Context(level, trump, flag, *_ladder(level, trump, flag))


def context_index(level: int, trump: int) -> int:
    """Row of ``context_tables``: ``trump * 13 + level - 2`` (65 contexts)."""
    return trump * 13 + level - 2


def context_tables(nt_level_joker_tractor: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """``(esuit, rung)`` int8 arrays of shape (65, 54), rows by ``context_index``."""
    esuit = np.zeros((65, N_FACES), dtype=np.int8)
    rung = np.zeros((65, N_FACES), dtype=np.int8)
    for trump in range(5):
        for level in range(2, 15):
            ctx = context(level, trump, nt_level_joker_tractor)
            esuit[context_index(level, trump)] = ctx.esuit
            rung[context_index(level, trump)] = ctx.rung
    esuit.setflags(write=False)
    rung.setflags(write=False)
    return esuit, rung


def format_cards(cards, ctx: Context | None = None) -> str:
    """Cards in a stable display order: with ``ctx`` 主 first; without, jokers then ♠♥♣♦."""
    if ctx is None:
        order = sorted(cards, key=lambda f: (-1, -f) if f >= 52 else (suit_of(f), -f))
    else:
        order = sorted(cards, key=ctx.sort_key)
    return " ".join(card_name(f) for f in order)
