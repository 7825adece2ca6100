"""The 双升 decision queries: declare or pass, which 8 cards to bury, 造反 or not, throw (甩牌)
or lead one unit (``analyzer.shengji.decision``).

Each sample deals the cards the asking seat cannot place (``deal_rest``: whatever is pinned
stays in its slot, every other card goes to a uniformly random free slot), then plays every
option from that one deal and one saved stream state: the options differ only by the choice.
A row holds the deal and, per option, the asking team's level change: the levels it gains
less the levels the other team gains (0 when the attackers only take the bank).

The queries share their arguments in bundles: ``pos`` = (``fixed`` int64[5, 2], ``sizes``
int64[5], ``seat``, ``banker``, ``levels`` int64[2], ``standing`` int64[5]): what is pinned
where and how many cards each slot holds (``deal_rest``), the asking seat, the banker, the
team levels and the standing declaration (cls, suit, seat, shown one, shown two; cls 0 for
none); ``chunks`` = (``states``, ``per_chunk``): a stream per chunk and the samples each
takes; ``pols`` = (``pol``, ``hp``): each seat's policy and parameters. The bidding and
play functions of ``game`` and ``hand`` take their own bundles (``hs``, ``out``,
``scratch``, ``seats``; see those modules).
"""

from __future__ import annotations

import numpy as np

from ..arrays import copy_into, copy_rows
from ..jit import njit
from ..parallel import for_each_chunk
from ..rng import bounded
from .bidding import CLS_NONE, rebel_candidates, shown_cards
from .deal import KITTY, deal
from .game import (
    CH_TRUMP_INDEX,
    K_PASS,
    K_REBEL,
    N_WHOLE,
    ST_BANKER,
    ST_CLS,
    ST_DECLARERS,
    ST_GRAB,
    ST_LEVEL,
    ST_PRIORITY,
    ST_ROUND,
    ST_SEAT,
    ST_SIZE,
    ST_SUIT,
    ST_TRUMP,
    W_BANKER,
    W_DECLARATIONS,
    W_GRAB,
    W_KITTY_TAKER,
    W_LAST_BURIER,
    W_LEVEL,
    W_LEVEL0_AFTER,
    W_PLAY,
    W_REBEL,
    W_TRUMP,
    _bajiwo,
    _declare_round,
    _declare_turn,
    _end_round,
    _log,
    _settle,
    _take_and_bury,
    bidding_state,
    chunk_buffers,
    context_for,
)
from .hand import R_ATTACKER_POINTS, _follow, play_hand_in
from .heuristic import heuristic_lead
from .heuristic_bid import heuristic_bury, heuristic_rebel
from .params import (
    KITTY_BASIS_LEAD_SHAPE,
    P_BAJIWO_ENABLED,
    P_KITTY_BASIS,
    P_NT_LEVEL_JOKER_TRACTOR,
    P_THROW_FAIL_PENALTY_PER_CARD,
)
from .pimc import BUF_SIZES, PS_HANDS, PS_KITTY, new_pimc_scratch, sample_hidden
from .planes import add_face, count, points, subtract
from .play import kitty_multiplier, throw_failures, throw_units_in, trick_winner_in
from .policies import (
    KN_KITTY,
    POLICY_HEURISTIC,
    POLICY_RANDOM,
    SEARCH,
    note_bury,
    note_play,
    note_shown,
    reset_knowledge,
    searches,
)
from .random_policy import random_lead_in
from .search import search_choose
from .units import U_FACES, U_PAIRS, W_FAILED, decompose_suit, effective_suit, new_units

# Row of one sample: the deal (5 slots x 2 planes: seats 0..3, kitty) and one value per
# option; the throw query adds whether the throw stands and which of its units another
# hand could beat (bit j: unit j).
Q_DEAL = 0
Q_VALUES = 10
Q_STANDS, Q_BEATEN = 0, 1  # after the values, throw query only
MAX_OPTIONS = 13
EMPTY = -999  # a row no sample filled (a dead end of the pimc sampler)


@njit(cache=True)
def deal_rest(fixed, sizes, rng, out, buf):
    """Deal into ``out[5, 2]`` (seats 0..3, kitty 4): slot ``s`` keeps ``fixed[s]`` and is
    filled to ``sizes[s]`` cards with a uniformly random choice of the cards no slot holds
    (a shuffle of the physical cards). ``buf``: int64 scratch of 108."""
    n = 0
    for f in range(54):
        held = 0
        for s in range(5):
            held += ((fixed[s, 0] >> f) & 1) + ((fixed[s, 1] >> f) & 1)
        for _ in range(2 - held):
            buf[n] = f
            n += 1
    i = 0
    for s in range(5):
        out[s, 0], out[s, 1] = fixed[s, 0], fixed[s, 1]
        for _ in range(sizes[s] - count(fixed[s, 0], fixed[s, 1])):
            r = i + bounded(rng, n - i)
            f = buf[r]
            buf[r] = buf[i]
            buf[i] = f
            out[s, 0], out[s, 1] = add_face(out[s, 0], out[s, 1], f)
            i += 1


@njit(cache=True)
def deal_many(fixed, sizes, state, n, out):
    """``n`` deals of :func:`deal_rest` from one stream into ``out[n, 5, 2]`` (tests)."""
    rng = state.copy()
    buf = np.empty(108, dtype=np.int64)
    for i in range(n):
        deal_rest(fixed, sizes, rng, out[i], buf)


@njit(cache=True, inline="always")
def _swing(res, levels, team):
    """``team``'s levels gained less the other team's, from a whole-hand row."""
    mine = res[W_LEVEL0_AFTER + team] - levels[team]
    other = res[W_LEVEL0_AFTER + 1 - team] - levels[1 - team]
    return mine - other


@njit(cache=True)
def _begin(scratch, dealt, res, chance, levels, banker, standing):
    """A normal hand's state at the start of declaring, as ``game.whole_hand_in`` sets it
    up: banker ``banker`` at its team's level, ``standing`` = (cls, suit, seat, shown one,
    shown two) the standing declaration (cls 0: none)."""
    hands, st, kn = scratch[1], scratch[0][:ST_SIZE], scratch[6]
    reset_knowledge(kn)
    res[:] = 0
    chance[:] = 0
    chance[CH_TRUMP_INDEX] = -1
    st[:] = 0
    copy_rows(hands, dealt)
    st[ST_GRAB], st[ST_PRIORITY], st[ST_BANKER] = 0, banker, banker
    st[ST_LEVEL], st[ST_ROUND] = levels[banker % 2], 1
    res[W_REBEL] = -1
    st[ST_SEAT] = -1  # as game._open_round: no standing declarer
    st_cls, st_suit, st_seat = standing[0], standing[1], standing[2]
    if st_cls != CLS_NONE:
        st[ST_CLS], st[ST_SUIT], st[ST_SEAT] = st_cls, st_suit, st_seat
        st[ST_DECLARERS] = 1 << st_seat
        st[ST_TRUMP] = st_suit
        note_shown(kn, st_seat, standing[3], standing[4])
        res[W_DECLARATIONS] = 1


@njit(cache=True, inline="always")  # one caller: a layer compiled apart re-optimizes all below it
def _rounds_from(seat, passes, levels, params, rng, out, pols, scratch):
    """The declaring round on from ``seat`` with ``passes`` passes in a row so far, then
    (§4.4) a second round after 下台; returns the kitty-taker."""
    hs = bidding_state(scratch)
    st = hs[1]
    while passes < 4:
        if _declare_turn(hs, levels, seat, False, params, rng, out, pols):
            passes = 0
            st[ST_DECLARERS] |= 1 << seat
        else:
            passes += 1
        seat = (seat + 1) % 4
    taker = _end_round(hs, levels, params, rng, out)
    while taker < 0:
        _declare_round(hs, levels, params, rng, out, pols)
        taker = _end_round(hs, levels, params, rng, out)
    return taker


@njit(cache=True, inline="always")  # a layer compiled apart re-optimizes all below it
def _kitty_and_play(taker, buried, levels, params, rng, out, pols, scratch):
    """The kitty (taken and buried by ``taker`` unless ``buried``: already done), 扒鸡窝,
    the play, 抠底 and the settlement into ``out``'s result row."""
    _, hands, sc, units, work, contexts, kn, pst = scratch
    hs = bidding_state(scratch)
    st = hs[1]
    res, tlog = out[0], out[3]
    res[W_KITTY_TAKER] = taker
    if not buried:
        _take_and_bury(hs, taker, params, rng, out, pols)
    burier = taker
    if params[P_BAJIWO_ENABLED] != 0:
        burier = _bajiwo(hs, levels, taker, params, rng, out, pols)
    res[W_LAST_BURIER] = burier
    banker, level, trump = st[ST_BANKER], st[ST_LEVEL], st[ST_TRUMP]
    res[W_BANKER], res[W_LEVEL], res[W_TRUMP] = banker, level, trump
    ctx = context_for(contexts, trump, level, params[P_NT_LEVEL_JOKER_TRACTOR] != 0)
    play_hand_in(hands, banker, (ctx, params), rng, (res[W_PLAY:], tlog), (sc, units, work),
                 (pols[0], pols[1], kn), pst)
    _settle(levels, banker, params, res)


@njit(cache=True, inline="always")  # a layer compiled apart re-optimizes all below it
def _declare_option(turn, option, levels, params, rng, out, pols, scratch):
    """``seat`` declares ``option`` = (cls, suit) (cls > 0) or passes at its turn (``turn``
    = (seat, passes in a row before it)), and the hand goes on."""
    seat, passes = turn
    o_cls, o_suit = option
    st, kn, res = scratch[0][:ST_SIZE], scratch[6], out[0]
    if o_cls != CLS_NONE:
        one, two = shown_cards(o_cls, o_suit, st[ST_LEVEL], params)
        note_shown(kn, seat, one, two)
        st[ST_CLS], st[ST_SUIT], st[ST_SEAT] = o_cls, o_suit, seat
        st[ST_DECLARERS] |= 1 << seat
        res[W_DECLARATIONS] += 1
        passes = 0
    else:
        passes += 1
    taker = _rounds_from((seat + 1) % 4, passes, levels, params, rng, out, pols, scratch)
    _kitty_and_play(taker, False, levels, params, rng, out, pols, scratch)


@njit(cache=True)
def _store_deal(row, dealt):
    for s in range(5):
        row[Q_DEAL + 2 * s], row[Q_DEAL + 2 * s + 1] = dealt[s, 0], dealt[s, 1]


@njit(nogil=True, cache=True)
def _declare_chunk(c, pos, ask, chunks, params, pols, out, pimc):
    """Chunk ``c`` of :func:`declare_chunks`."""
    fixed, sizes, seat, banker, levels, standing = pos
    passes, options, shown, declarers, setting = ask
    grab, priority, rnd, level = setting
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
            st = scratch[0][:ST_SIZE]
            st[ST_DECLARERS] = declarers
            st[ST_GRAB], st[ST_PRIORITY], st[ST_ROUND] = grab, priority, rnd
            st[ST_BANKER] = -1 if grab else banker
            st[ST_LEVEL] = level
            for s in range(4):
                if shown[s, 0] != 0:
                    note_shown(scratch[6], s, shown[s, 0], shown[s, 1])
            _declare_option((seat, passes), (options[k, 0], options[k, 1]), levels, params,
                            rng, logs, pols, scratch)
            row[Q_VALUES + k] = _swing(res, levels, seat % 2)


def first_round_ask(pos, passes, options):
    """The ``ask`` of :func:`declare_chunks` in the first declaring round of a normal hand
    (the standing declaration, if any, is ``pos``'s and counts as shown)."""
    _, _, _, banker, levels, standing = pos
    declarers = 1 << int(standing[2]) if standing[0] != CLS_NONE else 0
    return (int(passes), options, np.zeros((4, 2), dtype=np.int64), declarers,
            (0, int(banker), 1, int(levels[banker % 2])))


def declare_chunks(pos, ask, chunks, params, pols, out):
    """Samples of the declaring query at any declaring turn: ``pos`` (module docstring): its
    ``seat`` is to act, with ``ask`` = (``passes``: passes in a row before it, ``options``:
    (cls, suit) each, (0, 0) passing, ``shown`` int64[4, 2]: the cards each seat has shown
    in its declarations besides ``pos``'s standing one, ``declarers``: the bit set of the
    seats that declared this round, ``setting`` = (``grab``: a 抢庄局, the ``priority``
    seat, the round 1 or 2, the hand's level, 0 in a 抢庄局)) (:func:`first_round_ask` for
    the first round of a normal hand); ``pos``'s banker is the priority seat in a 抢庄局.
    Each deal (``deal_rest`` of ``fixed``, ``sizes``) is played once per option;
    ``out[c, i]`` receives the row (``Q_*``)."""
    for_each_chunk(_declare_chunk, chunks[0].shape[0], pos, ask, chunks, params, pols, out,
                   SEARCH)


@njit(nogil=True, cache=True)
def _bury_chunk(c, pos, ask, chunks, params, pols, out, pimc):
    """Chunk ``c`` of :func:`bury_chunks`."""
    fixed, sizes, seat, banker, levels, standing = pos
    trump, buries = ask
    states, per_chunk = chunks
    rng = states[c].copy()
    saved = np.empty(4, dtype=np.uint64)
    deck, dealt, chance, alog, tlog, scratch = chunk_buffers(pimc)
    res = np.empty(N_WHOLE, dtype=np.int64)
    buf = np.empty(108, dtype=np.int64)
    logs = (res, alog, chance, tlog)
    hand33 = fixed[seat]
    for i in range(per_chunk):
        row = out[c, i]
        deal_rest(fixed, sizes, rng, dealt[0], buf)
        _store_deal(row, dealt[0])
        copy_into(saved, rng)
        for k in range(buries.shape[0]):
            copy_into(rng, saved)
            _begin(scratch, dealt[0], res, chance, levels, banker, standing)
            st = scratch[0][:ST_SIZE]
            st[ST_TRUMP] = trump
            hands = scratch[1]
            b_one, b_two = buries[k, 0], buries[k, 1]
            hands[seat, 0], hands[seat, 1] = subtract(hand33[0], hand33[1], b_one, b_two)
            hands[KITTY, 0], hands[KITTY, 1] = b_one, b_two
            note_bury(scratch[6], seat, b_one, b_two)
            _kitty_and_play(seat, True, levels, params, rng, logs, pols, scratch)
            row[Q_VALUES + k] = _swing(res, levels, seat % 2)


def bury_chunks(pos, ask, chunks, params, pols, out):
    """Samples of the bury query: ``pos``'s ``seat`` holds its 33 cards (``fixed[seat]``,
    sizes 33 and kitty 0) in a normal hand banked by ``banker``, with ``ask`` = (``trump``,
    ``buries``): each deal is played once per bury ``buries[k]`` (planes) at trump
    ``trump``, then 扒鸡窝 (against ``standing``), the play and the settlement."""
    for_each_chunk(_bury_chunk, chunks[0].shape[0], pos, ask, chunks, params, pols, out,
                   SEARCH)


@njit(cache=True)
def _rebel_option(choice, levels, params, rng, dealing, out, pols, scratch):
    """``seat`` calls 造反 or declines (``choice`` = (seat, rebel)); the defenders asked
    after it choose by policy (§4.5), then the hand is played from the declaring round on
    (``dealing`` = (deck, deals): the redeal's room)."""
    seat, rebel = choice
    deck, deals = dealing
    res, alog, chance, _ = out
    pol, hp = pols
    hs = bidding_state(scratch)
    hands, st = hs[0], hs[1]
    cands = np.empty(2, dtype=np.int64)
    n = rebel_candidates(hands, st[ST_BANKER], params, cands)
    rebel_seat = seat if rebel else -1
    after = False
    for j in range(n):
        s = cands[j]
        if s == seat:
            _log(alog, chance, s, K_REBEL if rebel else K_PASS, 0, 0, 2, 0)
            after = True
            continue
        if not after or rebel_seat >= 0:
            continue  # asked before the seat (they declined) or no longer asked
        if pol[s] == POLICY_RANDOM:
            yes = bounded(rng, 2) != 0
        else:
            yes = heuristic_rebel(hands[s, 0], hands[s, 1], st[ST_LEVEL], hp[s])
        if yes:
            rebel_seat = s
    if rebel_seat >= 0:
        deal(rng, deck, deals[1])
        copy_rows(hands, deals[1])
        st[ST_GRAB], st[ST_PRIORITY], st[ST_BANKER] = 1, rebel_seat, -1
        res[W_REBEL], res[W_GRAB] = rebel_seat, 1
    taker = -1
    while taker < 0:  # as game._bidding: rounds from the priority seat (declare_start)
        _declare_round(hs, levels, params, rng, out, pols)
        taker = _end_round(hs, levels, params, rng, out)
    _kitty_and_play(taker, False, levels, params, rng, out, pols, scratch)


@njit(nogil=True, cache=True)
def _rebel_chunk(c, pos, chunks, params, pols, out, pimc):
    """Chunk ``c`` of :func:`rebel_chunks`."""
    fixed, sizes, seat, banker, levels, _ = pos
    states, per_chunk = chunks
    rng = states[c].copy()
    saved = np.empty(4, dtype=np.uint64)
    deck, deals, chance, alog, tlog, scratch = chunk_buffers(pimc)
    res = np.empty(N_WHOLE, dtype=np.int64)
    buf = np.empty(108, dtype=np.int64)
    no = np.zeros(5, dtype=np.int64)
    logs = (res, alog, chance, tlog)
    for i in range(per_chunk):
        row = out[c, i]
        deal_rest(fixed, sizes, rng, deals[0], buf)
        _store_deal(row, deals[0])
        copy_into(saved, rng)
        for k in range(2):  # option 0: 造反, option 1: decline
            copy_into(rng, saved)
            _begin(scratch, deals[0], res, chance, levels, banker, no)
            _rebel_option((seat, k == 0), levels, params, rng, (deck, deals), logs, pols,
                          scratch)
            row[Q_VALUES + k] = _swing(res, levels, seat % 2)


def rebel_chunks(pos, chunks, params, pols, out):
    """Samples of the 造反 query: defender ``seat`` of ``pos`` holds ``fixed[seat]`` in a
    normal hand banked by ``banker`` (``standing`` is not read); each deal is played after
    造反 (value 0: the redeal, a 抢庄局 from ``seat``) and after declining (value 1)."""
    for_each_chunk(_rebel_chunk, chunks[0].shape[0], pos, chunks, params, pols, out,
                   SEARCH)


@njit(cache=True)
def bury_variants(one, two, ctx, hp_rows, out):
    """The heuristic's bury (planes into ``out[k]``) from the 33 cards ``(one, two)`` under
    each parameter row ``hp_rows[k]``."""
    for k in range(hp_rows.shape[0]):
        out[k, 0], out[k, 1] = heuristic_bury(one, two, ctx, hp_rows[k])


@njit(cache=True)
def throw_units(one, two, ctx, out):
    """The canonical units of a one-suit lead (§3) as planes into ``out``; returns how many
    (the order of ``play.throw_failures``' bits)."""
    units = new_units()
    n = decompose_suit(one, two, ctx, effective_suit(one, ctx), units, 0)
    for j in range(n):
        f = units[j, U_FACES]
        out[j, 0], out[j, 1] = f, f if units[j, U_PAIRS] > 0 else np.int64(0)
    return n


@njit(cache=True)
def heuristic_lead_of(seat, one, two, ctx, params, hp, kn):
    """The heuristic's lead for ``seat`` holding ``(one, two)`` with knowledge ``kn``."""
    return heuristic_lead(seat, one, two, ctx, params, hp, kn, new_units())


@njit(cache=True)
def _policy_lead(h, plays, where, rules, rng, bufs, seats, pst):
    # the lead of ``where`` = (leader, banker)'s leader by its policy (``seats`` = (pol,
    # hp, kn), as for hand.play_hand_in)
    leader = where[0]
    ctx, params = rules
    units = bufs[0]
    pol, hp, kn = seats
    a_one = a_two = np.int64(0)
    if pol[leader] == POLICY_RANDOM:
        a_one, a_two = random_lead_in(h[leader, 0], h[leader, 1], ctx, params, rng, units)
    elif pol[leader] == POLICY_HEURISTIC:
        a_one, a_two = heuristic_lead(leader, h[leader, 0], h[leader, 1], ctx, params,
                                      hp[leader], kn, units)
    if pst is not None:  # pruned when no seat plays pimc or net
        if searches(pol[leader]):
            a_one, a_two = search_choose((pol[leader], (leader, hp[leader], kn)),
                                         (plays, np.int64(0)), where, h, rules, rng, pst, bufs)
    return a_one, a_two


@njit(cache=True)
def play_on(h, kitty, begin, rules, rng, scratch, seats, pst):
    """The attackers' final points (抠底 and failed-throw penalties included) when the hand
    ``h`` (int64[4, 2], changed) is played on from ``begin`` = (``leader``, ``banker``,
    ``lead_one``, ``lead_two``, ``pts``): the leader's lead with ``pts`` points so far, as
    ``hand.play_hand_in`` plays (``rules``, ``scratch``, ``seats`` and ``pst`` as there;
    ``kitty`` = (one, two): the final kitty)."""
    kitty_one, kitty_two = kitty
    leader, banker, a_one, a_two, pts = begin
    ctx, params = rules
    sc, units, work = scratch
    kn = seats[2]
    bufs = (units, work)
    plays, others, forced = sc[4:8], sc[8:11], sc[11]
    attackers = (banker + 1) % 2
    penalty = params[P_THROW_FAIL_PENALTY_PER_CARD]
    while True:
        for k in range(3):
            others[k, 0], others[k, 1] = h[(leader + 1 + k) % 4, 0], h[(leader + 1 + k) % 4, 1]
        nu = throw_units_in(a_one, a_two, others, ctx, params, forced, units, work)
        if nu < 0:
            s_one, s_two = subtract(a_one, a_two, forced[0], forced[1])
            note_shown(kn, leader, s_one, s_two)
            cost = penalty * count(a_one, a_two)
            pts += -cost if leader % 2 == attackers else cost
        plays[0, 0], plays[0, 1] = forced[0], forced[1]
        h[leader, 0], h[leader, 1] = subtract(h[leader, 0], h[leader, 1], forced[0], forced[1])
        note_play(kn, leader, forced[0], forced[1], 0, 0, 0)
        _follow(h, plays, (leader, banker), rules, rng, bufs, seats, pst)
        w = trick_winner_in(plays, 4, ctx, params, units, work)
        winner = (leader + w) % 4
        if winner % 2 == attackers:
            for k in range(4):
                pts += points(plays[k, 0], plays[k, 1])
        leader = winner
        if h[leader, 0] == 0:
            if winner % 2 == attackers:
                basis = 0 if params[P_KITTY_BASIS] == KITTY_BASIS_LEAD_SHAPE else w
                pts += points(kitty_one, kitty_two) * kitty_multiplier(
                    plays[basis, 0], plays[basis, 1], ctx, params)
            return pts
        a_one, a_two = _policy_lead(h, plays, (leader, banker), rules, rng, bufs, seats, pst)


@njit(cache=True)
def _throw_sample(tq, options, params, rng, sps, rows, bufs, row):
    """Deal the hidden cards (``pimc.sample_hidden``) of the throw query ``tq`` (see
    :func:`throw_chunks`) into ``rows`` = (``h``, ``others``) and the row; the throw's
    stand check and the units another hand could beat. False at a sampler dead end."""
    seat, sizes, kn, _, _, _, ctx = tq
    h, others = rows
    units, work = bufs
    ps, sbuf = sps[0], sps[2]
    for j in range(4):
        sbuf[BUF_SIZES + j] = sizes[j]
    hand_one, hand_two = sizes[4], sizes[5]
    if not sample_hidden(seat, hand_one, hand_two, kn, ctx, rng, ps, sbuf):
        return False
    for s in range(4):
        h[s, 0], h[s, 1] = ps[PS_HANDS + s, 0], ps[PS_HANDS + s, 1]
        row[Q_DEAL + 2 * s], row[Q_DEAL + 2 * s + 1] = h[s, 0], h[s, 1]
    row[Q_DEAL + 8], row[Q_DEAL + 9] = ps[PS_KITTY, 0], ps[PS_KITTY, 1]
    for k in range(3):
        others[k, 0], others[k, 1] = h[(seat + 1 + k) % 4, 0], h[(seat + 1 + k) % 4, 1]
    failed = work[W_FAILED]
    throw_failures(options[0, 0], options[0, 1], others, ctx, params, units, failed)
    n_opt = options.shape[0]
    row[Q_VALUES + n_opt + Q_STANDS] = 1 if (failed[0] | failed[1] | failed[2]) == 0 else 0
    row[Q_VALUES + n_opt + Q_BEATEN] = failed[0] | failed[1] | failed[2]
    return True


@njit(nogil=True, cache=True)
def _throw_chunk(c, tq, options, chunks, params, pols, out, pimc):
    """Chunk ``c`` of :func:`throw_chunks`."""
    seat, _, kn0, banker, levels, pts0, ctx = tq
    states, per_chunk = chunks
    rng = states[c].copy()
    saved = np.empty(4, dtype=np.uint64)
    _, _, _, _, _, scratch = chunk_buffers(pimc)
    sc, units, work, kn, pst = scratch[2], scratch[3], scratch[4], scratch[6], scratch[7]
    bufs = (units, work)
    play_scratch = (sc, units, work)
    seats = (pols[0], pols[1], kn)
    rules = (ctx, params)
    sps = new_pimc_scratch()
    h = np.empty((4, 2), dtype=np.int64)
    play = np.empty((4, 2), dtype=np.int64)
    others = np.empty((3, 2), dtype=np.int64)
    res = np.zeros(N_WHOLE, dtype=np.int64)
    out[c, :, :] = EMPTY
    for i in range(per_chunk):
        row = out[c, i]
        if not _throw_sample(tq, options, params, rng, sps, (h, others), bufs, row):
            row[:] = EMPTY
            continue
        k_one, k_two = row[Q_DEAL + 8], row[Q_DEAL + 9]
        copy_into(saved, rng)
        for k in range(options.shape[0]):
            copy_into(rng, saved)
            copy_into(kn, kn0)
            kn[KN_KITTY], kn[KN_KITTY + 1] = k_one, k_two
            copy_rows(play, h)
            pts = play_on(play, (k_one, k_two), (seat, banker, options[k, 0], options[k, 1],
                                                 pts0), rules, rng, play_scratch, seats, pst)
            res[W_PLAY + R_ATTACKER_POINTS] = pts
            _settle(levels, banker, params, res)
            row[Q_VALUES + k] = _swing(res, levels, seat % 2)


def throw_chunks(tq, options, chunks, params, pols, out):
    """Samples of the throw query ``tq`` = (``seat``, ``sizes``, ``kn``, ``banker``,
    ``levels``, ``pts``, ``ctx``): ``seat`` is to lead (its hand ``sizes[4:6]``, the four
    hand sizes ``sizes[:4]``, knowledge ``kn``, the attackers' points so far ``pts``, the
    trump context ``ctx``); each sampled deal is played on once per lead ``options[k]`` (0:
    the throw, then its units). Rows of sampler dead ends stay EMPTY."""
    for_each_chunk(_throw_chunk, chunks[0].shape[0], tq, options, chunks, params, pols, out,
                   SEARCH)
