"""One whole hand: the state machine of :mod:`kernels.game`, with pimc seats decided by
:mod:`kernels.pimc`."""

from __future__ import annotations

from numba import njit

from .game import R_ACTIONS, advance, finish_hand, new_scratch, start_hand
from .pimc import pimc_pick, seat_to_act


@njit(cache=True)
def play_hand(deal, banker, rules, policies, rng, scratch, logbuf, log_mode, res):
    """Play one hand from the deal to the end; write its result row into ``res``.

    Arguments as for :func:`kernels.game.advance`. Returns the number of actions taken.
    """
    ws = scratch[2]
    start_hand(deal, banker, rules[0], ws)
    status = advance(rules, policies, rng, scratch, logbuf, log_mode, -1)
    if status != 0:
        work = new_scratch()
        while status != 0:
            seat = seat_to_act(ws)
            pick = pimc_pick(rules, policies[1][seat], rng, scratch, work)
            status = advance(rules, policies, rng, scratch, logbuf, log_mode, pick)
    finish_hand(rules[0], ws, res)
    return res[R_ACTIONS]
