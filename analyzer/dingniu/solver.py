"""Exact play with all four hands open (perfect information), for what hiding costs.

Max-n: at every decision the seat to act picks the action with the highest points for
itself, assuming every later seat does the same; among equal actions the lowest action number
is taken, so a position has one value vector (R13 of docs/rules/dingniu.md). Positions are
memoised on (hands, open ends, seat to act, 扣 pips), packed into one integer. Pure Python:
a position after the first round takes a fraction of a second, a whole deal a few seconds.
"""

from __future__ import annotations

from typing import NamedTuple

from .engine import State, settle, suan_totals
from .rules import N_KINDS, N_SEATS, DingniuRules
from .tiles import KOU


class Solution(NamedTuple):
    """Points of each seat under max-n play, the best action now, positions memoised."""

    values: tuple[int, ...]
    action: int
    positions: int


class _Tables:
    """Per-kind facts as plain Python values, and caches keyed by a hand's code.

    A hand is coded as ``sum(count[k] * 3**k)``; its singles (竖牌) as a bit per kind.
    """

    def __init__(self, r: DingniuRules) -> None:
        self.r = r
        self.ends = [tuple(int(x) for x in e) for e in r.ends]
        self.pips = [int(p) for p in r.pips]
        self.pow3 = [3 ** k for k in range(N_KINDS)]
        single = [not bool(d) for d in r.double]
        # singles_on[v]: bits of the 竖牌 kinds with an end v
        self.singles_on = [sum(1 << k for k in range(N_KINDS) if single[k] and v in self.ends[k])
                           for v in range(7)]
        self.single_bit = [1 << k if single[k] else 0 for k in range(N_KINDS)]
        self._info: dict[int, tuple[tuple[int, ...], int, int]] = {}
        self._legal: dict[tuple[int, int, int], tuple[int, ...]] = {}
        self._values: dict[int, int] = {}

    def info(self, code: int) -> tuple[tuple[int, ...], int, int]:
        """(kinds held, pips, bits of the 竖牌 kinds held) of a hand code."""
        got = self._info.get(code)
        if got is None:
            kinds, pips, bits, c = [], 0, 0, code
            for k in range(N_KINDS):
                c, x = divmod(c, 3)
                if x:
                    kinds.append(k)
                    pips += x * self.pips[k]
                    bits |= self.single_bit[k]
            got = (tuple(kinds), pips, bits)
            self._info[code] = got
        return got

    def legal(self, code: int, e0: int, e1: int) -> tuple[int, ...]:
        """Sorted legal actions of a hand with open ends ``e0 <= e1`` (engine.legal_in)."""
        key = (code, e0, e1)
        got = self._legal.get(key)
        if got is None:
            kinds = self.info(code)[0]
            vals = (e0,) if e0 == e1 else (e0, e1)
            plays = [k * 8 + v for k in kinds for v in vals if v in self.ends[k]]
            got = tuple(plays) if plays else tuple(k * 8 + KOU for k in kinds)
            self._legal[key] = got
        return got

    def lay(self, e0: int, e1: int, k: int, slot: int) -> tuple[int, int]:
        """Open ends after laying ``k`` on the end showing ``slot`` (engine.lay)."""
        a, b = self.ends[k]
        other = b if a == slot else a
        keep = e1 if e0 == slot else e0
        return (keep, other) if keep <= other else (other, keep)

    def open_values(self, codes: tuple[int, ...], seat: int, e0: int, e1: int) -> int:
        """Bit v: another seat holds a 竖牌 with an end v on an open end (engine.open_values)."""
        bits = 0
        for j in range(N_SEATS):
            if j != seat:
                bits |= self.info(codes[j])[2]
        bits &= self.singles_on[e0] | self.singles_on[e1]
        got = self._values.get(bits)
        if got is None:
            got = 0
            for k in range(N_KINDS):
                if bits >> k & 1:
                    got |= 1 << self.ends[k][0] | 1 << self.ends[k][1]
            self._values[bits] = got
        return got

    def locked(self, ob: int, oa: int) -> int:
        """R6: the values shut out when the open values go from ``ob`` to ``oa``."""
        if self.r.lock_scope == "value":
            return ob & ~oa
        return ob if ob and not oa else 0

    def is_suan(self, codes: tuple[int, ...], new: tuple[int, ...], turn: int, e0: int,
                e1: int, n0: int, n1: int, a: int) -> bool:
        """R6, R7, R11: the play ``a`` (hands ``codes`` → ``new``, ends → ``n0, n1``) is a
        算帐 (engine.is_suan)."""
        ob = self.open_values(new, turn, e0, e1)
        shut = self.locked(ob, self.open_values(new, turn, n0, n1)) if ob else 0
        if not shut:
            return False
        if turn == 0 and (new[0] == 0 or (self.r.tou_exempt == "playable_hand" and all(
                n0 in self.ends[k] or n1 in self.ends[k] for k in self.info(new[0])[0]))):
            return False
        for b in self.legal(codes[turn], e0, e1):
            if b != a:
                kb, sb = divmod(b, 8)
                if not self.locked(ob, self.open_values(new, turn, *self.lay(e0, e1, kb, sb))):
                    return True
        return not shut & self.r.dead_smash_mask

    def counts(self, code: int) -> list[int]:
        """The count per kind of a hand code."""
        out = []
        for _ in range(N_KINDS):
            code, x = divmod(code, 3)
            out.append(x)
        return out


class SearchLimit(ValueError):
    """The search passed its allowed number of positions (the position is too big)."""


class Solver:
    """Max-n values of 顶牛 positions with all hands open; one memo per rules; SearchLimit
    once it holds ``limit`` positions (None: no limit)."""

    def __init__(self, r: DingniuRules, limit: int | None = None) -> None:
        self.t = _Tables(r)
        self.memo: dict[int, tuple[int, ...]] = {}
        self.limit = limit

    def solve(self, st: State) -> Solution:
        """Values and best action of the position ``st`` (not over)."""
        if st.is_terminal():
            raise ValueError("the hand is over")
        if st.ends is None:
            # the lead has its own rules (R3, R4): value each legal lead through the engine
            best: tuple[tuple[int, ...], int] | None = None
            for a in st.legal_actions():
                child = st.clone()
                child.apply(a)
                v = tuple(child.returns()) if child.is_terminal() else self.solve(child).values
                if best is None or v[0] > best[0][0]:
                    best = (v, a)
            assert best is not None
            return Solution(best[0], best[1], len(self.memo))
        codes = tuple(sum(c * p for c, p in zip(h, self.t.pow3)) for h in st.hands)
        e0, e1 = st.ends
        turn, kou = st.turn, tuple(st.kou_pips())
        legal = self.t.legal(codes[turn], e0, e1)
        vals = [self._child(codes, e0, e1, turn, kou, a) for a in legal]
        i = max(range(len(legal)), key=lambda j: (vals[j][turn], -j))
        return Solution(vals[i], legal[i], len(self.memo))

    def _value(self, codes: tuple[int, ...], e0: int, e1: int, turn: int,
               kou: tuple[int, ...]) -> tuple[int, ...]:
        # codes < 3**13 < 2**21, ends < 8, 扣 pips < 256: one integer key
        key = (codes[0] | codes[1] << 21 | codes[2] << 42 | codes[3] << 63 | e0 << 84
               | e1 << 87 | turn << 90 | kou[0] << 92 | kou[1] << 100 | kou[2] << 108
               | kou[3] << 116)
        got = self.memo.get(key)
        if got is not None:
            return got
        best: tuple[int, ...] | None = None
        for a in self.t.legal(codes[turn], e0, e1):
            v = self._child(codes, e0, e1, turn, kou, a)
            if best is None or v[turn] > best[turn]:
                best = v
        assert best is not None
        if self.limit is not None and len(self.memo) >= self.limit:
            raise SearchLimit(f"more than {self.limit} positions")
        self.memo[key] = best
        return best

    def _child(self, codes: tuple[int, ...], e0: int, e1: int, turn: int,
               kou: tuple[int, ...], a: int) -> tuple[int, ...]:
        t = self.t
        k, slot = divmod(a, 8)
        mine = codes[turn] - t.pow3[k]
        new = codes[:turn] + (mine,) + codes[turn + 1:]
        if slot == KOU:
            kou = kou[:turn] + (kou[turn] + t.pips[k],) + kou[turn + 1:]
            n0, n1 = e0, e1
        else:
            n0, n1 = t.lay(e0, e1, k, slot)
            if t.r.suan_zhang and t.is_suan(codes, new, turn, e0, e1, n0, n1, a):
                totals = suan_totals(t.r, list(kou), [t.counts(c) for c in new], turn, (n0, n1))
                return tuple(settle(t.r, totals, turn))
        for step in range(1, N_SEATS + 1):
            nxt = (turn + step) % N_SEATS
            if new[nxt]:
                return self._value(new, n0, n1, nxt, kou)
        return tuple(settle(t.r, list(kou)))


def solve(st: State) -> Solution:
    """Max-n values of position ``st`` with every hand open (a fresh memo)."""
    return Solver(st.rules).solve(st)


REACH = 20_000  # positions an open-hand check may memoise (pure Python: about half a second)


def reaches(st: State) -> bool:
    """Whether :func:`open_values` can value what follows a decision of ``st``: every
    decision of a 顶牛 hand is in its tree (its size is bounded by REACH alone)."""
    return True


def open_values(st: State) -> tuple[int, ...]:
    """Every seat's points from ``st`` (not over) with all hands open; SearchLimit past
    :data:`REACH` positions (a whole hand is about 500,000: tens of seconds)."""
    return Solver(st.rules, REACH).solve(st).values


def principal_line(st: State) -> State:
    """Play ``st`` to the end with every seat taking its max-n action (the engine applies)."""
    s = st.clone()
    solver = Solver(st.rules)
    while not s.is_terminal():
        s.apply(solver.solve(s).action)
    return s
