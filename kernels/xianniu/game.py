"""Jit-compiled 掀牛: plays in bitmask hands, legal actions, whole hands, scoring.

Everything here mirrors the reference engine (:mod:`analyzer.xianniu.engine`) move for move;
the differential tests hold it to that. Hands are 48-bit masks (bit ``rank * 4 + suit``)
held as int64 inside the kernels. Rules arrive as ``params`` (int64) and ``set_beats``
(uint8) from :mod:`kernels.xianniu.tables`; no kernel branches on a preset's name.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .bits import KING, nib, popcount
from .policies import POLICY_PIMC, POLICY_RANDOM, choose
from ..rng import bounded
from .plays import INFO_COLS, _push, gen_answers, gen_plays, gen_qiangci, has_qiangci
from .sampler import answer_at, count_answers, count_plays, play_at
from .tables import (ACT_DISCARD, ACT_KOU, ACT_PASS, ACT_PLAY, ACT_TIGHTEN, ACT_XIAN, KIND_BAI,
    KIND_BAI_LIANG, KIND_EIGHT_PAIRS, KIND_FISH_LIANG, KIND_NIU, KIND_SET, KIND_XI,
    KIND_XI_BAO_LIANG, N_SEATS, P_BAO_DOUBLES, P_CI, P_CI_DROPS_LIANG, P_CI_OFFSET, P_GOU,
    P_KKK_K108,
    P_LIANG_POINTS, P_QIANGCI_MANDATORY, P_TABLE_CAP, P_TIGHTEN_LH, P_TIGHTEN_MIN,
    P_XIAN_NEEDS_GOU, P_XIAN_POINTS)

MAX_ACTIONS = 1024  # legal actions at one decision (the worst 16-card hand has ~620)
MAX_LOG = 512  # actions in one hand
MAX_XIAN = 64  # 掀 events in one hand (each needs a lead after it: at most 48)

# Phases.
PH_QIANGCI, PH_LEAD, PH_KOU, PH_TRICK, PH_DISCARD, PH_OVER = range(6)
# End reasons.
END_KOU, END_TABLE_FULL, END_NO_CARDS = range(3)
END_NAMES = ("kou", "table full", "lead holder has no cards")

# State words of one hand inside the scratch buffer (``ws``): everything needed to resume
# the hand, so a copy of ``ws`` is a copy of the game.
WS_HANDS, WS_CAP, WS_NIU, WS_XI, WS_LIANG, WS_KKK, WS_K108, WS_SAID_KOU, WS_QUEUE = range(0, 27, 3)
WS_INFO = 27
WS_POINTS = WS_INFO + INFO_COLS
WS_PUBLIC = WS_POINTS + 3  # every card played in public (captured, dead, on top)
WS_DISC = WS_PUBLIC + 1  # each seat's own 紧牌 discards (face down: known to that seat only)
WS_PLAYED = WS_DISC + 3  # each seat's cards played in public
(S_PHASE, S_LEAD, S_MUST_LEAD, S_TIGHTENED, S_QLEN, S_QI, S_TOP_KIND, S_TOP_SIZE, S_TOP_RANK,
 S_TOP_K, S_TOP_OWNER, S_LIMIT, S_TABLE, S_N_XIAN, S_END, S_QIANGCI_SEAT, S_N_ACT, S_N_LEGAL,
 S_BANKER, S_N_LIST, S_N_PASS, S_TRACK) = range(WS_PLAYED + 3, WS_PLAYED + 3 + 22)
WS_XIAN_X = S_TRACK + 1
WS_XIAN_T = WS_XIAN_X + MAX_XIAN
MAX_PASS = 96  # passes in one hand (two answers a trick, at most 48 tricks)
PASS_COLS = 7  # seat, top kind, size, rank, k, seat's public plays then, its discard count then
WS_PASS = WS_XIAN_T + MAX_XIAN
WS_SIZE = WS_PASS + MAX_PASS * PASS_COLS

# Result row of one hand.
(R_BANKER, R_CAP0, R_CAP1, R_CAP2, R_PTS0, R_PTS1, R_PTS2, R_CI_SEAT, R_XIAN, R_ACTIONS, R_END,
 R_NIU0, R_NIU1, R_NIU2, R_XI0, R_XI1, R_XI2, R_LIANG0, R_LIANG1, R_LIANG2, R_QIANGCI_SEAT,
 N_RESULT) = range(22)

FULL_DECK = (1 << 48) - 1


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


@njit(cache=True)
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
    log, legal, legal_off = logbuf
    hands = ws[WS_HANDS:WS_HANDS + 3]
    cap = ws[WS_CAP:WS_CAP + 3]
    niu = ws[WS_NIU:WS_NIU + 3]
    xi = ws[WS_XI:WS_XI + 3]
    liang = ws[WS_LIANG:WS_LIANG + 3]
    kkk = ws[WS_KKK:WS_KKK + 3]
    k108 = ws[WS_K108:WS_K108 + 3]
    said_kou = ws[WS_SAID_KOU:WS_SAID_KOU + 3]
    queue = ws[WS_QUEUE:WS_QUEUE + 3]
    info = ws[WS_INFO:WS_INFO + INFO_COLS]
    disc = ws[WS_DISC:WS_DISC + 3]
    xian_x = ws[WS_XIAN_X:WS_XIAN_X + MAX_XIAN]
    xian_t = ws[WS_XIAN_T:WS_XIAN_T + MAX_XIAN]
    played = ws[WS_PLAYED:WS_PLAYED + 3]
    cap_limit = params[P_TABLE_CAP]
    lp = params[P_LIANG_POINTS]
    # the scalar state, loaded here and stored back at every return
    phase = ws[S_PHASE]
    lead_holder = ws[S_LEAD]
    must_lead = ws[S_MUST_LEAD] != 0
    tightened = ws[S_TIGHTENED] != 0
    qlen = ws[S_QLEN]
    qi = ws[S_QI]
    top_kind = ws[S_TOP_KIND]
    top_size = ws[S_TOP_SIZE]
    top_rank = ws[S_TOP_RANK]
    top_k = ws[S_TOP_K]
    top_owner = ws[S_TOP_OWNER]
    limit = ws[S_LIMIT]
    table = ws[S_TABLE]
    n_xian = ws[S_N_XIAN]
    end = ws[S_END]
    qiangci_seat = ws[S_QIANGCI_SEAT]
    n_act = ws[S_N_ACT]
    n_legal = ws[S_N_LEGAL]
    banker = ws[S_BANKER]
    n_pass = ws[S_N_PASS]
    track = ws[S_TRACK] != 0
    status = 0
    if log_mode >= 2 and n_act == 0:
        legal_off[0] = 0
    while phase != PH_OVER:
        # -- legal actions of the seat to act --------------------------------------
        # The random policy draws leads and answers by index from closed-form counts
        # (kernels.xianniu.sampler) instead of listing them; the index means the same entry as in
        # the listed order, so both paths play the same hand from the same stream.
        if phase == PH_LEAD:
            seat = lead_holder
        else:
            seat = queue[qi]
        hand = hands[seat]
        lazy = log_mode < 2 and policy_ids[seat] == POLICY_RANDOM
        n = 0
        n_fixed = 0  # listed entries before the lazily counted plays
        n_lazy = 0
        if phase == PH_QIANGCI:
            n = gen_qiangci(hand, params, am, ai, 0)
            if params[P_QIANGCI_MANDATORY] == 0:
                n = _push(am, ai, n, ACT_PASS, 0, -1, 0, -1, 0)
        elif phase == PH_LEAD:
            if not must_lead:
                n = _push(am, ai, n, ACT_KOU, 0, -1, 0, -1, 0)
            if not tightened and table >= params[P_TIGHTEN_MIN]:
                lim = cap_limit - table
                may = False
                for j in range(N_SEATS):
                    if j == lead_holder and params[P_TIGHTEN_LH] == 0:
                        continue
                    if popcount(hands[j]) > lim:
                        may = True
                if may:
                    n = _push(am, ai, n, ACT_TIGHTEN, 0, -1, 0, -1, 0)
            if lazy:
                n_fixed = n
                n_lazy = count_plays(hand, params, set_beats, cap_limit - table)
            else:
                n = gen_plays(hand, params, set_beats, cap_limit - table, am, ai, n)
        elif phase == PH_KOU:
            n = _push(am, ai, n, ACT_KOU, 0, -1, 0, -1, 0)
            if said_kou[seat] == 0:
                n = _push(am, ai, n, ACT_XIAN, 0, -1, 0, -1, 0)
        elif phase == PH_TRICK:
            if lazy:
                n_lazy = count_answers(hand, top_kind, top_size, top_rank, top_k, set_beats)
            else:
                n = gen_answers(hand, top_kind, top_size, top_rank, top_k, set_beats, am, ai, 0)
            if n + n_lazy == 0:
                n = _push(am, ai, n, ACT_PASS, 0, -1, 0, -1, 0)
        else:  # PH_DISCARD
            h = hand
            while h:
                low = h & -h
                n = _push(am, ai, n, ACT_DISCARD, low, -1, 1, -1, 0)
                h ^= low
        # -- choose and log ----------------------------------------------------------
        if forced_pick >= 0:
            pick = forced_pick
            forced_pick = -1
        elif policy_ids[seat] == POLICY_PIMC and n > 1:
            ws[S_N_LIST] = n
            status = 1
            break
        elif n_lazy > 0:
            pick = 0 if n_fixed + n_lazy == 1 else bounded(rng, n_fixed + n_lazy)
        else:
            if n == 1:
                pick = 0  # a forced action draws nothing from the stream
            elif policy_ids[seat] == POLICY_RANDOM:
                pick = bounded(rng, n)
            else:
                unseen = FULL_DECK & ~hand & ~ws[WS_PUBLIC] & ~disc[seat]
                pick = choose(policy_ids[seat], policy_params[seat], phase == PH_LEAD,
                              phase == PH_TRICK, phase == PH_KOU, phase == PH_DISCARD, seat,
                              hand, unseen, cap[seat], said_kou[seat], params[P_GOU], am, ai, n,
                              beaters, rng)
        if pick >= n_fixed and n_lazy > 0:
            if phase == PH_LEAD:
                mask = play_at(hand, params, set_beats, cap_limit - table, pick - n_fixed, info)
            else:
                mask = answer_at(hand, top_kind, top_size, top_rank, top_k, set_beats,
                                 pick - n_fixed, info)
        else:
            mask = am[pick]
            for j in range(INFO_COLS):
                info[j] = ai[pick, j]
        typ = info[0]
        if log_mode >= 1:
            if n_act >= log.shape[0]:
                raise IndexError("action log is full")
            log[n_act, 0] = seat
            log[n_act, 1] = typ
            log[n_act, 2] = mask
        if log_mode >= 2:
            if n_legal + n > legal.shape[0]:
                raise IndexError("legal-action log is full")
            for j in range(n):
                legal[n_legal + j, 0] = ai[j, 0]
                legal[n_legal + j, 1] = am[j]
            n_legal += n
            legal_off[n_act + 1] = n_legal
        n_act += 1
        # -- apply ---------------------------------------------------------------------
        if phase == PH_QIANGCI:
            if typ == ACT_PASS:
                qi += 1
                if qi == qlen:
                    phase = PH_LEAD
                    lead_holder = banker
                    if hands[banker] == 0:
                        phase = PH_OVER
                        end = END_NO_CARDS
                continue
            kind = info[1]
            hands[seat] &= ~mask
            played[seat] |= mask
            ws[WS_PUBLIC] |= mask
            size = info[2]
            cap[seat] += size
            table += size
            if kind == KIND_EIGHT_PAIRS:
                for r in range(12):
                    if nib(mask, r) == 15:
                        liang[seat] += lp
            qiangci_seat = seat
            lead_holder = seat
            must_lead = False
            tightened = False
            phase = PH_LEAD
            if table >= cap_limit:
                phase = PH_OVER
                end = END_TABLE_FULL
            elif hands[seat] == 0:
                phase = PH_OVER
                end = END_NO_CARDS
        elif phase == PH_LEAD:
            if typ == ACT_KOU:
                said_kou[seat] = 1
                phase = PH_KOU
                queue[0] = (seat + 1) % N_SEATS
                queue[1] = (seat + 2) % N_SEATS
                qlen = 2
                qi = 0
            elif typ == ACT_TIGHTEN:
                tightened = True
                must_lead = True
                limit = cap_limit - table
                qlen = 0
                qi = 0
                for i in range(N_SEATS):
                    j = (seat + i) % N_SEATS
                    if i == 0 and params[P_TIGHTEN_LH] == 0:
                        continue
                    if popcount(hands[j]) > limit:
                        queue[qlen] = j
                        qlen += 1
                phase = PH_DISCARD
            else:
                hands[seat] &= ~mask
                played[seat] |= mask
                ws[WS_PUBLIC] |= mask
                top_kind = info[1]
                top_size = info[2]
                top_rank = info[3]
                top_k = info[4]
                top_owner = seat
                queue[0] = (seat + 1) % N_SEATS
                queue[1] = (seat + 2) % N_SEATS
                qlen = 2
                qi = 0
                phase = PH_TRICK
        elif phase == PH_KOU:
            if typ == ACT_XIAN:
                xian_x[n_xian] = seat
                xian_t[n_xian] = lead_holder
                n_xian += 1
                phase = PH_LEAD
                must_lead = True
            else:
                said_kou[seat] = 1
                qi += 1
                if qi == qlen:
                    phase = PH_OVER
                    end = END_KOU
        elif phase == PH_TRICK:
            # the pass log (what pimc's sampler must respect) is kept only when asked for
            if typ == ACT_PASS and track and n_pass < MAX_PASS:
                row = WS_PASS + n_pass * PASS_COLS
                ws[row] = seat
                ws[row + 1] = top_kind
                ws[row + 2] = top_size
                ws[row + 3] = top_rank
                ws[row + 4] = top_k
                ws[row + 5] = played[seat]
                ws[row + 6] = popcount(disc[seat])
                n_pass += 1
            if typ == ACT_PLAY:
                hands[seat] &= ~mask
                played[seat] |= mask
                ws[WS_PUBLIC] |= mask
                top_kind = info[1]
                top_size = info[2]
                top_rank = info[3]
                top_k = info[4]
                top_owner = seat
            qi += 1
            if qi == qlen:
                w = top_owner
                cap[w] += top_size
                table += top_size
                if top_kind == KIND_NIU:
                    niu[w] += top_size
                elif top_kind == KIND_XI:
                    xi[w] += top_size
                elif top_kind == KIND_XI_BAO_LIANG:
                    xi[w] += top_size - 4
                    liang[w] += lp
                elif top_kind == KIND_FISH_LIANG or top_kind == KIND_BAI_LIANG:
                    liang[w] += lp
                elif top_kind == KIND_SET:
                    if top_size == 4:
                        liang[w] += lp
                    elif top_size == 3 and top_rank == KING:
                        kkk[w] = 1
                elif top_kind == KIND_BAI and top_k == 1:
                    k108[w] = 1
                lead_holder = w
                must_lead = False
                tightened = False
                phase = PH_LEAD
                if table >= cap_limit:
                    phase = PH_OVER
                    end = END_TABLE_FULL
                elif hands[w] == 0:
                    phase = PH_OVER
                    end = END_NO_CARDS
        else:  # PH_DISCARD
            hands[seat] &= ~mask
            disc[seat] |= mask
            if popcount(hands[seat]) <= limit:
                qi += 1
                if qi == qlen:
                    phase = PH_LEAD
    ws[S_PHASE] = phase
    ws[S_LEAD] = lead_holder
    ws[S_MUST_LEAD] = must_lead
    ws[S_TIGHTENED] = tightened
    ws[S_QLEN] = qlen
    ws[S_QI] = qi
    ws[S_TOP_KIND] = top_kind
    ws[S_TOP_SIZE] = top_size
    ws[S_TOP_RANK] = top_rank
    ws[S_TOP_K] = top_k
    ws[S_TOP_OWNER] = top_owner
    ws[S_LIMIT] = limit
    ws[S_TABLE] = table
    ws[S_N_XIAN] = n_xian
    ws[S_END] = end
    ws[S_QIANGCI_SEAT] = qiangci_seat
    ws[S_N_ACT] = n_act
    ws[S_N_LEGAL] = n_legal
    ws[S_N_PASS] = n_pass
    return status


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
