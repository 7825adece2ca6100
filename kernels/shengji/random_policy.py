"""The random policy: a random legal lead and a random legal follow (docs/rules/shengji.md §5).

Draws come from an xoshiro256** state (``kernels.rng``) and are defined exactly, so a
stream replays the same plays:

**Lead** (``random_lead``). One physical card of the hand is drawn uniformly; its effective
suit E is led. Let U be the canonical units (§3) of the hand's E cards. If |U| ≥ 2, a throw
(甩牌) is tried with probability 1/4: every unit of U is kept independently with
probability 1/2, redrawn until at least two are kept (with throw_whole_suit_only the throw
is all of U). Otherwise one unit of U is led, drawn uniformly. The stand check is the
caller's (the engine knows the other hands).

**Follow** (``random_follow``), lead of n cards in suit E, hand H with H_E its E cards:

1. |H_E| ≤ n: all of H_E, plus a uniform (n − |H_E|)-subset of H's other physical cards.
2. |H_E| > n: the forced structure, then free cards, all from H_E.
   a. Tractors: among the assignments of sub-tractors to the lead's tractors that reach
      TS (each slot nothing or a window of 2..k pairs, disjoint, as ``units.cover_walk``
      lists them), one is drawn uniformly; on a shared rung the face is drawn uniformly.
   b. Pairs: min(N2, pairs of H_E) − TS further pair faces, a uniform subset of the pair
      faces left.
   c. Singles: the remaining slots take a uniform subset of the physical E cards left.
   The result always has TS and PS equal to the hand's, so it is legal.
"""

from __future__ import annotations

import numpy as np

from ..jit import njit, njit_uncounted
from ..rng import bounded
from .context import CX_RUNG_FACES, CX_SUIT_MASK, N_RUNGS
from .params import P_THROW_WHOLE_SUIT_ONLY
from .planes import count, lowest_bit, popcount, subtract
from .units import (
    U_FACES,
    U_PAIRS,
    W_BUF,
    W_COUNTS,
    W_KS,
    W_PICK_LENS,
    W_PICK_TOPS,
    cover_walk,
    coverage,
    decompose_suit,
    effective_suit,
    lead_shape,
    new_units,
    new_work,
    pair_ladder,
)


@njit(cache=True, inline="always")
def nth_face(mask, k):
    """The face of the k-th (0-based) set bit of ``mask``, lowest first."""
    for _ in range(k):
        mask &= mask - 1
    return lowest_bit(mask)


@njit(cache=True, inline="always")
def random_card(one, two, rng):
    """A uniformly drawn physical card of a non-empty set: its face."""
    k = bounded(rng, popcount(one) + popcount(two))
    n1 = popcount(one)
    return nth_face(one, k) if k < n1 else nth_face(two, k - n1)


@njit(cache=True, inline="always")
def random_subset(one, two, k, rng, buf):
    """A uniform k-card subset of the set's physical cards (k ≤ its size), as planes;
    ``buf`` is int64 scratch with room for the set's cards."""
    n = 0
    for plane in (one, two):  # the copy in ``one`` and the second copy in ``two``
        while plane:
            buf[n] = lowest_bit(plane)
            plane &= plane - 1
            n += 1
    out_one = np.int64(0)
    out_two = np.int64(0)
    for j in range(k):  # partial Fisher–Yates
        r = j + bounded(rng, n - j)
        buf[j], buf[r] = buf[r], buf[j]
        b = np.int64(1) << buf[j]
        out_two |= out_one & b
        out_one |= b
    return out_one, out_two


@njit(cache=True)
def random_lead(hand_one, hand_two, ctx, params, rng):
    """A random lead from a non-empty hand (module docstring), as planes."""
    return random_lead_in(hand_one, hand_two, ctx, params, rng, new_units())


@njit(cache=True)
def random_lead_in(hand_one, hand_two, ctx, params, rng, units):
    """random_lead with a caller-owned unit array."""
    e = effective_suit(np.int64(1) << random_card(hand_one, hand_two, rng), ctx)
    n = decompose_suit(hand_one, hand_two, ctx, e, units, 0)
    keep = np.int64(0)  # bit i: unit i is led
    if n >= 2 and bounded(rng, 4) == 0:
        if params[P_THROW_WHOLE_SUIT_ONLY] != 0:
            keep = (np.int64(1) << n) - 1
        while popcount(keep) < 2:
            keep = np.int64(0)
            for i in range(n):
                if bounded(rng, 2):
                    keep |= np.int64(1) << i
    else:
        keep = np.int64(1) << bounded(rng, n)
    one = np.int64(0)
    two = np.int64(0)
    for i in range(n):
        if keep >> i & 1:
            one |= units[i, U_FACES]
            if units[i, U_PAIRS] > 0:
                two |= units[i, U_FACES]
    return one, two


@njit(cache=True)
def _forced_pairs(held_two, ctx, e, ks, m, n2, rng, work):
    # faces of the pairs a follow must play: a TS-reaching tractor assignment, then pairs
    counts = work[W_COUNTS]
    pair_ladder(held_two, ctx, e, counts)
    chosen = np.int64(0)
    free = held_two
    ts = coverage(counts, ks, m, work)
    if ts > 0:
        pick = bounded(rng, cover_walk(counts, ks, m, ts, -1, work))
        cover_walk(counts, ks, m, ts, pick, work)
        base = CX_RUNG_FACES + N_RUNGS * e
        for i in range(m):
            length, top = work[W_PICK_LENS, i], work[W_PICK_TOPS, i]
            for r in range(top - length + 1, top + 1):
                on = free & ctx[base + r]
                f = nth_face(on, bounded(rng, popcount(on)))
                chosen |= np.int64(1) << f
                free &= ~(np.int64(1) << f)
    extra = min(n2, popcount(held_two)) - ts
    for _ in range(extra):
        f = nth_face(free, bounded(rng, popcount(free)))
        chosen |= np.int64(1) << f
        free &= ~(np.int64(1) << f)
    return chosen


@njit(cache=True)
def random_follow(lead_one, lead_two, hand_one, hand_two, ctx, params, rng):
    """A random legal follow to ``lead`` from ``hand`` (module docstring), as planes."""
    return random_follow_in(lead_one, lead_two, hand_one, hand_two, ctx, rng,
                            (new_units(), new_work()))


@njit(cache=True)
def random_follow_in(lead_one, lead_two, hand_one, hand_two, ctx, rng, bufs):
    """random_follow with caller-owned scratch ``bufs`` = (units, work)."""
    units, work = bufs
    n = count(lead_one, lead_two)
    e = effective_suit(lead_one, ctx)
    ks = work[W_KS]
    m, n2 = lead_pairs(lead_one, lead_two, ctx, e, units, ks)
    return random_follow_shaped((e, n, ks, m, n2), hand_one, hand_two, ctx, rng, work)


@njit_uncounted
def lead_pairs(lead_one, lead_two, ctx, e, units, ks):
    """The lead's tractor lengths (to ``ks``, longest first) and pair total N2, as
    ``(tractors, N2)``: what a follow must match (§5.3)."""
    if lead_two == 0:
        return 0, 0
    nu = decompose_suit(lead_one, lead_two, ctx, e, units, 0)
    m, n_pairs, _ = lead_shape(units, nu, ks)
    n2 = n_pairs
    for i in range(m):
        n2 += ks[i]
    return m, n2


@njit_uncounted
def random_follow_shaped(shape, hand_one, hand_two, ctx, rng, work):
    """random_follow to a lead of ``shape`` = (``e``, ``n``, ``ks``, ``m``, ``n2``): ``n``
    cards of suit ``e`` whose tractors and pair total ``lead_pairs`` gave (``ks[:m]``,
    ``n2``); ``ks`` must not be ``work[W_KS]`` of another caller's use."""
    e, n, ks, m, n2 = shape
    mask = ctx[CX_SUIT_MASK + e]
    held_one, held_two = hand_one & mask, hand_two & mask
    h = count(held_one, held_two)
    if h <= n:
        rest_one, rest_two = subtract(hand_one, hand_two, held_one, held_two)
        o, t = random_subset(rest_one, rest_two, n - h, rng, work[W_BUF])
        return held_one | o, held_two | t
    if n2 == 0:  # a lead of singles: n uniform physical cards of the suit
        return random_subset(held_one, held_two, n, rng, work[W_BUF])
    pairs = _forced_pairs(held_two, ctx, e, ks, m, n2, rng, work)
    rest_one, rest_two = subtract(held_one, held_two, pairs, pairs)
    o, t = random_subset(rest_one, rest_two, n - 2 * popcount(pairs), rng, work[W_BUF])
    return pairs | o, pairs | t
