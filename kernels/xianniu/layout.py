"""Where things lie in a 掀牛 hand's state words (``ws``) and result row: offsets, phases, limits.

Kept apart from :mod:`kernels.xianniu.game` so that the policies that read a position (and
the state machine that calls them) import the layout without importing each other.
"""

from __future__ import annotations

from .plays import INFO_COLS

MAX_ACTIONS = 1024  # legal actions at one decision (the worst 16-card hand has ~620)
MAX_LOG = 512  # actions in one hand
# A decision as the policies read it (a tuple of int64): the phase, the seat to act, its
# hand, the cards it has not seen (others' hands and discards), its captured cards, 1 if it
# has said 扣, the 够 threshold, and the number of actions listed.
POSITION = ("phase", "seat", "hand", "unseen", "captured", "said_kou", "gou_min", "n")
MAX_XIAN = 64  # 掀 events in one hand (each needs a lead after it: at most 48)

# Phases.
PH_QIANGCI, PH_LEAD, PH_KOU, PH_TRICK, PH_DISCARD, PH_OVER = range(6)
# End reasons.
END_KOU, END_TABLE_FULL, END_NO_CARDS = range(3)
END_NAMES = ("kou", "table full", "lead holder has no cards")

# State words of one hand inside the scratch buffer (``ws``): everything needed to resume
# the hand, so a copy of ``ws`` is a copy of the game.
WS_HANDS, WS_CAP, WS_NIU, WS_XI, WS_LIANG, WS_KKK, WS_K108, WS_SAID_KOU, WS_QUEUE = range(0, 27, 3)
WS_INFO = 27
WS_POINTS = WS_INFO + INFO_COLS
WS_PUBLIC = WS_POINTS + 3  # every card played in public (captured, dead, on top)
WS_DISC = WS_PUBLIC + 1  # each seat's own 紧牌 discards (face down: known to that seat only)
WS_PLAYED = WS_DISC + 3  # each seat's cards played in public
(S_PHASE, S_LEAD, S_MUST_LEAD, S_TIGHTENED, S_QLEN, S_QI, S_TOP_KIND, S_TOP_SIZE, S_TOP_RANK,
 S_TOP_K, S_TOP_OWNER, S_LIMIT, S_TABLE, S_N_XIAN, S_END, S_QIANGCI_SEAT, S_N_ACT, S_N_LEGAL,
 S_BANKER, S_N_LIST, S_N_PASS, S_TRACK, S_N_CHOICE) = range(WS_PLAYED + 3, WS_PLAYED + 3 + 23)
WS_XIAN_X = S_N_CHOICE + 1
WS_XIAN_T = WS_XIAN_X + MAX_XIAN
MAX_PASS = 96  # passes in one hand (two answers a trick, at most 48 tricks)
PASS_COLS = 7  # seat, top kind, size, rank, k, seat's public plays then, its discard count then
WS_PASS = WS_XIAN_T + MAX_XIAN
# The choice log, kept with the pass log: each 掀, each 扣 answer that could have been a 掀, and
# each 扣 of the lead holder, with what the seat knew then (pimc's sampler weighs hidden deals by
# how likely they make these choices).
MAX_CHOICE = 64
CHOICE_COLS = 6  # seat, choice (CH_*), its captured cards, public cards, its public plays and
#                  its discard count then
CH_XIAN, CH_KOU_ANSWER, CH_KOU_LEAD = range(3)
WS_CHOICE = WS_PASS + MAX_PASS * PASS_COLS
WS_SIZE = WS_CHOICE + MAX_CHOICE * CHOICE_COLS

# Result row of one hand.
(R_BANKER, R_CAP0, R_CAP1, R_CAP2, R_PTS0, R_PTS1, R_PTS2, R_CI_SEAT, R_XIAN, R_ACTIONS, R_END,
 R_NIU0, R_NIU1, R_NIU2, R_XI0, R_XI1, R_XI2, R_LIANG0, R_LIANG1, R_LIANG2, R_QIANGCI_SEAT,
 N_RESULT) = range(22)

FULL_DECK = (1 << 48) - 1
