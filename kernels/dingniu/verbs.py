"""顶牛 in the kernel contract (:mod:`kernels.contract`): its rules bundle and its verbs.

:class:`Rules` is the game's rules as the kernels read them, ``(tiles, params)`` in the
layout of :mod:`.game`; its class is what tells the shared drivers (:mod:`kernels.drivers`)
which game they play. The policies bundle is ``(ids, hps)``: a policy id per seat
(:mod:`.policies`, :data:`.pimc.PIMC`) and each seat's parameter vector. A deal row is the
tile counts ``[seat * 13 + kind]``; a state row is the state array itself; a log bundle is
``(actions[n, MAX_MOVES, 2], legal[n, MAX_MOVES, 2] (uint64), moves[n])``: decision ``i``
of hand ``g`` as ``(seat, action)``, its legal set as two 64-bit masks, and the count. A
view (the ``sample`` verb's) is one row, the position's state row.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .. import contract
from ..arrays import copy_into
from ..jit import njit
from ..rng import next_u64, seed_state
from .game import (
    MAX_MOVES,
    N_KINDS,
    N_RESULT,
    N_SEATS,
    S_HAND,
    S_LEFT,
    S_MOVES,
    S_OVER,
    S_SUAN,
    S_TURN,
    STATE_LEN,
    apply,
    deal,
    legal,
    settle,
)
from .pimc import PIMC, pimc_action, sample_hidden
from .policies import choose

DEAL_WIDTH = N_SEATS * N_KINDS
MAX_ACTIONS = 64


class Rules(NamedTuple):
    """顶牛's rules for the kernels: the tile table and the rule parameters (:mod:`.game`)."""

    tiles: np.ndarray
    params: np.ndarray

    def deal_rows(self, n: int) -> np.ndarray:
        """``n`` empty deal rows."""
        return np.zeros((n, DEAL_WIDTH), dtype=np.int64)

    def state_rows(self, n: int) -> np.ndarray:
        """``n`` empty state rows."""
        return np.zeros((n, STATE_LEN), dtype=np.int64)

    def result_rows(self, n: int, seatings: int = 1) -> np.ndarray:
        """Room for the result rows of ``n`` hands under ``seatings`` seatings."""
        return np.zeros((n, seatings, N_RESULT), dtype=np.int64)

    def sizes(self) -> tuple[int, int, int]:
        """``(deal_width, result_width, max_actions)``."""
        return DEAL_WIDTH, N_RESULT, MAX_ACTIONS

    def log_rows(self, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """A log bundle with room for ``n`` hands (none: hands that keep no log)."""
        return (np.zeros((n, MAX_MOVES, 2), dtype=np.int64),
                np.zeros((n, MAX_MOVES, 2), dtype=np.uint64), np.zeros(n, dtype=np.int64))


@njit(cache=True)
def new_state():
    return np.zeros(STATE_LEN, dtype=np.int64)


@njit(cache=True)
def start_from(row, state):
    """Fill ``state`` with the deal row ``row``, nothing played."""
    state[:] = 0
    for s in range(N_SEATS):
        for k in range(N_KINDS):
            state[S_HAND + s * N_KINDS + k] = row[s * N_KINDS + k]
            state[S_LEFT + s] += row[s * N_KINDS + k]
    state[S_SUAN] = -1


@njit(cache=True)
def read_deal(state, row):
    for i in range(DEAL_WIDTH):
        row[i] = state[S_HAND + i]


@njit(cache=True)
def _log(log, g, state, seat, a, acts, n):
    """Decision ``state[S_MOVES]`` of hand ``g``: the seat, its action and its legal set."""
    log_act, log_legal, log_moves = log
    i = state[S_MOVES]
    log_act[g, i, 0] = seat
    log_act[g, i, 1] = a
    lo = np.uint64(0)
    hi = np.uint64(0)
    for j in range(n):
        if acts[j] < 64:
            lo |= np.uint64(1) << np.uint64(acts[j])
        else:
            hi |= np.uint64(1) << np.uint64(acts[j] - 64)
    log_legal[g, i, 0] = lo
    log_legal[g, i, 1] = hi
    log_moves[g] = i + 1


@njit(cache=True)
def play_until(state, tiles, params, policies, rng, stop, log, g):
    """Let each seat's policy act (``policies = (ids, hps)``) until seat ``stop`` must
    decide or the hand ends; decisions logged to row ``g`` of ``log`` when it has one.
    Returns the seat to act, or -1 at the end."""
    ids, hps = policies
    acts = np.empty(MAX_ACTIONS, dtype=np.int64)
    scratch = np.empty(MAX_ACTIONS, dtype=np.int64)
    logging = 0 <= g < log[0].shape[0]
    while state[S_OVER] == 0:
        seat = state[S_TURN]
        if seat == stop:
            return seat
        n = legal(state, tiles, params, acts)
        if ids[seat] == PIMC:
            a = pimc_action(state, tiles, params, hps[seat], rng, acts, n)
        else:
            a = choose(state, tiles, params, ids[seat], hps[seat], rng, acts, n)
        if logging:
            _log(log, g, state, seat, a, acts, n)
        apply(state, tiles, params, a, scratch)
    return -1


@njit(cache=True)
def apply_action(state, tiles, params, a):
    scratch = np.empty(MAX_ACTIONS, dtype=np.int64)
    apply(state, tiles, params, a, scratch)


@njit(cache=True)
def to_act(state):
    """The seat to act, -1 once the hand is over (a function of its own: a branch inside
    an inlined verb trips Numba's SSA check)."""
    return -1 if state[S_OVER] != 0 else state[S_TURN]


@njit(cache=True)
def sample_view(position, tiles, seat, rng, state, stream):
    """``state``: ``position`` with the tiles ``seat`` cannot see dealt anew (every draw
    fits); its play-on stream seeded from ``rng``."""
    sample_hidden(position, tiles, seat, rng, state)
    seed_state(next_u64(rng), stream)
    return True


def _copy(rules, dst, src):
    copy_into(dst, src)


def _load(rules, state, row):
    copy_into(state, row)


contract.register(
    Rules,
    new_state=lambda rules, policies: new_state(),
    copy_state=_copy,
    load_state=_load,
    deal=lambda rules, rng, state: deal(rng, rules.tiles, state),
    start_from=lambda rules, deal, state: start_from(deal, state),
    read_deal=lambda rules, state, deal: read_deal(state, deal),
    to_act=lambda rules, state: to_act(state),
    legal=lambda rules, state, out: legal(state, rules.tiles, rules.params, out),
    apply=lambda rules, state, action: apply_action(state, rules.tiles, rules.params, action),
    play_until=lambda rules, policies, state, rng, seat, log, g: play_until(
        state, rules.tiles, rules.params, policies, rng, seat, log, g),
    returns=lambda rules, state, row: settle(state, rules.tiles, rules.params, row),
    sample=lambda rules, policies, view, seat, rng, state, stream: sample_view(
        view[0], rules.tiles, seat, rng, state, stream),
)
