"""Self-play data for ``net``: every seat plays the behaviour policy with ε-greedy exploration.

Hand ``c`` is dealt and played from its own stream ``states[c]``. At each decision with more
than one listed action, the seat takes, with probability ``explore``, a uniform action, and
otherwise the behaviour's (``net`` with the weights in the row, or ``learned``: its pick is
the entry of the network's inputs that marks it). The decision's φ, the candidate input of the
action taken and the seat are written out; the hand's final points per seat follow, so that
each decision's target is the points its seat ended the hand with (deep Monte Carlo).
"""

from __future__ import annotations

import numpy as np

from ..arrays import copy_into
from ..jit import njit
from ..parallel import for_each_chunk
from ..rng import bounded, next_u64, seed_state
from .game import (
    MAX_ACTIONS,
    N_RESULT,
    R_PTS0,
    S_N_LIST,
    S_PHASE,
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
from .net import net_inputs, net_pick
from .pimc import seat_to_act
from .policies import NET_ACT, NET_STATE, NET_TOP, POLICY_NET, POLICY_PIMC
from .tables import N_SEATS, P_GOU

FULL_DECK = (1 << 48) - 1


@njit(cache=True, forceinline=True)
def _uniform(rng):
    return float(next_u64(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(nogil=True, cache=True)
def _hand_chunk(c, states, rules, row, how, outs):
    """Hand ``c`` of :func:`selfplay_hands`."""
    phi_out, x_out, seat_out, counts, points = outs
    behaviour, explore = how
    params, _, beaters = rules
    rng = states[c].copy()
    hands = np.empty(3, dtype=np.int64)
    deal(rng, hands)
    scratch = new_scratch()
    am, ai, ws = scratch
    start_hand(hands, np.int64(0), params, ws)
    ids = np.full(N_SEATS, POLICY_PIMC, dtype=np.int64)  # advance() stops at every choice
    weights = np.empty((N_SEATS, row.shape[0]), dtype=np.float64)
    for s in range(N_SEATS):
        weights[s, :] = row
    logbuf = (np.empty((1, 3), dtype=np.int64), np.empty((1, 2), dtype=np.int64),
              np.empty(1, dtype=np.int64))
    phi = np.empty(NET_STATE)
    x = np.empty((MAX_ACTIONS, NET_ACT))
    q = np.empty(NET_TOP)
    idx = np.empty(NET_TOP, dtype=np.int64)
    nd = 0
    status = advance(rules, (ids, weights), rng, scratch, logbuf, np.int64(0), np.int64(-1))
    while status != 0:
        n = ws[S_N_LIST]
        seat = seat_to_act(ws)
        hand = ws[WS_HANDS + seat]
        unseen = FULL_DECK & ~hand & ~ws[WS_PUBLIC] & ~ws[WS_DISC + seat]
        pos = (ws[S_PHASE], seat, hand, unseen, ws[WS_CAP + seat], ws[WS_SAID_KOU + seat],
               params[P_GOU], np.int64(n))
        pick = net_inputs(ws, pos, am, ai, beaters, row, phi, x)
        if behaviour == POLICY_NET:
            pick = net_pick(phi, x, n, row, idx, q)
        if explore > 0.0 and _uniform(rng) < explore:
            pick = bounded(rng, n)
        if nd < seat_out.shape[1]:
            for j in range(NET_STATE):
                phi_out[c, nd, j] = phi[j]
            for j in range(NET_ACT):
                x_out[c, nd, j] = x[pick, j]
            seat_out[c, nd] = seat
            nd += 1
        status = advance(rules, (ids, weights), rng, scratch, logbuf, np.int64(0), pick)
    res = np.empty(N_RESULT, dtype=np.int64)
    finish_hand(params, ws, res)
    for s in range(N_SEATS):
        points[c, s] = res[R_PTS0 + s]
    counts[c] = nd


def selfplay_hands(states, rules, row, how, outs):
    """Play one hand per stream in ``states``, every seat the behaviour ``how = (policy id,
    exploration)`` with the parameter row ``row``; hand ``c`` writes into row ``c`` of each
    output of ``outs = (phi, x, seat, counts, points)``: per decision ``phi[c, d]``, the
    taken action's input ``x[c, d]`` and ``seat[c, d]`` (``counts[c]`` decisions written, at
    most ``seat.shape[1]``; ``points[c]``: the hand's points per seat)."""
    phi, x = outs[0], outs[1]
    assert phi.shape[2] == NET_STATE and x.shape[2] == NET_ACT
    for_each_chunk(_hand_chunk, states.shape[0], states, rules, row, how, outs)


@njit(cache=True)
def net_features_at(position, rules, row, phi, x):
    """At the decision waiting in the state words ``position``: list its actions, write net's
    inputs (:func:`kernels.xianniu.net.net_inputs`) into ``phi`` and ``x`` and return
    ``(actions listed, net's pick with the row row)``; ``(1, 0)`` without inputs when the
    only action would be taken without asking."""
    scratch = new_scratch()
    am, ai, ws = scratch
    copy_into(ws, position)
    ids = np.full(N_SEATS, POLICY_PIMC, dtype=np.int64)  # advance() stops with the list built
    weights = np.empty((N_SEATS, row.shape[0]), dtype=np.float64)
    for s in range(N_SEATS):
        weights[s, :] = row
    rng = np.zeros(4, dtype=np.uint64)
    seed_state(np.uint64(1), rng)
    logbuf = (np.empty((1, 3), dtype=np.int64), np.empty((1, 2), dtype=np.int64),
              np.empty(1, dtype=np.int64))
    if advance(rules, (ids, weights), rng, scratch, logbuf, np.int64(0), np.int64(-1)) == 0:
        return 1, 0
    n = ws[S_N_LIST]
    params, _, beaters = rules
    seat = seat_to_act(ws)
    hand = ws[WS_HANDS + seat]
    unseen = FULL_DECK & ~hand & ~ws[WS_PUBLIC] & ~ws[WS_DISC + seat]
    pos = (ws[S_PHASE], seat, hand, unseen, ws[WS_CAP + seat], ws[WS_SAID_KOU + seat],
           params[P_GOU], np.int64(n))
    net_inputs(ws, pos, am, ai, beaters, row, phi, x)
    q = np.empty(NET_TOP)
    idx = np.empty(NET_TOP, dtype=np.int64)
    return n, net_pick(phi, x, n, row, idx, q)
