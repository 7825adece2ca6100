"""Exact 双升 play with all four hands open (perfect information), for the end of a hand.

With every hand visible the play is a two-team zero-sum game. What is maximised: the
attackers' points at the end of the hand (trick points, failed-throw penalties and 抠底:
the kitty's points times the multiplier when they win the last trick), the attackers
maximising and the banker's team minimising. The level outcome (levels gained, counted
positive for the attackers' team and negative for the banker's) is a non-decreasing function
of those points, and a minimax value commutes with a non-decreasing function, so the level
outcome of that play is also the exact minimax value of the levels: ``values`` holds it per
seat as the engine's ``returns()`` (the winning team's seats gain, the others 0).

Two searches, the same value: :func:`solve` by the jit-compiled alpha-beta of
:mod:`kernels.shengji.solver` (a transposition table at trick starts, move ordering; failed
throws left out as dominated, see there), and :func:`solve_reference`, plain minimax over the
reference engine (:mod:`analyzer.shengji.engine`) trying every sub-multiset of the hand the
engine accepts, failed throws included: no pruning, no table (small positions only). The best
action's tie rule: the kernel's first best in its move order; the reference's first best in
the engine's order of card tuples.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any, NamedTuple

import numpy as np

from .actions import N_SEATS, PLAY, PLAY_PHASE, Action
from .engine import State
from .scoring import level_result


class Solution(NamedTuple):
    """The attackers' points at the end under open-hand minimax play, the levels each seat
    gains (``returns()``), the best action now and the positions searched."""

    points: int
    values: tuple[int, ...]
    action: Action
    positions: int


class SearchLimit(ValueError):
    """The search gave up (too many positions, or too many plays at one decision)."""


def _check(st: State) -> None:
    if st.is_terminal():
        raise ValueError("the hand is over: nothing to solve")
    if st.phase != PLAY_PHASE:
        raise ValueError(f"the solver starts in the play (the record stops in the "
                         f"{st.phase} phase)")
    if st.rules.throw_fail_penalty_per_card < 0:
        raise ValueError("the solver needs a failed-throw penalty of at least 0")


def level_values(st: State, points: int) -> tuple[int, ...]:
    """Levels each seat gains (the engine's ``returns()``) when the attackers end on
    ``points``."""
    winner, gain = level_result(points, st.rules)
    banker_team = st.the_banker % 2
    team = banker_team if winner == "banker" else 1 - banker_team
    return tuple(gain if s % 2 == team else 0 for s in range(N_SEATS))


def kernel_position(st: State) -> tuple[tuple, tuple]:
    """``(pos, rules)`` of :func:`kernels.shengji.solver.solve_position` at ``st``."""
    from kernels.shengji.context import new_context
    from kernels.shengji.planes import planes_of

    from .cards import points as card_points
    from .sim import rule_arrays

    r = st.rules
    ctx = new_context(st.trump, st.level, r.nt_level_joker_tractor)
    hands = np.array([planes_of(h) for h in st.hands], dtype=np.int64)
    trick = st.tricks[-1]
    plays = np.zeros((4, 2), dtype=np.int64)
    for j, p in enumerate(trick.plays):
        plays[j] = planes_of(p)
    pos = (hands, plays, len(trick.plays), trick.leader, st.the_banker,
           int(card_points(st.kitty)))
    return pos, (ctx, rule_arrays(r))


def table_rows(st: State) -> int:
    """log2 of the table rows for ``st``: about what a search of its size stores."""
    return min(22, max(14, 2 * max(len(h) for h in st.hands) + 6))


def solve(st: State, max_positions: int = 1 << 62, log2_rows: int | None = None) -> Solution:
    """The open-hand value of ``st`` (in the play) by the jit-compiled alpha-beta;
    :class:`SearchLimit` past ``max_positions`` searched positions."""
    from kernels.shengji import solver as ks
    from kernels.shengji.planes import cards_of

    _check(st)
    pos, rules = kernel_position(st)
    stack = ks.new_stack(ks.stack_depth(pos[0]))
    tt = ks.new_table(table_rows(st) if log2_rows is None else log2_rows)
    to_come = int(ks.solve_position(pos, rules, tt, stack, max_positions))
    info = stack[8]
    if info[ks.I_FAIL] == 1:
        raise SearchLimit(f"no answer within {max_positions} positions")
    if info[ks.I_FAIL] == 2:
        raise SearchLimit(f"more than {ks.MAX_MOVES} legal plays at one decision")
    move = stack[2][0, int(info[ks.I_BEST])]
    points = st.attacker_points + to_come
    return Solution(points, level_values(st, points),
                    Action(PLAY, cards_of(int(move[0]), int(move[1]))),
                    int(info[ks.I_NODES]))


REACH = 200_000  # positions an open-hand check may search (the kernel: well under a second)


def reaches(st: State) -> bool:
    """Whether :func:`open_values` can value what follows a decision of ``st``: only in the
    play; an earlier decision leads to the declaring, the bury or, after 造反, a new deal
    (a chance the open hands do not hold)."""
    return st.phase == PLAY_PHASE


def open_values(st: State) -> tuple[int, ...]:
    """Every seat's levels from ``st`` (in the play, not over) with all hands open;
    SearchLimit past :data:`REACH` positions searched, or before the play (the declaring
    and the bury are beyond the solver)."""
    if st.phase != PLAY_PHASE:
        raise SearchLimit(f"the solver starts in the play, not in the {st.phase} phase")
    return solve(st, REACH).values


# -- the reference: plain minimax over the engine --------------------------------------------


def _submultisets(hand: tuple[int, ...], size: int | None):
    counts = sorted(Counter(hand).items())
    for pick in itertools.product(*(range(c + 1) for _, c in counts)):
        n = sum(pick)
        if n and (size is None or n == size):
            yield tuple(f for (f, _), k in zip(counts, pick) for _ in range(k))


def engine_plays(st: State) -> list[Action]:
    """Every play the engine accepts now, in the order of card tuples: any sub-multiset of
    the hand at a lead (throws included, failed ones too), of the lead's size at a follow."""
    trick = st.tricks[-1]
    size = len(trick.plays[0]) if trick.plays else None
    acts = [Action(PLAY, c) for c in _submultisets(st.hands[st.turn], size)]
    return sorted((a for a in acts if st.can(a)), key=lambda a: a.cards)


def _minimax(st: State, counter: list[int]) -> tuple[int, Action | None]:
    counter[0] += 1
    if st.is_terminal():
        assert st.result is not None
        return st.result.settlement.attacker_points, None
    maxi = st.is_attacker(st.turn)
    best: tuple[int, Action | None] | None = None
    for a in engine_plays(st):
        child = st.clone()
        child.apply(a)
        v = _minimax(child, counter)[0]
        if best is None or (v > best[0] if maxi else v < best[0]):
            best = (v, a)
    assert best is not None
    return best


def solve_reference(st: State) -> Solution:
    """The open-hand value of ``st`` by plain minimax over the reference engine (every
    legal play, no pruning, no table): the check of :func:`solve` on small positions."""
    _check(st)
    counter = [0]
    points, action = _minimax(st.clone(), counter)
    assert action is not None
    return Solution(points, level_values(st, points), action, counter[0])


def principal_line(st: State) -> State:
    """Play ``st`` to the end with every seat taking the solver's action (the engine
    checks each)."""
    s = st.clone()
    while not s.is_terminal():
        s.apply(solve(s).action)
    return s


def late_position(rng: Any, rules: str, max_cards: int, mid_trick: bool = False) -> State:
    """A play position (not over) with at most ``max_cards`` cards in each hand: random play
    (the engine's random policy, throws tried) from a random deal, L, T and banker drawn by
    ``rng`` (a ``random.Random``); ``mid_trick`` also plays a random number of the next
    trick's plays (0..3)."""
    from .engine import play_only, random_action
    from .state import deal

    while True:
        hands, kitty = deal(rng)
        st = play_only(rules, hands, kitty, rng.randint(2, 14), rng.randint(0, 4),
                       rng.randrange(N_SEATS))
        while not st.is_terminal() and (len(st.hands[st.turn]) > max_cards
                                        or st.tricks[-1].plays):
            st.apply(random_action(st, rng))
        if mid_trick and not st.is_terminal():
            for _ in range(rng.randint(0, 3)):
                st.apply(random_action(st, rng))
        if not st.is_terminal():
            return st
