"""The bridge from a reference-engine position to the kernels' state words.

``ws_from_state`` writes everything a kernel needs to play on from a position reached in the
reference engine (for instance by replaying a partial game record): hands, captured tallies,
the public record (cards played, passes, discard counts), and the phase with its queue.
"""

from __future__ import annotations

import numpy as np

from kernels.xianniu import game as kg

from .cards import KING, N_SEATS, count, rank_counts
from .combos import BAI, EIGHT_PAIRS, KINDS, NIU, SET, XI, XI_BAO_LIANG
from .engine import DISCARD, KOU, PASS, PLAY, XIAN, State, new_hand

_PHASES = {"qiangci": kg.PH_QIANGCI, "lead": kg.PH_LEAD, "kou_ask": kg.PH_KOU,
           "trick": kg.PH_TRICK, "discard": kg.PH_DISCARD, "over": kg.PH_OVER}
_END = {"": -1, "kou": kg.END_KOU, "table full": kg.END_TABLE_FULL,
        "lead holder has no cards": kg.END_NO_CARDS}


def ws_from_state(state: State) -> np.ndarray:
    """Kernel state words equal to the reference ``state`` (its history included)."""
    ws = np.zeros(kg.WS_SIZE, dtype=np.int64)
    for s in range(N_SEATS):
        ws[kg.WS_HANDS + s] = state.hands[s]
        ws[kg.WS_SAID_KOU + s] = int(state.said_kou[s])
        _captured_tallies(state, s, ws)
    qiangci_seat = _replay_history(state, ws)
    _phase_words(state, ws)
    ws[kg.S_QIANGCI_SEAT] = qiangci_seat
    ws[kg.S_TRACK] = 1  # positions rebuilt for sampling keep their pass log
    return ws


def _captured_tallies(state: State, s: int, ws: np.ndarray) -> None:
    """Seat ``s``'s captured cards and its 牛, 喜, 亮, KKK and K+10+8 tallies."""
    lp = state.rules.liang_points
    for p in state.captured[s]:
        ws[kg.WS_CAP + s] += p.size
        if p.kind == NIU:
            ws[kg.WS_NIU + s] += p.size
        elif p.kind == XI:
            ws[kg.WS_XI + s] += p.size
        elif p.kind == XI_BAO_LIANG:
            ws[kg.WS_XI + s] += p.size - 4
        if p.is_liang:
            ws[kg.WS_LIANG + s] += lp
        elif p.kind == EIGHT_PAIRS:
            ws[kg.WS_LIANG + s] += lp * sum(1 for c in rank_counts(p.mask) if c == 4)
        if p.kind == SET and p.size == 3 and p.rank == KING:
            ws[kg.WS_KKK + s] = 1
        if p.kind == BAI and p.k == 1:
            ws[kg.WS_K108 + s] = 1


def _replay_history(state: State, ws: np.ndarray) -> int:
    """What only the history tells, replayed from the deal: each seat's public plays and
    discards, the cards played, the pass log and the choice log; returns the 抢刺 seat (-1)."""
    shadow = new_hand(list(state.dealt), state.rules, state.banker)
    qiangci_seat = -1
    for seat, a in state.history:
        choice = _choice(shadow, seat, a.kind)
        n = int(ws[kg.S_N_CHOICE])
        if choice >= 0 and n < kg.MAX_CHOICE:
            row = kg.WS_CHOICE + n * kg.CHOICE_COLS
            ws[row:row + kg.CHOICE_COLS] = [seat, choice,
                                            sum(p.size for p in shadow.captured[seat]),
                                            ws[kg.WS_PUBLIC], ws[kg.WS_PLAYED + seat],
                                            count(int(ws[kg.WS_DISC + seat]))]
            ws[kg.S_N_CHOICE] = n + 1
        if shadow.phase == "trick" and a.kind == PASS:
            row = kg.WS_PASS + int(ws[kg.S_N_PASS]) * kg.PASS_COLS
            t = shadow._top()
            ws[row:row + kg.PASS_COLS] = [seat, KINDS.index(t.kind), t.size, t.rank, t.k,
                                          ws[kg.WS_PLAYED + seat],
                                          count(int(ws[kg.WS_DISC + seat]))]
            ws[kg.S_N_PASS] += 1
        if a.kind == PLAY:
            ws[kg.WS_PLAYED + seat] |= a.cards
            ws[kg.WS_PUBLIC] |= a.cards
            if shadow.phase == "qiangci":
                qiangci_seat = seat
        elif a.kind == DISCARD:
            ws[kg.WS_DISC + seat] |= a.cards
        shadow.apply(a)
    return qiangci_seat


def _phase_words(state: State, ws: np.ndarray) -> None:
    """The phase, its queue, the play on top, the 掀 events and the counters."""
    for i, q in enumerate(state.queue):
        ws[kg.WS_QUEUE + i] = q
    for i, (x, target) in enumerate(state.xian_events):
        ws[kg.WS_XIAN_X + i] = x
        ws[kg.WS_XIAN_T + i] = target
    top = state.top
    ws[kg.S_PHASE] = _PHASES[state.phase]
    ws[kg.S_LEAD] = state.lead_holder
    ws[kg.S_MUST_LEAD] = int(state.must_lead)
    ws[kg.S_TIGHTENED] = int(state.tightened)
    ws[kg.S_QLEN] = len(state.queue)
    ws[kg.S_QI] = 0
    if top is not None:
        ws[kg.S_TOP_KIND] = KINDS.index(top.kind)
        ws[kg.S_TOP_SIZE] = top.size
        ws[kg.S_TOP_RANK] = top.rank
        ws[kg.S_TOP_K] = top.k
    ws[kg.S_TOP_OWNER] = state.top_owner
    ws[kg.S_LIMIT] = state.tighten_limit
    ws[kg.S_TABLE] = state.table_count()
    ws[kg.S_N_XIAN] = len(state.xian_events)
    ws[kg.S_END] = _END[state.end_reason]
    ws[kg.S_N_ACT] = len(state.history)
    ws[kg.S_BANKER] = state.banker


def _choice(shadow: State, seat: int, kind: str) -> int:
    """The choice-log code (``kg.CH_*``) of ``seat``'s action ``kind`` in ``shadow``, or -1."""
    if shadow.phase == "lead" and kind == KOU:
        return kg.CH_KOU_LEAD
    if shadow.phase == "kou_ask" and not shadow.said_kou[seat]:
        return kg.CH_XIAN if kind == XIAN else kg.CH_KOU_ANSWER
    return -1


# Words that only carry scratch values between steps, never the game.
SCRATCH_WORDS = [*range(kg.WS_INFO, kg.WS_INFO + kg.INFO_COLS),
                 *range(kg.WS_POINTS, kg.WS_POINTS + 3), kg.S_N_LEGAL, kg.S_N_LIST]
