"""Paired play-outs of every valued play at a recorded 双升 lead or follow (``advise``).

Each sample deals the cards the acting seat cannot place with the pimc sampler
(``pimc.sample_hidden``: hand sizes, cards shown and not played since, voids shown, the
kitty known only to its burier), then plays the hand on once per option from that deal and
one saved stream state: the option as the seat's play (a lead: checked as a throw against
the sampled hands; a follow: the rest of the trick by each seat's policy), then every seat
on its policy to the last trick, 抠底 and the settlement. A row holds the deal and, per
option, the acting team's level change (its levels gained less the other team's); an option
that has left the race is not played (``NOT_PLAYED``), a sampler dead end leaves the row
``decisions.EMPTY``.

Bundles: ``q`` = (``seat``, ``sizes`` int64[6]: the four hand sizes and the seat's hand
planes, ``kn`` the knowledge at the position, ``banker``, ``levels`` int64[2], ``pts`` the
attackers' points so far, ``ctx``, ``trick`` = (``leader``, ``k`` plays made, ``plays``
int64[4, 2])); ``choice`` = (``options`` int64[K, 2] planes, ``active`` int64[K]);
``chunks`` = (``states``, samples per chunk); ``pols`` = (``pol``, ``hp``).
"""

from __future__ import annotations

import numpy as np

from ..arrays import copy_into, copy_rows
from ..jit import njit
from ..parallel import for_each_chunk
from .bidding import shown_cards
from .context import CX_SUIT_MASK
from .deal import KITTY
from .decisions import (
    EMPTY,
    Q_DEAL,
    Q_VALUES,
    _begin,
    _policy_lead,
    _store_deal,
    _swing,
    deal_rest,
    play_on,
)
from .game import (
    N_WHOLE,
    ST_BANKER,
    ST_CLS,
    ST_GRAB,
    ST_LEVEL,
    ST_SEAT,
    ST_SIZE,
    ST_SUIT,
    ST_TRUMP,
    W_BANKER,
    W_LAST_BURIER,
    W_LEVEL,
    W_PLAY,
    W_TRUMP,
    _declare_turn,
    _settle,
    _take_and_bury,
    bidding_state,
    chunk_buffers,
    context_for,
)
from .hand import R_ATTACKER_POINTS, play_hand_in
from .heuristic import heuristic_follow
from .params import KITTY_BASIS_LEAD_SHAPE, P_KITTY_BASIS, P_NT_LEVEL_JOKER_TRACTOR
from .pimc import (
    BUF_SIZES,
    PS_CAND,
    PS_HANDS,
    PS_KITTY,
    _follow_candidates,
    _lead_candidates,
    new_pimc_scratch,
    sample_hidden,
)
from .planes import count, points, subtract
from .play import kitty_multiplier, trick_winner_in
from .policies import (
    KN_KITTY,
    KN_KS,
    POLICY_HEURISTIC,
    POLICY_RANDOM,
    SEARCH,
    note_bury,
    note_play,
    note_shown,
    searches,
)
from .random_policy import lead_pairs, random_follow_shaped
from .search import search_choose
from .units import effective_suit, new_units, new_work

NOT_PLAYED = -9999  # an option that left the race before this deal


@njit(cache=True)
def _follows_from(h, trick, where, rules, rng, bufs, seats, pst):
    # plays[k..3] of ``trick`` = (plays, k) by each seat's policy, taken out of the hands
    # (``hand._follow`` from play k on); ``where`` = (leader, banker)
    plays, k0 = trick
    leader = where[0]
    ctx = rules[0]
    units, work = bufs
    pol, hp, kn = seats
    e = effective_suit(plays[0, 0], ctx)
    mask = ctx[CX_SUIT_MASK + e]
    n = count(plays[0, 0], plays[0, 1])
    ks = kn[KN_KS:]
    m, n2 = lead_pairs(plays[0, 0], plays[0, 1], ctx, e, units, ks)
    for k in range(k0, 4):
        s = (leader + k) % 4
        o = tw = np.int64(0)
        if pol[s] == POLICY_RANDOM:
            o, tw = random_follow_shaped((e, n, ks, m, n2), h[s, 0], h[s, 1], ctx, rng, work)
        elif pol[s] == POLICY_HEURISTIC:
            o, tw = heuristic_follow((s, hp[s], kn), (plays, k), (ks, m, n2), h[s, 0], h[s, 1],
                                     rules, bufs)
        if pst is not None:  # pruned when no seat plays pimc or net
            if searches(pol[s]):
                o, tw = search_choose((pol[s], (s, hp[s], kn)), (plays, k), where, h, rules,
                                      rng, pst, bufs)
                m, n2 = lead_pairs(plays[0, 0], plays[0, 1], ctx, e, units, ks)
        plays[k, 0], plays[k, 1] = o, tw
        h[s, 0], h[s, 1] = subtract(h[s, 0], h[s, 1], o, tw)
        note_play(kn, s, o, tw, e, mask, n)


@njit(cache=True)
def _follow_on(h, kitty, at, rules, rng, scratch, seats, pst):
    """The attackers' final points when the trick in ``scratch``'s play rows (its first
    ``k`` plays made, ``at`` = (``leader``, ``banker``, ``k``, ``pts``)) is finished by the
    seats' policies and the hand played on (``decisions.play_on``'s arguments)."""
    leader, banker, k, pts = at
    ctx, params = rules
    sc, units, work = scratch
    bufs = (units, work)
    plays = sc[4:8]
    attackers = (banker + 1) % 2
    if k < 4:
        _follows_from(h, (plays, k), (leader, banker), rules, rng, bufs, seats, pst)
    w = trick_winner_in(plays, 4, ctx, params, units, work)
    winner = (leader + w) % 4
    if winner % 2 == attackers:
        for i in range(4):
            pts += points(plays[i, 0], plays[i, 1])
    if h[winner, 0] == 0:
        if winner % 2 == attackers:
            basis = 0 if params[P_KITTY_BASIS] == KITTY_BASIS_LEAD_SHAPE else w
            pts += points(kitty[0], kitty[1]) * kitty_multiplier(
                plays[basis, 0], plays[basis, 1], ctx, params)
        return pts
    a_one, a_two = _policy_lead(h, plays, (winner, banker), rules, rng, bufs, seats, pst)
    return play_on(h, kitty, (winner, banker, a_one, a_two, pts), rules, rng, scratch, seats,
                   pst)


@njit(cache=True)
def _sample(q, rng, sps, h, row):
    """Deal the hidden cards of ``q`` into ``h`` (int64[4, 2]) and the row's deal; the
    kitty (one, two), or (-1, -1) at a sampler dead end."""
    seat, sizes, kn, _, _, _, ctx, _ = q
    ps, sbuf = sps[0], sps[2]
    for j in range(4):
        sbuf[BUF_SIZES + j] = sizes[j]
    if not sample_hidden(seat, sizes[4], sizes[5], kn, ctx, rng, ps, sbuf):
        return np.int64(-1), np.int64(-1)
    for s in range(4):
        h[s, 0], h[s, 1] = ps[PS_HANDS + s, 0], ps[PS_HANDS + s, 1]
        row[Q_DEAL + 2 * s], row[Q_DEAL + 2 * s + 1] = h[s, 0], h[s, 1]
    row[Q_DEAL + 8], row[Q_DEAL + 9] = ps[PS_KITTY, 0], ps[PS_KITTY, 1]
    return ps[PS_KITTY, 0], ps[PS_KITTY, 1]


@njit(nogil=True, cache=True)
def _advise_chunk(c, q, choice, chunks, params, pols, out, pimc):
    """Chunk ``c`` of :func:`advise_chunks`."""
    seat, _, kn0, banker, levels, pts0, ctx, trick = q
    leader, k0, plays0 = trick
    options, active = choice
    states, per_chunk = chunks
    rng = states[c].copy()
    saved = np.empty(4, dtype=np.uint64)
    _, _, _, _, _, scratch = chunk_buffers(pimc)
    sc, units, work, kn, pst = scratch[2], scratch[3], scratch[4], scratch[6], scratch[7]
    play_scratch = (sc, units, work)
    seats = (pols[0], pols[1], kn)
    rules = (ctx, params)
    sps = new_pimc_scratch()
    h = np.empty((4, 2), dtype=np.int64)
    play = np.empty((4, 2), dtype=np.int64)
    res = np.zeros(N_WHOLE, dtype=np.int64)
    plays = sc[4:8]
    e = effective_suit(plays0[0, 0], ctx) if k0 > 0 else 0
    mask = ctx[CX_SUIT_MASK + e]
    n_lead = count(plays0[0, 0], plays0[0, 1])
    out[c, :, :] = EMPTY
    for i in range(per_chunk):
        row = out[c, i]
        k_one, k_two = _sample(q, rng, sps, h, row)
        if k_one < 0:
            row[:] = EMPTY
            continue
        copy_into(saved, rng)
        for k in range(options.shape[0]):
            if active[k] == 0:
                row[Q_VALUES + k] = NOT_PLAYED
                continue
            copy_into(rng, saved)
            copy_into(kn, kn0)
            kn[KN_KITTY], kn[KN_KITTY + 1] = k_one, k_two
            copy_rows(play, h)
            o, t = options[k, 0], options[k, 1]
            if k0 == 0:
                pts = play_on(play, (k_one, k_two), (seat, banker, o, t, pts0), rules, rng,
                              play_scratch, seats, pst)
            else:
                for j in range(k0):
                    plays[j, 0], plays[j, 1] = plays0[j, 0], plays0[j, 1]
                plays[k0, 0], plays[k0, 1] = o, t
                play[seat, 0], play[seat, 1] = subtract(play[seat, 0], play[seat, 1], o, t)
                note_play(kn, seat, o, t, e, mask, n_lead)
                pts = _follow_on(play, (k_one, k_two), (leader, banker, k0 + 1, pts0), rules,
                                 rng, play_scratch, seats, pst)
            res[W_PLAY + R_ATTACKER_POINTS] = pts
            _settle(levels, banker, params, res)
            row[Q_VALUES + k] = _swing(res, levels, seat % 2)


def advise_chunks(q, choice, chunks, params, pols, out):
    """Samples of a lead or follow at a recorded position (module docstring): ``out[c, i]``
    receives the deal and one value per option (``NOT_PLAYED`` for inactive options)."""
    for_each_chunk(_advise_chunk, chunks[0].shape[0], q, choice, chunks, params, pols, out,
                   SEARCH)


@njit(cache=True)
def policy_candidates(me, trick, hand, rules, out):
    """The pimc policy's candidates at a lead (``trick`` = (plays, 0)) or a follow (``k`` >
    0 plays made) of ``me`` = (``seat``, ``hp``, ``kn``) holding ``hand`` = (one, two): the
    heuristic's own choice first, then the highest and lowest unit of each suit (a lead) or
    the low, feed and high follows and the ruffs (a follow); planes into ``out``, returns
    how many."""
    plays, k = trick
    ctx = rules[0]
    ps = new_pimc_scratch()[0]
    units = new_units()
    work = new_work()
    if k == 0:
        n = _lead_candidates(me, hand[0], hand[1], rules, ps, units)
    else:
        kn = me[2]
        e = effective_suit(plays[0, 0], ctx)
        ks = kn[KN_KS:]
        m, n2 = lead_pairs(plays[0, 0], plays[0, 1], ctx, e, units, ks)
        n = _follow_candidates(me, trick, (ks, m, n2), hand[0], hand[1], rules, ps,
                               (units, work))
    for i in range(n):
        out[i, 0], out[i, 1] = ps[PS_CAND + i, 0], ps[PS_CAND + i, 1]
    return n


@njit(cache=True)
def search_play(who, trick, where, h, rules, rng):
    """One lead or follow of a seat on pimc, net or pimc2 (``search_choose``'s arguments,
    with its own scratch): ``h`` holds the seat's hand and, for the others, any hands of
    their sizes (the search reads only their sizes). Returns the play as planes."""
    pst = new_pimc_scratch()
    return search_choose(who, trick, where, h, rules, rng, pst, (new_units(), new_work()))


@njit(cache=True)
def _bajiwo_on(turn, burier, levels, params, rng, out, pols, scratch):
    """扒鸡窝 on from ``turn`` = (seat, passes in a row before it) with ``burier`` the last
    burier (as ``game._bajiwo``), then the play and the settlement into ``out``'s row."""
    seat, passes = turn
    _, hands, sc, units, work, contexts, kn, pst = scratch
    hs = bidding_state(scratch)
    st = hs[1]
    res, tlog = out[0], out[3]
    while passes < 3:
        if _declare_turn(hs, levels, seat, True, params, rng, out, pols):
            st[ST_TRUMP] = st[ST_SUIT]
            _take_and_bury(hs, seat, params, rng, out, pols)
            burier, passes = seat, 0
        else:
            passes += 1
        seat = (seat + 1) % 4
    res[W_LAST_BURIER] = burier
    banker, level, trump = st[ST_BANKER], st[ST_LEVEL], st[ST_TRUMP]
    res[W_BANKER], res[W_LEVEL], res[W_TRUMP] = banker, level, trump
    ctx = context_for(contexts, trump, level, params[P_NT_LEVEL_JOKER_TRACTOR] != 0)
    play_hand_in(hands, banker, (ctx, params), rng, (res[W_PLAY:], tlog), (sc, units, work),
                 (pols[0], pols[1], kn), pst)
    _settle(levels, banker, params, res)


@njit(nogil=True, cache=True)
def _bajiwo_chunk(c, pos, ask, chunks, params, pols, out, pimc):
    """Chunk ``c`` of :func:`bajiwo_chunks`."""
    fixed, sizes, seat, banker, levels, standing = pos
    passes, options, shown, setting = ask
    grab, level, trump, burier = setting
    states, per_chunk = chunks
    rng = states[c].copy()
    saved = np.empty(4, dtype=np.uint64)
    _, dealt, chance, alog, tlog, scratch = chunk_buffers(pimc)
    res = np.empty(N_WHOLE, dtype=np.int64)
    buf = np.empty(108, dtype=np.int64)
    logs = (res, alog, chance, tlog)
    for i in range(per_chunk):
        row = out[c, i]
        deal_rest(fixed, sizes, rng, dealt[0], buf)
        _store_deal(row, dealt[0])
        copy_into(saved, rng)
        for k in range(options.shape[0]):
            copy_into(rng, saved)
            _begin(scratch, dealt[0], res, chance, levels, banker, standing)
            st, kn = scratch[0][:ST_SIZE], scratch[6]
            st[ST_GRAB], st[ST_LEVEL], st[ST_TRUMP], st[ST_BANKER] = grab, level, trump, banker
            for s in range(4):
                if shown[s, 0] != 0:
                    note_shown(kn, s, shown[s, 0], shown[s, 1])
            note_bury(kn, burier, dealt[0][KITTY, 0], dealt[0][KITTY, 1])
            o_cls, o_suit = options[k, 0], options[k, 1]
            if o_cls != 0:
                one, two = shown_cards(o_cls, o_suit, level, params)
                note_shown(kn, seat, one, two)
                st[ST_CLS], st[ST_SUIT], st[ST_SEAT] = o_cls, o_suit, seat
                st[ST_TRUMP] = o_suit
                _take_and_bury(bidding_state(scratch), seat, params, rng, logs, pols)
                _bajiwo_on(((seat + 1) % 4, 0), seat, levels, params, rng, logs, pols, scratch)
            else:
                _bajiwo_on(((seat + 1) % 4, passes + 1), burier, levels, params, rng, logs,
                           pols, scratch)
            row[Q_VALUES + k] = _swing(res, levels, seat % 2)


def bajiwo_chunks(pos, ask, chunks, params, pols, out):
    """Samples of a 扒鸡窝 turn: ``pos``'s ``seat`` passes or overcalls ``options[k]`` =
    (cls, suit) ((0, 0): pass) with ``ask`` = (``passes`` in a row before it, ``options``,
    ``shown`` int64[4, 2] the declared cards each seat still holds, ``setting`` = (``grab``,
    the hand's ``level``, the ``trump`` now, the last ``burier``)); the kitty slot of the
    deal is the buried kitty (pinned when the seat buried it). An overcall takes the kitty
    and buries by the seat's policy; then 扒鸡窝 goes on, the play and the settlement."""
    for_each_chunk(_bajiwo_chunk, chunks[0].shape[0], pos, ask, chunks, params, pols, out,
                   SEARCH)
