"""顶牛 kernels: dealing, legal actions, the hand as a state array, policies and parallel runs.

A hand lives in one ``int64[STATE_LEN]`` array (layout below); the tile table comes in as
``tiles[k] = (end_a, end_b, pips, count, double)`` and the rules as ``params`` (``P_*``).
Actions are ``kind * 8 + slot`` as in ``analyzer.dingniu.tiles``. Rule numbers refer to
docs/dingniu.md. Every function is jit-compiled and takes arrays and integers only.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..parallel import for_each_chunk
from ..rng import bounded, next_u64, seed_state

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
# policies
RANDOM, HEURISTIC = 0, 1
# heuristic parameters
H_PIPS, H_MINE, H_BLOCK, H_SUAN_RATIO, H_LOCK, H_DOUBLE, H_KOU_KEEP = range(7)
N_HEURISTIC = 7
HEURISTIC_NAMES = ("pips", "mine", "block", "suan_ratio", "lock", "double", "kou_keep")
HEURISTIC_DEFAULTS = np.array([1.0, 2.0, 1.0, 0.6, 30.0, 0.0, 0.0])
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
def start_from(hands, state):
    """Fill ``state`` with the deal ``hands[4, 13]``, nothing played."""
    state[:] = 0
    for s in range(N_SEATS):
        for k in range(N_KINDS):
            state[S_HAND + s * N_KINDS + k] = hands[s, k]
            state[S_LEFT + s] += hands[s, k]
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
def _is_suan(state, tiles, params, seat, e0, e1, a, acts, n_legal):
    """R6, R7, R11: the play ``a`` just made (ends ``e0, e1`` before it) is a 算帐;
    ``acts[:n_legal]`` were the seat's legal plays."""
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
        if params[P_SUAN] and _is_suan(state, tiles, params, seat, e0, e1, a, acts, n_legal):
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


@njit(cache=True)
def play_out(state, tiles, params, policies, hps, rng, res, log_act, log_legal):
    """Play the hand in ``state`` to its end; ``policies[seat]`` with ``hps[seat]``.

    When ``log_act`` has room, decision ``i`` is logged as (seat, action) and its legal set
    as two 64-bit masks in ``log_legal[i]``.
    """
    acts = np.empty(64, dtype=np.int64)
    scratch = np.empty(64, dtype=np.int64)
    logging = log_act.shape[0] >= MAX_MOVES
    i = 0
    while state[S_OVER] == 0:
        seat = state[S_TURN]
        n = legal(state, tiles, params, acts)
        a = choose(state, tiles, params, policies[seat], hps[seat], rng, acts, n)
        if logging:
            log_act[i, 0] = seat
            log_act[i, 1] = a
            lo = np.uint64(0)
            hi = np.uint64(0)
            for j in range(n):
                if acts[j] < 64:
                    lo |= np.uint64(1) << np.uint64(acts[j])
                else:
                    hi |= np.uint64(1) << np.uint64(acts[j] - 64)
            log_legal[i, 0] = lo
            log_legal[i, 1] = hi
        i += 1
        apply(state, tiles, params, a, scratch)
    settle(state, tiles, params, res)
    return i


@njit(nogil=True, cache=True)
def _play_chunk(c, rngs, chunk_size, n_hands, tiles, params, policies, hps, out):
    """Chunk ``c`` of :func:`play_chunks`."""
    rng = rngs[c].copy()
    state = np.empty(STATE_LEN, dtype=np.int64)
    la = np.empty((1, 2), dtype=np.int64)
    ll = np.empty((1, 2), dtype=np.uint64)
    for g in range(c * chunk_size, min((c + 1) * chunk_size, n_hands)):
        deal(rng, tiles, state)
        play_out(state, tiles, params, policies, hps, rng, out[g], la, ll)


def play_chunks(rngs, chunk_size, n_hands, tiles, params, policies, hps, out):
    """Deal and play ``n_hands`` hands; chunk ``c`` draws from ``rngs[c]``; rows to ``out``."""
    for_each_chunk(_play_chunk, rngs.shape[0], rngs, chunk_size, n_hands, tiles, params,
                   policies, hps, out)


@njit(nogil=True, cache=True)
def _deal_many_chunk(c, rngs, chunk_size, n_deals, tiles, out):
    """Chunk ``c`` of :func:`deal_many`."""
    rng = rngs[c].copy()
    state = np.empty(STATE_LEN, dtype=np.int64)
    for g in range(c * chunk_size, min((c + 1) * chunk_size, n_deals)):
        deal(rng, tiles, state)
        for s in range(N_SEATS):
            for k in range(N_KINDS):
                out[g, s, k] = state[S_HAND + s * N_KINDS + k]


def deal_many(rngs, chunk_size, n_deals, tiles, out):
    """Deal ``n_deals`` times; ``out[g, seat, kind]`` gets the counts."""
    for_each_chunk(_deal_many_chunk, rngs.shape[0], rngs, chunk_size, n_deals, tiles, out)


@njit(nogil=True, cache=True)
def _logged_chunk(c, rngs, chunk_size, n_hands, tiles, params, policies, hps, deals, out,
        log_act, log_legal, n_moves):
    """Chunk ``c`` of :func:`logged_chunks`."""
    rng = rngs[c].copy()
    state = np.empty(STATE_LEN, dtype=np.int64)
    for g in range(c * chunk_size, min((c + 1) * chunk_size, n_hands)):
        deal(rng, tiles, state)
        for s in range(N_SEATS):
            for k in range(N_KINDS):
                deals[g, s, k] = state[S_HAND + s * N_KINDS + k]
        n_moves[g] = play_out(state, tiles, params, policies, hps, rng, out[g],
                              log_act[g], log_legal[g])


def logged_chunks(rngs, chunk_size, n_hands, tiles, params, policies, hps, deals, out, log_act,
        log_legal, n_moves):
    """As :func:`play_chunks`, keeping each deal, its action log and legal sets."""
    for_each_chunk(_logged_chunk, rngs.shape[0], rngs, chunk_size, n_hands, tiles, params,
                   policies, hps, deals, out, log_act, log_legal, n_moves)


@njit(nogil=True, cache=True)
def _duplicate_chunk(c, rngs, chunk_size, n_deals, tiles, params, seat_policies, seat_hps, out):
    """Chunk ``c`` of :func:`duplicate_chunks`."""
    n_seat = seat_policies.shape[0]
    rng = rngs[c].copy()
    dealt = np.empty(STATE_LEN, dtype=np.int64)
    state = np.empty(STATE_LEN, dtype=np.int64)
    res = np.empty(N_RESULT, dtype=np.int64)
    la = np.empty((1, 2), dtype=np.int64)
    ll = np.empty((1, 2), dtype=np.uint64)
    base = np.empty(4, dtype=np.uint64)
    for g in range(c * chunk_size, min((c + 1) * chunk_size, n_deals)):
        deal(rng, tiles, dealt)
        seed_state(next_u64(rng), base)  # the deal's own stream for its play
        for j in range(n_seat):
            state[:] = dealt
            r = base.copy()  # common random numbers across seatings
            play_out(state, tiles, params, seat_policies[j], seat_hps[j], r, res, la, ll)
            for s in range(N_SEATS):
                out[g, j, s] = res[R_PTS + s]


def duplicate_chunks(rngs, chunk_size, n_deals, tiles, params, seat_policies, seat_hps, out):
    """Each deal once per seating ``seat_policies[j]``, all seatings from one stream copy.

    ``out[g, j, seat]``: points of ``seat`` in deal ``g`` under seating ``j``.
    """
    for_each_chunk(_duplicate_chunk, rngs.shape[0], rngs, chunk_size, n_deals, tiles,
                   params, seat_policies, seat_hps, out)


@njit(nogil=True, cache=True)
def _evaluate_actions_chunk(i, states, actions, n_actions, tiles, params, policies, hps, rngs,
        out):
    """Chunk ``i`` of :func:`evaluate_actions`."""
    state = np.empty(STATE_LEN, dtype=np.int64)
    scratch = np.empty(64, dtype=np.int64)
    la = np.empty((1, 2), dtype=np.int64)
    ll = np.empty((1, 2), dtype=np.uint64)
    for j in range(n_actions):
        state[:] = states[i]
        rng = rngs[i].copy()
        apply(state, tiles, params, actions[j], scratch)
        if state[S_OVER] != 0:
            settle(state, tiles, params, out[i, j])
        else:
            play_out(state, tiles, params, policies, hps, rng, out[i, j], la, ll)


def evaluate_actions(states, actions, n_actions, tiles, params, policies, hps, rngs, out):
    """For each sampled state ``i`` and first action ``actions[j]``, play out the rest.

    ``out[i, j]`` is the result row; every action of sample ``i`` uses a copy of
    ``rngs[i]`` (common random numbers).
    """
    for_each_chunk(_evaluate_actions_chunk, states.shape[0], states, actions, n_actions,
                   tiles, params, policies, hps, rngs, out)
