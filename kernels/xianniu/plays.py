"""Plays in bitmask hands: classify a mask, list every lead, answer or 抢刺 play.

The listings mirror :func:`analyzer.xianniu.combos.plays_in`,
:func:`analyzer.xianniu.combos.answers_to` and :func:`analyzer.xianniu.combos.qiangci_plays`
as sets; :mod:`kernels.xianniu.sampler` reads their order.
Each entry is a mask in ``am[i]`` and ``ai[i] = (action type, kind, size, rank, k)``.
"""

from __future__ import annotations

import numpy as np

from ..jit import njit, njit_uncounted
from .bits import (
    ACE,
    EIGHT,
    FIVE,
    KING,
    NINE,
    NSUB,
    POP4,
    SUBS,
    TEN,
    THREE,
    TWO,
    nib,
    popcount,
    ranks_with_at_least,
    same_rank_kind,
)
from .tables import (
    ACT_PLAY,
    KIND_BAI,
    KIND_BAI_LIANG,
    KIND_EIGHT_PAIRS,
    KIND_FISH,
    KIND_FISH_LIANG,
    KIND_K_BAI,
    KIND_LONG_FENG,
    KIND_NIU,
    KIND_SET,
    KIND_XI_BAO_LIANG,
    P_BAI_MAX,
    P_EIGHT_PAIRS_BY_COLOUR,
    P_FISH_MAX,
    P_K_BAI,
    P_XI_BAO_LIANG,
)

INFO_COLS = 5  # action info columns: type, kind, size, rank, k


@njit(inline="always", cache=True)
def _push(am, ai, n, typ, mask, kind, size, rank, k):
    # 9 parameters: one row of the listing, its fields as scalars, written at every listed
    # action in the hottest loop of the kernels (inlined: no tuple to build per action).
    am[n] = mask
    ai[n, 0] = typ
    ai[n, 1] = kind
    ai[n, 2] = size
    ai[n, 3] = rank
    ai[n, 4] = k
    return n + 1


# The listing helpers are forceinline, and the listings compiled without reference counting
# (they allocate nothing), for the reasons given in kernels.xianniu.policies.


@njit(cache=True, forceinline=True)
def _gen_triples(hand, lo, mid, hi, k, kind, am, ai, n):
    """Every k×(lo+mid+hi) the hand holds (鱼 or 摆)."""
    # 9 parameters: the listing's (hand, am, ai, n) and the combination's ranks, k and kind
    # as constants at each of its few call sites, where the inlined loops fold them in.
    a_n, b_n, c_n = nib(hand, lo), nib(hand, mid), nib(hand, hi)
    na, nb, nc = NSUB[a_n, k], NSUB[b_n, k], NSUB[c_n, k]
    for i in range(na):
        ma = SUBS[a_n, k, i] << (4 * lo)
        for j in range(nb):
            mb = ma | (SUBS[b_n, k, j] << (4 * mid))
            for l in range(nc):
                m = mb | (SUBS[c_n, k, l] << (4 * hi))
                n = _push(am, ai, n, ACT_PLAY, m, kind, 3 * k, -1, k)
    return n


@njit(cache=True, forceinline=True)
def _gen_quad_plus_two(hand, quad_rank, r1, r2, kind, am, ai, n):
    """Four of ``quad_rank`` plus one ``r1`` and one ``r2`` (鱼亮 / 摆亮)."""
    if nib(hand, quad_rank) != 15:
        return n
    n1, n2 = nib(hand, r1), nib(hand, r2)
    for i in range(4):
        if not (n1 >> i) & 1:
            continue
        for j in range(4):
            if not (n2 >> j) & 1:
                continue
            m = (15 << (4 * quad_rank)) | ((1 << i) << (4 * r1)) | ((1 << j) << (4 * r2))
            n = _push(am, ai, n, ACT_PLAY, m, kind, 6, quad_rank, 0)
    return n


@njit(cache=True, forceinline=True)
def _gen_k_bai(hand, ksize, am, ai, n):
    """K-摆: ``ksize`` Ks plus one 10 and one 8."""
    kn, tn, en = nib(hand, KING), nib(hand, TEN), nib(hand, EIGHT)
    for a in range(NSUB[kn, ksize]):
        mk = SUBS[kn, ksize, a] << (4 * KING)
        for b in range(NSUB[tn, 1]):
            mt = mk | (SUBS[tn, 1, b] << (4 * TEN))
            for c in range(NSUB[en, 1]):
                m = mt | (SUBS[en, 1, c] << (4 * EIGHT))
                n = _push(am, ai, n, ACT_PLAY, m, KIND_K_BAI, ksize + 2, KING, 0)
    return n


@njit(cache=True, forceinline=True)
def _gen_xbl(hand, size, set_beats, top_rank, am, ai, n):
    """喜包亮 of ``size`` cards; with ``top_rank >= 0`` only those that beat it."""
    fn = nib(hand, FIVE)
    xs = size - 4
    for i in range(NSUB[fn, xs]):
        x = SUBS[fn, xs, i]
        if (x & 5) == 0 or (x & 10) == 0:
            continue
        for r in range(12):
            if r == FIVE or nib(hand, r) != 15:
                continue
            if top_rank >= 0 and set_beats[3, r, top_rank] == 0:
                continue
            m = (x << (4 * FIVE)) | (15 << (4 * r))
            n = _push(am, ai, n, ACT_PLAY, m, KIND_XI_BAO_LIANG, size, r, 0)
    return n


@njit_uncounted
def gen_plays(hand, params, set_beats, max_size, am, ai, n):
    """Append every ordinary play in ``hand`` of at most ``max_size`` cards."""
    for r in range(12):
        hn = nib(hand, r)
        if hn == 0:
            continue
        for s in range(1, min(POP4[hn], max_size) + 1):
            for i in range(NSUB[hn, s]):
                sub = SUBS[hn, s, i]
                n = _push(am, ai, n, ACT_PLAY, sub << (4 * r), same_rank_kind(r, sub, s), s, r, 0)
    # Constants go in as np.int64: a bare constant is typed as a literal, and Numba would
    # compile a copy of the callee for each one.
    for k in range(1, params[P_FISH_MAX] + 1):
        if 3 * k <= max_size:
            n = _gen_triples(hand, np.int64(ACE), np.int64(TWO), np.int64(THREE),
                             k, np.int64(KIND_FISH), am, ai, n)
    for k in range(1, params[P_BAI_MAX] + 1):
        if 3 * k <= max_size:
            n = _gen_triples(hand, np.int64(EIGHT), np.int64(TEN), np.int64(KING),
                             k, np.int64(KIND_BAI), am, ai, n)
    if max_size >= 6:
        n = _gen_quad_plus_two(hand, np.int64(ACE), np.int64(TWO), np.int64(THREE),
                               np.int64(KIND_FISH_LIANG), am, ai, n)
        n = _gen_quad_plus_two(hand, np.int64(KING), np.int64(TEN), np.int64(EIGHT),
                               np.int64(KIND_BAI_LIANG), am, ai, n)
    if params[P_K_BAI] != 0:
        for ks in range(2, 4):
            if ks + 2 <= max_size:
                n = _gen_k_bai(hand, ks, am, ai, n)
    if params[P_XI_BAO_LIANG] != 0:
        for size in range(6, 8):
            if size <= max_size:
                n = _gen_xbl(hand, size, set_beats, np.int64(-1), am, ai, n)
    return n


@njit_uncounted
def gen_answers(hand, top_kind, top_size, top_rank, top_k, set_beats, am, ai, n):
    """Append every play in ``hand`` that beats the top play (有吃必吃)."""
    # 9 parameters: the top play's four fields are read straight from the state words by
    # every caller (as count_answers / answer_at read them); the listing's own are (hand,
    # set_beats, am, ai, n).
    if top_kind == KIND_SET:
        for r in range(12):
            hn = nib(hand, r)
            for i in range(NSUB[hn, top_size]):
                sub = SUBS[hn, top_size, i]
                kind = same_rank_kind(r, sub, top_size)
                if kind == KIND_SET:
                    ok = set_beats[top_size - 1, r, top_rank] != 0
                elif kind == KIND_NIU:
                    ok = top_rank != KING
                else:
                    ok = False
                if ok:
                    n = _push(am, ai, n, ACT_PLAY, sub << (4 * r), kind, top_size, r, 0)
    elif top_kind == KIND_FISH:
        n = _gen_triples(hand, np.int64(EIGHT), np.int64(TEN), np.int64(KING),
                         top_k, np.int64(KIND_BAI), am, ai, n)
    elif top_kind == KIND_FISH_LIANG:
        n = _gen_quad_plus_two(hand, np.int64(KING), np.int64(TEN), np.int64(EIGHT),
                               np.int64(KIND_BAI_LIANG), am, ai, n)
    elif top_kind == KIND_XI_BAO_LIANG:
        n = _gen_xbl(hand, top_size, set_beats, top_rank, am, ai, n)
    return n


@njit(cache=True)
def is_eight_pairs(hand, params):
    """The whole 16-card hand splits into 8 pairs under the preset's rule."""
    if popcount(hand) != 16:
        return False
    # each rank's count is even: the low bit of every per-nibble count is 0
    x = hand - ((hand >> 1) & 0x555555555555)
    x = (x & 0x333333333333) + ((x >> 2) & 0x333333333333)
    if x & 0x111111111111:
        return False
    if params[P_EIGHT_PAIRS_BY_COLOUR] != 0:
        if POP4[nib(hand, NINE) & 5] % 2 != 0 or POP4[nib(hand, FIVE) & 5] % 2 != 0:
            return False
    return True


@njit(cache=True)
def _pair_subsets(hand, rank, out):
    """The pairs of ``rank`` in ``hand`` as masks; returns how many."""
    hn = nib(hand, rank)
    c = 0
    for sub in range(1, 16):
        if (sub & ~hn) == 0 and POP4[sub] == 2:
            out[c] = sub << (4 * rank)
            c += 1
    return c


@njit(cache=True)
def has_qiangci(hand, params):
    """Holds 龙凤 or 八大对."""
    if ranks_with_at_least(hand, 2) & _LONG_FENG_RANKS == _LONG_FENG_RANKS:
        return True
    return is_eight_pairs(hand, params)


# bit 4r + 3 for each rank of 龙凤: A 2 3 8 10 K
_LONG_FENG_RANKS = sum(1 << (4 * r + 3) for r in (ACE, TWO, THREE, EIGHT, TEN, KING))


@njit(cache=True)
def gen_qiangci(hand, params, am, ai, n):
    """Append the 抢刺 plays: every 龙凤 (two of each of A 2 3 8 10 K) and 八大对."""
    pa = np.empty((6, 6), dtype=np.int64)
    cnt = np.empty(6, dtype=np.int64)
    ranks = (ACE, TWO, THREE, EIGHT, TEN, KING)
    ok = True
    for i in range(6):
        cnt[i] = _pair_subsets(hand, ranks[i], pa[i])
        if cnt[i] == 0:
            ok = False
    if ok:
        for i0 in range(cnt[0]):
            for i1 in range(cnt[1]):
                for i2 in range(cnt[2]):
                    for i3 in range(cnt[3]):
                        for i4 in range(cnt[4]):
                            for i5 in range(cnt[5]):
                                m = pa[0, i0] | pa[1, i1] | pa[2, i2] | pa[3, i3] | pa[4, i4] \
                                    | pa[5, i5]
                                n = _push(am, ai, n, ACT_PLAY, m, KIND_LONG_FENG, 12, -1, 0)
    if is_eight_pairs(hand, params):
        n = _push(am, ai, n, ACT_PLAY, hand, KIND_EIGHT_PAIRS, 16, -1, 0)
    return n


@njit(cache=True)
def classify_mask(mask, params, out_info):
    """The play a card mask makes: writes (ACT_PLAY, kind, size, rank, k) to ``out_info``.

    Returns False (``out_info`` untouched) when the cards make no play under the preset.
    Mirrors :func:`analyzer.xianniu.combos.try_classify`.
    """
    n = popcount(mask)
    if n == 0:
        return False
    present = 0  # bit r set when rank r is held
    cnt = np.zeros(12, dtype=np.int64)
    for r in range(12):
        cnt[r] = POP4[nib(mask, r)]
        if cnt[r] > 0:
            present |= 1 << r
    kind, rank, k = -1, -1, 0
    fish = (1 << ACE) | (1 << TWO) | (1 << THREE)
    bai = (1 << EIGHT) | (1 << TEN) | (1 << KING)
    if popcount(present) == 1:
        for r in range(12):
            if present == 1 << r:
                rank = r
        kind = same_rank_kind(rank, nib(mask, rank), n)
    elif present == fish:
        a, b, c = cnt[ACE], cnt[TWO], cnt[THREE]
        if a == b and b == c and a <= params[P_FISH_MAX]:
            kind, k = KIND_FISH, a
        elif a == 4 and b == 1 and c == 1:
            kind, rank = KIND_FISH_LIANG, ACE
    elif present == bai:
        e, t, kk = cnt[EIGHT], cnt[TEN], cnt[KING]
        if e == t and t == kk and kk <= params[P_BAI_MAX]:
            kind, k = KIND_BAI, kk
        elif e == 1 and t == 1:
            if kk == 4:
                kind, rank = KIND_BAI_LIANG, KING
            elif params[P_K_BAI] != 0 and (kk == 2 or kk == 3):
                kind, rank = KIND_K_BAI, KING
    elif params[P_XI_BAO_LIANG] != 0 and popcount(present) == 2 and (present >> FIVE) & 1:
        f = nib(mask, FIVE)
        if (cnt[FIVE] == 2 or cnt[FIVE] == 3) and (f & 5) != 0 and (f & 10) != 0:
            for r in range(12):
                if r != FIVE and cnt[r] == 4:
                    kind, rank = KIND_XI_BAO_LIANG, r
    elif present == fish | bai:
        if cnt[ACE] == 2 and cnt[TWO] == 2 and cnt[THREE] == 2 and cnt[EIGHT] == 2 \
                and cnt[TEN] == 2 and cnt[KING] == 2:
            kind = KIND_LONG_FENG
    if kind < 0 and n == 16 and is_eight_pairs(mask, params):
        kind = KIND_EIGHT_PAIRS
    if kind < 0:
        return False
    out_info[0] = ACT_PLAY
    out_info[1] = kind
    out_info[2] = n
    out_info[3] = rank
    out_info[4] = k
    return True
