"""The 顶牛 reference engine: one hand as a state machine in plain Python (the oracle).

``State`` has the verbs of the game contract (:mod:`analyzer.core.game`):
``current_player``, ``legal_actions``, ``verify`` (names why an action is illegal), ``can``,
``apply``, ``is_terminal``, ``returns``, ``clone`` and ``view(seat)``; the module declares
:data:`FACTS` and the contract's helpers (:func:`action_key`, :func:`random_start`,
:func:`random_action`, :func:`redeal_hidden`, :func:`candidate_actions`). Actions are the
integers of :mod:`.tiles`. Rule numbers (R1 …) refer to docs/rules/dingniu.md.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ..core.game import TERMINAL, GameFacts
from .rules import N_KINDS, N_SEATS, PRESETS, SEAT_NAMES, DingniuRules, get_rules
from .tiles import KOU, LEAD, N_ACTIONS, format_action, format_tiles, parse_hand, split_action

NORMAL, SUAN = "normal", "suan"  # how a hand ended: all tiles out, or 算帐 (R8)
HIDDEN = -1  # another seat's 扣 in a view's moves: face down, its tile unknown (R12)

FACTS = GameFacts(
    name="dingniu",
    n_seats=N_SEATS,
    teams=tuple((s,) for s in range(N_SEATS)),  # every seat plays for itself
    # every action takes at least one tile out of a hand (lays it, or 扣s it), and the
    # four hands hold all 24 tiles: a hand has at most 24 actions
    max_length=sum(t.count for t in get_rules().tiles),
    utility_sum=0,  # +6 −3 −2 −1, or after a 算帐 ±12 paid by the others or to one (R9, R10)
    returns_unit="points",
    presets=tuple(PRESETS),
)


@dataclass(frozen=True)
class View:
    """What ``seat`` may see of a hand now (R12): its own tiles and 扣, the laid tiles and
    open ends, every seat's tiles in hand and number of 扣, and the moves with the other
    seats' 扣 face down (``HIDDEN``). Once the hand is over every tile is shown: ``shown``
    holds each seat's tiles left in hand and 扣ed, and ``returns`` the points."""

    seat: int
    rules: str
    turn: int  # the seat to act, TERMINAL once over
    hand: tuple[int, ...]  # counts per kind
    kou: tuple[int, ...]  # my own 扣, counts per kind
    ends: tuple[int, int] | None
    laid: tuple[int, ...]
    left: tuple[int, ...]  # tiles in each seat's hand
    n_kou: tuple[int, ...]  # tiles each seat has 扣ed
    moves: tuple[tuple[int, int], ...]  # (seat, action); another seat's 扣 is (seat, HIDDEN)
    returns: tuple[int, ...]
    shown: tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]] | None = None


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
    # the legal actions of the last position asked about, by (turn, ends, hand): a cache
    _legal: tuple[tuple, list[int]] | None = field(default=None, compare=False, repr=False)

    # -- the game API ----------------------------------------------------------------

    def current_player(self) -> int:
        """The seat to act, TERMINAL (-1) when the hand is over."""
        return TERMINAL if self.over else self.turn

    def is_terminal(self) -> bool:
        """True when the hand is over."""
        return self.over

    def legal_actions(self) -> list[int]:
        """Every legal action of the seat to act, sorted; empty when the hand is over."""
        if self.over:
            return []
        return list(self._listed())

    def _listed(self) -> list[int]:
        """The legal actions now (not over), computed once per position."""
        key = (self.turn, self.ends, *self.hands[self.turn])
        got = self._legal
        if got is None or got[0] != key:
            got = self._legal = (key, legal_in(self.rules, self.hands, self.turn, self.ends))
        return got[1]

    def verify(self, a: int) -> None:
        """Raise ValueError with the reason when action ``a`` is not legal now."""
        if self.over:
            raise ValueError("the hand is over")
        if isinstance(a, bool) or not isinstance(a, int) or not 0 <= a < N_ACTIONS:
            raise ValueError(f"no action {a!r} (actions are 0–{N_ACTIONS - 1})")
        if a in self._listed():
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
        assert self.ends is not None
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
            alternatives = [b for b in self._listed() if b != a]
            n = 2 if s == LEAD and k in r.lead_pair_kinds and hand[k] == 2 else 1  # R4
            hand[k] -= n
            self.laid[k] += n
            before = self.ends
            self.ends = lay(r, before, k, s)
            if before is not None and r.suan_zhang and is_suan(r, self.hands, seat, before,
                                                                self.ends, alternatives):
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
        if self.end_reason != SUAN or self.ends is None:
            return kp
        return suan_totals(self.rules, kp, self.hands, self.suan_seat, self.ends)

    def returns(self) -> list[int]:
        """Points of each seat (zero-sum); all zeros before the end."""
        if not self.over:
            return [0] * N_SEATS
        return settle(self.rules, self.totals(), self.suan_seat)

    def clone(self) -> State:
        """An independent copy."""
        return State(self.rules, self.dealt, [list(h) for h in self.hands],
                     [list(c) for c in self.kou], list(self.laid), self.ends, self.turn,
                     self.over, self.end_reason, self.suan_seat, list(self.history))

    def view(self, seat: int) -> View:
        """What ``seat`` may see now (R12): see :class:`View`."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < N_SEATS:
            raise ValueError(f"no seat {seat!r} (seats 0–{N_SEATS - 1})")
        moves = tuple([(s, HIDDEN) if s != seat and a & 7 == KOU else (s, a)
                       for s, a in self.history])
        shown = None
        if self.over:
            shown = (tuple(map(tuple, self.hands)), tuple(map(tuple, self.kou)))
        return View(seat, self.rules.name, self.current_player(), tuple(self.hands[seat]),
                    tuple(self.kou[seat]), self.ends, tuple(self.laid),
                    tuple(map(sum, self.hands)), tuple(map(sum, self.kou)), moves,
                    tuple(self.returns()), shown)

    def describe(self) -> list[str]:
        """One line per action, for replay output (``seat 1 二牌: 虎头 on 5``)."""
        return [f"seat {s} {SEAT_NAMES[s]}: {format_action(a)}" for s, a in self.history]

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
    keep = y if x == slot else x
    return (keep, other) if keep <= other else (other, keep)


class _Tables:
    """A preset's tile table as plain Python values (the engine reads them on every move)."""

    def __init__(self, r: DingniuRules) -> None:
        self.ends = [(int(a), int(b)) for a, b in r.ends]
        self.singles = [k for k in range(N_KINDS) if not r.double[k]]  # 竖牌
        # follow[k]: the 竖牌 kinds sharing an end with kind k (R3)
        self.follow = [[j for j in self.singles if set(self.ends[j]) & set(self.ends[k])]
                       for k in range(N_KINDS)]
        self.counts = [int(c) for c in r.counts]
        # bits[k]: bit v set for each end v of kind k
        self.bits = [1 << a | 1 << b for a, b in self.ends]


_TABLES: dict[int, tuple[DingniuRules, _Tables]] = {}


def _tables(r: DingniuRules) -> _Tables:
    got = _TABLES.get(id(r))
    if got is None or got[0] is not r:
        got = _TABLES[id(r)] = (r, _Tables(r))
    return got[1]


def drags(r: DingniuRules, hand: list[int], k: int) -> bool:
    """不能拉三家 (R3): no 竖牌 outside ``hand`` shares an end with the first tile ``k``."""
    t = _tables(r)
    return all(t.counts[j] == hand[j] for j in t.follow[k])


def legal_in(r: DingniuRules, hands: list[list[int]], seat: int,
             ends: tuple[int, int] | None) -> list[int]:
    """Legal actions of ``seat`` holding ``hands[seat]`` with open ``ends`` (None: lead)."""
    hand = hands[seat]
    held = [k for k in range(N_KINDS) if hand[k] > 0]
    if ends is None:
        leads = [k * 8 + LEAD for k in held if not (r.lead_no_drag and drags(r, hand, k))]
        return leads or [k * 8 + LEAD for k in held]
    t = _tables(r)
    values = ends[:1] if ends[0] == ends[1] else ends
    plays = [k * 8 + v for k in held for v in values if v in t.ends[k]]
    return plays if plays else [k * 8 + KOU for k in held]


def open_values(r: DingniuRules, hands: list[list[int]], seat: int,
                ends: tuple[int, int] | None) -> int:
    """Bit v set when another seat holds a 竖牌 with an end v that matches an open end."""
    bits = 0
    if ends is None:
        return 0
    t = _tables(r)
    show = 1 << ends[0] | 1 << ends[1]
    for j in range(N_SEATS):
        if j == seat:
            continue
        hand = hands[j]
        for k in t.singles:
            if hand[k] and t.bits[k] & show:
                bits |= t.bits[k]
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


# -- what the contract asks of the engine module ---------------------------------------------


def action_key(a: int) -> int:
    """The sort key of the engine's order of actions: the action number."""
    return a


def random_start(rules: str | DingniuRules, rng: random.Random) -> State:
    """A new hand of ``rules`` from a uniform deal drawn by ``rng``."""
    r = get_rules(rules)
    deck = [k for k in range(N_KINDS) for _ in range(int(r.counts[k]))]
    rng.shuffle(deck)
    n = r.hand_size
    return new_hand([[deck[n * s:n * s + n].count(k) for k in range(N_KINDS)]
                     for s in range(N_SEATS)], r)


def random_action(state: State, rng: random.Random) -> int:
    """A uniformly random legal action (every 顶牛 decision is listed)."""
    return rng.choice(state.legal_actions())


def redeal_hidden(state: State, seat: int, rng: random.Random) -> State:
    """A clone of ``state`` in which the tiles ``seat`` cannot see — the other seats' hands
    and their face-down 扣 — are dealt anew among those places, each keeping its size (the
    other seats' 扣 in the history and their dealt hands follow). Once the hand is over
    every tile is shown and nothing is dealt anew."""
    out = state.clone()
    if state.over:
        return out
    others = [s for s in range(N_SEATS) if s != seat]
    pool = [k for s in others for row in (state.hands[s], state.kou[s])
            for k in range(N_KINDS) for _ in range(row[k])]
    rng.shuffle(pool)
    kou_order: dict[int, list[int]] = {}
    for s in others:
        n_hand, n_kou = sum(state.hands[s]), sum(state.kou[s])
        hand, kous, pool = pool[:n_hand], pool[n_hand:n_hand + n_kou], pool[n_hand + n_kou:]
        out.hands[s] = [hand.count(k) for k in range(N_KINDS)]
        out.kou[s] = [kous.count(k) for k in range(N_KINDS)]
        kou_order[s] = kous
    dealt = [list(h) for h in out.hands]
    for s in range(N_SEATS):
        for k in range(N_KINDS):
            dealt[s][k] += out.kou[s][k]
    for i, (s, a) in enumerate(out.history):
        k, slot = split_action(a)
        if slot == KOU and s != seat:
            out.history[i] = (s, kou_order[s].pop(0) * 8 + KOU)
        elif slot != KOU:  # a tile laid; R4: a pair led together lays two
            pair = slot == LEAD and k in state.rules.lead_pair_kinds and state.dealt[s][k] == 2
            dealt[s][k] += 2 if pair else 1
    out.dealt = tuple(tuple(h) for h in dealt)
    return out


def candidate_actions(state: State, rng: random.Random) -> list[int]:
    """A few actions to try against ``verify``, mostly illegal now: held tiles led, 扣ed
    and laid on a random end value, a tile not held, numbers outside the action range."""
    hand = state.hands[state.current_player()]
    held = [k for k in range(N_KINDS) if hand[k]]
    out = [k * 8 + slot for k in rng.sample(held, min(2, len(held)))
           for slot in (LEAD, KOU, rng.randrange(1, 7))]
    missing = [k for k in range(N_KINDS) if not hand[k]]
    if missing:
        k = rng.choice(missing)
        out += [k * 8 + LEAD, k * 8 + KOU, k * 8 + rng.randrange(1, 7)]
    return out + [rng.choice((-1, N_ACTIONS))]
