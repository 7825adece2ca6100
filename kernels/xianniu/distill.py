"""Training data for ``learned``: pimc's self-play, with every action's value at each decision.

Hand ``h`` is dealt and played from its own stream ``states[h]``; every seat is the teacher
(pimc with the parameter row ``teacher``). At each decision with more than one listed
action, the teacher's mean points for every action (:func:`teacher_values`), the scorer's
features (:func:`kernels.xianniu.learned.decision_features`) and the pick of ``learned`` with
the weights in ``student`` are written out; the teacher's best action is then played.
"""

from __future__ import annotations

import numpy as np

from ..arrays import copy_into
from ..jit import njit
from ..parallel import for_each_chunk
from ..rng import seed_state
from .choice import choose
from .game import (
    MAX_ACTIONS,
    N_RESULT,
    R_PTS0,
    S_N_LIST,
    S_PHASE,
    S_TRACK,
    WS_CAP,
    WS_DISC,
    WS_HANDS,
    WS_PUBLIC,
    WS_SAID_KOU,
    advance,
    deal,
    finish_hand,
    new_scratch,
    start_hand,
)
from .learned import decision_features
from .pimc import pimc_totals, seat_to_act
from .policies import LEARNED_ACT, LEARNED_STATE, POLICY_LEARNED, POLICY_PIMC
from .tables import N_SEATS, P_GOU

FULL_DECK = (1 << 48) - 1
META_COLS = 7  # per decision: seat, phase, actions, first candidate row, teacher's pick,
#                learned's pick, deals sampled


@njit(cache=True)
def teacher_values(rules, params_row, rng, scratch, work, values):
    """pimc's evaluation (:func:`kernels.xianniu.pimc.pimc_totals`), keeping each listed
    action's mean points for the seat to act in ``values``; returns the number of deals
    sampled."""
    n = scratch[2][S_N_LIST]
    for a in range(n):
        values[a] = 0.0
    got, weight_sum = pimc_totals(rules, params_row, rng, scratch, work, values)
    if got > 0:
        for a in range(n):
            values[a] /= weight_sum
    return got


@njit(cache=True)
def _student_pick(ws, rules, am, ai, n, student, rng):
    """The pick of ``learned`` with the row ``student`` at the decision waiting in ``ws``."""
    params, _, beaters = rules
    phase = ws[S_PHASE]
    seat = seat_to_act(ws)
    hand = ws[WS_HANDS + seat]
    unseen = FULL_DECK & ~hand & ~ws[WS_PUBLIC] & ~ws[WS_DISC + seat]
    pos = (phase, seat, hand, unseen, ws[WS_CAP + seat], ws[WS_SAID_KOU + seat], params[P_GOU],
           np.int64(n))
    return choose(POLICY_LEARNED, student, pos, am, ai, beaters, rng, ws)


@njit(nogil=True, cache=True)
def _hand_chunk(c, states, rules, teacher, student, outs):
    """Hand ``c`` of :func:`teacher_hands`."""
    meta, phi, values, types, groups, psi, counts, points = outs
    rng = states[c].copy()
    hands = np.empty(3, dtype=np.int64)
    deal(rng, hands)
    scratch = new_scratch()
    work = new_scratch()
    am, ai, ws = scratch
    start_hand(hands, np.int64(0), rules[0], ws)
    ws[S_TRACK] = 1
    ids = np.full(N_SEATS, POLICY_PIMC, dtype=np.int64)
    weights = np.empty((N_SEATS, teacher.shape[0]), dtype=np.float64)
    for s in range(N_SEATS):
        weights[s, :] = teacher
    logbuf = (np.empty((1, 3), dtype=np.int64), np.empty((1, 2), dtype=np.int64),
              np.empty(1, dtype=np.int64))
    vals = np.empty(MAX_ACTIONS, dtype=np.float64)
    spare = rng.copy()  # learned draws nothing; choose() takes a stream all the same
    nd, nc, full = 0, 0, 0
    status = advance(rules, (ids, weights), rng, scratch, logbuf, np.int64(0), np.int64(-1))
    while status != 0:
        n = ws[S_N_LIST]
        got = teacher_values(rules, teacher, rng, scratch, work, vals)
        best = 0
        for a in range(1, n):
            if vals[a] > vals[best]:
                best = a
        if nd < meta.shape[1] and nc + n <= psi.shape[1]:
            decision_features(ws, rules, am, ai, n, student,
                              (phi[c, nd], psi[c, nc:nc + n], types[c, nc:nc + n],
                               groups[c, nc:nc + n]))
            m = meta[c, nd]
            m[0], m[1], m[2], m[3] = seat_to_act(ws), ws[S_PHASE], n, nc
            m[4] = best
            m[5] = _student_pick(ws, rules, am, ai, n, student, spare)
            m[6] = got
            for a in range(n):
                values[c, nc + a] = vals[a]
            nd += 1
            nc += n
        else:
            full = 1
        status = advance(rules, (ids, weights), rng, scratch, logbuf, np.int64(0), best)
    res = np.empty(N_RESULT, dtype=np.int64)
    finish_hand(rules[0], ws, res)
    for s in range(N_SEATS):
        points[c, s] = res[R_PTS0 + s]
    counts[c, 0], counts[c, 1], counts[c, 2] = nd, nc, full


def teacher_hands(states, rules, teacher, student, outs):
    """Play one hand per stream in ``states`` by the teacher; hand ``c`` writes its decisions
    into row ``c`` of each output of ``outs = (meta, phi, values, types, groups, psi, counts,
    points)``: ``meta[c, d]`` (:data:`META_COLS`), ``phi[c, d]``, and per
    listed action ``values``, ``types``, ``groups``, ``psi`` (``counts[c]``: decisions and
    actions written, 1 if some did not fit; ``points[c]``: the hand's points per seat)."""
    phi, psi = outs[1], outs[5]
    assert phi.shape[2] == LEARNED_STATE and psi.shape[2] == LEARNED_ACT
    for_each_chunk(_hand_chunk, states.shape[0], states, rules, teacher, student, outs)


@njit(cache=True)
def features_at(position, rules, student, phi, psi, types, groups):
    """At the decision waiting in the state words ``position``: list its actions, write
    :func:`kernels.xianniu.learned.decision_features` into the outputs and return
    ``(actions listed, heuristic2's pick, learned's pick with the row student)``; ``(1, 0,
    0)`` without features when the only action would be taken without asking."""
    scratch = new_scratch()
    am, ai, ws = scratch
    copy_into(ws, position)
    ids = np.full(N_SEATS, POLICY_PIMC, dtype=np.int64)  # advance() stops with the list built
    weights = np.empty((N_SEATS, student.shape[0]), dtype=np.float64)
    for s in range(N_SEATS):
        weights[s, :] = student
    rng = np.zeros(4, dtype=np.uint64)
    seed_state(np.uint64(1), rng)
    logbuf = (np.empty((1, 3), dtype=np.int64), np.empty((1, 2), dtype=np.int64),
              np.empty(1, dtype=np.int64))
    if advance(rules, (ids, weights), rng, scratch, logbuf, np.int64(0), np.int64(-1)) == 0:
        return 1, 0, 0
    n = ws[S_N_LIST]
    h2 = decision_features(ws, rules, am, ai, n, student, (phi, psi, types, groups))
    return n, h2, _student_pick(ws, rules, am, ai, n, student, rng)
