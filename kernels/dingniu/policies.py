"""顶牛 kernels, the policies: the random policy and the heuristic, from the seat's own view.

A policy reads the state array of :mod:`.game` and the legal actions listed for the seat to
act; the heuristic reads only that seat's own tiles and 扣, the laid tiles and the public
counts (R12 of docs/rules/dingniu.md). A seat's parameters are a float vector (``H_*``; the pimc
policy, :mod:`.pimc`, appends its own two). Every function is jit-compiled.
"""

from __future__ import annotations

import numpy as np

from ..jit import njit
from ..rng import bounded
from .game import (
    KOU,
    LEAD,
    N_KINDS,
    P_LOCK_VALUE,
    S_E0,
    S_E1,
    S_HAND,
    S_KOU,
    S_LAID,
    S_TURN,
    T_A,
    T_B,
    T_COUNT,
    T_DOUBLE,
    T_PIPS,
    _lay,
    _matches,
)

# policy ids
RANDOM, HEURISTIC = 0, 1
# heuristic parameters
H_PIPS, H_MINE, H_BLOCK, H_SUAN_RATIO, H_LOCK, H_DOUBLE, H_KOU_KEEP = range(7)
N_HEURISTIC = 7
HEURISTIC_NAMES = ("pips", "mine", "block", "suan_ratio", "lock", "double", "kou_keep")
HEURISTIC_DEFAULTS = np.array([1.0, 2.0, 1.0, 0.6, 30.0, 0.0, 0.0])


@njit(cache=True)
def heuristic_action(state, tiles, params, hp, acts, n):
    """The heuristic's choice among the ``n`` legal ``acts``, from the seat's own view only.

    扣 the cheapest tile (plus ``H_KOU_KEEP`` × the unseen tiles that share an end with it:
    a tile that may go later is kept); otherwise score each play: its pips (unload big
    tiles), own tiles that can follow the new ends, minus unseen 竖牌 that could follow them,
    ``H_DOUBLE`` for a double, and a likely lock (R6 as the rules read it, judged on the
    unseen tiles) rewarded or punished by whether its 算帐 should succeed.
    """
    seat = state[S_TURN]
    h = S_HAND + seat * N_KINDS
    unseen = np.empty(N_KINDS, dtype=np.int64)  # not laid, not mine (others' hands or any 扣)
    hand_pips = 0
    unseen_pips = 0
    for k in range(N_KINDS):
        unseen[k] = tiles[k, T_COUNT] - state[S_LAID + k] - state[h + k]
        hand_pips += state[h + k] * tiles[k, T_PIPS]
        unseen_pips += unseen[k] * tiles[k, T_PIPS]
    if acts[0] % 8 == KOU:
        return _heuristic_kou(tiles, hp, acts, n, unseen)
    unseen_pips -= state[S_KOU + seat]  # my own 扣 are known to me
    e0, e1 = state[S_E0], state[S_E1]
    ob = _unseen_values(tiles, unseen, e0, e1)
    best, best_s = acts[0], -1e300
    for i in range(n):
        k, slot = acts[i] // 8, acts[i] % 8
        if slot == LEAD:
            n0, n1 = min(tiles[k, T_A], tiles[k, T_B]), max(tiles[k, T_A], tiles[k, T_B])
        else:
            n0, n1 = _lay(tiles, e0, e1, k, slot)
        mine = 0
        follow = 0
        for j in range(N_KINDS):
            c = state[h + j] - (1 if j == k else 0)
            if c > 0 and (_matches(tiles, j, n0) or _matches(tiles, j, n1)):
                mine += c
            if tiles[j, T_DOUBLE] == 0 and (_matches(tiles, j, n0) or _matches(tiles, j, n1)):
                follow += unseen[j]
        s = (hp[H_PIPS] * tiles[k, T_PIPS] + hp[H_MINE] * mine - hp[H_BLOCK] * follow
             + hp[H_DOUBLE] * tiles[k, T_DOUBLE])
        if params[P_LOCK_VALUE]:
            likely = slot != LEAD and (ob & ~_unseen_values(tiles, unseen, n0, n1)) != 0
        else:
            likely = slot != LEAD and follow == 0
        if likely:
            mine_total = state[S_KOU + seat] + hand_pips - tiles[k, T_PIPS]
            if mine_total < hp[H_SUAN_RATIO] * unseen_pips / 3.0:
                s += hp[H_LOCK]
            else:
                s -= hp[H_LOCK]
        if s > best_s:
            best, best_s = acts[i], s
    return best


@njit(cache=True)
def _heuristic_kou(tiles, hp, acts, n, unseen):
    """The tile the heuristic 扣s: least pips + ``H_KOU_KEEP`` × unseen tiles sharing an end."""
    best, best_p = acts[0], 1e300
    for i in range(n):
        k = acts[i] // 8
        p = float(tiles[k, T_PIPS])
        if hp[H_KOU_KEEP] != 0.0:
            near = 0
            for j in range(N_KINDS):
                if _matches(tiles, j, tiles[k, T_A]) or _matches(tiles, j, tiles[k, T_B]):
                    near += unseen[j]
            p += hp[H_KOU_KEEP] * near
        if p < best_p:
            best, best_p = acts[i], p
    return best


@njit(cache=True)
def _unseen_values(tiles, unseen, e0, e1):
    """Bit v: an unseen 竖牌 with an end v matches ``e0`` or ``e1``."""
    bits = 0
    for k in range(N_KINDS):
        if unseen[k] > 0 and tiles[k, T_DOUBLE] == 0 and (_matches(tiles, k, e0)
                                                           or _matches(tiles, k, e1)):
            bits |= (1 << tiles[k, T_A]) | (1 << tiles[k, T_B])
    return bits


@njit(cache=True)
def choose(state, tiles, params, policy, hp, rng, acts, n):
    """The action policy ``policy`` (RANDOM or HEURISTIC) takes among ``acts[:n]``."""
    if policy == RANDOM or n == 1:
        return acts[bounded(rng, n)] if n > 1 else acts[0]
    return heuristic_action(state, tiles, params, hp, acts, n)

