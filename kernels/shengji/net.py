"""The policy ``net`` (id 3): a small network scores pimc's candidates at leads and follows.

At a lead or a follow with more than one candidate (pimc's set: the heuristic's choice; for a
lead the highest and the lowest unit of each suit; for a follow the low, feed and high follows
and, void in a plain lead, the low and high trump plays), each candidate ``c`` other than the
heuristic's choice ``h`` gets the value ``A(φ, x(c))``: the network's estimate, in units of
:data:`SCALE` points for the seat's side, of what playing ``c`` instead of ``h`` gains when
every seat plays the heuristic afterwards. The best candidate is played when its value is
above the row's ``NET_MARGIN``, else ``h``. With one candidate nothing is computed.

``φ`` (:data:`NET_STATE` inputs, once per decision) is the seat's view — its place in the
trick, its side, its cards and trumps, the trumps and points it cannot place, the trick's
points and whether its partner wins it, voids shown, the kitty if it buried it — and ``h``'s
candidate features; ``x(c)`` (:data:`NET_C`) is the candidate's: its points, cards, trumps,
pairs, broken pairs, top rung, whether it takes the trick so far (a follow) or stands (a
lead: no unit the seat cannot place beats it), which generators built it, and for a lead the
voids shown in its suit and what the seat keeps of it. All of it is read from the seat's
hand, the knowledge ``kn`` (``policies``: public or the seat's own) and the trick so far.

The network: ``h1 = relu(W1·[φ, x] + b1)``, ``h2 = relu(W2·h1 + b2)``, ``A = w3·h2 + b3``,
its weights in the row from ``NET_W`` on as :mod:`analyzer.core.mlp` packs them (``W1`` as
``[NET_IN, NET_H1]`` row by row, ``b1``, ``W2``, ``b2``, ``w3``, ``b3``). The state part of
the first layer is computed once per decision and shared by the candidates.

Self-play (``net_selfplay``) sets ``NET_EXPLORE`` (a uniform candidate with that probability)
and ``NET_LOG``: a logged decision plays every candidate out on the true deal by the
heuristic for all four seats (pimc's play-out) and writes each other candidate's input with
its gain over ``h`` into the net log of the pimc scratch; the true kitty those play-outs need
is put there by ``hand.play_hand_in`` and read by nothing else.
"""

from __future__ import annotations

import numpy as np

from ..arrays import copy_into
from ..fused import dense_adder, fma
from ..jit import njit, njit_counted, njit_uncounted
from ..rng import bounded, next_u64
from .context import CX_RUNG, CX_SUIT_MASK, TRUMP
from .heuristic import (
    MODE_FEED,
    MODE_HIGH,
    MODE_LOW,
    build_follow,
    build_ruff,
    heuristic_follow,
    heuristic_lead,
    single_follows,
    stands,
)
from .pimc import (
    MAX_CAND,
    NL_KITTY,
    NL_USED,
    PS_CAND,
    PS_HANDS,
    PS_KITTY,
    PS_TRICK,
    _playout_from,
)
from .planes import count, lowest_bit, points, popcount
from .play import takes_in, trick_so_far_in, trick_winner_in
from .policies import (
    KN_KITTY,
    KN_KITTY_SEAT,
    KN_KS,
    KN_VOID,
    NET_C,
    NET_EXPLORE,
    NET_H1,
    NET_H2,
    NET_IN,
    NET_LOG,
    NET_MARGIN,
    NET_S,
    NET_STATE,
    NET_W,
    unknown_cards,
)
from .random_policy import lead_pairs
from .units import U_FACES, U_PAIRS, decompose_suit, effective_suit

SCALE = 10.0  # points per unit of the network's value
# Candidate features (x, NET_C of them).
X_POINTS, X_CARDS, X_TRUMPS, X_PAIRS, X_BROKEN, X_TOP, X_TAKES = range(7)
X_LOW, X_FEED, X_HIGH, X_RUFF_LOW, X_RUFF_HIGH = range(7, 12)  # built by (a lead: low/high unit)
X_OPP_VOID, X_PARTNER_VOID, X_KEEP, X_THROW = range(12, 16)  # a lead's suit
# State features (φ[:NET_S]).
F_LEAD, F_SECOND, F_THIRD, F_LAST, F_ATTACKER, F_HELD, F_TRICK_POINTS, F_PARTNER_WINS, \
    F_TRUMP_LED, F_VOID_LED, F_TRUMPS, F_UNKNOWN_TRUMPS, F_KITTY_SIDE, F_UNKNOWN_POINTS, \
    F_KITTY_POINTS, F_OPP_VOIDS, F_PARTNER_VOIDS, F_LEAD_SIZE, F_TRUMP_LEADS = range(NET_S)
# offsets of the blocks in the parameter row
O_W1 = NET_W
O_B1 = O_W1 + NET_IN * NET_H1
O_W2 = O_B1 + NET_H1
O_B2 = O_W2 + NET_H1 * NET_H2
O_W3 = O_B2 + NET_H2
O_B3 = O_W3 + NET_H2
assert X_THROW + 1 == NET_C and F_TRUMP_LEADS + 1 == NET_S
# the first layer's sums over the state's inputs and over a candidate's, the second's
_state_h1 = dense_adder(NET_H1, NET_STATE)
_candidate_h1 = dense_adder(NET_H1, NET_C)
_relu_h2 = dense_adder(NET_H2, NET_H1, relu=True)


@njit(cache=True, inline="always")
def _add(ps, n, one, two, kinds, kind):
    # append a candidate unless listed (then mark the generator) or there is no room
    if one == 0:
        return n
    for i in range(n):
        if ps[PS_CAND + i, 0] == one and ps[PS_CAND + i, 1] == two:
            kinds[i] |= kind
            return n
    if n >= MAX_CAND:
        return n
    ps[PS_CAND + n, 0], ps[PS_CAND + n, 1] = one, two
    kinds[n] = kind
    return n + 1


@njit_uncounted
def lead_candidates(me, hand, rules, ps, units, kinds):
    """pimc's lead candidates (the heuristic's first) into ``ps[PS_CAND:]``; ``kinds[i]``:
    bit ``X_LOW`` and ``X_HIGH`` when candidate ``i`` is the lowest or highest unit of its
    suit. Returns how many."""
    seat, hp, kn = me
    ctx, params = rules
    o, t = heuristic_lead(seat, hand[0], hand[1], ctx, params, hp, kn, units)
    n = _add(ps, 0, o, t, kinds, 0)
    for e in (TRUMP, 0, 1, 2, 3):
        if hand[0] & ctx[CX_SUIT_MASK + e] == 0:
            continue
        nu = decompose_suit(hand[0], hand[1], ctx, e, units, 0)
        for i, kind in ((0, 1 << X_HIGH), (nu - 1, 1 << X_LOW)):
            f = units[i, U_FACES]
            n = _add(ps, n, f, f if units[i, U_PAIRS] > 0 else np.int64(0), kinds, kind)
    return n


@njit_uncounted
def follow_candidates(me, trick, lead, hand, rules, ps, bufs, kinds):
    """pimc's follow candidates (the heuristic's first) into ``ps[PS_CAND:]`` with the
    generators that built each in ``kinds``; returns how many."""
    plays = trick[0]
    ks, m, n2 = lead
    ctx = rules[0]
    work = bufs[1]
    o, t = heuristic_follow(me, trick, lead, hand[0], hand[1], rules, bufs)
    n = _add(ps, 0, o, t, kinds, 0)
    e = effective_suit(plays[0, 0], ctx)
    nl = count(plays[0, 0], plays[0, 1])
    mask = ctx[CX_SUIT_MASK + e]
    held_one, held_two = hand[0] & mask, hand[1] & mask
    if nl == 1 and count(held_one, held_two) != 1:
        # a single led: build_follow's card in each mode (from the led suit, or from the
        # whole hand when void in it), the three found in one pass over the faces
        if held_one == 0:
            held_one, held_two = hand[0], hand[1]
        lo, fe, hi = single_follows(held_one, held_two, ctx)
        for f, kind in ((lo, X_LOW), (fe, X_FEED), (hi, X_HIGH)):
            n = _add(ps, n, np.int64(1) << f, np.int64(0), kinds, 1 << kind)
    else:
        shape = (e, nl, ks, m, n2)
        for mode, kind in ((MODE_LOW, X_LOW), (MODE_FEED, X_FEED), (MODE_HIGH, X_HIGH)):
            o, t = build_follow(shape, hand[0], hand[1], mode, ctx, work)
            n = _add(ps, n, o, t, kinds, 1 << kind)
    tm = ctx[CX_SUIT_MASK + TRUMP]
    if e != TRUMP and hand[0] & mask == 0 and count(hand[0] & tm, hand[1] & tm) >= nl:
        n_pairs = n2
        for i in range(m):
            n_pairs -= ks[i]
        for high, kind in ((False, X_RUFF_LOW), (True, X_RUFF_HIGH)):
            o, t = build_ruff((ks, m, n_pairs), nl, hand[0] & tm, hand[1] & tm, high, ctx,
                              work)
            n = _add(ps, n, o, t, kinds, 1 << kind)
    return n


@njit_uncounted
def _top_rung(one, ctx):
    best = 0
    while one:
        f = lowest_bit(one)
        one &= one - 1
        best = max(best, ctx[CX_RUNG + f])
    return best


@njit_uncounted
def candidate_features(one, two, kind, view, so_far, rules, bufs, x):
    """The features of the candidate ``(one, two)`` (built by ``kind``) into ``x[:NET_C]``;
    ``view`` = (``seat``, ``kn``, ``hand``, ``unknown``, ``trick``); ``so_far``: a follow
    to a lead of several faces, the trick as ``play.trick_so_far_in`` gives it (``work``'s
    rows kept from it), else ``so_far[0]`` < 0."""
    seat, kn, hand, unk, trick = view
    plays, k = trick
    ctx, params = rules
    units, work = bufs
    for j in range(NET_C):
        x[j] = 0.0
    tm = ctx[CX_SUIT_MASK + TRUMP]
    n = count(one, two)
    x[X_POINTS] = points(one, two) / 20.0
    x[X_CARDS] = n / 8.0
    x[X_TRUMPS] = count(one & tm, two & tm) / n
    x[X_PAIRS] = popcount(two) / 4.0
    x[X_BROKEN] = popcount(one & ~two & hand[1]) / 2.0
    x[X_TOP] = _top_rung(one, ctx) / 15.0
    for b in range(X_LOW, X_RUFF_HIGH + 1):
        if (kind >> b) & 1:
            x[b] = 1.0
    if k == 0:
        e = effective_suit(one, ctx)
        x[X_TAKES] = 1.0 if stands(one, two, e, unk[0], unk[1], ctx, units) else 0.0
        opp = kn[KN_VOID + (seat + 1) % 4] | kn[KN_VOID + (seat + 3) % 4]
        if e != TRUMP and (opp >> e) & 1:
            x[X_OPP_VOID] = 1.0
        if (kn[KN_VOID + (seat + 2) % 4] >> e) & 1:
            x[X_PARTNER_VOID] = 1.0
        mask = ctx[CX_SUIT_MASK + e]
        x[X_KEEP] = (count(hand[0] & mask, hand[1] & mask) - n) / 10.0
        single = popcount(one) == 1 or (popcount(two) == popcount(one) and n == 2)
        x[X_THROW] = 0.0 if single else 1.0
    else:
        plays[k, 0], plays[k, 1] = one, two
        if so_far[0] >= 0:  # the trick so far decided once for all the candidates
            x[X_TAKES] = 1.0 if takes_in(one, two, plays, so_far, ctx, params, work) >= 0 \
                else 0.0
        else:
            w = trick_winner_in(plays, k + 1, ctx, params, units, work)
            x[X_TAKES] = 1.0 if w == k else 0.0


@njit_uncounted
def state_features(view, where, rules, bufs, phi):
    """φ[:NET_S] of the seat (``view`` as for :func:`candidate_features`, ``where`` =
    (``leader``, ``banker``))."""
    seat, kn, hand, unk, trick = view
    plays, k = trick
    ctx, params = rules
    units, work = bufs
    banker = where[1]
    for j in range(NET_S):
        phi[j] = 0.0
    phi[F_LEAD + k] = 1.0
    phi[F_ATTACKER] = 1.0 if seat % 2 != banker % 2 else 0.0
    phi[F_HELD] = count(hand[0], hand[1]) / 25.0
    tm = ctx[CX_SUIT_MASK + TRUMP]
    phi[F_TRUMPS] = count(hand[0] & tm, hand[1] & tm) / 12.0
    phi[F_UNKNOWN_TRUMPS] = count(unk[0] & tm, unk[1] & tm) / 20.0
    ks = kn[KN_KITTY_SEAT]
    phi[F_KITTY_SIDE] = 1.0 if ks >= 0 and ks % 2 == seat % 2 else 0.0
    phi[F_UNKNOWN_POINTS] = points(unk[0], unk[1]) / 100.0
    if ks == seat:
        phi[F_KITTY_POINTS] = points(kn[KN_KITTY], kn[KN_KITTY + 1]) / 25.0
    opp = kn[KN_VOID + (seat + 1) % 4] | kn[KN_VOID + (seat + 3) % 4]
    phi[F_OPP_VOIDS] = popcount(opp & 15) / 4.0
    phi[F_PARTNER_VOIDS] = popcount(kn[KN_VOID + (seat + 2) % 4] & 15) / 4.0
    if k > 0:
        pts = 0
        for i in range(k):
            pts += points(plays[i, 0], plays[i, 1])
        phi[F_TRICK_POINTS] = pts / 20.0
        w = 0 if k == 1 else trick_winner_in(plays, k, ctx, params, units, work)
        phi[F_PARTNER_WINS] = 1.0 if w % 2 == k % 2 else 0.0
        e = effective_suit(plays[0, 0], ctx)
        phi[F_TRUMP_LED] = 1.0 if e == TRUMP else 0.0
        mask = ctx[CX_SUIT_MASK + e]
        phi[F_VOID_LED] = 1.0 if hand[0] & mask == 0 else 0.0
        phi[F_LEAD_SIZE] = count(plays[0, 0], plays[0, 1]) / 8.0
    phi[F_TRUMP_LEADS] = 1.0 if unk[0] & tm == 0 else 0.0  # no trump out: plain leads stand


@njit_uncounted
def decision_inputs(me, trick, where, hand, rules, ps, bufs, nw):
    """List the candidates of the decision (``pimc_choose``'s arguments) into
    ``ps[PS_CAND:]`` and write φ (with the heuristic's choice) into ``nw[0][0]`` and each
    candidate's x into ``nw[0][1 + c]``; returns how many candidates (1: nothing written)."""
    seat, hp, kn = me
    plays, k = trick
    ctx = rules[0]
    units = bufs[0]
    rows, _, kinds, _ = nw
    if k == 0:
        n = lead_candidates(me, hand, rules, ps, units, kinds)
    else:
        e = effective_suit(plays[0, 0], ctx)
        nl = count(plays[0, 0], plays[0, 1])
        mask = ctx[CX_SUIT_MASK + e]
        held_one, held_two = hand[0] & mask, hand[1] & mask
        if count(held_one, held_two) == nl or count(hand[0], hand[1]) == nl:
            # forced: the suit's cards exactly, or the last cards (the heuristic's play too)
            if count(held_one, held_two) != nl:
                held_one, held_two = hand[0], hand[1]
            ps[PS_CAND, 0], ps[PS_CAND, 1] = held_one, held_two
            return 1
        ks = kn[KN_KS:]
        m, n2 = lead_pairs(plays[0, 0], plays[0, 1], ctx, e, units, ks)
        n = follow_candidates(me, trick, (ks, m, n2), hand, rules, ps, bufs, kinds)
    if n == 1:
        return n
    unk = unknown_cards(kn, seat, hand[0], hand[1])
    view = (seat, kn, hand, unk, trick)
    phi = rows[0]
    state_features(view, where, rules, bufs, phi)
    so_far = (-1, 0, 0, 0, 0)
    if k > 0 and plays[0, 0] & (plays[0, 0] - 1) != 0:
        so_far = trick_so_far_in(plays, k, ctx, rules[1], units, bufs[1])
    for c in range(n):
        candidate_features(ps[PS_CAND + c, 0], ps[PS_CAND + c, 1], kinds[c], view, so_far,
                           rules, bufs, rows[1 + c])
    for j in range(NET_C):
        phi[NET_S + j] = rows[1, j]
    return n


@njit_uncounted
def net_values(rows, n, w, q, sums):
    """The network's value of candidates 1 .. n - 1 (inputs ``rows``) into ``q[1:n]``;
    ``sums`` (float64[3, NET_H1]) is room for the hidden layers' sums."""
    # each sum is a chain of fused multiply-adds in input order (the rounding is fixed by
    # this code, not the compiler); a zero input, or a hidden unit at or below 0 through
    # the relu, adds exactly nothing, so it is added rather than tested for
    pre, h, z = sums[0], sums[1], sums[2]  # the state's share of h, h, the second layer
    _state_h1(pre, w, O_B1, rows[0], 0, w, O_W1)
    for c in range(1, n):
        _candidate_h1(h, pre, 0, rows[1 + c], 0, w, O_W1 + NET_STATE * NET_H1)
        _relu_h2(z, w, O_B2, h, 0, w, O_W2)
        out = w[O_B3]
        for t in range(NET_H2):
            out = fma(max(z[t], 0.0), w[O_W3 + t], out)
        q[c] = out


@njit_uncounted
def net_pick(nw, n, hp):
    """Index of net's candidate: the best of 1 .. n - 1 by value if that value is above
    ``hp[NET_MARGIN]``, else 0 (the heuristic's choice; also on a tie); ``nw``: net's work
    (``pimc.with_net_log``) with the decision's inputs written."""
    rows, q, _, sums = nw
    net_values(rows, n, hp, q, sums)
    best = 0
    top = hp[NET_MARGIN]
    for c in range(1, n):
        if q[c] > top:
            best, top = c, q[c]
    return best


@njit(cache=True, forceinline=True)
def _uniform(rng):
    return float(next_u64(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


# the play-outs allocate, and the uncounted net_choose calls this
@njit_counted
def _log_playouts(me, trick, where, h, n, rules, pst, bufs):
    # every candidate played out on the true deal (heuristic for all seats); each other
    # candidate's input and gain over the heuristic's choice (in SCALE points for the
    # seat's side) appended to the net log while it has room
    seat, hp, kn = me
    plays, k = trick
    ps, kn2, _, score, log, nw = pst  # unpacked: pst may be typed Optional
    ints, xs, ys = log
    rows = nw[0]
    if ints[NL_USED] + n - 1 > ys.shape[0]:
        return
    for j in range(4):
        ps[PS_HANDS + j, 0], ps[PS_HANDS + j, 1] = h[j, 0], h[j, 1]
    ps[PS_KITTY, 0], ps[PS_KITTY, 1] = ints[NL_KITTY], ints[NL_KITTY + 1]
    sign = 1.0 if seat % 2 != where[1] % 2 else -1.0
    vals = score[0]
    for c in range(n):
        copy_into(kn2, kn)
        for i in range(k):
            ps[PS_TRICK + i, 0], ps[PS_TRICK + i, 1] = plays[i, 0], plays[i, 1]
        if k > 0:
            ps[PS_TRICK + k, 0], ps[PS_TRICK + k, 1] = ps[PS_CAND + c, 0], ps[PS_CAND + c, 1]
        vals[c] = sign * _playout_from(ps, kn2, k, where, (seat, c), rules, hp, bufs)
    for c in range(1, n):
        r = ints[NL_USED]
        for j in range(NET_STATE):
            xs[r, j] = rows[0, j]
        for j in range(NET_C):
            xs[r, NET_STATE + j] = rows[1 + c, j]
        ys[r] = (vals[c] - vals[0]) / SCALE
        ints[NL_USED] = r + 1


@njit_uncounted
def net_choose(me, trick, where, h, rules, rng, pst, bufs):
    """net's play (module docstring) as planes, with ``pimc_choose``'s arguments; ``pst`` is
    the pimc scratch with its net log and net work (``pimc.with_net_log``)."""
    seat, hp, kn = me
    plays, k = trick
    ps, _, _, _, _, nw = pst  # unpacked: pst may be typed Optional
    hand = (h[seat, 0], h[seat, 1])
    n = decision_inputs(me, trick, where, hand, rules, ps, bufs, nw)
    if n == 1:
        return ps[PS_CAND, 0], ps[PS_CAND, 1]
    pick = net_pick(nw, n, hp)
    if hp[NET_EXPLORE] > 0.0 and _uniform(rng) < hp[NET_EXPLORE]:
        pick = bounded(rng, n)
    if hp[NET_LOG] > 0.0 and _uniform(rng) < hp[NET_LOG]:
        # the play-outs overwrite the candidate rows' trick scratch only; the pick is kept
        o, t = ps[PS_CAND + pick, 0], ps[PS_CAND + pick, 1]
        _log_playouts(me, trick, where, h, n, rules, pst, bufs)
        return o, t
    return ps[PS_CAND + pick, 0], ps[PS_CAND + pick, 1]

