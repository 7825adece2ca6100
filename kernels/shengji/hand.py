"""The play of a 双升 hand (docs/rules/shengji.md §5, §6.1), from trick 1 to 抠底:
``play_hand_in`` plays it with a policy per seat (``policies``), for whole hands (``game``)
and play-only hands (L, T and the banker given, bidding and the bury skipped, every seat on
the random policy of ``random_policy``; §9 "may simplify"; their chunk drivers are
``batch``'s). Its pimc scratch is None when no seat plays pimc: Numba then prunes the pimc
branches, and kernels without pimc seats compile without the pimc search.

The banker (庄家) leads the first trick; the winner of each trick leads the next. A lead
that fails its stand check (§5.2) is replaced by the forced unit, and the thrower's side
pays throw_fail_penalty_per_card per attempted card. The attackers (抓分方, the team
without the banker) score the point cards of the tricks they win, and if they win the last
trick also kitty points × the 抠底 multiplier (§6.1).
"""

from __future__ import annotations

import numpy as np

from ..arrays import copy_rows
from ..jit import njit, njit_uncounted
from .context import CX_SUIT_MASK
from .deal import KITTY
from .heuristic import heuristic_follow, heuristic_lead
from .params import KITTY_BASIS_LEAD_SHAPE, P_KITTY_BASIS, P_THROW_FAIL_PENALTY_PER_CARD
from .pimc import NL_KITTY
from .planes import count, points, subtract
from .play import kitty_multiplier, throw_units_in, trick_winner_in
from .policies import (
    KN_KS,
    N_HEURISTIC,
    POLICY_HEURISTIC,
    POLICY_RANDOM,
    new_knowledge,
    note_play,
    note_shown,
    reset_play,
    searches,
)
from .random_policy import lead_pairs, random_follow_shaped, random_lead_in
from .search import search_choose
from .units import effective_suit, new_units, new_work

# Result row of one hand (int64[N_RESULT]).
R_ATTACKER_POINTS = 0  # the attackers' points: tricks, penalties and 抠底
R_TRICK_POINTS = 1  # point cards in tricks the attackers won
R_BANKER_TRICK_POINTS = 2  # point cards in tricks the banker side won
R_KITTY_POINTS = 3  # point cards in the kitty
R_MULTIPLIER = 4  # 抠底 multiplier; 0 when the banker side won the last trick
R_TRICKS = 5
R_THROWS = 6  # leads of two or more units
R_FAILED_THROWS = 7
R_LAST_WINNER = 8  # seat that won the last trick
N_RESULT = 9

# Trick log row (int64[MAX_TRICKS, LOG_WIDTH]): every trick as played.
MAX_TRICKS = 25
LG_LEADER = 0  # seat
LG_ATTEMPT = 1  # the lead as attempted (one, two)
LG_PLAYS = 3  # four plays in play order from the leader, (one, two) each; the first is
#               the lead as played (the forced unit after a failed throw)
LG_WINNER = 11  # index 0..3 of the winning play
LG_POINTS = 12
LOG_WIDTH = 13


@njit(cache=True)
def _log_trick(row, leader, a_one, a_two, plays, w, pts):
    row[LG_LEADER] = leader
    row[LG_ATTEMPT], row[LG_ATTEMPT + 1] = a_one, a_two
    for k in range(4):
        row[LG_PLAYS + 2 * k], row[LG_PLAYS + 2 * k + 1] = plays[k, 0], plays[k, 1]
    row[LG_WINNER] = w
    row[LG_POINTS] = pts


@njit(cache=True)
def play_hand(hands, banker, ctx, params, rng, res, log):
    """Play one hand from ``hands[5, 2]`` (seats 0..3, kitty 4; not changed) and write its
    result row ``res`` (``R_*``) and, when ``log`` has rows, the trick log (``LG_*``)."""
    pol, hp = random_seats()
    play_hand_in(hands, banker, (ctx, params), rng, (res, log),
                 (new_scratch(), new_units(), new_work()), (pol, hp, new_knowledge()), None)


@njit(cache=True)
def random_seats():
    """``(pol, hp)`` with every seat on the random policy."""
    return np.zeros(4, dtype=np.int64), np.zeros((4, N_HEURISTIC), dtype=np.float64)


@njit(cache=True)
def new_scratch():
    """Scratch planes for play_hand_in: rows 0..3 the hands, 4..7 the plays, 8..10 the
    other hands of a throw check, 11 the forced lead."""
    return np.empty((12, 2), dtype=np.int64)


@njit_uncounted
def _follow(h, plays, where, rules, rng, bufs, seats, pst):
    # the three follows to plays[0], each by its seat's policy, taken out of the hands;
    # ``where`` = (leader, banker), ``seats`` = (pol, hp, kn) as for play_hand_in
    leader = where[0]
    ctx = rules[0]
    units, work = bufs
    pol, hp, kn = seats
    e = effective_suit(plays[0, 0], ctx)
    mask = ctx[CX_SUIT_MASK + e]
    n = count(plays[0, 0], plays[0, 1])
    ks = kn[KN_KS:]
    m, n2 = lead_pairs(plays[0, 0], plays[0, 1], ctx, e, units, ks)
    for k in range(1, 4):
        s = (leader + k) % 4
        o = tw = np.int64(0)
        if pol[s] == POLICY_RANDOM:
            o, tw = random_follow_shaped((e, n, ks, m, n2), h[s, 0], h[s, 1], ctx, rng, work)
        elif pol[s] == POLICY_HEURISTIC:
            o, tw = heuristic_follow((s, hp[s], kn), (plays, k), (ks, m, n2), h[s, 0], h[s, 1],
                                     rules, bufs)
        if pst is not None:  # pruned when no seat plays pimc or net
            if searches(pol[s]):
                o, tw = search_choose((pol[s], (s, hp[s], kn)), (plays, k), where, h, rules,
                                      rng, pst, bufs)
                m, n2 = lead_pairs(plays[0, 0], plays[0, 1], ctx, e, units, ks)
        plays[k, 0], plays[k, 1] = o, tw
        h[s, 0], h[s, 1] = subtract(h[s, 0], h[s, 1], o, tw)
        note_play(kn, s, o, tw, e, mask, n)


@njit_uncounted
def play_hand_in(hands, banker, rules, rng, out, scratch, seats, pst):
    """play_hand with ``rules`` = (``ctx``, ``params``), ``out`` = (result row ``res``,
    trick log ``log``), caller-owned ``scratch`` = (``new_scratch()``,
    ``units.new_units()``, ``units.new_work()``) and ``pst`` (``pimc.new_pimc_scratch()``,
    or None without pimc seats), each seat on its policy: ``seats`` = (``pol``, ``hp``,
    ``kn``), the policy ids and parameter rows (``policies``) and the knowledge (the kitty
    and the cards shown in the bidding are kept, the rest reset)."""
    ctx, params = rules
    res, log = out
    sc, units, work = scratch
    pol, hp, kn = seats
    bufs = (units, work)
    h, plays, others, forced = sc[0:4], sc[4:8], sc[8:11], sc[11]
    copy_rows(h, hands[:4])
    res[:] = 0
    attackers = (banker + 1) % 2  # seats of this parity
    penalty = params[P_THROW_FAIL_PENALTY_PER_CARD]
    leader = banker
    t = 0
    reset_play(kn)
    if pst is not None:  # the true kitty, for net's self-play play-outs only
        _, _, _, _, net_log, _ = pst  # unpacked: pst is typed Optional
        net_ints = net_log[0]
        net_ints[NL_KITTY], net_ints[NL_KITTY + 1] = hands[KITTY, 0], hands[KITTY, 1]
    while h[leader, 0] != 0:
        a_one = a_two = np.int64(0)
        if pol[leader] == POLICY_RANDOM:
            a_one, a_two = random_lead_in(h[leader, 0], h[leader, 1], ctx, params, rng, units)
        elif pol[leader] == POLICY_HEURISTIC:
            a_one, a_two = heuristic_lead(leader, h[leader, 0], h[leader, 1], ctx, params,
                                          hp[leader], kn, units)
        if pst is not None:  # pruned when no seat plays pimc or net
            if searches(pol[leader]):
                a_one, a_two = search_choose((pol[leader], (leader, hp[leader], kn)),
                                             (plays, np.int64(0)), (leader, banker), h, rules, rng,
                                             pst, bufs)
        for k in range(3):
            others[k, 0], others[k, 1] = h[(leader + 1 + k) % 4, 0], h[(leader + 1 + k) % 4, 1]
        nu = throw_units_in(a_one, a_two, others, ctx, params, forced, units, work)
        if abs(nu) > 1:
            res[R_THROWS] += 1
        if nu < 0:
            res[R_FAILED_THROWS] += 1
            s_one, s_two = subtract(a_one, a_two, forced[0], forced[1])
            note_shown(kn, leader, s_one, s_two)
            cost = penalty * count(a_one, a_two)
            res[R_ATTACKER_POINTS] += -cost if leader % 2 == attackers else cost
        plays[0, 0], plays[0, 1] = forced[0], forced[1]
        h[leader, 0], h[leader, 1] = subtract(h[leader, 0], h[leader, 1], forced[0], forced[1])
        note_play(kn, leader, forced[0], forced[1], 0, 0, 0)
        _follow(h, plays, (leader, banker), rules, rng, bufs, seats, pst)
        w = trick_winner_in(plays, 4, ctx, params, units, work)
        pts = 0
        for k in range(4):
            pts += points(plays[k, 0], plays[k, 1])
        winner = (leader + w) % 4
        if winner % 2 == attackers:
            res[R_TRICK_POINTS] += pts
        else:
            res[R_BANKER_TRICK_POINTS] += pts
        if t < log.shape[0]:
            _log_trick(log[t], leader, a_one, a_two, plays, w, pts)
        t += 1
        leader = winner
        if h[leader, 0] == 0 and winner % 2 == attackers:  # 抠底: the last trick
            basis = 0 if params[P_KITTY_BASIS] == KITTY_BASIS_LEAD_SHAPE else w
            res[R_MULTIPLIER] = kitty_multiplier(plays[basis, 0], plays[basis, 1], ctx, params)
    res[R_TRICKS] = t
    res[R_LAST_WINNER] = leader
    res[R_KITTY_POINTS] = points(hands[KITTY, 0], hands[KITTY, 1])
    res[R_ATTACKER_POINTS] += res[R_TRICK_POINTS] + res[R_KITTY_POINTS] * res[R_MULTIPLIER]


@njit(cache=True)
def no_log():
    """An empty trick log: play_hand keeps none."""
    return np.empty((0, LOG_WIDTH), dtype=np.int64)


@njit(cache=True)
def play_logged(hands, banker, ctx, params, rng, res, log):
    """One hand from given cards with its trick log (``log`` int64[MAX_TRICKS, LOG_WIDTH])."""
    play_hand(hands, banker, ctx, params, rng, res, log)
