"""Units (牌型), the canonical decomposition, follow duty and format matching (§3, §5.3–5.4).

Card arguments are card multisets (sorted face tuples) or card text; ``ctx`` is a
``cards.Context``. Everything here is exact: the tractor searches enumerate, they do not guess.

>>> from analyzer.shengji.cards import context, format_cards
>>> ctx = context(5, 0)
>>> [(u.kind, u.pairs, format_cards(u.cards)) for u in decompose("♠A♠A ♦5♦5 ♥3", ctx)]
[('tractor', 2, 'A♠ A♠ 5♦ 5♦'), ('single', 0, '3♥')]
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from .cards import ESUIT_LABELS, ESUIT_NAMES, TRUMP, Context, as_cards
from .rules import ShengjiRules

N_RUNGS = 16


@dataclass(frozen=True)
class Unit:
    """One unit: a single (单牌), a pair (对子) or a tractor (拖拉机) of ``pairs`` pairs.

    ``top`` is the highest rung; a tractor spans rungs ``top - pairs + 1 .. top``.
    """

    kind: str
    pairs: int
    top: int
    cards: tuple[int, ...]

    @property
    def size(self) -> int:
        return len(self.cards)


def _unit(pairs: int, top: int, cards) -> Unit:
    kind = "single" if pairs == 0 else "pair" if pairs == 1 else "tractor"
    return Unit(kind, pairs, top, tuple(sorted(cards)))


def _canonical_order(u: Unit):
    return (-u.pairs, -u.top, u.cards)


def pair_faces(cards) -> list[int]:
    """Faces held twice (identical copies only: ♥5♣5 is no pair)."""
    s = sorted(cards)
    return [a for a, b in zip(s, s[1:]) if a == b]  # at most two copies: each pair once


def pair_ladder(cards, ctx: Context) -> tuple[int, ...]:
    """Number of pairs on each of the 16 rungs (cards of one effective suit)."""
    counts = [0] * N_RUNGS
    for f in pair_faces(cards):
        counts[ctx.rung[f]] += 1
    return tuple(counts)


def _decompose_suit(cards, ctx: Context) -> list[Unit]:
    by_rung: dict[int, list[int]] = {}
    for f in pair_faces(cards):  # ascending faces: lowest suit index first on a shared rung
        by_rung.setdefault(ctx.rung[f], []).append(f)
    units: list[Unit] = []
    while True:
        best = (1, -1)  # (length, top) of the longest, then highest, run of pair rungs
        run = 0
        for r in range(N_RUNGS):
            run = run + 1 if by_rung.get(r) else 0
            if run >= 2 and (run, r) > best:
                best = (run, r)
        length, top = best
        if length < 2:
            break
        faces = [by_rung[r].pop(0) for r in range(top - length + 1, top + 1)]
        units.append(_unit(length, top, faces * 2))
    used = Counter(f for u in units for f in u.cards)
    for r, faces in by_rung.items():
        for f in faces:
            units.append(_unit(1, r, (f, f)))
            used[f] += 2
    rest = Counter(cards) - used
    units.extend(_unit(0, ctx.rung[f], (f,)) for f in rest.elements())
    return sorted(units, key=_canonical_order)


def decompose(cards, ctx: Context) -> list[Unit]:
    """The canonical decomposition (§3): longest tractor first (ties: highest), pairs, singles.

    Cards spanning several effective suits are decomposed suit by suit, 主 first, then ♠♥♣♦.
    """
    cards = as_cards(cards)
    units: list[Unit] = []
    for es in (TRUMP, 0, 1, 2, 3):
        part = ctx.suit_cards(cards, es)
        if part:
            units.extend(_decompose_suit(part, ctx))
    return units


def effective_suit(cards, ctx: Context) -> int | None:
    """The one effective suit of ``cards`` (0..3, 4 = 主), or None when they span several."""
    suits = ctx.esuits(cards)
    return next(iter(suits)) if len(suits) == 1 else None


def classify(cards, ctx: Context) -> tuple[str, list[Unit]]:
    """``(suit, units)``: suit "s"/"h"/"c"/"d"/"trump", or "mixed" with per-suit units."""
    cards = as_cards(cards)
    if not cards:
        raise ValueError("no cards to classify")
    es = effective_suit(cards, ctx)
    return ("mixed" if es is None else ESUIT_NAMES[es]), decompose(cards, ctx)


def lead_format(lead_units: list[Unit]) -> tuple[tuple[int, ...], int, int]:
    """``(tractor lengths, longest first; pairs; singles)`` of a lead's units (its shape F)."""
    ks = tuple(sorted((u.pairs for u in lead_units if u.pairs >= 2), reverse=True))
    n_pairs = sum(1 for u in lead_units if u.pairs == 1)
    n_singles = sum(1 for u in lead_units if u.pairs == 0)
    return ks, n_pairs, n_singles


def run_tops(counts: tuple[int, ...], length: int):
    """Tops of the ``length``-rung windows with a pair on every rung, highest first."""
    for top in range(N_RUNGS - 1, length - 2, -1):
        if all(counts[top - j] for j in range(length)):
            yield top


def _take(counts: tuple[int, ...], length: int, top: int) -> tuple[int, ...]:
    c = list(counts)
    for j in range(length):
        c[top - j] -= 1
    return tuple(c)


@lru_cache(maxsize=1 << 16)
def _coverage(counts: tuple[int, ...], ks: tuple[int, ...]) -> tuple[int, tuple]:
    """TS: the most pairs in disjoint sub-tractors, one per lead tractor, each of 0 or 2..k
    pairs; returns ``(total, ((length, top), …))``."""
    if not ks or sum(counts) < 2:
        return 0, ()
    target = sum(ks)
    best = _coverage(counts, ks[1:])
    for length in range(ks[0], 1, -1):
        for top in run_tops(counts, length):
            total, rest = _coverage(_take(counts, length, top), ks[1:])
            if total + length > best[0]:
                best = (total + length, ((length, top),) + rest)
                if best[0] == target:
                    return best
    return best


def tractor_coverage(cards, lead_units: list[Unit], ctx: Context) -> int:
    """TS(X) of §5.3 for cards X of one suit against the lead's tractors."""
    ks, _, _ = lead_format(lead_units)
    return _coverage(pair_ladder(cards, ctx), ks)[0]


def pair_score(cards, lead_units: list[Unit]) -> int:
    """PS(X) of §5.3: min(N2, pairs in X), tractor pairs counted on both sides."""
    n2 = sum(u.pairs for u in lead_units)
    return min(n2, len(pair_faces(cards)))


def _lead_suit(lead, ctx: Context) -> int:
    es = effective_suit(lead, ctx)
    if es is None:
        raise ValueError("the lead mixes effective suits")
    return es


def _sub_multiset(part, whole) -> bool:
    return all(part.count(f) <= whole.count(f) for f in set(part))


def verify_follow(lead, hand, play, ctx: Context, rules: ShengjiRules | None = None) -> None:
    """Raise ValueError with a reason unless ``play`` (from ``hand``) follows ``lead`` (§5.3).

    ``lead`` is the trick's format: after a failed throw, the forced unit.
    """
    lead, hand, play = as_cards(lead), as_cards(hand), as_cards(play)
    es = _lead_suit(lead, ctx)
    n = len(lead)
    if len(play) != n:
        raise ValueError(f"must play {n} cards, not {len(play)}")
    if not _sub_multiset(play, hand):
        raise ValueError("the play holds cards that are not in the hand")
    suit = ESUIT_LABELS[es]
    held = ctx.suit_cards(hand, es)
    played = ctx.suit_cards(play, es)
    if len(held) <= n:
        if len(played) != len(held):
            raise ValueError(f"must play every {suit} card held ({len(held)}), played "
                             f"{len(played)}")
        return
    if len(played) != n:
        raise ValueError(f"must play {n} {suit} cards (holds {len(held)}), played {len(played)}")
    units = decompose(lead, ctx)
    need, got = tractor_coverage(held, units, ctx), tractor_coverage(play, units, ctx)
    if got < need:
        raise ValueError(f"must follow with tractors covering {need} pairs, the play covers {got}")
    need, got = pair_score(held, units), pair_score(play, units)
    if got < need:
        raise ValueError(f"must follow with {need} {suit} pairs (tractor pairs count), "
                         f"the play has {got}")


def follow_ok(lead, hand, play, ctx: Context, rules: ShengjiRules | None = None
              ) -> tuple[bool, str]:
    """``(True, "")`` if the follow is legal, else ``(False, reason)``."""
    try:
        verify_follow(lead, hand, play, ctx, rules)
    except ValueError as e:
        return False, str(e)
    return True, ""


def legal_follow(lead, hand, ctx: Context, rules: ShengjiRules | None = None
                 ) -> tuple[int, ...]:
    """One legal follow: the forced structure (lowest pairs when free), then the cheapest
    cards, plain before 主."""
    lead, hand = as_cards(lead), as_cards(hand)
    es, n = _lead_suit(lead, ctx), len(lead)
    held = ctx.suit_cards(hand, es)

    def low(f):  # cheapest first: keep trumps, then the lowest rung
        return (ctx.esuit[f] == TRUMP, ctx.rung[f], f)

    if len(held) <= n:
        rest = Counter(hand) - Counter(held)
        return tuple(sorted(held + tuple(sorted(rest.elements(), key=low)[: n - len(held)])))
    units = decompose(lead, ctx)
    ks, _, _ = lead_format(units)
    by_rung: dict[int, list[int]] = {}
    for f in pair_faces(held):
        by_rung.setdefault(ctx.rung[f], []).append(f)
    chosen: list[int] = []
    for length, top in _coverage(pair_ladder(held, ctx), ks)[1]:
        chosen += [by_rung[r].pop() for r in range(top - length + 1, top + 1)]
    spare = sorted((f for fs in by_rung.values() for f in fs), key=low)
    chosen += spare[: pair_score(held, units) - len(chosen)]
    play = chosen * 2
    free = sorted((Counter(held) - Counter(play)).elements(), key=low)
    return tuple(sorted(play + free[: n - len(play)]))


def best_split(play, lead_units: list[Unit], ctx: Context, rules: ShengjiRules):
    """The split of ``play`` (one effective suit) that covers the lead's shape F and is best
    for it, as a comparison key ``(tractors, pairs, singles)``; None if no split covers F.

    ``tractors`` lists ``(length, top)`` per lead tractor, longest then highest first;
    ``pairs`` and ``singles`` list rungs, highest first. With ``ruff_rule="match"`` a
    k-pair lead tractor takes exactly k consecutive pairs; with ``"count"`` any 2..k.
    The play must also hold at least N2 pairs (the lead's pairs, tractor pairs included).
    """
    play = as_cards(play)
    ks, n_pairs, n_singles = lead_format(lead_units)
    if len(play) != sum(u.size for u in lead_units):
        return None
    counts = pair_ladder(play, ctx)
    if sum(counts) < sum(ks) + n_pairs:
        return None
    card_counts = [0] * N_RUNGS
    for f in play:
        card_counts[ctx.rung[f]] += 1
    lows = ks if rules.ruff_rule == "match" else tuple(2 for _ in ks)
    best = None
    for tractors in _tractor_splits(counts, ks, lows, None):
        left = list(counts)
        singles = list(card_counts)
        for length, top in tractors:
            for r in range(top - length + 1, top + 1):
                left[r] -= 1
                singles[r] -= 2
        pair_rungs = [r for r in range(N_RUNGS - 1, -1, -1) for _ in range(left[r])][:n_pairs]
        for r in pair_rungs:
            singles[r] -= 2
        single_rungs = [r for r in range(N_RUNGS - 1, -1, -1) for _ in range(singles[r])]
        key = (tuple(sorted(tractors, reverse=True)), tuple(pair_rungs), tuple(single_rungs))
        if best is None or key > best:
            best = key
    return best


def _tractor_splits(counts, ks, lows, prev):
    """Every placement of disjoint tractors, one per lead tractor, lengths lows[i]..ks[i];
    equal consecutive slots are placed in non-increasing order (no permuted repeats)."""
    if not ks:
        yield ()
        return
    for length in range(ks[0], lows[0] - 1, -1):
        for top in run_tops(counts, length):
            if prev is not None and (length, top) > prev:
                continue
            same = len(ks) > 1 and (ks[1], lows[1]) == (ks[0], lows[0])
            for rest in _tractor_splits(_take(counts, length, top), ks[1:], lows[1:],
                                        (length, top) if same else None):
                yield ((length, top),) + rest


def matches(lead_units: list[Unit], play, ctx: Context, rules: ShengjiRules) -> bool:
    """§5.4: ``play`` is one effective suit, the led suit or 主, and covers the lead's units
    (``ruff_rule`` "match": tractors of equal length; "count": as many tractors and pairs)."""
    play = as_cards(play)
    lead_suit = ctx.esuit[lead_units[0].cards[0]]
    es = effective_suit(play, ctx)
    if es is None or es not in (lead_suit, TRUMP):
        return False
    return best_split(play, lead_units, ctx, rules) is not None
