"""双升's own chunk kernels beside the shared drivers (:mod:`kernels.drivers`, where whole
hands and duplicate whole hands are played): many hands, one random stream per chunk, on
every thread (``kernels.parallel.for_each_chunk``).

- whole hands from the deal (``game.whole_hand_in``) with the deals kept, the redeal after
  a 造反 included (:func:`whole_dealt_chunks`), and with every log kept on one thread
  (:func:`whole_logged`, for replays in the reference engine);
- play-only hands (``hand.play_hand_in``, every seat random): :func:`play_chunks` and
  :func:`dealt_chunks`.

Chunk ``c`` plays hands ``c * n_per_chunk …`` from stream ``states[c]``; ``out[h]`` receives
the result row of hand ``h`` (``game.W_*`` or ``hand.R_*``). A chunk kernel takes
``chunks`` = (``states``, ``n_per_chunk``, ``n_hands``); whole hands take ``start`` =
(team ``levels`` int64[2], ``start_banker``, -1: a 抢庄局) and ``pols`` = (``pol``,
``hp``, ``policies.seat_policies``); play-only hands take ``setting`` = (``level``,
``trump``, ``banker``).
"""

from __future__ import annotations

import numpy as np

from ..jit import njit
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
    """Whole hands as the play driver plays them, that also keep each hand's deals in ``deals[h]``
    (int64[2, 5, 2]: the deal and, after a 造反, the redeal): the same hands from the same
    streams."""
    pols = _pols(pols)
    for_each_chunk(_whole_dealt_chunk, states.shape[0], (states, n_per_chunk, n_hands),
                   start, params, pols, deals, out, pimc_flag(pols[0]))


@njit(cache=True)
def whole_logged(chunks, start, params, pols, logs, pimc):
    """Whole hands as the play driver plays them, on one thread, that also keep every log,
    for replays: ``logs`` = (``out``, ``deals``, ``alogs``, ``chances``, ``tlogs``), per
    hand ``h`` its result row, its deals (int64[2, 5, 2]), action log, chance log and
    trick log; ``pimc`` as for ``game.new_whole_scratch``."""
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
