"""Jit-compiled 掀牛: plays in bitmask hands, legal actions, whole hands, scoring.

Everything here mirrors the reference engine (:mod:`analyzer.xianniu.engine`) move for move;
the differential tests hold it to that. Hands are 48-bit masks (bit ``rank * 4 + suit``)
held as int64 inside the kernels. Rules arrive as ``params`` (int64) and ``set_beats``
(uint8) from :mod:`kernels.xianniu.tables`; no kernel branches on a preset's name.
"""

from __future__ import annotations

import numpy as np

from ..jit import njit, njit_counted, njit_uncounted
from .bits import KING, nib, popcount
# the state layout, read by callers as game.X
from .layout import (MAX_ACTIONS, MAX_LOG, MAX_XIAN, PH_QIANGCI, PH_LEAD, PH_KOU, PH_TRICK,
    PH_DISCARD, PH_OVER, END_KOU, END_TABLE_FULL, END_NO_CARDS, END_NAMES, WS_HANDS, WS_CAP,
    WS_NIU, WS_XI, WS_LIANG, WS_KKK, WS_K108, WS_SAID_KOU, WS_QUEUE, WS_INFO, WS_POINTS,
    WS_PUBLIC, WS_DISC, WS_PLAYED, S_PHASE, S_LEAD, S_MUST_LEAD, S_TIGHTENED, S_QLEN, S_QI,
    S_TOP_KIND, S_TOP_SIZE, S_TOP_RANK, S_TOP_K, S_TOP_OWNER, S_LIMIT, S_TABLE, S_N_XIAN,
    S_END, S_QIANGCI_SEAT, S_N_ACT, S_N_LEGAL, S_BANKER, S_N_LIST, S_N_PASS, S_TRACK,
    WS_XIAN_X, WS_XIAN_T, MAX_PASS, PASS_COLS, WS_PASS, WS_SIZE, S_N_CHOICE, MAX_CHOICE,
    CHOICE_COLS, CH_XIAN, CH_KOU_ANSWER, CH_KOU_LEAD, WS_CHOICE, R_BANKER, R_CAP0, R_CAP1,
    R_CAP2, R_PTS0, R_PTS1, R_PTS2, R_CI_SEAT, R_XIAN, R_ACTIONS, R_END, R_NIU0, R_NIU1,
    R_NIU2, R_XI0, R_XI1, R_XI2, R_LIANG0, R_LIANG1, R_LIANG2, R_QIANGCI_SEAT, N_RESULT,
    FULL_DECK)
from .choice import choose
from .policies import POLICY_PIMC, POLICY_RANDOM
from ..rng import bounded
from .plays import INFO_COLS, _push, gen_answers, gen_plays, gen_qiangci, has_qiangci
from .public_log import record_choice, record_pass
from .sampler import answer_at, count_answers, count_plays, play_at
from .tables import (ACT_DISCARD, ACT_KOU, ACT_PASS, ACT_PLAY, ACT_TIGHTEN, ACT_XIAN, KIND_BAI,
    KIND_BAI_LIANG, KIND_EIGHT_PAIRS, KIND_FISH_LIANG, KIND_NIU, KIND_SET, KIND_XI,
    KIND_XI_BAO_LIANG, N_SEATS, P_BAO_DOUBLES, P_CI, P_CI_DROPS_LIANG, P_CI_OFFSET, P_GOU,
    P_KKK_K108,
    P_LIANG_POINTS, P_QIANGCI_MANDATORY, P_TABLE_CAP, P_TIGHTEN_LH, P_TIGHTEN_MIN,
    P_XIAN_NEEDS_GOU, P_XIAN_POINTS)


@njit(cache=True)
def settle_points(ws, params, points):
    """Points per seat of the finished hand in ``ws`` (mirrors analyzer.xianniu.scoring.settle)."""
    cap = (ws[WS_CAP], ws[WS_CAP + 1], ws[WS_CAP + 2])
    n_xian = ws[S_N_XIAN]
    gou = (cap[0] >= params[P_GOU], cap[1] >= params[P_GOU], cap[2] >= params[P_GOU])
    ci = (cap[0] >= params[P_CI], cap[1] >= params[P_CI], cap[2] >= params[P_CI])
    off = params[P_CI_OFFSET]
    cip = (cap[0] - off if ci[0] else 0, cap[1] - off if ci[1] else 0,
           cap[2] - off if ci[2] else 0)
    # bao[w]: the last seat that 掀ed w, when w has 刺 (包刺), else -1
    bao0, bao1, bao2 = -1, -1, -1
    for e in range(n_xian):
        t = ws[WS_XIAN_T + e]
        if t == 0:
            bao0 = ws[WS_XIAN_X + e]
        elif t == 1:
            bao1 = ws[WS_XIAN_X + e]
        else:
            bao2 = ws[WS_XIAN_X + e]
    bao = (bao0 if ci[0] else -1, bao1 if ci[1] else -1, bao2 if ci[2] else -1)
    for s in range(N_SEATS):
        points[s] = 0
    for w in range(N_SEATS):
        if not gou[w]:
            continue
        basic = ws[WS_NIU + w] + ws[WS_XI + w] + ws[WS_LIANG + w]
        if ci[w] and params[P_CI_DROPS_LIANG] != 0:
            unit = cip[w] + ws[WS_NIU + w] + ws[WS_XI + w]
        else:
            unit = basic + cip[w]
        n_losers = 0
        for p in range(N_SEATS):
            if not gou[p]:
                n_losers += 1
        for p in range(N_SEATS):
            if gou[p]:
                continue
            amount = 0
            if bao[w] < 0:
                amount = unit
            elif params[P_BAO_DOUBLES] != 0:
                amount = 2 * unit if p == bao[w] else basic
            elif p == bao[w]:
                amount = unit * n_losers
            points[p] -= amount
            points[w] += amount
    for e in range(n_xian):
        x, t = ws[WS_XIAN_X + e], ws[WS_XIAN_T + e]
        if gou[x]:
            continue
        if params[P_XIAN_NEEDS_GOU] != 0 and not gou[t]:
            continue
        if params[P_BAO_DOUBLES] != 0 and bao[t] == x:
            continue
        points[x] -= params[P_XIAN_POINTS]
        points[t] += params[P_XIAN_POINTS]


@njit(cache=True)
def new_scratch():
    """Work buffers for :func:`play_hand`: (action masks, action info, state words)."""
    return (np.empty(MAX_ACTIONS, dtype=np.int64),
            np.empty((MAX_ACTIONS, INFO_COLS), dtype=np.int64),
            np.empty(WS_SIZE, dtype=np.int64))


@njit(cache=True)
def start_hand(deal, banker, params, ws):
    """Set ``ws`` to the state right after the deal (抢刺 holders first, else the banker)."""
    ws[:WS_XIAN_X] = 0
    for s in range(N_SEATS):
        ws[WS_HANDS + s] = deal[s]
    ws[S_LEAD] = banker
    ws[S_BANKER] = banker
    ws[S_TOP_OWNER] = -1
    ws[S_LIMIT] = 16
    ws[S_END] = -1
    ws[S_QIANGCI_SEAT] = -1
    ws[S_PHASE] = PH_LEAD
    qlen = 0
    for i in range(N_SEATS):
        s = (banker + i) % N_SEATS
        if has_qiangci(deal[s], params):
            ws[WS_QUEUE + qlen] = s
            qlen += 1
            if params[P_QIANGCI_MANDATORY] != 0:
                break
    if qlen > 0:
        ws[S_PHASE] = PH_QIANGCI
    ws[S_QLEN] = qlen


# -- legal actions (engine: legal_actions) ------------------------------------------------------
# Numba counts references to every array passed to a function, and removes that counting only
# when the function makes no calls that LLVM cannot inline and, apart from ``ws``, reads its
# arrays before it branches. Per action, the counting would cost as much as the work, so the
# helpers below are written that way, and the big callees (listing plays, ``choose``) are
# called from :func:`advance` itself, whose arrays are counted once per call.


@njit(cache=True)
def _may_tighten(ws, params):
    """True if the lead holder may call 紧牌 (tighten): not called yet before this lead, enough
    cards on the table, and a seat that would discard holds more cards than still fit."""
    tighten_min, lh_discards = params[P_TIGHTEN_MIN], params[P_TIGHTEN_LH]
    room = params[P_TABLE_CAP] - ws[S_TABLE]
    if ws[S_TIGHTENED] != 0 or ws[S_TABLE] < tighten_min:
        return False
    for s in range(N_SEATS):
        if s == ws[S_LEAD] and lh_discards == 0:
            continue
        if popcount(ws[WS_HANDS + s]) > room:
            return True
    return False


@njit(cache=True)
def _push_if(am, ai, n, allowed, typ):
    """Append the card-less action ``typ`` at ``n`` when ``allowed``; returns the new count."""
    if allowed:
        return _push(am, ai, n, typ, 0, -1, 0, -1, 0)
    return n


# it allocates (gen_qiangci, once a hand), and the uncounted advance calls it
@njit_counted
def _legal_qiangci(hand, params, am, ai):
    """List the 抢刺 (grab 刺) plays of ``hand``, then pass unless 抢刺 is mandatory."""
    n = gen_qiangci(hand, params, am, ai, 0)
    return _push_if(am, ai, n, params[P_QIANGCI_MANDATORY] == 0, np.int64(ACT_PASS))


@njit(cache=True)
def _lead_options(ws, params, am, ai):
    """List what the lead holder may do besides leading: 扣 (kou), unless a 掀 or 紧牌 has just
    forced a lead, and 紧牌 when allowed. Returns the number of entries."""
    n = _push_if(am, ai, np.int64(0), ws[S_MUST_LEAD] == 0, np.int64(ACT_KOU))
    return _push_if(am, ai, n, _may_tighten(ws, params), np.int64(ACT_TIGHTEN))


@njit(cache=True)
def _legal_kou_ask(ws, seat, am, ai):
    """List 扣 (agree to end the hand), then 掀 (xian) unless ``seat`` has said 扣 before."""
    n = _push(am, ai, 0, ACT_KOU, 0, -1, 0, -1, 0)
    return _push_if(am, ai, n, ws[WS_SAID_KOU + seat] == 0, np.int64(ACT_XIAN))


@njit(cache=True)
def _legal_discard(hand, am, ai):
    """List the 紧牌 discard of each card of ``hand``, lowest card first."""
    n = 0
    h = hand
    while h:
        low = h & -h
        n = _push(am, ai, n, ACT_DISCARD, low, -1, 1, -1, 0)
        h ^= low
    return n


# -- the action log ------------------------------------------------------------------------------


@njit(cache=True)
def _log_action(ws, logbuf, log_mode, act, n, am, ai):
    """Log action ``ws[S_N_ACT]``, ``act = (seat, type, mask)``, and, with ``log_mode`` 2,
    its ``n`` listed alternatives."""
    seat, typ, mask = act
    log, legal, legal_off = logbuf
    n_act = ws[S_N_ACT]
    if n_act >= log.shape[0]:
        raise IndexError("action log is full")
    log[n_act, 0] = seat
    log[n_act, 1] = typ
    log[n_act, 2] = mask
    if log_mode >= 2:
        n_legal = ws[S_N_LEGAL]
        if n_legal + n > legal.shape[0]:
            raise IndexError("legal-action log is full")
        for j in range(n):
            legal[n_legal + j, 0] = ai[j, 0]
            legal[n_legal + j, 1] = am[j]
        ws[S_N_LEGAL] = n_legal + n
        legal_off[n_act + 1] = n_legal + n


# -- transitions (engine: _order_after, _start_lead, _finish, _capture, _apply_<phase>) ----------


@njit(cache=True)
def _order_after(ws, seat):
    """Queue the two seats after ``seat``, in turn order."""
    ws[WS_QUEUE] = (seat + 1) % N_SEATS
    ws[WS_QUEUE + 1] = (seat + 2) % N_SEATS
    ws[S_QLEN] = 2
    ws[S_QI] = 0


@njit(cache=True)
def _finish(ws, reason):
    """End the hand for ``reason`` (an ``END_*`` code)."""
    ws[S_PHASE] = PH_OVER
    ws[S_END] = reason


@njit(cache=True)
def _start_lead(ws, seat, table_cap):
    """Give ``seat`` the lead (出牌权), unless the table is full or ``seat`` has no cards left:
    then the hand is over."""
    ws[S_PHASE] = PH_LEAD
    ws[S_LEAD] = seat
    ws[S_MUST_LEAD] = 0
    ws[S_TIGHTENED] = 0
    if ws[S_TABLE] >= table_cap:
        _finish(ws, np.int64(END_TABLE_FULL))
    elif ws[WS_HANDS + seat] == 0:
        _finish(ws, np.int64(END_NO_CARDS))


@njit(cache=True)
def _play_cards(ws, seat, mask):
    """Move ``mask`` from ``seat``'s hand into the public record."""
    ws[WS_HANDS + seat] &= ~mask
    ws[WS_PLAYED + seat] |= mask
    ws[WS_PUBLIC] |= mask


@njit(cache=True)
def _set_top(ws, seat):
    """Make ``seat``'s play, described in ``ws[WS_INFO:]``, the play to beat."""
    ws[S_TOP_KIND] = ws[WS_INFO + 1]
    ws[S_TOP_SIZE] = ws[WS_INFO + 2]
    ws[S_TOP_RANK] = ws[WS_INFO + 3]
    ws[S_TOP_K] = ws[WS_INFO + 4]
    ws[S_TOP_OWNER] = seat


@njit(cache=True)
def _capture(ws, seat, kind, size, rank, k, lp):
    """``seat`` captures (吃) a play: its cards go on the table, with the 牛 and 喜 cards and
    the 亮 (``lp`` points each) they score, and the KKK or K·10·8 they complete."""
    ws[WS_CAP + seat] += size
    ws[S_TABLE] += size
    if kind == KIND_NIU:
        ws[WS_NIU + seat] += size
    elif kind == KIND_XI:
        ws[WS_XI + seat] += size
    elif kind == KIND_XI_BAO_LIANG:
        ws[WS_XI + seat] += size - 4
        ws[WS_LIANG + seat] += lp
    elif kind == KIND_FISH_LIANG or kind == KIND_BAI_LIANG:
        ws[WS_LIANG + seat] += lp
    elif kind == KIND_SET:
        if size == 4:
            ws[WS_LIANG + seat] += lp
        elif size == 3 and rank == KING:
            ws[WS_KKK + seat] = 1
    elif kind == KIND_BAI and k == 1:
        ws[WS_K108 + seat] = 1


@njit(cache=True)
def _queue_tighten(ws, seat, table_cap, lh_discards):
    """Set the 紧牌 limit (the cards that still fit on the table) and queue, in turn order
    from the lead holder ``seat``, every seat that must discard down to it."""
    limit = table_cap - ws[S_TABLE]
    ws[S_LIMIT] = limit
    qlen = 0
    for i in range(N_SEATS):
        if i == 0 and lh_discards == 0:
            continue
        s = (seat + i) % N_SEATS
        if popcount(ws[WS_HANDS + s]) > limit:
            ws[WS_QUEUE + qlen] = s
            qlen += 1
    ws[S_QLEN] = qlen
    ws[S_QI] = 0


@njit(cache=True)
def _apply_qiangci(ws, params, seat, typ, mask):
    """抢刺: a pass hands the choice on (to the banker's lead after the last holder); a play is
    captured at once and its seat leads."""
    table_cap, lp = params[P_TABLE_CAP], params[P_LIANG_POINTS]
    if typ == ACT_PASS:
        ws[S_QI] += 1
        if ws[S_QI] == ws[S_QLEN]:
            _start_lead(ws, ws[S_BANKER], table_cap)
        return
    _play_cards(ws, seat, mask)
    kind = ws[WS_INFO + 1]
    _capture(ws, seat, kind, ws[WS_INFO + 2], ws[WS_INFO + 3], ws[WS_INFO + 4], lp)
    if kind == KIND_EIGHT_PAIRS:
        # 八大对 scores a 亮 for each four of a kind inside it
        for r in range(12):
            if nib(mask, r) == 15:
                ws[WS_LIANG + seat] += lp
    ws[S_QIANGCI_SEAT] = seat
    _start_lead(ws, seat, table_cap)


@njit(cache=True)
def _apply_lead(ws, params, seat, typ, mask):
    """The lead holder's action: 扣 asks the others, 紧牌 starts the discards, a lead starts a
    trick."""
    table_cap, lh_discards = params[P_TABLE_CAP], params[P_TIGHTEN_LH]
    if typ == ACT_KOU:
        record_choice(ws, seat, np.int64(CH_KOU_LEAD))
        ws[WS_SAID_KOU + seat] = 1
        ws[S_PHASE] = PH_KOU
        _order_after(ws, seat)
    elif typ == ACT_TIGHTEN:
        ws[S_TIGHTENED] = 1
        ws[S_MUST_LEAD] = 1
        _queue_tighten(ws, seat, table_cap, lh_discards)
        ws[S_PHASE] = PH_DISCARD
    else:
        _play_cards(ws, seat, mask)
        _set_top(ws, seat)
        _order_after(ws, seat)
        ws[S_PHASE] = PH_TRICK


@njit(cache=True)
def _apply_kou_ask(ws, seat, typ):
    """An answer to 扣: 掀 makes the lead holder lead; the hand ends when both say 扣."""
    if ws[WS_SAID_KOU + seat] == 0:  # 掀 was open to it: a choice
        record_choice(ws, seat, np.int64(CH_XIAN if typ == ACT_XIAN else CH_KOU_ANSWER))
    if typ == ACT_XIAN:
        e = ws[S_N_XIAN]
        ws[WS_XIAN_X + e] = seat
        ws[WS_XIAN_T + e] = ws[S_LEAD]
        ws[S_N_XIAN] = e + 1
        ws[S_PHASE] = PH_LEAD
        ws[S_MUST_LEAD] = 1
        return
    ws[WS_SAID_KOU + seat] = 1
    ws[S_QI] += 1
    if ws[S_QI] == ws[S_QLEN]:
        _finish(ws, np.int64(END_KOU))


@njit(cache=True)
def _apply_trick(ws, params, seat, typ, mask):
    """An answer or a pass; after the last answer the top play's owner captures it and leads."""
    table_cap, lp = params[P_TABLE_CAP], params[P_LIANG_POINTS]
    if typ == ACT_PASS:
        record_pass(ws, seat)
    if typ == ACT_PLAY:
        _play_cards(ws, seat, mask)
        _set_top(ws, seat)
    ws[S_QI] += 1
    if ws[S_QI] == ws[S_QLEN]:
        w = ws[S_TOP_OWNER]
        _capture(ws, w, ws[S_TOP_KIND], ws[S_TOP_SIZE], ws[S_TOP_RANK], ws[S_TOP_K], lp)
        _start_lead(ws, w, table_cap)


@njit(cache=True)
def _apply_discard(ws, seat, mask):
    """A 紧牌 discard, face down; a seat is done at the limit, and the lead follows the last."""
    ws[WS_HANDS + seat] &= ~mask
    ws[WS_DISC + seat] |= mask
    if popcount(ws[WS_HANDS + seat]) <= ws[S_LIMIT]:
        ws[S_QI] += 1
        if ws[S_QI] == ws[S_QLEN]:
            ws[S_PHASE] = PH_LEAD


@njit(cache=True, forceinline=True)  # a step of advance, inlined into it
def _list_actions(ws, params, set_beats, phase, seat, lazy, am, ai):
    """The legal actions of ``seat``, the seat to act (engine: legal_actions), as ``(n,
    n_lazy)``: ``n`` listed in ``am``, ``ai``; with ``lazy`` (the random policy, no full log)
    the leads and answers are counted (``n_lazy``, after the listed ones), not listed."""
    hand = ws[WS_HANDS + seat]
    n = 0
    n_lazy = 0
    if phase == PH_LEAD:
        n = _lead_options(ws, params, am, ai)
        room = params[P_TABLE_CAP] - ws[S_TABLE]
        if lazy:
            n_lazy = count_plays(hand, params, set_beats, room)
        else:
            n = gen_plays(hand, params, set_beats, room, am, ai, n)
    elif phase == PH_TRICK:
        top = (ws[S_TOP_KIND], ws[S_TOP_SIZE], ws[S_TOP_RANK], ws[S_TOP_K])
        if lazy:
            n_lazy = count_answers(hand, top[0], top[1], top[2], top[3], set_beats)
        else:
            n = gen_answers(hand, top[0], top[1], top[2], top[3], set_beats, am, ai,
                            np.int64(0))
        if n + n_lazy == 0:  # 有吃必吃: pass only when nothing beats the top play
            n = _push(am, ai, n, ACT_PASS, 0, -1, 0, -1, 0)
    elif phase == PH_QIANGCI:
        n = _legal_qiangci(hand, params, am, ai)
    elif phase == PH_KOU:
        n = _legal_kou_ask(ws, seat, am, ai)
    else:
        n = _legal_discard(hand, am, ai)
    return n, n_lazy


@njit(cache=True, forceinline=True)  # a step of advance, inlined into it
def _picked(ws, params, set_beats, phase, hand, listed, pick, am, ai, info):
    """The cards of action ``pick`` (``listed`` = (``n``, ``n_lazy``) as from
    :func:`_list_actions`), its (type, kind, size, rank, k) written to ``info``."""
    n, n_lazy = listed
    if pick < n or n_lazy == 0:
        for j in range(INFO_COLS):
            info[j] = ai[pick, j]
        return am[pick]
    if phase == PH_LEAD:
        return play_at(hand, params, set_beats, params[P_TABLE_CAP] - ws[S_TABLE], pick - n,
                       info)
    return answer_at(hand, ws[S_TOP_KIND], ws[S_TOP_SIZE], ws[S_TOP_RANK], ws[S_TOP_K],
                     set_beats, pick - n, info)


@njit(cache=True, forceinline=True)  # a step of advance (and of the solver), inlined
def apply_action(ws, params, phase, seat, typ, mask):
    """Apply ``seat``'s action of type ``typ`` with cards ``mask`` in ``phase`` (engine:
    apply, ``_apply_<phase>``)."""
    if phase == PH_QIANGCI:
        _apply_qiangci(ws, params, seat, typ, mask)
    elif phase == PH_LEAD:
        _apply_lead(ws, params, seat, typ, mask)
    elif phase == PH_KOU:
        _apply_kou_ask(ws, seat, typ)
    elif phase == PH_TRICK:
        _apply_trick(ws, params, seat, typ, mask)
    else:
        _apply_discard(ws, seat, mask)


# the play's inner loop allocates nothing (the counts were about a tenth of pimc's time)
@njit_uncounted
def advance(rules, policies, rng, scratch, logbuf, log_mode, forced_pick):
    """Play on from the state in ``scratch`` until the hand is over (returns 0) or a pimc
    seat must decide (returns 1, with that decision's legal actions listed in ``scratch``
    and their number in ``ws[S_N_LIST]``).

    ``rules`` is ``(params, set_beats, beaters)``; ``policies`` is ``(ids, parameters)``;
    ``scratch`` is ``(action masks, action info, state words)`` as from :func:`new_scratch`;
    ``logbuf`` is ``(log, legal, legal_off)``. ``log_mode`` 0: no log; 1: ``log[i] = (seat,
    action type, mask)``; 2: also every legal action at decision ``i`` in
    ``legal[legal_off[i]:legal_off[i + 1]]`` as (type, mask), every list built in full.
    ``forced_pick >= 0`` takes that entry at the first decision instead of asking its policy.
    """
    params, set_beats, beaters = rules
    policy_ids, policy_params = policies
    am, ai, ws = scratch
    info = ws[WS_INFO:WS_INFO + INFO_COLS]
    if log_mode >= 2 and ws[S_N_ACT] == 0:
        logbuf[2][0] = 0
    while ws[S_PHASE] != PH_OVER:
        # The seat to act (engine: current_player) and its legal actions. The random policy
        # draws leads and answers by index from closed-form counts (kernels.xianniu.sampler)
        # instead of listing them; the index means the same entry as in the listed order, so
        # both paths play the same hand from the same stream.
        phase = ws[S_PHASE]
        seat = ws[S_LEAD] if phase == PH_LEAD else ws[WS_QUEUE + ws[S_QI]]
        hand = ws[WS_HANDS + seat]
        lazy = log_mode < 2 and policy_ids[seat] == POLICY_RANDOM
        n, n_lazy = _list_actions(ws, params, set_beats, phase, seat, lazy, am, ai)
        # Choose (a policy's pick, or ``forced_pick``) and log.
        if forced_pick >= 0:
            pick = forced_pick
            forced_pick = -1
        elif policy_ids[seat] == POLICY_PIMC and n > 1:
            ws[S_N_LIST] = n
            return 1
        elif n_lazy > 0 or n == 1 or policy_ids[seat] == POLICY_RANDOM:
            # a forced action draws nothing from the stream
            pick = 0 if n + n_lazy == 1 else bounded(rng, n + n_lazy)
        else:
            unseen = FULL_DECK & ~hand & ~ws[WS_PUBLIC] & ~ws[WS_DISC + seat]
            pos = (phase, seat, hand, unseen, ws[WS_CAP + seat], ws[WS_SAID_KOU + seat],
                   params[P_GOU], n)
            pick = choose(policy_ids[seat], policy_params[seat], pos, am, ai, beaters, rng, ws)
        mask = _picked(ws, params, set_beats, phase, hand, (n, n_lazy), pick, am, ai, info)
        typ = info[0]
        if log_mode >= 1:
            _log_action(ws, logbuf, log_mode, (seat, typ, mask), n, am, ai)
        ws[S_N_ACT] += 1
        apply_action(ws, params, phase, seat, typ, mask)
    return 0


@njit(cache=True)
def finish_hand(params, ws, res):
    """Score the finished hand in ``ws`` and write its result row into ``res``."""
    if params[P_KKK_K108] != 0:
        for s in range(N_SEATS):
            if ws[WS_KKK + s] != 0 and ws[WS_K108 + s] != 0:
                ws[WS_LIANG + s] += params[P_LIANG_POINTS]
    settle_points(ws, params, res[R_PTS0:R_PTS0 + 3])
    ci_seat = -1
    for s in range(N_SEATS):
        res[R_CAP0 + s] = ws[WS_CAP + s]
        res[R_NIU0 + s] = ws[WS_NIU + s]
        res[R_XI0 + s] = ws[WS_XI + s]
        res[R_LIANG0 + s] = ws[WS_LIANG + s]
        if ws[WS_CAP + s] >= params[P_CI]:
            ci_seat = s
    res[R_BANKER] = ws[S_BANKER]
    res[R_CI_SEAT] = ci_seat
    res[R_XIAN] = ws[S_N_XIAN]
    res[R_ACTIONS] = ws[S_N_ACT]
    res[R_END] = ws[S_END]
    res[R_QIANGCI_SEAT] = ws[S_QIANGCI_SEAT]


@njit(cache=True)
def deal(rng, hands):
    """Deal 16 cards to each seat into ``hands``: a uniform random 3 × 16 partition.

    A Fisher-Yates shuffle stopped after 32 steps: the first 32 positions are a uniform
    random arrangement, and the 16 cards left over are the third hand.
    """
    cards = np.arange(48)
    for i in range(32):
        j = i + bounded(rng, 48 - i)
        t = cards[i]
        cards[i] = cards[j]
        cards[j] = t
    h0 = 0
    h1 = 0
    for c in range(16):
        h0 |= 1 << cards[c]
        h1 |= 1 << cards[16 + c]
    hands[0] = h0
    hands[1] = h1
    hands[2] = 0xFFFFFFFFFFFF ^ h0 ^ h1
