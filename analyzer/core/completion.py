"""Records whose hidden hands are unknown: completing them by a seeded deal that fits the play.

A record of a hand played at a real table may not know the other seats' hands: such a hand
is written ``"?"`` (in the JSON and in the text notation), and the record's ``known`` lists
a flag per seat. Nothing replays such a record as it is; each game's ``records`` module has
``complete(record, seed)``, which deals every unknown place (a hand, or a game's other
hidden cards) as: the cards its seat is seen to play, plus cards drawn at random from those
no one is known to hold, each place keeping its size; the proposal is replayed through the
game's engine and kept only if every action is legal (so every public fact the engine
checks holds: a seat that passed held nothing that beats, a seat that failed to follow held
none of the suit …). That is rejection sampling, and it is exact: a proposal is uniform
over the deals of the physical cards that hold the seen cards where they were seen, and the
engine keeps exactly the deals consistent with the play. (Where a deck has two copies of a
card, a proposal that puts a drawn copy beside a seen one is kept with the weight that
makes it uniform over physical deals, :func:`copies_weight`.)

The completed record keeps ``known`` (the seats whose hands were given), so a review says
the other hands were dealt at random, with the seed.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from typing import Any, TypeVar

import numpy as np

Card = TypeVar("Card", bound=Hashable)  # a card or tile of any game

UNKNOWN = "?"
DEFAULT_TRIES = 20_000  # proposals at most before a record is found impossible


def is_unknown(value: Any) -> bool:
    """True for a place the record does not know (``"?"``).

    >>> is_unknown("?"), is_unknown(" ? "), is_unknown("A♠"), is_unknown(None)
    (True, True, False, False)
    """
    return isinstance(value, str) and value.strip() == UNKNOWN


def known_flags(record: dict[str, Any], n_seats: int) -> list[bool]:
    """Per seat: is its hand known? The record's ``known`` if it has one, else every hand
    not written ``"?"``. ValueError if ``known`` is malformed or calls a ``"?"`` known.

    >>> known_flags({"hands": ["a", "?", "b"]}, 3)
    [True, False, True]
    """
    hands = record.get("hands")
    hands = hands if isinstance(hands, list) else [None] * n_seats
    given = record.get("known")
    if given is None:
        return [not is_unknown(h) for h in hands]
    if not isinstance(given, list) or len(given) != n_seats or \
            not all(isinstance(k, bool) for k in given):
        raise ValueError(f"\"known\" must be {n_seats} flags true/false, one per seat")
    for s, (k, h) in enumerate(zip(given, hands)):
        if k and is_unknown(h):
            raise ValueError(f"\"known\" says the hand of seat {s} is known, but it is \"?\"")
    return list(given)


def has_unknown(record: dict[str, Any]) -> bool:
    """True if a hand of ``record`` is ``"?"``."""
    hands = record.get("hands")
    return isinstance(hands, list) and any(is_unknown(h) for h in hands)


def refuse_unknown(record: dict[str, Any], what: str = "hand of seat") -> None:
    """ValueError naming the first hand ``"?"``: such a record replays once completed."""
    hands = record.get("hands")
    for s, h in enumerate(hands if isinstance(hands, list) else []):
        if is_unknown(h):
            raise ValueError(f"the {what} {s} is not known (\"?\"): the record replays once "
                             f"the unknown hands are dealt (review and record convert do it)")


def copies_weight(pinned: Sequence[Sequence[Hashable]], drawn: Sequence[Sequence[Hashable]]
                  ) -> float:
    """The probability to keep a proposal so that it is uniform over physical deals: per
    place and card, ``m! / (k + m)!`` for ``k`` copies seen there and ``m`` drawn there.

    >>> copies_weight([["x"], ["y"]], [["x", "z"], ["w"]])
    0.5
    >>> copies_weight([["x"]], [["y"]])
    1.0
    """
    w = 1.0
    for seen, got in zip(pinned, drawn):
        k, m = Counter(seen), Counter(got)
        for card, mc in m.items():
            if k[card]:
                w *= math.factorial(mc) / math.factorial(mc + k[card])
    return w


def deal_places(sizes: Sequence[int], pinned: Sequence[Sequence[Card]],
                pool: Sequence[Card], rng: np.random.Generator
                ) -> list[list[Card]] | None:
    """Each place's cards: its ``pinned`` ones and the next of the shuffled ``pool`` up to
    its size; None when :func:`copies_weight` rejects the proposal. ValueError if the
    sizes do not add up."""
    free = [n - len(p) for n, p in zip(sizes, pinned)]
    if min(free, default=0) < 0 or sum(free) != len(pool):
        raise ValueError("the unknown places cannot hold the cards left")
    order = rng.permutation(len(pool))
    shuffled = [pool[i] for i in order]
    drawn, at = [], 0
    for f in free:
        drawn.append(shuffled[at:at + f])
        at += f
    if rng.random() >= copies_weight(pinned, drawn):
        return None
    return [list(p) + d for p, d in zip(pinned, drawn)]


def complete_by_rejection(propose: Callable[[np.random.Generator], dict[str, Any] | None],
                          check: Callable[[dict[str, Any]], Any], seed: int,
                          tries: int = DEFAULT_TRIES) -> dict[str, Any]:
    """The first proposal (``propose(rng)``, None for one rejected already) that ``check``
    accepts (raises ValueError on the others), the random stream from
    ``SeedSequence(seed)``; ValueError after ``tries`` proposals, with the reason the
    last one failed."""
    rng = np.random.default_rng(np.random.SeedSequence(int(seed)))
    reason = "no proposal fitted the copies of the cards"
    for _ in range(tries):
        candidate = propose(rng)
        if candidate is None:
            continue
        try:
            check(candidate)
        except ValueError as e:
            reason = str(e)
            continue
        return candidate
    raise ValueError(f"no deal of the unknown hands fits every action of the record in "
                     f"{tries:,} tries (the last: {reason})")


def replay_check(replay: Callable[[dict[str, Any]], Any], going_on: bool = False
                 ) -> Callable[[dict[str, Any]], Any]:
    """The check of a proposal: ``replay`` it, and when ``going_on`` the hand is not over at
    its end (a record read token by token has more to come)."""
    if not going_on:
        return replay

    def check(record: dict[str, Any]) -> Any:
        state = replay(record)
        if state.is_terminal():
            raise ValueError("the hand is over on this deal, and the record goes on")
        return state

    return check


def unknown_places(record: dict[str, Any]) -> list[tuple[str, int | None]]:
    """The places ``record`` writes ``"?"``: ``(key, None)`` or ``(key, index)`` in a list.

    >>> unknown_places({"hands": ["a", "?"], "other": "?", "x": 1})
    [('hands', 1), ('other', None)]
    """
    out: list[tuple[str, int | None]] = []
    for key, value in record.items():
        if is_unknown(value):
            out.append((key, None))
        elif isinstance(value, list):
            out += [(key, i) for i, v in enumerate(value) if is_unknown(v)]
    return out


def _get(record: dict[str, Any], place: tuple[str, int | None]) -> Any:
    key, i = place
    return record[key] if i is None else record[key][i]


def repair(filled: dict[str, Any], places: list[tuple[str, int | None]],
           replay: Callable[[dict[str, Any]], Any], rng: np.random.Generator,
           needed: tuple[int | None, list[str]] = (None, []), steps: int = 300,
           seen: Sequence[Sequence[str]] = ()) -> dict[str, Any] | None:
    """A record like ``filled`` whose unknown ``places`` (each a text of cards, one word a
    card) are changed by swaps between them until it replays, or None after ``steps``
    swaps. ``needed``: (place index, cards) to move into that place first (what an action
    plays); ``seen``: per place, cards its seat played already (never swapped away). Each
    swap is kept if the first action that fails comes no sooner: a search for one deal that
    fits, not a uniform one (reading a record's text needs only a deal on which its next
    token can be read)."""
    deal = _Swaps(filled, places, seen)
    if needed[0] is not None:
        rec = _place_needed(deal, needed, replay, rng)
        if rec is not None:
            return rec
    return _climb(deal, replay, rng, steps)


class _Swaps:
    """The unknown places' cards, a list a place, and the cards each may not give away."""

    def __init__(self, filled: dict[str, Any], places: list[tuple[str, int | None]],
                 seen: Sequence[Sequence[str]]) -> None:
        self.filled, self.places = filled, places
        self.lists = [str(_get(filled, p)).split() for p in places]
        self.fixed = [Counter(x) for x in seen] + [Counter()
                                                   for _ in range(len(places) - len(seen))]

    def record(self) -> dict[str, Any]:
        out = {k: (list(v) if isinstance(v, list) else v) for k, v in self.filled.items()}
        for (key, i), cards in zip(self.places, self.lists):
            if i is None:
                out[key] = " ".join(cards)
            else:
                out[key][i] = " ".join(cards)
        return out

    def score(self, replay: Callable[[dict[str, Any]], Any]
              ) -> tuple[int, dict[str, Any] | None]:
        """(the index of the first action that fails, or 2**30, the record if it replays)."""
        rec = self.record()
        try:
            replay(rec)
        except ValueError as e:
            return (getattr(e, "index", None) or -1), None
        return 1 << 30, rec

    def free(self, p: int) -> list[int]:
        """Indexes of the cards of place ``p`` that may move (beyond those it played)."""
        left = Counter(self.fixed[p])
        out = []
        for k, c in enumerate(self.lists[p]):
            if left[c]:
                left[c] -= 1
            else:
                out.append(k)
        return out


def _place_needed(deal: _Swaps, needed: tuple[int | None, list[str]],
                  replay: Callable[[dict[str, Any]], Any], rng: np.random.Generator
                  ) -> dict[str, Any] | None:
    """Move ``needed``'s cards into its place (a few tries at which cards make room): the
    record if that alone makes it replay, else None with the cards back where they were."""
    target, cards = needed
    assert target is not None
    lists = deal.lists
    missing = list((Counter(cards) - Counter(lists[target])).elements())
    deal.fixed[target] = deal.fixed[target] + Counter(cards)
    for _ in range(20 if missing else 1):
        trial = [list(x) for x in lists]
        ok = True
        for card in missing:
            src = [j for j, c in enumerate(lists) if j != target and card in c]
            room = [k for k in deal.free(target) if lists[target][k] not in cards]
            if not src or not room:
                ok = False
                break
            j = src[int(rng.integers(len(src)))]
            k = room[int(rng.integers(len(room)))]
            lists[j][lists[j].index(card)], lists[target][k] = lists[target][k], card
        if ok:
            _, rec = deal.score(replay)
            if rec is not None:
                return rec
        if missing:
            lists = deal.lists = trial
    return None


def _climb(deal: _Swaps, replay: Callable[[dict[str, Any]], Any], rng: np.random.Generator,
           steps: int) -> dict[str, Any] | None:
    """Random swaps between two places, each kept if the first failing action comes no
    sooner: the record once it replays, or None after ``steps`` swaps."""
    best, rec = deal.score(replay)
    if rec is not None:
        return rec
    lists = deal.lists
    if len(lists) < 2:
        return None
    for _ in range(steps):
        a, b = (int(x) for x in rng.choice(len(lists), size=2, replace=False))
        fa, fb = deal.free(a), deal.free(b)
        if not fa or not fb:
            continue
        i, j = fa[int(rng.integers(len(fa)))], fb[int(rng.integers(len(fb)))]
        lists[a][i], lists[b][j] = lists[b][j], lists[a][i]
        got, rec = deal.score(replay)
        if rec is not None:
            return rec
        if got >= best:
            best = got
        else:
            lists[a][i], lists[b][j] = lists[b][j], lists[a][i]
    return None


def mask_unknown(head: dict[str, Any], original: dict[str, Any]) -> dict[str, Any]:
    """``head`` (a completed record's fields) with every place ``original`` wrote ``"?"``
    written ``"?"`` again, in lists too."""
    out = dict(head)
    for key, value in original.items():
        if key not in out:
            continue
        if is_unknown(value):
            out[key] = UNKNOWN
        elif isinstance(value, list) and isinstance(out[key], list) and \
                len(value) == len(out[key]):
            out[key] = [UNKNOWN if is_unknown(v) else w for v, w in zip(value, out[key])]
    return out


def unknown_note(seed: int) -> str:
    """What a review says of a record whose other hands were unknown."""
    return (f"the other hands were unknown: dealt at random consistent with the play, seed "
            f"{seed}; each decision's advice deals the acting seat's hidden cards anew")
