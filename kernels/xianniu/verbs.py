"""掀牛 in the kernel contract (:mod:`kernels.contract`): its rules bundle and its verbs.

:class:`Rules` is ``(params, set_beats, beaters)`` as :func:`.game.advance` reads it; its
class tells the shared drivers (:mod:`kernels.drivers`) which game they play. A state is
the scratch bundle of :func:`.game.new_scratch` ``(action masks, action info, state
words)``; a state row is the state words ``ws``; a deal row is the three 48-bit hands and
the banker (头家, the seat that leads first; the drivers deal with seat 0 as the banker).
An action is one int64, ``cards | type << 48`` (``type``: the index of its kind in
``analyzer.xianniu.engine.ACTION_KINDS``). The policies bundle is ``(ids, parameters,
pimc)``: ``pimc`` is True when a seat may search, else None, so that drivers that never
meet a pimc seat compile without the search (:mod:`.hand`). A log bundle is
:func:`.game.advance`'s ``(log, legal, legal_off)``; the drivers keep no 掀牛 log yet
(``recorded_chunks`` in :mod:`.batch` keeps the records of a run). A view (the ``sample``
verb's) is the two rows of :mod:`.views`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .. import contract
from ..arrays import copy_into
from ..jit import njit
from .game import (
    CHOICE_COLS,
    FULL_DECK,
    MAX_ACTIONS,
    N_RESULT,
    PASS_COLS,
    PH_OVER,
    S_BANKER,
    S_MUST_LEAD,
    S_N_ACT,
    S_N_CHOICE,
    S_N_PASS,
    S_N_XIAN,
    S_PHASE,
    WS_CHOICE,
    WS_HANDS,
    WS_INFO,
    WS_PASS,
    WS_SIZE,
    WS_XIAN_T,
    WS_XIAN_X,
    _list_actions,
    _picked,
    apply_action,
    deal,
    finish_hand,
    new_scratch,
    start_hand,
)
from .hand import play_on, track_passes
from .pimc import seat_to_act
from .plays import INFO_COLS
from .tables import FORGO_KOU, N_SEATS, TYPE_SHIFT
from .views import sample_view

__all__ = ["FORGO_KOU", "TYPE_SHIFT", "Rules"]  # the action code's facts, from .tables
DEAL_WIDTH = N_SEATS + 1


class Rules(NamedTuple):
    """掀牛's rules for the kernels: the rule parameters, the set-beats table and the
    beaters table (:mod:`.tables`)."""

    params: np.ndarray
    set_beats: np.ndarray
    beaters: np.ndarray

    def deal_rows(self, n: int) -> np.ndarray:
        """``n`` empty deal rows (three hand masks and the banker each)."""
        return np.zeros((n, DEAL_WIDTH), dtype=np.int64)

    def state_rows(self, n: int) -> np.ndarray:
        """``n`` empty state rows."""
        return np.zeros((n, WS_SIZE), dtype=np.int64)

    def result_rows(self, n: int, seatings: int = 1) -> np.ndarray:
        """Room for the result rows of ``n`` hands under ``seatings`` seatings."""
        return np.zeros((n, seatings, N_RESULT), dtype=np.int64)

    def sizes(self) -> tuple[int, int, int]:
        """``(deal_width, result_width, max_actions)``."""
        return DEAL_WIDTH, N_RESULT, MAX_ACTIONS

    def log_rows(self, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The log bundle of hands that keep none (the only one the drivers take yet)."""
        if n:
            raise NotImplementedError("掀牛 hands keep their records through recorded_chunks")
        return (np.empty((1, 3), dtype=np.int64), np.empty((1, 2), dtype=np.int64),
                np.empty(1, dtype=np.int64))


@njit(cache=True)
def copy_words(dst, src):
    """``dst`` = the hand in the state words ``src``: the fixed words and the used part of
    the 掀, pass and choice logs (what a copy of the game needs, a few dozen words at the
    deal instead of the whole buffer)."""
    copy_into(dst[:WS_XIAN_X], src[:WS_XIAN_X])
    n = src[S_N_XIAN]
    copy_into(dst[WS_XIAN_X:WS_XIAN_X + n], src[WS_XIAN_X:WS_XIAN_X + n])
    copy_into(dst[WS_XIAN_T:WS_XIAN_T + n], src[WS_XIAN_T:WS_XIAN_T + n])
    n = src[S_N_PASS] * PASS_COLS
    copy_into(dst[WS_PASS:WS_PASS + n], src[WS_PASS:WS_PASS + n])
    n = src[S_N_CHOICE] * CHOICE_COLS
    copy_into(dst[WS_CHOICE:WS_CHOICE + n], src[WS_CHOICE:WS_CHOICE + n])


@njit(cache=True)
def deal_hand(rng, params, scratch):
    """A uniform deal from ``rng``, seat 0 the banker, nothing played."""
    hands = scratch[0][:N_SEATS]  # the action buffer: free until the first decision
    deal(rng, hands)
    start_hand(hands, np.int64(0), params, scratch[2])


@njit(cache=True)
def start_from(row, params, ws):
    start_hand(row[:N_SEATS], row[N_SEATS], params, ws)


@njit(cache=True)
def read_deal(ws, row):
    for s in range(N_SEATS):
        row[s] = ws[WS_HANDS + s]
    row[N_SEATS] = ws[S_BANKER]


@njit(cache=True)
def to_act(ws):
    return -1 if ws[S_PHASE] == PH_OVER else seat_to_act(ws)


@njit(cache=True)
def legal_codes(rules, scratch, out):
    """Every legal action of the seat to act, listed in full, into ``out``; how many."""
    am, ai, ws = scratch
    phase = ws[S_PHASE]
    if phase == PH_OVER:
        return 0
    # np.bool_ and np.int64, not literals: the types advance() calls these with, so that
    # they compile once
    n, _ = _list_actions(ws, rules[0], rules[1], phase, seat_to_act(ws), np.bool_(False), am,
                         ai)
    for j in range(n):
        out[j] = am[j] | (ai[j, 0] << TYPE_SHIFT)
    return n


@njit(cache=True)
def apply_code(rules, scratch, a):
    """Play the action ``a`` of the seat to act; False (nothing played) if it is not legal.
    :data:`FORGO_KOU` takes 扣 off the lead holder's choices instead (its policy then leads)."""
    params, set_beats, _ = rules
    am, ai, ws = scratch
    phase = ws[S_PHASE]
    if phase == PH_OVER:
        return False
    if a == FORGO_KOU:
        ws[S_MUST_LEAD] = 1
        return True
    seat = seat_to_act(ws)
    typ, mask = a >> TYPE_SHIFT, a & FULL_DECK
    n, _ = _list_actions(ws, params, set_beats, phase, seat, np.bool_(False), am, ai)
    for j in range(n):
        if am[j] == mask and ai[j, 0] == typ:
            info = ws[WS_INFO:WS_INFO + INFO_COLS]
            _picked(ws, params, set_beats, phase, ws[WS_HANDS + seat], (n, np.int64(0)), j, am, ai,
                    info)
            ws[S_N_ACT] += 1
            apply_action(ws, params, phase, seat, typ, mask)
            return True
    return False


@njit(cache=True, inline="always")  # a layer compiled apart re-optimizes all below it
def play_until(rules, ids, parameters, pimc, scratch, rng, logbuf):
    """Let every seat's policy act to the end of the hand (the searching seats too when
    ``pimc`` is True); returns -1."""
    track_passes(ids, scratch[2])
    play_on(rules, (ids, parameters), rng, scratch, logbuf, np.int64(0), np.int64(-1), pimc)
    return -1


def _copy(rules, dst, src):
    copy_words(dst[2], src[2])


def _load(rules, state, row):
    copy_words(state[2], row)


contract.register(
    Rules,
    new_state=lambda rules, policies: new_scratch(),
    copy_state=_copy,
    load_state=_load,
    deal=lambda rules, rng, state: deal_hand(rng, rules.params, state),
    start_from=lambda rules, deal, state: start_from(deal, rules.params, state[2]),
    read_deal=lambda rules, state, deal: read_deal(state[2], deal),
    to_act=lambda rules, state: to_act(state[2]),
    legal=lambda rules, state, out: legal_codes(rules, state, out),
    apply=lambda rules, state, action: apply_code(rules, state, action),
    play_until=lambda rules, policies, state, rng, seat, log, g: play_until(
        rules, policies[0], policies[1], policies[2], state, rng, log),
    returns=lambda rules, state, row: finish_hand(rules.params, state[2], row),
    sample=lambda rules, policies, view, seat, rng, state, stream: sample_view(
        rules, policies[0], policies[1], view, seat, rng, state, stream),
)
