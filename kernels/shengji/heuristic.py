"""The heuristic policy's leads and follows (docs/rules/shengji.md §5), from what its
seat knows.

It reads its own hand, the cards played, the voids shown and the kitty if it buried it
(``policies`` knowledge); its unknown cards are the rest. A unit **stands** when no unit of
its shape among the unknown cards beats it (the throw check of §5.2 run against every card
the seat cannot place), so a throw of standing units never fails.

- **Lead.** Every unit of the hand is scored: a standing unit scores ``lead_stand`` (plain)
  or ``lead_stand_trump``, plus ``lead_size`` per card and ``lead_points`` per point; two or
  more standing units of one suit are thrown together (``throw``); a plain lead in a suit an
  opponent has shown void in loses ``ruff_risk`` while unknown trumps remain; any other unit
  scores ``lead_low`` less its top rung, ``lead_low_points`` per point and
  ``lead_trump_low`` if trump, plus ``partner_ruff`` in a suit only the partner is void in.
  A seat of the kitty's side (the side of the seat that buried it) holding at most
  ``guard_cards`` cards keeps its top trump for the last trick (抠底): a lead holding that
  card loses ``guard`` unless it empties the hand.
- **Follow.** Built by shape like the random follow (the forced tractors and pairs, then
  free cards), in one of three orders: low (duck: low cards, no points, no trumps, no broken
  pairs), feed (points first) and high. A partner who wins is fed when the seat plays last
  or the partner's play stands by count; an opponent who wins is beaten as cheaply as
  possible when the seat plays last, the beating play stands, or the trick holds
  ``win_points``; void in the led suit, it trumps (the cheapest matching trump play that
  wins) when the trick holds ``ruff_points``; otherwise it ducks.
"""

from __future__ import annotations

import numpy as np

from ..jit import njit, njit_uncounted
from .context import CX_ESUIT, CX_HIGHER, CX_RUNG, CX_RUNG_FACES, CX_SUIT_MASK, N_RUNGS, TRUMP
from .params import P_THROW_WHOLE_SUIT_ONLY
from .planes import (
    add_face,
    count,
    highest_bit,
    lowest_bit,
    points,
    popcount,
    remove_face,
    subtract,
)
from .play import _beats_unit, trick_winner_in
from .policies import (
    H_GUARD,
    H_GUARD_CARDS,
    H_LEAD_LOW,
    H_LEAD_LOW_POINTS,
    H_LEAD_POINTS,
    H_LEAD_SIZE,
    H_LEAD_STAND,
    H_LEAD_STAND_TRUMP,
    H_LEAD_TRUMP_LOW,
    H_PARTNER_RUFF,
    H_RUFF_POINTS,
    H_RUFF_RISK,
    H_THROW,
    H_WIN_POINTS,
    KN_KITTY_SEAT,
    KN_VOID,
    unknown_cards,
)
from .units import (
    U_FACES,
    U_PAIRS,
    U_TOP,
    W_COUNTS,
    W_PICK_LENS,
    W_PICK_TOPS,
    cover_walk,
    coverage,
    decompose_suit,
    effective_suit,
    pair_ladder,
)

MODE_LOW, MODE_FEED, MODE_HIGH, MODE_BURY, MODE_BURY_POINTS = 0, 1, 2, 3, 4


@njit(cache=True, inline="always")
def face_points(f):
    """Points of one card of face ``f``."""
    if f >= 52:
        return 0
    rank = f % 13 + 2
    return 5 if rank == 5 else (10 if rank == 10 or rank == 13 else 0)


@njit(cache=True, inline="always")
def card_pref(f, two, mode, ctx):
    """How much the seat wants to give up a card of face ``f`` (higher first) in ``mode``;
    ``two``: the faces it still holds twice (giving one breaks a pair)."""
    r = ctx[CX_RUNG + f]
    trump = ctx[CX_ESUIT + f] == TRUMP
    pts = face_points(f)
    pair = (two >> f) & 1
    if mode == MODE_HIGH:
        return 2 * r + 40 * trump - pair
    if mode == MODE_FEED:
        return 6 * pts - r - 50 * trump - 8 * pair
    if mode == MODE_BURY:
        return -r - 40 * trump - 4 * pts - 6 * pair
    if mode == MODE_BURY_POINTS:  # points first (10s, Ks, 5s), then the lowest plain cards
        return -r - 40 * trump + 3 * pts - 6 * pair
    return -r - 25 * trump - 2 * pts - 8 * pair


@njit(cache=True)
def choose_cards(one, two, k, mode, ctx):
    """The ``k`` physical cards of ``(one, two)`` the seat gives up first in ``mode``."""
    out_one = np.int64(0)
    out_two = np.int64(0)
    for _ in range(k):
        best, best_s = -1, -1 << 30
        rest = one
        while rest:
            f = lowest_bit(rest)
            rest &= rest - 1
            s = card_pref(f, two, mode, ctx)
            if s > best_s:
                best, best_s = f, s
        one, two = remove_face(one, two, best)
        out_one, out_two = add_face(out_one, out_two, best)
    return out_one, out_two


@njit(cache=True)
def single_follows(one, two, ctx):
    """The faces ``choose_cards(one, two, 1, mode)`` gives up in ``MODE_LOW``, ``MODE_FEED``
    and ``MODE_HIGH``, found in one pass over the faces of the non-empty ``one``."""
    low = feed = high = -1
    low_s = feed_s = high_s = -1 << 30
    rest = one
    while rest:
        f = lowest_bit(rest)
        rest &= rest - 1
        s = card_pref(f, two, MODE_LOW, ctx)
        if s > low_s:
            low, low_s = f, s
        s = card_pref(f, two, MODE_FEED, ctx)
        if s > feed_s:
            feed, feed_s = f, s
        s = card_pref(f, two, MODE_HIGH, ctx)
        if s > high_s:
            high, high_s = f, s
    return low, feed, high


@njit(cache=True)
def _forced_pairs(held_two, ctx, e, ks, m, n2, mode, work):
    # the pair faces a follow must play: a TS-reaching tractor assignment (the highest in
    # high mode, else the lowest), then the further pairs in ``mode``'s order
    counts = work[W_COUNTS]
    pair_ladder(held_two, ctx, e, counts)
    chosen = np.int64(0)
    free = held_two
    ts = coverage(counts, ks, m, work) if m > 0 else 0
    if ts > 0:
        total = cover_walk(counts, ks, m, ts, -1, work)
        cover_walk(counts, ks, m, ts, 0 if mode == MODE_HIGH else total - 1, work)
        base = CX_RUNG_FACES + N_RUNGS * e
        for i in range(m):
            length, top = work[W_PICK_LENS, i], work[W_PICK_TOPS, i]
            for r in range(top - length + 1, top + 1):
                f = lowest_bit(free & ctx[base + r])
                chosen |= np.int64(1) << f
                free &= ~(np.int64(1) << f)
    for _ in range(min(n2, popcount(held_two)) - ts):
        best, best_s = -1, -1 << 30
        rest = free
        while rest:
            f = lowest_bit(rest)
            rest &= rest - 1
            s = card_pref(f, 0, mode, ctx)
            if s > best_s:
                best, best_s = f, s
        chosen |= np.int64(1) << best
        free &= ~(np.int64(1) << best)
    return chosen


@njit_uncounted
def build_follow(shape, hand_one, hand_two, mode, ctx, work):
    """A legal follow (§5.3) to a lead of ``shape`` = (``e``, ``n``, ``ks``, ``m``,
    ``n2``): ``n`` cards of suit ``e`` with tractors ``ks[:m]`` and ``n2`` pairs; the
    forced structure and free cards in ``mode``'s order."""
    e, n, ks, m, n2 = shape
    mask = ctx[CX_SUIT_MASK + e]
    held_one, held_two = hand_one & mask, hand_two & mask
    h = count(held_one, held_two)
    if h <= n:
        rest_one, rest_two = subtract(hand_one, hand_two, held_one, held_two)
        o, t = choose_cards(rest_one, rest_two, n - h, mode, ctx)
        return held_one | o, held_two | t
    if n2 == 0:
        return choose_cards(held_one, held_two, n, mode, ctx)
    pairs = _forced_pairs(held_two, ctx, e, ks, m, n2, mode, work)
    rest_one, rest_two = subtract(held_one, held_two, pairs, pairs)
    o, t = choose_cards(rest_one, rest_two, n - 2 * popcount(pairs), mode, ctx)
    return pairs | o, pairs | t


@njit_uncounted
def build_ruff(fmt, n, t_one, t_two, high, ctx, work):
    """A trump play that matches a lead of format ``fmt`` = (``ks``, ``m``, ``n_pairs``):
    tractors ``ks[:m]`` and ``n_pairs`` pairs besides, ``n`` cards; from the trumps
    ``(t_one, t_two)``: the lowest windows, pairs and cards (the highest with ``high``);
    ``(0, 0)`` when the trumps cannot match it."""
    ks, m, n_pairs = fmt
    if count(t_one, t_two) < n:
        return np.int64(0), np.int64(0)
    counts = work[W_COUNTS]
    pair_ladder(t_two, ctx, TRUMP, counts)
    base = CX_RUNG_FACES + N_RUNGS * TRUMP
    free = t_two
    pairs = np.int64(0)
    for i in range(m):
        k = ks[i]
        word = 0
        for r in range(N_RUNGS):
            if counts[r] > 0:
                word |= 1 << r
        runs = word
        for _ in range(k - 1):
            runs &= runs >> 1
        if runs == 0:
            return np.int64(0), np.int64(0)
        start = highest_bit(runs) if high else lowest_bit(runs)
        for r in range(start, start + k):
            f = lowest_bit(free & ctx[base + r])
            pairs |= np.int64(1) << f
            free &= ~(np.int64(1) << f)
            counts[r] -= 1
    for _ in range(n_pairs):
        if free == 0:
            return np.int64(0), np.int64(0)
        best, best_r = -1, -1
        rest = free
        while rest:
            f = lowest_bit(rest)
            rest &= rest - 1
            r = ctx[CX_RUNG + f]
            if best < 0 or (r > best_r if high else r < best_r):
                best, best_r = f, r
        pairs |= np.int64(1) << best
        free &= ~(np.int64(1) << best)
    rest_one, rest_two = subtract(t_one, t_two, pairs, pairs)
    o, t = choose_cards(rest_one, rest_two, n - 2 * popcount(pairs),
                        MODE_HIGH if high else MODE_LOW, ctx)
    return pairs | o, pairs | t


@njit(cache=True)
def stands(one, two, e, unk_one, unk_two, ctx, units):
    """Whether every canonical unit of the play ``(one, two)`` of suit ``e`` stands against
    the unknown cards: no unknown unit of its shape ranks above it."""
    if one & (one - 1) == 0:  # one face: a single or a pair, no decomposition needed
        f = lowest_bit(one)
        return (unk_two if two else unk_one) & ctx[CX_HIGHER + f] == 0
    mask = ctx[CX_SUIT_MASK + e]
    n = decompose_suit(one, two, ctx, e, units, 0)
    for i in range(n):
        if _beats_unit(units, i, unk_one & mask, unk_two & mask, ctx, e):
            return False
    return True


@njit(cache=True, inline="always")
def _unit_planes(units, i):
    faces = units[i, U_FACES]
    return faces, faces if units[i, U_PAIRS] > 0 else np.int64(0)


@njit_uncounted
def _guarded_top(seat, hand_one, hand_two, ctx, hp, kn):
    # (the face the seat keeps for the last trick as a mask, 0: none; its cards held): the
    # top trump of a seat of the kitty's side holding at most ``guard_cards`` cards
    held = count(hand_one, hand_two)
    ks = kn[KN_KITTY_SEAT]
    t = hand_one & ctx[CX_SUIT_MASK + TRUMP]
    if hp[H_GUARD] <= 0.0 or ks < 0 or (seat + ks) % 2 != 0 or held > hp[H_GUARD_CARDS] \
            or t == 0:
        return np.int64(0), held
    best, best_r = 0, -1
    while t:
        f = lowest_bit(t)
        t &= t - 1
        if ctx[CX_RUNG + f] > best_r:
            best, best_r = f, ctx[CX_RUNG + f]
    return np.int64(1) << best, held


@njit_uncounted
def heuristic_lead(seat, hand_one, hand_two, ctx, params, hp, kn, units):
    """The heuristic's lead from a non-empty hand (module docstring), as planes."""
    unk_one, unk_two = unknown_cards(kn, seat, hand_one, hand_two)
    opp_void = kn[KN_VOID + (seat + 1) % 4] | kn[KN_VOID + (seat + 3) % 4]
    partner_void = kn[KN_VOID + (seat + 2) % 4]
    trumps_out = (unk_one & ctx[CX_SUIT_MASK + TRUMP]) != 0
    whole_only = params[P_THROW_WHOLE_SUIT_ONLY] != 0
    top, held = _guarded_top(seat, hand_one, hand_two, ctx, hp, kn)
    best_s = -1e18
    best_one = np.int64(0)
    best_two = np.int64(0)
    for e in (TRUMP, 0, 1, 2, 3):
        mask = ctx[CX_SUIT_MASK + e]
        if hand_one & mask == 0:
            continue
        n = decompose_suit(hand_one, hand_two, ctx, e, units, 0)
        risk = hp[H_RUFF_RISK] if e != TRUMP and (opp_void >> e) & 1 and trumps_out else 0.0
        base_stand = hp[H_LEAD_STAND_TRUMP] if e == TRUMP else hp[H_LEAD_STAND]
        th_one = np.int64(0)
        th_two = np.int64(0)
        n_stand = 0
        for i in range(n):
            u_one, u_two = _unit_planes(units, i)
            size = count(u_one, u_two)
            pts = points(u_one, u_two)
            if not _beats_unit(units, i, unk_one & mask, unk_two & mask, ctx, e):
                th_one |= u_one
                th_two |= u_two
                n_stand += 1
                s = base_stand + hp[H_LEAD_SIZE] * size + hp[H_LEAD_POINTS] * pts - risk
            else:
                s = hp[H_LEAD_LOW] - units[i, U_TOP] - hp[H_LEAD_LOW_POINTS] * pts
                if e == TRUMP:
                    s -= hp[H_LEAD_TRUMP_LOW]
                elif (partner_void >> e) & 1 and not (opp_void >> e) & 1:
                    s += hp[H_PARTNER_RUFF]
            if u_one & top and size < held:
                s -= hp[H_GUARD]
            if s > best_s:
                best_s, best_one, best_two = s, u_one, u_two
        if n_stand >= 2 and risk == 0.0 and (not whole_only or n_stand == n):
            size = count(th_one, th_two)
            s = hp[H_THROW] + hp[H_LEAD_SIZE] * size + hp[H_LEAD_POINTS] * points(th_one, th_two)
            if th_one & top and size < held:
                s -= hp[H_GUARD]
            if s > best_s:
                best_s, best_one, best_two = s, th_one, th_two
    return best_one, best_two


@njit(cache=True)
def _wins(plays, k, one, two, ctx, params, units, work):
    # whether ``(one, two)`` played as the k-th play would take the trick so far
    plays[k, 0], plays[k, 1] = one, two
    return trick_winner_in(plays, k + 1, ctx, params, units, work) == k


@njit(cache=True)
def _cheapest_one_face(plays, w, held, e, ctx, pair):
    # a single or pair lead followed in suit: the lowest face of ``held`` (pairs: the
    # pair plane) above the winning play, or -1 when none beats it or the winner is trump
    # over a plain lead
    g = lowest_bit(plays[w, 0])
    if ctx[CX_ESUIT + g] != e:
        return -1
    above = held & ctx[CX_HIGHER + g]
    best, best_r = -1, 99
    while above:
        f = lowest_bit(above)
        above &= above - 1
        if ctx[CX_RUNG + f] < best_r:
            best, best_r = f, ctx[CX_RUNG + f]
    return best


@njit_uncounted
def _partner_secure(seat, kn, trick, w, hand_one, hand_two, ctx, units):
    # the partner's winning play cannot be beaten by the seat after this one, by count
    plays, k = trick
    if k == 3:
        return True
    e = effective_suit(plays[w, 0], ctx)
    unk_one, unk_two = unknown_cards(kn, seat, hand_one, hand_two)
    if e != TRUMP and (kn[KN_VOID + (seat + 1) % 4] >> e) & 1 \
            and unk_one & ctx[CX_SUIT_MASK + TRUMP]:
        return False
    return stands(plays[w, 0], plays[w, 1], e, unk_one, unk_two, ctx, units)


@njit_uncounted
def heuristic_follow(me, trick, lead, hand_one, hand_two, rules, bufs):
    """The heuristic's follow (module docstring) of ``me`` = (``seat``, its parameter row
    ``hp``, its knowledge ``kn``) as the ``k``-th play (1..3) of ``trick`` = (``plays``,
    ``k``), the trick ``plays[:k]`` so far (``plays[k]`` is used as scratch); ``lead`` =
    (``ks``, ``m``, ``n2``): the lead's tractors ``ks[:m]`` and pair total (``lead_pairs``);
    ``rules`` = (``ctx``, ``params``); ``bufs`` = (``units``, ``work``)."""
    seat, hp, kn = me
    plays, k = trick
    ks, m, n2 = lead
    ctx, params = rules
    units, work = bufs
    lead_one, lead_two = plays[0, 0], plays[0, 1]
    e = effective_suit(lead_one, ctx)
    n = count(lead_one, lead_two)
    mask = ctx[CX_SUIT_MASK + e]
    held = count(hand_one & mask, hand_two & mask)
    w = 0 if k == 1 else trick_winner_in(plays, k, ctx, params, units, work)
    pts = np.int64(0)  # a literal 0 here would compile _contest once more
    for i in range(k):
        pts += points(plays[i, 0], plays[i, 1])
    shape = (e, n, ks, m, n2)
    if w % 2 == k % 2:  # the partner wins so far
        secure = _partner_secure(seat, kn, trick, w, hand_one, hand_two, ctx, units)
        return build_follow(shape, hand_one, hand_two, MODE_FEED if secure else MODE_LOW,
                            ctx, work)
    if held == 0:
        t_one, t_two = hand_one & ctx[CX_SUIT_MASK + TRUMP], hand_two & ctx[CX_SUIT_MASK + TRUMP]
        if e != TRUMP and t_one != 0 and pts >= hp[H_RUFF_POINTS]:
            return _ruff(trick, shape, (t_one, t_two), hand_one, hand_two, rules, bufs)
        return build_follow(shape, hand_one, hand_two, MODE_LOW, ctx, work)
    if held < n:
        return build_follow(shape, hand_one, hand_two, MODE_LOW, ctx, work)
    return _contest(me, trick, (w, pts), shape, hand_one, hand_two, rules, bufs)


@njit_uncounted
def _ruff(trick, shape, trumps, hand_one, hand_two, rules, bufs):
    # void in a plain lead that an opponent wins: the cheapest matching trump play that
    # takes the trick, else a low discard (``trumps``: the hand's trump planes)
    plays, k = trick
    e, n, ks, m, n2 = shape
    t_one, t_two = trumps
    ctx, params = rules
    units, work = bufs
    n_pairs = n2
    for i in range(m):
        n_pairs -= ks[i]
    if n == 1:
        g = lowest_bit(plays[trick_winner_in(plays, k, ctx, params, units, work), 0])
        above = t_one if ctx[CX_ESUIT + g] != TRUMP else t_one & ctx[CX_HIGHER + g]
        if above:
            return choose_cards(above, t_two & above, 1, MODE_LOW, ctx)
    else:
        for high in (False, True):
            o, t = build_ruff((ks, m, n_pairs), n, t_one, t_two, high, ctx, work)
            if o != 0 and _wins(plays, k, o, t, ctx, params, units, work):
                return o, t
    return build_follow(shape, hand_one, hand_two, MODE_LOW, ctx, work)


@njit_uncounted
def _contest(me, trick, win, shape, hand_one, hand_two, rules, bufs):
    # following in suit while an opponent wins (``win``: the winning play's index and the
    # trick's points so far): beat it cheaply when worth it, else duck
    seat, hp, kn = me
    plays, k = trick
    w, pts = win
    e, n, ks, m, n2 = shape
    ctx, params = rules
    units, work = bufs
    mask = ctx[CX_SUIT_MASK + e]
    o, t = np.int64(0), np.int64(0)
    if n <= 2 and n2 == n - 1:  # a single or a pair: the lowest face that beats
        f = _cheapest_one_face(plays, w, (hand_two if n == 2 else hand_one) & mask, e, ctx,
                               n == 2)
        if f >= 0:
            o = np.int64(1) << f
            t = o if n == 2 else np.int64(0)
    else:
        o, t = build_follow(shape, hand_one, hand_two, MODE_HIGH, ctx, work)
        if not _wins(plays, k, o, t, ctx, params, units, work):
            o = np.int64(0)
    if o != 0:
        worth = k == 3 or pts + points(o, t) >= hp[H_WIN_POINTS]
        if not worth:
            unk_one, unk_two = unknown_cards(kn, seat, hand_one, hand_two)
            worth = stands(o, t, e, unk_one, unk_two, ctx, units)
        if worth:
            return o, t
    return build_follow(shape, hand_one, hand_two, MODE_LOW, ctx, work)
