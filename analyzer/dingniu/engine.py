"""The 顶牛 reference engine: one hand as a state machine in plain Python (the oracle).

Verbs as in the 掀牛 engine: ``current_player``, ``legal_actions``, ``apply``,
``is_terminal``, ``returns``; ``verify`` names why an action is illegal. Actions are the
integers of :mod:`.tiles`. Rule numbers (R1 …) refer to docs/dingniu.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .rules import N_KINDS, N_SEATS, DingniuRules, get_rules
from .tiles import KOU, LEAD, format_action, format_tiles, split_action

NORMAL, SUAN = "normal", "suan"  # how a hand ended: all tiles out, or 算帐 (R8)


@dataclass
class State:
    """The whole state of one hand. Build it with :func:`new_hand`."""

    rules: DingniuRules
    dealt: tuple[tuple[int, ...], ...]
    hands: list[list[int]]
    kou: list[list[int]] = field(default_factory=lambda: [[0] * N_KINDS for _ in range(N_SEATS)])
    laid: list[int] = field(default_factory=lambda: [0] * N_KINDS)
    ends: tuple[int, int] | None = None  # open ends, smaller first; None before the lead
    turn: int = 0
    over: bool = False
    end_reason: str = ""
    suan_seat: int = -1  # the seat whose play was a 算帐
    history: list[tuple[int, int]] = field(default_factory=list)

    # -- the game API ----------------------------------------------------------------

    def current_player(self) -> int:
        """The seat to act, or -1 when the hand is over."""
        return -1 if self.over else self.turn

    def is_terminal(self) -> bool:
        """True when the hand is over."""
        return self.over

    def legal_actions(self) -> list[int]:
        """Every legal action of the seat to act, sorted; empty when the hand is over."""
        if self.over:
            return []
        return legal_in(self.rules, self.hands, self.turn, self.ends)

    def verify(self, a: int) -> None:
        """Raise ValueError with the reason when action ``a`` is not legal now."""
        if self.over:
            raise ValueError("the hand is over")
        if not isinstance(a, int) or not 0 <= a < N_KINDS * 8:
            raise ValueError(f"no action {a!r}")
        if a in self.legal_actions():
            return
        k, s = split_action(a)
        seat, hand, name = self.turn, self.hands[self.turn], self.rules.tiles[k].name
        if hand[k] == 0:
            raise ValueError(f"seat {seat} holds no {name}")
        if self.ends is None:
            if s != LEAD:
                raise ValueError("the first tile must be led")
            raise ValueError(f"不能拉三家: no tile outside seat {seat}'s hand could follow {name}")
        if s == LEAD:
            raise ValueError("the lead has been made")
        if s == KOU:
            raise ValueError(f"不能扣活牌: seat {seat} holds a tile that matches an open end")
        if s not in self.ends:
            raise ValueError(f"no open end shows {s} (open: {self.ends[0]} and {self.ends[1]})")
        raise ValueError(f"{name} has no end {s}")

    def can(self, a: int) -> bool:
        """True when action ``a`` is legal now."""
        try:
            self.verify(a)
        except ValueError:
            return False
        return True

    def apply(self, a: int) -> None:
        """Play action ``a`` (verified first)."""
        self.verify(a)
        r, seat = self.rules, self.turn
        k, s = split_action(a)
        hand = self.hands[seat]
        self.history.append((seat, a))
        if s == KOU:
            hand[k] -= 1
            self.kou[seat][k] += 1
        else:
            alternatives = [b for b in self.legal_actions() if b != a]
            n = 2 if s == LEAD and k in r.lead_pair_kinds and hand[k] == 2 else 1  # R4
            hand[k] -= n
            self.laid[k] += n
            before = self.ends
            self.ends = lay(r, before, k, s)
            if s != LEAD and r.suan_zhang and is_suan(r, self.hands, seat, before, self.ends,
                                                       alternatives):
                self.over, self.end_reason, self.suan_seat = True, SUAN, seat
                return
        for step in range(1, N_SEATS + 1):
            nxt = (seat + step) % N_SEATS
            if sum(self.hands[nxt]):
                self.turn = nxt
                return
        self.over, self.end_reason = True, NORMAL

    def kou_pips(self) -> list[int]:
        """Pips 扣ed by each seat."""
        return [int(sum(c * p for c, p in zip(row, self.rules.pips))) for row in self.kou]

    def totals(self) -> list[int]:
        """Each seat's count: 扣 pips, and after a 算帐 the pips R8 and R9 count."""
        kp = self.kou_pips()
        if self.end_reason != SUAN:
            return kp
        return suan_totals(self.rules, kp, self.hands, self.suan_seat, self.ends)

    def returns(self) -> list[int]:
        """Points of each seat (zero-sum); all zeros before the end."""
        if not self.over:
            return [0] * N_SEATS
        return settle(self.rules, self.totals(), self.suan_seat)

    def describe(self) -> list[str]:
        """One line per action, for replay output."""
        return [f"seat {s}: {format_action(a)}" for s, a in self.history]

    def hand_text(self, seat: int) -> str:
        return format_tiles(self.hands[seat])


def rank(totals: list[int]) -> list[int]:
    """Seats from winner to 小庄: winner = least (total, seat); losers by (-total, seat) (R5)."""
    winner = min(range(len(totals)), key=lambda i: (totals[i], i))
    losers = sorted((i for i in range(len(totals)) if i != winner), key=lambda i: (-totals[i], i))
    return [winner, *losers]


def settle(r: DingniuRules, totals: list[int], suan_seat: int = -1) -> list[int]:
    """Points of each seat from the totals; ``suan_seat`` ≥ 0 after a 算帐 (R9, R10)."""
    pts = [0] * N_SEATS
    if suan_seat < 0:
        order = rank(totals)
        pts[order[0]] = r.win_points
        for seat, loss in zip(order[1:], r.loss_points):
            pts[seat] = -loss
        return pts
    f = r.suan_factor
    others = [i for i in range(N_SEATS) if i != suan_seat]
    if all(totals[suan_seat] < totals[i] for i in others):
        losers = sorted(others, key=lambda i: (-totals[i], i))
        pts[suan_seat] = f * r.win_points
        for seat, loss in zip(losers, r.loss_points):
            pts[seat] = -f * loss
    else:
        winner = min(others, key=lambda i: (totals[i], i))
        pts[winner] = f * r.win_points
        pts[suan_seat] = -f * r.win_points
    return pts


def lay(r: DingniuRules, ends: tuple[int, int] | None, k: int, slot: int) -> tuple[int, int]:
    """The open ends after laying kind ``k`` in ``slot`` (R1)."""
    a, b = (int(x) for x in r.ends[k])
    if slot == LEAD or ends is None:
        return (a, b)
    other = b if a == slot else a
    x, y = ends
    return tuple(sorted((y, other))) if x == slot else tuple(sorted((x, other)))


def drags(r: DingniuRules, hand: list[int], k: int) -> bool:
    """不能拉三家 (R3): no 竖牌 outside ``hand`` shares an end with the first tile ``k``."""
    a, b = r.ends[k]
    outside = 0
    for j in range(N_KINDS):
        if not r.double[j] and (r.match[j, a] or r.match[j, b]):
            outside += int(r.counts[j]) - hand[j]
    return outside == 0


def legal_in(r: DingniuRules, hands: list[list[int]], seat: int,
             ends: tuple[int, int] | None) -> list[int]:
    """Legal actions of ``seat`` holding ``hands[seat]`` with open ``ends`` (None: lead)."""
    hand = hands[seat]
    held = [k for k in range(N_KINDS) if hand[k] > 0]
    if ends is None:
        leads = [k * 8 + LEAD for k in held if not (r.lead_no_drag and drags(r, hand, k))]
        return leads or [k * 8 + LEAD for k in held]
    plays = [k * 8 + v for k in held for v in sorted(set(ends)) if r.match[k, v]]
    return sorted(plays) if plays else [k * 8 + KOU for k in held]


def open_values(r: DingniuRules, hands: list[list[int]], seat: int,
                ends: tuple[int, int] | None) -> int:
    """Bit v set when another seat holds a 竖牌 with an end v that matches an open end."""
    bits = 0
    if ends is None:
        return 0
    for j in range(N_SEATS):
        if j == seat:
            continue
        for k in range(N_KINDS):
            if hands[j][k] and not r.double[k] and (r.match[k, ends[0]] or r.match[k, ends[1]]):
                a, b = r.ends[k]
                bits |= 1 << int(a) | 1 << int(b)
    return bits


def lock_values(r: DingniuRules, hands: list[list[int]], seat: int,
                before: tuple[int, int] | None, after: tuple[int, int]) -> int:
    """R6: the values a play by ``seat`` (ends ``before`` → ``after``) shuts out, 0 if it
    does not lock. Scope "all": the others' 竖牌 could go before and none can after; scope
    "value": some value's 竖牌 could go before and none of them can after."""
    ob, oa = open_values(r, hands, seat, before), open_values(r, hands, seat, after)
    if r.lock_scope == "all":
        return ob if ob and not oa else 0
    return ob & ~oa


def is_suan(r: DingniuRules, hands: list[list[int]], seat: int, before: tuple[int, int],
            after: tuple[int, int], alternatives: list[int]) -> bool:
    """R6, R7, R11: the play of ``seat`` (``hands`` after it) that took the ends from
    ``before`` to ``after`` is a 算帐; ``alternatives``: the seat's other legal plays."""
    shut = lock_values(r, hands, seat, before, after)
    if not shut:
        return False
    hand = hands[seat]
    if seat == 0 and (sum(hand) == 0 or (r.tou_exempt == "playable_hand" and all(
            r.match[k, after[0]] or r.match[k, after[1]] for k in range(N_KINDS) if hand[k]))):
        return False  # R11
    chose = any(not lock_values(r, hands, seat, before, lay(r, before, *split_action(b)))
                for b in alternatives)
    return chose or not shut & r.dead_smash_mask  # R7: a forced lock may be 死砸


def suan_totals(r: DingniuRules, kou: list[int], hands: list[list[int]], seat: int,
                ends: tuple[int, int]) -> list[int]:
    """Totals after a 算帐 by ``seat``: its 扣 and hand pips; the others' 扣 pips, plus their
    hand pips when counted (R9), less the doubles they lay on an open end first (R8)."""
    out = []
    for i in range(N_SEATS):
        t = kou[i]
        if i == seat or r.count_others_hand:
            for k in range(N_KINDS):
                c = hands[i][k]
                if c and not (i != seat and r.closing_doubles and r.double[k]
                              and (r.match[k, ends[0]] or r.match[k, ends[1]])):
                    t += c * int(r.pips[k])
        out.append(t)
    return out


def new_hand(hands: list[list[int]] | list[str], rules: str | DingniuRules | None = None) -> State:
    """The state after the deal: four hands (counts per kind, or tile strings); seat 0 leads."""
    from .tiles import parse_hand

    r = get_rules(rules)
    parsed = [parse_hand(h, r.hand_size) if isinstance(h, str) else [int(x) for x in h]
              for h in hands]
    if len(parsed) != N_SEATS or any(len(h) != N_KINDS for h in parsed):
        raise ValueError(f"a deal has {N_SEATS} hands of {N_KINDS} counts")
    for seat, h in enumerate(parsed):
        if sum(h) != r.hand_size or min(h) < 0:
            raise ValueError(f"seat {seat} must hold {r.hand_size} tiles, got {sum(h)}")
    for k in range(N_KINDS):
        if sum(h[k] for h in parsed) != r.counts[k]:
            raise ValueError(f"the deal holds {sum(h[k] for h in parsed)} {r.tiles[k].name}, "
                             f"the set has {r.counts[k]}")
    return State(r, tuple(tuple(h) for h in parsed), [list(h) for h in parsed])
