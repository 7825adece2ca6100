"""Perfect-information Monte Carlo (pimc): decide by playing the hand out on sampled deals.

At a decision of a pimc seat, hidden cards are dealt to the other seats many times, each
deal consistent with everything public: the cards played, each seat's card and discard
counts, and every pass (a seat that passed holds nothing that beats the play it passed on,
counting the cards it has played or discarded since). Every legal action is then played out
on every sampled deal by one policy for all seats (``PIMC_ROLLOUT``: the heuristic for
``pimc``, heuristic2 for ``pimc2``, the learned network for ``pimc-net``), from one random
stream per deal, and the action with the best mean result for the seat is taken. With
``PIMC_ENDGAME`` > 0, a play-out that reaches its next decision with at most that many cards
in the three hands is not played on: its value is the exact open-hand (max-n) value of the
sampled deal (:mod:`kernels.xianniu.solver`), one transposition table shared by every
play-out of the decision.

With ``PIMC_INFER`` = T > 0 the sampled deals are weighed by what the other seats chose: each
掀, each 扣 answer that could have been a 掀 and each 扣 of a lead holder not yet 够 (the choice
log in the state words) is given the probability that heuristic2 would have made it with the
hand the deal gives that seat then, ``f + (1 − 2f) σ((estimate − threshold) / T)`` with the
floor ``f`` = :data:`INFER_FLOOR`, and a deal counts by the product of its seat's
probabilities (an opponent model's likelihood, as in Kermit-style inference). The weights
read only what the deciding seat knew: the log holds public facts, the deal is sampled.
"""

from __future__ import annotations

import numpy as np

from ..arrays import copy_into
from ..jit import njit
from ..rng import bounded, next_u64, seed_state
from .bits import popcount
from .game import (
    CH_KOU_LEAD,
    CH_XIAN,
    CHOICE_COLS,
    N_RESULT,
    PASS_COLS,
    PH_LEAD,
    R_PTS0,
    S_LEAD,
    S_N_CHOICE,
    S_N_LIST,
    S_N_PASS,
    S_PHASE,
    S_QI,
    S_TRACK,
    WS_CHOICE,
    WS_DISC,
    WS_HANDS,
    WS_PASS,
    WS_PLAYED,
    WS_PUBLIC,
    WS_QUEUE,
    advance,
    finish_hand,
    new_scratch,
    start_hand,
)
from .policies import (
    H_KOU_BELOW,
    H_XIAN_AT,
    PIMC_BUDGET,
    PIMC_ENDGAME,
    PIMC_INFER,
    PIMC_ROLLOUT,
    PIMC_SAMPLES,
    POLICY_HEURISTIC,
    POLICY_HEURISTIC2,
    POLICY_NET,
    POLICY_PIMC,
    estimate2,
)
from .sampler import count_answers
from .solver import TT_COLS, cards_left, new_stack, solve_ws
from .tables import N_SEATS, P_GOU

FULL_DECK = (1 << 48) - 1
MAX_TRIES = 2000  # rejection-sampling attempts per hidden deal
NO_LIMIT = 1 << 62
ENDGAME_ROWS = 1 << 15  # transposition table rows of one decision's exact play-outs (1.8 MB)
# the least probability inference gives a logged choice: the other seats are not heuristic2,
# so no deal is ruled out by a choice alone
INFER_FLOOR = 0.05


@njit(cache=True)
def seat_to_act(ws):
    """The seat whose decision the state in ``ws`` waits for."""
    if ws[S_PHASE] == PH_LEAD:
        return ws[S_LEAD]
    return ws[WS_QUEUE + ws[S_QI]]


@njit(cache=True)
def sample_hidden(ws, seat, set_beats, rng, out):
    """Deal the cards ``seat`` cannot see to the other seats, consistent with the public
    record, into ``out`` (a copy of ``ws``); returns False if no consistent deal was found."""
    pool = FULL_DECK & ~ws[WS_HANDS + seat] & ~ws[WS_PUBLIC] & ~ws[WS_DISC + seat]
    cards = np.empty(48, dtype=np.int64)
    n = 0
    m = pool
    while m:
        low = m & -m
        cards[n] = low
        n += 1
        m ^= low
    o1 = (seat + 1) % N_SEATS
    o2 = (seat + 2) % N_SEATS
    h1 = popcount(ws[WS_HANDS + o1])
    d1 = popcount(ws[WS_DISC + o1])
    h2 = popcount(ws[WS_HANDS + o2])
    d2 = popcount(ws[WS_DISC + o2])
    if h1 + d1 + h2 + d2 != n:
        return False
    order1 = np.empty(16, dtype=np.int64)
    order2 = np.empty(16, dtype=np.int64)
    for _ in range(MAX_TRIES):
        for i in range(n - 1, 0, -1):
            j = bounded(rng, i + 1)
            t = cards[i]
            cards[i] = cards[j]
            cards[j] = t
        hand1 = np.int64(0)
        for i in range(h1):
            hand1 |= cards[i]
        for i in range(d1):
            order1[i] = cards[h1 + i]
        hand2 = np.int64(0)
        for i in range(h2):
            hand2 |= cards[h1 + d1 + i]
        for i in range(d2):
            order2[i] = cards[h1 + d1 + h2 + i]
        if not _consistent(ws, o1, hand1, order1, d1, set_beats):
            continue
        if not _consistent(ws, o2, hand2, order2, d2, set_beats):
            continue
        copy_into(out, ws)
        out[WS_HANDS + o1] = hand1
        out[WS_HANDS + o2] = hand2
        disc1 = 0
        for i in range(d1):
            disc1 |= order1[i]
        disc2 = 0
        for i in range(d2):
            disc2 |= order2[i]
        out[WS_DISC + o1] = disc1
        out[WS_DISC + o2] = disc2
        return True
    return False


@njit(cache=True)
def _consistent(ws, o, hand, disc_order, n_disc, set_beats):
    """Does ``hand`` (and discards ``disc_order[:n_disc]``, oldest first) fit o's passes?"""
    for i in range(ws[S_N_PASS]):
        row = WS_PASS + i * PASS_COLS
        if ws[row] != o:
            continue
        then = hand | (ws[WS_PLAYED + o] & ~ws[row + 5])
        for j in range(ws[row + 6], n_disc):  # discarded after the pass
            then |= disc_order[j]
        if count_answers(then, ws[row + 1], ws[row + 2], ws[row + 3], ws[row + 4],
                         set_beats) > 0:
            return False
    return True


@njit(cache=True)
def choice_weight(sample, seat, rules, params_row):
    """How likely the other seats' logged 扣 and 掀 are in the deal ``sample`` (state words
    with the hidden cards dealt), by heuristic2's estimate with the weights ``params_row``,
    softened by ``params_row[PIMC_INFER]`` cards; 1.0 when that is 0."""
    soft = params_row[PIMC_INFER]
    if soft <= 0.0:
        return 1.0
    params, _, beaters = rules
    weight = 1.0
    for i in range(sample[S_N_CHOICE]):
        row = WS_CHOICE + i * CHOICE_COLS
        o = sample[row]
        choice, captured, public = sample[row + 1], sample[row + 2], sample[row + 3]
        if o == seat or (choice == CH_KOU_LEAD and captured >= params[P_GOU]):
            continue  # its own choices, and a 扣 once 够 (cashing in), tell nothing here
        # the hand o held then: today's, what it has played since and, if it had not yet
        # discarded (紧牌 happens once a hand), its discards
        disc = sample[WS_DISC + o]
        then = sample[WS_HANDS + o] | (sample[WS_PLAYED + o] & ~sample[row + 4])
        seen_disc = disc
        if sample[row + 5] == 0:
            then |= disc
            seen_disc = 0
        unseen = FULL_DECK & ~then & ~public & ~seen_disc
        est = estimate2(then, unseen, captured, beaters, params_row)
        if choice == CH_KOU_LEAD:
            z = (params_row[H_KOU_BELOW] - est) / soft
        else:
            z = (est - params_row[H_XIAN_AT]) / soft
        p = 1.0 / (1.0 + np.exp(-z))
        if choice != CH_XIAN and choice != CH_KOU_LEAD:
            p = 1.0 - p  # a 扣 answer: no 掀
        weight *= INFER_FLOOR + (1.0 - 2.0 * INFER_FLOOR) * p
    return weight


@njit(cache=True)
def rollout_setup(params_row, n):
    """What a pimc decision among ``n`` listed actions needs for its play-outs: the hidden
    deals to sample, every seat's play-out policy and weights, a result row and empty log
    buffers."""
    n_samples = max(1, int(params_row[PIMC_SAMPLES]), int(params_row[PIMC_BUDGET]) // n)
    rollout = POLICY_HEURISTIC
    asked = int(params_row[PIMC_ROLLOUT])
    if asked == POLICY_HEURISTIC2 or asked == POLICY_NET:  # net reads its weights from the row
        rollout = asked
    ids = np.full(3, rollout, dtype=np.int64)
    weights = np.empty((3, params_row.shape[0]), dtype=np.float64)
    for s in range(N_SEATS):
        weights[s, :] = params_row
    res = np.empty(N_RESULT, dtype=np.int64)
    logbuf = (np.empty((1, 3), dtype=np.int64), np.empty((1, 2), dtype=np.int64),
              np.empty(1, dtype=np.int64))
    return n_samples, ids, weights, res, logbuf


@njit(cache=True, inline="always")  # inlined: a layer compiled apart re-optimizes all it reaches
def pimc_pick(rules, params_row, rng, scratch, work):
    """Index of the pimc choice among the ``ws[S_N_LIST]`` actions listed in ``scratch``: the
    best total of :func:`pimc_totals` (the first on a tie; 0 when no deal could be sampled)."""
    total = np.zeros(scratch[2][S_N_LIST], dtype=np.float64)
    if pimc_totals(rules, params_row, rng, scratch, work, total)[0] == 0:
        return np.int64(0)  # int64 however it returns: its caller's advance() compiles once
    best = 0
    for a in range(1, total.shape[0]):
        if total[a] > total[best]:
            best = a
    return np.int64(best)


@njit(cache=True, inline="always")  # inlined: a layer compiled apart re-optimizes all it reaches
def pimc_totals(rules, params_row, rng, scratch, work, total):
    """pimc's evaluation of the ``ws[S_N_LIST]`` actions listed in ``scratch``: adds each
    action's points for the seat to act, summed over the hidden deals sampled (each times its
    :func:`choice_weight`), to ``total[a]``, and returns how many deals were sampled and the
    sum of their weights.

    ``work`` is a second scratch (from :func:`kernels.xianniu.game.new_scratch`) for the play-outs;
    ``params_row`` holds the weights used in play-outs, the samples per decision and the
    play-out policy (``PIMC_ROLLOUT``: heuristic2's or net's id, else the heuristic; net
    reads its network from ``params_row``). A play-out budget
    (``PIMC_BUDGET`` > 0) raises the samples to ``budget // actions`` where that is more, so a
    decision among few actions looks at more deals for about the time of one among many.
    ``PIMC_ENDGAME`` > 0 values a play-out exactly once at most that many cards are left.
    """
    ws = scratch[2]
    n = ws[S_N_LIST]
    seat = seat_to_act(ws)
    n_samples, ids, weights, res, logbuf = rollout_setup(params_row, n)
    sample = np.empty_like(ws)
    play_rng = np.empty(4, dtype=np.uint64)
    w_am, w_ai, w_ws = work
    endgame = int(params_row[PIMC_ENDGAME])
    stop_ids = np.full(3, POLICY_PIMC, dtype=np.int64)  # advance stops at every choice
    tt = np.zeros((ENDGAME_ROWS if endgame > 0 else 1, TT_COLS), dtype=np.int64)
    stack = new_stack(8 * endgame + 8 if endgame > 0 else 0)
    got = 0
    weight_sum = 0.0
    for _ in range(n_samples):
        if not sample_hidden(ws, seat, rules[1], rng, sample):
            continue
        word = next_u64(rng)
        got += 1
        weight = choice_weight(sample, seat, rules, params_row)
        weight_sum += weight
        for a in range(n):
            copy_into(w_ws, sample)
            seed_state(word, play_rng)  # the same stream for every candidate
            if endgame > 0:
                # forced actions draw nothing, so stopping at the next choice and playing on
                # from it plays the same hand as one call
                status = advance(rules, (stop_ids, weights), play_rng, (w_am, w_ai, w_ws),
                                 logbuf, np.int64(0), a)
                if status != 0 and cards_left(w_ws) <= endgame:
                    solve_ws(w_ws, rules, tt, 1, stack, NO_LIMIT)
                    total[a] += weight * stack[3][0, seat]
                    continue
                if status != 0:
                    advance(rules, (ids, weights), play_rng, (w_am, w_ai, w_ws), logbuf,
                            np.int64(0), np.int64(-1))
            else:
                advance(rules, (ids, weights), play_rng, (w_am, w_ai, w_ws), logbuf,
                        np.int64(0), a)
            finish_hand(rules[0], w_ws, res)
            total[a] += weight * res[R_PTS0 + seat]
    return got, weight_sum


@njit(cache=True)
def sample_positions(deal, rules, policies, rng, k, snaps, samples, logbuf):
    """Play ``deal`` and, at each decision of the pimc seat, keep the state in ``snaps[i]`` and
    ``k`` hidden deals drawn for it in ``samples[i, j]`` (``samples[i, j, 0] = -1`` when none
    was found); that seat then acts at random. Actions are logged in ``logbuf`` as in
    :func:`kernels.xianniu.game.advance` with ``log_mode`` 1. Returns the number of positions kept.
    """
    scratch = new_scratch()
    ws = scratch[2]
    start_hand(deal, np.int64(0), rules[0], ws)
    ws[S_TRACK] = 1
    n_pos = 0
    status = advance(rules, policies, rng, scratch, logbuf, np.int64(1), np.int64(-1))
    while status != 0:
        if n_pos < snaps.shape[0]:
            snaps[n_pos, :] = ws
            seat = seat_to_act(ws)
            for j in range(k):
                if not sample_hidden(ws, seat, rules[1], rng, samples[n_pos, j]):
                    samples[n_pos, j, 0] = -1
            n_pos += 1
        pick = bounded(rng, ws[S_N_LIST])
        status = advance(rules, policies, rng, scratch, logbuf, np.int64(1), pick)
    return n_pos
