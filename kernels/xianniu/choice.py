"""From a policy id to its choice among the listed legal actions (the kernel policies).

Kept apart from :mod:`kernels.xianniu.policies` because ``learned`` builds on the heuristics'
helpers there: the dispatch imports both, neither imports the other's caller.
"""

from __future__ import annotations

from ..jit import njit_uncounted
from ..rng import bounded
from .learned import learned_choice
from .net import net_choice
from .policies import (
    POLICY_HEURISTIC,
    POLICY_HEURISTIC2,
    POLICY_LEARNED,
    POLICY_NET,
    heuristic2_choice,
    heuristic_choice,
)


# no reference counting: see kernels.xianniu.policies
@njit_uncounted
def choose(policy, w, pos, am, ai, beaters, rng, ws):
    """Index of the action policy ``policy`` (parameters ``w``) takes among the listed legal
    actions ``am``, ``ai`` at the decision ``pos`` (:data:`kernels.xianniu.layout.POSITION`,
    its last entry the number listed); ``ws``: the state words, of which ``learned`` and
    ``net`` read the public part and the seat's own."""
    n = pos[7]
    if n == 1:
        return 0  # a forced action draws nothing from the stream
    if policy == POLICY_HEURISTIC:
        return heuristic_choice(pos, am, ai, beaters, w)
    if policy == POLICY_HEURISTIC2:
        return heuristic2_choice(pos, am, ai, beaters, w)
    if policy == POLICY_LEARNED:
        return learned_choice(ws, pos, am, ai, beaters, w)
    if policy == POLICY_NET:
        return net_choice(ws, pos, am, ai, beaters, w)
    return bounded(rng, n)
