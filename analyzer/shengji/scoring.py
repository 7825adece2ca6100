"""抠底, the level table, banker rotation and level advance (docs/rules/shengji.md §6).

>>> from analyzer.shengji.cards import context, parse_cards
>>> from analyzer.shengji.rules import ZHENGZHOU
>>> s = settle(0, parse_cards("♣10 ♦5 ♥K"), True, parse_cards("♠K♠K"), context(2, 0), ZHENGZHOU)
>>> s.multiplier, s.attacker_points, s.winner
(4, 100, 'attackers')
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Context, as_cards, points
from .combos import Unit, decompose
from .rules import ShengjiRules

ACE = 14


def kitty_unit(cards, ctx: Context) -> Unit:
    """The largest unit of the canonical decomposition (most pairs; ties the highest)."""
    units = decompose(cards, ctx)
    if not units:
        raise ValueError("no cards to take the kitty multiplier from")
    return max(units, key=lambda u: (u.pairs, u.top))


def kitty_multiplier(cards, ctx: Context, rules: ShengjiRules) -> int:
    """m for 抠底 from the deciding cards (§6.1, ``kitty_multiplier``).

    pow2_pairs: 2^(1+p), p pairs in the largest unit (2, 4, 8, 16 …); times_size: 2n,
    n its cards (2, 4, 8, 12 …); pow_size: 2^n (2, 4, 16, 64 …).
    """
    unit = kitty_unit(cards, ctx)
    if rules.kitty_multiplier == "pow2_pairs":
        return 2 ** (1 + unit.pairs)
    if rules.kitty_multiplier == "times_size":
        return 2 * unit.size
    return 2 ** unit.size


def kitty_basis_cards(lead, winning_play, rules: ShengjiRules) -> tuple[int, ...]:
    """The last trick's cards that decide m (``kitty_basis``, R22): the winning play or
    the lead (the forced unit after a failed throw)."""
    return as_cards(winning_play if rules.kitty_basis == "winning_play" else lead)


@dataclass(frozen=True)
class Settlement:
    """The end of one hand: 抠底, the result on the level table and the next banker."""

    kitty_points: int  # point cards in the kitty
    multiplier: int  # 抠底 multiplier; 0 when the banker side took the last trick
    attacker_points: int  # the attackers' points after 抠底
    winner: str  # "banker" or "attackers" (P ≥ turnover_at: the attackers take the bank)
    levels: int  # levels gained by the winner (0: the attackers take the bank, no gain)
    next_banker: str  # "partner" of this hand's banker, or its "next_seat" (下家)


def level_result(attacker_points: int, rules: ShengjiRules) -> tuple[str, int]:
    """``(winner, levels)`` from the attackers' points (§6.2, R24).

    Below ``turnover_at`` the banker side gains one level per ``level_step`` short of it,
    plus one for a shutout (P ≤ 0): +1, +2, +3 at 40–75, 5–35, 0. From ``turnover_at`` the
    attackers take the bank and gain one per full ``level_step`` above it, at most
    ``attacker_gain_cap``.
    """
    p, step, turn = attacker_points, rules.level_step, rules.turnover_at
    if p < turn:
        if p <= 0:
            return "banker", (turn - 1) // step + 2
        return "banker", (turn - p - 1) // step + 1
    gain = (p - turn) // step
    if rules.attacker_gain_cap is not None:
        gain = min(gain, rules.attacker_gain_cap)
    return "attackers", gain


def settle(attacker_points: int, kitty, last_trick_by_attackers: bool, last_units_cards,
           ctx: Context, rules: ShengjiRules) -> Settlement:
    """Score a finished hand (§6).

    ``attacker_points``: the attackers' points from tricks (and any throw penalties);
    ``kitty``: the final kitty; ``last_units_cards``: the cards that decide m, normally
    ``kitty_basis_cards(lead, winning_play, rules)`` of the last trick.
    """
    kitty_pts = points(as_cards(kitty))
    multiplier = kitty_multiplier(last_units_cards, ctx, rules) if last_trick_by_attackers else 0
    total = attacker_points + kitty_pts * multiplier
    winner, levels = level_result(total, rules)
    return Settlement(kitty_pts, multiplier, total, winner, levels,
                      "partner" if winner == "banker" else "next_seat")


def advance_level(level: int, gain: int, rules: ShengjiRules) -> int:
    """The team's level after gaining ``gain`` (§6.4): with ``must_defend_A`` a gain stops
    at A (14); without it the result may pass 14, which means the team passed A."""
    if not 2 <= level <= ACE or gain < 0:
        raise ValueError(f"level must be 2..14 and the gain ≥ 0 (got {level}, {gain})")
    new = level + gain
    return min(new, ACE) if rules.must_defend_A else new


def wins_match(level: int, was_banker_side: bool, won_hand: bool, gain: int,
               rules: ShengjiRules) -> bool:
    """True if this hand ends the match for the team (§6.4, R25): it won as banker side
    at A, or (``must_defend_A`` False) its gain carried it past A."""
    if won_hand and was_banker_side and level == ACE:
        return True
    return won_hand and not rules.must_defend_A and level + gain > ACE


def throw_penalty_to_attackers(attempt, thrower_is_attacker: bool, rules: ShengjiRules) -> int:
    """Change to the attackers' points for a failed throw: −penalty when an attacker threw,
    +penalty when the banker side did (``throw_fail_penalty_per_card`` per attempted card)."""
    penalty = rules.throw_fail_penalty_per_card * len(as_cards(attempt))
    return -penalty if thrower_is_attacker else penalty
