"""Combinations (牌型): classification, the beat relation (吃/压) and enumeration.

A play is a set of cards (a bitmask) together with its kind. Every set of cards is at
most one kind, so ``classify`` is a function of the cards and the preset.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import combinations, product

from .cards import (
    ACE,
    EIGHT,
    FIVE,
    KING,
    N_RANKS,
    NINE,
    TEN,
    THREE,
    TWO,
    bit,
    cards_of,
    count,
    format_cards,
    rank_counts,
    rank_mask,
)
from .rules import Rules

SET = "set"  # 单张 / 对子 / 三张 / 亮子: 1-4 cards of one rank
NIU = "niu"  # 牛: 2-3 nines of both colours
XI = "xi"  # 喜: 2-3 fives of both colours
FISH = "fish"  # 鱼: k × (A+2+3)
FISH_LIANG = "fish_liang"  # 鱼亮: AAAA+2+3
BAI = "bai"  # 摆: k × (8+10+K)
BAI_LIANG = "bai_liang"  # 摆亮: KKKK+10+8
K_BAI = "k_bai"  # K-摆: KK+10+8 or KKK+10+8
XI_BAO_LIANG = "xi_bao_liang"  # 喜包亮: a 喜 plus a 亮子 of another rank
LONG_FENG = "long_feng"  # 龙凤: AA+22+33+KK+1010+88 (抢刺 only)
EIGHT_PAIRS = "eight_pairs"  # 八大对: the whole hand in 8 pairs (抢刺 only)

KINDS = (SET, NIU, XI, FISH, FISH_LIANG, BAI, BAI_LIANG, K_BAI, XI_BAO_LIANG, LONG_FENG,
         EIGHT_PAIRS)
QIANGCI_KINDS = (LONG_FENG, EIGHT_PAIRS)
KIND_NAMES_ZH = {SET: "单张/对子/三张/亮子", NIU: "牛", XI: "喜", FISH: "鱼", FISH_LIANG: "鱼亮",
                 BAI: "摆", BAI_LIANG: "摆亮", K_BAI: "K摆", XI_BAO_LIANG: "喜包亮",
                 LONG_FENG: "龙凤", EIGHT_PAIRS: "八大对"}

_BLACK = 0x5  # ♠ and ♣ within a rank's four bits
_RED = 0xA  # ♥ and ♦


@dataclass(frozen=True, order=True)
class Play:
    """A combination: its cards (bitmask), kind, size and comparison keys.

    ``rank`` is the rank index of a set, 牛 or 喜, and the 亮子 rank of a 喜包亮
    (else -1); ``k`` is the number of 鱼 or 摆 units (else 0).
    """

    mask: int
    kind: str
    size: int
    rank: int = -1
    k: int = 0

    def __str__(self) -> str:
        return format_cards(self.mask)

    @property
    def is_liang(self) -> bool:
        """Holds four of a kind and scores as 亮 (亮子, 鱼亮, 摆亮, 喜包亮)."""
        return (self.kind == SET and self.size == 4) or self.kind in (FISH_LIANG, BAI_LIANG,
                                                                      XI_BAO_LIANG)


def _nibble(mask: int, rank: int) -> int:
    return (mask >> (4 * rank)) & 0xF


def _both_colours(nib: int) -> bool:
    return bool(nib & _BLACK) and bool(nib & _RED)


def strength(play: Play, rules: Rules) -> int:
    """A number for display: set strength, 鱼/摆 units, or 喜包亮's 亮子 strength."""
    if play.kind in (SET, NIU, XI):
        return rules.set_strength[min(play.size, 4) - 1][play.rank]
    if play.kind == XI_BAO_LIANG:
        return rules.set_strength[3][play.rank]
    return play.k


def classify(mask: int, rules: Rules) -> Play:
    """The play these cards make under ``rules``; ValueError with the reason if none."""
    play = try_classify(mask, rules)
    if play is None:
        raise ValueError(_why_no_play(mask, rules))
    return play


@lru_cache(maxsize=1 << 18)
def try_classify(mask: int, rules: Rules) -> Play | None:
    """The play these cards make under ``rules``, or None (memoised: plays are immutable)."""
    n = count(mask)
    if n == 0:
        return None
    counts = rank_counts(mask)
    present = [r for r in range(N_RANKS) if counts[r]]
    if len(present) == 1:
        r = present[0]
        if r in (NINE, FIVE) and n in (2, 3) and _both_colours(_nibble(mask, r)):
            return Play(mask, NIU if r == NINE else XI, n, r)
        return Play(mask, SET, n, r)
    sp = set(present)
    if sp == {ACE, TWO, THREE}:
        a, t2, t3 = counts[ACE], counts[TWO], counts[THREE]
        if a == t2 == t3 and a <= rules.fish_max_k:
            return Play(mask, FISH, n, k=a)
        if (a, t2, t3) == (4, 1, 1):
            return Play(mask, FISH_LIANG, n, ACE)
        return None
    if sp == {EIGHT, TEN, KING}:
        e, t, k = counts[EIGHT], counts[TEN], counts[KING]
        if e == t == k and k <= rules.bai_max_k:
            return Play(mask, BAI, n, k=k)
        if (e, t) == (1, 1):
            if k == 4:
                return Play(mask, BAI_LIANG, n, KING)
            if rules.k_bai and k in (2, 3):
                return Play(mask, K_BAI, n, KING)
        return None
    if rules.xi_bao_liang and len(sp) == 2 and FIVE in sp:
        other = (sp - {FIVE}).pop()
        if counts[FIVE] in (2, 3) and _both_colours(_nibble(mask, FIVE)) and counts[other] == 4:
            return Play(mask, XI_BAO_LIANG, n, other)
        return None
    if sp == {ACE, TWO, THREE, EIGHT, TEN, KING} and all(counts[r] == 2 for r in sp):
        return Play(mask, LONG_FENG, n)
    if n == 16 and _is_eight_pairs(mask, counts, rules):
        return Play(mask, EIGHT_PAIRS, n)
    return None


def _is_eight_pairs(mask: int, counts: list[int], rules: Rules) -> bool:
    if any(c % 2 for c in counts):
        return False
    if rules.eight_pairs_by_colour:
        for r in (NINE, FIVE):
            if count(_nibble(mask, r) & _BLACK) % 2:
                return False
    return True


def _why_no_play(mask: int, rules: Rules) -> str:
    if mask == 0:
        return "no cards given"
    cards = format_cards(mask)
    counts = rank_counts(mask)
    sp = {r for r in range(N_RANKS) if counts[r]}
    hint = ""
    if sp == {ACE, TWO, THREE} and len({counts[r] for r in sp}) == 1:
        hint = f": {rules.name} allows at most {rules.fish_max_k} 鱼 (fish) units"
    elif sp == {EIGHT, TEN, KING} and len({counts[r] for r in sp}) == 1:
        hint = f": {rules.name} allows at most {rules.bai_max_k} 摆 (bai) units"
    elif sp == {EIGHT, TEN, KING} and counts[EIGHT] == counts[TEN] == 1 and not rules.k_bai:
        hint = f": K-摆 (KK+10+8) is not a play under {rules.name}"
    elif FIVE in sp and len(sp) == 2 and not rules.xi_bao_liang:
        hint = f": 喜包亮 is not a play under {rules.name}"
    elif count(mask) == 16:
        hint = ": not eight pairs" + (" (the 9s and 5s must pair by colour)"
                                      if rules.eight_pairs_by_colour else "")
    return f"{cards} is not a combination under {rules.name}{hint}"


def beats(top: Play, challenger: Play, rules: Rules) -> bool:
    """May ``challenger`` be played to beat ``top``?"""
    if top.size != challenger.size:
        return False
    ck, tk = challenger.kind, top.kind
    if ck == SET and tk == SET:
        return rules.set_beats_rank(top.size, challenger.rank, top.rank)
    if ck == NIU:
        return tk == SET and top.rank != KING
    if ck == BAI:
        return tk == FISH
    if ck == BAI_LIANG:
        return tk == FISH_LIANG
    if ck == XI_BAO_LIANG and tk == XI_BAO_LIANG:
        return rules.set_beats_rank(4, challenger.rank, top.rank)
    return False


@cache
def _subsets(mask: int, k: int) -> tuple[int, ...]:
    # few distinct arguments (a rank's cards), asked for at every listing: keep them
    return tuple(sum(bit(c) for c in combo) for combo in combinations(cards_of(mask), k))


def plays_in(hand: int, rules: Rules, max_size: int = 16) -> list[Play]:
    """Every ordinary play (not 龙凤/八大对) that ``hand`` holds, at most ``max_size`` cards.

    Distinct card sets are distinct plays; sorted by (size, mask).
    """
    return list(_plays_in(hand, rules, max_size))


@lru_cache(maxsize=1 << 12)
def _plays_in(hand: int, rules: Rules, max_size: int) -> tuple[Play, ...]:
    # memoised: a seat's hand is listed again at its next decisions, and by every check
    out: list[Play] = []

    def add(m: int) -> None:
        if count(m) <= max_size:
            p = try_classify(m, rules)
            if p is not None and p.kind not in QIANGCI_KINDS:
                out.append(p)

    held = [hand & rank_mask(r) for r in range(N_RANKS)]
    for r in range(N_RANKS):
        for size in range(1, count(held[r]) + 1):
            for m in _subsets(held[r], size):
                add(m)
    for (lo, mid, hi), max_k in (((ACE, TWO, THREE), rules.fish_max_k),
                                 ((EIGHT, TEN, KING), rules.bai_max_k)):
        for k in range(1, max_k + 1):
            for a in _subsets(held[lo], k):
                for b in _subsets(held[mid], k):
                    for c in _subsets(held[hi], k):
                        add(a | b | c)
    if count(held[ACE]) == 4:
        for b in _subsets(held[TWO], 1):
            for c in _subsets(held[THREE], 1):
                add(held[ACE] | b | c)
    for size in (2, 3, 4):
        if size < 4 and not rules.k_bai:
            continue
        for kk in _subsets(held[KING], size):
            for t in _subsets(held[TEN], 1):
                for e in _subsets(held[EIGHT], 1):
                    add(kk | t | e)
    if rules.xi_bao_liang:
        for size in (2, 3):
            for x in _subsets(held[FIVE], size):
                if not _both_colours(_nibble(x, FIVE)):
                    continue
                for r in range(N_RANKS):
                    if r != FIVE and count(held[r]) == 4:
                        add(x | held[r])
    out.sort(key=lambda p: (p.size, p.mask))
    return tuple(out)


def answers_to(hand: int, top: Play, rules: Rules) -> list[Play]:
    """Every play in ``hand`` that beats ``top`` (有吃必吃: one of them must be played)."""
    return list(_answers_to(hand, top, rules))


@lru_cache(maxsize=1 << 12)
def _answers_to(hand: int, top: Play, rules: Rules) -> tuple[Play, ...]:
    return tuple(p for p in _plays_in(hand, rules, top.size)
                 if p.size == top.size and beats(top, p, rules))


def qiangci_plays(hand: int, rules: Rules) -> list[Play]:
    """The 抢刺 plays (龙凤, 八大对) this hand holds, sorted by mask."""
    out: list[Play] = []
    lf_ranks = (ACE, TWO, THREE, EIGHT, TEN, KING)
    if all(count(hand & rank_mask(r)) >= 2 for r in lf_ranks):
        for pairs in product(*(_subsets(hand & rank_mask(r), 2) for r in lf_ranks)):
            out.append(Play(sum(pairs), LONG_FENG, 12))
    if count(hand) == 16 and _is_eight_pairs(hand, rank_counts(hand), rules):
        out.append(Play(hand, EIGHT_PAIRS, 16))
    out.sort(key=lambda p: p.mask)
    return out
