"""顶牛 kernels for the pimc policy: hidden tiles sampled from one seat's view, the exact
open-hand max-n search at small leaves; the contract's ``play_until`` (:mod:`.verbs`) lets
a pimc seat choose.

A pimc seat reads only its own tiles and 扣, the laid tiles, every seat's tile and 扣 counts
and the public 扣 masks (``S_VOID``, ``S_KMASK``: the ends showing when a seat 扣ed, so it
held nothing matching them). For each sample it deals the unseen tiles to the other seats'
hands and 扣 consistently with those masks, then values each legal action by playing the
rest out: exactly (max-n, R13 of docs/rules/dingniu.md) when few tiles are left in the hands,
else by the heuristic for every seat. Every function is jit-compiled.
"""

from __future__ import annotations

import numpy as np

from ..jit import njit
from ..rng import bounded, next_u64, seed_state
from .game import (
    N_KINDS,
    N_RESULT,
    N_SEATS,
    N_TILES,
    R_PTS,
    S_HAND,
    S_KMASK,
    S_KOU,
    S_KOUK,
    S_LAID,
    S_LEFT,
    S_NKOU,
    S_OVER,
    S_TURN,
    S_VOID,
    STATE_LEN,
    T_A,
    T_B,
    T_COUNT,
    T_PIPS,
    apply,
    legal,
    settle,
)
from .policies import heuristic_action

PIMC = 2  # policy id, beside policies.RANDOM and policies.HEURISTIC
H_SAMPLES, H_LEAF = 7, 8  # a seat's vector: the heuristic's 7 weights, then these two
N_VECTOR = 9
PIMC_DEFAULTS = np.array([24.0, 10.0])  # deals per decision; exact with ≤ 10 tiles in hands
SAMPLE_TRIES = 64  # uniform draws tried before the constrained fill


@njit(inline="always", cache=True)
def _avoids(tiles, k, mask):
    return ((mask >> tiles[k, T_A]) & 1) == 0 and ((mask >> tiles[k, T_B]) & 1) == 0


@njit(cache=True)
def sample_hidden(state, tiles, seat, rng, out):
    """``out``: ``state`` with the other seats' hands and 扣 redrawn from ``seat``'s view.

    Each slot (a hand tile, or the i-th 扣) has the public mask its tile must avoid. Uniform
    deals of the unseen tiles are drawn until one fits every mask (uniform over the fitting
    deals); after ``SAMPLE_TRIES`` misses, slots are filled most constrained first with a
    uniform fitting tile (still consistent, no longer exactly uniform).
    """
    pool = np.empty(N_TILES, dtype=np.int64)
    n_pool = 0
    for k in range(N_KINDS):
        c = (tiles[k, T_COUNT] - state[S_LAID + k] - state[S_HAND + seat * N_KINDS + k]
             - state[S_KOUK + seat * N_KINDS + k])
        for _ in range(c):
            pool[n_pool] = k
            n_pool += 1
    masks = np.empty(N_TILES, dtype=np.int64)  # per slot, and its owner: seat * 8 + (7 = hand)
    owner = np.empty(N_TILES, dtype=np.int64)
    n_slot = 0
    for s in range(N_SEATS):
        if s == seat:
            continue
        for _ in range(state[S_LEFT + s]):  # held through every 扣 of the seat
            masks[n_slot] = state[S_VOID + s]
            owner[n_slot] = s * 8 + 7
            n_slot += 1
        for i in range(state[S_NKOU + s]):  # held through its 扣 0 … i
            masks[n_slot] = state[S_KMASK + s * 6 + i]
            owner[n_slot] = s * 8 + i
            n_slot += 1
    pick = np.empty(N_TILES, dtype=np.int64)
    ok = _draw_uniform(tiles, pool, n_pool, masks, rng, pick)
    if not ok:
        _fill_constrained(tiles, pool, n_pool, masks, rng, pick)
    out[:] = state
    for s in range(N_SEATS):
        if s == seat:
            continue
        out[S_KOU + s] = 0
        for k in range(N_KINDS):
            out[S_HAND + s * N_KINDS + k] = 0
            out[S_KOUK + s * N_KINDS + k] = 0
    for j in range(n_slot):
        s, i, k = owner[j] // 8, owner[j] % 8, pick[j]
        if i == 7:
            out[S_HAND + s * N_KINDS + k] += 1
        else:
            out[S_KOUK + s * N_KINDS + k] += 1
            out[S_KOU + s] += tiles[k, T_PIPS]


@njit(cache=True)
def _draw_uniform(tiles, pool, n, masks, rng, pick):
    """Shuffle the pool into the slots until every slot's tile avoids its mask."""
    for _ in range(SAMPLE_TRIES):
        for i in range(n):
            pick[i] = pool[i]
        for i in range(n - 1, 0, -1):
            j = bounded(rng, i + 1)
            pick[i], pick[j] = pick[j], pick[i]
        good = True
        for i in range(n):
            if not _avoids(tiles, pick[i], masks[i]):
                good = False
                break
        if good:
            return True
    return False


@njit(cache=True)
def _fill_constrained(tiles, pool, n, masks, rng, pick):
    """Most constrained slot first, a uniform tile among those left that avoid its mask (any
    tile left when none does)."""
    left = pool[:n].copy()
    n_left = n
    order = np.argsort(-_popcounts(masks[:n]), kind="mergesort")
    cand = np.empty(n, dtype=np.int64)
    for o in range(n):
        j = order[o]
        m = 0
        for i in range(n_left):
            if _avoids(tiles, left[i], masks[j]):
                cand[m] = i
                m += 1
        i = cand[bounded(rng, m)] if m > 0 else bounded(rng, n_left)
        pick[j] = left[i]
        left[i] = left[n_left - 1]
        n_left -= 1


@njit(cache=True)
def _popcounts(masks):
    out = np.zeros(masks.shape[0], dtype=np.int64)
    for i in range(masks.shape[0]):
        x = masks[i]
        while x:
            out[i] += x & 1
            x >>= 1
    return out


@njit(cache=True)
def maxn(state, tiles, params, vals):
    """Max-n values (points of each seat) of the running hand ``state`` with all hands open;
    the seat to act takes its best action, ties to the lowest action number (R13). Returns
    the positions searched. No memo: meant for a few tiles left."""
    acts = np.empty(32, dtype=np.int64)
    scratch = np.empty(64, dtype=np.int64)
    child = np.empty(STATE_LEN, dtype=np.int64)
    res = np.empty(N_RESULT, dtype=np.int64)
    v = np.empty(N_SEATS, dtype=np.int64)
    n = legal(state, tiles, params, acts)
    seat = state[S_TURN]
    nodes = 1
    for i in range(n):
        child[:] = state
        apply(child, tiles, params, acts[i], scratch)
        if child[S_OVER] != 0:
            settle(child, tiles, params, res)
            for s in range(N_SEATS):
                v[s] = res[R_PTS + s]
        else:
            nodes += maxn(child, tiles, params, v)
        if i == 0 or v[seat] > vals[seat]:
            vals[:] = v
    return nodes


@njit(cache=True)
def rollout(state, tiles, params, hp, rng, vals):
    """Play ``state`` to its end with every seat on the heuristic ``hp``; points to ``vals``."""
    acts = np.empty(64, dtype=np.int64)
    scratch = np.empty(64, dtype=np.int64)
    res = np.empty(N_RESULT, dtype=np.int64)
    while state[S_OVER] == 0:
        n = legal(state, tiles, params, acts)
        a = acts[0] if n == 1 else heuristic_action(state, tiles, params, hp, acts, n)
        apply(state, tiles, params, a, scratch)
    settle(state, tiles, params, res)
    for s in range(N_SEATS):
        vals[s] = res[R_PTS + s]


@njit(cache=True)
def tiles_in_hands(state):
    n = 0
    for s in range(N_SEATS):
        n += state[S_LEFT + s]
    return n


@njit(cache=True)
def pimc_action(state, tiles, params, hp, rng, acts, n):
    """The pimc choice among ``acts[:n]`` for the seat to act, from its own view only."""
    if n == 1:
        return acts[0]
    seat = state[S_TURN]
    total = np.zeros(n)
    sampled = np.empty(STATE_LEN, dtype=np.int64)
    child = np.empty(STATE_LEN, dtype=np.int64)
    scratch = np.empty(64, dtype=np.int64)
    res = np.empty(N_RESULT, dtype=np.int64)
    vals = np.empty(N_SEATS, dtype=np.int64)
    base = np.empty(4, dtype=np.uint64)
    for _ in range(int(hp[H_SAMPLES])):
        sample_hidden(state, tiles, seat, rng, sampled)
        seed_state(next_u64(rng), base)  # one stream per sample, shared by its actions
        for j in range(n):
            child[:] = sampled
            apply(child, tiles, params, acts[j], scratch)
            if child[S_OVER] != 0:
                settle(child, tiles, params, res)
                total[j] += res[R_PTS + seat]
            elif tiles_in_hands(child) <= hp[H_LEAF]:
                maxn(child, tiles, params, vals)
                total[j] += vals[seat]
            else:
                r = base.copy()
                rollout(child, tiles, params, hp, r, vals)
                total[j] += vals[seat]
    best = 0
    for j in range(1, n):
        if total[j] > total[best]:
            best = j
    return acts[best]
