"""双升 in the kernel contract (:mod:`kernels.contract`): its rules bundle and its play verbs.

:class:`Rules` is the rule vector (:mod:`.params`) with the hand's start: the two teams'
levels and the banker going in (-1: a 抢庄局, the first to declare banks). A 双升 hand is
played whole from the deal (:func:`.game.whole_hand_in`: 造反, declaring, the kitty, 扒鸡窝
and the play, the policies inside it), so 双升 speaks the contract's play verbs only: a
state is a dealt hand waiting to be played (or played), its state row and its deal row the
deal ``[seat or kitty, plane]`` flattened (int64[10]); the step verbs (``to_act``,
``legal``, ``apply``, ``redeal_hidden``) are not 双升's yet, so the paired play-out and
replay drivers do not take 双升 rules. The policies bundle is ``(ids, parameters, pimc)``:
``pimc`` is True when a seat searches or plays net (:func:`.policies.pimc_flag`), else None,
which leaves the search out of the compiled driver.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import types
from numba.extending import overload

from .. import contract
from ..arrays import copy_into
from ..jit import njit
from .deal import deal
from .game import N_WHOLE, chunk_buffers, whole_hand_in

DEAL_WIDTH = 10  # hands[5, 2]: four seats and the kitty, two bit planes each


class Rules(NamedTuple):
    """双升's rules for the kernels, with the start of the hand: the rule vector, the two
    teams' levels (int64[2]) and the banker going in (-1: a 抢庄局)."""

    params: np.ndarray
    levels: np.ndarray
    banker: int

    def deal_rows(self, n: int) -> np.ndarray:
        """``n`` empty deal rows."""
        return np.zeros((n, DEAL_WIDTH), dtype=np.int64)

    def state_rows(self, n: int) -> np.ndarray:
        """``n`` empty state rows (a 双升 state row is its deal row)."""
        return self.deal_rows(n)

    def result_rows(self, n: int, seatings: int = 1) -> np.ndarray:
        """Room for the whole-hand rows (``game.W_*``) of ``n`` hands under ``seatings``."""
        return np.zeros((n, seatings, N_WHOLE), dtype=np.int64)

    def sizes(self) -> tuple[int, int, int]:
        """``(deal_width, result_width, max_actions)`` (no actions are listed in 双升's
        kernels)."""
        return DEAL_WIDTH, N_WHOLE, 0

    def log_rows(self, n: int) -> tuple[np.ndarray]:
        """The log bundle of hands that keep none (the only one the drivers take yet)."""
        if n:
            raise NotImplementedError("双升 hands keep their logs through whole_logged")
        return (np.empty((0, 1), dtype=np.int64),)


def pimc_of(policies):
    """The pimc flag of a policies bundle (or stack of them); None for no policies."""
    return None if policies is None else policies[2]


@overload(pimc_of)
def _pimc_of(policies):
    if isinstance(policies, types.NoneType):
        return lambda policies: None
    return lambda policies: policies[2]


@njit(cache=True)
def new_state(pimc):
    """``chunk_buffers(pimc)`` and the result row: (deck, deals, chance log, action log,
    trick log, scratch, row)."""
    deck, deals, chance, alog, tlog, scratch = chunk_buffers(pimc)
    return deck, deals, chance, alog, tlog, scratch, np.zeros(N_WHOLE, dtype=np.int64)


@njit(cache=True)
def copy_deal(dst, src):
    """The deal ``src[5, 2]`` into ``dst[5, 2]``."""
    for i in range(5):
        dst[i, 0] = src[i, 0]
        dst[i, 1] = src[i, 1]


@njit(cache=True)
def start_from(row, deals):
    for i in range(5):
        deals[0, i, 0] = row[2 * i]
        deals[0, i, 1] = row[2 * i + 1]


@njit(cache=True)
def read_deal(deals, row):
    for i in range(5):
        row[2 * i] = deals[0, i, 0]
        row[2 * i + 1] = deals[0, i, 1]


@njit(cache=True, inline="always")  # one caller: a layer compiled apart re-optimizes all below it
def play_whole(rules, pol, hp, state, rng):
    """Play the dealt hand in ``state`` whole, every seat on its policy; its row to
    ``state[6]``."""
    deck, deals, chance, alog, tlog, scratch, row = state
    whole_hand_in(deals, (rules.levels, rules.banker), rules.params, rng, deck,
                  (row, alog, chance, tlog), scratch, (pol, hp))
    return -1


contract.register(
    Rules,
    new_state=lambda rules, policies: new_state(pimc_of(policies)),
    copy_state=lambda rules, dst, src: copy_deal(dst[1][0], src[1][0]),
    load_state=lambda rules, state, row: start_from(row, state[1]),
    deal=lambda rules, rng, state: deal(rng, state[0], state[1][0]),
    start_from=lambda rules, deal, state: start_from(deal, state[1]),
    read_deal=lambda rules, state, deal: read_deal(state[1], deal),
    play_until=lambda rules, policies, state, rng, seat, log, g: play_whole(
        rules, policies[0], policies[1], state, rng),
    returns=lambda rules, state, row: copy_into(row, state[6]),
)
