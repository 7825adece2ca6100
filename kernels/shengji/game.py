"""The state machine of a whole 双升 hand from the deal (docs/rules/shengji.md §4–6), as
the reference engine plays it (``analyzer.shengji.engine``); its chunk drivers are ``batch``'s:

1. **造反** (§4.5): in a normal hand the defenders with fewer than ``rebel_threshold``
   points are asked in turn from the banker's 下家; a 造反 redeals and makes the hand a 抢庄局
   with the rebel as priority seat.
2. **Declaring** (§4.3): turns in play order from the round's first seat (``declare_start``:
   the priority seat, the seat after it, or a random seat); four passes in a row end the
   round. In a 抢庄局 each seat declares at its own team's level, else at L.
3. **End of the round** (§4.4): in a 抢庄局 the declarer banks (nobody: the priority seat);
   in a normal hand with nobody declaring the banker steps down (下台) to its 下家 and a
   second round follows; the banker's partner who alone declared takes the kitty (and the
   bank with ``partner_declarer_becomes_banker``); with nobody declaring T comes from a
   uniformly drawn kitty card.
4. **Kitty and 扒鸡窝** (§4.6–4.7): the taker buries 8; with ``bajiwo_enabled`` the seats
   after the last burier may overcall at L, and an overcaller takes the kitty and buries.
5. **Play** (``hand.play_hand_in``), 抠底, the level table, the levels after and the next
   banker (§6).

**The random policy.** Every decision is uniform over the choices the engine lists: a
造反 offer is taken with probability 1/2; at a declaring or 扒鸡窝 turn with k legal
declarations each of the k + 1 choices (passing included) has probability 1/(k + 1) (no
draw when only passing is legal); a bury is a uniform 8-card subset of the 33 physical cards
held, drawn card by card (partial Fisher–Yates, ``random_policy.random_subset``); leads and
follows are those of ``random_policy``. Every draw comes from the hand's xoshiro stream,
after the deal.

A hand starts from ``deals[0]`` (``deal.deal`` layout); a 造反 deals ``deals[1]`` from the
same stream. ``start`` = (``levels`` int64[2], ``start_banker``): the team levels and the
banker going in, -1 for a 抢庄局 (the first hand).

The bidding functions share their arguments in bundles: ``hs`` = (``hands`` int64[5, 2],
``st`` the hand state ``ST_*``, ``kn`` the knowledge, ``contexts`` the context cache,
``dcls``, ``dsuit`` room for the listed declarations, ``buf`` scratch), from
:func:`bidding_state`; ``out`` = (``res`` the result row ``W_*``, ``alog`` the action log,
``chance`` the chance log, ``tlog`` the trick log; logs without rows keep nothing); ``pols``
= (``pol`` int64[4], ``hp`` float64[4, N_HEURISTIC]): each seat's policy and parameters.
"""

from __future__ import annotations

import numpy as np

from ..arrays import copy_rows
from ..jit import njit
from ..rng import bounded
from .bidding import (
    CLS_NONE,
    MAX_DECLS,
    legal_declarations,
    nth_card,
    rebel_candidates,
    shown_cards,
    trump_of_card,
)
from .context import CX_SIZE, fill_context
from .deal import KITTY, KITTY_SIZE, deal
from .hand import N_RESULT, R_ATTACKER_POINTS, new_scratch, no_log, play_hand_in
from .heuristic_bid import heuristic_bury, heuristic_declare, heuristic_rebel
from .params import (
    DECLARE_START_BANKER_NEXT,
    DECLARE_START_RANDOM,
    P_ATTACKER_GAIN_CAP,
    P_BAJIWO_ENABLED,
    P_DECLARE_START,
    P_LEVEL_STEP,
    P_MUST_DEFEND_A,
    P_NT_LEVEL_JOKER_TRACTOR,
    P_PARTNER_DECLARER_BECOMES_BANKER,
    P_TURNOVER_AT,
)
from .pimc import new_pimc_scratch
from .planes import add, subtract
from .policies import POLICY_RANDOM, new_knowledge, note_bury, note_shown, reset_knowledge
from .random_policy import random_subset
from .units import new_units, new_work

# Result row of one whole hand (int64[N_WHOLE]).
W_BANKER = 0  # this hand's 庄家 (after 造反, 下台 and the partner rule)
W_LEVEL = 1  # L
W_TRUMP = 2  # final T: 0..3 ♠♥♣♦, 4 NT (after any 扒鸡窝)
W_RANDOM_TRUMP = 3  # 1: nobody declared, T was drawn from the kitty (§4.4.3)
W_DECLARATIONS = 4  # declarations, overcalls and 加固 shown, 扒鸡窝 included
W_REBEL = 5  # the rebel's seat, -1 without 造反
W_STEPPED_DOWN = 6  # 1: 下台, nobody declared in a normal hand's first round
W_GRAB = 7  # 1: a 抢庄局 (the first hand, or the redeal after 造反)
W_KITTY_TAKER = 8  # the seat that took the kitty first
W_BAJIWO = 9  # 扒鸡窝 kitty swaps
W_LAST_BURIER = 10  # the seat whose bury is the final kitty
W_WINNER_TEAM = 11  # 0 = seats 0, 2; 1 = seats 1, 3
W_GAIN = 12  # levels the winner team gains (0: the attackers take the bank)
W_BANKER_HOLDS = 13  # 1: the banker side keeps the bank (P < turnover_at)
W_NEXT_BANKER = 14
W_LEVEL0_AFTER = 15  # team levels after the hand
W_LEVEL1_AFTER = 16
W_PLAY = 17  # the play's result row (``hand.R_*``) from here
N_WHOLE = W_PLAY + N_RESULT

# Action log (int64[MAX_ACTIONS, AL_WIDTH]), bidding and bury only (the tricks have their
# own log, ``hand.LG_*``): seat, kind, the cards shown or buried, how many choices the
# random policy listed (0 for a bury) and, at a declaring or 扒鸡窝 turn, the set of legal
# declarations (bit 5 * cls + suit).
MAX_ACTIONS = 160
AL_SEAT, AL_KIND, AL_ONE, AL_TWO, AL_CHOICES, AL_LEGAL = range(6)
AL_WIDTH = 6
K_REBEL, K_PASS, K_DECLARE, K_BURY = range(4)
# Chance log (int64[CH_SIZE]): the random outcomes besides the policy's.
CH_ACTIONS = 0  # rows of the action log used
CH_TRUMP_INDEX = 1  # index of the drawn card in the sorted kitty, -1 if none
CH_N_STARTS = 2  # first seats drawn under declare_start random
CH_STARTS = 3  # two of them at most
CH_SIZE = 5

# Hand state (int64[ST_SIZE]).
ST_GRAB, ST_PRIORITY, ST_BANKER, ST_LEVEL, ST_TRUMP, ST_ROUND, ST_CLS, ST_SUIT, ST_SEAT, \
    ST_DECLARERS, ST_PASSES = range(11)
ST_SIZE = 11


@njit(cache=True, inline="always")
def _log(alog, chance, seat, kind, one, two, choices, legal):
    i = chance[CH_ACTIONS]
    if i < alog.shape[0]:
        row = alog[i]
        row[AL_SEAT], row[AL_KIND], row[AL_ONE], row[AL_TWO] = seat, kind, one, two
        row[AL_CHOICES], row[AL_LEGAL] = choices, legal
        chance[CH_ACTIONS] = i + 1


@njit(cache=True)
def _legal_set(dcls, dsuit, k):
    # the listed declarations as a bit set (bit 5 * cls + suit), for the action log
    out = np.int64(0)
    for i in range(k):
        out |= np.int64(1) << (5 * dcls[i] + dsuit[i])
    return out


@njit(cache=True)
def _open_round(st, params, rng, chance):
    """A declaring round from the priority seat (§4.3); returns its first seat."""
    st[ST_PASSES], st[ST_CLS], st[ST_SUIT], st[ST_SEAT], st[ST_DECLARERS] = 0, 0, 0, -1, 0
    rule = params[P_DECLARE_START]
    if rule == DECLARE_START_RANDOM:
        first = bounded(rng, 4)
        if chance[CH_N_STARTS] < 2:
            chance[CH_STARTS + chance[CH_N_STARTS]] = first
        chance[CH_N_STARTS] += 1
        return first
    return (st[ST_PRIORITY] + (1 if rule == DECLARE_START_BANKER_NEXT else 0)) % 4


@njit(cache=True)
def bidding_state(scratch):
    """``hs`` (module docstring) over the integer room of a whole-hand ``scratch``
    (:func:`new_whole_scratch`): the hand state, the listed declarations and the buffer are
    views of its first array."""
    ints, hands, _, _, _, contexts, kn, _ = scratch
    return (hands, ints[:ST_SIZE], kn, contexts, ints[ST_SIZE:ST_SIZE + MAX_DECLS],
            ints[ST_SIZE + MAX_DECLS:ST_SIZE + 2 * MAX_DECLS], ints[ST_SIZE + 2 * MAX_DECLS:])


@njit(cache=True, inline="always")
def _declare_turn(hs, levels, seat, bajiwo, params, rng, out, pols):
    """One declaring or 扒鸡窝 opportunity of ``seat`` under its policy; returns True when
    it declared (the standing declaration is then its, and its cards are shown)."""
    hands, st, kn, _, dcls, dsuit, _ = hs
    res, alog, chance, _ = out
    pol, hp = pols
    level = levels[seat % 2] if st[ST_GRAB] and not bajiwo else st[ST_LEVEL]
    standing = (st[ST_CLS], st[ST_SUIT], st[ST_SEAT])
    k = legal_declarations(hands[seat, 0], hands[seat, 1], level, standing, seat, bajiwo,
                           params, (dcls, dsuit))
    legal = _legal_set(dcls, dsuit, k) if alog.shape[0] else 0
    if pol[seat] == POLICY_RANDOM:
        pick = bounded(rng, k + 1) if k else 0
    else:
        pick = heuristic_declare(hands[seat, 0], hands[seat, 1], level, standing,
                                 (seat, st[ST_BANKER], st[ST_GRAB], bajiwo), (dcls, dsuit, k),
                                 hp[seat])
    if pick == 0:
        _log(alog, chance, seat, K_PASS, 0, 0, k + 1, legal)
        return False
    cls, suit = dcls[pick - 1], dsuit[pick - 1]
    one, two = shown_cards(cls, suit, level, params)
    note_shown(kn, seat, one, two)
    _log(alog, chance, seat, K_DECLARE, one, two, k + 1, legal)
    st[ST_CLS], st[ST_SUIT], st[ST_SEAT] = cls, suit, seat
    res[W_DECLARATIONS] += 1
    return True


@njit(cache=True)
def _declare_round(hs, levels, params, rng, out, pols):
    """Turns until four passes in a row (§4.3)."""
    st = hs[1]
    seat = _open_round(st, params, rng, out[2])
    passes = 0
    while passes < 4:
        if _declare_turn(hs, levels, seat, False, params, rng, out, pols):
            passes = 0
            st[ST_DECLARERS] |= 1 << seat
        else:
            passes += 1
        seat = (seat + 1) % 4


@njit(cache=True)
def _end_round(hs, levels, params, rng, out):
    """§4.4: banker, L and T after a round; returns the kitty taker, or -1 when the banker
    stepped down (下台) and a second round is due."""
    hands, st = hs[0], hs[1]
    res, chance = out[0], out[2]
    declared = st[ST_CLS] != CLS_NONE
    if st[ST_GRAB]:
        st[ST_BANKER] = st[ST_SEAT] if declared else st[ST_PRIORITY]  # R9
        st[ST_LEVEL] = levels[st[ST_BANKER] % 2]
    elif not declared and st[ST_ROUND] == 1:
        res[W_STEPPED_DOWN] = 1
        # stepdown_banker (R8) has one value so far, next_seat: the banker's 下家
        st[ST_BANKER] = (st[ST_BANKER] + 1) % 4
        st[ST_LEVEL] = levels[st[ST_BANKER] % 2]
        st[ST_PRIORITY], st[ST_ROUND] = st[ST_BANKER], 2
        return -1
    taker = st[ST_BANKER]
    partner = (taker + 2) % 4
    if declared and not st[ST_GRAB] and st[ST_SEAT] == partner \
            and (st[ST_DECLARERS] >> taker) & 1 == 0:  # R7
        if params[P_PARTNER_DECLARER_BECOMES_BANKER] != 0:
            st[ST_BANKER] = partner
        taker = partner
    if declared:
        st[ST_TRUMP] = st[ST_SUIT]
    else:
        i = bounded(rng, KITTY_SIZE)
        chance[CH_TRUMP_INDEX] = i
        st[ST_TRUMP] = trump_of_card(nth_card(hands[KITTY, 0], hands[KITTY, 1], i))
        res[W_RANDOM_TRUMP] = 1
    return taker


@njit(cache=True)
def _take_and_bury(hs, seat, params, rng, out, pols):
    """``seat`` picks up the kitty and buries 8 of its 33 cards (§4.6): a uniform 8 under
    the random policy, the heuristic's choice at the trump of the moment otherwise."""
    hands, st, kn, contexts, _, _, buf = hs
    alog, chance = out[1], out[2]
    pol, hp = pols
    one, two = add(hands[seat, 0], hands[seat, 1], hands[KITTY, 0], hands[KITTY, 1])
    if pol[seat] == POLICY_RANDOM:
        b_one, b_two = random_subset(one, two, KITTY_SIZE, rng, buf)
    else:
        ctx = context_for(contexts, st[ST_TRUMP], st[ST_LEVEL],
                          params[P_NT_LEVEL_JOKER_TRACTOR] != 0)
        b_one, b_two = heuristic_bury(one, two, ctx, hp[seat])
    note_bury(kn, seat, b_one, b_two)
    hands[seat, 0], hands[seat, 1] = subtract(one, two, b_one, b_two)
    hands[KITTY, 0], hands[KITTY, 1] = b_one, b_two
    _log(alog, chance, seat, K_BURY, b_one, b_two, 0, 0)


@njit(cache=True)
def _bajiwo(hs, levels, burier, params, rng, out, pols):
    """§4.7: the seats after the last burier may overcall at L; an overcaller sets T, takes
    the kitty and buries; ends when three pass in a row. Returns the last burier."""
    st, res = hs[1], out[0]
    passes = 0
    seat = (burier + 1) % 4
    while passes < 3:
        if _declare_turn(hs, levels, seat, True, params, rng, out, pols):
            st[ST_TRUMP] = st[ST_SUIT]
            _take_and_bury(hs, seat, params, rng, out, pols)
            res[W_BAJIWO] += 1
            burier, passes = seat, 0
        else:
            passes += 1
        seat = (seat + 1) % 4
    return burier


@njit(cache=True)
def _rebel_phase(hs, deals, params, rng, deck, out, pols):
    """§4.5: offer 造反 to the qualifying defenders (their seats in ``hs``' declaration
    room); a 造反 redeals into ``deals[1]`` and makes the hand a 抢庄局 from the rebel."""
    hands, st, seats = hs[0], hs[1], hs[4]
    res, alog, chance, _ = out
    pol, hp = pols
    n = rebel_candidates(hands, st[ST_BANKER], params, seats)
    for i in range(n):
        s = seats[i]
        if pol[s] == POLICY_RANDOM:
            rebel = bounded(rng, 2) != 0
        else:
            rebel = heuristic_rebel(hands[s, 0], hands[s, 1], st[ST_LEVEL], hp[s])
        if not rebel:
            _log(alog, chance, seats[i], K_PASS, 0, 0, 2, 0)
            continue
        _log(alog, chance, seats[i], K_REBEL, 0, 0, 2, 0)
        deal(rng, deck, deals[1])
        copy_rows(hands, deals[1])
        st[ST_GRAB], st[ST_PRIORITY], st[ST_BANKER] = 1, seats[i], -1
        res[W_REBEL], res[W_GRAB] = seats[i], 1
        return


@njit(cache=True)
def level_result(p, params):
    """``(banker_side_wins, levels)`` from the attackers' points P (§6.2, R24)."""
    step, turn = params[P_LEVEL_STEP], params[P_TURNOVER_AT]
    if p < turn:
        if p <= 0:
            return True, (turn - 1) // step + 2
        return True, (turn - p - 1) // step + 1
    gain = (p - turn) // step
    cap = params[P_ATTACKER_GAIN_CAP]
    if cap >= 0:
        gain = min(gain, cap)
    return False, gain


@njit(cache=True)
def _settle(levels, banker, params, res):
    """Winner, levels gained, the team levels after (§6.4 stops at A with must_defend_A)
    and the next banker (§6.3)."""
    holds, gain = level_result(res[W_PLAY + R_ATTACKER_POINTS], params)
    team = banker % 2 if holds else 1 - banker % 2
    res[W_WINNER_TEAM], res[W_GAIN], res[W_BANKER_HOLDS] = team, gain, holds
    res[W_NEXT_BANKER] = (banker + (2 if holds else 1)) % 4
    res[W_LEVEL0_AFTER], res[W_LEVEL1_AFTER] = levels[0], levels[1]
    after = levels[team] + gain
    if params[P_MUST_DEFEND_A] != 0:
        after = min(after, 14)
    res[W_LEVEL0_AFTER + team] = after


@njit(cache=True)
def _bidding(hs, deals, start, params, rng, deck, out, pols):
    """造反, declaring rounds, the kitty and 扒鸡窝; leaves the hands ready for trick 1."""
    levels, start_banker = start
    st, res = hs[1], out[0]
    grab = start_banker < 0
    st[ST_GRAB], st[ST_PRIORITY], st[ST_BANKER] = grab, 0 if grab else start_banker, \
        start_banker
    st[ST_LEVEL] = 0 if grab else levels[start_banker % 2]
    st[ST_ROUND] = 1
    res[W_GRAB], res[W_REBEL] = grab, -1
    if not grab:
        _rebel_phase(hs, deals, params, rng, deck, out, pols)
    taker = -1
    while taker < 0:
        _declare_round(hs, levels, params, rng, out, pols)
        taker = _end_round(hs, levels, params, rng, out)
    res[W_KITTY_TAKER] = taker
    _take_and_bury(hs, taker, params, rng, out, pols)
    burier = taker
    if params[P_BAJIWO_ENABLED] != 0:
        burier = _bajiwo(hs, levels, taker, params, rng, out, pols)
    res[W_LAST_BURIER] = burier


@njit(cache=True)
def _pimc_scratch(pimc):
    # None without pimc seats: the play kernels then compile without the pimc search
    if pimc is None:
        return None
    return new_pimc_scratch()


@njit(cache=True)
def new_whole_scratch(pimc):
    """Scratch of whole_hand_in: ``(ints, hands, play scratch, units, work, contexts,
    knowledge, pimc scratch)``; ``contexts`` caches one context per (T, L), column CX_SIZE
    flags it built; ``knowledge`` is what each seat knows (``policies``). ``pimc``: None
    when no seat plays pimc (``policies.pimc_flag``), else True."""
    return (np.zeros(ST_SIZE + 2 * MAX_DECLS + 40, dtype=np.int64),
            np.empty((5, 2), dtype=np.int64), new_scratch(), new_units(), new_work(),
            np.zeros((5 * 13, CX_SIZE + 1), dtype=np.int64), new_knowledge(),
            _pimc_scratch(pimc))


@njit(cache=True)
def context_for(contexts, trump, level, nt_flag):
    """The context of (T, L) from the cache, built on first use."""
    row = contexts[13 * trump + level - 2]
    if row[CX_SIZE] == 0:
        fill_context(trump, level, nt_flag, row[:CX_SIZE])
        row[CX_SIZE] = 1
    return row[:CX_SIZE]


@njit(cache=True)
def whole_hand(deals, start, params, rng, deck, out, pols):
    """Play one whole hand from ``deals[0]`` (``deals`` int64[2, 5, 2]; a 造反 fills
    ``deals[1]``) with ``start`` = (team ``levels`` int64[2], ``start_banker``, -1: 抢庄局),
    each seat on its policy (``pols`` = (``pol`` int64[4], ``hp`` float64[4,
    N_HEURISTIC]): ``policies``). ``out`` = (``res``, ``alog``, ``chance``, ``tlog``):
    writes the result row ``res`` (``W_*``), and when they have rows the action log
    (``AL_*``) and the trick log (``hand.LG_*``); ``chance`` (``CH_*``) receives the random
    outcomes. ``deck`` (uint8[108]) is scratch."""
    whole_hand_in(deals, start, params, rng, deck, out, new_whole_scratch(True), pols)


@njit(cache=True, inline="always")  # a layer compiled apart re-optimizes all below it
def whole_hand_in(deals, start, params, rng, deck, out, scratch, pols):
    """whole_hand with caller-owned scratch (``new_whole_scratch``)."""
    levels = start[0]
    res, _, chance, tlog = out
    _, hands, sc, units, work, contexts, kn, pst = scratch
    hs = bidding_state(scratch)
    st = hs[1]
    reset_knowledge(kn)
    res[:] = 0
    chance[:] = 0
    chance[CH_TRUMP_INDEX] = -1
    st[:] = 0
    copy_rows(hands, deals[0])
    _bidding(hs, deals, start, params, rng, deck, out, pols)
    banker, level, trump = st[ST_BANKER], st[ST_LEVEL], st[ST_TRUMP]
    res[W_BANKER], res[W_LEVEL], res[W_TRUMP] = banker, level, trump
    ctx = context_for(contexts, trump, level, params[P_NT_LEVEL_JOKER_TRACTOR] != 0)
    play_hand_in(hands, banker, (ctx, params), rng, (res[W_PLAY:], tlog), (sc, units, work),
                 (pols[0], pols[1], kn), pst)
    _settle(levels, banker, params, res)


@njit(cache=True)
def chunk_buffers(pimc):
    """What a chunk of whole hands works in: ``(deck uint8[108], deals int64[2, 5, 2],
    chance log, an action log and a trick log without rows, new_whole_scratch(pimc))``."""
    return (np.empty(108, dtype=np.uint8), np.empty((2, 5, 2), dtype=np.int64),
            np.empty(CH_SIZE, dtype=np.int64), np.empty((0, AL_WIDTH), dtype=np.int64),
            no_log(), new_whole_scratch(pimc))
