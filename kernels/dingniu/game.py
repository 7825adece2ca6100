"""顶牛 kernels, the state machine: dealing, legal actions, playing an action, the score.

A hand lives in one ``int64[STATE_LEN]`` array (layout below); the tile table comes in as
``tiles[k] = (end_a, end_b, pips, count, double)`` and the rules as ``params`` (``P_*``);
the shared drivers get the two together as ``verbs.Rules(tiles, params)``.
Actions are ``kind * 8 + slot`` as in ``analyzer.dingniu.tiles``. Rule numbers refer to
docs/rules/dingniu.md. The policies are in :mod:`.policies`, the contract's verbs in :mod:`.verbs`.
Every function is jit-compiled and takes arrays, tuples of arrays and integers only.
"""

from __future__ import annotations

import numpy as np

from ..jit import njit
from ..rng import bounded

N_SEATS, N_KINDS, N_TILES = 4, 13, 24
LEAD, KOU = 0, 7
# state layout
S_HAND = 0  # [4 * 13] counts per seat and kind
S_KOU = 52  # [4] pips 扣ed
S_NKOU = 56  # [4] tiles 扣ed (public)
S_LAID = 60  # [13] tiles laid per kind (public)
S_E0, S_E1 = 73, 74  # open ends, smaller first; 0 before the lead
S_TURN = 75
S_OVER = 76  # 0 running, 1 all tiles out, 2 算帐
S_SUAN = 77  # the seat whose play was a 算帐, else -1
S_LEFT = 78  # [4] tiles in hand
S_MOVES = 82
S_KOUK = 83  # [4 * 13] tiles 扣ed per seat and kind (hidden from the other seats)
S_VOID = 135  # [4] bit v: the seat 扣ed while an end showed v (public)
S_KMASK = 139  # [4 * 6] S_VOID of the seat just after its i-th 扣 (public)
STATE_LEN = 163
# tile table columns
T_A, T_B, T_PIPS, T_COUNT, T_DOUBLE = 0, 1, 2, 3, 4
# params
P_WIN, P_L1, P_L2, P_L3, P_FACTOR, P_NO_DRAG, P_SUAN, P_PAIR_MASK = range(8)
P_LOCK_VALUE = 8  # R6: 1 when a lock of any one value counts, 0 when all 竖牌 must be shut
P_DEAD_MASK = 9  # R7: bit v set when a forced lock of value v is 死砸
P_DOUBLES = 10  # R8: the others lay their doubles before the count
P_COUNT_HAND = 11  # R8/R9: the others' hand tiles count
P_TOU_PLAYABLE = 12  # R11: 头牌's lock is exempt when every tile left in hand can be laid
N_PARAMS = 13
# result row
R_PTS = 0  # [4] points
R_TOT = 4  # [4] totals
R_END, R_SUAN, R_MOVES = 8, 9, 10
N_RESULT = 11
MAX_MOVES = N_TILES


@njit(inline="always", cache=True)
def _matches(tiles, k, v):
    return tiles[k, T_A] == v or tiles[k, T_B] == v


@njit(cache=True)
def deal(rng, tiles, state):
    """Shuffle the 24 tiles and deal six to each seat; seat 0 (头牌) to act."""
    deck = np.empty(N_TILES, dtype=np.int64)
    n = 0
    for k in range(N_KINDS):
        for _ in range(tiles[k, T_COUNT]):
            deck[n] = k
            n += 1
    for i in range(N_TILES - 1, 0, -1):
        j = bounded(rng, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    state[:] = 0
    for i in range(N_TILES):
        state[S_HAND + (i // 6) * N_KINDS + deck[i]] += 1
    for s in range(N_SEATS):
        state[S_LEFT + s] = 6
    state[S_SUAN] = -1


@njit(cache=True)
def _drags(state, tiles, seat, k):
    """不能拉三家 (R3): no 竖牌 outside the seat's hand shares an end with ``k``."""
    a, b = tiles[k, T_A], tiles[k, T_B]
    for j in range(N_KINDS):
        if tiles[j, T_DOUBLE] == 0 and (_matches(tiles, j, a) or _matches(tiles, j, b)):
            if tiles[j, T_COUNT] - state[S_HAND + seat * N_KINDS + j] > 0:
                return False
    return True


@njit(cache=True)
def legal(state, tiles, params, out):
    """Write the sorted legal actions of the seat to act into ``out``; return how many."""
    seat = state[S_TURN]
    h = S_HAND + seat * N_KINDS
    e0, e1 = state[S_E0], state[S_E1]
    n = 0
    if e0 == 0:
        for k in range(N_KINDS):
            if state[h + k] > 0 and not (params[P_NO_DRAG] and _drags(state, tiles, seat, k)):
                out[n] = k * 8 + LEAD
                n += 1
        if n == 0:
            for k in range(N_KINDS):
                if state[h + k] > 0:
                    out[n] = k * 8 + LEAD
                    n += 1
        return n
    for k in range(N_KINDS):
        if state[h + k] > 0:
            if _matches(tiles, k, e0):
                out[n] = k * 8 + e0
                n += 1
            if e1 != e0 and _matches(tiles, k, e1):
                out[n] = k * 8 + e1
                n += 1
    if n == 0:
        for k in range(N_KINDS):
            if state[h + k] > 0:
                out[n] = k * 8 + KOU
                n += 1
    return n


@njit(cache=True)
def _open_values(state, tiles, seat, e0, e1):
    """Bit v: another seat holds a 竖牌 with an end v that matches ``e0`` or ``e1`` (R6)."""
    bits = 0
    for j in range(N_SEATS):
        if j == seat:
            continue
        for k in range(N_KINDS):
            if (state[S_HAND + j * N_KINDS + k] > 0 and tiles[k, T_DOUBLE] == 0
                    and (_matches(tiles, k, e0) or _matches(tiles, k, e1))):
                bits |= (1 << tiles[k, T_A]) | (1 << tiles[k, T_B])
    return bits


@njit(inline="always", cache=True)
def _locked(params, ob, oa):
    """R6: the values shut out when the others' open values go from ``ob`` to ``oa``."""
    if params[P_LOCK_VALUE]:
        return ob & ~oa
    return ob if ob != 0 and oa == 0 else 0


@njit(inline="always", cache=True)
def _lay(tiles, e0, e1, k, slot):
    """Open ends (sorted) after laying ``k`` on the end showing ``slot``."""
    a, b = tiles[k, T_A], tiles[k, T_B]
    other = b if a == slot else a
    keep = e1 if e0 == slot else e0
    return (keep, other) if keep <= other else (other, keep)


@njit(cache=True)
def _is_suan(state, tiles, params, seat, before, a, acts, n_legal):
    """R6, R7, R11: the play ``a`` just made (open ends ``before = (e0, e1)`` before it) is
    a 算帐; ``acts[:n_legal]`` were the seat's legal plays."""
    e0, e1 = before
    ob = _open_values(state, tiles, seat, e0, e1)
    if ob == 0:
        return False
    n0, n1 = state[S_E0], state[S_E1]
    shut = _locked(params, ob, _open_values(state, tiles, seat, n0, n1))
    if shut == 0:
        return False
    if seat == 0:  # R11
        if state[S_LEFT] == 0:
            return False
        if params[P_TOU_PLAYABLE]:
            all_go = True
            for k in range(N_KINDS):
                if state[S_HAND + k] > 0 and not (_matches(tiles, k, n0) or _matches(tiles, k, n1)):
                    all_go = False
            if all_go:
                return False
    for i in range(n_legal):  # R7: did the seat have a play that would not lock?
        b = acts[i]
        if b == a:
            continue
        f0, f1 = _lay(tiles, e0, e1, b // 8, b % 8)
        if _locked(params, ob, _open_values(state, tiles, seat, f0, f1)) == 0:
            return True
    return (shut & params[P_DEAD_MASK]) == 0


@njit(cache=True)
def apply(state, tiles, params, a, acts):
    """Play the legal action ``a``; ``acts`` is scratch space for the legal set."""
    seat = state[S_TURN]
    h = S_HAND + seat * N_KINDS
    k, slot = a // 8, a % 8
    state[S_MOVES] += 1
    if slot == KOU:
        state[h + k] -= 1
        state[S_LEFT + seat] -= 1
        state[S_KOU + seat] += tiles[k, T_PIPS]
        state[S_KOUK + seat * N_KINDS + k] += 1
        state[S_VOID + seat] |= (1 << state[S_E0]) | (1 << state[S_E1])
        state[S_KMASK + seat * 6 + state[S_NKOU + seat]] = state[S_VOID + seat]
        state[S_NKOU + seat] += 1
    elif slot == LEAD:
        n = 1
        if (params[P_PAIR_MASK] >> k) & 1 and state[h + k] == 2:  # R4
            n = 2
        state[h + k] -= n
        state[S_LEFT + seat] -= n
        state[S_LAID + k] += n
        end_a, end_b = tiles[k, T_A], tiles[k, T_B]
        state[S_E0], state[S_E1] = min(end_a, end_b), max(end_a, end_b)
    else:
        e0, e1 = state[S_E0], state[S_E1]
        n_legal = legal(state, tiles, params, acts)
        state[h + k] -= 1
        state[S_LEFT + seat] -= 1
        state[S_LAID + k] += 1
        n0, n1 = _lay(tiles, e0, e1, k, slot)
        state[S_E0], state[S_E1] = n0, n1
        if params[P_SUAN] and _is_suan(state, tiles, params, seat, (e0, e1), a, acts, n_legal):
            state[S_OVER] = 2
            state[S_SUAN] = seat
            return
    for step in range(1, N_SEATS + 1):
        nxt = (seat + step) % N_SEATS
        if state[S_LEFT + nxt] > 0:
            state[S_TURN] = nxt
            return
    state[S_OVER] = 1


@njit(cache=True)
def settle(state, tiles, params, res):
    """Fill the result row ``res``: points, totals, how it ended, 算帐 seat, moves."""
    tot = np.empty(N_SEATS, dtype=np.int64)
    e0, e1 = state[S_E0], state[S_E1]
    for s in range(N_SEATS):
        tot[s] = state[S_KOU + s]
        if state[S_OVER] == 2 and (s == state[S_SUAN] or params[P_COUNT_HAND]):
            lays = s != state[S_SUAN] and params[P_DOUBLES] != 0
            for k in range(N_KINDS):  # R8, R9: doubles laid on an open end do not count
                if lays and tiles[k, T_DOUBLE] == 1 and (_matches(tiles, k, e0)
                                                         or _matches(tiles, k, e1)):
                    continue
                tot[s] += state[S_HAND + s * N_KINDS + k] * tiles[k, T_PIPS]
        res[R_TOT + s] = tot[s]
        res[R_PTS + s] = 0
    res[R_END] = state[S_OVER]
    res[R_SUAN] = state[S_SUAN]
    res[R_MOVES] = state[S_MOVES]
    order = np.empty(N_SEATS, dtype=np.int64)  # losers by (-total, seat)
    if state[S_OVER] == 2:
        s0 = state[S_SUAN]
        f = params[P_FACTOR]
        ok = True
        best = -1
        m = 0
        for s in range(N_SEATS):
            if s != s0:
                order[m] = s
                m += 1
                if tot[s] <= tot[s0]:
                    ok = False
                if best < 0 or tot[s] < tot[best]:
                    best = s
        if ok:
            res[R_PTS + s0] = f * params[P_WIN]
            _sort_losers(order, 3, tot)
            for i in range(3):
                res[R_PTS + order[i]] = -f * params[P_L1 + i]
        else:
            res[R_PTS + best] = f * params[P_WIN]
            res[R_PTS + s0] = -f * params[P_WIN]
        return
    winner = 0
    for s in range(1, N_SEATS):
        if tot[s] < tot[winner]:
            winner = s
    m = 0
    for s in range(N_SEATS):
        if s != winner:
            order[m] = s
            m += 1
    _sort_losers(order, 3, tot)
    res[R_PTS + winner] = params[P_WIN]
    for i in range(3):
        res[R_PTS + order[i]] = -params[P_L1 + i]


@njit(inline="always", cache=True)
def _sort_losers(order, n, tot):
    # insertion sort by (-total, seat): bigger count first, nearer 头牌 first among equals (R5)
    for i in range(1, n):
        x = order[i]
        j = i - 1
        while j >= 0 and (tot[order[j]] < tot[x] or (tot[order[j]] == tot[x] and order[j] > x)):
            order[j + 1] = order[j]
            j -= 1
        order[j + 1] = x


