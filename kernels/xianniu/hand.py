"""One whole hand: the state machine of :mod:`kernels.xianniu.game`, with pimc seats decided by
:mod:`kernels.xianniu.pimc`.

The functions here take ``pimc``: None when no seat plays pimc, else True. Numba prunes an
``if pimc is not None`` branch when the argument's type is None, so kernels that never
meet a pimc seat are compiled without the pimc machinery (:func:`pimc_flag` chooses).
"""

from __future__ import annotations

import numpy as np

from ..jit import njit
from .game import R_ACTIONS, S_TRACK, advance, finish_hand, new_scratch, start_hand
from .pimc import pimc_pick, seat_to_act
from .policies import POLICY_PIMC
from .tables import N_SEATS


@njit(inline="always", cache=True)
def track_passes(policy_ids, ws):
    """Keep the pass log in ``ws`` when a pimc seat will need it."""
    for s in range(N_SEATS):
        if policy_ids[s] == POLICY_PIMC:
            ws[S_TRACK] = 1


def pimc_flag(policy_ids) -> bool | None:
    """The ``pimc`` argument for seats playing ``policy_ids`` (any shape)."""
    return True if np.any(np.asarray(policy_ids) == POLICY_PIMC) else None


@njit(cache=True)
def pimc_loop(rules, policies, rng, scratch, logbuf, log_mode):
    """Answer pimc decisions until the hand is over."""
    ws = scratch[2]
    work = new_scratch()
    status = 1
    while status != 0:
        pick = pimc_pick(rules, policies[1][seat_to_act(ws)], rng, scratch, work)
        status = advance(rules, policies, rng, scratch, logbuf, log_mode, pick)


@njit(cache=True, inline="always")  # inlined: a dispatcher of its own re-emits advance's code
def play_on(rules, policies, rng, scratch, logbuf, log_mode, forced_pick, pimc):
    """Play the hand in ``scratch`` to the end, asking pimc for its seats' decisions.

    ``forced_pick >= 0`` takes that entry at the first decision.
    """
    status = advance(rules, policies, rng, scratch, logbuf, log_mode, forced_pick)
    if pimc is not None:
        if status != 0:
            # kept out of line: the pimc machinery would slow the common path down
            pimc_loop(rules, policies, rng, scratch, logbuf, log_mode)


@njit(cache=True, inline="always")  # as play_on
def play_hand(deal, banker, rules, policies, rng, scratch, logbuf, log_mode, res, pimc):
    # 10 parameters: advance's own seven (its bundles: rules, policies, scratch, logbuf) with
    # the deal, the banker and the result row of the hand. ``pimc`` must stay an argument of
    # its own: as None it compiles the pimc machinery out of the drivers that never search,
    # which a member of a tuple would not.
    """Play one hand from the deal to the end; write its result row into ``res``.

    Arguments as for :func:`kernels.xianniu.game.advance`, ``pimc`` as in this module's
    docstring. Returns the number of actions taken.
    """
    start_hand(deal, banker, rules[0], scratch[2])
    track_passes(policies[0], scratch[2])
    play_on(rules, policies, rng, scratch, logbuf, log_mode, np.int64(-1), pimc)
    finish_hand(rules[0], scratch[2], res)
    return res[R_ACTIONS]
