"""The distilled policy ``learned`` (id 4): a linear scorer over the listed legal actions.

Each action ``a`` of a decision gets the score ``u[type(a)] · φ + v[group(a)] · ψ(a)`` and the
best score is played. ``φ`` (:func:`state_features`) is what the seat knows of the hand: its
own cards against the unseen ones, everyone's captured cards and points (they lie face up),
the table count, the 扣/掀 history, the banker. ``ψ`` (:func:`candidate_features`) describes
the action: its kind, size and rank, whether anything unseen can beat it, the 牛/喜 points it
plays, keeps or gives up, whether it makes the seat 够, and whether heuristic2 would play it
(so the scorer learns where to depart from heuristic2). The action's type (:data:`TYPE_NAMES`)
picks the block ``u``; the group (lead, answer or other, each with the seat 够 or not) picks
``v``. The weights are fitted to pimc's action values (``scripts/train/xianniu_train_policy.py``)
and arrive in the policy's parameter row from ``LEARNED_W`` on.

Only the seat's own hand and discards, the public record and the listed actions are read: no
other seat's hand, and nothing of the pass log (kept only when a pimc seat plays).

The scorer's helpers are ``forceinline`` (LLVM inlines them) rather than Numba's
``inline="always"``, which typed each of them again at every call site: the same play speed,
the compile of a cold ``should-xian`` a few seconds shorter in alternated runs, within the
noise of a shared machine (docs/bench.md, "Compile time, cold").
"""

from __future__ import annotations

import numpy as np

# game as a module object: it is still loading when policies (its import) loads this module
from ..jit import njit, njit_counted
from . import layout as kg
from . import policies as kp
from .bits import KING, POP4, QUEEN, nib, popcount, ranks_with_at_least, same_rank_kind
from .policies import LEARNED_ACT as N_ACT
from .policies import LEARNED_GROUPS as N_GROUPS
from .policies import LEARNED_STATE as N_STATE
from .policies import LEARNED_TYPES as N_TYPES
from .policies import N_LEARNED_WEIGHTS
from .tables import (
    ACT_KOU,
    ACT_PASS,
    ACT_PLAY,
    ACT_TIGHTEN,
    ACT_XIAN,
    KIND_BAI,
    KIND_BAI_LIANG,
    KIND_FISH,
    KIND_FISH_LIANG,
    KIND_K_BAI,
    KIND_NIU,
    KIND_SET,
    KIND_XI,
    KIND_XI_BAO_LIANG,
    N_SEATS,
    P_GOU,
)

# Action types: 出牌 lead, answer (吃), 抢刺 play, pass, the lead holder's 扣, 紧牌 (tighten),
# 掀, agreeing to a 扣, a 紧牌 discard. ψ blocks (N_GROUPS): (lead, answer, other) × (not 够, 够).
T_LEAD, T_ANSWER, T_QIANGCI, T_PASS, T_KOU, T_TIGHTEN, T_XIAN, T_AGREE, T_DISCARD = range(9)
TYPE_NAMES = ("lead", "answer", "qiangci", "pass", "kou", "tighten", "xian", "agree", "discard")
assert len(TYPE_NAMES) == N_TYPES and N_LEARNED_WEIGHTS == N_TYPES * N_STATE + N_GROUPS * N_ACT
PSI_H2 = 12  # ψ entry: heuristic2 would take this action


@njit(cache=True, forceinline=True)
def action_type(phase_lead, phase_trick, phase_kou, typ):
    """The scorer's type (``T_*``) of an action of type ``typ`` in the given phase."""
    if typ == ACT_PLAY:
        if phase_lead:
            return T_LEAD
        return T_ANSWER if phase_trick else T_QIANGCI
    if typ == ACT_PASS:
        return T_PASS
    if typ == ACT_KOU:
        return T_AGREE if phase_kou else T_KOU
    if typ == ACT_TIGHTEN:
        return T_TIGHTEN
    if typ == ACT_XIAN:
        return T_XIAN
    return T_DISCARD


@njit(cache=True, forceinline=True)
def group_of(t, gou):
    """The ψ block of type ``t`` for a seat that is 够 (``gou`` 1) or not (0)."""
    g = 2
    if t == T_LEAD:
        g = 0
    elif t == T_ANSWER:
        g = 1
    return 2 * g + gou


@njit(cache=True)
def _estimate2(hand, unseen, captured, beaters, w, sure):
    """:func:`kernels.xianniu.policies.estimate2` given its ``sure_cards2`` (the same
    arithmetic in the same order, so the same float)."""
    strong = POP4[nib(hand, KING)] + POP4[nib(hand, QUEEN)]
    if w[kp.H2_STRONG] > 0.5:
        for r in (KING, QUEEN):
            c = POP4[nib(hand, r)]
            if c > 0 and kp.is_sure(np.int64(KIND_SET), c, r, np.int64(0), unseen, beaters):
                strong -= c
        return captured + w[kp.H_SURE_WEIGHT] * sure + w[kp.H_STRONG_WEIGHT] * strong
    return captured + w[kp.H_SURE_WEIGHT] * sure + w[kp.H_STRONG_WEIGHT] * max(strong - sure, 0)


@njit(cache=True)
def state_features(ws, pos, beaters, w, phi):
    """Write φ, what the seat to act at the decision ``pos`` (:data:`.layout.POSITION`)
    knows of the hand in ``ws``, into ``phi[:N_STATE]``."""
    _, seat, hand, unseen, captured, said_kou, gou_min, _ = pos
    o1 = (seat + 1) % N_SEATS
    o2 = (seat + 2) % N_SEATS
    c1, c2 = ws[kg.WS_CAP + o1], ws[kg.WS_CAP + o2]
    sure = kp.sure_cards2(hand, unseen, beaters)
    est = _estimate2(hand, unseen, captured, beaters, w, sure)
    pts1 = ws[kg.WS_NIU + o1] + ws[kg.WS_XI + o1] + ws[kg.WS_LIANG + o1]
    pts2 = ws[kg.WS_NIU + o2] + ws[kg.WS_XI + o2] + ws[kg.WS_LIANG + o2]
    hand_pts = 0
    for r in range(12):
        hand_pts += kp.rank_points(r, nib(hand, r))
    xian_me = 0
    for e in range(ws[kg.S_N_XIAN]):
        if ws[kg.WS_XIAN_T + e] == seat:
            xian_me += 1
    phi[0] = 1.0
    phi[1] = captured / 6.0
    phi[2] = 1.0 if captured >= gou_min else 0.0
    phi[3] = c1 / 6.0
    phi[4] = c2 / 6.0
    phi[5] = 1.0 if c1 >= gou_min or c2 >= gou_min else 0.0
    phi[6] = ws[kg.S_TABLE] / 16.0
    phi[7] = popcount(hand) / 16.0
    phi[8] = est / 6.0
    phi[9] = max(est - 6.0, 0.0) / 6.0
    phi[10] = max(6.0 - est, 0.0) / 6.0
    phi[11] = sure / 6.0
    phi[12] = (POP4[nib(hand, KING)] + POP4[nib(hand, QUEEN)]) / 4.0
    phi[13] = hand_pts / 4.0
    phi[14] = popcount(ranks_with_at_least(hand, 4))
    phi[15] = (ws[kg.WS_NIU + seat] + ws[kg.WS_XI + seat] + ws[kg.WS_LIANG + seat]) / 4.0
    phi[16] = max(pts1, pts2) / 4.0
    phi[17] = ws[kg.WS_SAID_KOU + o1] + ws[kg.WS_SAID_KOU + o2]
    phi[18] = ws[kg.S_N_XIAN] / 2.0
    phi[19] = 1.0 if ws[kg.S_BANKER] == seat else 0.0
    phi[20] = xian_me
    phi[21] = said_kou
    phi[22] = (POP4[nib(unseen, KING)] + POP4[nib(unseen, QUEEN)]) / 8.0
    phi[23] = max(gou_min - captured, 0) / 6.0


@njit(cache=True, forceinline=True)
def _play_features(play, ctx, beaters, psi):
    """ψ entries 0–25 of a play (lead, answer or 抢刺): ``play`` is ``(kind, size, rank, k,
    mask)``, ``ctx`` as in :func:`candidate_features`."""
    kind, size, rank, k, mask = play
    phase_lead, _, last, hand, unseen, captured, gou_min, table = ctx
    rank_proxy = float(rank) if rank >= 0 else 6.0
    left, lost, plan = 0, 0, 0.0
    if kind == KIND_SET or kind == KIND_NIU or kind == KIND_XI:
        hn = nib(hand, rank)
        rem = hn & ~nib(mask, rank)
        left = POP4[rem]
        own = size if kind != KIND_SET else 0
        lost = kp.rank_points(rank, hn) - own - kp.rank_points(rank, rem)
        if left >= 2 and same_rank_kind(rank, rem, left) != KIND_SET:
            plan = 1.0
    sure = kp.is_sure(kind, size, rank, k, unseen, beaters)
    quad = kind == KIND_SET and size == 4
    reach = captured < gou_min and captured + size >= gou_min
    psi[0] = size / 4.0
    psi[1] = rank_proxy / 11.0
    psi[2] = 1.0 if kind == KIND_SET else 0.0
    psi[3] = 1.0 if kind == KIND_NIU else 0.0
    psi[4] = 1.0 if kind == KIND_XI else 0.0
    psi[5] = 1.0 if kind == KIND_FISH or kind == KIND_BAI or kind == KIND_K_BAI else 0.0
    psi[6] = 1.0 if (quad or kind == KIND_FISH_LIANG or kind == KIND_BAI_LIANG
                     or kind == KIND_XI_BAO_LIANG) else 0.0
    psi[7] = 1.0 if sure else 0.0
    psi[8] = kp.play_points(kind, size) / 4.0
    psi[9] = left / 4.0
    psi[10] = lost / 4.0
    psi[11] = plan
    psi[13] = 1.0 if reach else 0.0
    psi[14] = size / 4.0 if sure else 0.0
    psi[15] = 1.0 if table + size >= 16 else 0.0
    psi[16] = size / 4.0 if last else 0.0
    psi[17] = 1.0 if last and reach else 0.0
    psi[18] = 1.0 if rank == KING else 0.0
    psi[19] = 1.0 if rank == QUEEN else 0.0
    psi[20] = 1.0 if size == 1 else 0.0
    psi[21] = 1.0 if size == 2 else 0.0
    psi[22] = 1.0 if size == 3 else 0.0
    psi[23] = 0.0 if sure else size / 4.0
    psi[24] = (rank_proxy / 11.0) ** 2
    psi[25] = POP4[nib(unseen, rank)] / 4.0 if rank >= 0 else 0.0
    room = 16 - table
    psi[31] = size / room if phase_lead and room > 0 else 0.0


@njit(cache=True, forceinline=True)
def candidate_features(t, i, am, ai, ctx, beaters, h2, psi):
    """Write ψ of listed action ``i`` (scorer type ``t``) into ``psi[:N_ACT]``; ``h2`` is
    heuristic2's pick; ``ctx`` is ``(phase_lead, phase_trick, last, hand, unseen, captured,
    gou_min, table)``, ``last`` True when the seat answers last in the trick."""
    hand, unseen = ctx[3], ctx[4]
    for j in range(N_ACT):
        psi[j] = 0.0
    psi[PSI_H2] = 1.0 if i == h2 else 0.0
    if t == T_LEAD or t == T_ANSWER or t == T_QIANGCI:
        _play_features((ai[i, 1], ai[i, 2], ai[i, 3], ai[i, 4], am[i]), ctx, beaters, psi)
    elif t == T_DISCARD:
        c = popcount(am[i] - 1)
        r = c >> 2
        hn = nib(hand, r)
        psi[26] = kp._keep_value(np.int64(c), hand, unseen, beaters) / 40.0
        psi[27] = r / 11.0
        psi[28] = 1.0 if kp.rank_points(r, hn) > 0 else 0.0
        psi[29] = POP4[hn] / 4.0
        psi[30] = 1.0 if kp.is_sure(np.int64(KIND_SET), POP4[hn], r, np.int64(0), unseen,
                                    beaters) else 0.0


@njit(cache=True, forceinline=True)
def _dot(a, w, off, n):
    s = 0.0
    for j in range(n):
        s += a[j] * w[off + j]
    return s


# it allocates: not the reference-free build of choose()
@njit_counted
def learned_choice(ws, pos, am, ai, beaters, w):
    """Index of the scorer's best action among the listed (the first on a tie) at the
    decision ``pos`` (:data:`.layout.POSITION`).

    Where every listed action has one type (answers, discards) the state term is the same
    for all of them, so φ is computed only where types mix (lead, 扣 answers, 抢刺)."""
    phase, _, hand, unseen, captured, _, gou_min, n = pos
    phase_lead, phase_trick, phase_kou = phase == kg.PH_LEAD, phase == kg.PH_TRICK, \
        phase == kg.PH_KOU
    h2 = kp.heuristic2_choice(pos, am, ai, beaters, w)
    mixed = False
    for i in range(1, n):
        if ai[i, 0] != ai[0, 0]:
            mixed = True
            break
    psi = np.empty(N_ACT + (N_STATE if mixed else 0), dtype=np.float64)
    phi = psi[N_ACT:]
    if mixed:
        state_features(ws, pos, beaters, w, phi)
    gou = 1 if captured >= gou_min else 0
    table = ws[kg.S_TABLE]
    last = phase_trick and ws[kg.S_QI] == ws[kg.S_QLEN] - 1
    ctx = (phase_lead, phase_trick, last, hand, unseen, captured, gou_min, table)
    v0 = kp.LEARNED_W + N_TYPES * N_STATE
    play_base, play_done = 0.0, False  # the state term of the plays, computed once
    best, best_s = 0, -np.inf
    for i in range(n):
        t = action_type(phase_lead, phase_trick, phase_kou, ai[i, 0])
        s = 0.0
        if mixed:
            if ai[i, 0] != ACT_PLAY:
                s = _dot(phi, w, kp.LEARNED_W + t * N_STATE, N_STATE)
            else:
                if not play_done:
                    play_base = _dot(phi, w, kp.LEARNED_W + t * N_STATE, N_STATE)
                    play_done = True
                s = play_base
        candidate_features(t, i, am, ai, ctx, beaters, h2, psi)
        s += _dot(psi, w, v0 + group_of(t, gou) * N_ACT, N_ACT)
        if s > best_s:
            best, best_s = i, s
    return best


@njit(cache=True)
def decision_features(ws, rules, am, ai, n, w, out):
    """φ, and ψ, type and group of each of the ``n`` listed actions, at the decision waiting
    in ``ws``, exactly as :func:`learned_choice` computes them, into ``out = (phi, psi,
    types, groups)``; returns heuristic2's pick."""
    params, _, beaters = rules
    phi, psi, types, groups = out
    phase = ws[kg.S_PHASE]
    seat = ws[kg.S_LEAD] if phase == kg.PH_LEAD else ws[kg.WS_QUEUE + ws[kg.S_QI]]
    hand = ws[kg.WS_HANDS + seat]
    unseen = kg.FULL_DECK & ~hand & ~ws[kg.WS_PUBLIC] & ~ws[kg.WS_DISC + seat]
    captured, said_kou = ws[kg.WS_CAP + seat], ws[kg.WS_SAID_KOU + seat]
    gou_min = params[P_GOU]
    lead, trick, kou = phase == kg.PH_LEAD, phase == kg.PH_TRICK, phase == kg.PH_KOU
    pos = (phase, seat, hand, unseen, captured, said_kou, gou_min, np.int64(n))
    state_features(ws, pos, beaters, w, phi)
    h2 = kp.heuristic2_choice(pos, am, ai, beaters, w)
    gou = 1 if captured >= gou_min else 0
    last = trick and ws[kg.S_QI] == ws[kg.S_QLEN] - 1
    for i in range(n):
        t = action_type(lead, trick, kou, ai[i, 0])
        types[i] = t
        groups[i] = group_of(t, gou)
        ctx = (lead, trick, last, hand, unseen, captured, gou_min, ws[kg.S_TABLE])
        candidate_features(t, i, am, ai, ctx, beaters, h2, psi[i])
    return h2
