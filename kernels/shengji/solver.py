"""Exact 双升 play with all four hands open: the attackers' points still to come, by
alpha-beta (docs/rules/shengji.md §5, §6.1).

The play phase with every hand visible is a two-team zero-sum game: the attackers (the
team without the banker) maximise, the banker's team minimises, the points the attackers
take from the position on — the point cards of the tricks they win (the trick in progress
included), failed-throw penalties, and when they win the last trick the kitty's points
times the 抠底 multiplier. Points already taken do not change what is best, so the value
and the table's key leave them out.

The legal plays are those of the play kernels, enumerated: a lead is every sub-multiset of
one effective suit's cards that ``play.lead_error`` accepts and that stands
(``play.throw_units_in``); a follow every play of the right size that ``play.follow_error_in``
accepts (with at most the lead's size of the led suit, all of them plus every choice of the
rest). A throw that fails is left out: it plays its forced unit, itself a legal lead, and
costs the thrower's side the penalty, so it is never better for the side that throws
(penalties ≥ 0). So a card that a hand the stand check asks can beat enters multi-card
leads only as part of a pair: held once in a throw it is a single unit that fails. Trick
winners and the multiplier are ``play.trick_winner_in`` and ``play.kitty_multiplier``.

Search: fail-soft alpha-beta over single plays (lead, three follows; iterative, an
explicit stack: Numba's cache does not keep recursive functions), with a transposition
table at trick starts keyed on the four hands and the leader (9 words, compared in full:
a hit is exact) holding a lower and an upper bound and the best lead. Move ordering: the
table's lead first; a follow that puts the mover's team on top of the trick first (most
points first), else the cheapest in points first. Single cards that are provably
equivalent (``merge_singles``: one suit, the same points, no other card on the rungs between
them) are tried once.
"""

from __future__ import annotations

import numpy as np

from ..jit import njit
from .context import CX_ESUIT, CX_HIGHER, CX_RUNG, CX_RUNG_FACES, CX_SUIT_MASK, N_RUNGS
from .params import (
    KITTY_BASIS_LEAD_SHAPE,
    P_KITTY_BASIS,
    P_THROW_CHECK_PLAYERS,
    THROW_CHECK_OPPONENTS,
)
from .planes import add, count, lowest_bit, points, subtract
from .play import (
    FOLLOW_OK,
    LEAD_OK,
    follow_error_in,
    kitty_multiplier,
    lead_error,
    throw_units_in,
    trick_winner_in,
)
from .units import effective_suit, new_units, new_work

MAX_MOVES = 4096  # legal plays listed at one decision (more: the search gives up, -2)
INF = np.int64(1) << 60
KEY_WORDS = 9  # four hands (two planes each) and the leader
TT_LO, TT_HI, TT_BEST_ONE, TT_BEST_TWO, TT_USED = range(KEY_WORDS, KEY_WORDS + 5)
TT_COLS = KEY_WORDS + 5
# info row (int64[N_INFO]): positions searched, the limit, the attackers' parity, the kitty's
# points, the best root move's index, a give-up flag (1 too many positions, 2 too many moves)
I_NODES, I_LIMIT, I_ATTACKERS, I_KITTY, I_BEST, I_FAIL = range(6)
N_INFO = 6
_MIX1 = np.uint64(0xFF51AFD7ED558CCD)
_MIX2 = np.uint64(0xC4CEB9FE1A85EC53)


def new_table(log2_rows: int = 18) -> np.ndarray:
    """An empty transposition table of ``2**log2_rows`` rows (112 bytes each)."""
    return np.zeros((1 << log2_rows, TT_COLS), dtype=np.int64)


@njit(cache=True)
def new_stack(depth):
    """Per-depth rows of :func:`solve_position` for up to ``depth`` plays: (hands
    int64[depth+1, 4, 2], trick plays int64[depth+1, 4, 2], listed moves, their order
    scores, throw-check hands int64[3, 2], forced lead int64[2], units, work, info, the
    listing's own scratch int64[4, 64], the frame rows int64[depth+1, N_F] (``F_*``))."""
    return (np.zeros((depth + 1, 4, 2), dtype=np.int64),
            np.zeros((depth + 1, 4, 2), dtype=np.int64),
            np.zeros((depth + 1, MAX_MOVES, 2), dtype=np.int64),
            np.zeros((depth + 1, MAX_MOVES), dtype=np.int64),
            np.zeros((3, 2), dtype=np.int64), np.zeros(2, dtype=np.int64),
            new_units(), new_work(), np.zeros(N_INFO, dtype=np.int64),
            np.zeros((4, 64), dtype=np.int64), np.zeros((depth + 1, N_F), dtype=np.int64))


@njit(cache=True)
def _faces(one, two, fs, cs):
    """Faces of a set into ``fs`` with their counts in ``cs``; returns how many faces."""
    n = 0
    while one:
        f = lowest_bit(one)
        one &= one - 1
        fs[n] = f
        cs[n] = 2 if (two >> f) & 1 else 1
        n += 1
    return n


@njit(cache=True)
def _next_pick(dig, cs, n):
    """Step the mixed-radix counter ``dig`` (digit i in 0..cs[i]); False when it wraps."""
    i = 0
    while i < n:
        if dig[i] < cs[i]:
            dig[i] += 1
            return True
        dig[i] = 0
        i += 1
    return False


@njit(cache=True)
def _first_of_size(dig, cs, nf, need):
    """The first pick of exactly ``need`` cards (most of the lowest faces); False if the
    faces hold fewer."""
    left = need
    for i in range(nf):
        dig[i] = min(cs[i], left)
        left -= dig[i]
    return left == 0


@njit(cache=True)
def _next_of_size(dig, cs, nf):
    """The next pick of the same size (decreasing lexicographic order); False after the
    last."""
    tail = 0  # cards picked right of i
    room = 0  # room right of i
    for i in range(nf - 1, -1, -1):
        if dig[i] > 0 and tail < room:
            dig[i] -= 1
            r = tail + 1
            for j in range(i + 1, nf):
                dig[j] = min(cs[j], r)
                r -= dig[j]
            return True
        tail += dig[i]
        room += cs[i]
    return False


@njit(cache=True)
def _planes_of_pick(fs, dig, n):
    one = two = np.int64(0)
    for i in range(n):
        b = np.int64(1) << fs[i]
        if dig[i] >= 1:
            one |= b
        if dig[i] == 2:
            two |= b
    return one, two


@njit(cache=True)
def list_leads(h, leader, rules, moves, bufs):
    """The leads of ``leader`` from hands ``h`` that are legal and stand, into ``moves``;
    returns their number (-1: more than MAX_MOVES)."""
    ctx, params = rules
    others, forced, units, work, pick = bufs
    one, two = h[leader, 0], h[leader, 1]
    for k in range(3):
        s = (leader + 1 + k) % 4
        others[k, 0], others[k, 1] = h[s, 0], h[s, 1]
    checked = others[0, 0] | others[2, 0]  # the hands the stand check asks (§5.2)
    if params[P_THROW_CHECK_PLAYERS] != THROW_CHECK_OPPONENTS:
        checked |= others[1, 0]
    fs, cs, dig, beaten = pick[0], pick[1], pick[2], pick[3]
    n_moves = 0
    for e in range(5):
        mask = ctx[CX_SUIT_MASK + e]
        so, st = one & mask, two & mask
        if so == 0:
            continue
        nf = _faces(so, st, fs, cs)
        for i in range(nf):
            dig[i] = 0
            # a card a checked hand beats stands only as a lead of its own: in a throw it is
            # a single unit (held once there) that fails, so it enters throws as a pair only
            beaten[i] = (ctx[CX_HIGHER + fs[i]] & checked) != 0
            if beaten[i]:
                if n_moves == MAX_MOVES:
                    return -1
                moves[n_moves, 0], moves[n_moves, 1] = np.int64(1) << fs[i], 0
                n_moves += 1
                cs[i] = cs[i] // 2  # digit 1: the pair
        while _next_pick(dig, cs, nf):
            po = pt = np.int64(0)
            for i in range(nf):
                b = np.int64(1) << fs[i]
                if dig[i] >= 1:
                    po |= b
                if dig[i] == 2 or (dig[i] == 1 and beaten[i]):
                    pt |= b
            if lead_error(po, pt, one, two, ctx, params) != LEAD_OK:
                continue
            if throw_units_in(po, pt, others, ctx, params, forced, units, work) < 0:
                continue  # a failed throw: dominated by its forced unit (module docstring)
            if n_moves == MAX_MOVES:
                return -1
            moves[n_moves, 0], moves[n_moves, 1] = po, pt
            n_moves += 1
    return n_moves


@njit(cache=True)
def list_follows(h, seat, lead, rules, moves, bufs):
    """The legal follows of ``seat`` to ``lead`` (planes int64[2]) into ``moves``; returns
    their number (-1: more than MAX_MOVES)."""
    ctx = rules[0]
    units, work, pick = bufs[2], bufs[3], bufs[4]
    one, two = h[seat, 0], h[seat, 1]
    lo, lt = lead[0], lead[1]
    n = count(lo, lt)
    e = effective_suit(lo, ctx)
    mask = ctx[CX_SUIT_MASK + e]
    eo, et = one & mask, two & mask
    held = count(eo, et)
    fs, cs, dig = pick[0], pick[1], pick[2]
    n_moves = 0
    if held <= n:  # all of the led suit, and any choice of the rest
        ro, rt = subtract(one, two, eo, et)
        need = n - held
        nf = _faces(ro, rt, fs, cs)
        more = _first_of_size(dig, cs, nf, need)
        while more:
            po, pt = _planes_of_pick(fs, dig, nf)
            po, pt = add(eo, et, po, pt)
            if n_moves == MAX_MOVES:
                return -1
            moves[n_moves, 0], moves[n_moves, 1] = po, pt
            n_moves += 1
            more = _next_of_size(dig, cs, nf)
        return n_moves
    nf = _faces(eo, et, fs, cs)
    more = _first_of_size(dig, cs, nf, n)
    while more:
        po, pt = _planes_of_pick(fs, dig, nf)
        more = _next_of_size(dig, cs, nf)
        if follow_error_in(lo, lt, one, two, po, pt, ctx, (units, work)) != FOLLOW_OK:
            continue
        if n_moves == MAX_MOVES:
            return -1
        moves[n_moves, 0], moves[n_moves, 1] = po, pt
        n_moves += 1
    return n_moves


@njit(cache=True)
def merge_singles(moves, n_moves, h, trick, rules):
    """Drop each single-card move equivalent to a lower one listed; returns the moves left.

    Two single cards f below g of one effective suit are equivalent when the mover holds
    each once, they count the same points, and no other card (the four hands and the trick
    ``trick`` = (plays, k)) lies on a rung from f's to g's: swapping them maps every line
    after one onto a line after the other with the same tricks and points (every comparison
    with any other card, the follow duty, the stand checks and the units are the same).
    """
    ctx = rules[0]
    plays, k = trick
    j = 0
    for i in range(n_moves):
        fo = moves[i, 0]
        keep = True
        if moves[i, 1] == 0 and fo & (fo - 1) == 0:
            f = lowest_bit(fo)
            e, rf = ctx[CX_ESUIT + f], ctx[CX_RUNG + f]
            for q in range(j):
                go = moves[q, 0]
                if moves[q, 1] != 0 or go & (go - 1) != 0:
                    continue
                g = lowest_bit(go)
                if ctx[CX_ESUIT + g] != e or points(fo, 0) != points(go, 0):
                    continue
                lo, hi = min(rf, ctx[CX_RUNG + g]), max(rf, ctx[CX_RUNG + g])
                rng = np.int64(0)
                for r in range(lo, hi + 1):
                    rng |= ctx[CX_RUNG_FACES + N_RUNGS * e + r]
                copies = 0
                for s in range(4):
                    copies += count(h[s, 0] & rng, h[s, 1] & rng)
                for t in range(k):
                    copies += count(plays[t, 0] & rng, plays[t, 1] & rng)
                if copies == 2:  # f and g, each held once by the mover
                    keep = False
                    break
        if keep:
            moves[j, 0], moves[j, 1] = moves[i, 0], moves[i, 1]
            j += 1
    return j


@njit(cache=True, inline="always")
def _mix(h, w):
    x = h ^ np.uint64(w)
    x = (x ^ (x >> np.uint64(33))) * _MIX1
    x = (x ^ (x >> np.uint64(29))) * _MIX2
    return x ^ (x >> np.uint64(32))


@njit(cache=True)
def _row(tt, h, leader):
    """The table row of the position (hands ``h``, ``leader`` to lead): its own, or the
    one to overwrite (a fresh key written, bounds open); returns (row, found)."""
    x = np.uint64(0x9E3779B97F4A7C15)
    for s in range(4):
        x = _mix(x, h[s, 0])
        x = _mix(x, h[s, 1])
    x = _mix(x, leader)
    r = np.int64(x & np.uint64(0x7FFFFFFFFFFFFFFF)) & (tt.shape[0] - 1)
    if tt[r, TT_USED] != 0:
        same = tt[r, 8] == leader
        for s in range(4):
            if tt[r, 2 * s] != h[s, 0] or tt[r, 2 * s + 1] != h[s, 1]:
                same = False
        if same:
            return r, True
    return r, False


@njit(cache=True)
def _order(d, k, n_moves, leader, S, rules, best):
    """Order scores of the moves listed at depth ``d`` (higher first), sorted in place."""
    plays, moves, score = S[1], S[2], S[3]
    units, work = S[6], S[7]
    ctx, params = rules
    seat = (leader + k) % 4
    pl = plays[d]
    for j in range(n_moves):
        pts = points(moves[d, j, 0], moves[d, j, 1])
        if k == 0:
            hit = moves[d, j, 0] == best[0] and moves[d, j, 1] == best[1]
            score[d, j] = (1 << 40) if hit else -j
            continue
        pl[k, 0], pl[k, 1] = moves[d, j, 0], moves[d, j, 1]
        w = trick_winner_in(pl, k + 1, ctx, params, units, work)
        if (leader + w) % 2 == seat % 2:
            score[d, j] = 1000 + pts
        else:
            score[d, j] = -pts
    # insertion sort of moves by score, descending (stable)
    for j in range(1, n_moves):
        sc, mo, mt = score[d, j], moves[d, j, 0], moves[d, j, 1]
        i = j - 1
        while i >= 0 and score[d, i] < sc:
            score[d, i + 1] = score[d, i]
            moves[d, i + 1, 0], moves[d, i + 1, 1] = moves[d, i, 0], moves[d, i, 1]
            i -= 1
        score[d, i + 1], moves[d, i + 1, 0], moves[d, i + 1, 1] = sc, mo, mt


@njit(cache=True)
def _trick_end(d, leader, S, rules):
    """(attackers' points of the finished trick at depth ``d + 1``, its winner seat), the
    抠底 points included when it was the last trick and the attackers won it."""
    hands, plays, units, work, info = S[0], S[1], S[6], S[7], S[8]
    ctx, params = rules
    pl = plays[d + 1]
    w = trick_winner_in(pl, 4, ctx, params, units, work)
    winner = (leader + w) % 4
    pts = np.int64(0)
    if winner % 2 == info[I_ATTACKERS]:
        for j in range(4):
            pts += points(pl[j, 0], pl[j, 1])
        if hands[d + 1, winner, 0] == 0:
            basis = 0 if params[P_KITTY_BASIS] == KITTY_BASIS_LEAD_SHAPE else w
            pts += info[I_KITTY] * kitty_multiplier(pl[basis, 0], pl[basis, 1], ctx, params)
    return pts, winner


# columns of the per-depth int rows (stack[10])
F_K, F_LEADER, F_ALPHA, F_BETA, F_A0, F_B0, F_BEST, F_BEST_J, F_NEXT, F_N, F_ROW, F_FOUND, \
    F_OFFSET, F_BEST_ONE, F_BEST_TWO = range(15)
N_F = 16


@njit(cache=True)
def _enter(d, S, rules, tt):
    """Open the position at depth ``d`` (its k, leader and window set in its frame row):
    returns 1 when its moves are listed and it needs a search, 0 when its value is known
    (in the table; written to the frame's best), -1 when the search gives up."""
    hands, plays, moves, info, fr = S[0], S[1], S[2], S[8], S[10]
    info[I_NODES] += 1
    if info[I_NODES] > info[I_LIMIT]:
        info[I_FAIL] = 1
        return -1
    h = hands[d]
    k, leader = fr[d, F_K], fr[d, F_LEADER]
    alpha, beta = fr[d, F_ALPHA], fr[d, F_BETA]
    best_lead = (np.int64(-1), np.int64(-1))
    fr[d, F_FOUND] = 0
    if k == 0:
        row, found = _row(tt, h, leader)
        fr[d, F_ROW] = row
        if found:
            fr[d, F_FOUND] = 1
            lo, hi = tt[row, TT_LO], tt[row, TT_HI]
            if lo >= beta or lo == hi:
                fr[d, F_BEST] = lo
                return 0
            if hi <= alpha:
                fr[d, F_BEST] = hi
                return 0
            alpha, beta = max(alpha, lo), min(beta, hi)
            best_lead = (tt[row, TT_BEST_ONE], tt[row, TT_BEST_TWO])
    fr[d, F_ALPHA], fr[d, F_BETA] = alpha, beta
    fr[d, F_A0], fr[d, F_B0] = alpha, beta  # the window searched: what the result bounds
    seat = (leader + k) % 4
    bufs = (S[4], S[5], S[6], S[7], S[9])
    if k == 0:
        n_moves = list_leads(h, leader, rules, moves[d], bufs)
    else:
        n_moves = list_follows(h, seat, plays[d, 0], rules, moves[d], bufs)
    if n_moves < 0:
        info[I_FAIL] = 2
        return -1
    n_moves = merge_singles(moves[d], n_moves, h, (plays[d], k), rules)
    _order(d, k, n_moves, leader, S, rules, best_lead)
    fr[d, F_BEST] = -INF if seat % 2 == info[I_ATTACKERS] else INF
    fr[d, F_BEST_J], fr[d, F_NEXT], fr[d, F_N] = 0, 0, n_moves
    return 1


@njit(cache=True)
def _fold(d, v, S):
    """Take the value ``v`` of move ``next`` of depth ``d`` into its frame."""
    moves, info, fr = S[2], S[8], S[10]
    j = fr[d, F_NEXT]
    maxi = (fr[d, F_LEADER] + fr[d, F_K]) % 2 == info[I_ATTACKERS]
    if (maxi and v > fr[d, F_BEST]) or (not maxi and v < fr[d, F_BEST]):
        fr[d, F_BEST], fr[d, F_BEST_J] = v, j
        fr[d, F_BEST_ONE], fr[d, F_BEST_TWO] = moves[d, j, 0], moves[d, j, 1]
    if maxi:
        fr[d, F_ALPHA] = max(fr[d, F_ALPHA], v)
    else:
        fr[d, F_BETA] = min(fr[d, F_BETA], v)
    fr[d, F_NEXT] = fr[d, F_N] if fr[d, F_ALPHA] >= fr[d, F_BETA] else j + 1


@njit(cache=True)
def _store(d, S, tt):
    """Keep the finished trick-start position of depth ``d`` in the table: its result is an
    upper bound, a lower bound or exact by where it fell in the window searched."""
    h, fr = S[0][d], S[10]
    row, best = fr[d, F_ROW], fr[d, F_BEST]
    if fr[d, F_FOUND] == 0:
        for s in range(4):
            tt[row, 2 * s], tt[row, 2 * s + 1] = h[s, 0], h[s, 1]
        tt[row, 8] = fr[d, F_LEADER]
        tt[row, TT_LO], tt[row, TT_HI] = -INF, INF
        tt[row, TT_USED] = 1
    if best <= fr[d, F_A0]:
        tt[row, TT_HI] = min(tt[row, TT_HI], best)
    elif best >= fr[d, F_B0]:
        tt[row, TT_LO] = max(tt[row, TT_LO], best)
    else:
        tt[row, TT_LO], tt[row, TT_HI] = best, best
    tt[row, TT_BEST_ONE], tt[row, TT_BEST_TWO] = fr[d, F_BEST_ONE], fr[d, F_BEST_TWO]


@njit(cache=True)
def search(S, rules, tt):
    """Fail-soft alpha-beta from the position in depth 0 of ``S`` (its frame row set):
    the attackers' points to come, a value ≤ alpha an upper bound, ≥ beta a lower bound,
    else exact; iterative (an explicit stack, one row per play). Gives up (info I_FAIL)
    past the position limit or MAX_MOVES, returning 0."""
    hands, plays, moves, info, fr = S[0], S[1], S[2], S[8], S[10]
    got = _enter(0, S, rules, tt)
    if got < 0:
        return np.int64(0)
    if got == 0:
        return fr[0, F_BEST]
    d = 0
    while True:
        j = fr[d, F_NEXT]
        if j < fr[d, F_N]:
            k, leader = fr[d, F_K], fr[d, F_LEADER]
            seat = (leader + k) % 4
            mo, mt = moves[d, j, 0], moves[d, j, 1]
            c = d + 1
            h = hands[d]
            for s in range(4):
                hands[c, s, 0], hands[c, s, 1] = h[s, 0], h[s, 1]
            for i in range(k):
                plays[c, i, 0], plays[c, i, 1] = plays[d, i, 0], plays[d, i, 1]
            plays[c, k, 0], plays[c, k, 1] = mo, mt
            hands[c, seat, 0], hands[c, seat, 1] = subtract(h[seat, 0], h[seat, 1], mo, mt)
            pts = np.int64(0)
            if k < 3:
                fr[c, F_K], fr[c, F_LEADER] = k + 1, leader
            else:
                pts, winner = _trick_end(d, leader, S, rules)
                if hands[c, winner, 0] == 0:  # the hand is over
                    _fold(d, pts, S)
                    continue
                fr[c, F_K], fr[c, F_LEADER] = 0, winner
            fr[d, F_OFFSET] = pts
            fr[c, F_ALPHA], fr[c, F_BETA] = fr[d, F_ALPHA] - pts, fr[d, F_BETA] - pts
            got = _enter(c, S, rules, tt)
            if got < 0:
                return np.int64(0)
            if got == 0:
                _fold(d, pts + fr[c, F_BEST], S)
            else:
                d = c
        else:
            if fr[d, F_K] == 0:
                _store(d, S, tt)
            if d == 0:
                info[I_BEST] = fr[0, F_BEST_J]
                return fr[0, F_BEST]
            v = fr[d, F_BEST]
            d -= 1
            _fold(d, fr[d, F_OFFSET] + v, S)


@njit(cache=True)
def solve_position(pos, rules, tt, stack, max_nodes):
    """The attackers' points to come with every hand open at ``pos`` = (hands int64[4, 2],
    trick plays int64[4, 2], plays so far in the trick, leader, banker, the kitty's points):
    returns the value; the best move is row ``stack[8][I_BEST]`` of ``stack[2][0]``, the
    positions searched ``stack[8][I_NODES]`` (``stack[8][I_FAIL]`` non-zero: gave up)."""
    hands0, plays0, k, leader, banker, kitty_pts = pos
    hands, plays, info = stack[0], stack[1], stack[8]
    for s in range(4):
        hands[0, s, 0], hands[0, s, 1] = hands0[s, 0], hands0[s, 1]
        plays[0, s, 0], plays[0, s, 1] = plays0[s, 0], plays0[s, 1]
    info[:] = 0
    info[I_LIMIT] = max_nodes
    info[I_ATTACKERS] = (banker + 1) % 2
    info[I_KITTY] = kitty_pts
    fr = stack[10]
    fr[0, F_K], fr[0, F_LEADER], fr[0, F_ALPHA], fr[0, F_BETA] = k, leader, -INF, INF
    return search(stack, rules, tt)


@njit(cache=True)
def stack_depth(hands):
    """Plays left in the hand at most: four per card of the leader's hand size."""
    n = 0
    for s in range(4):
        n = max(n, count(hands[s, 0], hands[s, 1]))
    return 4 * n + 4


