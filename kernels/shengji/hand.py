"""Play-only hands (SHENGJI-RULES §5–6, §8 "may simplify"): L, T and the banker are given,
bidding and the bury are skipped, every seat plays the random policy (``policy``). The
play itself (``play_hand_in``) takes a policy per seat (``policies``), for whole hands.
Its pimc scratch is None when no seat plays pimc: Numba then prunes the pimc branches, and
kernels without pimc seats compile without the pimc search.

The banker (莊家) leads the first trick; the winner of each trick leads the next. A lead
that fails its stand check (§5.2) is replaced by the forced unit, and the thrower's side
pays throw_fail_penalty_per_card per attempted card. The attackers (抓分方, the team
without the banker) score the point cards of the tricks they win, and if they win the last
trick also kitty points × the 摳底 multiplier (§6.2).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..arrays import copy_rows
from ..parallel import for_each_chunk
from .context import CX_SUIT_MASK, new_context
from .deal import KITTY, deal
from .heuristic import heuristic_follow, heuristic_lead
from .params import (
    KITTY_BASIS_LEAD_SHAPE,
    P_KITTY_BASIS,
    P_NT_LEVEL_JOKER_TRACTOR,
    P_THROW_FAIL_PENALTY_PER_CARD,
)
from .pimc import pimc_choose
from .planes import count, points, subtract
from .play import kitty_multiplier, throw_units_in, trick_winner_in
from .policies import (
    KN_KS,
    N_HEURISTIC,
    POLICY_HEURISTIC,
    POLICY_PIMC,
    POLICY_RANDOM,
    new_knowledge,
    note_play,
    note_shown,
    reset_knowledge,
    reset_play,
)
from .policy import lead_pairs, random_follow_shaped, random_lead_in
from .units import effective_suit, new_units, new_work

# Result row of one hand (int64[N_RESULT]).
R_ATTACKER_POINTS = 0  # the attackers' points: tricks, penalties and 摳底
R_TRICK_POINTS = 1  # point cards in tricks the attackers won
R_BANKER_TRICK_POINTS = 2  # point cards in tricks the banker side won
R_KITTY_POINTS = 3  # point cards in the kitty
R_MULTIPLIER = 4  # 摳底 multiplier; 0 when the banker side won the last trick
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
    play_hand_in(hands, banker, ctx, params, rng, res, log, new_scratch(), new_units(),
                 new_work(), pol, hp, new_knowledge(), None)


@njit(cache=True)
def random_seats():
    """``(pol, hp)`` with every seat on the random policy."""
    return np.zeros(4, dtype=np.int64), np.zeros((4, N_HEURISTIC), dtype=np.float64)


@njit(cache=True)
def new_scratch():
    """Scratch planes for play_hand_in: rows 0..3 the hands, 4..7 the plays, 8..10 the
    other hands of a throw check, 11 the forced lead."""
    return np.empty((12, 2), dtype=np.int64)


@njit(cache=True)
def _follow(h, plays, leader, banker, ctx, params, rng, units, work, pol, hp, kn, pst):
    # the three follows to plays[0], each by its seat's policy, taken out of the hands
    e = effective_suit(plays[0, 0], ctx)
    mask = ctx[CX_SUIT_MASK + e]
    n = count(plays[0, 0], plays[0, 1])
    ks = kn[KN_KS:]
    m, n2 = lead_pairs(plays[0, 0], plays[0, 1], ctx, e, units, ks)
    for k in range(1, 4):
        s = (leader + k) % 4
        o = tw = np.int64(0)
        if pol[s] == POLICY_RANDOM:
            o, tw = random_follow_shaped(e, n, ks, m, n2, h[s, 0], h[s, 1], ctx, rng, work)
        elif pol[s] == POLICY_HEURISTIC:
            o, tw = heuristic_follow(s, k, plays, ks, m, n2, h[s, 0], h[s, 1], ctx, params,
                                     hp[s], kn, units, work)
        if pst is not None:  # pruned when no seat plays pimc
            if pol[s] == POLICY_PIMC:
                o, tw = pimc_choose(s, k, plays, leader, banker, h, ctx, params, hp[s], kn,
                                    rng, pst, units, work)
                m, n2 = lead_pairs(plays[0, 0], plays[0, 1], ctx, e, units, ks)
        plays[k, 0], plays[k, 1] = o, tw
        h[s, 0], h[s, 1] = subtract(h[s, 0], h[s, 1], o, tw)
        note_play(kn, s, o, tw, e, mask, n)


@njit(cache=True)
def play_hand_in(hands, banker, ctx, params, rng, res, log, sc, units, work, pol, hp, kn,
                 pst):
    """play_hand with caller-owned scratch (``new_scratch``, ``units.new_units``,
    ``units.new_work``, ``pimc.new_pimc_scratch``), each seat on its policy (``pol``,
    ``hp``: ``policies``) and the knowledge ``kn`` (``policies``; the kitty and the cards
    shown in the bidding are kept, the rest reset)."""
    h, plays, others, forced = sc[0:4], sc[4:8], sc[8:11], sc[11]
    copy_rows(h, hands[:4])
    res[:] = 0
    attackers = (banker + 1) % 2  # seats of this parity
    penalty = params[P_THROW_FAIL_PENALTY_PER_CARD]
    leader = banker
    t = 0
    reset_play(kn)
    while h[leader, 0] != 0:
        a_one = a_two = np.int64(0)
        if pol[leader] == POLICY_RANDOM:
            a_one, a_two = random_lead_in(h[leader, 0], h[leader, 1], ctx, params, rng, units)
        elif pol[leader] == POLICY_HEURISTIC:
            a_one, a_two = heuristic_lead(leader, h[leader, 0], h[leader, 1], ctx, params,
                                          hp[leader], kn, units)
        if pst is not None:  # pruned when no seat plays pimc
            if pol[leader] == POLICY_PIMC:
                a_one, a_two = pimc_choose(leader, 0, plays, leader, banker, h, ctx, params,
                                           hp[leader], kn, rng, pst, units, work)
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
        _follow(h, plays, leader, banker, ctx, params, rng, units, work, pol, hp, kn, pst)
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
        if h[leader, 0] == 0 and winner % 2 == attackers:  # 摳底: the last trick
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


@njit(nogil=True, cache=True)
def _play_chunk(c, states, n_per_chunk, n_hands, level, trump, banker, params, out):
    """Chunk ``c`` of :func:`play_chunks`."""
    rng = states[c].copy()
    ctx = new_context(trump, level, params[P_NT_LEVEL_JOKER_TRACTOR] != 0)
    deck = np.empty(108, dtype=np.uint8)
    hands = np.empty((5, 2), dtype=np.int64)
    log = no_log()
    sc, units, work = new_scratch(), new_units(), new_work()
    pol, hp = random_seats()
    kn = new_knowledge()
    start = c * n_per_chunk
    stop = min(start + n_per_chunk, n_hands)
    for i in range(start, stop):
        deal(rng, deck, hands)
        reset_knowledge(kn)
        play_hand_in(hands, banker, ctx, params, rng, out[i], log, sc, units, work, pol, hp,
                     kn, None)


def play_chunks(states, n_per_chunk, n_hands, level, trump, banker, params, out):
    """Deal and play ``n_hands`` play-only hands at (L, T) with ``banker``; chunk ``c``
    plays hands ``c * n_per_chunk …`` from stream ``states[c]``; ``out[h]`` receives the
    result row of hand ``h`` (``R_*``)."""
    for_each_chunk(_play_chunk, states.shape[0], states, n_per_chunk, n_hands, level, trump,
                   banker, params, out)


@njit(nogil=True, cache=True)
def _dealt_chunk(c, states, n_per_chunk, n_hands, level, trump, banker, params, deals, out):
    """Chunk ``c`` of :func:`dealt_chunks`."""
    rng = states[c].copy()
    ctx = new_context(trump, level, params[P_NT_LEVEL_JOKER_TRACTOR] != 0)
    deck = np.empty(108, dtype=np.uint8)
    log = no_log()
    for i in range(c * n_per_chunk, min((c + 1) * n_per_chunk, n_hands)):
        deal(rng, deck, deals[i])
        play_hand(deals[i], banker, ctx, params, rng, out[i], log)


def dealt_chunks(states, n_per_chunk, n_hands, level, trump, banker, params, deals, out):
    """``hand.play_chunks`` that also keeps each deal in ``deals[h]`` (int64[5, 2]): the
    same hands from the same streams."""
    for_each_chunk(_dealt_chunk, states.shape[0], states, n_per_chunk, n_hands, level,
                   trump, banker, params, deals, out)


@njit(cache=True)
def play_logged(hands, banker, ctx, params, rng, res, log):
    """One hand from given cards with its trick log (``log`` int64[MAX_TRICKS, LOG_WIDTH])."""
    play_hand(hands, banker, ctx, params, rng, res, log)
