"""Follow duty, matching, the trick winner, throws and 抠底 on planes
(docs/rules/shengji.md §5, §6.1).

Plays are planes ``(one, two)``; several plays are int64[k, 2] in play order. ``ctx`` is a
context array (``context``) and ``params`` the rule vector (``params``). A "lead" is the
trick's format: after a failed throw (甩牌), the forced unit. Kernels ending in ``_in`` take
caller-owned scratch (``units.new_units``, ``units.new_work``) so loops allocate nothing.
"""

from __future__ import annotations

import numpy as np

from ..jit import njit, njit_counted, njit_uncounted
from .context import CX_ESUIT, CX_HIGHER, CX_RUNG, CX_SUIT_MASK, TRUMP
from .params import (
    COMPARE_ALL_UNITS,
    COMPARE_HIGHEST_CARD,
    KITTY_POW2_PAIRS,
    KITTY_TIMES_SIZE,
    P_KITTY_MULTIPLIER,
    P_RUFF_RULE,
    P_THROW_CHECK_PLAYERS,
    P_THROW_FAIL_PLAY,
    P_THROW_WHOLE_SUIT_ONLY,
    P_TRICK_COMPARE,
    RUFF_COUNT,
    THROW_CHECK_OPPONENTS,
    THROW_FAIL_FIRST_FAILED_UNIT,
    THROW_FAIL_SMALLEST_CARD,
)
from .planes import contains, count, lowest_bit, popcount
from .units import (
    U_FACES,
    U_PAIRS,
    U_TOP,
    W_COUNTS,
    W_FAILED,
    W_KEY,
    W_KS,
    W_WIN_KEY,
    best_split,
    copy_key,
    coverage,
    decompose,
    decompose_suit,
    effective_suit,
    key_greater,
    ladder_word,
    lead_shape,
    new_units,
    new_work,
    pair_ladder,
    tractor_starts,
)

# Reasons returned by follow_error (0: legal).
FOLLOW_OK, FOLLOW_BAD_LEAD, FOLLOW_COUNT, FOLLOW_NOT_HELD, FOLLOW_SUIT, FOLLOW_TRACTORS, \
    FOLLOW_PAIRS = range(7)
# Reasons returned by lead_error (0: legal).
LEAD_OK, LEAD_EMPTY, LEAD_NOT_HELD, LEAD_MIXED, LEAD_NOT_WHOLE_SUIT = range(5)


@njit(cache=True)
def follow_error(lead_one, lead_two, hand_one, hand_two, play_one, play_two, ctx, params):
    """Why ``play`` (from ``hand``) does not follow ``lead`` (§5.3), or FOLLOW_OK.

    Fewer cards of the led suit E than the lead: play all of them. None: any cards.
    Otherwise only E cards, and the play's tractor coverage TS and pair score PS must equal
    the hand's (exact searches, not greedy).
    """
    return follow_error_in(lead_one, lead_two, hand_one, hand_two, play_one, play_two, ctx,
                           (new_units(), new_work()))


@njit(cache=True)
def follow_error_in(lead_one, lead_two, hand_one, hand_two, play_one, play_two, ctx, bufs):
    """follow_error with caller-owned scratch ``bufs`` = (``units.new_units()``,
    ``units.new_work()``); the rules do not enter the follow duty."""
    units, work = bufs
    n = count(lead_one, lead_two)
    e = effective_suit(lead_one, ctx) if lead_one else -1
    if e < 0:
        return FOLLOW_BAD_LEAD
    if count(play_one, play_two) != n:
        return FOLLOW_COUNT
    if not contains(hand_one, hand_two, play_one, play_two):
        return FOLLOW_NOT_HELD
    mask = ctx[CX_SUIT_MASK + e]
    held = count(hand_one & mask, hand_two & mask)
    played = count(play_one & mask, play_two & mask)
    if held <= n:
        return FOLLOW_OK if played == held else FOLLOW_SUIT
    if played != n:
        return FOLLOW_SUIT
    ks, counts = work[W_KS], work[W_COUNTS]
    nu = decompose_suit(lead_one, lead_two, ctx, e, units, 0)
    m, n_pairs, _ = lead_shape(units, nu, ks)
    if m > 0:
        pair_ladder(hand_two & mask, ctx, e, counts)
        need = coverage(counts, ks, m, work)
        pair_ladder(play_two & mask, ctx, e, counts)
        if coverage(counts, ks, m, work) < need:
            return FOLLOW_TRACTORS
    n2 = n_pairs
    for i in range(m):
        n2 += ks[i]
    if min(n2, popcount(play_two)) < min(n2, popcount(hand_two & mask)):
        return FOLLOW_PAIRS
    return FOLLOW_OK


@njit(cache=True)
def is_legal_follow(lead_one, lead_two, hand_one, hand_two, play_one, play_two, ctx, params):
    """Whether ``play`` is a legal follow to ``lead`` from ``hand`` (§5.3)."""
    return follow_error(lead_one, lead_two, hand_one, hand_two, play_one, play_two, ctx,
                        params) == FOLLOW_OK


@njit(cache=True)
def lead_error(lead_one, lead_two, hand_one, hand_two, ctx, params):
    """Why ``lead`` may not be led from ``hand`` (§5.1–5.2), or LEAD_OK (stand check apart)."""
    if lead_one == 0:
        return LEAD_EMPTY
    if not contains(hand_one, hand_two, lead_one, lead_two):
        return LEAD_NOT_HELD
    e = effective_suit(lead_one, ctx)
    if e < 0:
        return LEAD_MIXED
    if params[P_THROW_WHOLE_SUIT_ONLY] != 0:
        if decompose_suit(lead_one, lead_two, ctx, e, new_units(), 0) > 1:
            mask = ctx[CX_SUIT_MASK + e]
            if count(lead_one, lead_two) != count(hand_one & mask, hand_two & mask):
                return LEAD_NOT_WHOLE_SUIT
    return LEAD_OK


@njit(cache=True)
def play_key(one, two, lead_suit, fmt, ctx, params, key, work):
    """The comparison key of a play against a lead of format ``fmt`` = (``ks``, ``m``,
    ``n_pairs``) — see ``units.best_split`` — or ``key[0] = -1`` when the play cannot win
    (§5.4): it spans several effective suits, is neither the led suit nor 主, or does not
    match. Returns the play's effective suit."""
    key[0] = -1
    e = effective_suit(one, ctx)
    if e < 0 or (e != lead_suit and e != TRUMP):
        return -1
    best_split(one, two, ctx, e, fmt, params[P_RUFF_RULE] == RUFF_COUNT, key, work)
    return e


@njit(cache=True)
def matches(lead_one, lead_two, play_one, play_two, ctx, params):
    """§5.4: the play is one effective suit, the led suit or 主, and covers the lead's units
    (ruff_rule match: tractors of equal length; count: 2..k pairs each, N2 pairs in all)."""
    units, work = new_units(), new_work()
    ks, key = work[W_KS], work[W_KEY]
    e = effective_suit(lead_one, ctx)
    nu = decompose_suit(lead_one, lead_two, ctx, e, units, 0)
    m, n_pairs, _ = lead_shape(units, nu, ks)
    play_key(play_one, play_two, e, (ks, m, n_pairs), ctx, params, key, work)
    return key[0] >= 0


@njit(cache=True)
def _top_rung(one, ctx):
    best = -1
    while one:
        f = lowest_bit(one)
        one &= one - 1
        best = max(best, ctx[CX_RUNG + f])
    return best


@njit(cache=True)
def outranks(x_key, w_key, x_one, w_one, m, n_pairs, ctx, params):
    """X > W under trick_compare (§5.5); equal keys keep W.

    largest_unit: keys compared lexicographically over tractors then pairs, or over the
    singles when the lead is all singles. all_units: every tractor, pair and single of X
    beats its counterpart in W. highest_card: X's highest rung beats W's.
    """
    rule = params[P_TRICK_COMPARE]
    if rule == COMPARE_HIGHEST_CARD:
        return _top_rung(x_one, ctx) > _top_rung(w_one, ctx)
    if rule == COMPARE_ALL_UNITS:
        # tractors and pairs pair off in full; singles as far as both keys hold them
        for i in range(1, min(x_key[0], w_key[0]) + 1):
            if x_key[i] <= w_key[i]:
                return False
        return True
    if m + n_pairs > 0:  # singles count only when the lead is all singles
        for i in range(1, m + n_pairs + 1):
            if x_key[i] != w_key[i]:
                return x_key[i] > w_key[i]
        return False
    return key_greater(x_key, w_key)


@njit(cache=True)
def trick_winner(plays, k, ctx, params):
    """Index of the winning play among ``plays[:k]`` (plays[0] the lead, §5.5): a later
    play wins if it matches the lead and is the first 主 play over a plain winner, or is in
    the winner's suit and outranks it; ties keep the earlier play. -1 for a mixed lead."""
    return trick_winner_in(plays, k, ctx, params, new_units(), new_work())


@njit(cache=True, inline="always")
def _one_face_winner(plays, k, ctx):
    # a single or a pair led: the plays that can win are one face held as often as the
    # lead's, and every trick_compare and ruff_rule reading reduces to comparing its rung
    f = lowest_bit(plays[0, 0])
    win, win_suit, win_rung = 0, ctx[CX_ESUIT + f], ctx[CX_RUNG + f]
    pair = plays[0, 1] != 0
    for i in range(1, k):
        one = plays[i, 0]
        if one & (one - 1) != 0 or (plays[i, 1] != 0) != pair:
            continue  # two faces, or a single against a pair: cannot win
        g = lowest_bit(one)
        e, r = ctx[CX_ESUIT + g], ctx[CX_RUNG + g]
        if (win_suit != TRUMP and e == TRUMP) or (e == win_suit and r > win_rung):
            win, win_suit, win_rung = i, e, r
    return win


@njit_uncounted
def trick_winner_in(plays, k, ctx, params, units, work):
    """trick_winner with caller-owned scratch."""
    ks, key, win_key = work[W_KS], work[W_KEY], work[W_WIN_KEY]
    lead_suit = effective_suit(plays[0, 0], ctx)
    if lead_suit < 0:
        return -1
    if plays[0, 0] & (plays[0, 0] - 1) == 0:
        return _one_face_winner(plays, k, ctx)
    nu = decompose_suit(plays[0, 0], plays[0, 1], ctx, lead_suit, units, 0)
    m, n_pairs, _ = lead_shape(units, nu, ks)
    fmt = (ks, m, n_pairs)
    win_suit = play_key(plays[0, 0], plays[0, 1], lead_suit, fmt, ctx, params, win_key, work)
    win = 0
    for i in range(1, k):
        e = play_key(plays[i, 0], plays[i, 1], lead_suit, fmt, ctx, params, key, work)
        if key[0] < 0:
            continue  # 垫: cannot win
        if (win_suit != TRUMP and e == TRUMP) or (
                e == win_suit and outranks(key, win_key, plays[i, 0], plays[win, 0], m,
                                           n_pairs, ctx, params)):
            win, win_suit = i, e
            copy_key(key, win_key)
    return win


@njit(cache=True)
def trick_so_far_in(plays, k, ctx, params, units, work):
    """Where ``plays[:k]`` of a trick led with one effective suit and several faces stand,
    for :func:`takes_in`: ``(lead_suit, m, n_pairs, win, win_suit)``, the lead's format
    (tractors ``ks[:m]`` left in ``work[W_KS]``, ``n_pairs`` pairs besides), the winning
    play's index and suit (its key left in ``work[W_WIN_KEY]``). The same winner as
    :func:`trick_winner_in`, whose own loop is kept for the heuristic's hot path."""
    ks, key, win_key = work[W_KS], work[W_KEY], work[W_WIN_KEY]
    lead_suit = effective_suit(plays[0, 0], ctx)
    nu = decompose_suit(plays[0, 0], plays[0, 1], ctx, lead_suit, units, 0)
    m, n_pairs, _ = lead_shape(units, nu, ks)
    win_suit = play_key(plays[0, 0], plays[0, 1], lead_suit, (ks, m, n_pairs), ctx, params,
                        win_key, work)
    win = 0
    for i in range(1, k):
        e = takes_in(plays[i, 0], plays[i, 1], plays, (lead_suit, m, n_pairs, win, win_suit),
                     ctx, params, work)
        if e >= 0:
            win, win_suit = i, e
            copy_key(key, win_key)
    return lead_suit, m, n_pairs, win, win_suit


@njit(cache=True)
def takes_in(one, two, plays, so_far, ctx, params, work):
    """The effective suit of the play ``(one, two)`` if it takes the trick from its winner
    so far (``so_far`` and ``work``'s rows as :func:`trick_so_far_in` left them), else -1;
    the play's key is left in ``work[W_KEY]``."""
    lead_suit, m, n_pairs, win, win_suit = so_far
    key = work[W_KEY]
    e = play_key(one, two, lead_suit, (work[W_KS], m, n_pairs), ctx, params, key, work)
    if key[0] < 0:
        return -1  # 垫: cannot win
    if (win_suit != TRUMP and e == TRUMP) or (
            e == win_suit and outranks(key, work[W_WIN_KEY], one, plays[win, 0], m, n_pairs,
                                       ctx, params)):
        return e
    return -1


@njit(cache=True)
def _beats_unit(units, i, held_one, held_two, ctx, e):
    # a player's led-suit cards hold a higher unit of unit i's shape (§5.2)
    p, top = units[i, U_PAIRS], units[i, U_TOP]
    f = lowest_bit(units[i, U_FACES])
    if p == 0:
        return held_one & ctx[CX_HIGHER + f] != 0
    if p == 1:
        return held_two & ctx[CX_HIGHER + f] != 0
    starts = tractor_starts(ladder_word(held_two, ctx, e), p)
    return starts >> (top - p + 2) != 0  # a k-pair run starting above this one's start


@njit(cache=True)
def throw_failures(th_one, th_two, others, ctx, params, units, failed):
    """Decompose a throw into ``units`` and set bit j of ``failed[i]`` when ``others[i]``
    (the three other hands in play order from the thrower's 下家) can beat unit j with its
    cards of the led suit (§5.2); with throw_check_players opponents only others[0] and
    others[2] count. A single unit is not checked (it always stands: ``failed`` stays 0).
    Returns the number of units."""
    e = effective_suit(th_one, ctx)
    n = decompose_suit(th_one, th_two, ctx, e, units, 0)
    failed[0] = failed[1] = failed[2] = 0
    if n < 2:  # a single unit always stands
        return n
    mask = ctx[CX_SUIT_MASK + e]
    opponents_only = params[P_THROW_CHECK_PLAYERS] == THROW_CHECK_OPPONENTS
    for i in range(3):
        failed[i] = 0
        if opponents_only and i == 1:
            continue
        held_one, held_two = others[i, 0] & mask, others[i, 1] & mask
        for j in range(n):
            if _beats_unit(units, j, held_one, held_two, ctx, e):
                failed[i] |= np.int64(1) << j
    return n


@njit(cache=True)
def check_throw(th_one, th_two, others, ctx, params, forced):
    """Whether a lead stands (§5.2); ``forced`` (int64[2]) receives what is played: the
    whole lead when it stands (a single unit always does), else the unit throw_fail_play
    picks — the lowest failing unit of the largest failing shape, the lowest card, or the
    lowest unit of the smallest shape the first beating player (from the 下家) beats.
    ``others``: the three other hands in play order from the thrower's 下家."""
    return check_throw_in(th_one, th_two, others, ctx, params, forced, new_units(), new_work())


@njit(cache=True)
def check_throw_in(th_one, th_two, others, ctx, params, forced, units, work):
    """check_throw with caller-owned scratch."""
    return throw_units_in(th_one, th_two, others, ctx, params, forced, units, work) > 0


@njit_uncounted
def throw_units_in(th_one, th_two, others, ctx, params, forced, units, work):
    """check_throw_in that returns the number of canonical units of the lead, negated when
    the throw fails (``forced`` as in check_throw)."""
    failed = work[W_FAILED]
    forced[0], forced[1] = th_one, th_two
    n = throw_failures(th_one, th_two, others, ctx, params, units, failed)
    if n < 2 or (failed[0] | failed[1] | failed[2]) == 0:
        return n
    rule = params[P_THROW_FAIL_PLAY]
    if rule == THROW_FAIL_SMALLEST_CARD:
        best_f, best_r = -1, 99
        rest = th_one
        while rest:
            f = lowest_bit(rest)
            rest &= rest - 1
            if ctx[CX_RUNG + f] < best_r:  # faces ascend: a tie keeps the lower face
                best_f, best_r = f, ctx[CX_RUNG + f]
        forced[0], forced[1] = np.int64(1) << best_f, 0
        return -n
    if rule == THROW_FAIL_FIRST_FAILED_UNIT:
        beaten = failed[0] if failed[0] else (failed[1] if failed[1] else failed[2])
    else:
        beaten = failed[0] | failed[1] | failed[2]
    shape = -1
    for j in range(n):
        if beaten >> j & 1:
            p = units[j, U_PAIRS]
            if shape < 0 or (p < shape if rule == THROW_FAIL_FIRST_FAILED_UNIT else p > shape):
                shape = p
    pick = -1
    for j in range(n):
        if beaten >> j & 1 and units[j, U_PAIRS] == shape:
            if pick < 0 or units[j, U_TOP] < units[pick, U_TOP] or (
                    units[j, U_TOP] == units[pick, U_TOP]
                    and lowest_bit(units[j, U_FACES]) < lowest_bit(units[pick, U_FACES])):
                pick = j
    faces = units[pick, U_FACES]
    forced[0], forced[1] = faces, faces if shape > 0 else 0
    return -n


# it allocates, and the uncounted hand.play_hand_in calls it
@njit_counted
def kitty_multiplier(one, two, ctx, params):
    """抠底 multiplier m from the deciding cards (§6.1): their largest canonical unit has p
    pairs and n cards; pow2_pairs 2^(1+p), times_size 2n, pow_size 2^n."""
    units = new_units()
    nu = decompose(one, two, ctx, units)
    p = 0
    for i in range(nu):
        p = max(p, units[i, U_PAIRS])
    size = 1 if p == 0 else 2 * p
    rule = params[P_KITTY_MULTIPLIER]
    if rule == KITTY_POW2_PAIRS:
        return np.int64(1) << (1 + p)
    if rule == KITTY_TIMES_SIZE:
        return 2 * size
    return np.int64(1) << size
