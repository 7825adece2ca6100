"""Legal plays by index, without building the list.

:func:`kernels.xianniu.plays.gen_plays` and :func:`kernels.xianniu.plays.gen_answers` write
every legal play into buffers; a random policy then keeps one of them. The functions here
give the same answer without the list: ``count_plays`` / ``count_answers`` return how many
entries the generator would append (closed form per category, from the subset tables
:data:`kernels.xianniu.bits.SUBS` / :data:`kernels.xianniu.bits.NSUB`), and ``play_at`` /
``answer_at``
return the entry at one position, with the same info columns, by walking the categories in
the generator's order and decoding the position inside its category (the generator's nested
loops read as a mixed-radix number).

So ``play_at(hand, params, set_beats, max_size, i, info)`` equals ``am[i]`` (and ``info``
equals ``ai[i]``) after ``gen_plays(hand, params, set_beats, max_size, am, ai, 0)``, for
every ``0 <= i < count_plays(hand, params, set_beats, max_size)``; likewise for answers.
A position outside that range gives -1 and leaves ``info`` as it was.
"""

from __future__ import annotations

import numpy as np

from ..jit import njit
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
    same_rank_kind,
)
from .tables import (
    ACT_PLAY,
    KIND_BAI,
    KIND_BAI_LIANG,
    KIND_FISH,
    KIND_FISH_LIANG,
    KIND_K_BAI,
    KIND_SET,
    KIND_XI_BAO_LIANG,
    P_BAI_MAX,
    P_FISH_MAX,
    P_K_BAI,
    P_XI_BAO_LIANG,
)

# Largest 鱼/摆 unit count a nibble can hold; larger k has no plays.
_MAX_K = 4
# One bit per rank at the rank's lowest card bit (bit 4 * rank).
_RANK_LOW_BITS = 0x111111111111
_FIVE_LOW_BIT = 1 << (4 * FIVE)


def _derived_tables():
    """Tables derived from SUBS/NSUB, indexed by a rank's nibble of held cards.

    ORDER[nibble, :CUM[nibble, 4]]: the same-rank subsets in gen_plays's order (size 1, 2, 3,
    4; SUBS order within a size); the first CUM[nibble, m] of them have at most m cards.
    BOTH[nibble, s, :NBOTH[nibble, s]]: the s-card subsets holding both colours
    (sub & 5 and sub & 10 nonzero), in SUBS order.
    """
    order = np.zeros((16, 15), dtype=np.int64)
    cum = np.zeros((16, 5), dtype=np.int64)
    both = np.zeros((16, 5, 6), dtype=np.int64)
    nboth = np.zeros((16, 5), dtype=np.int64)
    for n in range(16):
        c = 0
        for s in range(1, 5):
            for i in range(NSUB[n, s]):
                sub = SUBS[n, s, i]
                order[n, c] = sub
                c += 1
                if (sub & 5) != 0 and (sub & 10) != 0:
                    both[n, s, nboth[n, s]] = sub
                    nboth[n, s] += 1
            cum[n, s] = c
    return order, cum, both, nboth


ORDER, CUM, BOTH, NBOTH = _derived_tables()


@njit(inline="always", cache=True)
def _emit(out_info, kind, size, rank, k):
    out_info[0] = ACT_PLAY
    out_info[1] = kind
    out_info[2] = size
    out_info[3] = rank
    out_info[4] = k


@njit(inline="always", cache=True)
def _kmax(limit, max_size):
    """Largest k of the 鱼/摆 loop ``for k in 1..limit if 3k <= max_size``."""
    k = limit
    if k > _MAX_K:
        k = _MAX_K
    if max_size < 3 * k:
        k = max_size // 3
    return k


@njit(inline="always", cache=True)
def _quad_bits(hand):
    """Bit 4*r set for every rank r != FIVE whose four cards are all in ``hand``."""
    q = hand & (hand >> 1)
    q = q & (q >> 2)
    return q & (_RANK_LOW_BITS & ~_FIVE_LOW_BIT)


@njit(inline="always", cache=True)
def _nth_quad_rank(quads, j):
    """Rank of the ``j``-th (0-based, ascending) set bit of ``quads`` (bits at 4*rank)."""
    for _ in range(j):
        quads &= quads - 1
    low = quads & -quads
    r = 0
    while low > 1:
        low >>= 4
        r += 1
    return r


@njit(inline="always", cache=True)
def _triple_at(hand, lo, mid, hi, klo, kmid, khi, idx):
    """The ``idx``-th mask of gen_plays's nested loop over the klo-, kmid- and khi-subsets
    of ranks lo, mid, hi (lo outermost)."""
    a_n, b_n, c_n = nib(hand, lo), nib(hand, mid), nib(hand, hi)
    nb, nc = NSUB[b_n, kmid], NSUB[c_n, khi]
    l = idx % nc
    q = idx // nc
    j = q % nb
    i = q // nb
    return (SUBS[a_n, klo, i] << (4 * lo)) | (SUBS[b_n, kmid, j] << (4 * mid)) \
        | (SUBS[c_n, khi, l] << (4 * hi))


@njit(inline="always", cache=True)
def _quad_two_at(hand, quad_rank, r1, r2, idx):
    """The ``idx``-th 鱼亮/摆亮 mask (singles of r1 outer, r2 inner, ascending suit)."""
    n1, n2 = nib(hand, r1), nib(hand, r2)
    c2 = POP4[n2]
    return (15 << (4 * quad_rank)) | (SUBS[n1, 1, idx // c2] << (4 * r1)) \
        | (SUBS[n2, 1, idx % c2] << (4 * r2))


@njit(inline="always", cache=True)
def count_plays(hand, params, set_beats, max_size):
    """How many entries ``gen_plays(hand, params, set_beats, max_size, ...)`` appends."""
    n = 0
    if max_size > 0:
        mc = max_size if max_size < 4 else 4
        for r in range(12):
            n += CUM[nib(hand, r), mc]
    a, b, c = nib(hand, ACE), nib(hand, TWO), nib(hand, THREE)
    for k in range(1, _kmax(params[P_FISH_MAX], max_size) + 1):
        n += NSUB[a, k] * NSUB[b, k] * NSUB[c, k]
    e, t, kn = nib(hand, EIGHT), nib(hand, TEN), nib(hand, KING)
    for k in range(1, _kmax(params[P_BAI_MAX], max_size) + 1):
        n += NSUB[e, k] * NSUB[t, k] * NSUB[kn, k]
    te = POP4[t] * POP4[e]
    if max_size >= 6:
        if a == 15:
            n += POP4[b] * POP4[c]
        if kn == 15:
            n += te
    if params[P_K_BAI] != 0:
        if max_size >= 4:
            n += NSUB[kn, 2] * te
        if max_size >= 5:
            n += NSUB[kn, 3] * te
    if params[P_XI_BAO_LIANG] != 0 and max_size >= 6:
        nq = popcount(_quad_bits(hand))
        f = nib(hand, FIVE)
        n += NBOTH[f, 2] * nq
        if max_size >= 7:
            n += NBOTH[f, 3] * nq
    return n


@njit(cache=True)
def play_at(hand, params, set_beats, max_size, index, out_info):
    """The mask gen_plays would put at position ``index``; its info goes to out_info[:5].

    Returns -1 (``out_info`` untouched) when ``index`` is not below :func:`count_plays`.
    """
    if index < 0:
        return -1
    idx = index
    # 1. same-rank sets, rank by rank, sizes 1..min(held, max_size)
    if max_size > 0:
        mc = max_size if max_size < 4 else 4
        for r in range(12):
            hn = nib(hand, r)
            c = CUM[hn, mc]
            if idx < c:
                sub = ORDER[hn, idx]
                size = POP4[sub]
                _emit(out_info, same_rank_kind(r, sub, size), size, r, 0)
                return sub << (4 * r)
            idx -= c
    # 2. 鱼 k = 1..
    a, b, c3 = nib(hand, ACE), nib(hand, TWO), nib(hand, THREE)
    for k in range(1, _kmax(params[P_FISH_MAX], max_size) + 1):
        c = NSUB[a, k] * NSUB[b, k] * NSUB[c3, k]
        if idx < c:
            _emit(out_info, KIND_FISH, 3 * k, -1, k)
            return _triple_at(hand, ACE, TWO, THREE, k, k, k, idx)
        idx -= c
    # 3. 摆 k = 1..
    e, t, kn = nib(hand, EIGHT), nib(hand, TEN), nib(hand, KING)
    for k in range(1, _kmax(params[P_BAI_MAX], max_size) + 1):
        c = NSUB[e, k] * NSUB[t, k] * NSUB[kn, k]
        if idx < c:
            _emit(out_info, KIND_BAI, 3 * k, -1, k)
            return _triple_at(hand, EIGHT, TEN, KING, k, k, k, idx)
        idx -= c
    te = POP4[t] * POP4[e]
    # 4. 鱼亮 then 摆亮
    if max_size >= 6:
        if a == 15:
            c = POP4[b] * POP4[c3]
            if idx < c:
                _emit(out_info, KIND_FISH_LIANG, 6, ACE, 0)
                return _quad_two_at(hand, ACE, TWO, THREE, idx)
            idx -= c
        if kn == 15:
            if idx < te:
                _emit(out_info, KIND_BAI_LIANG, 6, KING, 0)
                return _quad_two_at(hand, KING, TEN, EIGHT, idx)
            idx -= te
    # 5. K-摆 with 2 then 3 Ks
    if params[P_K_BAI] != 0:
        for ks in range(2, 4):
            if ks + 2 <= max_size:
                c = NSUB[kn, ks] * te
                if idx < c:
                    _emit(out_info, KIND_K_BAI, ks + 2, KING, 0)
                    return _triple_at(hand, KING, TEN, EIGHT, ks, 1, 1, idx)
                idx -= c
    # 6. 喜包亮 of 6 then 7 cards: 喜 outer, 亮子 rank inner
    if params[P_XI_BAO_LIANG] != 0:
        quads = _quad_bits(hand)
        nq = popcount(quads)
        f = nib(hand, FIVE)
        for size in range(6, 8):
            if size <= max_size:
                c = NBOTH[f, size - 4] * nq
                if idx < c:
                    r = _nth_quad_rank(quads, idx % nq)
                    _emit(out_info, KIND_XI_BAO_LIANG, size, r, 0)
                    return (BOTH[f, size - 4, idx // nq] << (4 * FIVE)) | (15 << (4 * r))
                idx -= c
    return -1


@njit(inline="always", cache=True)
def _set_answer_ok(r, sub, size, top_rank, set_beats):
    """gen_answers's test for a same-rank subset against a set on top."""
    kind = same_rank_kind(r, sub, size)
    if kind == KIND_SET:
        return set_beats[size - 1, r, top_rank] != 0
    if r == NINE:  # 牛
        return top_rank != KING
    return False  # 喜 never answers a set


@njit(inline="always", cache=True)
def _set_answer_count(hn, r, size, top_rank, set_beats):
    """How many ``size``-subsets of rank ``r`` (held nibble ``hn``) beat a set on top."""
    total = NSUB[hn, size]
    sb = set_beats[size - 1, r, top_rank] != 0
    if (r == NINE or r == FIVE) and (size == 2 or size == 3):
        nb = NBOTH[hn, size]
        n = 0
        if r == NINE and top_rank != KING:
            n += nb
        if sb:
            n += total - nb
        return n
    return total if sb else 0


@njit(inline="always", cache=True)
def _beating_quads(hand, top_rank, set_beats):
    """_quad_bits restricted to the 亮子 ranks that beat a 亮子 of ``top_rank``."""
    quads = _quad_bits(hand)
    q = quads
    while q:
        low = q & -q
        q ^= low
        r = 0
        x = low
        while x > 1:
            x >>= 4
            r += 1
        if set_beats[3, r, top_rank] == 0:
            quads ^= low
    return quads


@njit(inline="always", cache=True)
def count_answers(hand, top_kind, top_size, top_rank, top_k, set_beats):
    """How many entries ``gen_answers(hand, top_kind, ..., set_beats, ...)`` appends."""
    n = 0
    if top_kind == KIND_SET:
        for r in range(12):
            n += NSUB[nib(hand, r), top_size] * set_beats[top_size - 1, r, top_rank]
        if top_size == 2 or top_size == 3:
            # 牛 and 喜 subsets are not sets: take them out, then add the 牛 that beat
            for r in (NINE, FIVE):
                n -= NBOTH[nib(hand, r), top_size] * set_beats[top_size - 1, r, top_rank]
            if top_rank != KING:
                n += NBOTH[nib(hand, NINE), top_size]
    elif top_kind == KIND_FISH:
        n = NSUB[nib(hand, EIGHT), top_k] * NSUB[nib(hand, TEN), top_k] \
            * NSUB[nib(hand, KING), top_k]
    elif top_kind == KIND_FISH_LIANG:
        if nib(hand, KING) == 15:
            n = POP4[nib(hand, TEN)] * POP4[nib(hand, EIGHT)]
    elif top_kind == KIND_XI_BAO_LIANG:
        n = NBOTH[nib(hand, FIVE), top_size - 4] * popcount(_beating_quads(hand, top_rank,
                                                                             set_beats))
    return n


@njit(inline="always", cache=True)
def answer_at(hand, top_kind, top_size, top_rank, top_k, set_beats, index, out_info):
    """The mask gen_answers would put at position ``index``; its info goes to out_info[:5].

    Returns -1 (``out_info`` untouched) when ``index`` is not below :func:`count_answers`.
    """
    if index < 0:
        return -1
    idx = index
    if top_kind == KIND_SET:
        mixed = top_size == 2 or top_size == 3  # 9s and 5s may be 牛 / 喜 here
        for r in range(12):
            hn = nib(hand, r)
            if not (mixed and (r == NINE or r == FIVE)):
                # every subset is a set: all beat the top or none do
                c = NSUB[hn, top_size] * set_beats[top_size - 1, r, top_rank]
                if idx < c:
                    _emit(out_info, KIND_SET, top_size, r, 0)
                    return SUBS[hn, top_size, idx] << (4 * r)
                idx -= c
                continue
            c = _set_answer_count(hn, r, top_size, top_rank, set_beats)
            if idx < c:
                for i in range(NSUB[hn, top_size]):
                    sub = SUBS[hn, top_size, i]
                    if _set_answer_ok(r, sub, top_size, top_rank, set_beats):
                        if idx == 0:
                            _emit(out_info, same_rank_kind(r, sub, top_size), top_size, r, 0)
                            return sub << (4 * r)
                        idx -= 1
            idx -= c
    elif top_kind == KIND_FISH:
        c = NSUB[nib(hand, EIGHT), top_k] * NSUB[nib(hand, TEN), top_k] \
            * NSUB[nib(hand, KING), top_k]
        if idx < c:
            _emit(out_info, KIND_BAI, 3 * top_k, -1, top_k)
            return _triple_at(hand, EIGHT, TEN, KING, top_k, top_k, top_k, idx)
    elif top_kind == KIND_FISH_LIANG:
        if nib(hand, KING) == 15 and idx < POP4[nib(hand, TEN)] * POP4[nib(hand, EIGHT)]:
            _emit(out_info, KIND_BAI_LIANG, 6, KING, 0)
            return _quad_two_at(hand, KING, TEN, EIGHT, idx)
    elif top_kind == KIND_XI_BAO_LIANG:
        quads = _beating_quads(hand, top_rank, set_beats)
        nq = popcount(quads)
        f = nib(hand, FIVE)
        xs = top_size - 4
        if idx < NBOTH[f, xs] * nq:
            r = _nth_quad_rank(quads, idx % nq)
            _emit(out_info, KIND_XI_BAO_LIANG, top_size, r, 0)
            return (BOTH[f, xs, idx // nq] << (4 * FIVE)) | (15 << (4 * r))
    return -1


__all__ = ["BOTH", "CUM", "NBOTH", "ORDER", "answer_at", "count_answers", "count_plays",
           "play_at"]
