"""From a policy id to its choice among the listed legal actions (the kernel policies).

Kept apart from :mod:`kernels.xianniu.policies` because ``learned`` builds on the heuristics'
helpers there: the dispatch imports both, neither imports the other's caller.
"""

from __future__ import annotations

from numba import njit

from ..rng import bounded
from .learned import learned_choice
from .policies import (
    POLICY_HEURISTIC,
    POLICY_HEURISTIC2,
    POLICY_LEARNED,
    heuristic2_choice,
    heuristic_choice,
)


@njit(cache=True, _nrt=False)  # see kernels.xianniu.policies on reference counting
def choose(policy, w, phase_lead, phase_trick, phase_kou, phase_discard, seat, hand, unseen,
           captured, said_kou, gou_min, am, ai, n, beaters, rng, ws):
    """Index of the action policy ``policy`` takes among ``n`` listed legal actions (``ws``:
    the state words, of which ``learned`` reads the public part and the seat's own)."""
    if n == 1:
        return 0  # a forced action draws nothing from the stream
    if policy == POLICY_HEURISTIC:
        return heuristic_choice(phase_lead, phase_trick, phase_kou, phase_discard, seat, hand,
                                unseen, captured, said_kou, gou_min, am, ai, n, beaters, w)
    if policy == POLICY_HEURISTIC2:
        return heuristic2_choice(phase_lead, phase_trick, phase_kou, phase_discard, seat, hand,
                                 unseen, captured, said_kou, gou_min, am, ai, n, beaters, w)
    if policy == POLICY_LEARNED:
        return learned_choice(ws, phase_lead, phase_trick, phase_kou, phase_discard, seat, hand,
                              unseen, captured, said_kou, gou_min, am, ai, n, beaters, w)
    return bounded(rng, n)
