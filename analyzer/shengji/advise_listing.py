"""What 双升's advice values at a lead or a follow: every legal play when there are at most
``MAX_VALUED``, else the units, the whole-suit throws, the policies' candidates, any given
candidates and a seeded sample of the rest (:class:`Listing` says which)."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from dataclasses import dataclass

from . import combos
from .actions import (
    BURY,
    BURY_PHASE,
    PLAY,
    Action,
)
from .engine import State
from .records import action_from_json

MAX_VALUED = 40  # actions valued at one decision at most (a capped listing says so)
ENUMERATE_LIMIT = 4_096  # card sets tried when listing the plays of one suit
LISTING = {
    "rebel": "pass or 造反",
    "declare": "pass and every declaration the engine allows",
    "bajiwo": "pass and every 扒鸡窝 overcall the engine allows",
    "bury": "the buries the bury generator proposes (heuristic and variants, a void per "
            "short plain suit) and any candidates: C(33, 8) buries are too many to list",
    "lead": f"every unit and throw the engine allows, or at most {MAX_VALUED}: the units, "
            "the whole-suit throws, the policies' candidates and a seeded sample",
    "follow": f"every legal follow, or at most {MAX_VALUED}: the policies' candidates and a "
              "seeded sample",
}


def _is_throw(cards: tuple[int, ...], state: State) -> bool:
    return len(combos.decompose(cards, state.play_ctx)) >= 2


def _submultisets(cards, size: int | None = None):
    """Every non-empty sub-multiset of ``cards`` (of ``size`` cards if given), as sorted
    tuples; None if there are more than ENUMERATE_LIMIT."""
    counts = sorted(Counter(cards).items())
    if size is None:
        if math.prod(c + 1 for _, c in counts) > ENUMERATE_LIMIT:
            return None
        out = []
        for pick in itertools.product(*(range(c + 1) for _, c in counts)):
            if sum(pick):
                out.append(tuple(f for (f, _), k in zip(counts, pick) for _ in range(k)))
        return out
    if _count_multisets(cards, size) > ENUMERATE_LIMIT:
        return None
    out = []

    def walk(i: int, left: int, acc: list[int]) -> None:
        if left == 0:
            out.append(tuple(acc))
            return
        if i == len(counts):
            return
        f, c = counts[i]
        for k in range(min(c, left), -1, -1):
            walk(i + 1, left - k, acc + [f] * k)

    walk(0, size, [])
    return out


def _count_multisets(cards, size: int) -> int:
    """How many sub-multisets of ``size`` cards ``cards`` hold."""
    ways = [1] + [0] * size
    for c in Counter(cards).values():
        ways = [sum(ways[n - j] for j in range(min(c, n) + 1)) for n in range(size + 1)]
    return ways[size]


@dataclass
class Listing:
    """The actions valued at a decision and what the rules allow there."""

    actions: list[Action]
    legal: int | None  # how many legal actions (None: more than could be counted)
    complete: bool  # every legal action is valued
    how: str


def _lead_listing(state: State, extra: list[Action], rng: random.Random,
                  kernel_candidates: list[tuple[int, ...]]) -> Listing:
    hand, ctx = state.hands[state.turn], state.play_ctx
    units = [tuple(u) for u in _unit_leads(state)]
    throws: list[tuple[int, ...]] = []
    countable = True
    for es in sorted(ctx.esuits(hand)):
        held = ctx.suit_cards(hand, es)
        if len(combos.decompose(held, ctx)) < 2:
            continue
        subs = _submultisets(held)
        if subs is None:
            countable = False
            throws.append(tuple(held))  # the whole suit; the rest sampled below
            continue
        throws += [s for s in subs if _is_throw(s, state)]
    legal = [c for c in units + throws if state.can(Action(PLAY, c))]
    if countable and len(legal) <= MAX_VALUED:
        return Listing([Action(PLAY, c) for c in sorted(legal, key=lambda c: (len(c), c))],
                       len(legal), True, LISTING["lead"])
    whole = [tuple(ctx.suit_cards(hand, es)) for es in sorted(ctx.esuits(hand))]
    first = units + [w for w in whole if _is_throw(w, state)] + kernel_candidates
    first += [a.cards for a in extra]
    rest = [c for c in legal if c not in set(first)]
    return _capped(state, first, rest, len(legal) if countable else None, rng, "lead")


def _unit_leads(state: State) -> list[tuple[int, ...]]:
    return state.legal_leads()


def _follow_listing(state: State, extra: list[Action], rng: random.Random,
                    kernel_candidates: list[tuple[int, ...]]) -> Listing:
    lead = state.tricks[-1].plays[0]
    hand, ctx = state.hands[state.turn], state.play_ctx
    es, n = ctx.esuit[lead[0]], len(lead)
    held = ctx.suit_cards(hand, es)
    if len(held) >= n:
        subs = _submultisets(held, n)
    else:
        rest_cards = [f for f in hand if ctx.esuit[f] != es]
        more = _submultisets(rest_cards, n - len(held))
        subs = None if more is None else [tuple(sorted(held + m)) for m in more]
    if subs is not None:
        legal = [c for c in subs if state.can(Action(PLAY, c))]
        if len(legal) <= MAX_VALUED:
            return Listing([Action(PLAY, c) for c in legal], len(legal), True,
                           LISTING["follow"])
        count: int | None = len(legal)
    else:
        legal, count = [], None
    first = kernel_candidates + [a.cards for a in extra]
    rest = [c for c in legal if c not in set(first)]
    if not legal:  # too many to enumerate: sample legal follows at random
        from .play_phase import follow_candidates

        rest = []
        for _ in range(20):
            rest += [c for c in follow_candidates(state, rng, 8) if c not in rest]
    return _capped(state, first, rest, count, rng, "follow")


def _capped(state: State, first: list[tuple[int, ...]], rest: list[tuple[int, ...]],
            legal: int | None, rng: random.Random, what: str) -> Listing:
    chosen: list[tuple[int, ...]] = []
    for c in first:
        if c not in chosen and state.can(Action(PLAY, c)):
            chosen.append(c)
    rest = [c for c in rest if c not in chosen]
    room = max(MAX_VALUED - len(chosen), 0)
    chosen += rng.sample(rest, min(room, len(rest)))
    how = LISTING[what]
    return Listing([Action(PLAY, c) for c in chosen], legal, False, how)


def _extra_actions(state: State, candidates) -> list[Action]:
    """Candidate actions given as record entries, card text or Actions, checked legal."""
    out = []
    for i, c in enumerate(candidates or ()):
        if isinstance(c, Action):
            a = c
        elif isinstance(c, dict):
            _, a = action_from_json(c, i)
        else:
            kind = BURY if state.phase == BURY_PHASE else PLAY
            a = Action(kind, c)
        try:
            state.verify(a)
        except ValueError as e:
            raise ValueError(f"candidate {i + 1} ({a}) is not legal here: {e}") from None
        out.append(a)
    return out
