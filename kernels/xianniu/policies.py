"""Policies: which legal action a seat takes, chosen by an integer id.

A policy sees only what its seat sees: its own hand and discards, the cards played in public
(captured and dead), the captured counts, the 扣/掀 history and the play on top. Everything
it reads comes from the state words ``ws`` at the offsets named in :mod:`kernels.xianniu.game`; it
never reads another seat's hand.

``heuristic`` weighs its choices with a float64 parameter vector (``H_*`` below; defaults
in :data:`HEURISTIC_DEFAULTS`, meanings in docs/policies.md). ``heuristic2`` reads the same
vector plus the ``H2_*`` entries placed after pimc's sample count, and plays four 9s (5s) as
two 牛 (喜) pairs: see :func:`heuristic2_choice`.

The small helpers are ``forceinline``: LLVM inlines them into their caller, and a caller that
calls nothing out of line lets Numba drop the reference counting of its array arguments, two
atomic operations per array per call (on the heuristics' hot path, over a third of the time).
The choices themselves, called once per decision with several arrays, are compiled without
Numba's reference counting (``kernels.jit.njit_uncounted``; they allocate nothing, and so
may not).
"""

from __future__ import annotations

import numpy as np

from ..jit import njit, njit_uncounted
from .bits import (
    EIGHT,
    FIVE,
    KING,
    NINE,
    NSUB,
    POP4,
    QUEEN,
    TEN,
    nib,
    popcount,
    ranks_with_at_least,
    same_rank_kind,
)
from .layout import PH_DISCARD, PH_KOU, PH_LEAD, PH_TRICK
from .tables import (
    ACT_KOU,
    ACT_PLAY,
    ACT_TIGHTEN,
    ACT_XIAN,
    KIND_BAI_LIANG,
    KIND_EIGHT_PAIRS,
    KIND_FISH,
    KIND_FISH_LIANG,
    KIND_LONG_FENG,
    KIND_NIU,
    KIND_SET,
    KIND_XI,
    KIND_XI_BAO_LIANG,
)

POLICY_RANDOM = 0
POLICY_HEURISTIC = 1
POLICY_PIMC = 2  # decided outside these kernels, by kernels.xianniu.pimc
POLICY_HEURISTIC2 = 3
POLICY_LEARNED = 4  # a linear scorer fitted to pimc's action values (kernels.xianniu.learned)
POLICY_NET = 5  # an action-value network trained by self-play (kernels.xianniu.net)
POLICY_NAMES = ("random", "heuristic", "pimc", "heuristic2", "learned", "net")

# Heuristic parameters (float64 vector).
H_XIAN_AT = 0  # 掀 when the estimated final capture is at least this
H_KOU_BELOW = 1  # the lead holder, not yet 够, 扣s when its estimate is below this
H_KOU_WHEN_GOU = 2  # > 0.5: the lead holder 扣s once it is 够
H_SURE_WEIGHT = 3  # estimate: cards in plays nobody can beat count this much each
H_STRONG_WEIGHT = 4  # estimate: other K and Q count this much each
H_LEAD_SURE = 5  # lead score per card of a sure play
H_LEAD_POINTS = 6  # lead score per point (牛, 喜, 亮) of a sure play
H_LEAD_LOW = 7  # non-sure lead: penalty per rank step (lead small)
H_BREAK = 8  # penalty per card of the same rank left behind by a play
H_ANSWER_NIU = 9  # penalty for beating with a 牛 (keep it for points)
H_TIGHTEN_AT = 10  # call 紧牌 when holding at least this many sure cards
N_HEURISTIC = 11
HEURISTIC_DEFAULTS = np.array([6.0, 4.0, 1.0, 1.0, 0.5, 10.0, 2.0, 1.0, 0.6, 4.0, 3.0])
HEURISTIC_NAMES = ("xian_at", "kou_below", "kou_when_gou", "sure_weight", "strong_weight",
                   "lead_sure", "lead_points", "lead_low", "break", "answer_niu", "tighten_at")
PIMC_SAMPLES = N_HEURISTIC  # pimc: hidden deals sampled per decision
# heuristic2 only (after PIMC_SAMPLES, so the heuristic's indices keep their meaning).
H2_PLAN = PIMC_SAMPLES + 1  # sure lead: weight of a 牛/喜 pair it leaves behind
H2_LOSE = PIMC_SAMPLES + 2  # penalty per 牛/喜 point a play gives up
H2_CASH = PIMC_SAMPLES + 3  # once 够, before 扣 lead: > 0.5 sure point plays, > 1.5 any sure play
H2_QUAD = PIMC_SAMPLES + 4  # bonus of a 亮子 lead that is not sure (few hands can beat it)
H2_STRONG = PIMC_SAMPLES + 5  # > 0.5: the estimate's strong cards are the K, Q not sure
H2_INDICES = (H2_PLAN, H2_LOSE, H2_CASH, H2_QUAD, H2_STRONG)
HEURISTIC2_EXTRA_DEFAULTS = np.array([1.0, 6.0, 2.0, 30.0, 1.0])
HEURISTIC2_EXTRA_NAMES = ("plan", "lose", "cash", "quad", "strong")
PIMC_ROLLOUT = H2_STRONG + 1  # pimc: the policy id of every seat in its play-outs
PIMC_BUDGET = PIMC_ROLLOUT + 1  # pimc: play-outs per decision; 0 keeps PIMC_SAMPLES fixed
PIMC_ENDGAME = PIMC_BUDGET + 1  # pimc: solve play-outs exactly at this many cards left; 0: never
# pimc: > 0 weighs each sampled deal by how likely the other seats' 扣 and 掀 were in it
# (their heuristic2 estimate against its thresholds, this soft in cards); 0: every deal alike
PIMC_INFER = PIMC_ENDGAME + 1
LEARNED_W = PIMC_INFER + 1  # learned: its scorer's weights, N_LEARNED_WEIGHTS entries from here
# learned's scorer (kernels.xianniu.learned): entries of φ and ψ, action types, ψ blocks
LEARNED_STATE, LEARNED_ACT, LEARNED_TYPES, LEARNED_GROUPS = 24, 32, 9, 6
N_LEARNED_WEIGHTS = LEARNED_TYPES * LEARNED_STATE + LEARNED_GROUPS * LEARNED_ACT
NET_W = LEARNED_W + N_LEARNED_WEIGHTS  # net: its network's weights from here (it reads learned's)
# net's network (kernels.xianniu.net): inputs of the state (learned's φ) and of a candidate
# (learned's ψ, the action type one-hot, learned's score less its best, learned's pick), the
# two hidden layers' widths, the shortlist
NET_STATE = LEARNED_STATE
NET_ACT = LEARNED_ACT + LEARNED_TYPES + 2
NET_H1, NET_H2 = 16, 8
NET_TOP = 5  # net values only learned's best this many actions of a decision
N_NET_WEIGHTS = ((NET_STATE + NET_ACT) * NET_H1 + NET_H1 + NET_H1 * NET_H2 + NET_H2
                 + NET_H2 + 1)
N_POLICY_PARAMS = NET_W + N_NET_WEIGHTS
# learned's and net's weights are zero here: analyzer.xianniu.sim fills them from the shipped
# files
POLICY_DEFAULTS = np.concatenate((HEURISTIC_DEFAULTS, [24.0], HEURISTIC2_EXTRA_DEFAULTS,
                                  [float(POLICY_HEURISTIC), 0.0, 0.0, 0.0],
                                  np.zeros(N_LEARNED_WEIGHTS), np.zeros(N_NET_WEIGHTS)))

@njit(cache=True, forceinline=True)
def is_sure(kind, size, rank, k, unseen, beaters):
    """True when no play made from ``unseen`` cards can beat this one."""
    if kind == KIND_SET:
        if beaters[size - 1, rank] & ranks_with_at_least(unseen, size):
            return False
        if (size == 2 or size == 3) and rank != KING:
            n9 = nib(unseen, NINE)
            if POP4[n9] >= size and (n9 & 5) != 0 and (n9 & 10) != 0:
                return False  # a 牛 among the unseen cards
        return True
    if kind == KIND_FISH:
        return NSUB[nib(unseen, EIGHT), k] * NSUB[nib(unseen, TEN), k] \
            * NSUB[nib(unseen, KING), k] == 0
    if kind == KIND_FISH_LIANG:
        return not (nib(unseen, KING) == 15 and nib(unseen, TEN) != 0 and nib(unseen, EIGHT) != 0)
    if kind == KIND_XI_BAO_LIANG:
        f = nib(unseen, FIVE)
        if POP4[f] < size - 4 or (f & 5) == 0 or (f & 10) == 0:
            return True
        quads = ranks_with_at_least(unseen, 4)
        return (beaters[3, rank] & quads) == 0
    return True  # 牛, 喜, 摆, 摆亮, K-摆, 龙凤, 八大对


@njit(cache=True, forceinline=True)
def play_points(kind, size):
    """Points a captured play scores by itself (牛 nines, 喜 fives, 2 per 亮)."""
    if kind == KIND_NIU or kind == KIND_XI:
        return size
    if kind == KIND_XI_BAO_LIANG:
        return size - 4 + 2
    if kind == KIND_FISH_LIANG or kind == KIND_BAI_LIANG or (kind == KIND_SET and size == 4):
        return 2
    return 0


@njit(cache=True)
def sure_cards(hand, unseen, beaters):
    """Cards of ``hand`` in whole-rank groups (or 牛 / 喜) that nobody can beat now."""
    total = 0
    for r in range(12):
        hn = nib(hand, r)
        c = POP4[hn]
        if c == 0:
            continue
        if (r == NINE or r == FIVE) and (c == 2 or c == 3) and (hn & 5) != 0 and (hn & 10) != 0:
            total += c  # 牛 and 喜 are never beaten
        elif is_sure(np.int64(KIND_SET), c, r, np.int64(0), unseen, beaters):
            total += c
    return total


@njit(cache=True)
def estimate_capture(hand, unseen, captured, beaters, w):
    """Cards this seat expects to hold at the end: captured + weighted sure and strong cards."""
    sure = sure_cards(hand, unseen, beaters)
    strong = POP4[nib(hand, KING)] + POP4[nib(hand, QUEEN)]
    return captured + w[H_SURE_WEIGHT] * sure + w[H_STRONG_WEIGHT] * max(strong - sure, 0)


@njit(cache=True, forceinline=True)
def _keep_value(c, hand, unseen, beaters):
    """How much a seat wants to keep one card (discard the lowest)."""
    r = c >> 2
    hn = nib(hand, r)
    v = float(r)
    cnt = POP4[hn]
    if cnt >= 2:
        v += 4.0 * (cnt - 1)
    if (r == NINE or r == FIVE) and (hn & 5) != 0 and (hn & 10) != 0:
        v += 12.0
    if is_sure(np.int64(KIND_SET), cnt, r, np.int64(0), unseen, beaters):
        v += 20.0
    return v


@njit(cache=True, forceinline=True)
def discard_choice(hand, unseen, am, n, beaters):
    """The 紧牌 discard the heuristics take: the card the seat least wants to keep."""
    best, best_v = 0, 1e18
    for i in range(n):
        v = _keep_value(np.int64(popcount(am[i] - 1)), hand, unseen, beaters)
        if v < best_v:
            best, best_v = i, v
    return best


@njit_uncounted
def heuristic_choice(pos, am, ai, beaters, w):
    """Index of the heuristic's choice among the ``n`` legal actions listed in ``am``, ``ai``
    at the decision ``pos = (phase, seat, hand, unseen, captured, said_kou, gou_min, n)``
    (:data:`kernels.xianniu.layout.POSITION`)."""
    phase, seat, hand, unseen, captured, said_kou, gou_min, n = pos
    phase_lead, phase_trick = phase == PH_LEAD, phase == PH_TRICK
    phase_kou, phase_discard = phase == PH_KOU, phase == PH_DISCARD
    if phase_kou:
        est = estimate_capture(hand, unseen, captured, beaters, w)
        for i in range(n):
            if ai[i, 0] == ACT_XIAN and said_kou == 0 and est >= w[H_XIAN_AT]:
                return i
        for i in range(n):
            if ai[i, 0] == ACT_KOU:
                return i
        return 0
    if phase_discard:
        return discard_choice(hand, unseen, am, n, beaters)
    if phase_lead:
        est = -1.0
        for i in range(n):
            t = ai[i, 0]
            if t == ACT_KOU:
                if captured >= gou_min:
                    if w[H_KOU_WHEN_GOU] > 0.5:
                        return i
                else:
                    est = estimate_capture(hand, unseen, captured, beaters, w)
                    if est < w[H_KOU_BELOW]:
                        return i
            elif t == ACT_TIGHTEN:
                if sure_cards(hand, unseen, beaters) >= w[H_TIGHTEN_AT]:
                    return i
    best, best_s = 0, -1e18
    for i in range(n):
        if ai[i, 0] != ACT_PLAY:
            continue
        kind, size, rank, k = ai[i, 1], ai[i, 2], ai[i, 3], ai[i, 4]
        if kind == KIND_LONG_FENG or kind == KIND_EIGHT_PAIRS:
            return i  # 抢刺: always take it
        left = 0
        rank_proxy = float(rank) if rank >= 0 else 6.0
        if kind == KIND_SET or kind == KIND_NIU or kind == KIND_XI:
            left = POP4[nib(hand, rank)] - size
        if phase_trick:
            s = -rank_proxy - w[H_BREAK] * left
            if kind == KIND_NIU:
                s -= w[H_ANSWER_NIU]
        else:
            if is_sure(kind, size, rank, k, unseen, beaters):
                s = 100.0 + w[H_LEAD_SURE] * size + w[H_LEAD_POINTS] * play_points(kind, size)
                s -= w[H_BREAK] * left
            else:
                s = -w[H_LEAD_LOW] * rank_proxy - w[H_BREAK] * left - 2.0 * (size - 1)
        if s > best_s:
            best, best_s = i, s
    return best


@njit(cache=True, forceinline=True)
def rank_points(r, hn):
    """Most 牛/喜 points the cards ``hn`` (a nibble) of rank ``r`` can score: four 9s (5s) as
    two pairs, two or three holding both colours as one play."""
    if r != NINE and r != FIVE:
        return 0
    c = POP4[hn]
    if c == 4:
        return 4
    if c >= 2 and (hn & 5) != 0 and (hn & 10) != 0:
        return c
    return 0


@njit(cache=True, forceinline=True)
def sure_cards2(hand, unseen, beaters):
    """As :func:`sure_cards`, and four 9s (5s) count as two 牛 (喜) pairs."""
    total = 0
    for r in range(12):
        hn = nib(hand, r)
        c = POP4[hn]
        if c == 0:
            continue
        if rank_points(r, hn) > 0:
            total += c  # 牛 and 喜 are never beaten
        elif is_sure(np.int64(KIND_SET), c, r, np.int64(0), unseen, beaters):
            total += c
    return total


@njit(cache=True, forceinline=True)
def estimate2(hand, unseen, captured, beaters, w):
    """:func:`estimate_capture` with :func:`sure_cards2`; with ``H2_STRONG`` > 0.5 the strong
    cards are the K and Q that are not sure (the heuristic takes all sure cards off them)."""
    sure = sure_cards2(hand, unseen, beaters)
    strong = POP4[nib(hand, KING)] + POP4[nib(hand, QUEEN)]
    if w[H2_STRONG] > 0.5:
        for r in (KING, QUEEN):
            c = POP4[nib(hand, r)]
            if c > 0 and is_sure(np.int64(KIND_SET), c, r, np.int64(0), unseen, beaters):
                strong -= c
        return captured + w[H_SURE_WEIGHT] * sure + w[H_STRONG_WEIGHT] * strong
    return captured + w[H_SURE_WEIGHT] * sure + w[H_STRONG_WEIGHT] * max(strong - sure, 0)


@njit(cache=True, forceinline=True)
def _play_score2(kind, size, rank, mask, trick, sure, hand, w):
    """heuristic2's score of one play (``sure``: a lead nothing can beat): the heuristic's,
    with the 牛/喜 points a play keeps or gives up in its rank (a pair that leaves a 牛/喜
    pair behind plans both), and a bonus for a 亮子 lead that is not sure (it takes a higher
    亮子 in one hand to beat it)."""
    rank_proxy = float(rank) if rank >= 0 else 6.0
    left, lost, plan = 0, 0, 0.0
    if kind == KIND_SET or kind == KIND_NIU or kind == KIND_XI:
        hn = nib(hand, rank)
        rem = hn & ~nib(mask, rank)
        left = POP4[rem]
        own = size if kind != KIND_SET else 0  # a 牛/喜 scores its own cards
        lost = rank_points(rank, hn) - own - rank_points(rank, rem)
        if left >= 2 and same_rank_kind(rank, rem, left) != KIND_SET:
            plan = w[H_LEAD_SURE] * left + w[H_LEAD_POINTS] * left  # a sure pair kept
            left = 0  # keeping a 牛/喜 breaks nothing
    if trick:
        s = -rank_proxy - w[H_BREAK] * left - w[H2_LOSE] * lost
        if kind == KIND_NIU:
            s -= w[H_ANSWER_NIU]
        return s
    if sure:
        return 100.0 + w[H_LEAD_SURE] * size + w[H_LEAD_POINTS] * play_points(kind, size) \
            - w[H_BREAK] * left + w[H2_PLAN] * plan - w[H2_LOSE] * lost
    s = -w[H_LEAD_LOW] * rank_proxy - w[H_BREAK] * left - 2.0 * (size - 1) - w[H2_LOSE] * lost
    if size == 4 and kind == KIND_SET:
        s += w[H2_QUAD]
    return s


@njit_uncounted
def heuristic2_choice(pos, am, ai, beaters, w):
    """Index of heuristic2's choice: the heuristic with four 9s (5s) counted and led as two
    牛 (喜) pairs, plays scored by :func:`_play_score2`, and (``H2_CASH``) sure plays led
    before a 扣 once 够. ``pos``, ``am``, ``ai`` as in :func:`heuristic_choice`."""
    phase, seat, hand, unseen, captured, said_kou, gou_min, n = pos
    phase_lead, phase_trick = phase == PH_LEAD, phase == PH_TRICK
    phase_kou, phase_discard = phase == PH_KOU, phase == PH_DISCARD
    if phase_kou:
        est = estimate2(hand, unseen, captured, beaters, w)
        for i in range(n):
            if ai[i, 0] == ACT_XIAN and said_kou == 0 and est >= w[H_XIAN_AT]:
                return i
        for i in range(n):
            if ai[i, 0] == ACT_KOU:
                return i
        return 0
    if phase_discard:
        return discard_choice(hand, unseen, am, n, beaters)
    # the lead holder's 扣 and 紧牌 come first in the list; a 扣 once 够 waits for the scores
    kou, tighten, cash_kou = -1, -1, False
    if phase_lead:
        for i in range(min(n, 2)):
            if ai[i, 0] == ACT_KOU:
                if captured >= gou_min:
                    if w[H_KOU_WHEN_GOU] > 0.5:
                        kou, cash_kou = i, w[H2_CASH] > 0.5
                elif estimate2(hand, unseen, captured, beaters, w) < w[H_KOU_BELOW]:
                    return i
            elif ai[i, 0] == ACT_TIGHTEN:
                tighten = i
        if kou >= 0 and not cash_kou:
            return kou
    best, best_s = 0, -1e18
    cashable = False  # a sure play to lead before the 扣 (H2_CASH)
    for i in range(n):
        if ai[i, 0] != ACT_PLAY:
            continue
        kind, size = ai[i, 1], ai[i, 2]
        if kind == KIND_LONG_FENG or kind == KIND_EIGHT_PAIRS:
            return i  # 抢刺: always take it
        sure = False
        if phase_lead:
            sure = is_sure(kind, size, ai[i, 3], ai[i, 4], unseen, beaters)
            if sure and (w[H2_CASH] > 1.5 or play_points(kind, size) > 0):
                cashable = True
        s = _play_score2(kind, size, ai[i, 3], am[i], phase_trick, sure, hand, w)
        if s > best_s:
            best, best_s = i, s
    if kou >= 0 and not cashable:
        return kou
    if tighten >= 0 and sure_cards2(hand, unseen, beaters) >= w[H_TIGHTEN_AT]:
        return tighten
    return best
