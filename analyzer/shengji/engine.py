"""The 双升 reference engine: one whole hand as a state machine in plain Python (the oracle).

Phases, in order: 造反 offers (``rebel``), declaring — 亮主 / 反主 / 加固 (``declare``), the
kitty bury — 扣底 (``bury``), 扒鸡窝 (``bajiwo``), tricks (``play``), then ``done``. The verbs
are the game contract's (:mod:`analyzer.core.game`): ``current_player``, ``legal_actions``
(the rebel, declare and 扒鸡窝 choices; a bury or a play has too many to list:
:class:`~analyzer.core.game.NotListed`), ``verify`` / ``can`` / ``apply``, ``is_terminal``,
``returns``, ``clone`` and ``view``. Sections (§) refer to docs/rules/shengji.md.

Seats 0–3 sit in play order: the 下家 of seat i is i + 1, its partner (对家) i + 2; the teams
are {0, 2} (team 0) and {1, 3} (team 1). Cards are sorted face tuples (:mod:`.cards`). The
hand's data, the deal and its random outcomes (:class:`Chance`) are :mod:`.state`'s.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from ..core.game import TERMINAL, GameFacts, NotListed
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
from .bidding import joker_for_suit
from .cards import BIG_JOKER, NT, SMALL_JOKER, context, face, parse_level, parse_trump
from .rules import PRESETS, ShengjiRules, get_rules
from .state import Chance, HandState, deal, verify_deal

__all__ = [
    "ACTION_KINDS", "BAJIWO_PHASE", "BURY", "BURY_PHASE", "DECLARE", "DECLARE_PHASE", "DONE",
    "FACTS", "PASS", "PLAY", "PLAY_PHASE", "REBEL", "REBEL_PHASE", "Action", "Chance",
    "HandResult", "SeatView", "State", "Trick", "action_key", "candidate_actions", "deal",
    "new_hand", "play_only", "play_random", "random_action", "random_start", "redeal_hidden",
    "verify_deal",
]

# The longest hand, in actions. Bidding: at most 2 造反 offers (a 造反 redeals into a 抢庄局,
# which has none); a silent first declaring round (4 passes) before the second; each
# declaration, overcall or 加固 must climb the seven-step ladder (a single; pairs ♦ ♣ ♥ ♠;
# 对小王; 对大王: §4.2), and the ladder is not reset between the last round and 扒鸡窝, so a
# hand shows at most 7 of them. The last round takes at most 3 passes before each of its d1
# declarations and 4 passes at its end (4·d1 + 4); the first bury 1; 扒鸡窝 at most 2 passes
# before each of its d2 overcalls, the overcall and its bury, then 3 passes (4·d2 + 3). So
# bidding takes at most 2 + 4 + 4 + 1 + 3 + 4·(d1 + d2) = 14 + 28 = 42 actions. Play: the
# 100 cards of the hands go out at least one a seat a trick, 4 plays a trick: at most 100.
MAX_LENGTH = 42 + 100

FACTS = GameFacts(
    name="shengji", n_seats=N_SEATS, teams=((0, 2), (1, 3)), max_length=MAX_LENGTH,
    # returns() are the levels each seat's team gains by the level table (the other team
    # gains 0): their sum is not constant, so the game declares none.
    utility_sum=None, returns_unit="levels", presets=tuple(PRESETS))

# -- the engine's order of actions (action_key) -------------------------------------------

_KIND_ORDER = {PASS: 0, REBEL: 1, DECLARE: 2, BURY: 3, PLAY: 4}


def _declaration_order(cards: tuple[int, ...]) -> tuple[int, int]:
    """(class, suit) a declaration's cards show, read from their shape alone: the order of
    ``bidding.declarable`` (class, then suit ♠♥♣♦)."""
    plain = [f for f in cards if f < 52]
    if plain:
        return len(plain), plain[0] // 13
    if not cards:
        return 0, 0
    return (3 if cards[0] == SMALL_JOKER else 4), NT


def action_key(action: Action) -> tuple:
    """The sort key of the engine's order: pass, 造反, declarations by class then suit (the
    order the declaring rules list them), buries, plays; then the cards."""
    kind = getattr(action, "kind", "")
    cards = tuple(getattr(action, "cards", ()))
    order = _declaration_order(cards) if kind == DECLARE else (0, 0)
    return (_KIND_ORDER.get(kind, len(_KIND_ORDER)), *order, cards)


@dataclass(frozen=True)
class SeatView:
    """What one seat may see: its own cards and every public fact of the hand."""

    seat: int
    phase: str
    current_player: int
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    levels: tuple[int, int]
    level: int | None  # L, once known
    trump: int | None  # T (0..3, 4 = NT), once known
    banker: int | None
    grab: bool  # a 抢庄局
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
    result: HandResult | None  # the settlement, once the hand is over


class State(HandState):
    """One hand with the contract's verbs. Build it with :func:`new_hand`,
    :func:`play_only` or :func:`random_start`."""

    def current_player(self) -> int:
        """The seat to act; TERMINAL (-1) once the hand is over."""
        return TERMINAL if self.phase == DONE else self.turn

    def is_terminal(self) -> bool:
        """True when the hand is over."""
        return self.phase == DONE

    def legal_actions(self) -> list[Action]:
        """Every legal action in the rebel, declare and 扒鸡窝 phases, in the engine's order
        (pass first); empty when over. Bury and play choices are too many to list:
        NotListed there."""
        if self.phase == DONE:
            return []
        if self.phase in (BURY_PHASE, PLAY_PHASE):
            raise NotListed(f"the {self.phase} choices are not listed: use verify / can / "
                            "apply, legal_leads and some_follow")
        return bp.legal_actions(self)

    def verify(self, action: Action, seat: int | None = None) -> None:
        """Raise ValueError with the reason unless ``action`` is legal now (and, if ``seat``
        is given, it is that seat's turn)."""
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
        """True if ``action`` is legal now (for ``seat``, if given)."""
        try:
            self.verify(action, seat)
        except ValueError:
            return False
        return True

    def apply(self, action: Action, seat: int | None = None) -> None:
        """Play ``action`` for the seat to act (verified first, ``seat`` too if given:
        ValueError with the reason if illegal)."""
        self.verify(action, seat)
        acting = self.turn
        if self.phase == PLAY_PHASE:
            pp.apply(self, acting, action)
        else:
            bp.apply(self, acting, action)
        self.history.append((acting, action))

    def returns(self) -> tuple[int, ...]:
        """Levels gained per seat (the winner team's seats gain, the others 0); zeros before
        the end. The full outcome is :attr:`result`."""
        if self.result is None:
            return (0, 0, 0, 0)
        r = self.result
        return tuple(r.gain if s % 2 == r.winner_team else 0 for s in range(N_SEATS))

    def clone(self) -> State:
        """An independent copy (:meth:`.state.HandState.clone`)."""
        return super().clone()

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may see now: its cards, the kitty it holds or buried last, and the
        public facts (declarations, failed throws, voids, cards shown, tricks)."""
        standing = self.standing
        return SeatView(
            seat, self.phase, self.current_player(), self.hands[seat],
            tuple([len(h) for h in self.hands]), self.levels, self.level, self.trump,
            self.banker, self.grab, tuple(self.declarations),
            None if standing is None else (-1 if standing.seat is None else standing.seat,
                                           standing.cards),
            self.random_trump_card, tuple([s for s, _, _ in self.kitty_log]),
            tuple([(up, down) for s, up, down in self.kitty_log if s == seat]),
            self.kitty_known_to(seat), tuple(self.failed_throws),
            tuple([frozenset(v) for v in self.voids]),
            tuple([tuple(sorted(k.elements())) if k else () for k in self.known]),
            tuple([(t.leader, tuple(t.plays)) for t in self.tricks]),
            self.attacker_points, self.result)

    def kitty_known_to(self, seat: int) -> tuple[int, ...] | None:
        """The kitty as ``seat`` knows it: the 8 cards it picked up and holds to bury, or the
        kitty it buried last; None if another seat's."""
        if self.phase == BURY_PHASE:  # the kitty is in the taker's hand
            return self.picked_up if seat == self.kitty_taker else None
        return self.kitty if seat == self.last_burier else None

    # -- helpers for bots, samplers and tests ---------------------------------------------

    def legal_leads(self) -> list[tuple[int, ...]]:
        """Every single-unit lead (single, pair, tractor) of the seat to lead; throws are any
        two or more units of one effective suit (checked by ``verify``)."""
        if self.phase != PLAY_PHASE or self.tricks[-1].plays:
            raise ValueError("nobody is to lead now")
        return pp.unit_leads(self.hands[self.turn], self.play_ctx)

    def some_follow(self) -> tuple[int, ...]:
        """One legal follow for the seat to act (the primitives' ``legal_follow``)."""
        if self.phase != PLAY_PHASE or not self.tricks[-1].plays:
            raise ValueError("nobody is to follow now")
        return pp.some_follow(self)


def _levels(levels) -> tuple[int, int]:
    if len(levels) != 2:
        raise ValueError(f"levels are two team levels, got {levels!r}")
    a, b = (parse_level(v) if isinstance(v, str) else v for v in levels)
    for v in (a, b):
        if not isinstance(v, int) or isinstance(v, bool) or not 2 <= v <= 14:
            raise ValueError(f"a team level is 2..14 (A), got {v!r}")
    return a, b


def new_hand(rules: str | ShengjiRules | None = None, levels=(2, 2), banker: int | None = None,
             seed=None, hands=None, kitty=None, rng: random.Random | None = None,
             chance: Chance | None = None) -> State:
    """A whole hand from the deal: ``banker`` None is a 抢庄局 (the first hand).

    The deal is ``hands`` + ``kitty`` if given, else drawn from ``rng`` (or
    ``random.Random(seed)``), which also draws every later random choice. ``chance``
    overrides the random source (records pass their logged outcomes).
    """
    rules = get_rules(rules)
    team_levels = _levels(levels)
    if banker is not None and banker not in range(N_SEATS):
        raise ValueError(f"banker must be a seat 0..3 or None (抢庄局), got {banker!r}")
    if rng is None:
        rng = random.Random(seed)
    if chance is None:
        chance = Chance(rng)
    if (hands is None) != (kitty is None):
        raise ValueError("give both hands and kitty, or neither")
    if hands is None:
        hands, kitty = deal(chance.source("a deal"))
    dealt, kit = verify_deal(hands, kitty)
    st = State(rules=rules, levels=team_levels, start_banker=banker, deals=[(dealt, kit)],
               hands=list(dealt), kitty=kit, chance=chance, grab=banker is None,
               banker=banker, priority=0 if banker is None else banker,
               level=None if banker is None else team_levels[banker % 2])
    bp.start(st)
    return st


def play_only(rules: str | ShengjiRules | None, hands, kitty, level, trump, banker: int,
              levels=None) -> State:
    """A hand that starts at trick 1: the kitty is already buried, L and T fixed, the
    ``banker`` leads. ``levels`` (team levels, for the settlement) default to (L, L)."""
    rules = get_rules(rules)
    lv = parse_level(level) if isinstance(level, str) else level
    t = parse_trump(trump)
    team_levels = _levels((lv, lv) if levels is None else levels)
    if banker not in range(N_SEATS):
        raise ValueError(f"banker must be a seat 0..3, got {banker!r}")
    dealt, kit = verify_deal(hands, kitty)
    st = State(rules=rules, levels=team_levels, start_banker=banker, deals=[(dealt, kit)],
               hands=list(dealt), kitty=kit, chance=Chance(None), banker=banker,
               priority=banker, level=lv, trump=t,
               ctx=context(lv, t, rules.nt_level_joker_tractor), last_burier=banker,
               play_only=True)
    pp.start_play(st)
    return st


def random_start(rules: str | ShengjiRules | None, rng: random.Random) -> State:
    """A whole hand from a random deal, its setting drawn by ``rng`` too: one time in five
    the first hand of a match (a 抢庄局, both teams at 2), else a normal hand with a uniform
    banker going in and each team's level uniform in 2..A. Every later random outcome (a
    redeal, the kitty-card trump, first seats) comes from ``rng``."""
    if rng.random() < 0.2:
        return new_hand(rules, (2, 2), None, rng=rng)
    levels = (rng.randint(2, 14), rng.randint(2, 14))
    return new_hand(rules, levels, rng.randrange(N_SEATS), rng=rng)


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


def _pinned(state: State, seat: int, place: int) -> Counter:
    """The cards of hidden place ``place`` (a seat, or N_SEATS for the kitty) whose place
    ``seat`` knows: cards shown and not played since, and the random trump card the first
    kitty-taker holds before it buries."""
    if place == N_SEATS:
        return Counter()
    out = Counter(state.known[place]) if state.known[place] else Counter()
    if (state.phase == BURY_PHASE and not state.kitty_log and place == state.kitty_taker
            and state.random_trump_card is not None):
        out[state.random_trump_card] = max(out[state.random_trump_card], 1)
    return out


def redeal_hidden(state: State, seat: int, rng: random.Random) -> State:
    """A clone in which the cards ``seat`` cannot place are dealt anew among the places it
    cannot see, each keeping its size: the other hands, less the cards their seat has shown
    (declarations, failed throws) and not played since, and the kitty unless ``seat`` holds
    it or buried it last. Voids shown are not respected and ``deals`` keeps the real deal:
    the result need not be reachable, it differs only in what ``seat`` cannot see."""
    out = state.clone()
    places = [s for s in range(N_SEATS) if s != seat]
    if state.kitty and state.kitty_known_to(seat) is None:
        places.append(N_SEATS)
    kept: dict[int, list[int]] = {}
    pool: list[int] = []
    for p in places:
        cards = state.kitty if p == N_SEATS else state.hands[p]
        pinned = _pinned(state, seat, p)
        kept[p] = list(pinned.elements())
        pool += (Counter(cards) - pinned).elements() if pinned else cards
    rng.shuffle(pool)
    for p in places:
        n = len(state.kitty if p == N_SEATS else state.hands[p]) - len(kept[p])
        cards = tuple(sorted(kept[p] + pool[:n]))
        pool = pool[n:]
        if p == N_SEATS:
            out.kitty = cards
        else:
            out.hands[p] = cards
    return out


def candidate_actions(state: State, rng: random.Random) -> list[Action]:
    """Actions to hold ``can`` to, most of them illegal now: every declaration shape at the
    seat's level in every suit (held or not), a pass with a card, 造反 out of its phase, a
    bury and a play of the seat's own cards, a joker pair of two jokers that differ, and a
    declaration of cards it does not hold."""
    if state.is_terminal():
        return []
    seat = state.turn
    hand = state.hands[seat]
    level = bp.declare_level(state, seat) if state.phase in (
        REBEL_PHASE, DECLARE_PHASE, BAJIWO_PHASE) else state.level
    out = [Action(REBEL), Action(PASS, hand[:1]), Action(BURY, hand[:KITTY_SIZE]),
           Action(PLAY, (rng.choice(hand),)), Action(DECLARE, (SMALL_JOKER, SMALL_JOKER)),
           Action(DECLARE, (BIG_JOKER, BIG_JOKER)), Action(DECLARE, (BIG_JOKER, SMALL_JOKER))]
    if level is not None:
        for suit in range(4):
            f, joker = face(suit, level), joker_for_suit(suit, state.rules)
            out += [Action(DECLARE, c) for c in ((f,), (f, f), (joker, f), (joker, f, f))]
    missing = sorted((Counter(range(54)) - Counter(hand)).elements())
    if missing:
        out.append(Action(DECLARE, (rng.choice(missing),)))
    return out
