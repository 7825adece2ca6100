"""What should the seat to act do? Every legal action where a 双升 record stops, valued.

The record is replayed in the reference engine. Each sample deals the cards the acting seat
cannot see anew, consistent with what is public: the other hands keep their sizes, the
cards a seat has shown (declarations, failed throws) and not played since stay with it, a
seat shown void in a suit gets none of it, and the kitty is dealt anew unless this seat
buried it. Every action is then played out from that one deal and one saved random stream
(paired play-outs): the acting seat plays on with ``policy``, the other three with
``opponents``. The value is the acting team's level change for the hand: the levels it
gains less the levels the other team gains.

Sampling runs in batches as a race: after each batch an action whose paired gap to the
leader excludes 0 at z = 3.29 (stricter than 95%, as the race looks many times) leaves the
race; sampling stops when the leader is alone, when every action still racing is within
``precision`` levels of the leader (95% CI half-width of the paired gap), or after
``samples`` deals.

What is listed, by phase (``LISTING``):

- **造反**: pass or rebel (``rebel_scope="player"``).
- **declaring** (any round, 抢庄局 included) and **扒鸡窝**: pass and every declaration or
  overcall the engine allows (an overcall then buries by the seat's policy).
- **the bury** (the first, or after a 扒鸡窝 overcall): the buries the bury generator of
  ``shengji bury`` proposes (the heuristic's and its variants, a void per short plain
  suit) and any ``candidates``; a bury has C(33, 8) choices, too many to list.
- **a lead**: every unit (single, pair, tractor) and every throw (甩牌) attempt the engine
  allows, when there are at most ``MAX_VALUED`` of them; else the units, the whole-suit
  throws, the policies' candidates, any ``candidates`` and a seeded sample of the rest up
  to ``MAX_VALUED``, and the answer says how many are legal.
- **a follow**: every legal follow when there are at most ``MAX_VALUED``; else the
  policies' candidates (the heuristic's follow; its low, feed and high follows and ruffs),
  any ``candidates`` and a seeded sample of the legal rest.

No two actions are grouped: each ``group`` holds its action alone.
"""

from __future__ import annotations

import itertools
import json
import math
import random
import secrets
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from kernels.rng import states_for_chunks

from ..core.race import Race, ranked_lines
from ..core.stats import Estimate, mean_ci
from . import combos
from .actions import (
    BAJIWO_PHASE,
    BURY,
    BURY_PHASE,
    DECLARE,
    DECLARE_PHASE,
    KITTY_SIZE,
    PASS,
    PLAY,
    PLAY_PHASE,
    REBEL,
    REBEL_PHASE,
    Action,
)
from .bidding import classify_declaration
from .cards import NT, RANK_NAMES, SUIT_SYMBOLS, format_cards
from .engine import State
from .records import action_from_json, action_to_json, record_of, replay
from .sim import POLICIES, rule_arrays, seat_policies

UNIT = "levels"
# Loss thresholds (levels a hand) the 95% CI's lower end must reach (core review labels).
THRESHOLDS = {"inaccuracy": 0.05, "mistake": 0.2, "blunder": 0.5}
DEFAULT_POLICY = "tuned"  # the strongest policy fast enough to answer in seconds
DEFAULT_OPPONENTS = "tuned"
DEFAULT_PRECISION = 0.1  # levels: CI half-width of the paired gaps still racing
DEFAULT_SAMPLES = 20_000  # deals at most
MAX_VALUED = 40  # actions valued at one decision at most (a capped listing says so)
ENUMERATE_LIMIT = 4_096  # card sets tried when listing the plays of one suit
CHUNKS = 8  # random streams per batch: fixed, so the numbers depend on the seed alone
PER_CHUNK = 32  # deals per chunk and batch
NOT_PLAYED = -9999  # kernels.shengji.advise.NOT_PLAYED
GROUPING = "none: every action is valued on its own"
LISTING = {
    "rebel": "pass or 造反",
    "declare": "pass and every declaration the engine allows",
    "bajiwo": "pass and every 扒鸡窝 overcall the engine allows",
    "bury": "the buries the bury generator proposes (heuristic and variants, a void per "
            "short plain suit) and any candidates: C(33, 8) buries are too many to list",
    "lead": f"every unit and throw the engine allows, or at most {MAX_VALUED}: the units, "
            "the whole-suit throws, the policies' candidates and a seeded sample",
    "follow": f"every legal follow, or at most {MAX_VALUED}: the policies' candidates and a "
              "seeded sample",
}


class NotValued(ValueError):
    """A decision advise does not value yet (造反 with rebel_scope=side)."""


# -- the position --------------------------------------------------------------------------


def _state_of(record: Any) -> State:
    """The replayed position of a record given as a dict, JSON text or engine state."""
    if isinstance(record, State):
        return record
    if isinstance(record, (str, bytes)):
        try:
            record = json.loads(record)
        except json.JSONDecodeError as e:
            raise ValueError(f"the record is not valid JSON: {e}") from None
    return replay(record)


def _is_throw(cards: tuple[int, ...], state: State) -> bool:
    return len(combos.decompose(cards, state.play_ctx)) >= 2


def decision_kind(state: State, action: Action) -> str:
    """The kind of decision ``action`` answers at ``state``: rebel, declare, bury, bajiwo,
    lead, throw (a lead of two or more units) or follow."""
    phase = state.phase
    if phase == PLAY_PHASE:
        if state.tricks[-1].plays:
            return "follow"
        return "throw" if _is_throw(action.cards, state) else "lead"
    return {REBEL_PHASE: "rebel", DECLARE_PHASE: "declare", BURY_PHASE: "bury",
            BAJIWO_PHASE: "bajiwo"}.get(phase, phase)


def _phase_name(state: State) -> str:
    if state.phase == PLAY_PHASE:
        return "follow" if state.tricks[-1].plays else "lead"
    return state.phase


# -- listing ---------------------------------------------------------------------------------


def _submultisets(cards, size: int | None = None):
    """Every non-empty sub-multiset of ``cards`` (of ``size`` cards if given), as sorted
    tuples; None if there are more than ENUMERATE_LIMIT."""
    counts = sorted(Counter(cards).items())
    if size is None:
        if math.prod(c + 1 for _, c in counts) > ENUMERATE_LIMIT:
            return None
        out = []
        for pick in itertools.product(*(range(c + 1) for _, c in counts)):
            if sum(pick):
                out.append(tuple(f for (f, _), k in zip(counts, pick) for _ in range(k)))
        return out
    if _count_multisets(cards, size) > ENUMERATE_LIMIT:
        return None
    out = []

    def walk(i: int, left: int, acc: list[int]) -> None:
        if left == 0:
            out.append(tuple(acc))
            return
        if i == len(counts):
            return
        f, c = counts[i]
        for k in range(min(c, left), -1, -1):
            walk(i + 1, left - k, acc + [f] * k)

    walk(0, size, [])
    return out


def _count_multisets(cards, size: int) -> int:
    """How many sub-multisets of ``size`` cards ``cards`` hold."""
    ways = [1] + [0] * size
    for c in Counter(cards).values():
        ways = [sum(ways[n - j] for j in range(min(c, n) + 1)) for n in range(size + 1)]
    return ways[size]


@dataclass
class Listing:
    """The actions valued at a decision and what the rules allow there."""

    actions: list[Action]
    legal: int | None  # how many legal actions (None: more than could be counted)
    complete: bool  # every legal action is valued
    how: str


def _lead_listing(state: State, extra: list[Action], rng: random.Random,
                  kernel_candidates: list[tuple[int, ...]]) -> Listing:
    hand, ctx = state.hands[state.turn], state.play_ctx
    units = [tuple(u) for u in _unit_leads(state)]
    throws: list[tuple[int, ...]] = []
    countable = True
    for es in sorted(ctx.esuits(hand)):
        held = ctx.suit_cards(hand, es)
        if len(combos.decompose(held, ctx)) < 2:
            continue
        subs = _submultisets(held)
        if subs is None:
            countable = False
            throws.append(tuple(held))  # the whole suit; the rest sampled below
            continue
        throws += [s for s in subs if _is_throw(s, state)]
    legal = [c for c in units + throws if state.can(Action(PLAY, c))]
    if countable and len(legal) <= MAX_VALUED:
        return Listing([Action(PLAY, c) for c in sorted(legal, key=lambda c: (len(c), c))],
                       len(legal), True, LISTING["lead"])
    whole = [tuple(ctx.suit_cards(hand, es)) for es in sorted(ctx.esuits(hand))]
    first = units + [w for w in whole if _is_throw(w, state)] + kernel_candidates
    first += [a.cards for a in extra]
    rest = [c for c in legal if c not in set(first)]
    return _capped(state, first, rest, len(legal) if countable else None, rng, "lead")


def _unit_leads(state: State) -> list[tuple[int, ...]]:
    return state.legal_leads()


def _follow_listing(state: State, extra: list[Action], rng: random.Random,
                    kernel_candidates: list[tuple[int, ...]]) -> Listing:
    lead = state.tricks[-1].plays[0]
    hand, ctx = state.hands[state.turn], state.play_ctx
    es, n = ctx.esuit[lead[0]], len(lead)
    held = ctx.suit_cards(hand, es)
    if len(held) >= n:
        subs = _submultisets(held, n)
    else:
        rest_cards = [f for f in hand if ctx.esuit[f] != es]
        more = _submultisets(rest_cards, n - len(held))
        subs = None if more is None else [tuple(sorted(held + m)) for m in more]
    if subs is not None:
        legal = [c for c in subs if state.can(Action(PLAY, c))]
        if len(legal) <= MAX_VALUED:
            return Listing([Action(PLAY, c) for c in legal], len(legal), True,
                           LISTING["follow"])
        count: int | None = len(legal)
    else:
        legal, count = [], None
    first = kernel_candidates + [a.cards for a in extra]
    rest = [c for c in legal if c not in set(first)]
    if not legal:  # too many to enumerate: sample legal follows at random
        from .play_phase import follow_candidates

        rest = []
        for _ in range(20):
            rest += [c for c in follow_candidates(state, rng, 8) if c not in rest]
    return _capped(state, first, rest, count, rng, "follow")


def _capped(state: State, first: list[tuple[int, ...]], rest: list[tuple[int, ...]],
            legal: int | None, rng: random.Random, what: str) -> Listing:
    chosen: list[tuple[int, ...]] = []
    for c in first:
        if c not in chosen and state.can(Action(PLAY, c)):
            chosen.append(c)
    rest = [c for c in rest if c not in chosen]
    room = max(MAX_VALUED - len(chosen), 0)
    chosen += rng.sample(rest, min(room, len(rest)))
    how = LISTING[what]
    return Listing([Action(PLAY, c) for c in chosen], legal, False, how)


def _extra_actions(state: State, candidates) -> list[Action]:
    """Candidate actions given as record entries, card text or Actions, checked legal."""
    out = []
    for i, c in enumerate(candidates or ()):
        if isinstance(c, Action):
            a = c
        elif isinstance(c, dict):
            _, a = action_from_json(c, i)
        else:
            kind = BURY if state.phase == BURY_PHASE else PLAY
            a = Action(kind, c)
        try:
            state.verify(a)
        except ValueError as e:
            raise ValueError(f"candidate {i + 1} ({a}) is not legal here: {e}") from None
        out.append(a)
    return out


# -- the race ---------------------------------------------------------------------------------


class _Race(Race):
    """The core race, with the actions that left it marked as not played on later deals."""

    def add(self, got: np.ndarray) -> None:
        got = got.copy()
        got[:, self.active == 0] = NOT_PLAYED
        super().add(got)


Caller = Callable[[np.ndarray, int], np.ndarray]  # (active, batch) -> values[deals, k]


def _run(call: Caller, k: int, samples: int, precision: float,
         progress: Callable[[int, int], None] | None) -> tuple[_Race, str]:
    race = _Race(k)
    per_batch = CHUNKS * PER_CHUNK
    batch = 0
    while True:
        got = call(race.active.copy(), batch)[:samples - race.n]
        race.add(got)
        batch += 1
        if progress is not None:
            progress(race.n, samples)
        if race.n == 0 and batch >= 20:
            raise ValueError("no deal of the hidden cards fits this record's public facts")
        stop = race.step(precision, samples, per_batch)
        if stop is not None:
            return race, stop


def _chunks(seed: int, batch: int) -> tuple[np.ndarray, int]:
    return states_for_chunks(seed, batch * CHUNKS, CHUNKS), PER_CHUNK


def _values_of(out: np.ndarray, k: int) -> np.ndarray:
    from kernels.shengji.decisions import EMPTY, Q_VALUES

    rows = out.reshape(-1, out.shape[-1])
    rows = rows[rows[:, Q_VALUES] != EMPTY] if k else rows
    return rows[:, Q_VALUES:Q_VALUES + k]


# -- the kernels' view of a position ------------------------------------------------------------


def _planes(cards) -> tuple[int, int]:
    from kernels.shengji.planes import planes_of

    return planes_of(list(cards))


def play_query(state: State) -> tuple[Any, np.ndarray]:
    """The play kernels' query ``q`` (``kernels.shengji.advise``) of the seat to lead or
    follow at ``state``, and the rule vector."""
    from kernels.shengji.context import new_context

    from .decision_throw import knowledge

    seat, r = state.turn, state.rules
    ctx = new_context(state.trump, state.level, r.nt_level_joker_tractor)
    kn = knowledge(state, seat)
    h_one, h_two = _planes(state.hands[seat])
    sizes = np.array([len(h) for h in state.hands] + [h_one, h_two], dtype=np.int64)
    trick = state.tricks[-1]
    plays = np.zeros((4, 2), dtype=np.int64)
    for j, p in enumerate(trick.plays):
        plays[j] = _planes(p)
    q = (seat, sizes, kn, state.the_banker, np.array(state.levels, dtype=np.int64),
         state.attacker_points, ctx, (trick.leader, len(trick.plays), plays))
    return q, rule_arrays(r)


def _play_caller(state: State, options: list[Action], pols, seed: int) -> Caller:
    from kernels.shengji import advise as ka
    from kernels.shengji.decisions import Q_VALUES

    q, params = play_query(state)
    opts = np.array([_planes(a.cards) for a in options], dtype=np.int64)
    k = len(options)

    def call(active: np.ndarray, batch: int) -> np.ndarray:
        out = np.empty((CHUNKS, PER_CHUNK, Q_VALUES + k), dtype=np.int64)
        ka.advise_chunks(q, (opts, active), _chunks(seed, batch), params, pols, out)
        return _values_of(out, k)

    return call


def _kernel_candidates(state: State, pols) -> list[tuple[int, ...]]:
    """The acting seat's policy candidates (the heuristic's own choice first)."""
    from kernels.shengji import advise as ka
    from kernels.shengji.context import new_context
    from kernels.shengji.planes import cards_of

    from .decision_throw import knowledge

    seat, r = state.turn, state.rules
    ctx = new_context(state.trump, state.level, r.nt_level_joker_tractor)
    trick = state.tricks[-1]
    plays = np.zeros((4, 2), dtype=np.int64)
    for j, p in enumerate(trick.plays):
        plays[j] = _planes(p)
    out = np.zeros((32, 2), dtype=np.int64)
    n = ka.policy_candidates((seat, pols[1][seat], knowledge(state, seat)),
                             (plays, len(trick.plays)), np.array(_planes(state.hands[seat])),
                             (ctx, rule_arrays(r)), out)
    return [tuple(cards_of(int(o), int(t))) for o, t in out[:n]]


def _position(state: State, seat: int, own: tuple[int, ...]):
    """The query kernels' Position: ``own`` pinned to ``seat``, every other seat's shown
    cards to it, the standing declaration."""
    from .decision import Position

    fixed = np.zeros((5, 2), dtype=np.int64)
    sizes = np.array([len(h) for h in state.hands] + [len(state.kitty)], dtype=np.int64)
    fixed[seat] = _planes(own)
    for s in range(4):
        if s != seat and state.known[s]:
            fixed[s] = _planes(state.known[s].elements())
    st = np.zeros(5, dtype=np.int64)
    d = state.standing
    if d is not None and d.seat is not None:
        one, two = _planes(d.cards)
        st[:] = d.cls, d.suit, d.seat, one, two
    banker = state.priority if state.banker is None else state.banker
    return Position(fixed, sizes, seat, banker, np.array(state.levels, dtype=np.int64), st)


def _declare_caller(state: State, options: list[Action], pols, seed: int) -> Caller:
    from kernels.shengji import advise as ka
    from kernels.shengji.bidding import legal_declarations
    from kernels.shengji.decisions import Q_VALUES

    from .bidding_phase import declare_level

    seat, r = state.turn, state.rules
    params = rule_arrays(r)
    lv = declare_level(state, seat)
    pos = _position(state, seat, state.hands[seat])
    pairs = [(0, 0)]
    for a in options[1:]:
        d = classify_declaration(a.cards, lv, r)
        if d is None:
            raise RuntimeError(f"the engine allows {a}, which makes no declaration")
        pairs.append((d.cls, d.suit))
    one, two = _planes(state.hands[seat])
    dcls, dsuit = np.zeros(10, dtype=np.int64), np.zeros(10, dtype=np.int64)
    st = pos.standing
    n = legal_declarations(one, two, lv, (int(st[0]), int(st[1]),
                                          int(st[2]) if st[0] else -1),
                           seat, False, params, (dcls, dsuit))
    kernel = {(int(dcls[i]), int(dsuit[i])) for i in range(n)}
    if kernel != set(pairs[1:]) or len(set(pairs)) != len(pairs):
        raise RuntimeError("the kernels list other declarations than the reference engine")
    shown = np.zeros((4, 2), dtype=np.int64)
    for s, cards, _ in state.declarations:
        o, t = _planes(cards)
        shown[s, 0] |= o
        shown[s, 1] |= t
    declarers = sum(1 << s for s in state.round_declarers)
    setting = (int(state.grab), state.priority, state.round,
               0 if state.level is None else state.level)
    ask = (state.passes, np.array(pairs, dtype=np.int64), shown, declarers, setting)
    k = len(options)

    def call(active: np.ndarray, batch: int) -> np.ndarray:
        out = np.empty((CHUNKS, PER_CHUNK, Q_VALUES + k), dtype=np.int64)
        ka.declare_chunks(pos.kernel(), ask, _chunks(seed, batch), params, pols, out)
        return _values_of(out, k)

    return call


def _bury_listing(state: State, extra: list[Action]) -> tuple[list[Action], list[str]]:
    from kernels.shengji.context import new_context

    from .cards import context
    from .decision import _bury_options

    seat, r = state.turn, state.rules
    mine = state.hands[seat]
    one, two = _planes(mine)
    ctx = new_context(state.the_trump, state.the_level, r.nt_level_joker_tractor)
    cx = context(state.the_level, state.the_trump, r.nt_level_joker_tractor)
    names, cards, _ = _bury_options(mine, one, two, ctx, cx, ())
    from .cards import parse_cards

    acts = [Action(BURY, parse_cards(c)) for c in cards]
    for a in extra:
        if a not in acts:
            acts.append(a)
            names.append("candidate")
    return acts, names


def _bury_caller(state: State, options: list[Action], pols, seed: int) -> Caller:
    from kernels.shengji import decisions as kd

    seat, r = state.turn, state.rules
    params = rule_arrays(r)
    pos = _position(state, seat, state.hands[seat])
    buries = np.array([_planes(a.cards) for a in options], dtype=np.int64)
    k = len(options)

    def call(active: np.ndarray, batch: int) -> np.ndarray:
        out = np.empty((CHUNKS, PER_CHUNK, kd.Q_VALUES + k), dtype=np.int64)
        kd.bury_chunks(pos.kernel(), (state.the_trump, buries), _chunks(seed, batch), params,
                       pols, out)
        return _values_of(out, k)

    return call


def _bajiwo_caller(state: State, options: list[Action], pols, seed: int) -> Caller:
    from kernels.shengji import advise as ka
    from kernels.shengji.bidding import legal_declarations
    from kernels.shengji.decisions import Q_VALUES

    seat, r = state.turn, state.rules
    params = rule_arrays(r)
    lv = state.the_level
    pos = _position(state, seat, state.hands[seat])
    if state.last_burier == seat:
        pos.fixed[4] = _planes(state.kitty)
    pairs = [(0, 0)]
    for a in options[1:]:
        d = classify_declaration(a.cards, lv, r)
        if d is None:
            raise RuntimeError(f"the engine allows {a}, which makes no declaration")
        pairs.append((d.cls, d.suit))
    one, two = _planes(state.hands[seat])
    dcls, dsuit = np.zeros(10, dtype=np.int64), np.zeros(10, dtype=np.int64)
    st = pos.standing
    n = legal_declarations(one, two, lv, (int(st[0]), int(st[1]),
                                          int(st[2]) if st[0] else -1),
                           seat, True, params, (dcls, dsuit))
    if {(int(dcls[i]), int(dsuit[i])) for i in range(n)} != set(pairs[1:]) \
            or len(set(pairs)) != len(pairs):
        raise RuntimeError("the kernels list other 扒鸡窝 overcalls than the reference engine")
    shown = np.zeros((4, 2), dtype=np.int64)
    for s in range(4):
        if state.known[s]:
            shown[s] = _planes(state.known[s].elements())
    setting = (int(state.grab), lv, state.the_trump, state.last_burier)
    ask = (state.passes, np.array(pairs, dtype=np.int64), shown, setting)
    k = len(options)

    def call(active: np.ndarray, batch: int) -> np.ndarray:
        out = np.empty((CHUNKS, PER_CHUNK, Q_VALUES + k), dtype=np.int64)
        ka.bajiwo_chunks(pos.kernel(), ask, _chunks(seed, batch), params, pols, out)
        return _values_of(out, k)

    return call


def _rebel_caller(state: State, options: list[Action], pols, seed: int) -> Caller:
    from kernels.shengji import decisions as kd

    seat, r = state.turn, state.rules
    if r.rebel_scope != "player":
        raise NotValued("advise values 造反 with rebel_scope=player only")
    params = rule_arrays(r)
    pos = _position(state, seat, state.hands[seat])

    def call(active: np.ndarray, batch: int) -> np.ndarray:
        out = np.empty((CHUNKS, PER_CHUNK, kd.Q_VALUES + 2), dtype=np.int64)
        kd.rebel_chunks(pos.kernel(), _chunks(seed, batch), params, pols, out)
        got = _values_of(out, 2)
        return got[:, ::-1]  # the kernel's order is 造反, decline; the engine's pass first

    return call


# -- the answer ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class ActionValue:
    """One legal action and the acting team's level change after it: ``action`` in record
    format (append it to the record to play it), ``group`` (the action alone), ``ev`` and
    ``ci95`` over ``n`` deals, ``diff`` the paired gap best − this action."""

    action: dict[str, Any]
    group: tuple[dict[str, Any], ...]
    ev: float
    ci95: tuple[float, float]
    n: int
    diff: dict[str, float | int]
    label: str = ""

    def to_json(self) -> dict[str, Any]:
        out = {"action": dict(self.action), "ev": self.ev, "ci95": list(self.ci95),
               "n": self.n, "diff": dict(self.diff), "group": [dict(a) for a in self.group]}
        if self.label:
            out["label"] = self.label
        return out


@dataclass(frozen=True)
class Advice:
    """The answer of :func:`advise`: the player's question first (declare or pass, 造反 or
    not, throw or not) where there is one, then every valued action best first."""

    rules: str
    seat: int
    phase: str
    hand: str
    setting: dict[str, Any]
    policy: str
    opponents: str
    seed: int
    precision: float
    samples: int
    deals: int
    stopped: str
    actions: tuple[ActionValue, ...]
    separated: bool
    listing: dict[str, Any]
    question: dict[str, Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def best(self) -> ActionValue:
        return self.actions[0]

    def to_json(self) -> dict[str, Any]:
        return {"game": "shengji", "rules": self.rules, "seed": self.seed,
                "deals": self.deals, "policy": self.policy, "others_policy": self.opponents,
                "seat_policies": [self.policy if s == self.seat else self.opponents
                                  for s in range(4)],
                "seat": self.seat, "phase": self.phase, "hand": self.hand,
                "setting": self.setting, "precision": self.precision,
                "samples": self.samples, "stopped": self.stopped,
                "value": "levels gained by the acting seat's team less the other team's, "
                         "per hand",
                "grouping": GROUPING, "listing": self.listing, "question": self.question,
                "actions": [a.to_json() for a in self.actions],
                "best": self.best.to_json(), "separated": self.separated, **self.extra}


def _check_args(samples, precision, policy, opponents, seed) -> tuple[int, float, int]:
    for what, name in (("policy", policy), ("opponents", opponents)):
        if name not in POLICIES:
            raise ValueError(f"{what} must be one of {', '.join(POLICIES)}, got {name!r}")
    samples = DEFAULT_SAMPLES if samples is None else samples
    if not isinstance(samples, (int, np.integer)) or isinstance(samples, bool) or samples < 2:
        raise ValueError(f"samples must be an integer of at least 2, got {samples!r}")
    if (not isinstance(precision, (int, float)) or isinstance(precision, bool)
            or not math.isfinite(precision) or precision <= 0):
        raise ValueError(f"precision must be a positive number of levels, got {precision!r}")
    if seed is None:
        seed = secrets.randbits(63)
    if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    return int(samples), float(precision), int(seed)


def _setting(state: State) -> dict[str, Any]:
    out: dict[str, Any] = {"levels": list(state.levels), "banker": state.banker}
    if state.level is not None:
        out["level"] = RANK_NAMES[state.level]
    if state.trump is not None:
        out["trump"] = "NT" if state.trump == NT else SUIT_SYMBOLS[state.trump]
    if state.standing is not None:
        out["standing"] = format_cards(state.standing.cards)
        out["standing_seat"] = state.standing.seat
    if state.phase == PLAY_PHASE:
        t = state.tricks[-1]
        out["trick"] = len(state.tricks)
        out["leader"] = t.leader
        out["plays"] = [format_cards(p, state.ctx) for p in t.plays]
        out["attacker_points"] = state.attacker_points
    return out


def listing_of(record: Any, candidates=(), seed: int = 0) -> tuple[State, Listing]:
    """The position ``record`` stops at and the actions :func:`advise` values there
    (``candidates`` added; ``seed`` draws the sample of a capped listing)."""
    state = _state_of(record)
    if state.is_terminal():
        raise ValueError("the hand is over: there is no decision to advise on")
    extra = _extra_actions(state, candidates)
    rng = random.Random(seed)
    phase = state.phase
    if phase == PLAY_PHASE:
        pols = seat_policies("heuristic", state.rules)
        cands = _kernel_candidates(state, pols)
        if state.tricks[-1].plays:
            return state, _follow_listing(state, extra, rng, cands)
        return state, _lead_listing(state, extra, rng, cands)
    if phase == BURY_PHASE:
        acts, _ = _bury_listing(state, extra)
        return state, Listing(acts, _count_multisets(state.hands[state.turn], KITTY_SIZE),
                              False, LISTING["bury"])
    acts = state.legal_actions()
    return state, Listing(acts, len(acts), True, LISTING[phase])


def _question(state: State, race: _Race, listing: Listing, rows: np.ndarray
              ) -> dict[str, Any] | None:
    """The player's question: the best 'yes' action against the best 'no' one, paired."""
    phase = _phase_name(state)
    acts = listing.actions
    if phase in ("declare", "rebel", "bajiwo"):
        yes = [i for i, a in enumerate(acts) if a.kind in (DECLARE, REBEL)]
        no = [i for i, a in enumerate(acts) if a.kind == PASS]
        text = {"declare": ("declare or pass", "declare", "pass"),
                "bajiwo": ("扒鸡窝 or pass", "overcall (扒鸡窝)", "pass"),
                "rebel": ("造反 or not", "造反 (rebel)", "pass")}[phase]
    elif phase == "lead":
        yes = [i for i, a in enumerate(acts) if _is_throw(a.cards, state)]
        no = [i for i, a in enumerate(acts) if not _is_throw(a.cards, state)]
        text = ("throw or not", "throw", "lead one unit")
    else:
        return None
    if not yes or not no:
        return None
    n_of = (rows != NOT_PLAYED).sum(axis=0)
    # the best of each side: the one that stayed longest in the race, then by mean
    def by(i: int) -> tuple[int, float]:
        return int(n_of[i]), _col_mean(rows, i)

    y, nn = max(yes, key=by), max(no, key=by)
    m = int(min(n_of[y], n_of[nn]))
    d = mean_ci(rows[:m, y].astype(np.float64) - rows[:m, nn])
    if d.low > 0:
        answer = text[1]
    elif d.high < 0:
        answer = text[2]
    else:
        answer = "close"
    seat = state.turn
    return {"question": text[0], "answer": answer, "yes": action_to_json(seat, acts[y]),
            "no": action_to_json(seat, acts[nn]), "yes_less_no": d.as_dict(),
            "options": [text[1], text[2]]}


def _col_mean(rows: np.ndarray, i: int) -> float:
    col = rows[:, i]
    col = col[col != NOT_PLAYED]
    return float(col.mean()) if len(col) else -math.inf


def advise(record: Any, *, samples: int | None = None,
           precision: float = DEFAULT_PRECISION, policy: str = DEFAULT_POLICY,
           opponents: str = DEFAULT_OPPONENTS, seed: int | None = None, candidates=(),
           progress: Callable[[int, int], None] | None = None) -> Advice:
    """Value every listed action where ``record`` stops (module docstring).

    ``record``: a record dict, its JSON text or an engine state. ``samples``: deals at most;
    ``precision``: levels (95% CI half-width of the paired gaps still racing); ``policy``
    and ``opponents``: how the acting seat and the other three play on; ``seed``: None
    draws one (reported); ``candidates``: actions to value besides the listing (record
    entries or card text). A position with one legal action is answered without
    play-outs (``stopped`` = "forced"). ValueError on a bad record or a finished hand.
    """
    samples, precision, seed = _check_args(samples, precision, policy, opponents, seed)
    state, listing = listing_of(record, candidates, seed)
    seat, r = state.turn, state.rules
    hand = format_cards(state.hands[seat], state.ctx)
    listed = {"legal": listing.legal, "valued": len(listing.actions),
              "complete": listing.complete, "how": listing.how}
    names = [opponents] * 4
    names[seat] = policy
    pols = seat_policies(",".join(names), r)
    base: dict[str, Any] = {
        "rules": r.name, "seat": seat, "phase": _phase_name(state), "hand": hand,
        "setting": _setting(state), "policy": policy, "opponents": opponents, "seed": seed,
        "precision": precision, "samples": samples, "listing": listed}
    acts = listing.actions
    if len(acts) == 1:
        entry = action_to_json(seat, acts[0])
        only = ActionValue(entry, (entry,), 0.0, (0.0, 0.0), 0,
                           {"value": 0.0, "low": 0.0, "high": 0.0, "n": 0})
        return Advice(**base, deals=0, stopped="forced", actions=(only,), separated=True)
    maker = {PLAY_PHASE: _play_caller, DECLARE_PHASE: _declare_caller,
             BURY_PHASE: _bury_caller, BAJIWO_PHASE: _bajiwo_caller,
             REBEL_PHASE: _rebel_caller}[state.phase]
    call = maker(state, acts, pols, seed)
    race, stop = _run(call, len(acts), samples, precision, progress)
    rows = np.concatenate(race.batches)
    best = race.leader()
    vals = _values(rows, acts, seat, best, state)
    separated = len(vals) == 1 or vals[1].diff["low"] > 0
    return Advice(**base, deals=race.n, stopped=stop, actions=tuple(vals),
                  separated=bool(separated), question=_question(state, race, listing, rows))


def taken_only(state: State, entry: dict[str, Any] | None) -> Advice:
    """An answer that values nothing: the record's own action alone (a decision advise does
    not value yet, :class:`NotValued`); ``stopped`` = "not valued"."""
    seat = state.turn
    if entry is None:
        entry = action_to_json(seat, Action(PASS))
    else:
        entry = action_to_json(*action_from_json(entry, 0))
    only = ActionValue(entry, (entry,), 0.0, (0.0, 0.0), 0,
                       {"value": 0.0, "low": 0.0, "high": 0.0, "n": 0})
    return Advice(state.rules.name, seat, _phase_name(state),
                  format_cards(state.hands[seat], state.ctx), _setting(state), DEFAULT_POLICY,
                  DEFAULT_OPPONENTS, 0, DEFAULT_PRECISION, 0, 0, "not valued", (only,), True,
                  {"legal": None, "valued": 0, "complete": False, "how": "not valued"})


def advise_record(record: Any, *, taken: dict[str, Any] | None = None,
                  **options: Any) -> Advice:
    """The advice the review of a hand (:mod:`analyzer.core.review`) asks at each decision:
    :func:`advise` with ``taken`` (the record's own action) valued too, since a bury or a
    capped listing of plays need not hold it; a decision advise does not value yet
    (:class:`NotValued`) gets :func:`taken_only`, which the review counts as forced."""
    state = _state_of(record)
    extra = [taken] if taken is not None and state.phase in (BURY_PHASE, PLAY_PHASE) else []
    try:
        return advise(state, candidates=extra, **options)
    except NotValued:
        return taken_only(state, taken)


def _label(state: State, a: Action) -> str:
    if state.phase == PLAY_PHASE and not state.tricks[-1].plays and _is_throw(a.cards, state):
        return "throw"
    return ""


def _values(rows: np.ndarray, acts: list[Action], seat: int, best: int,
            state: State) -> list[ActionValue]:
    vals = []
    for a, act in enumerate(acts):
        col = rows[:, a]
        n_a = int(np.count_nonzero(col != NOT_PLAYED))  # a prefix: racing stops for good
        e = mean_ci(col[:n_a].astype(np.float64))
        d = Estimate(0.0, 0.0, 0.0, n_a) if a == best else mean_ci(
            rows[:n_a, best].astype(np.float64) - col[:n_a])
        entry = action_to_json(seat, act)
        vals.append(ActionValue(entry, (entry,), e.value, (e.low, e.high), n_a, d.as_dict(),
                                _label(state, act)))
    order = sorted(range(len(acts)), key=lambda a: (a != best, vals[a].diff["value"], a))
    return [vals[a] for a in order]


# -- text ---------------------------------------------------------------------------------------


def _action_text(entry: dict[str, Any]) -> str:
    text = entry["action"]
    if entry.get("cards"):
        text += " " + entry["cards"]
    return text


def advice_lines(d: dict[str, Any]) -> list[str]:
    """:meth:`Advice.to_json` as text: the question first, then each action with its EV
    (95% CI, n) and the paired gap best − action."""
    from ..core.stats import format_estimate

    s = d["setting"]
    where = ", ".join(f"{k} {v}" for k, v in s.items() if k in ("level", "trump", "banker")
                      and v is not None) or "抢庄局 (no banker yet)"
    lines = [f"seat {d['seat']} to act ({d['phase']}), rules {d['rules']}, {where}; hand "
             f"{d['hand']}"]
    if s.get("plays"):
        lines.append(f"trick {s['trick']} led by seat {s['leader']}: "
                     + " | ".join(s["plays"]))
    if d["stopped"] == "forced":
        lines.append("one legal action: " + _action_text(d["best"]["action"]) + " (forced)")
        return lines
    q = d.get("question")
    if q:
        diff = format_estimate(q["yes_less_no"])
        verdict = q["answer"] if q["answer"] != "close" else \
            f"close ({q['options'][0]} and {q['options'][1]} within the noise)"
        lines.append(f"{q['question']}: {verdict} — best {q['options'][0]} "
                     f"({_action_text(q['yes'])}) less best {q['options'][1]} "
                     f"({_action_text(q['no'])}): {diff} levels")
    li = d["listing"]
    legal = "?" if li["legal"] is None else f"{li['legal']:,}"
    lines.append(f"play-outs: this seat {d['policy']}, others {d['others_policy']}; seed "
                 f"{d['seed']}; {d['deals']:,} deals (stopped: {d['stopped']}, precision "
                 f"{d['precision']:g}); {li['valued']} actions valued of {legal} legal"
                 + ("" if li["complete"] else f" ({li['how']})"))
    lines.append("value: levels gained by the seat's team less the other team's, per hand, "
                 "95% CIs")
    return lines + ranked_lines(d, lambda a: _action_text(a["action"]), 34)


def cut(record: Any, at: int) -> dict[str, Any]:
    """``record`` stopped after its first ``at`` actions (ValueError past its end)."""
    if not isinstance(record, dict) or not isinstance(record.get("actions"), list):
        raise ValueError("a record is a JSON object with \"actions\"")
    n = len(record["actions"])
    if not 0 <= at <= n:
        raise ValueError(f"--at {at}: the record has {n} actions")
    out = dict(record)
    out["actions"] = record["actions"][:at]
    if at < n:
        out.pop("result", None)
    return out


def appended(record: dict[str, Any], entry: dict[str, Any]) -> dict[str, Any]:
    """``record`` with ``entry`` appended to its actions (replayable)."""
    out = dict(record)
    out["actions"] = list(record.get("actions", [])) + [dict(entry)]
    out.pop("result", None)
    return out


__all__ = ["DEFAULT_OPPONENTS", "DEFAULT_POLICY", "DEFAULT_PRECISION", "DEFAULT_SAMPLES",
           "THRESHOLDS", "UNIT", "Advice", "ActionValue", "advice_lines", "advise",
           "appended", "cut", "decision_kind", "listing_of", "record_of"]
