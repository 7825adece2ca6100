"""The reference engine: one hand of 掀牛 as a state machine, in plain Python.

It is the oracle for everything faster: clear before fast. The verbs are the game contract's
(:mod:`analyzer.core.game`): ``current_player``, ``legal_actions``, ``verify``, ``can``,
``apply``, ``is_terminal``, ``returns``, ``clone`` and ``view``; ``verify`` names why an
action is illegal (through the per-phase ``verify_*`` checks).

An :class:`Action` is a kind and a card mask:

- ``play``: lead, answer or 抢刺 with the cards ``cards``;
- ``pass``: cannot beat the top play, or (lanzhou) decline 抢刺;
- ``kou``: as lead holder, ask to end the hand (扣); as another seat, agree;
- ``xian``: refuse a 扣 and force the lead holder to lead (掀);
- ``tighten``: as lead holder, call 紧牌;
- ``discard``: throw away the one card ``cards`` during 紧牌.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

from ..core.game import TERMINAL, GameFacts
from .cards import FULL_DECK, HAND_SIZE, N_CARDS, N_SEATS, bit, cards_of, count, format_cards
from .combos import Play, answers_to, beats, plays_in, qiangci_plays, try_classify
from .rules import PRESETS, Rules, get_rules
from .scoring import Settlement, settle

PLAY, PASS, KOU, XIAN, TIGHTEN, DISCARD = "play", "pass", "kou", "xian", "tighten", "discard"
ACTION_KINDS = (PLAY, PASS, KOU, XIAN, TIGHTEN, DISCARD)
_KIND_ORDER = {k: i for i, k in enumerate(ACTION_KINDS)}

# Phases of a hand.
QIANGCI = "qiangci"  # right after the deal: holders of 龙凤/八大对 may (or must) play them
LEAD = "lead"  # the lead holder leads, asks 扣, or calls 紧牌
KOU_ASK = "kou_ask"  # the other seats answer a 扣 with 扣 or 掀
TRICK = "trick"  # the other seats answer a lead, under 有吃必吃
DISCARD_PHASE = "discard"  # 紧牌 discards, one card at a time
OVER = "over"

# The longest hand: a trick captures at least one card onto a table of at most 16, so there
# are at most 16 tricks (a lead and two answers each: 48 actions); a lead is given at most
# 17 times (the first, then once after each trick), and before each one the lead holder may
# ask 扣 once (at most three actions: a 掀 forces the lead) and call 紧牌 once (one action);
# every discard and every play takes a card out of a hand, so there are at most 48 discards;
# 抢刺 adds at most three decisions. 3 + 48 + 17 * (3 + 1) + 48 = 167.
MAX_LENGTH = 3 + 48 + 17 * (3 + 1) + 48

FACTS = GameFacts(name="xianniu", n_seats=N_SEATS, teams=((0,), (1,), (2,)),
                  max_length=MAX_LENGTH, utility_sum=0, returns_unit="points",
                  presets=tuple(PRESETS))


class Action(NamedTuple):
    """One decision: a kind from ACTION_KINDS and a card mask (0 where none)."""

    kind: str
    cards: int = 0

    def __str__(self) -> str:
        return f"{self.kind} {format_cards(self.cards)}" if self.cards else self.kind



def action_key(action: Action) -> tuple[int, int, int]:
    """The sort key of the engine's order of actions: kind, then size, then cards."""
    return (_KIND_ORDER[action.kind], count(action.cards), action.cards)


_VERIFY = {QIANGCI: "verify_qiangci", LEAD: "verify_lead", KOU_ASK: "verify_kou_answer",
           TRICK: "verify_answer", DISCARD_PHASE: "verify_discard"}  # the check of each phase


@dataclass(frozen=True)
class View:
    """What one seat may see of a hand (:meth:`State.view`): its own hand and face-down 紧牌
    discards, how many cards every seat holds and has discarded, the captured plays of
    every seat, the dead (beaten) cards, the play to beat, the 掀 events and 扣 sayings,
    the phase and who acts."""

    seat: int
    rules: str
    banker: int
    hand: int
    discards: int  # this seat's own 紧牌 discards
    hand_sizes: tuple[int, ...]
    discard_counts: tuple[int, ...]
    captured: tuple[tuple[Play, ...], ...]  # each seat's captured plays, in order
    dead: int
    top: Play | None  # the play to beat in the current trick
    top_owner: int
    xian_events: tuple[tuple[int, int], ...]
    said_kou: tuple[bool, ...]
    phase: str
    lead_holder: int
    must_lead: bool
    tightened: bool
    queue: tuple[int, ...]  # the seats still to act in a trick, a 扣 or 紧牌
    tighten_limit: int
    end_reason: str
    to_act: int


@dataclass
class State:
    """The whole state of one hand. Build it with :func:`new_hand`."""

    rules: Rules
    banker: int
    dealt: tuple[int, ...]
    hands: list[int]
    captured: list[list[Play]] = field(default_factory=lambda: [[], [], []])
    dead: int = 0  # cards of beaten plays (废牌)
    discarded: int = 0  # cards thrown away in 紧牌
    xian_events: list[tuple[int, int]] = field(default_factory=list)
    said_kou: list[bool] = field(default_factory=lambda: [False] * N_SEATS)
    phase: str = LEAD
    lead_holder: int = 0
    must_lead: bool = False  # after a 掀 or a 紧牌: no 扣 before this lead
    tightened: bool = False  # 紧牌 already called before this lead
    queue: list[int] = field(default_factory=list)  # seats still to act in this phase
    top: Play | None = None  # the play to beat in the current trick
    top_owner: int = -1
    tighten_limit: int = HAND_SIZE
    end_reason: str = ""
    history: list[tuple[int, Action]] = field(default_factory=list)
    # each seat's own 紧牌 discards, face down (``discarded`` is their union)
    discards: list[int] = field(default_factory=lambda: [0] * N_SEATS)

    # -- the game API ----------------------------------------------------------------

    def current_player(self) -> int:
        """The seat to act, or -1 (TERMINAL) when the hand is over."""
        if self.phase == OVER:
            return TERMINAL
        if self.phase == LEAD:
            return self.lead_holder
        return self.queue[0]

    def is_terminal(self) -> bool:
        """True when the hand is over."""
        return self.phase == OVER

    def table_count(self) -> int:
        """Cards on the table (桌面): all captured cards."""
        return sum(p.size for plays in self.captured for p in plays)

    def legal_actions(self) -> list[Action]:
        """Every legal action of the seat to act, sorted; empty when the hand is over."""
        seat = self.current_player()
        if seat < 0:
            return []
        hand = self.hands[seat]
        # built in the order of action_key (plays by size and cards first, then the card-less
        # kinds in their order), so only the rare 抢刺 list needs sorting
        if self.phase == LEAD:
            room = self.rules.table_cap - self.table_count()
            acts = list(_play_actions(hand, self.rules, room))
            if not self.must_lead:
                acts.append(Action(KOU))
            if self._may_tighten():
                acts.append(Action(TIGHTEN))
            return acts
        if self.phase == TRICK:
            return list(_answer_actions(hand, self._top(), self.rules)) or [Action(PASS)]
        if self.phase == KOU_ASK:
            return [Action(KOU)] if self.said_kou[seat] else [Action(KOU), Action(XIAN)]
        if self.phase == DISCARD_PHASE:
            return [Action(DISCARD, bit(c)) for c in cards_of(hand)]
        acts = [Action(PLAY, p.mask) for p in qiangci_plays(hand, self.rules)]
        if not self.rules.qiangci_mandatory:
            acts.append(Action(PASS))
        return sorted(acts, key=action_key)

    def verify(self, action: Action) -> None:
        """Raise ValueError with the reason if ``action`` is illegal now."""
        if not isinstance(action, Action) or action.kind not in _KIND_ORDER:
            raise ValueError(f"unknown action {action!r}")
        cards = action.cards
        if type(cards) is not int or cards < 0 or cards & ~FULL_DECK:
            raise ValueError(f"action cards must be a mask of the 48 cards, got {cards!r}")
        if self.phase == OVER:
            raise ValueError("the hand is over")
        getattr(self, _VERIFY[self.phase])(action)

    def can(self, action: Action) -> bool:
        """True if ``action`` is legal now."""
        try:
            self.verify(action)
        except ValueError:
            return False
        return True

    def apply(self, action: Action) -> None:
        """Apply a legal action (checked first: ValueError with the reason if illegal)."""
        self.verify(action)
        seat = self.current_player()
        self.history.append((seat, action))
        getattr(self, "_apply_" + self.phase)(seat, action)

    def returns(self) -> tuple[int, ...]:
        """Points per seat of the finished hand (sum zero); zeros before the end."""
        if not self.is_terminal():
            return (0,) * N_SEATS
        return self.settlement().points

    def clone(self) -> State:
        """An independent copy (plays and rules are immutable and shared)."""
        return State(rules=self.rules, banker=self.banker, dealt=self.dealt,
                     hands=list(self.hands), captured=[list(c) for c in self.captured],
                     dead=self.dead, discarded=self.discarded, discards=list(self.discards),
                     xian_events=list(self.xian_events), said_kou=list(self.said_kou),
                     phase=self.phase, lead_holder=self.lead_holder, must_lead=self.must_lead,
                     tightened=self.tightened, queue=list(self.queue), top=self.top,
                     top_owner=self.top_owner, tighten_limit=self.tighten_limit,
                     end_reason=self.end_reason, history=list(self.history))

    def view(self, seat: int) -> View:
        """What ``seat`` may see now: its own hand and face-down discards, and the public
        facts (never another seat's hand or discards)."""
        if seat not in range(N_SEATS):
            raise ValueError(f"no seat {seat!r} (seats 0, 1, 2)")
        h, d = self.hands, self.discards
        return View(seat=seat, rules=self.rules.name, banker=self.banker,
                    hand=h[seat], discards=d[seat],
                    hand_sizes=(h[0].bit_count(), h[1].bit_count(), h[2].bit_count()),
                    discard_counts=(d[0].bit_count(), d[1].bit_count(), d[2].bit_count()),
                    captured=tuple(map(tuple, self.captured)),
                    dead=self.dead, top=self.top,
                    top_owner=self.top_owner, xian_events=tuple(self.xian_events),
                    said_kou=tuple(self.said_kou), phase=self.phase,
                    lead_holder=self.lead_holder, must_lead=self.must_lead,
                    tightened=self.tightened,
                    # the seats still to decide 抢刺 hold 龙凤 or 八大对: not shown
                    queue=() if self.phase == QIANGCI else tuple(self.queue),
                    tighten_limit=self.tighten_limit, end_reason=self.end_reason,
                    to_act=self.current_player())

    def settlement(self) -> Settlement:
        """The full settlement of the finished hand."""
        if not self.is_terminal():
            raise ValueError("the hand is not over")
        return settle(self.captured, self.xian_events, self.rules)

    # -- checks ---------------------------------------------------------------------

    def _top(self) -> Play:
        """The play to beat (a trick always has one)."""
        if self.top is None:
            raise ValueError(f"no play to beat in phase {self.phase}")
        return self.top

    def _play_of(self, cards: int) -> Play:
        """The combination of verified ``cards``."""
        play = try_classify(cards, self.rules)
        if play is None:
            raise ValueError(f"{format_cards(cards)} is not a combination")
        return play

    def _check_cards(self, action: Action, seat: int) -> Play:
        if action.cards == 0:
            raise ValueError("a play needs cards")
        missing = action.cards & ~self.hands[seat]
        if missing:
            raise ValueError(f"seat {seat} does not hold {format_cards(missing)}")
        play = try_classify(action.cards, self.rules)
        if play is None:
            raise ValueError(f"{format_cards(action.cards)} is not a combination under "
                             f"{self.rules.name}")
        return play

    def verify_qiangci(self, action: Action) -> None:
        """Checks for the 抢刺 decision."""
        seat = self.queue[0]
        if action.kind == PASS:
            if self.rules.qiangci_mandatory:
                raise ValueError(f"抢刺 is mandatory under {self.rules.name}")
            return
        if action.kind != PLAY:
            raise ValueError(f"seat {seat} must play or decline its 抢刺, not {action.kind}")
        play = self._check_cards(action, seat)
        if play not in qiangci_plays(self.hands[seat], self.rules):
            raise ValueError(f"{play} is not a 抢刺 play (龙凤 or 八大对)")

    def verify_lead(self, action: Action) -> None:
        """Checks for the lead holder's decision: 扣, 紧牌 or a lead."""
        seat = self.lead_holder
        if action.kind == KOU:
            if self.must_lead:
                raise ValueError("the lead holder must lead now (after a 掀 or a 紧牌)")
            return
        if action.kind == TIGHTEN:
            if self.tightened:
                raise ValueError("紧牌 was already called before this lead")
            if self.table_count() < self.rules.tighten_min_table:
                raise ValueError(f"紧牌 needs at least {self.rules.tighten_min_table} cards "
                                 f"on the table, it holds {self.table_count()}")
            if not self._may_tighten():
                raise ValueError("紧牌 would change nothing: nobody holds too many cards")
            return
        if action.kind != PLAY:
            raise ValueError(f"the lead holder (seat {seat}) may lead, 扣 or 紧牌, not "
                             f"{action.kind}")
        play = self._check_cards(action, seat)
        if play.kind in ("long_feng", "eight_pairs"):
            raise ValueError(f"{play.kind} may only be played as 抢刺, right after the deal")
        room = self.rules.table_cap - self.table_count()
        if play.size > room:
            raise ValueError(f"a lead of {play.size} cards would put more than "
                             f"{self.rules.table_cap} cards on the table ({room} left)")

    def verify_kou_answer(self, action: Action) -> None:
        """Checks for an answer to a 扣."""
        seat = self.queue[0]
        if action.kind == XIAN:
            if self.said_kou[seat]:
                raise ValueError(f"seat {seat} has said 扣 in this hand and may not 掀")
            return
        if action.kind != KOU:
            raise ValueError(f"seat {seat} must answer the 扣 with kou or xian, not "
                             f"{action.kind}")

    def verify_answer(self, action: Action) -> None:
        """Checks for an answer to a lead under 有吃必吃."""
        seat = self.queue[0]
        if action.kind == PASS:
            can = answers_to(self.hands[seat], self._top(), self.rules)
            if can:
                raise ValueError(f"seat {seat} must beat {self.top} (有吃必吃), e.g. with "
                                 f"{can[0]}")
            return
        if action.kind != PLAY:
            raise ValueError(f"seat {seat} must answer the lead, not {action.kind}")
        play = self._check_cards(action, seat)
        if not beats(self._top(), play, self.rules):
            raise ValueError(f"{play} does not beat {self.top}")

    def verify_discard(self, action: Action) -> None:
        """Checks for a 紧牌 discard."""
        seat = self.queue[0]
        if action.kind != DISCARD:
            raise ValueError(f"seat {seat} must discard for 紧牌, not {action.kind}")
        if count(action.cards) != 1:
            raise ValueError("discard one card at a time")
        if not action.cards & self.hands[seat]:
            raise ValueError(f"seat {seat} does not hold {format_cards(action.cards)}")

    # -- transitions ----------------------------------------------------------------

    def _order_after(self, seat: int) -> list[int]:
        return [(seat + 1) % N_SEATS, (seat + 2) % N_SEATS]

    def _tighten_seats(self) -> list[int]:
        others = self._order_after(self.lead_holder)
        return [self.lead_holder] + others if self.rules.tighten_lead_holder_discards else others

    def _may_tighten(self) -> bool:
        if self.tightened or self.table_count() < self.rules.tighten_min_table:
            return False
        limit = self.rules.table_cap - self.table_count()
        return any(count(self.hands[s]) > limit for s in self._tighten_seats())

    def _start_lead(self, seat: int) -> None:
        self.phase = LEAD
        self.lead_holder = seat
        self.must_lead = False
        self.tightened = False
        self.queue = []
        if self.table_count() >= self.rules.table_cap:
            self._finish("table full")
        elif self.hands[seat] == 0:
            self._finish("lead holder has no cards")

    def _finish(self, reason: str) -> None:
        self.phase = OVER
        self.queue = []
        self.end_reason = reason

    def _capture(self, seat: int, play: Play) -> None:
        self.captured[seat].append(play)

    def _apply_qiangci(self, seat: int, action: Action) -> None:
        if action.kind == PASS:
            self.queue.pop(0)
            if not self.queue:
                self._start_lead(self.banker)
            return
        self.hands[seat] &= ~action.cards
        self._capture(seat, self._play_of(action.cards))
        self._start_lead(seat)

    def _apply_lead(self, seat: int, action: Action) -> None:
        if action.kind == KOU:
            self.said_kou[seat] = True
            self.phase = KOU_ASK
            self.queue = self._order_after(seat)
        elif action.kind == TIGHTEN:
            self.tightened = True
            self.must_lead = True
            self.tighten_limit = self.rules.table_cap - self.table_count()
            self.queue = [s for s in self._tighten_seats()
                          if count(self.hands[s]) > self.tighten_limit]
            self.phase = DISCARD_PHASE
        else:
            self.hands[seat] &= ~action.cards
            self.top = self._play_of(action.cards)
            self.top_owner = seat
            self.queue = self._order_after(seat)
            self.phase = TRICK

    def _apply_kou_ask(self, seat: int, action: Action) -> None:
        if action.kind == XIAN:
            self.xian_events.append((seat, self.lead_holder))
            self.phase = LEAD
            self.must_lead = True
            self.queue = []
            return
        self.said_kou[seat] = True
        self.queue.pop(0)
        if not self.queue:
            self._finish("kou")

    def _apply_trick(self, seat: int, action: Action) -> None:
        if action.kind == PLAY:
            self.hands[seat] &= ~action.cards
            self.dead |= self._top().mask
            self.top = self._play_of(action.cards)
            self.top_owner = seat
        self.queue.pop(0)
        if not self.queue:
            owner, play = self.top_owner, self._top()
            self._capture(owner, play)
            self.top, self.top_owner = None, -1
            self._start_lead(owner)

    def _apply_discard(self, seat: int, action: Action) -> None:
        self.hands[seat] &= ~action.cards
        self.discarded |= action.cards
        self.discards[seat] |= action.cards
        if count(self.hands[seat]) <= self.tighten_limit:
            self.queue.pop(0)
        if not self.queue:
            self.phase = LEAD


@lru_cache(maxsize=1 << 12)
def _play_actions(hand: int, rules: Rules, room: int) -> tuple[Action, ...]:
    """The leads of ``hand`` that fit ``room`` cards, as actions (memoised, as plays_in)."""
    return tuple(Action(PLAY, p.mask) for p in plays_in(hand, rules, room))


@lru_cache(maxsize=1 << 12)
def _answer_actions(hand: int, top: Play, rules: Rules) -> tuple[Action, ...]:
    """The plays of ``hand`` that beat ``top``, as actions (memoised, as answers_to)."""
    return tuple(Action(PLAY, p.mask) for p in answers_to(hand, top, rules))


def new_hand(hands: list[int] | tuple[int, ...], rules: str | Rules | None = None,
             banker: int = 0) -> State:
    """Start a hand from three dealt 16-card masks; seat ``banker`` (头家) acts first."""
    rules = get_rules(rules)
    verify_deal(hands, banker)
    state = State(rules=rules, banker=banker, dealt=tuple(hands), hands=list(hands))
    holders = [s for s in ((banker + i) % N_SEATS for i in range(N_SEATS))
               if qiangci_plays(hands[s], rules)]
    if holders:
        state.phase = QIANGCI
        state.queue = holders[:1] if rules.qiangci_mandatory else holders
    else:
        state._start_lead(banker)
    return state


def verify_deal(hands: list[int] | tuple[int, ...], banker: int = 0) -> None:
    """Raise ValueError unless ``hands`` are three disjoint 16-card hands covering the deck."""
    if banker not in range(N_SEATS):
        raise ValueError(f"banker must be seat 0, 1 or 2, got {banker!r}")
    if len(hands) != N_SEATS:
        raise ValueError(f"a deal has {N_SEATS} hands, got {len(hands)}")
    seen = 0
    for s, h in enumerate(hands):
        if count(h) != HAND_SIZE:
            raise ValueError(f"seat {s} holds {count(h)} cards, a hand holds {HAND_SIZE}")
        if seen & h:
            raise ValueError(f"seat {s} holds {format_cards(seen & h)} that another seat holds")
        seen |= h
    if seen != FULL_DECK:
        raise ValueError("the three hands do not make up the 48-card deck")


def card_accounting(state: State) -> int:
    """Mask of every card in hands, on the table, dead, discarded or in the trick."""
    m = state.dead | state.discarded
    for h in state.hands:
        m |= h
    for plays in state.captured:
        for p in plays:
            m |= p.mask
    if state.top is not None:
        m |= state.top.mask
    return m


# -- the contract's module functions --------------------------------------------------------


def random_start(rules: str, rng: random.Random) -> State:
    """A new hand of preset ``rules`` from a uniform random deal and a random banker."""
    order = list(range(N_CARDS))
    rng.shuffle(order)
    hands = [sum(1 << c for c in order[s * HAND_SIZE:(s + 1) * HAND_SIZE])
             for s in range(N_SEATS)]
    return new_hand(hands, rules, rng.randrange(N_SEATS))


def random_action(state: State, rng: random.Random) -> Action:
    """A legal action drawn uniformly by ``rng`` (every phase lists its actions)."""
    return rng.choice(state.legal_actions())


def redeal_hidden(state: State, seat: int, rng: random.Random) -> State:
    """A clone in which the cards ``seat`` cannot see — the other seats' hands and their
    face-down 紧牌 discards — are dealt anew among those places, every size kept."""
    out = state.clone()
    others = [s for s in range(N_SEATS) if s != seat]
    sizes = [(count(out.hands[s]), count(out.discards[s])) for s in others]
    pool = [c for s in others for c in cards_of(out.hands[s] | out.discards[s])]
    rng.shuffle(pool)
    for s, (n_hand, n_disc) in zip(others, sizes):
        out.hands[s] = sum(1 << c for c in pool[:n_hand])
        out.discards[s] = sum(1 << c for c in pool[n_hand:n_hand + n_disc])
        pool = pool[n_hand + n_disc:]
    out.discarded = out.discards[0] | out.discards[1] | out.discards[2]
    return out


def _random_card(mask: int, rng: random.Random) -> int:
    """One card of ``mask`` (as a one-bit mask), drawn uniformly."""
    k = rng.randrange(mask.bit_count())
    for _ in range(k):
        mask &= mask - 1
    return mask & -mask


def candidate_actions(state: State, rng: random.Random) -> list[Action]:
    """A few actions, mostly illegal now: every card-less kind, a held card played and
    discarded, a card not held, and a pair of held cards."""
    seat = state.current_player()
    out = [Action(k) for k in (PASS, KOU, XIAN, TIGHTEN)]
    if seat < 0:
        return out
    hand = state.hands[seat]
    if hand:
        c = _random_card(hand, rng)
        out += [Action(PLAY, c), Action(DISCARD, c)]
        rest = hand & ~c
        if rest:
            out.append(Action(PLAY, c | _random_card(rest, rng)))
    out.append(Action(PLAY, _random_card(FULL_DECK & ~hand, rng)))
    return out
    held = cards_of(state.hands[seat])
    if held:
        c = rng.choice(held)
        out += [Action(PLAY, bit(c)), Action(DISCARD, bit(c))]
    if len(held) >= 2:
        a, b = rng.sample(held, 2)
        out.append(Action(PLAY, bit(a) | bit(b)))
    other = cards_of(FULL_DECK & ~state.hands[seat])
    out.append(Action(PLAY, bit(rng.choice(other))))
    return out
