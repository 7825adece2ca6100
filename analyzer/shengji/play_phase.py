"""The play half of a 双升 hand (docs/rules/shengji.md §5–6): leads and throws (甩牌) with
the stand check against the actual other hands, follows, the trick winner, 抠底 and the
settlement.

Functions of a :class:`.state.HandState`; the rule work is done by the primitives of
:mod:`.combos`, :mod:`.tricks` and :mod:`.scoring`.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import product

from ..core.game import TERMINAL
from .actions import DONE, N_SEATS, PLAY, PLAY_PHASE, Action, HandResult, Trick
from .cards import ESUIT_LABELS, TRUMP, Context, format_cards
from .combos import decompose, follow_ok, legal_follow, pair_faces, verify_follow
from .scoring import (
    advance_level,
    kitty_basis_cards,
    settle,
    throw_penalty_to_attackers,
    wins_match,
)
from .state import HandState
from .tricks import check_throw, trick_points, trick_winner, verify_lead

# Seats from this hand's banker to the next hand's (§6.3, ``Settlement.next_banker``).
_NEXT_BANKER_OFFSET = {"partner": 2, "next_seat": 1}


def start_play(st: HandState) -> None:
    """Trick 1: the banker leads (§5.1; 扒鸡窝 never changes this)."""
    st.phase, st.turn = PLAY_PHASE, st.the_banker
    st.tricks.append(Trick(st.the_banker))


def _take(hand: tuple[int, ...], cards) -> tuple[int, ...]:
    out = list(hand)
    for f in cards:
        out.remove(f)
    return tuple(out)  # still sorted


def verify(st: HandState, seat: int, action: Action) -> None:
    """Raise ValueError with the reason unless ``action`` is a legal lead or follow."""
    if action.kind != PLAY:
        raise ValueError(f"seat {seat} must play cards now, not {action.kind}")
    cards, hand, ctx = action.cards, st.hands[seat], st.play_ctx
    if not cards:
        raise ValueError("a play needs cards")
    if not all(cards.count(f) <= hand.count(f) for f in set(cards)):
        missing = Counter(cards) - Counter(hand)
        raise ValueError(f"seat {seat} does not hold {format_cards(missing.elements(), ctx)}")
    trick = st.tricks[-1]
    if not trick.plays:
        try:
            verify_lead(cards, hand, ctx, st.rules)
        except ValueError as e:
            raise ValueError(f"seat {seat} cannot lead {format_cards(cards, ctx)}: {e}") from None
        return
    lead = trick.plays[0]
    try:
        verify_follow(lead, hand, cards, ctx, st.rules)
    except ValueError as e:
        es = ctx.esuit[lead[0]]
        held = format_cards(ctx.suit_cards(hand, es), ctx) or "none"
        raise ValueError(f"seat {seat} {e}: holds {ESUIT_LABELS[es]} {held}") from None


def apply(st: HandState, seat: int, action: Action) -> None:
    """Apply a verified lead or follow; a failed throw plays its forced unit (§5.2)."""
    trick, cards, ctx = st.tricks[-1], action.cards, st.play_ctx
    if not trick.plays:
        trick.attempt = cards
        others = [st.hands[(seat + i) % N_SEATS] for i in (1, 2, 3)]
        stands, played = check_throw(cards, others, ctx, st.rules)
        if not stands:  # the attempt is shown to all; the rest goes back to the hand
            st.failed_throws.append((seat, cards, played))
            st.known[seat] |= Counter(cards)
            penalty = throw_penalty_to_attackers(cards, st.is_attacker(seat), st.rules)
            st.penalties += penalty
            st.attacker_points += penalty
    else:
        played = cards
        es = ctx.esuit[trick.plays[0][0]]
        if any(ctx.esuit[f] != es for f in played):  # did not follow: void in the led suit
            st.voids[seat].add(es)
    st.hands[seat] = _take(st.hands[seat], played)
    if st.known[seat]:
        st.known[seat] -= Counter(played)
    trick.plays.append(played)
    if len(trick.plays) < N_SEATS:
        st.turn = (seat + 1) % N_SEATS
    else:
        _end_trick(st, trick)


def _end_trick(st: HandState, trick: Trick) -> None:
    i = trick_winner(trick.plays, st.play_ctx, st.rules)
    winner = trick.winner = (trick.leader + i) % N_SEATS
    trick.points = trick_points(trick.plays)
    if st.is_attacker(winner):
        st.attacker_points += trick.points
    if any(st.hands):
        st.tricks.append(Trick(winner))
        st.turn = winner
    else:
        _finish(st, trick, i)


def _finish(st: HandState, last: Trick, i: int) -> None:
    """Score the hand (§6.1 抠底 from the last trick, §6.2 levels, §6.3 next banker)."""
    rules, banker = st.rules, st.the_banker
    banker_team = banker % 2
    basis = kitty_basis_cards(last.plays[0], last.plays[i], rules)
    s = settle(st.attacker_points, st.kitty, st.is_attacker((last.leader + i) % N_SEATS),
               basis, st.play_ctx, rules)
    team = banker_team if s.winner == "banker" else 1 - banker_team
    after = list(st.levels)
    after[team] = advance_level(st.levels[team], s.levels, rules)
    st.result = HandResult(
        settlement=s, banker=banker, trick_points=st.attacker_points - st.penalties,
        penalties=st.penalties, winner_team=team, gain=s.levels, levels_before=st.levels,
        levels_after=(after[0], after[1]),
        next_banker=(banker + _NEXT_BANKER_OFFSET[s.next_banker]) % N_SEATS,
        match_won=wins_match(st.levels[team], team == banker_team, True, s.levels, rules))
    st.phase, st.turn = DONE, TERMINAL


# -- helpers for policies and tests ---------------------------------------------------------


def unit_leads(hand, ctx: Context) -> list[tuple[int, ...]]:
    """Every single unit in ``hand``: each face as a single, each pair, each tractor (one
    face per rung; a shared rung gives one tractor per face on it)."""
    out: set[tuple[int, ...]] = {(f,) for f in set(hand)}
    ladders: dict[int, dict[int, list[int]]] = {}
    for f in pair_faces(hand):
        ladders.setdefault(ctx.esuit[f], {}).setdefault(ctx.rung[f], []).append(f)
    for rungs in ladders.values():
        out.update((f, f) for faces in rungs.values() for f in faces)
        for low in rungs:
            high = low + 1
            while high in rungs:
                for pick in product(*(rungs[r] for r in range(low, high + 1))):
                    out.add(tuple(sorted(pick * 2)))
                high += 1
    return sorted(out, key=lambda u: (len(u), u))


def some_follow(st: HandState) -> tuple[int, ...]:
    """One legal follow for the seat to act."""
    return legal_follow(st.tricks[-1].plays[0], st.hands[st.turn], st.play_ctx, st.rules)


def follow_candidates(st: HandState, rng: random.Random, tries: int = 6) -> list[tuple[int, ...]]:
    """A set of legal follows for the seat to act: up to ``tries`` random ones (random
    fills; random pairs for the pair duty; an all-主 ruff when void), checked where a lead
    tractor makes the duty subtle, else the primitives' ``legal_follow``; sorted, so a seeded
    choice among them is reproducible."""
    lead, hand, ctx, rules = st.tricks[-1].plays[0], st.hands[st.turn], st.play_ctx, st.rules
    es, n = ctx.esuit[lead[0]], len(lead)
    held = ctx.suit_cards(hand, es)
    out: set[tuple[int, ...]] = set()
    if len(held) <= n:  # every card of the suit, then any others (§5.3.1–2)
        rest = [f for f in hand if ctx.esuit[f] != es]
        for _ in range(tries):
            out.add(tuple(sorted(held + tuple(rng.sample(rest, n - len(held))))))
        trumps = ctx.suit_cards(hand, TRUMP)
        if not held and len(trumps) >= n:
            out.add(tuple(sorted(rng.sample(trumps, n))))
        return sorted(out)
    pairs = pair_faces(held)
    units = decompose(lead, ctx)
    need = min(sum(u.pairs for u in units), len(pairs))
    tractors = any(u.pairs >= 2 for u in units)
    for _ in range(tries):
        picked = rng.sample(pairs, need)
        chosen = [f for f in picked for _ in (0, 1)]
        rest = [f for f in held if f not in picked]  # whole pairs were taken
        play = tuple(sorted(chosen + rng.sample(rest, n - len(chosen))))
        # without a lead tractor, `need` pairs meet the whole duty; else check
        if not tractors or follow_ok(lead, hand, play, ctx, rules)[0]:
            out.add(play)
    return sorted(out) or [legal_follow(lead, hand, ctx, rules)]


def random_lead(st: HandState, rng: random.Random, throw_rate: float = 0.15) -> tuple[int, ...]:
    """A uniform unit lead, or (with chance ``throw_rate``) a throw attempt of random units
    from one effective suit (the whole suit under ``throw_whole_suit_only``)."""
    hand, ctx = st.hands[st.turn], st.play_ctx
    if rng.random() < throw_rate:
        suits = {}
        for es in sorted(ctx.esuits(hand)):
            units = decompose(ctx.suit_cards(hand, es), ctx)
            if len(units) >= 2:
                suits[es] = units
        if suits:
            es = rng.choice(sorted(suits))
            if st.rules.throw_whole_suit_only:
                return ctx.suit_cards(hand, es)
            units = rng.sample(suits[es], rng.randint(2, len(suits[es])))
            return tuple(sorted(f for u in units for f in u.cards))
    return rng.choice(unit_leads(hand, ctx))
