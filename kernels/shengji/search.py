"""The leads and follows of the seats that search: ``pimc``, ``net`` and ``pimc2``.

``pimc2`` is pimc whose baseline is net's choice rather than the heuristic's: it lists net's
candidates, puts net's pick first and plays every candidate out on ``hp[P_PIMC_SAMPLES]``
sampled deals by the heuristic (the row's first ``N_HEURISTIC`` entries, tuned's for the
shipped row); it leaves net's pick only for a gain more than ``hp[P_PIMC_Z]`` standard errors
above 0. It reads what pimc and net read: its hand, its knowledge and the trick.
"""

from __future__ import annotations

from ..jit import njit_counted, njit_uncounted
from .net import decision_inputs, net_choose, net_pick
from .pimc import PS_CAND, pimc_choose, search_candidates
from .policies import POLICY_NET, POLICY_PIMC


# it allocates (the play-outs), and the uncounted search_choose calls it
@njit_counted
def pimc2_choose(me, trick, where, h, rules, rng, pst, bufs):
    """pimc2's play (module docstring) as planes, with ``pimc_choose``'s arguments."""
    seat = me[0]
    ps, _, _, _, _, nw = pst  # unpacked: pst may be typed Optional
    n = decision_inputs(me, trick, where, (h[seat, 0], h[seat, 1]), rules, ps, bufs, nw)
    if n == 1:
        return ps[PS_CAND, 0], ps[PS_CAND, 1]
    pick = net_pick(nw, n, me[1])
    if pick != 0:  # net's pick becomes the baseline, candidate 0
        for j in range(2):
            ps[PS_CAND, j], ps[PS_CAND + pick, j] = ps[PS_CAND + pick, j], ps[PS_CAND, j]
    best = search_candidates(me, trick, where, (h, n), rules, rng, pst, bufs)
    return ps[PS_CAND + best, 0], ps[PS_CAND + best, 1]


@njit_uncounted
def search_choose(who, trick, where, h, rules, rng, pst, bufs):
    """The play of a seat on pimc, net or pimc2, all of which work in the pimc scratch
    ``pst``; ``who`` = (``policy``, ``me``), ``me`` as for ``pimc_choose``."""
    policy, me = who
    if policy == POLICY_PIMC:
        return pimc_choose(me, trick, where, h, rules, rng, pst, bufs)
    if policy == POLICY_NET:
        return net_choose(me, trick, where, h, rules, rng, pst, bufs)
    return pimc2_choose(me, trick, where, h, rules, rng, pst, bufs)
