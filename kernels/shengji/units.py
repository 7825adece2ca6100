"""Units (牌型) on planes: canonical decomposition, pair ladders and tractor packings
(docs/rules/shengji.md §3, §5.3–5.5).

A unit array is int64[MAX_UNITS, 3], one row per unit: ``U_PAIRS`` (0 single 单牌, 1 pair
对子, k ≥ 2 tractor 拖拉机 of k pairs), ``U_TOP`` (highest rung) and ``U_FACES`` (mask of its
faces; a pair or tractor holds both copies of each). Rows are in canonical order: most
pairs first, then highest top, then lowest face.

A pair ladder is int64[16]: the number of pairs (identical faces held twice) on each rung
of one effective suit. Only the shared 副级 rung (and the NT level rung) can hold more than
one, which is how "a tractor uses one face of a shared rung" falls out of the counts.
"""

from __future__ import annotations

import numpy as np

from ..jit import njit, njit_uncounted
from .context import CX_RUNG, CX_RUNG_FACES, CX_SUIT_MASK, N_RUNGS, TRUMP
from .planes import highest_bit, lowest_bit, popcount

MAX_UNITS = 40  # a hand with the kitty holds 33 cards
U_PAIRS, U_TOP, U_FACES = 0, 1, 2
MAX_KEY = 40  # comparison keys: tractors, pair rungs, single rungs

# Scratch ("work", int64[WORK_ROWS, WORK_COLS]) shared by the search kernels so that hot
# loops allocate nothing; each row has one owner at a time.
W_COUNTS, W_CARDS, W_ORIG, W_CUR, W_CHOSEN, W_LENS, W_TOPS, W_APPLIED, W_TAKEN, W_KS, \
    W_KEY, W_WIN_KEY, W_PICK_LENS, W_PICK_TOPS, W_BUF, W_FAILED = range(16)
WORK_ROWS, WORK_COLS = 16, 48


@njit(cache=True)
def new_work():
    """A scratch array for the search kernels."""
    return np.zeros((WORK_ROWS, WORK_COLS), dtype=np.int64)


@njit(cache=True)
def new_units():
    """A unit array (``U_*`` columns)."""
    return np.zeros((MAX_UNITS, 3), dtype=np.int64)


@njit(cache=True, inline="always")
def effective_suit(one, ctx):
    """The one effective suit (0..4) of a non-empty set, or -1 when it spans several."""
    for e in range(5):
        if one & ~ctx[CX_SUIT_MASK + e] == 0:
            return e
    return -1


@njit(cache=True)
def pair_ladder(two, ctx, e, counts):
    """``counts[r]`` = pairs of effective suit ``e`` on rung ``r``."""
    base = CX_RUNG_FACES + N_RUNGS * e
    for r in range(N_RUNGS):
        counts[r] = popcount(two & ctx[base + r])


@njit(cache=True)
def rung_cards(one, two, ctx, e, counts):
    """``counts[r]`` = cards of effective suit ``e`` on rung ``r``."""
    base = CX_RUNG_FACES + N_RUNGS * e
    for r in range(N_RUNGS):
        m = ctx[base + r]
        counts[r] = popcount(one & m) + popcount(two & m)


@njit(cache=True)
def ladder_word(two, ctx, e):
    """16-bit word with bit r set when suit ``e`` has a pair on rung r."""
    base = CX_RUNG_FACES + N_RUNGS * e
    w = 0
    for r in range(N_RUNGS):
        if two & ctx[base + r]:
            w |= 1 << r
    return w


@njit(cache=True)
def tractor_starts(word, k):
    """Bits a of ``word`` with rungs a .. a+k-1 all set: the starts of k-pair tractors."""
    runs = word
    for _ in range(k - 1):
        runs &= runs >> 1
    return runs


@njit(cache=True)
def _sort_units(units, lo, hi):
    # insertion sort of rows lo..hi-1: most pairs, highest top, lowest face first
    for i in range(lo + 1, hi):
        p, t, fm = units[i, 0], units[i, 1], units[i, 2]
        key = (p << 12) | (t << 6) | (63 - lowest_bit(fm))
        j = i - 1
        while j >= lo and ((units[j, 0] << 12) | (units[j, 1] << 6)
                           | (63 - lowest_bit(units[j, 2]))) < key:
            for c in range(3):
                units[j + 1, c] = units[j, c]
            j -= 1
        units[j + 1, 0], units[j + 1, 1], units[j + 1, 2] = p, t, fm


@njit(cache=True)
def decompose_suit(one, two, ctx, e, units, n):
    """Append the canonical units (§3) of the cards of suit ``e`` to ``units`` from row
    ``n``; returns the new row count. Longest tractor first (ties: highest; on a shared rung
    the lowest suit's face), then the remaining pairs, then singles."""
    mask = ctx[CX_SUIT_MASK + e]
    t = two & mask
    singles = one & mask & ~two
    base = CX_RUNG_FACES + N_RUNGS * e
    first = n
    while t:
        word = ladder_word(t, ctx, e)
        runs = word
        k = 1
        while runs & (runs >> 1):
            runs &= runs >> 1
            k += 1
        if k < 2:
            break
        lo = highest_bit(runs)
        faces = np.int64(0)
        for r in range(lo, lo + k):
            b = np.int64(1) << lowest_bit(t & ctx[base + r])  # lowest suit on a shared rung
            faces |= b
            t &= ~b
        units[n, U_PAIRS], units[n, U_TOP], units[n, U_FACES] = k, lo + k - 1, faces
        n += 1
    while t:
        f = lowest_bit(t)
        t &= t - 1
        units[n, U_PAIRS], units[n, U_TOP] = 1, ctx[CX_RUNG + f]
        units[n, U_FACES] = np.int64(1) << f
        n += 1
    while singles:
        f = lowest_bit(singles)
        singles &= singles - 1
        units[n, U_PAIRS], units[n, U_TOP] = 0, ctx[CX_RUNG + f]
        units[n, U_FACES] = np.int64(1) << f
        n += 1
    _sort_units(units, first, n)
    return n


@njit_uncounted
def decompose(one, two, ctx, units):
    """Canonical units of any set, suit by suit (主 first, then ♠♥♣♦); returns the count."""
    n = 0
    for e in (TRUMP, 0, 1, 2, 3):
        if one & ctx[CX_SUIT_MASK + e]:
            n = decompose_suit(one, two, ctx, e, units, n)
    return n


@njit(cache=True)
def lead_shape(units, n, ks):
    """The shape F of a lead's ``n`` units: writes its tractor lengths, longest first, to
    ``ks`` and returns ``(tractors, pairs, singles)`` counts (pairs: standalone pairs)."""
    m = 0
    n_pairs = 0
    for i in range(n):
        p = units[i, U_PAIRS]
        if p >= 2:
            ks[m] = p  # canonical order lists tractors longest first
            m += 1
        elif p == 1:
            n_pairs += 1
    return m, n_pairs, n - m - n_pairs


@njit(cache=True)
def _window(counts, length, top):
    for j in range(length):
        if counts[top - j] == 0:
            return False
    return True


@njit(cache=True)
def _take(counts, length, top, d):
    for j in range(length):
        counts[top - j] += d


@njit(cache=True)
def _next_window(counts, length, top, low):
    # the window after (length, top) in search order — tops descending, then lengths
    # descending down to ``low`` — with a pair on every rung; (0, 0) when none is left
    top -= 1
    while length >= low:
        while top >= length - 1:
            if _window(counts, length, top):
                return length, top
            top -= 1
        length -= 1
        top = N_RUNGS - 1
    return 0, 0


@njit(cache=True)
def cover_walk(counts, ks, m, target, pick, work):
    """Walk the assignments of sub-tractors to the lead tractors ``ks[:m]`` — each slot a
    window of 2..k pairs of the ladder ``counts`` or nothing, windows disjoint — depth first
    in search order (slot by slot; tops, then lengths, descending; nothing last), with an
    explicit stack because Numba cannot cache recursive kernels. ``counts`` is restored.

    ``target`` < 0: return TS (§5.3), the largest total, stopping early at Σk. Otherwise
    count the assignments whose total is ``target``; with ``pick`` ≥ 0 stop at the pick-th
    (0-based) and write its windows to ``work[W_PICK_LENS]`` / ``work[W_PICK_TOPS]``
    (length 0: nothing).
    """
    if m == 0:
        return 0
    lens, tops, applied = work[W_LENS], work[W_TOPS], work[W_APPLIED]
    stop = 0
    for i in range(m):
        stop += ks[i]
    lens[0], tops[0], applied[0] = ks[0], N_RUNGS, 0
    d = 0
    total = best = found = 0
    while True:
        if applied[d]:
            _take(counts, lens[d], tops[d], 1)
            total -= lens[d]
            applied[d] = 0
        if lens[d] > 0:
            length, top = _next_window(counts, lens[d], tops[d], 2)
            if length > 0:
                lens[d], tops[d] = length, top
                _take(counts, length, top, -1)
                total += length
                applied[d] = 1
            else:
                lens[d] = -1  # last option: this slot takes nothing
        else:
            lens[d] = 0
        if lens[d] == 0:
            if d == 0:
                break
            d -= 1
            continue
        if target < 0 and total > best:
            best = total
            if best == stop:
                break
        if d + 1 < m:
            d += 1
            lens[d], tops[d], applied[d] = ks[d], N_RUNGS, 0
        elif target >= 0 and total == target:
            if found == pick:
                for i in range(m):
                    work[W_PICK_LENS, i] = max(lens[i], 0)
                    work[W_PICK_TOPS, i] = tops[i]
                found += 1
                break
            found += 1
    for i in range(d + 1):
        if applied[i]:
            _take(counts, lens[i], tops[i], 1)
    return best if target < 0 else found


@njit(cache=True)
def coverage(counts, ks, m, work):
    """TS of §5.3: the most pairs in disjoint sub-tractors of the ladder ``counts``, one per
    lead tractor ``ks[:m]``, each of 0 or 2..k pairs (exhaustive, see cover_walk)."""
    return cover_walk(counts, ks, m, -1, -1, work)


@njit(cache=True)
def copy_key(src, dst):
    """Copy a key (``src[0]`` entries after the length); an element loop, because a slice
    copy between two views of one scratch array makes Numba allocate a temporary."""
    for i in range(src[0] + 1):
        dst[i] = src[i]


@njit(cache=True)
def key_greater(a, b):
    """Whether key ``a`` > key ``b`` (layout of best_split): lexicographic, then longer."""
    na, nb = a[0], b[0]
    for i in range(1, min(na, nb) + 1):
        if a[i] != b[i]:
            return a[i] > b[i]
    return na > nb


@njit(cache=True)
def _leaf_key(left, orig, cards, chosen, m, n_pairs, out, taken):
    # tractors as length*16 + top, highest first; then the highest pairs left; then singles
    for i in range(m):
        v = chosen[i]
        j = i
        while j > 0 and out[j] < v:
            out[j + 1] = out[j]
            j -= 1
        out[j + 1] = v
    n = m
    taken[:N_RUNGS] = 0
    want = n_pairs
    for r in range(N_RUNGS - 1, -1, -1):
        while want > 0 and taken[r] < left[r]:
            taken[r] += 1
            want -= 1
            n += 1
            out[n] = r
    for r in range(N_RUNGS - 1, -1, -1):
        for _ in range(cards[r] - 2 * (orig[r] - left[r]) - 2 * taken[r]):
            n += 1
            out[n] = r
    out[0] = n


@njit(cache=True)
def _splits(ks, m, n_pairs, count_rule, best, work):
    # every placement of disjoint tractors, one per lead tractor (exactly k pairs, or 2..k
    # under count_rule), equal slots in non-increasing order; keeps the greatest key (the
    # play's pair ladder, its cards and their copy are work's W_COUNTS, W_CARDS, W_ORIG)
    counts, cards, orig = work[W_COUNTS], work[W_CARDS], work[W_ORIG]
    chosen, cur, taken = work[W_CHOSEN], work[W_CUR], work[W_TAKEN]
    if m == 0:
        _leaf_key(counts, orig, cards, chosen, 0, n_pairs, cur, taken)
        copy_key(cur, best)
        return
    lens, tops, applied = work[W_LENS], work[W_TOPS], work[W_APPLIED]
    lens[0], tops[0], applied[0] = ks[0], N_RUNGS, 0
    d = 0
    while True:
        if applied[d]:
            _take(counts, lens[d], tops[d], 1)
            applied[d] = 0
        low = 2 if count_rule else ks[d]
        length, top = _next_window(counts, lens[d], tops[d], low)
        if d > 0 and ks[d] == ks[d - 1]:
            while length > 0 and length * N_RUNGS + top > chosen[d - 1]:
                length, top = _next_window(counts, length, top, low)
        if length == 0:
            if d == 0:
                break
            d -= 1
            continue
        lens[d], tops[d] = length, top
        chosen[d] = length * N_RUNGS + top
        _take(counts, length, top, -1)
        applied[d] = 1
        if d + 1 < m:
            d += 1
            lens[d], tops[d], applied[d] = ks[d], N_RUNGS, 0
        else:
            _leaf_key(counts, orig, cards, chosen, m, n_pairs, cur, taken)
            if best[0] < 0 or key_greater(cur, best):
                copy_key(cur, best)


@njit(cache=True)
def best_split(one, two, ctx, e, fmt, count_rule, best, work):
    """The split of a play (cards of suit ``e``, as many as the lead) that covers the lead's
    format ``fmt`` = (``ks``, ``m``, ``n_pairs``) — tractors ``ks[:m]``, ``n_pairs`` pairs
    besides them — and is best for it (§5.4–5.5).

    Writes its comparison key to ``best`` (MAX_KEY + 1 entries): ``best[0]`` the length,
    then one ``length*16 + top`` per tractor (highest first), the pair rungs taken (highest
    first) and the rungs of every other card (highest first). ``best[0]`` is -1 when no
    split covers the shape. ``count_rule``: a k-pair lead tractor takes 2..k pairs
    (ruff_rule count) instead of exactly k (match); the play must still hold N2 pairs.
    ``best`` must not be a row of the scratch ``work``'s own rows (``W_KEY`` and
    ``W_WIN_KEY`` are free for it).
    """
    ks, m, n_pairs = fmt
    best[0] = -1
    counts, cards, orig = work[W_COUNTS], work[W_CARDS], work[W_ORIG]
    pair_ladder(two, ctx, e, counts)
    need = n_pairs
    for i in range(m):
        need += ks[i]
    have = 0
    for r in range(N_RUNGS):
        have += counts[r]
    if have < need:
        return
    rung_cards(one, two, ctx, e, cards)
    for r in range(N_RUNGS):
        orig[r] = counts[r]
    _splits(ks, m, n_pairs, count_rule, best, work)
