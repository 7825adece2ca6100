"""Exact play with all three hands open (perfect information): the max-n value of a position.

Max-n: at every decision the seat to act takes the action with the most points for itself,
assuming every later decision is taken the same way. Tie rule: among actions worth the same
to the seat to act, the first in the engine's ``legal_actions()`` order is taken (plays before
pass, 扣, 掀, 紧牌, discards; then fewer cards; then the lower card mask). With that rule a
position has exactly one value vector, the same whichever way it is searched.

The search drives the reference engine (:mod:`analyzer.xianniu.engine`) and memoises
positions in a transposition table keyed on everything that decides the rest of the hand and
its settlement: the three hands, the phase and whose turn it is, the play to beat and its
owner, 扣 said, the 掀 events in order, 紧牌 state, and per seat a summary of the captured
plays (cards, 牛 and 喜 cards, 亮子, KKK and K-摆 held) — settlement depends on captured plays
only through these sums. No pruning: max-n admits only shallow pruning (Korf 1991), which
would store bounds rather than values; the table alone keeps every stored value exact.
"""

from __future__ import annotations

from itertools import combinations
from typing import NamedTuple

import numpy as np

from .cards import KING, bit, cards_of, count, rank_counts
from .combos import BAI, EIGHT_PAIRS, NIU, SET, XI, XI_BAO_LIANG, Play
from .engine import (
    ACTION_KINDS,
    DISCARD,
    DISCARD_PHASE,
    KOU,
    QIANGCI,
    TIGHTEN,
    Action,
    State,
    new_hand,
)


class Solution(NamedTuple):
    """Points of each seat under max-n play, the best action now, positions in the table."""

    values: tuple[int, ...]
    action: Action
    positions: int


def copy_state(st: State) -> State:
    """An independent copy of ``st`` (the history left empty: the search never reads it)."""
    return State(rules=st.rules, banker=st.banker, dealt=st.dealt, hands=list(st.hands),
                 captured=[list(c) for c in st.captured], dead=st.dead,
                 discarded=st.discarded, xian_events=list(st.xian_events),
                 said_kou=list(st.said_kou), phase=st.phase, lead_holder=st.lead_holder,
                 must_lead=st.must_lead, tightened=st.tightened, queue=list(st.queue),
                 top=st.top, top_owner=st.top_owner, tighten_limit=st.tighten_limit,
                 end_reason=st.end_reason, history=[], discards=list(st.discards))


def step(st: State, action: Action) -> State:
    """The state after ``action``, one of ``st.legal_actions()`` (so no second check)."""
    child = copy_state(st)
    getattr(child, "_apply_" + child.phase)(child.current_player(), action)
    return child


def _play_summary(p: Play, rules) -> tuple[int, int, int, int, bool, bool]:
    """What one captured play adds to its seat's tally: cards, 牛, 喜, 亮, KKK, K-摆."""
    xi = p.size if p.kind == XI else p.size - 4 if p.kind == XI_BAO_LIANG else 0
    if p.is_liang:
        liang = 1
    elif p.kind == EIGHT_PAIRS:
        liang = sum(1 for c in rank_counts(p.mask) if c == 4)
    else:
        liang = 0
    return (p.size, p.size if p.kind == NIU else 0, xi, liang,
            p.kind == SET and p.rank == KING and p.size == 3, p.kind == BAI and p.k == 1)


def _seat_summary(plays: list[Play], rules) -> tuple[int, int, int, int, bool, bool]:
    n = niu = xi = liang = 0
    kkk = k108 = False
    for p in plays:
        a, b, c, d, e, f = _play_summary(p, rules)
        n, niu, xi, liang, kkk, k108 = n + a, niu + b, xi + c, liang + d, kkk or e, k108 or f
    return (n, niu, xi, liang, kkk, k108)


def position_key(st: State) -> tuple:
    """Everything about ``st`` that decides the rest of the hand and its settlement."""
    return (tuple(st.hands), st.phase, st.lead_holder, st.must_lead, st.tightened,
            tuple(st.queue), st.top.mask if st.top is not None else 0, st.top_owner,
            st.tighten_limit if st.phase == DISCARD_PHASE else 0, tuple(st.said_kou),
            tuple(st.xian_events), st.banker if st.phase == QIANGCI else 0,
            tuple(_seat_summary(plays, st.rules) for plays in st.captured))


class Solver:
    """Max-n values of 掀牛 positions with all hands open; one table per solver."""

    key = staticmethod(position_key)  # the transposition table's key of a position

    def __init__(self) -> None:
        self.memo: dict[tuple, tuple[tuple[int, ...], Action]] = {}

    def solve(self, st: State) -> Solution:
        """Values and best action of the position ``st`` (not over)."""
        if st.is_terminal():
            raise ValueError("the hand is over: nothing to solve")
        values, action = self._search(st)
        return Solution(values, action, len(self.memo))

    def _search(self, st: State) -> tuple[tuple[int, ...], Action]:
        key = self.key(st)
        got = self.memo.get(key)
        if got is not None:
            return got
        if st.phase == DISCARD_PHASE:
            found = self._discards(st)
            self.memo[key] = found
            return found
        seat = st.current_player()
        best: tuple[tuple[int, ...], Action] | None = None
        for a in st.legal_actions():
            child = step(st, a)
            v = tuple(child.returns()) if child.is_terminal() else self._search(child)[0]
            if best is None or v[seat] > best[0][seat]:
                best = (v, a)
        assert best is not None
        self.memo[key] = best
        return best

    def _discards(self, st: State) -> tuple[tuple[int, ...], Action]:
        """A seat's 紧牌 discards as one choice of the cards it throws away.

        Only the set thrown away matters, so the seat's best is the best set; the engine's
        one-card-at-a-time search with the tie rule throws the lexicographically first best
        set (cards in mask order), smallest card first, which ``combinations`` meets first.
        """
        seat = st.current_player()
        hand = st.hands[seat]
        best: tuple[tuple[int, ...], tuple[int, ...]] | None = None
        for thrown in combinations(cards_of(hand), count(hand) - st.tighten_limit):
            child = st
            for c in thrown:
                child = step(child, Action(DISCARD, bit(c)))
            v = tuple(child.returns()) if child.is_terminal() else self._search(child)[0]
            if best is None or v[seat] > best[0][seat]:
                best = (v, thrown)
        assert best is not None
        return best[0], Action(DISCARD, bit(best[1][0]))


def solve(st: State) -> Solution:
    """Max-n values of position ``st`` with every hand open (a fresh table)."""
    return Solver().solve(st)


class SearchLimit(ValueError):
    """The search gave up after its allowed number of positions (the position is too big)."""


def solve_kernel(st: State, log2_rows: int | None = None,
                 max_positions: int = 1 << 62) -> Solution:
    """:func:`solve` by the jit-compiled solver (:mod:`kernels.xianniu.solver`): the same
    values and action, many times faster; ``positions`` counts the decisions searched
    (:class:`SearchLimit` past ``max_positions``). The table holds ``2**log2_rows``
    positions (56 bytes each; by default about what a search of the position keeps); a
    fuller search evicts and searches again, so a small table costs time, never exactness."""
    from kernels.xianniu import solver as ks

    from .kernel_state import ws_from_state
    from .sim import rule_arrays

    if st.is_terminal():
        raise ValueError("the hand is over: nothing to solve")
    ws = ws_from_state(st)
    stack = ks.new_stack(ks.stack_depth(ws))
    if log2_rows is None:
        log2_rows = min(22, max(12, sum(count(h) for h in st.hands) + 6))
    nodes = ks.solve_ws(ws, rule_arrays(st.rules), ks.new_table(log2_rows), 1, stack,
                        max_positions)
    if nodes < 0:
        raise SearchLimit(f"no answer within {max_positions} positions")
    best = int(stack[4][0, 2])
    action = Action(ACTION_KINDS[int(stack[2][0, best, 0])], int(stack[1][0, best]))
    return Solution(tuple(int(v) for v in stack[3][0]), action, int(nodes))


REACH = 200_000  # positions an open-hand check may search (the kernel: well under a second)


def reaches(st: State) -> bool:
    """Whether :func:`open_values` can value what follows a decision of ``st``: every
    decision of a 掀牛 hand is in its tree (its size is bounded by REACH alone)."""
    return True


def open_values(st: State) -> tuple[int, ...]:
    """Every seat's points from ``st`` (not over) with all hands open, by the kernel
    solver; SearchLimit past :data:`REACH` positions searched."""
    return solve_kernel(st, max_positions=REACH).values


def principal_line(st: State) -> State:
    """Play ``st`` to the end with every seat taking its max-n action (the engine checks)."""
    s = copy_state(st)
    s.history = list(st.history)
    solver = Solver()
    while not s.is_terminal():
        s.apply(solver.solve(s).action)
    return s


def late_position(seed: np.random.SeedSequence, rules: str, max_cards: int,
                  p_kou: float = 0.1) -> State:
    """A position (not over) with at most ``max_cards`` cards in the three hands together:
    random play from a seeded deal, calling 紧牌 whenever it may be called and 扣 with
    probability ``p_kou`` — the small positions the solver is tested and timed on."""
    from .reference_sim import deal_masks

    rng = np.random.default_rng(seed)
    while True:
        st = new_hand(deal_masks(rng), rules, int(rng.integers(3)))
        while not st.is_terminal() and sum(count(h) for h in st.hands) > max_cards:
            acts = st.legal_actions()
            tight = [a for a in acts if a.kind == TIGHTEN]
            plain = [a for a in acts if a.kind != KOU]
            pool = tight or (acts if not plain or rng.random() < p_kou else plain)
            st.apply(pool[int(rng.integers(len(pool)))])
        if not st.is_terminal():
            return st
