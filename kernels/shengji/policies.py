"""双升 policies by id, their parameter vector, and what a seat knows (docs/rules/shengji.md §9).

A policy is an integer per seat (``pol``, int64[4]): ``POLICY_RANDOM`` (the random policy
of ``random_policy`` and ``game``, whose draws are unchanged), ``POLICY_HEURISTIC``
(``heuristic`` for the play, ``heuristic_bid`` for 造反, declaring, the bury and 扒鸡窝) or
``POLICY_PIMC`` (``pimc`` for leads and follows, the heuristic for the rest) or ``POLICY_NET``
(``net``: a small network picks leads and follows among pimc's candidates, the heuristic for
the rest) or ``POLICY_PIMC2`` (``pimc2``: pimc with net's pick as its baseline,
``kernels.shengji.search``). pimc, net and pimc2 search (:func:`searches`).
Each seat has its own row of heuristic parameters (``hp``, float64[4, N_HEURISTIC]; names,
defaults and meanings in docs/policies.md, the 双升 section).

**Knowledge** (``kn``, int64[KN_SIZE]) holds only what is public or private to one seat:
the cards played so far (``KN_PLAYED``: both planes), the effective suits each seat has
shown void in by not following (``KN_VOID + seat``: bit e), the cards each seat has shown
(``KN_SHOWN``: declarations and failed throws) and played (``KN_BY``), and the final kitty
with the seat that buried it (``KN_KITTY_SEAT``, the only seat that may read ``KN_KITTY``). A
seat's unknown cards are the 108 less its hand, the cards played and, for the burier, the
kitty. ``KN_KS`` is room for the lead's tractor lengths during a trick.
"""

from __future__ import annotations

import numpy as np

from ..jit import njit, njit_uncounted
from .planes import ALL_FACES, add, popcount, subtract

POLICY_RANDOM = 0
POLICY_HEURISTIC = 1
POLICY_PIMC = 2
POLICY_NET = 3
POLICY_PIMC2 = 4
POLICY_NAMES = ("random", "heuristic", "pimc", "net", "pimc2")

# Heuristic parameters (float64 vector, one row per seat).
H_OPEN_BANKER = 0  # a banker-side seat opens when its trump value reaches this
H_OPEN_ATTACKER = 1  # an attacker opens when its trump value reaches this
H_GRAB = 2  # 抢庄局: declares when its trump value reaches this
H_OVERCALL = 3  # overcalls an opponent's declaration at this trump value
H_BAJIWO = 4  # 扒鸡窝: overcalls (and takes the kitty) at this trump value
H_HIGH_WEIGHT = 5  # trump value: extra per joker and level card
H_NT_ACE = 6  # trump value of 无主: per plain ace held
H_REINFORCE = 7  # above 0.5: reinforces (加固) its own single when it can
H_REBEL = 8  # 造反 when its strength (大王 2, 小王, level cards, aces 1) is at most this
H_BURY_VOID = 9  # bury whole plain suits of at most this many cards, shortest first
H_BURY_POINTS = 10  # above 0.5: point cards are buried like any other card
H_LEAD_STAND = 11  # lead score of a plain unit that stands by the seat's count
H_LEAD_STAND_TRUMP = 12  # lead score of a trump unit that stands
H_LEAD_SIZE = 13  # lead score per card of a standing unit or throw
H_LEAD_POINTS = 14  # lead score per point of a standing unit or throw
H_THROW = 15  # lead score of a throw of two or more standing units
H_RUFF_RISK = 16  # penalty of a plain lead an opponent has shown void in
H_LEAD_LOW = 17  # lead score of a unit that does not stand, less its top rung
H_LEAD_LOW_POINTS = 18  # its penalty per point
H_LEAD_TRUMP_LOW = 19  # its penalty when it is trump
H_PARTNER_RUFF = 20  # bonus for a low lead in a suit only the partner has shown void in
H_WIN_POINTS = 21  # 2nd/3rd seat beats an opponent when the trick holds this many points
H_RUFF_POINTS = 22  # trumps (毙) an opponent's plain trick holding this many points
P_PIMC_SAMPLES = 23  # pimc: hidden deals sampled per decision
P_PIMC_Z = 24  # pimc: leaves the heuristic's choice only for a gain this many SEs above 0
H_BURY_SAFE = 25  # buries point cards first when the 33 cards' trump value reaches this
H_GUARD = 26  # the kitty's side: lead penalty of a unit holding its top trump, late
H_GUARD_CARDS = 27  # ... when it holds at most this many cards (and more than that unit)
N_HEURISTIC = 28  # the heuristic's 26 and pimc's 2 (added last, so older indices stay)
HEURISTIC_NAMES = ("open_banker", "open_attacker", "grab", "overcall", "bajiwo",
                   "high_weight", "nt_ace", "reinforce", "rebel", "bury_void", "bury_points",
                   "lead_stand", "lead_stand_trump", "lead_size", "lead_points", "throw",
                   "ruff_risk", "lead_low", "lead_low_points", "lead_trump_low",
                   "partner_ruff", "win_points", "ruff_points", "pimc_samples", "pimc_z",
                   "bury_safe", "guard", "guard_cards")
# net's entries, after the heuristic's (a net row: the heuristic's row, then these, then the
# network's weights as ``analyzer.core.mlp`` packs them; ``kernels.shengji.net``).
NET_MARGIN = N_HEURISTIC  # leaves the heuristic's choice only for a value above this
NET_EXPLORE = N_HEURISTIC + 1  # self-play: a uniform candidate with this probability
NET_LOG = N_HEURISTIC + 2  # self-play: a decision's candidates are played out and logged
NET_W = N_HEURISTIC + 3  # the weights from here on
NET_S = 19  # state features read once per decision
NET_C = 16  # features of one candidate
NET_STATE = NET_S + NET_C  # the state part: the state and the heuristic's choice
NET_IN = NET_STATE + NET_C  # the network's inputs: that and the candidate's
NET_H1, NET_H2 = 16, 8  # hidden widths
N_NET_WEIGHTS = NET_IN * NET_H1 + NET_H1 + NET_H1 * NET_H2 + NET_H2 + NET_H2 + 1
N_NET_ROW = NET_W + N_NET_WEIGHTS
HEURISTIC_DEFAULTS = np.array([0.0, 12.0, 8.0, 11.0, 10.0, 0.5, 1.0, 1.0, 3.0, 4.0, 0.0,
                               50.0, 20.0, 5.0, 0.5, 60.0, 80.0, 10.0, 1.0, 15.0, 30.0,
                               5.0, 5.0, 16.0, 1.0, 99.0, 0.0, 6.0])

# Knowledge layout (int64[KN_SIZE]).
KN_PLAYED = 0  # (one, two) of the cards played so far
KN_VOID = 2  # + seat: bit e when the seat has shown void in effective suit e
KN_KITTY_SEAT = 6  # the seat that buried the final kitty (-1: none yet)
KN_KITTY = 7  # (one, two) of the final kitty, for that seat only
KN_KS = 9  # the current lead's tractor lengths (at most 12)
KN_SHOWN = KN_KS + 16  # + 2 * seat: (one, two) of the cards the seat has shown (declared,
#                        or in a failed throw), in its hand unless it has played them since;
#                        emptied when the seat buries
KN_BY = KN_SHOWN + 8  # + 2 * seat: (one, two) of the cards the seat has played
KN_SIZE = KN_BY + 8


@njit(cache=True)
def new_knowledge():
    """A knowledge array, reset."""
    kn = np.zeros(KN_SIZE, dtype=np.int64)
    reset_knowledge(kn)
    return kn


@njit(cache=True)
def reset_knowledge(kn):
    """Nothing played or shown, no void shown, no kitty known."""
    kn[:] = 0
    kn[KN_KITTY_SEAT] = -1


@njit(cache=True)
def reset_play(kn):
    """Before trick 1: nothing played, no void; the kitty and the cards shown are kept."""
    kn[KN_PLAYED], kn[KN_PLAYED + 1] = 0, 0
    for s in range(4):
        kn[KN_VOID + s] = 0
        kn[KN_BY + 2 * s], kn[KN_BY + 2 * s + 1] = 0, 0


@njit(cache=True)
def note_shown(kn, seat, one, two):
    """``seat`` showed ``(one, two)`` face up (a declaration, a failed throw): from now on
    it is known to hold those cards and the shown ones it still held, until it plays them."""
    s1, s2 = kn[KN_SHOWN + 2 * seat], kn[KN_SHOWN + 2 * seat + 1]
    b1, b2 = kn[KN_BY + 2 * seat], kn[KN_BY + 2 * seat + 1]
    # held (shown less played, per face) joined with the cards shown now; stored plus the
    # cards played, so that a copy shown after the other copy was played counts
    h1, h2 = subtract(s1, s2, b1, b2)
    kn[KN_SHOWN + 2 * seat], kn[KN_SHOWN + 2 * seat + 1] = add(b1, b2, h1 | one, h2 | two)


@njit(cache=True)
def note_bury(kn, seat, one, two):
    """``seat`` buried the kitty ``(one, two)``: only it knows these cards, and the cards it
    showed are no longer known to be in its hand (any may lie in the kitty)."""
    kn[KN_KITTY_SEAT] = seat
    kn[KN_SHOWN + 2 * seat], kn[KN_SHOWN + 2 * seat + 1] = 0, 0
    kn[KN_KITTY], kn[KN_KITTY + 1] = one, two


@njit(cache=True)
def note_play(kn, seat, one, two, e, mask, n):
    """``seat`` played ``(one, two)`` to a lead of ``n`` cards of effective suit ``e``
    (faces ``mask``), the lead itself included: public cards, and a void shown when the
    play holds fewer than ``n`` cards of ``e``."""
    p1, p2 = kn[KN_PLAYED], kn[KN_PLAYED + 1]
    kn[KN_PLAYED], kn[KN_PLAYED + 1] = p1 | one, p2 | two | (p1 & one)
    b1, b2 = kn[KN_BY + 2 * seat], kn[KN_BY + 2 * seat + 1]
    kn[KN_BY + 2 * seat], kn[KN_BY + 2 * seat + 1] = b1 | one, b2 | two | (b1 & one)
    if popcount(one & mask) + popcount(two & mask) < n:
        kn[KN_VOID + seat] |= 1 << e


@njit_uncounted
def unknown_cards(kn, seat, hand_one, hand_two):
    """The cards ``seat`` cannot place: all 108 less its hand, the cards played and, if it
    buried the final kitty, the kitty."""
    one, two = subtract(ALL_FACES, ALL_FACES, hand_one, hand_two)
    one, two = subtract(one, two, kn[KN_PLAYED], kn[KN_PLAYED + 1])
    if kn[KN_KITTY_SEAT] == seat:
        one, two = subtract(one, two, kn[KN_KITTY], kn[KN_KITTY + 1])
    return one, two


@njit(cache=True)
def searches(policy):
    """Whether ``policy`` chooses its leads and follows in ``kernels.shengji.search`` (pimc,
    net, pimc2), all of which work in the pimc scratch."""
    return policy >= POLICY_PIMC


# The ``pimc`` argument of the decision queries' and advice's kernels, whatever the seats
# play: one build with the search in place serves every seating (their defaults search),
# where a build per kind of seating would compile the whole hand once more.
SEARCH = True


def pimc_flag(pol) -> bool | None:
    """The ``pimc`` argument of the whole-hand kernels for seats on ``pol`` (any shape): True
    when a seat searches (:func:`searches`; net and pimc2 use pimc's scratch too), else None,
    which Numba prunes, leaving the search and the network out of the compiled kernel."""
    pol = np.asarray(pol)
    return True if np.any(pol >= POLICY_PIMC) else None


def default_params(n_seats: int = 4) -> np.ndarray:
    """The default heuristic parameters, one row per seat."""
    return np.tile(HEURISTIC_DEFAULTS, (n_seats, 1))


def seat_policies(pol=None, hp=None) -> tuple[np.ndarray, np.ndarray]:
    """``(pol int64[4], hp float64[4, N_HEURISTIC])``, the ``pols`` the kernels take: every
    seat random by default, the heuristic's default parameters where none are given."""
    pol = np.zeros(4, dtype=np.int64) if pol is None else np.asarray(pol, dtype=np.int64)
    hp = default_params() if hp is None else np.asarray(hp, dtype=np.float64)
    if pol.shape != (4,) or hp.ndim != 2 or hp.shape[0] != 4 or hp.shape[1] < N_HEURISTIC:
        raise ValueError("policies: one id per seat (4) and one parameter row per seat")
    if np.any(pol >= POLICY_NET) and hp.shape[1] < N_NET_ROW:
        raise ValueError(f"a net or pimc2 seat needs a row of {N_NET_ROW} parameters (its weights)")
    return np.ascontiguousarray(pol), np.ascontiguousarray(hp)
