"""Exact play with all four hands open (perfect information), for what hiding costs.

Max-n: at every decision the seat to act picks the action with the highest points for
itself, assuming every later seat does the same; among equal actions the lowest action number
is taken, so a position has one value vector (R13 of docs/dingniu.md). Positions are
memoised on (hands, open ends, seat to act, 扣 pips). Pure Python: a deal from the start
takes about a second (``xianniu dingniu best-play`` prints the time).
"""

from __future__ import annotations

from typing import NamedTuple

from .engine import State, settle
from .rules import N_KINDS, N_SEATS, DingniuRules
from .tiles import KOU, LEAD

Hands = tuple[tuple[int, ...], ...]


class Solution(NamedTuple):
    """Points of each seat under max-n play, the best action now, positions searched."""

    values: tuple[int, ...]
    action: int
    positions: int


class _Tables:
    def __init__(self, r: DingniuRules) -> None:
        self.r = r
        self.ends = [tuple(int(x) for x in e) for e in r.ends]
        self.pips = [int(p) for p in r.pips]
        self.single = [not bool(d) for d in r.double]
        self.counts = [int(c) for c in r.counts]
        # kinds with an end v, by v
        self.with_end = [[k for k in range(N_KINDS) if v in self.ends[k]] for v in range(7)]
        self.singles_with = [[k for k in ks if self.single[k]] for ks in self.with_end]


def _lay(t: _Tables, ends: tuple[int, int] | None, k: int, slot: int) -> tuple[int, int]:
    a, b = t.ends[k]
    if slot == LEAD or ends is None:
        return (a, b)
    other = b if a == slot else a
    x, y = ends
    keep = y if x == slot else x
    return (keep, other) if keep <= other else (other, keep)


def _shut(t: _Tables, hands: Hands | list, seat: int, ends: tuple[int, int]) -> bool:
    """R6 after-condition: the others hold 竖牌 but none on an open end (engine.locks)."""
    any_single = False
    for j in range(N_SEATS):
        if j == seat:
            continue
        h = hands[j]
        for k in range(N_KINDS):
            if h[k] and t.single[k]:
                any_single = True
                if k in t.singles_with[ends[0]] or k in t.singles_with[ends[1]]:
                    return False
    return any_single


def _legal(t: _Tables, hand: tuple[int, ...], ends: tuple[int, int]) -> list[int]:
    vals = (ends[0],) if ends[0] == ends[1] else ends
    plays = [k * 8 + v for k in range(N_KINDS) if hand[k] for v in vals if v in t.ends[k]]
    return sorted(plays) if plays else [k * 8 + KOU for k in range(N_KINDS) if hand[k]]


class Solver:
    """Max-n values of 顶牛 positions with all hands open; one memo per deal and rules."""

    def __init__(self, r: DingniuRules) -> None:
        self.t = _Tables(r)
        self.memo: dict = {}

    def solve(self, st: State) -> Solution:
        """Values and best action of the position ``st`` (not over, lead already made)."""
        if st.is_terminal():
            raise ValueError("the hand is over")
        if st.ends is None:
            # the lead has its own rules; value each legal lead through the engine
            best: tuple[tuple[int, ...], int] | None = None
            for a in st.legal_actions():
                child = _copy(st)
                child.apply(a)
                v = self._value(*_key(child))
                if best is None or v[0] > best[0][0]:
                    best = (v, a)
            assert best is not None
            return Solution(best[0], best[1], len(self.memo))
        hands, ends, turn, kou = _key(st)
        legal = _legal(self.t, hands[turn], ends)
        vals = [self._child(hands, ends, turn, kou, a) for a in legal]
        i = max(range(len(legal)), key=lambda j: (vals[j][turn], -j))
        return Solution(vals[i], legal[i], len(self.memo))

    def _value(self, hands: Hands, ends: tuple[int, int], turn: int,
               kou: tuple[int, ...]) -> tuple[int, ...]:
        key = (hands, ends, turn, kou)
        got = self.memo.get(key)
        if got is not None:
            return got
        best: tuple[int, ...] | None = None
        for a in _legal(self.t, hands[turn], ends):
            v = self._child(hands, ends, turn, kou, a)
            if best is None or v[turn] > best[turn]:
                best = v
        assert best is not None
        self.memo[key] = best
        return best

    def _child(self, hands: Hands, ends: tuple[int, int], turn: int, kou: tuple[int, ...],
               a: int) -> tuple[int, ...]:
        t = self.t
        k, slot = divmod(a, 8)
        hand = list(hands[turn])
        hand[k] -= 1
        new = hands[:turn] + (tuple(hand),) + hands[turn + 1:]
        if slot == KOU:
            kou = kou[:turn] + (kou[turn] + t.pips[k],) + kou[turn + 1:]
            new_ends = ends
        else:
            new_ends = _lay(t, ends, k, slot)
            if (t.r.suan_zhang and _shut(t, new, turn, new_ends)
                    and not _shut(t, hands, turn, ends)
                    and not (turn == 0 and sum(hand) == 0)):  # R11
                chose = False
                for b in _legal(t, hands[turn], ends):
                    if b == a:
                        continue
                    kb, sb = divmod(b, 8)
                    hb = list(hands[turn])
                    hb[kb] -= 1
                    alt = hands[:turn] + (tuple(hb),) + hands[turn + 1:]
                    if not _shut(t, alt, turn, _lay(t, ends, kb, sb)):
                        chose = True
                        break
                if chose:  # 算帐 (R7, R8)
                    totals = [kou[i] + sum(c * p for c, p in zip(new[i], t.pips))
                              for i in range(N_SEATS)]
                    return tuple(settle(t.r, totals, turn))
        for step in range(1, N_SEATS + 1):
            nxt = (turn + step) % N_SEATS
            if sum(new[nxt]):
                return self._value(new, new_ends, nxt, kou)
        return tuple(settle(t.r, list(kou)))


def _key(st: State) -> tuple[Hands, tuple[int, int], int, tuple[int, ...]]:
    return (tuple(tuple(h) for h in st.hands), st.ends, st.turn, tuple(st.kou_pips()))


def _copy(st: State) -> State:
    return State(st.rules, st.dealt, [list(h) for h in st.hands], [list(c) for c in st.kou],
                 list(st.laid), st.ends, st.turn, st.over, st.end_reason, st.suan_seat,
                 list(st.history))


def solve(st: State) -> Solution:
    """Max-n values of position ``st`` with every hand open (a fresh memo)."""
    return Solver(st.rules).solve(st)


def principal_line(st: State) -> State:
    """Play ``st`` to the end with every seat taking its max-n action (the engine applies)."""
    s = _copy(st)
    solver = Solver(st.rules)
    while not s.is_terminal():
        s.apply(solver.solve(s).action)
    return s
