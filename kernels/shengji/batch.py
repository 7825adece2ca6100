"""The chunk drivers of 双升: many hands, one random stream per chunk, on every thread
(``kernels.parallel.for_each_chunk``).

- whole hands from the deal (``game.whole_hand_in``): :func:`whole_chunks`, the same with
  the deals kept (:func:`whole_dealt_chunks`) and with every log kept on one thread
  (:func:`whole_logged`, for replays in the reference engine);
- play-only hands (``hand.play_hand_in``, every seat random): :func:`play_chunks` and
  :func:`dealt_chunks`;
- duplicate whole hands, each deal once per seating of the policies from the same stream
  state after the deal, so that the luck of the cards cancels when seatings are compared
  (:func:`duplicate_chunks`, for ``analyzer.shengji.tournament``).

Chunk ``c`` plays hands ``c * n_per_chunk …`` from stream ``states[c]``; ``out[h]`` receives
the result row of hand ``h`` (``game.W_*`` or ``hand.R_*``). A chunk kernel takes
``chunks`` = (``states``, ``n_per_chunk``, ``n_hands``); whole hands take ``start`` =
(team ``levels`` int64[2], ``start_banker``, -1: a 抢庄局) and ``pols`` = (``pol``,
``hp``, ``policies.seat_policies``); play-only hands take ``setting`` = (``level``,
``trump``, ``banker``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..arrays import copy_into
from ..parallel import for_each_chunk
from .context import new_context
from .deal import deal
from .game import chunk_buffers, new_whole_scratch, whole_hand_in
from .hand import new_scratch, no_log, play_hand, play_hand_in, random_seats
from .params import P_NT_LEVEL_JOKER_TRACTOR
from .policies import new_knowledge, pimc_flag, reset_knowledge, seat_policies
from .units import new_units, new_work


def _pols(pols):
    return seat_policies(*(pols if pols is not None else (None, None)))


@njit(nogil=True, cache=True)
def _whole_chunk(c, chunks, start, params, pols, out, pimc):
    """Chunk ``c`` of :func:`whole_chunks`."""
    states, n_per_chunk, n_hands = chunks
    rng = states[c].copy()
    deck, deals, chance, alog, tlog, scratch = chunk_buffers(pimc)
    for i in range(c * n_per_chunk, min((c + 1) * n_per_chunk, n_hands)):
        deal(rng, deck, deals[0])
        whole_hand_in(deals, start, params, rng, deck, (out[i], alog, chance, tlog), scratch,
                      pols)


def whole_chunks(states, n_per_chunk, n_hands, start, params, out, pols=None):
    """Deal and play ``n_hands`` whole hands from ``start``; ``out[h]`` receives the result
    row of hand ``h`` (``W_*``). ``pols``: each seat's policy and parameters
    (``policies.seat_policies``; default every seat random)."""
    pols = _pols(pols)
    for_each_chunk(_whole_chunk, states.shape[0], (states, n_per_chunk, n_hands), start,
                   params, pols, out, pimc_flag(pols[0]))


@njit(nogil=True, cache=True)
def _whole_dealt_chunk(c, chunks, start, params, pols, deals, out, pimc):
    """Chunk ``c`` of :func:`whole_dealt_chunks`."""
    states, n_per_chunk, n_hands = chunks
    rng = states[c].copy()
    deck, _, chance, alog, tlog, scratch = chunk_buffers(pimc)
    for i in range(c * n_per_chunk, min((c + 1) * n_per_chunk, n_hands)):
        deal(rng, deck, deals[i, 0])
        whole_hand_in(deals[i], start, params, rng, deck, (out[i], alog, chance, tlog),
                      scratch, pols)


def whole_dealt_chunks(states, n_per_chunk, n_hands, start, params, deals, out, pols=None):
    """``whole_chunks`` that also keeps each hand's deals in ``deals[h]``
    (int64[2, 5, 2]: the deal and, after a 造反, the redeal): the same hands from the same
    streams."""
    pols = _pols(pols)
    for_each_chunk(_whole_dealt_chunk, states.shape[0], (states, n_per_chunk, n_hands),
                   start, params, pols, deals, out, pimc_flag(pols[0]))


@njit(cache=True)
def whole_logged(chunks, start, params, pols, logs, pimc):
    """``whole_chunks`` on one thread that also keeps every log, for replays: ``logs`` =
    (``out``, ``deals``, ``alogs``, ``chances``, ``tlogs``), per hand ``h`` its result row,
    its deals (int64[2, 5, 2]), action log, chance log and trick log; ``pimc`` as for
    ``game.new_whole_scratch``."""
    states, n_per_chunk, n_hands = chunks
    out, deals, alogs, chances, tlogs = logs
    deck = np.empty(108, dtype=np.uint8)
    scratch = new_whole_scratch(pimc)
    for c in range(states.shape[0]):
        rng = states[c].copy()
        for i in range(c * n_per_chunk, min((c + 1) * n_per_chunk, n_hands)):
            deal(rng, deck, deals[i, 0])
            whole_hand_in(deals[i], start, params, rng, deck,
                          (out[i], alogs[i], chances[i], tlogs[i]), scratch, pols)


@njit(nogil=True, cache=True)
def _play_chunk(c, chunks, setting, params, out):
    """Chunk ``c`` of :func:`play_chunks`."""
    states, n_per_chunk, n_hands = chunks
    level, trump, banker = setting
    rng = states[c].copy()
    ctx = new_context(trump, level, params[P_NT_LEVEL_JOKER_TRACTOR] != 0)
    deck = np.empty(108, dtype=np.uint8)
    hands = np.empty((5, 2), dtype=np.int64)
    log = no_log()
    scratch = (new_scratch(), new_units(), new_work())
    pol, hp = random_seats()
    kn = new_knowledge()
    seats = (pol, hp, kn)
    rules = (ctx, params)
    first = c * n_per_chunk
    stop = min(first + n_per_chunk, n_hands)
    for i in range(first, stop):
        deal(rng, deck, hands)
        reset_knowledge(kn)
        play_hand_in(hands, banker, rules, rng, (out[i], log), scratch, seats, None)


def play_chunks(states, n_per_chunk, n_hands, setting, params, out):
    """Deal and play ``n_hands`` play-only hands at ``setting`` = (L, T, banker); ``out[h]``
    receives the result row of hand ``h`` (``R_*``)."""
    for_each_chunk(_play_chunk, states.shape[0], (states, n_per_chunk, n_hands), setting,
                   params, out)


@njit(nogil=True, cache=True)
def _dealt_chunk(c, chunks, setting, params, deals, out):
    """Chunk ``c`` of :func:`dealt_chunks`."""
    states, n_per_chunk, n_hands = chunks
    level, trump, banker = setting
    rng = states[c].copy()
    ctx = new_context(trump, level, params[P_NT_LEVEL_JOKER_TRACTOR] != 0)
    deck = np.empty(108, dtype=np.uint8)
    log = no_log()
    for i in range(c * n_per_chunk, min((c + 1) * n_per_chunk, n_hands)):
        deal(rng, deck, deals[i])
        play_hand(deals[i], banker, ctx, params, rng, out[i], log)


def dealt_chunks(states, n_per_chunk, n_hands, setting, params, deals, out):
    """``play_chunks`` that also keeps each deal in ``deals[h]`` (int64[5, 2]): the same
    hands from the same streams."""
    for_each_chunk(_dealt_chunk, states.shape[0], (states, n_per_chunk, n_hands), setting,
                   params, deals, out)


@njit(nogil=True, cache=True)
def _duplicate_chunk(c, chunks, start, params, seatings, out, pimc):
    """Chunk ``c`` of :func:`duplicate_chunks`."""
    states, n_per_chunk, n_deals = chunks
    seat_pol, seat_hp = seatings
    rng = states[c].copy()
    saved = np.empty(4, dtype=np.uint64)
    deck, deals, chance, alog, tlog, scratch = chunk_buffers(pimc)
    for i in range(c * n_per_chunk, min((c + 1) * n_per_chunk, n_deals)):
        deal(rng, deck, deals[0])
        copy_into(saved, rng)
        for s in range(seat_pol.shape[0]):
            copy_into(rng, saved)
            whole_hand_in(deals, start, params, rng, deck, (out[i, s], alog, chance, tlog),
                          scratch, (seat_pol[s], seat_hp[s]))


def duplicate_chunks(states, n_per_chunk, n_deals, start, params, seatings, out):
    """Deal ``n_deals`` times and play each deal once per seating ``s`` of ``seatings`` =
    (``seat_pol``, ``seat_hp``): policy per seat ``seat_pol[s]`` int64[4], parameters
    ``seat_hp[s]`` float64[4, N_HEURISTIC]; ``out[d, s]`` receives the whole-hand row
    (``game.W_*``) of deal ``d`` under seating ``s``."""
    for_each_chunk(_duplicate_chunk, states.shape[0], (states, n_per_chunk, n_deals), start,
                   params, seatings, out, pimc_flag(seatings[0]))
