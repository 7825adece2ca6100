"""The play-outs of 双升's advice: each listed action played on the same sampled deals by the
kernels (:mod:`kernels.shengji.advise`, and the decision queries' kernels for declaring, the
bury and 造反). Each ``*_caller`` turns a position and its listed actions into a
:data:`Caller`, which plays one batch of deals for the actions still racing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from kernels.rng import states_for_chunks

from .actions import (
    BURY,
    Action,
)
from .bidding import classify_declaration
from .engine import State
from .sim import rule_arrays

CHUNKS = 8  # random streams per batch: fixed, so the numbers depend on the seed alone
PER_CHUNK = 32  # deals per chunk and batch
NOT_PLAYED = -9999  # kernels.shengji.advise.NOT_PLAYED

class NotValued(ValueError):
    """A decision advise does not value yet (造反 with rebel_scope=side)."""


# (active, batch, first, count) -> values[deals, k] of chunks first .. first + count - 1 of
# the batch (a batch needs fewer than its CHUNKS when the advice is nearly done)
Caller = Callable[[np.ndarray, int, int, int], np.ndarray]


def _chunks(seed: int, batch: int, first: int, count: int) -> tuple[np.ndarray, int]:
    return states_for_chunks(seed, batch * CHUNKS + first, count), PER_CHUNK


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

    def call(active: np.ndarray, batch: int, first: int, count: int) -> np.ndarray:
        out = np.empty((count, PER_CHUNK, Q_VALUES + k), dtype=np.int64)
        ka.advise_chunks(q, (opts, active), _chunks(seed, batch, first, count), params, pols, out)
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


def _declaration_pairs(state: State, options: list[Action], lv: int, pos: Any,
                       bajiwo: bool, what: str) -> list[tuple[int, int]]:
    """Each option as the kernels' (class, suit) of its declaration, the pass ``options[0]``
    as (0, 0); RuntimeError unless the kernels list exactly the engine's ``what``."""
    from kernels.shengji.bidding import legal_declarations

    seat = state.turn
    pairs = [(0, 0)]
    for a in options[1:]:
        d = classify_declaration(a.cards, lv, state.rules)
        if d is None:
            raise RuntimeError(f"the engine allows {a}, which makes no declaration")
        pairs.append((d.cls, d.suit))
    one, two = _planes(state.hands[seat])
    dcls, dsuit = np.zeros(10, dtype=np.int64), np.zeros(10, dtype=np.int64)
    st = pos.standing
    n = legal_declarations(one, two, lv, (int(st[0]), int(st[1]),
                                          int(st[2]) if st[0] else -1),
                           seat, bajiwo, rule_arrays(state.rules), (dcls, dsuit))
    if {(int(dcls[i]), int(dsuit[i])) for i in range(n)} != set(pairs[1:]) \
            or len(set(pairs)) != len(pairs):
        raise RuntimeError(f"the kernels list other {what} than the reference engine")
    return pairs


def _declare_caller(state: State, options: list[Action], pols, seed: int) -> Caller:
    from kernels.shengji import decisions as kd
    from kernels.shengji.decisions import Q_VALUES

    from .bidding_phase import declare_level

    seat, r = state.turn, state.rules
    params = rule_arrays(r)
    lv = declare_level(state, seat)
    pos = _position(state, seat, state.hands[seat])
    pairs = _declaration_pairs(state, options, lv, pos, False, "declarations")
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

    def call(active: np.ndarray, batch: int, first: int, count: int) -> np.ndarray:
        out = np.empty((count, PER_CHUNK, Q_VALUES + k), dtype=np.int64)
        kd.declare_chunks(pos.kernel(), ask, _chunks(seed, batch, first, count), params, pols, out)
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

    def call(active: np.ndarray, batch: int, first: int, count: int) -> np.ndarray:
        out = np.empty((count, PER_CHUNK, kd.Q_VALUES + k), dtype=np.int64)
        kd.bury_chunks(pos.kernel(), (state.the_trump, buries),
                       _chunks(seed, batch, first, count), params, pols, out)
        return _values_of(out, k)

    return call


def _bajiwo_caller(state: State, options: list[Action], pols, seed: int) -> Caller:
    from kernels.shengji import advise as ka
    from kernels.shengji.decisions import Q_VALUES

    seat, r = state.turn, state.rules
    params = rule_arrays(r)
    lv = state.the_level
    pos = _position(state, seat, state.hands[seat])
    if state.last_burier == seat:
        pos.fixed[4] = _planes(state.kitty)
    pairs = _declaration_pairs(state, options, lv, pos, True, "扒鸡窝 overcalls")
    shown = np.zeros((4, 2), dtype=np.int64)
    for s in range(4):
        if state.known[s]:
            shown[s] = _planes(state.known[s].elements())
    setting = (int(state.grab), lv, state.the_trump, state.last_burier)
    ask = (state.passes, np.array(pairs, dtype=np.int64), shown, setting)
    k = len(options)

    def call(active: np.ndarray, batch: int, first: int, count: int) -> np.ndarray:
        out = np.empty((count, PER_CHUNK, Q_VALUES + k), dtype=np.int64)
        ka.bajiwo_chunks(pos.kernel(), ask, _chunks(seed, batch, first, count), params, pols, out)
        return _values_of(out, k)

    return call


def _rebel_caller(state: State, options: list[Action], pols, seed: int) -> Caller:
    from kernels.shengji import decisions as kd

    seat, r = state.turn, state.rules
    if r.rebel_scope != "player":
        raise NotValued("advise values 造反 with rebel_scope=player only")
    params = rule_arrays(r)
    pos = _position(state, seat, state.hands[seat])

    def call(active: np.ndarray, batch: int, first: int, count: int) -> np.ndarray:
        out = np.empty((count, PER_CHUNK, kd.Q_VALUES + 2), dtype=np.int64)
        kd.rebel_chunks(pos.kernel(), _chunks(seed, batch, first, count), params, pols, out)
        got = _values_of(out, 2)
        return got[:, ::-1]  # the kernel's order is 造反, decline; the engine's pass first

    return call
