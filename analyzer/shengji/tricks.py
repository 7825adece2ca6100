"""Leads, throws (甩牌), the trick winner and trick points (docs/rules/shengji.md §5).

>>> from analyzer.shengji.cards import context, parse_cards
>>> from analyzer.shengji.rules import ZHENGZHOU
>>> ctx = context(10, 0)
>>> trick_winner([parse_cards(p) for p in ("♣5 ♣4♣4", "♠9 ♠7♠7", "♠8♠8 ♠4", "♣2♣3♣6")],
...              ctx, ZHENGZHOU)
2
"""

from __future__ import annotations

from collections import Counter

from .cards import TRUMP, Context, as_cards, points
from .combos import (
    Unit,
    best_split,
    decompose,
    effective_suit,
    lead_format,
    pair_faces,
    pair_ladder,
    run_tops,
)
from .rules import ShengjiRules


def verify_lead(lead, hand, ctx: Context, rules: ShengjiRules) -> None:
    """Raise ValueError unless ``lead`` is a unit or a throw the hand may lead (§5.1–5.2)."""
    lead, hand = as_cards(lead), as_cards(hand)
    if not lead:
        raise ValueError("a lead needs at least one card")
    if Counter(lead) - Counter(hand):
        raise ValueError("the lead holds cards that are not in the hand")
    es = effective_suit(lead, ctx)
    if es is None:
        raise ValueError("a lead must be one effective suit (a unit or a throw)")
    if rules.throw_whole_suit_only and len(decompose(lead, ctx)) > 1:
        if len(lead) != len(ctx.suit_cards(hand, es)):
            raise ValueError("a throw must be every card held in its suit "
                             "(throw_whole_suit_only)")


def lead_ok(lead, hand, ctx: Context, rules: ShengjiRules) -> tuple[bool, str]:
    """``(True, "")`` if the lead is legal, else ``(False, reason)``."""
    try:
        verify_lead(lead, hand, ctx, rules)
    except ValueError as e:
        return False, str(e)
    return True, ""


def _beats_unit(unit: Unit, cards, ctx: Context) -> bool:
    """``cards`` (one player's cards in the led suit) hold a higher unit of ``unit``'s shape."""
    return bool(beating_cards(unit, cards, ctx))


def beating_cards(unit: Unit, cards, ctx: Context) -> tuple[int, ...]:
    """The highest unit of ``unit``'s shape in ``cards`` (one player's cards in the led
    suit) that beats ``unit``, as its cards; empty when none does."""
    if unit.pairs == 0:
        higher = [f for f in cards if ctx.rung[f] > unit.top]
        return (max(higher, key=lambda f: (ctx.rung[f], f)),) if higher else ()
    faces = pair_faces(cards)
    if unit.pairs == 1:
        higher = [f for f in faces if ctx.rung[f] > unit.top]
        return (max(higher, key=lambda f: (ctx.rung[f], f)),) * 2 if higher else ()
    top = next((t for t in run_tops(pair_ladder(cards, ctx), unit.pairs) if t > unit.top),
               None)
    if top is None:
        return ()
    face_on = {ctx.rung[f]: f for f in faces}  # a pair's face on each rung
    return tuple(f for r in range(top, top - unit.pairs, -1) for f in (face_on[r],) * 2)


def throw_failures(cards, others, ctx: Context, rules: ShengjiRules) -> list[tuple[int, Unit]]:
    """``(i, unit)`` for every unit of the throw that ``others[i]`` can beat (§5.2).

    ``others`` are the three other hands in play order from the thrower's 下家; with
    ``throw_check_players="opponents"`` only ``others[0]`` and ``others[2]`` count.
    Only each player's cards of the led suit count: trumps never make a throw fail.
    """
    cards = as_cards(cards)
    es = effective_suit(cards, ctx)
    if es is None:
        raise ValueError("a throw must be one effective suit")
    if len(others) != 3:
        raise ValueError("the throw check needs the three other hands")
    counted = (0, 1, 2) if rules.throw_check_players == "all_others" else (0, 2)
    units = decompose(cards, ctx)
    out: list[tuple[int, Unit]] = []
    for i in counted:
        held = ctx.suit_cards(as_cards(others[i]), es)
        out.extend((i, u) for u in units if _beats_unit(u, held, ctx))
    return out


def _lowest(units):
    return min(units, key=lambda u: (u.top, u.cards))


def check_throw(cards, others, ctx: Context, rules: ShengjiRules
                ) -> tuple[bool, tuple[int, ...]]:
    """``(stands, played)``: a throw stands and is played whole, or fails and ``played`` is
    the forced lead chosen by ``throw_fail_play`` (§5.2). A single unit always stands."""
    cards = as_cards(cards)
    units = decompose(cards, ctx)
    if len(units) < 2:
        return True, cards
    failures = throw_failures(cards, others, ctx, rules)
    if not failures:
        return True, cards
    if rules.throw_fail_play == "smallest_card":
        return False, (min(cards, key=lambda f: (ctx.rung[f], f)),)
    if rules.throw_fail_play == "first_failed_unit":
        first = failures[0][0]
        beaten = [u for i, u in failures if i == first]
        shape = min(u.pairs for u in beaten)
    else:  # largest_failed_shape
        beaten = [u for _, u in failures]
        shape = max(u.pairs for u in beaten)
    return False, _lowest(u for u in beaten if u.pairs == shape).cards


def _outranks(x, w, x_cards, w_cards, lead_units, ctx: Context, rules: ShengjiRules) -> bool:
    """X > W under ``trick_compare`` (§5.5); x, w are ``best_split`` keys; ties keep W."""
    if rules.trick_compare == "highest_card":
        return max(ctx.rung[f] for f in x_cards) > max(ctx.rung[f] for f in w_cards)
    if rules.trick_compare == "all_units":  # every unit of X beats its counterpart in W
        return all(a > b for xs, ws in zip(x, w) for a, b in zip(xs, ws))
    ks, n_pairs, _ = lead_format(lead_units)
    if ks or n_pairs:  # singles count only when the lead is all singles
        return x[:2] > w[:2]
    return x[2] > w[2]


def trick_winner(plays, ctx: Context, rules: ShengjiRules) -> int:
    """Index of the winning play; ``plays`` in play order, ``plays[0]`` the lead (after a
    failed throw, the forced unit). A later play wins only if it matches the lead under
    ``ruff_rule`` (§5.4), followers in the led suit included, and beats the current winner
    under ``trick_compare`` (§5.5); equal plays keep the earlier one."""
    plays = [as_cards(p) for p in plays]
    lead = plays[0]
    lead_suit = effective_suit(lead, ctx)
    if lead_suit is None:
        raise ValueError("the lead mixes effective suits")
    for p in plays[1:]:
        if len(p) != len(lead):
            raise ValueError(f"every play must have {len(lead)} cards, one has {len(p)}")
    units = decompose(lead, ctx)
    win, win_suit, win_key = 0, lead_suit, best_split(lead, units, ctx, rules)
    for i, play in enumerate(plays[1:], start=1):
        es = effective_suit(play, ctx)
        if es is None or es not in (lead_suit, TRUMP):
            continue
        key = best_split(play, units, ctx, rules)
        if key is None:
            continue  # 垫: no split covers the lead's units
        if (win_suit != TRUMP and es == TRUMP) or (
                es == win_suit and _outranks(key, win_key, play, plays[win], units, ctx, rules)):
            win, win_suit, win_key = i, es, key
    return win


def trick_points(plays) -> int:
    """Point cards (分牌) in all plays of a trick."""
    return sum(points(as_cards(p)) for p in plays)
