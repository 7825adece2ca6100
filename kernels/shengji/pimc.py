"""The pimc policy's leads and follows: perfect-information Monte Carlo over the hidden
cards, play-outs by the heuristic; what the seat may know is docs/rules/shengji.md §9
and docs/policies.md, '双升'.

At a lead or a follow with more than one candidate, the seat deals the cards it cannot place
``pimc_samples`` times (``sample_hidden``): each other seat gets as many cards as it holds
(hand sizes are public), the kitty its 8 unless the seat buried it, every card a seat has
shown (declared, or in a failed throw) and not played since stays with that seat, and a seat
that has shown void in an effective suit gets none of it. Cards are placed one by one in a
random order, each in a slot drawn uniformly among the free slots that may hold it; a dead
end redraws. Each candidate is then played out on each sampled deal by the heuristic for all
four seats, every candidate on the same sampled deals. The candidate whose mean gain over the
heuristic's choice in points for the seat's side (attackers: their points after 抠底; banker
side: minus those) is largest is taken if that gain is more than ``pimc_z`` standard errors
above 0; otherwise the heuristic's choice stands. Candidates: the heuristic's choice; for a
lead, the highest and the lowest unit of each suit; for a follow, the low, feed and high
follows and the low and high trump plays when void. The sampler reads the other hands' sizes
only.
"""

from __future__ import annotations

import numpy as np

from ..arrays import copy_into, copy_rows
from ..jit import njit, njit_counted
from ..rng import bounded
from .context import CX_ESUIT, CX_SUIT_MASK, TRUMP
from .heuristic import (
    MODE_FEED,
    MODE_HIGH,
    MODE_LOW,
    build_follow,
    build_ruff,
    heuristic_follow,
    heuristic_lead,
)
from .params import KITTY_BASIS_LEAD_SHAPE, P_KITTY_BASIS
from .planes import add_face, count, lowest_bit, points, subtract
from .play import kitty_multiplier, throw_units_in, trick_winner_in
from .policies import (
    KN_BY,
    KN_KITTY,
    KN_KITTY_SEAT,
    KN_KS,
    KN_SHOWN,
    KN_SIZE,
    KN_VOID,
    NET_H1,
    NET_IN,
    NET_STATE,
    P_PIMC_SAMPLES,
    P_PIMC_Z,
    note_play,
    unknown_cards,
)
from .random_policy import lead_pairs
from .units import U_FACES, U_PAIRS, decompose_suit, effective_suit

MAX_CAND = 24
# Rows of the pimc scratch planes (int64[PS_ROWS, 2]).
PS_HANDS, PS_KITTY, PS_PLAY, PS_TRICK, PS_OTHERS, PS_FORCED, PS_CAND = 0, 4, 5, 9, 13, 16, 17
PS_FIXED = PS_CAND + MAX_CAND  # the cards each seat is known to hold
PS_ROWS = PS_FIXED + 4
# Integer room after the card buffer (int64[BUF_SIZE]): hand sizes and free slots.
BUF_SIZES, BUF_CAPS, BUF_FREE = 108, 112, 117
BUF_SIZE = 122
# The net log's integers (``with_net_log``): the true kitty, then the rows used.
NL_KITTY, NL_USED = 0, 2
NL_SIZE = 3


@njit(cache=True)
def new_pimc_scratch():
    """``(planes int64[PS_ROWS, 2], knowledge copy, card buffer, scores, net log)``; the
    scores' rows: one sample's values, and the sums and squares of each candidate's gain
    over the heuristic's choice; the net log (``kernels.shengji.net.new_net_log``) has no
    rows here (only self-play logs)."""
    return with_net_log(0)


@njit(cache=True)
def with_net_log(rows):
    """:func:`new_pimc_scratch` with room for ``rows`` logged net inputs. The net log:
    ``(ints int64[NL_SIZE], inputs float32[rows, NET_IN], targets float32[rows])``, ints: the
    true kitty (for self-play's play-outs only) and the rows used; then net's work
    (``kernels.shengji.net.net_choose``): its inputs (row 0 φ, row 1 + c candidate c), the
    candidates' values, the generators that built each and the network's hidden sums."""
    return (np.zeros((PS_ROWS, 2), dtype=np.int64), np.zeros(KN_SIZE, dtype=np.int64),
            np.zeros(BUF_SIZE, dtype=np.int64), np.zeros((3, MAX_CAND), dtype=np.float64),
            (np.zeros(NL_SIZE, dtype=np.int64), np.zeros((rows, NET_IN), dtype=np.float32),
             np.zeros(rows, dtype=np.float32)),
            (np.zeros((1 + MAX_CAND, NET_STATE), dtype=np.float64),
             np.zeros(MAX_CAND, dtype=np.float64), np.zeros(MAX_CAND, dtype=np.int64),
             np.zeros((3, NET_H1), dtype=np.float64)))


@njit(cache=True, inline="always")
def _held_still(shown_one, shown_two, by_one, by_two):
    # shown cards not played since, as planes (per face: copies shown less copies played)
    one = np.int64(0)
    two = np.int64(0)
    rest = shown_one
    while rest:
        f = lowest_bit(rest)
        rest &= rest - 1
        c = 1 + ((shown_two >> f) & 1) - ((by_one >> f) & 1) - ((by_two >> f) & 1)
        if c >= 1:
            one |= np.int64(1) << f
        if c >= 2:
            two |= np.int64(1) << f
    return one, two


@njit(cache=True)
def sample_hidden(seat, hand_one, hand_two, kn, ctx, rng, ps, buf):
    """Deal the cards ``seat`` cannot place into ``ps[PS_HANDS + j]`` (its own hand at
    ``seat``) and ``ps[PS_KITTY]`` (module docstring); ``buf[BUF_SIZES + j]``: the hands'
    card counts. Returns False when 50 draws all met a dead end."""
    unk_one, unk_two = unknown_cards(kn, seat, hand_one, hand_two)
    caps = buf[BUF_CAPS:BUF_CAPS + 5]  # four seats and the kitty
    caps[:] = 0
    for j in range(4):
        ps[PS_HANDS + j, 0], ps[PS_HANDS + j, 1] = 0, 0
        ps[PS_FIXED + j, 0], ps[PS_FIXED + j, 1] = 0, 0
        if j == seat:
            continue
        o, t = _held_still(kn[KN_SHOWN + 2 * j], kn[KN_SHOWN + 2 * j + 1],
                           kn[KN_BY + 2 * j], kn[KN_BY + 2 * j + 1])
        o, t = o & unk_one, t & unk_two
        ps[PS_FIXED + j, 0], ps[PS_FIXED + j, 1] = o, t
        unk_one, unk_two = subtract(unk_one, unk_two, o, t)
        caps[j] = buf[BUF_SIZES + j] - count(o, t)
        if caps[j] < 0:
            return False
    if kn[KN_KITTY_SEAT] == seat:
        ps[PS_KITTY, 0], ps[PS_KITTY, 1] = kn[KN_KITTY], kn[KN_KITTY + 1]
    else:
        caps[4] = 8
    n = 0
    for plane in (unk_one, unk_two):
        while plane:
            buf[n] = lowest_bit(plane)
            plane &= plane - 1
            n += 1
    for _ in range(50):
        if _place(seat, n, kn, ctx, rng, ps, buf):
            ps[PS_HANDS + seat, 0], ps[PS_HANDS + seat, 1] = hand_one, hand_two
            return True
    return False


@njit(cache=True, inline="always")  # one caller: a layer compiled apart re-optimizes all below it
def _place(seat, n, kn, ctx, rng, ps, buf):
    # one random placement of buf[:n]; False at a dead end
    caps = buf[BUF_FREE:BUF_FREE + 5]
    copy_into(caps, buf[BUF_CAPS:BUF_CAPS + 5])
    for j in range(4):
        ps[PS_HANDS + j, 0], ps[PS_HANDS + j, 1] = ps[PS_FIXED + j, 0], ps[PS_FIXED + j, 1]
    if caps[4] > 0:
        ps[PS_KITTY, 0], ps[PS_KITTY, 1] = 0, 0
    for i in range(n):
        r = i + bounded(rng, n - i)
        buf[i], buf[r] = buf[r], buf[i]
        f = buf[i]
        e = ctx[CX_ESUIT + f]
        total = caps[4]
        for j in range(4):
            if j != seat and (kn[KN_VOID + j] >> e) & 1 == 0:
                total += caps[j]
        if total == 0:
            return False
        pick = bounded(rng, total)
        slot = 4
        for j in range(4):
            if j != seat and (kn[KN_VOID + j] >> e) & 1 == 0:
                if pick < caps[j]:
                    slot = j
                    break
                pick -= caps[j]
        caps[slot] -= 1
        row = PS_KITTY if slot == 4 else PS_HANDS + slot
        ps[row, 0], ps[row, 1] = add_face(ps[row, 0], ps[row, 1], f)
    return True


@njit(cache=True)
def _finish_trick(h, trick, leader, rules, hp, kn, bufs):
    # plays[k..3] of ``trick`` = (plays, k) by the heuristic, each taken out of its hand;
    # returns the winner's index
    plays, k = trick
    ctx, params = rules
    units, work = bufs
    e = effective_suit(plays[0, 0], ctx)
    mask = ctx[CX_SUIT_MASK + e]
    n = count(plays[0, 0], plays[0, 1])
    ks = kn[KN_KS:]
    m, n2 = lead_pairs(plays[0, 0], plays[0, 1], ctx, e, units, ks)
    for i in range(k, 4):
        s = (leader + i) % 4
        o, t = heuristic_follow((s, hp, kn), (plays, i), (ks, m, n2), h[s, 0], h[s, 1],
                                rules, bufs)
        plays[i, 0], plays[i, 1] = o, t
        h[s, 0], h[s, 1] = subtract(h[s, 0], h[s, 1], o, t)
        note_play(kn, s, o, t, e, mask, n)
    return trick_winner_in(plays, 4, ctx, params, units, work)


@njit(cache=True)
def _lead_in(h, leader, lead, rows, rules, kn, bufs):
    # the lead ``lead`` = (one, two) (a throw checked against the other hands), taken out of
    # the leader's hand; ``rows`` = (plays, others, forced): the play rows
    a_one, a_two = lead
    plays, others, forced = rows
    ctx, params = rules
    units, work = bufs
    for j in range(3):
        s = (leader + 1 + j) % 4
        others[j, 0], others[j, 1] = h[s, 0], h[s, 1]
    throw_units_in(a_one, a_two, others, ctx, params, forced, units, work)
    plays[0, 0], plays[0, 1] = forced[0], forced[1]
    h[leader, 0], h[leader, 1] = subtract(h[leader, 0], h[leader, 1], forced[0], forced[1])
    note_play(kn, leader, forced[0], forced[1], 0, 0, 0)


@njit(cache=True)
def playout(ps, kn2, k, where, cand, rules, hp, bufs):
    """The attackers' points from here on when the sampled deal (``ps`` hands and kitty,
    copied to its play rows) is played out with candidate ``ps[cand]`` as play ``k`` of the
    trick ``ps[PS_TRICK:PS_TRICK + k]`` led by ``leader`` (``where`` = (``leader``,
    ``banker``)), every seat heuristic; ``kn2`` is a copy of the knowledge, changed;
    ``rules`` = (``ctx``, ``params``), ``bufs`` = (``units``, ``work``)."""
    leader, banker = where
    ctx, params = rules
    units, work = bufs
    h = ps[PS_PLAY:PS_PLAY + 4]
    copy_rows(h, ps[PS_HANDS:PS_HANDS + 4])
    plays = ps[PS_TRICK:PS_TRICK + 4]
    others, forced = ps[PS_OTHERS:PS_OTHERS + 3], ps[PS_FORCED]
    attackers = (banker + 1) % 2
    pts = 0
    rows = (plays, others, forced)
    if k == 0:
        _lead_in(h, leader, (ps[cand, 0], ps[cand, 1]), rows, rules, kn2, bufs)
        k = 1
    while True:
        w = _finish_trick(h, (plays, k), leader, rules, hp, kn2, bufs)
        tp = 0
        for i in range(4):
            tp += points(plays[i, 0], plays[i, 1])
        leader = (leader + w) % 4
        if leader % 2 == attackers:
            pts += tp
        if h[leader, 0] == 0:
            if leader % 2 == attackers:
                basis = 0 if params[P_KITTY_BASIS] == KITTY_BASIS_LEAD_SHAPE else w
                pts += points(ps[PS_KITTY, 0], ps[PS_KITTY, 1]) * kitty_multiplier(
                    plays[basis, 0], plays[basis, 1], ctx, params)
            return pts
        lead = heuristic_lead(leader, h[leader, 0], h[leader, 1], ctx, params, hp, kn2, units)
        _lead_in(h, leader, lead, rows, rules, kn2, bufs)
        k = 1


@njit(cache=True, inline="always")
def _add_cand(ps, n, one, two):
    # append a candidate unless it is already listed or there is no room
    if one == 0 or n >= MAX_CAND:
        return n
    for i in range(n):
        if ps[PS_CAND + i, 0] == one and ps[PS_CAND + i, 1] == two:
            return n
    ps[PS_CAND + n, 0], ps[PS_CAND + n, 1] = one, two
    return n + 1


@njit(cache=True)
def _lead_candidates(me, hand_one, hand_two, rules, ps, units):
    seat, hp, kn = me
    ctx, params = rules
    n = 0
    o, t = heuristic_lead(seat, hand_one, hand_two, ctx, params, hp, kn, units)
    n = _add_cand(ps, n, o, t)
    for e in (TRUMP, 0, 1, 2, 3):
        if hand_one & ctx[CX_SUIT_MASK + e] == 0:
            continue
        nu = decompose_suit(hand_one, hand_two, ctx, e, units, 0)
        for i in (0, nu - 1):
            f = units[i, U_FACES]
            n = _add_cand(ps, n, f, f if units[i, U_PAIRS] > 0 else np.int64(0))
    return n


@njit(cache=True)
def _follow_candidates(me, trick, lead, hand_one, hand_two, rules, ps, bufs):
    plays = trick[0]
    ks, m, n2 = lead
    ctx = rules[0]
    work = bufs[1]
    o, t = heuristic_follow(me, trick, lead, hand_one, hand_two, rules, bufs)
    n = _add_cand(ps, 0, o, t)
    e = effective_suit(plays[0, 0], ctx)
    nl = count(plays[0, 0], plays[0, 1])
    shape = (e, nl, ks, m, n2)
    for mode in (MODE_LOW, MODE_FEED, MODE_HIGH):
        o, t = build_follow(shape, hand_one, hand_two, mode, ctx, work)
        n = _add_cand(ps, n, o, t)
    mask = ctx[CX_SUIT_MASK + e]
    tm = ctx[CX_SUIT_MASK + TRUMP]
    if e != TRUMP and hand_one & mask == 0 and count(hand_one & tm, hand_two & tm) >= nl:
        n_pairs = n2
        for i in range(m):
            n_pairs -= ks[i]
        for high in (False, True):
            o, t = build_ruff((ks, m, n_pairs), nl, hand_one & tm, hand_two & tm, high, ctx,
                              work)
            n = _add_cand(ps, n, o, t)
    return n


# it allocates (the play-outs), and the uncounted search.search_choose calls it
@njit_counted
def pimc_choose(me, trick, where, h, rules, rng, pst, bufs):
    """The pimc play (module docstring) of ``me`` = (``seat``, its parameter row ``hp``,
    its knowledge ``kn``) as play ``k`` (0: the lead) of ``trick`` = (``plays``, ``k``),
    the trick ``plays[:k]`` so far, with ``where`` = (``leader``, ``banker``). ``h``: the
    hands, of which only the seat's own and the others' sizes are read; ``rules`` =
    (``ctx``, ``params``), ``pst`` the pimc scratch, ``bufs`` = (``units``, ``work``).
    Returns the play as planes."""
    seat, _, kn = me
    plays, k = trick
    ctx = rules[0]
    units = bufs[0]
    ps, _, _, _, _, _ = pst  # unpacked: pst may be typed Optional
    hand_one, hand_two = h[seat, 0], h[seat, 1]
    ks = kn[KN_KS:]
    if k == 0:
        n = _lead_candidates(me, hand_one, hand_two, rules, ps, units)
    else:
        e = effective_suit(plays[0, 0], ctx)
        m, n2 = lead_pairs(plays[0, 0], plays[0, 1], ctx, e, units, ks)
        n = _follow_candidates(me, trick, (ks, m, n2), hand_one, hand_two, rules, ps, bufs)
    if n == 1:
        return ps[PS_CAND, 0], ps[PS_CAND, 1]
    best = search_candidates(me, trick, where, (h, n), rules, rng, pst, bufs)
    return ps[PS_CAND + best, 0], ps[PS_CAND + best, 1]


@njit(cache=True)
def search_candidates(me, trick, where, listed, rules, rng, pst, bufs):
    """Index of the candidate pimc takes among those listed in ``ps[PS_CAND:]``
    (``pimc_choose``'s arguments; ``listed`` = (``h``, ``n``): the hands and how many
    candidates): each is played out on ``hp[P_PIMC_SAMPLES]`` sampled deals, and the one of
    largest mean gain over candidate 0 is taken if that gain is more than ``hp[P_PIMC_Z]``
    standard errors above 0; else 0."""
    seat, hp, kn = me
    h, n = listed
    plays, k = trick
    banker = where[1]
    ctx = rules[0]
    ps, kn2, buf, score, _, _ = pst  # unpacked: pst may be typed Optional
    hand_one, hand_two = h[seat, 0], h[seat, 1]
    for j in range(4):
        buf[BUF_SIZES + j] = count(h[j, 0], h[j, 1])
    vals, gain, gain_sq = score[0], score[1], score[2]
    gain[:n] = 0.0
    gain_sq[:n] = 0.0
    sign = 1.0 if seat % 2 != banker % 2 else -1.0
    done = 0
    for _ in range(int(hp[P_PIMC_SAMPLES])):
        if not sample_hidden(seat, hand_one, hand_two, kn, ctx, rng, ps, buf):
            break
        done += 1
        for c in range(n):
            copy_into(kn2, kn)
            for i in range(k):
                ps[PS_TRICK + i, 0], ps[PS_TRICK + i, 1] = plays[i, 0], plays[i, 1]
            if k > 0:
                ps[PS_TRICK + k, 0], ps[PS_TRICK + k, 1] = ps[PS_CAND + c, 0], \
                    ps[PS_CAND + c, 1]
            vals[c] = sign * _playout_from(ps, kn2, k, where, (seat, c), rules, hp, bufs)
        for c in range(1, n):
            d = vals[c] - vals[0]
            gain[c] += d
            gain_sq[c] += d * d
    return _best(gain, gain_sq, n, done, hp[P_PIMC_Z])


@njit(cache=True)
def _best(gain, gain_sq, n, done, z):
    # the candidate of largest mean gain over the heuristic's choice (candidate 0), if that
    # gain is more than ``z`` standard errors above 0; else candidate 0
    best = 0
    if done < 2:
        return best
    for c in range(1, n):
        if best == 0 or gain[c] > gain[best]:
            if gain[c] > 0:
                best = c
    if best == 0:
        return 0
    mean = gain[best] / done
    var = max(gain_sq[best] - done * mean * mean, 0.0) / (done - 1)
    return best if mean > z * np.sqrt(var / done) else 0


@njit(cache=True)
def _playout_from(ps, kn2, k, where, pick, rules, hp, bufs):
    # ``pick`` = (seat, c): the seat's candidate c; a follow candidate is already in the
    # trick: take it out of the sampled hand first
    seat, c = pick
    ctx = rules[0]
    if k == 0:
        return playout(ps, kn2, 0, where, PS_CAND + c, rules, hp, bufs)
    o, t = ps[PS_CAND + c, 0], ps[PS_CAND + c, 1]
    hand = ps[PS_HANDS + seat]
    keep_one, keep_two = hand[0], hand[1]
    hand[0], hand[1] = subtract(keep_one, keep_two, o, t)
    e = effective_suit(ps[PS_TRICK, 0], ctx)
    note_play(kn2, seat, o, t, e, ctx[CX_SUIT_MASK + e],
              count(ps[PS_TRICK, 0], ps[PS_TRICK, 1]))
    pts = playout(ps, kn2, k + 1, where, -1, rules, hp, bufs)
    hand[0], hand[1] = keep_one, keep_two
    return pts
