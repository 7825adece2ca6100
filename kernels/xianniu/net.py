"""The self-play policy ``net`` (id 5): an action-value network over the listed legal actions.

Each listed action ``a`` at a decision gets the value ``Q(φ, x(a))``, the network's estimate
of the acting seat's final points if it takes ``a`` and play goes on as in self-play; the
best value is played (the first on a tie). ``φ`` is learned's state features
(:func:`kernels.xianniu.learned.state_features`); the candidate input ``x(a)`` is learned's
candidate features ψ, the action type one-hot, learned's score of the action less its best
score (clipped, in units of :data:`SCORE_CLIP`) and 1 for learned's own pick, so the network
starts from what learned knows.

The network: ``h1 = relu(W1·[φ, x] + b1)``, ``h2 = relu(W2·h1 + b2)``, ``Q = w3·h2 + b3``,
its weights in the policy's parameter row from ``NET_W`` on, in the order
:mod:`analyzer.core.mlp` packs them (``W1`` as ``[inputs, NET_H1]`` row by row, then ``b1``,
``W2`` as ``[NET_H1, NET_H2]``, ``b2``, ``w3``, ``b3``). The state part of the first layer
(``W1`` rows of φ, and ``b1``) is computed once per decision and shared by every candidate;
each candidate adds only the rows of its non-zero inputs (``x`` is sparse).

Only what learned reads is read: the seat's own hand and discards, the public record and the
listed actions.
"""

from __future__ import annotations

import numpy as np

from ..jit import njit, njit_counted
from . import layout as kg
from . import policies as kp
from .learned import N_ACT as N_PSI
from .learned import N_STATE, N_TYPES, action_type, candidate_features, group_of, state_features
from .policies import LEARNED_W, NET_ACT, NET_H1, NET_H2, NET_STATE, NET_TOP, NET_W

X_TYPE = N_PSI  # x entries: the action type one-hot from here
X_SCORE = N_PSI + N_TYPES  # learned's score less its best, / SCORE_CLIP, at least -1
X_PICK = X_SCORE + 1  # 1 for learned's pick
SCORE_CLIP = 8.0
N_IN = NET_STATE + NET_ACT
# offsets of the blocks in the parameter row
O_W1 = NET_W
O_B1 = O_W1 + N_IN * NET_H1
O_W2 = O_B1 + NET_H1
O_B2 = O_W2 + NET_H1 * NET_H2
O_W3 = O_B2 + NET_H2
O_B3 = O_W3 + NET_H2
assert NET_STATE == N_STATE and X_PICK + 1 == NET_ACT and O_B3 + 1 == kp.N_POLICY_PARAMS


@njit(cache=True)
def net_inputs(ws, pos, am, ai, beaters, w, phi, x):
    """φ into ``phi`` and the candidate input of each of the ``n`` listed actions into
    ``x[:n]`` at the decision ``pos`` (:data:`.layout.POSITION`); returns learned's pick."""
    phase, _, hand, unseen, captured, _, gou_min, n = pos
    lead, trick, kou = phase == kg.PH_LEAD, phase == kg.PH_TRICK, phase == kg.PH_KOU
    h2 = kp.heuristic2_choice(pos, am, ai, beaters, w)
    state_features(ws, pos, beaters, w, phi)
    gou = 1 if captured >= gou_min else 0
    last = trick and ws[kg.S_QI] == ws[kg.S_QLEN] - 1
    ctx = (lead, trick, last, hand, unseen, captured, gou_min, ws[kg.S_TABLE])
    v0 = LEARNED_W + N_TYPES * N_STATE
    best, best_s = 0, -np.inf
    for i in range(n):
        t = action_type(lead, trick, kou, ai[i, 0])
        row = x[i]
        candidate_features(t, i, am, ai, ctx, beaters, h2, row)
        s = 0.0
        for j in range(N_STATE):
            s += phi[j] * w[LEARNED_W + t * N_STATE + j]
        off = v0 + group_of(t, gou) * N_PSI
        for j in range(N_PSI):
            s += row[j] * w[off + j]
        for j in range(N_TYPES):
            row[X_TYPE + j] = 0.0
        row[X_TYPE + t] = 1.0
        row[X_SCORE] = s
        row[X_PICK] = 0.0
        if s > best_s:
            best, best_s = i, s
    for i in range(n):
        x[i, X_SCORE] = max((x[i, X_SCORE] - best_s) / SCORE_CLIP, -1.0)
    x[best, X_PICK] = 1.0
    return best


@njit(cache=True, fastmath=True)
def net_values(phi, x, idx, m, w, q):
    """The network's value of candidates ``idx[:m]`` (inputs ``x[idx[i]]``) into ``q[:m]``."""
    pre = np.empty(NET_H1)
    h = np.empty(NET_H1)
    z = np.empty(NET_H2)
    for k in range(NET_H1):
        pre[k] = w[O_B1 + k]
    for j in range(NET_STATE):
        v = phi[j]
        if v != 0.0:
            base = O_W1 + j * NET_H1
            for k in range(NET_H1):
                pre[k] += v * w[base + k]
    for i in range(m):
        c = idx[i]
        for k in range(NET_H1):
            h[k] = pre[k]
        for j in range(NET_ACT):
            v = x[c, j]
            if v != 0.0:
                base = O_W1 + (NET_STATE + j) * NET_H1
                for k in range(NET_H1):
                    h[k] += v * w[base + k]
        for u in range(NET_H2):
            z[u] = w[O_B2 + u]
        for k in range(NET_H1):
            hk = max(h[k], 0.0)
            base = O_W2 + k * NET_H2
            for u in range(NET_H2):
                z[u] += hk * w[base + u]
        out = w[O_B3]
        for u in range(NET_H2):
            out += max(z[u], 0.0) * w[O_W3 + u]
        q[i] = out


@njit(cache=True)
def shortlist(x, n, idx):
    """learned's best ``NET_TOP`` of the ``n`` candidates (by their ``X_SCORE`` input, the
    earlier listed first on a tie), best first, into ``idx``; returns how many."""
    m = 0
    for i in range(n):
        s = x[i, X_SCORE]
        if m == NET_TOP and s <= x[idx[m - 1], X_SCORE]:
            continue
        j = m if m < NET_TOP else NET_TOP - 1
        while j > 0 and x[idx[j - 1], X_SCORE] < s:
            idx[j] = idx[j - 1]
            j -= 1
        idx[j] = i
        if m < NET_TOP:
            m += 1
    return m


@njit(cache=True)
def net_pick(phi, x, n, w, idx, q):
    """The network's choice among the ``n`` candidates with inputs ``x``: the best value over
    learned's shortlist (:func:`shortlist`), the first of the shortlist on a tie."""
    m = shortlist(x, n, idx)
    net_values(phi, x, idx, m, w, q)
    best = 0
    for i in range(1, m):
        if q[i] > q[best]:
            best = i
    return idx[best]


# it allocates: not the reference-free build of choose()
@njit_counted
def net_choice(ws, pos, am, ai, beaters, w):
    """Index of the network's best action among the listed at the decision ``pos``."""
    n = pos[7]
    phi = np.empty(NET_STATE)
    x = np.empty((n, NET_ACT))
    q = np.empty(NET_TOP)
    idx = np.empty(NET_TOP, dtype=np.int64)
    net_inputs(ws, pos, am, ai, beaters, w, phi, x)
    return net_pick(phi, x, n, w, idx, q)
