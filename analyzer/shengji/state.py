"""The data of one 双升 hand: the deal, the random outcomes, what each phase has left, and
the public facts (docs/rules/shengji.md §4–6). No verbs: the engine (:mod:`.engine`) plays a
:class:`HandState` through the phase modules (:mod:`.bidding_phase`, :mod:`.play_phase`),
which import this module and not the engine.

Every random choice — the redeal after a 造反, the random kitty-card trump (§4.4.3), the first
seat when ``declare_start="random"`` — comes from the hand's :class:`Chance` and is logged
there, so a record of the deal, those outcomes and the actions fixes the hand.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Self

from .actions import DECLARE_PHASE, HAND_SIZE, KITTY_SIZE, N_SEATS, Action, HandResult, Trick
from .bidding import Declaration
from .cards import DECK, Context, as_cards, format_cards
from .rules import ShengjiRules

Hands = tuple[tuple[int, ...], ...]
Deal = tuple[Hands, tuple[int, ...]]  # four hands and the kitty


def deal(rng: random.Random) -> Deal:
    """A shuffled deal: four 25-card hands and the 8-card kitty (底牌)."""
    deck = list(DECK)
    rng.shuffle(deck)
    hands = tuple(tuple(sorted(deck[HAND_SIZE * s:HAND_SIZE * (s + 1)])) for s in range(N_SEATS))
    return hands, tuple(sorted(deck[HAND_SIZE * N_SEATS:]))


def verify_deal(hands: Iterable, kitty) -> Deal:
    """The deal as card tuples; ValueError unless it is 4 × 25 cards + 8 making the 108."""
    hands = list(hands)
    if len(hands) != N_SEATS:
        raise ValueError(f"a deal has {N_SEATS} hands, got {len(hands)}")
    out = tuple(as_cards(h) for h in hands)
    kitty = as_cards(kitty)
    for seat, h in enumerate(out):
        if len(h) != HAND_SIZE:
            raise ValueError(f"hand of seat {seat} holds {len(h)} cards, not {HAND_SIZE}")
    if len(kitty) != KITTY_SIZE:
        raise ValueError(f"the kitty holds {len(kitty)} cards, not {KITTY_SIZE}")
    counts = Counter(kitty)
    for h in out:
        counts.update(h)
    for f, n in sorted(counts.items()):
        if n > 2:
            raise ValueError(f"the deal holds {n} copies of {format_cards((f,))} "
                             "(the two decks hold two)")
    return out, kitty


class Chance:
    """The random choices of a hand: scripted outcomes first (from a record), then ``rng``.

    Every outcome is logged in ``redeals``, ``trump_index`` (an index into the sorted kitty)
    and ``start_seats``. Without a script entry and without ``rng`` a choice is an error.
    """

    def __init__(self, rng: random.Random | None = None, redeals: Iterable = (),
                 trump_index: int | None = None, start_seats: Iterable[int] = ()):
        self.rng = rng
        self._redeals = [verify_deal(h, k) for h, k in redeals]
        self._trump = trump_index
        self._starts = list(start_seats)
        self.redeals: list[Deal] = []
        self.trump_index: int | None = None
        self.start_seats: list[int] = []

    def source(self, what: str) -> random.Random:
        """The random source, or ValueError naming the choice ``what`` that needs one."""
        if self.rng is None:
            raise ValueError(f"{what} is needed but none is given and there is no random source")
        return self.rng

    def redeal(self) -> Deal:
        """The new deal after a 造反."""
        new = self._redeals.pop(0) if self._redeals else deal(self.source("a redeal"))
        self.redeals.append(new)
        return new

    def draw_trump(self) -> int:
        """Index (0..7) of the kitty card drawn for a random trump."""
        if self._trump is not None:
            i, self._trump = self._trump, None
        else:
            i = self.source("a random trump card").randrange(KITTY_SIZE)
        self.trump_index = i
        return i

    def start_seat(self) -> int:
        """The first seat of a declaring round under ``declare_start="random"``."""
        s = self._starts.pop(0) if self._starts else self.source("a first seat").randrange(4)
        self.start_seats.append(s)
        return s

    def clone(self) -> Chance:
        """An independent copy: the same outcomes to come, the random source copied."""
        out = copy.copy(self)
        if self.rng is not None:
            out.rng = random.Random()
            out.rng.setstate(self.rng.getstate())
        out._redeals, out._starts = list(self._redeals), list(self._starts)
        out.redeals, out.start_seats = list(self.redeals), list(self.start_seats)
        return out

    def unused(self) -> list[str]:
        """Scripted outcomes never used (names), for record checks."""
        return ((["redeals"] if self._redeals else []) + (["random_trump_card"] if self._trump
                is not None else []) + (["start_seats"] if self._starts else []))


@dataclass
class HandState:
    """The whole state of one hand (the engine's ``State`` adds the verbs)."""

    rules: ShengjiRules
    levels: tuple[int, int]  # team levels before the hand
    start_banker: int | None  # the banker given at the start; None: a 抢庄局
    deals: list[Deal]  # (hands, kitty) of the deal and of any redeal
    hands: list[tuple[int, ...]]
    kitty: tuple[int, ...]  # empty while a kitty-taker holds it
    chance: Chance
    phase: str = DECLARE_PHASE
    turn: int = 0  # the seat to act; -1 (``game.TERMINAL``) once the hand is over
    grab: bool = False  # 抢庄局: own-team levels, the declarer banks (§4.2, §4.4)
    priority: int = 0  # priority seat of the declaring round (§4.3)
    banker: int | None = None  # this hand's 庄家 (None in a 抢庄局 until it is settled)
    level: int | None = None  # L (None in a 抢庄局 until it is settled)
    trump: int | None = None  # T, once known
    ctx: Context | None = None  # the trump context, once T is known
    standing: Declaration | None = None
    declarations: list[tuple[int, tuple[int, ...], str]] = field(default_factory=list)
    round: int = 1  # declaring round: 2 after a 下台
    round_declarers: set[int] = field(default_factory=set)
    passes: int = 0  # passes in a row
    rebel_queue: list[int] = field(default_factory=list)
    rebel: int | None = None
    stepped_down: int | None = None  # the banker who 下台
    random_trump_card: int | None = None
    kitty_taker: int | None = None
    picked_up: tuple[int, ...] = ()
    last_burier: int | None = None
    kitty_log: list[tuple[int, tuple[int, ...], tuple[int, ...]]] = field(default_factory=list)
    tricks: list[Trick] = field(default_factory=list)
    attacker_points: int = 0  # from tricks, plus failed-throw penalties
    penalties: int = 0
    failed_throws: list[tuple[int, tuple[int, ...], tuple[int, ...]]] = field(
        default_factory=list)
    voids: list[set[int]] = field(default_factory=lambda: [set() for _ in range(N_SEATS)])
    known: list[Counter] = field(default_factory=lambda: [Counter() for _ in range(N_SEATS)])
    history: list[tuple[int, Action]] = field(default_factory=list)
    result: HandResult | None = None
    play_only: bool = False

    def clone(self) -> Self:
        """An independent copy: the mutable parts copied, the immutable ones (cards, rules,
        contexts, declarations, actions, the result) shared."""
        out = copy.copy(self)
        out.deals, out.hands = list(self.deals), list(self.hands)
        out.chance = self.chance.clone()
        out.declarations = list(self.declarations)
        out.round_declarers = set(self.round_declarers)
        out.rebel_queue = list(self.rebel_queue)
        out.kitty_log = list(self.kitty_log)
        out.tricks = [Trick(t.leader, list(t.plays), t.attempt, t.winner, t.points)
                      for t in self.tricks]
        out.failed_throws = list(self.failed_throws)
        out.voids = [set(v) for v in self.voids]
        out.known = [Counter(k) for k in self.known]
        out.history = list(self.history)
        return out

    # -- what the play needs settled ------------------------------------------------------

    @property
    def play_ctx(self) -> Context:
        """The trump context (ValueError before the trump is known)."""
        if self.ctx is None:
            raise ValueError("the trump is not known yet")
        return self.ctx

    @property
    def the_banker(self) -> int:
        """This hand's banker (ValueError in a 抢庄局 before it is settled)."""
        if self.banker is None:
            raise ValueError("nobody banks yet (a 抢庄局 before its declaring ends)")
        return self.banker

    @property
    def the_trump(self) -> int:
        """T (ValueError before it is known)."""
        if self.trump is None:
            raise ValueError("the trump is not known yet")
        return self.trump

    @property
    def the_level(self) -> int:
        """L (ValueError in a 抢庄局 before it is settled)."""
        if self.level is None:
            raise ValueError("the hand's level is not settled yet (a 抢庄局)")
        return self.level

    # -- facts of the seats ---------------------------------------------------------------

    def team_of(self, seat: int) -> int:
        """Team 0 (seats 0 and 2) or team 1 (seats 1 and 3)."""
        return seat % 2

    def is_attacker(self, seat: int) -> bool:
        """True for the attackers (抓分方), the team without the banker."""
        return self.banker is not None and seat % 2 != self.banker % 2

    def all_cards(self) -> tuple[int, ...]:
        """Every card in hands, the kitty and the tricks, sorted (the 108 at every step)."""
        out = list(self.kitty)
        for h in self.hands:
            out += h
        for t in self.tricks:
            for p in t.plays:
                out += p
        return tuple(sorted(out))
