"""Exact open-hand play (all three hands visible): max-n values of a kernel position.

Max-n: the seat to act takes the action with the most points for itself, every later
decision taken the same way. Tie rule, as :mod:`analyzer.xianniu.solver`: among actions
worth the same to the seat, the first in the reference engine's order (plays, pass, 扣, 掀,
紧牌, discards; then fewer cards; then the lower mask), so a position has one value vector.

The search is iterative (an explicit stack of positions, one row per depth) over the state
words of :mod:`kernels.xianniu.game`, moved on by its own ``_apply_*`` transitions. Forced
actions (a single legal action) are followed in place. Decision positions are kept in a
transposition table of plain int64 rows (open addressing on a hash of the position, four
probes): six key words holding everything that decides the rest of the hand and its
settlement, compared in full, so a hit is exact; and one word with the values, the cards
left (entries with fewer cards are evicted first when all four probes are taken) and a
stamp (entries of another stamp count as empty, so a table is reused without clearing).
No pruning: max-n admits only shallow pruning (Korf 1991), which would store bounds.
"""

from __future__ import annotations

import numpy as np

from ..jit import njit
from .bits import popcount
from .game import (
    MAX_ACTIONS,
    N_RESULT,
    PH_DISCARD,
    PH_KOU,
    PH_LEAD,
    PH_OVER,
    PH_QIANGCI,
    PH_TRICK,
    R_PTS0,
    S_BANKER,
    S_LEAD,
    S_LIMIT,
    S_MUST_LEAD,
    S_N_XIAN,
    S_PHASE,
    S_QI,
    S_QLEN,
    S_TABLE,
    S_TIGHTENED,
    S_TOP_K,
    S_TOP_KIND,
    S_TOP_OWNER,
    S_TOP_RANK,
    S_TOP_SIZE,
    S_TRACK,
    WS_CAP,
    WS_HANDS,
    WS_INFO,
    WS_K108,
    WS_KKK,
    WS_LIANG,
    WS_NIU,
    WS_PASS,
    WS_QUEUE,
    WS_SAID_KOU,
    WS_XI,
    WS_XIAN_T,
    WS_XIAN_X,
    _lead_options,
    _legal_discard,
    _legal_kou_ask,
    _legal_qiangci,
    apply_action,
    finish_hand,
)
from .plays import INFO_COLS, _push, gen_answers, gen_plays
from .tables import ACT_PASS, N_SEATS, P_TABLE_CAP

KEY_WORDS = 6  # key words of a table row; the value word follows
TT_COLS = KEY_WORDS + 1
PROBES = 4
GAME_WORDS = WS_PASS  # state words that decide the game (the pass log only feeds sampling)
_OFF = 1 << 15  # value offset in the packed value word (points fit in ±2**15)
_MIX1 = np.uint64(0xFF51AFD7ED558CCD)
_MIX2 = np.uint64(0xC4CEB9FE1A85EC53)


def new_table(log2_rows: int = 20) -> np.ndarray:
    """An empty transposition table of ``2**log2_rows`` rows (56 bytes each)."""
    return np.zeros((1 << log2_rows, TT_COLS), dtype=np.int64)


@njit(cache=True)
def new_stack(depth):
    """Per-depth work rows of :func:`solve_ws` for lines of up to ``depth`` actions:
    (state words, action masks, action info, values, ints: n, next, best, seat, best key,
    result row)."""
    return (np.empty((depth + 1, GAME_WORDS), dtype=np.int64),
            np.empty((depth + 1, MAX_ACTIONS), dtype=np.int64),
            np.empty((depth + 1, MAX_ACTIONS, INFO_COLS), dtype=np.int64),
            np.empty((depth + 1, N_SEATS), dtype=np.int64),
            np.empty((depth + 1, 5), dtype=np.int64),
            np.empty((depth + 1, KEY_WORDS), dtype=np.int64),
            np.empty(N_RESULT, dtype=np.int64))


@njit(inline="always", cache=True)
def cards_left(ws):
    """Cards in the three hands together."""
    return popcount(ws[WS_HANDS]) + popcount(ws[WS_HANDS + 1]) + popcount(ws[WS_HANDS + 2])


@njit(inline="always", cache=True)
def seat_of(ws):
    """The seat to act (engine: current_player)."""
    if ws[S_PHASE] == PH_LEAD:
        return ws[S_LEAD]
    return ws[WS_QUEUE + ws[S_QI]]


@njit(inline="always", cache=True)
def tie_key(typ, mask):
    """The engine's sort key of an action as one int: kind, then card count, then mask."""
    return (typ << 54) | (popcount(mask) << 48) | mask


@njit(cache=True)
def position_key(ws, key):
    """Write the six key words of the position ``ws`` into ``key``.

    Fields that cannot matter in the phase are left out (the play to beat outside a trick,
    the 紧牌 limit outside the discards, the banker after 抢刺); the 掀 events enter only
    through what settlement reads of them: each (掀 seat, target) count and each target's
    last 掀 seat.
    """
    phase = ws[S_PHASE]
    q = 0
    sh = 0
    if phase != PH_LEAD:
        for i in range(ws[S_QI], ws[S_QLEN]):
            q |= (ws[WS_QUEUE + i] + 1) << sh
            sh += 2
    carry = phase == PH_LEAD or phase == PH_DISCARD
    key[0] = (ws[WS_HANDS] | (phase << 48) | (ws[S_LEAD] << 51)
              | ((ws[S_MUST_LEAD] if carry else 0) << 53)
              | ((ws[S_TIGHTENED] if carry else 0) << 54) | (q << 55))
    w1 = ws[WS_HANDS + 1]
    w2 = ws[WS_HANDS + 2]
    if phase == PH_TRICK:
        w1 |= ((ws[S_TOP_KIND] << 48) | (ws[S_TOP_SIZE] << 52) | ((ws[S_TOP_RANK] + 1) << 57))
        w2 |= (ws[S_TOP_K] << 48) | ((ws[S_TOP_OWNER] + 1) << 51)
    elif phase == PH_DISCARD:
        w2 |= ws[S_LIMIT] << 53
    elif phase == PH_QIANGCI:
        w2 |= ws[S_BANKER] << 58
    key[1] = w1
    key[2] = w2
    w3 = 0
    w4 = 0
    for s in range(N_SEATS):
        w3 |= ((ws[WS_CAP + s] | (ws[WS_NIU + s] << 6) | (ws[WS_XI + s] << 11)
                | (ws[WS_KKK + s] << 16) | (ws[WS_K108 + s] << 17)
                | (ws[WS_SAID_KOU + s] << 18)) << (19 * s))
        w4 |= ws[WS_LIANG + s] << (10 * s)
    w5 = 0
    for e in range(ws[S_N_XIAN]):
        x, t = ws[WS_XIAN_X + e], ws[WS_XIAN_T + e]
        w5 += 1 << (8 * (x * 2 + (t - x + 2) % 3))  # pair (x, t): 6 counters of 8 bits
        w4 = (w4 & ~(3 << (30 + 2 * t))) | ((x + 1) << (30 + 2 * t))  # t's last 掀 seat
    key[3] = w3
    key[4] = w4
    key[5] = w5


@njit(inline="always", cache=True)
def _mix(h, w):
    x = h ^ np.uint64(w)
    x = (x ^ (x >> np.uint64(33))) * _MIX1
    x = (x ^ (x >> np.uint64(29))) * _MIX2
    return x ^ (x >> np.uint64(32))


@njit(cache=True)
def _probe(tt, key, stamp):
    """Row of ``key`` in ``tt`` (this stamp), or -1 when absent."""
    h = np.uint64(0x9E3779B97F4A7C15)
    for i in range(KEY_WORDS):
        h = _mix(h, key[i])
    mask = tt.shape[0] - 1
    start = np.int64(h & np.uint64(0x7FFFFFFFFFFFFFFF)) & mask
    for p in range(PROBES):
        r = (start + p) & mask
        if (tt[r, KEY_WORDS] >> 38) != stamp:
            continue
        same = True
        for i in range(KEY_WORDS):
            if tt[r, i] != key[i]:
                same = False
                break
        if same:
            return r
    return -1


@njit(cache=True)
def _store(tt, key, stamp, vals, left):
    """Keep ``vals`` for ``key``: an empty probe, else the probe with the fewest cards left."""
    h = np.uint64(0x9E3779B97F4A7C15)
    for i in range(KEY_WORDS):
        h = _mix(h, key[i])
    mask = tt.shape[0] - 1
    start = np.int64(h & np.uint64(0x7FFFFFFFFFFFFFFF)) & mask
    row = start
    low = 1 << 30
    for p in range(PROBES):
        r = (start + p) & mask
        if (tt[r, KEY_WORDS] >> 38) != stamp:
            row = r
            break
        c = (tt[r, KEY_WORDS] >> 32) & 63
        if c < low:
            low = c
            row = r
    for i in range(KEY_WORDS):
        tt[row, i] = key[i]
    tt[row, KEY_WORDS] = ((vals[0] + _OFF) | ((vals[1] + _OFF) << 16) | (left << 32)
                          | (stamp << 38))


@njit(inline="always", cache=True)
def _unpack(word, vals):
    vals[0] = (word & 0xFFFF) - _OFF
    vals[1] = ((word >> 16) & 0xFFFF) - _OFF
    vals[2] = -vals[0] - vals[1]  # settlement is zero-sum


@njit(cache=True)
def list_actions(ws, params, set_beats, am, ai):
    """List the legal actions of the seat to act (as ``game.advance`` lists them with every
    list built in full); returns their number."""
    phase = ws[S_PHASE]
    seat = seat_of(ws)
    hand = ws[WS_HANDS + seat]
    if phase == PH_LEAD:
        n = _lead_options(ws, params, am, ai)
        return gen_plays(hand, params, set_beats, params[P_TABLE_CAP] - ws[S_TABLE], am, ai, n)
    if phase == PH_TRICK:
        n = gen_answers(hand, ws[S_TOP_KIND], ws[S_TOP_SIZE], ws[S_TOP_RANK], ws[S_TOP_K],
                        set_beats, am, ai, np.int64(0))
        if n == 0:  # 有吃必吃: pass only when nothing beats the top play
            n = _push(am, ai, n, ACT_PASS, 0, -1, 0, -1, 0)
        return n
    if phase == PH_QIANGCI:
        return _legal_qiangci(hand, params, am, ai)
    if phase == PH_KOU:
        return _legal_kou_ask(ws, seat, am, ai)
    return _legal_discard(hand, am, ai)


@njit(cache=True)
def apply_listed(ws, params, am, ai, j):
    """Apply entry ``j`` of the actions listed in ``am``, ``ai`` for the position ``ws``."""
    for c in range(INFO_COLS):
        ws[WS_INFO + c] = ai[j, c]
    typ = ai[j, 0]
    mask = am[j]
    apply_action(ws, params, ws[S_PHASE], seat_of(ws), typ, mask)


# columns of the per-depth int rows
_N, _NEXT, _BEST, _SEAT, _BKEY = range(5)


@njit(cache=True)
def _settle_into(ws, params, res, vals):
    finish_hand(params, ws, res)
    for s in range(N_SEATS):
        vals[s] = res[R_PTS0 + s]


@njit(cache=True)
def _open(d, rules, stack, tt, stamp):
    """Bring the position in row ``d`` to its next choice: returns 1 when it needs a search
    (its actions listed), 0 when its values are known (hand over, or in the table)."""
    params, set_beats = rules[0], rules[1]
    wss, ams, ais, vals, ints, keys, res = stack
    ws = wss[d]
    while True:
        if ws[S_PHASE] == PH_OVER:
            _settle_into(ws, params, res, vals[d])
            return 0
        key = keys[d]
        position_key(ws, key)
        r = _probe(tt, key, stamp)
        if r >= 0:
            _unpack(tt[r, KEY_WORDS], vals[d])
            return 0
        n = list_actions(ws, params, set_beats, ams[d], ais[d])
        if n == 1:  # forced: follow it in place
            apply_listed(ws, params, ams[d], ais[d], 0)
            continue
        ints[d, _N] = n
        ints[d, _NEXT] = 0
        ints[d, _BEST] = -1
        ints[d, _SEAT] = seat_of(ws)
        return 1


@njit(cache=True)
def _take(d, stack):
    """Fold the values of row ``d + 1`` (after action ``next`` of row ``d``) into row d."""
    wss, ams, ais, vals, ints, keys, res = stack
    j = ints[d, _NEXT]
    seat = ints[d, _SEAT]
    k = tie_key(ais[d, j, 0], ams[d, j])
    v = vals[d + 1, seat]
    if ints[d, _BEST] < 0 or v > vals[d, seat] or (v == vals[d, seat] and k < ints[d, _BKEY]):
        for s in range(N_SEATS):
            vals[d, s] = vals[d + 1, s]
        ints[d, _BEST] = j
        ints[d, _BKEY] = k
    ints[d, _NEXT] = j + 1


@njit(cache=True)
def solve_ws(ws0, rules, tt, stamp, stack, max_nodes):
    """Max-n values of the running hand ``ws0`` into ``stack[3][0]``; the best action is
    entry ``stack[4][0, 2]`` of the actions listed in ``stack[1][0]``, ``stack[2][0]``
    (the root is listed even when forced). Returns the positions searched, or -1 when the
    search gave up after ``max_nodes`` of them (the table keeps what was finished).

    ``tt`` is a table from :func:`new_table` (rules fixed per ``stamp``, a positive int
    below 2**25); ``stack`` is from :func:`new_stack` deep enough for the hand's rest.
    """
    params, set_beats = rules[0], rules[1]
    wss, ams, ais, vals, ints, keys, res = stack
    for i in range(GAME_WORDS):
        wss[0, i] = ws0[i]
    wss[0, S_TRACK] = 0  # no pass log in the search
    n = list_actions(wss[0], params, set_beats, ams[0], ais[0])
    ints[0, _N] = n
    ints[0, _NEXT] = 0
    ints[0, _BEST] = -1
    ints[0, _SEAT] = seat_of(wss[0])
    position_key(wss[0], keys[0])
    depth_max = wss.shape[0] - 1
    nodes = 1
    d = 0
    while True:
        if ints[d, _NEXT] < ints[d, _N]:
            if d == depth_max:
                raise IndexError("solver stack too shallow")
            c = d + 1
            for i in range(GAME_WORDS):
                wss[c, i] = wss[d, i]
            apply_listed(wss[c], params, ams[d], ais[d], ints[d, _NEXT])
            if _open(c, rules, stack, tt, stamp) == 1:
                d = c
                nodes += 1
                if nodes > max_nodes:
                    return -1
            else:
                _take(d, stack)
        else:
            if d == 0:
                _store(tt, keys[0], stamp, vals[0], cards_left(wss[0]))
                return nodes
            _store(tt, keys[d], stamp, vals[d], cards_left(wss[d]))
            d -= 1
            _take(d, stack)


@njit(cache=True)
def stack_depth(ws):
    """A stack depth that bounds the rest of the hand at ``ws``: each trick takes at least
    one card and at most seven actions (lead, two answers, 扣 and two answers, 紧牌), plus
    the discards and 抢刺 passes."""
    return 8 * cards_left(ws) + 8
