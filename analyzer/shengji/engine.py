"""The 双升 reference engine: one whole hand as a state machine in plain Python (the oracle).

Phases, in order: 造反 offers (``rebel``), declaring — 亮主 / 反主 / 加固 (``declare``), the
kitty bury — 扣底 (``bury``), 扒雞窩 (``bajiwo``), tricks (``play``), then ``done``. The verbs
are those of the other games: ``current_player``, ``legal_actions``, ``verify`` / ``can`` /
``apply``, ``is_terminal``, ``returns``, ``clone``. Sections (§) refer to SHENGJI-RULES.

Seats 0–3 sit in play order: the 下家 of seat i is i + 1, its partner (對家) i + 2; the teams
are {0, 2} (team 0) and {1, 3} (team 1). Cards are sorted face tuples (:mod:`.cards`).

Every random choice — the redeal after a 造反, the random kitty-card trump (§4.5c), the first
seat when ``declare_start="random"`` — comes from the state's :class:`Chance` and is logged
there, so a record of the deal, those outcomes and the actions fixes the hand.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from dataclasses import dataclass, field

from . import bidding_phase as bp
from . import play_phase as pp
from .actions import (
    ACTION_KINDS,
    BAJIWO_PHASE,
    BURY,
    BURY_PHASE,
    DECLARE,
    DECLARE_PHASE,
    DONE,
    HAND_SIZE,
    KITTY_SIZE,
    N_SEATS,
    PASS,
    PLAY,
    PLAY_PHASE,
    REBEL,
    REBEL_PHASE,
    Action,
    HandResult,
    Trick,
)
from .bidding import Declaration
from .cards import DECK, Context, as_cards, context, format_cards, parse_level, parse_trump
from .rules import ShengjiRules, get_rules

__all__ = [
    "ACTION_KINDS", "BAJIWO_PHASE", "BURY", "BURY_PHASE", "DECLARE", "DECLARE_PHASE", "DONE",
    "PASS", "PLAY", "PLAY_PHASE", "REBEL", "REBEL_PHASE", "Action", "Chance", "HandResult",
    "PublicView", "State", "Trick", "deal", "new_hand", "play_only", "play_random",
    "random_action", "verify_deal",
]


@dataclass(frozen=True)
class PublicView:
    """What one seat may know: its own cards and every public fact of the hand."""

    seat: int
    phase: str
    current_player: int | None
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    levels: tuple[int, int]
    level: int | None  # L, once known
    trump: int | None  # T (0..3, 4 = NT), once known
    banker: int | None
    grab: bool  # a 搶莊局
    declarations: tuple[tuple[int, tuple[int, ...], str], ...]  # (seat, cards shown, phase)
    standing: tuple[int, tuple[int, ...]] | None  # (seat, cards) of the standing declaration
    random_trump_card: int | None  # the kitty card drawn for a random trump, shown to all
    kitty_takers: tuple[int, ...]  # seats that picked up the kitty, in order
    kitty_seen: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]  # own (picked up, buried)
    kitty: tuple[int, ...] | None  # the kitty this seat buried last, or holds to bury
    failed_throws: tuple[tuple[int, tuple[int, ...], tuple[int, ...]], ...]  # seat, tried, led
    voids: tuple[frozenset[int], ...]  # per seat: effective suits it proved void in
    known_cards: tuple[tuple[int, ...], ...]  # per seat: cards shown and not played since
    tricks: tuple[tuple[int, tuple[tuple[int, ...], ...]], ...]  # (leader, plays), current last
    attacker_points: int


def deal(rng: random.Random) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """A shuffled deal: four 25-card hands and the 8-card kitty (底牌)."""
    deck = list(DECK)
    rng.shuffle(deck)
    hands = tuple(tuple(sorted(deck[HAND_SIZE * s:HAND_SIZE * (s + 1)])) for s in range(N_SEATS))
    return hands, tuple(sorted(deck[HAND_SIZE * N_SEATS:]))


def verify_deal(hands, kitty) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """The deal as card tuples; ValueError unless it is 4 × 25 cards + 8 making the 108."""
    if len(hands) != N_SEATS:
        raise ValueError(f"a deal has {N_SEATS} hands, got {len(hands)}")
    hands = tuple(as_cards(h) for h in hands)
    kitty = as_cards(kitty)
    for seat, h in enumerate(hands):
        if len(h) != HAND_SIZE:
            raise ValueError(f"hand of seat {seat} holds {len(h)} cards, not {HAND_SIZE}")
    if len(kitty) != KITTY_SIZE:
        raise ValueError(f"the kitty holds {len(kitty)} cards, not {KITTY_SIZE}")
    counts = Counter(kitty)
    for h in hands:
        counts.update(h)
    for f, n in sorted(counts.items()):
        if n > 2:
            raise ValueError(f"the deal holds {n} copies of {format_cards((f,))} "
                             "(the two decks hold two)")
    return hands, kitty


class Chance:
    """The random choices of a hand: scripted outcomes first (from a record), then ``rng``.

    Every outcome is logged in ``redeals``, ``trump_index`` (an index into the sorted kitty)
    and ``start_seats``. Without a script entry and without ``rng`` a choice is an error.
    """

    def __init__(self, rng: random.Random | None = None, redeals=(), trump_index=None,
                 start_seats=()):
        self.rng = rng
        self._redeals = [verify_deal(h, k) for h, k in redeals]
        self._trump = trump_index
        self._starts = list(start_seats)
        self.redeals: list = []
        self.trump_index: int | None = None
        self.start_seats: list[int] = []

    def source(self, what: str) -> random.Random:
        """The random source, or ValueError naming the choice ``what`` that needs one."""
        if self.rng is None:
            raise ValueError(f"{what} is needed but none is given and there is no random source")
        return self.rng

    def redeal(self):
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

    def unused(self) -> list[str]:
        """Scripted outcomes never used (names), for record checks."""
        return ((["redeals"] if self._redeals else []) + (["random_trump_card"] if self._trump
                is not None else []) + (["start_seats"] if self._starts else []))


@dataclass
class State:
    """The whole state of one hand. Build it with :func:`new_hand` or :func:`play_only`."""

    rules: ShengjiRules
    levels: tuple[int, int]  # team levels before the hand
    start_banker: int | None  # the banker given at the start; None: a 搶莊局
    deals: list  # (hands, kitty) of the deal and of any redeal
    hands: list[tuple[int, ...]]
    kitty: tuple[int, ...]  # empty while a kitty-taker holds it
    chance: Chance
    phase: str = DECLARE_PHASE
    turn: int | None = 0
    grab: bool = False  # 搶莊局: own-team levels, the declarer banks (§4.3)
    priority: int = 0  # priority seat of the declaring round (§4.4)
    banker: int | None = None  # this hand's 莊家
    level: int | None = None  # L
    trump: int | None = None  # T
    ctx: Context | None = None
    standing: Declaration | None = None
    declarations: list[tuple[int, tuple[int, ...], str]] = field(default_factory=list)
    round: int = 1  # declaring round: 2 after a 下臺
    round_declarers: set[int] = field(default_factory=set)
    passes: int = 0  # passes in a row
    rebel_queue: list[int] = field(default_factory=list)
    rebel: int | None = None
    stepped_down: int | None = None  # the banker who 下臺
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

    # -- the game API ----------------------------------------------------------------

    def current_player(self) -> int | None:
        """The seat to act, or None when the hand is over."""
        return None if self.phase == DONE else self.turn

    def is_terminal(self) -> bool:
        """True when the hand is over."""
        return self.phase == DONE

    def legal_actions(self) -> list[Action]:
        """Every legal action in the rebel, declare and 扒雞窩 phases (pass first); empty
        when over. Bury and play choices are too many to list: ValueError there."""
        if self.phase == DONE:
            return []
        if self.phase in (BURY_PHASE, PLAY_PHASE):
            raise ValueError(f"the {self.phase} choices are not listed: use verify / can / "
                             "apply, legal_leads and some_follow")
        return bp.legal_actions(self)

    def verify(self, action: Action, seat: int | None = None) -> None:
        """Raise ValueError with the reason unless ``action`` (by ``seat``, if given) is
        legal now."""
        if self.phase == DONE:
            raise ValueError("the hand is over")
        if not isinstance(action, Action) or action.kind not in ACTION_KINDS:
            raise ValueError(f"unknown action {action!r} (kinds: {', '.join(ACTION_KINDS)})")
        if seat is not None and seat != self.turn:
            raise ValueError(f"not your turn: seat {self.turn} is to act, not seat {seat}")
        if self.phase == PLAY_PHASE:
            pp.verify(self, self.turn, action)
        else:
            bp.verify(self, self.turn, action)

    def can(self, action: Action, seat: int | None = None) -> bool:
        """True if ``action`` is legal now."""
        try:
            self.verify(action, seat)
        except ValueError:
            return False
        return True

    def apply(self, action: Action, seat: int | None = None) -> None:
        """Apply ``action`` (verified first: ValueError with the reason if illegal)."""
        self.verify(action, seat)
        acting = self.turn
        if self.phase == PLAY_PHASE:
            pp.apply(self, acting, action)
        else:
            bp.apply(self, acting, action)
        self.history.append((acting, action))

    def returns(self) -> tuple[int, int, int, int]:
        """Levels gained per seat (the winner team's seats gain, the others 0); zeros before
        the end. The full outcome is :attr:`result`."""
        if self.result is None:
            return (0, 0, 0, 0)
        r = self.result
        return tuple(r.gain if s % 2 == r.winner_team else 0 for s in range(N_SEATS))

    def clone(self) -> State:
        """A deep copy that shares only the frozen rules and context."""
        memo = {id(self.rules): self.rules}
        if self.ctx is not None:
            memo[id(self.ctx)] = self.ctx
        return copy.deepcopy(self, memo)

    # -- helpers for bots, samplers and tests ---------------------------------------------

    def legal_leads(self) -> list[tuple[int, ...]]:
        """Every single-unit lead (single, pair, tractor) of the seat to lead; throws are any
        two or more units of one effective suit (checked by ``verify``)."""
        if self.phase != PLAY_PHASE or self.tricks[-1].plays:
            raise ValueError("nobody is to lead now")
        return pp.unit_leads(self.hands[self.turn], self.ctx)

    def some_follow(self) -> tuple[int, ...]:
        """One legal follow for the seat to act (the primitives' ``legal_follow``)."""
        if self.phase != PLAY_PHASE or not self.tricks[-1].plays:
            raise ValueError("nobody is to follow now")
        return pp.some_follow(self)

    def team_of(self, seat: int) -> int:
        """Team 0 (seats 0 and 2) or team 1 (seats 1 and 3)."""
        return seat % 2

    def is_attacker(self, seat: int) -> bool:
        """True for the attackers (抓分方), the team without the banker."""
        return self.banker is not None and seat % 2 != self.banker % 2

    def public_view(self, seat: int) -> PublicView:
        """What ``seat`` may know now (its cards, the kitty it buried last, public facts)."""
        standing = self.standing
        return PublicView(
            seat=seat, phase=self.phase, current_player=self.current_player(),
            hand=self.hands[seat], hand_sizes=tuple(len(h) for h in self.hands),
            levels=self.levels, level=self.level, trump=self.trump, banker=self.banker,
            grab=self.grab, declarations=tuple(self.declarations),
            standing=None if standing is None else (standing.seat, standing.cards),
            random_trump_card=self.random_trump_card,
            kitty_takers=tuple(s for s, _, _ in self.kitty_log),
            kitty_seen=tuple((up, down) for s, up, down in self.kitty_log if s == seat),
            kitty=self._kitty_known_to(seat),
            failed_throws=tuple(self.failed_throws),
            voids=tuple(frozenset(v) for v in self.voids),
            known_cards=tuple(tuple(sorted(k.elements())) for k in self.known),
            tricks=tuple((t.leader, tuple(t.plays)) for t in self.tricks),
            attacker_points=self.attacker_points)

    def _kitty_known_to(self, seat: int) -> tuple[int, ...] | None:
        if self.phase == BURY_PHASE:  # the kitty is in the taker's hand
            return self.picked_up if seat == self.kitty_taker else None
        return self.kitty if seat == self.last_burier else None

    def all_cards(self) -> tuple[int, ...]:
        """Every card in hands, the kitty and the tricks, sorted (the 108 at every step)."""
        out = list(self.kitty)
        for h in self.hands:
            out += h
        for t in self.tricks:
            for p in t.plays:
                out += p
        return tuple(sorted(out))


def _levels(levels) -> tuple[int, int]:
    if len(levels) != 2:
        raise ValueError(f"levels are two team levels, got {levels!r}")
    out = tuple(parse_level(v) if isinstance(v, str) else v for v in levels)
    for v in out:
        if not isinstance(v, int) or isinstance(v, bool) or not 2 <= v <= 14:
            raise ValueError(f"a team level is 2..14 (A), got {v!r}")
    return out


def new_hand(rules: str | ShengjiRules | None = None, levels=(2, 2), banker: int | None = None,
             seed=None, hands=None, kitty=None, rng: random.Random | None = None,
             chance: Chance | None = None) -> State:
    """A whole hand from the deal: ``banker`` None is a 搶莊局 (the first hand).

    The deal is ``hands`` + ``kitty`` if given, else drawn from ``rng`` (or
    ``random.Random(seed)``), which also draws every later random choice. ``chance``
    overrides the random source (records pass their logged outcomes).
    """
    rules = get_rules(rules)
    levels = _levels(levels)
    if banker is not None and banker not in range(N_SEATS):
        raise ValueError(f"banker must be a seat 0..3 or None (搶莊局), got {banker!r}")
    if rng is None:
        rng = random.Random(seed)
    if chance is None:
        chance = Chance(rng)
    if (hands is None) != (kitty is None):
        raise ValueError("give both hands and kitty, or neither")
    if hands is None:
        hands, kitty = deal(chance.source("a deal"))
    hands, kitty = verify_deal(hands, kitty)
    st = State(rules=rules, levels=levels, start_banker=banker, deals=[(hands, kitty)],
               hands=list(hands), kitty=kitty, chance=chance, grab=banker is None,
               banker=banker, priority=0 if banker is None else banker,
               level=None if banker is None else levels[banker % 2])
    bp.start(st)
    return st


def play_only(rules: str | ShengjiRules | None, hands, kitty, level, trump, banker: int,
              levels=None) -> State:
    """A hand that starts at trick 1: the kitty is already buried, L and T fixed, the
    ``banker`` leads. ``levels`` (team levels, for the settlement) default to (L, L)."""
    rules = get_rules(rules)
    level = parse_level(level) if isinstance(level, str) else level
    trump = parse_trump(trump)
    levels = _levels((level, level) if levels is None else levels)
    if banker not in range(N_SEATS):
        raise ValueError(f"banker must be a seat 0..3, got {banker!r}")
    hands, kitty = verify_deal(hands, kitty)
    st = State(rules=rules, levels=levels, start_banker=banker, deals=[(hands, kitty)],
               hands=list(hands), kitty=kitty, chance=Chance(None), banker=banker,
               priority=banker, level=level, trump=trump,
               ctx=context(level, trump, rules.nt_level_joker_tractor), last_burier=banker,
               play_only=True)
    pp.start_play(st)
    return st


def random_action(state: State, rng: random.Random) -> Action:
    """A legal action drawn by a seeded random policy: 造反 and passing with chance ½,
    otherwise a uniform declaration; a random bury; a uniform unit lead (a random throw
    attempt 15 % of the time); a follow uniform over a generated set of legal follows."""
    phase = state.phase
    if phase == DONE:
        raise ValueError("the hand is over")
    if phase == BURY_PHASE:
        return Action(BURY, tuple(rng.sample(state.hands[state.turn], KITTY_SIZE)))
    if phase == PLAY_PHASE:
        if state.tricks[-1].plays:
            return Action(PLAY, rng.choice(pp.follow_candidates(state, rng)))
        return Action(PLAY, pp.random_lead(state, rng))
    acts = bp.legal_actions(state)  # pass first
    if len(acts) == 1 or rng.random() < 0.5:
        return acts[0]
    return rng.choice(acts[1:])


def play_random(state: State, rng: random.Random, max_steps: int = 10_000) -> State:
    """Play ``state`` to the end with :func:`random_action` (in place); returns it."""
    for _ in range(max_steps):
        if state.is_terminal():
            return state
        state.apply(random_action(state, rng))
    raise RuntimeError(f"the hand did not end within {max_steps} actions")
