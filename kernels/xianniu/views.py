"""What a 掀牛 seat has seen, as the paired play-outs' ``view`` rows, and positions drawn to
fit it (the ``sample`` verb of :mod:`.verbs`).

A view is two int64 rows of :data:`VIEW_WIDTH`: row 0 the position's state words (zeros
when the position is the hand's start), row 1 how to draw and what a draw must show:

- :data:`RECORDED`: the hidden cards of a recorded position dealt anew consistently with
  the public record (:func:`.pimc.sample_hidden`), kept only if each seat's dealt hand
  agrees with what the 抢刺 phase showed (``V_QIANGCI``: 1 held a 抢刺 play, 0 did not,
  -1 unknown);
- :data:`ANSWER`: ``V_HAND`` is the asking seat's hand, the rest dealt at random; kept when
  there is no 抢刺 and the seats' own policies bring the hand to that seat answering the
  banker's opening 扣 (the banker 扣ed and, for seat 2, seat 1 扣ed too);
- :data:`BANKER`: ``V_HAND`` is the banker's (头家) hand, the rest dealt at random; kept
  when there is no 抢刺 (the banker's first decision);
- :data:`FIRST_KOU`: all three hands dealt at random, the banker 扣s at once whatever its
  policy; kept when there is no 抢刺 and the asked seat then answers (the 掀 experiment).

``V_PINNED`` holds cards known to lie with each seat (the queries pass zeros; a test pins
most cards to enumerate a small case exactly).
"""

from __future__ import annotations

import numpy as np

from ..jit import njit
from ..rng import bounded, next_u64, seed_state
from .batch import no_log
from .bits import popcount
from .game import (
    PH_KOU,
    PH_LEAD,
    S_LEAD,
    S_N_ACT,
    S_PHASE,
    WS_DISC,
    WS_HANDS,
    WS_PLAYED,
    WS_SIZE,
    advance,
    deal,
    start_hand,
)
from .hand import track_passes
from .pimc import sample_hidden
from .plays import has_qiangci
from .policies import POLICY_PIMC
from .tables import ACT_KOU, ACT_XIAN, FORGO_KOU, N_SEATS, TYPE_SHIFT

RECORDED, ANSWER, BANKER, FIRST_KOU = 0, 1, 2, 3
V_MODE, V_HAND, V_PINNED, V_QIANGCI = 0, 1, 2, 5
VIEW_WIDTH = WS_SIZE
# the options the queries compare: 掀 then 扣 where a seat answers a 扣; 扣 then a lead with
# 扣 not offered (the policy's lead) at the banker's first decision
XIAN_KOU = np.array([ACT_XIAN << TYPE_SHIFT, ACT_KOU << TYPE_SHIFT], dtype=np.int64)
KOU_LEAD = np.array([ACT_KOU << TYPE_SHIFT, FORGO_KOU], dtype=np.int64)
MAX_TRIES_PER_DEAL = 64  # draws per requested deal before it counts as missing


def view_rows(mode: int, position=None, hand: int = 0, pinned=None, qiangci=None
              ) -> np.ndarray:
    """The two view rows of a query (see the module docstring)."""
    view = np.zeros((2, VIEW_WIDTH), dtype=np.int64)
    if position is not None:
        view[0, :len(position)] = position
    view[1, V_MODE] = mode
    view[1, V_HAND] = hand
    view[1, V_PINNED:V_PINNED + N_SEATS] = 0 if pinned is None else pinned
    view[1, V_QIANGCI:V_QIANGCI + N_SEATS] = -1 if qiangci is None else qiangci
    return view


@njit(cache=True)
def deal_around(hand, seat, pinned, rng, out):
    """Deal the cards outside ``hand`` at random to the two other seats, 16 each, the
    cards ``pinned[s]`` to seat ``s``."""
    o1, o2 = (seat + 1) % N_SEATS, (seat + 2) % N_SEATS
    rest = np.empty(32, dtype=np.int64)
    n = 0
    m = 0xFFFFFFFFFFFF & ~hand & ~pinned[o1] & ~pinned[o2]
    while m:
        low = m & -m
        rest[n] = low
        n += 1
        m ^= low
    for i in range(n - 1, 0, -1):
        j = bounded(rng, i + 1)
        t = rest[i]
        rest[i] = rest[j]
        rest[j] = t
    out[seat] = hand
    a = pinned[o1]
    b = pinned[o2]
    need_a = 16 - popcount(a)
    for i in range(n):
        if i < need_a:
            a |= rest[i]
        else:
            b |= rest[i]
    out[o1] = a
    out[o2] = b


@njit(cache=True)
def qiangci_consistent(sample, qiangci_known, params):
    """Does each seat's dealt hand (held, played, discarded) agree with ``qiangci_known``
    (1: it held a 抢刺 play, 0: it did not, -1: not known)?"""
    for s in range(N_SEATS):
        known = qiangci_known[s]
        if known < 0:
            continue
        dealt = sample[WS_HANDS + s] | sample[WS_PLAYED + s] | sample[WS_DISC + s]
        if has_qiangci(dealt, params) != (known == 1):
            return False
    return True


@njit(cache=True)
def sample_view(rules, ids, parameters, view, seat, rng, scratch, stream):
    """Draw into ``scratch`` a position that fits ``view`` (the module docstring) from
    ``rng``, its play-on stream seeded into ``stream``; False when the draw is rejected."""
    params = rules[0]
    ws = scratch[2]
    query = view[1]
    mode = query[V_MODE]
    if mode == RECORDED:
        if not sample_hidden(view[0], seat, rules[1], rng, ws):
            return False
        if not qiangci_consistent(ws, query[V_QIANGCI:V_QIANGCI + N_SEATS], params):
            return False
        seed_state(next_u64(rng), stream)
        return True
    hands = scratch[0][:N_SEATS]  # the action buffer: free until the first decision
    if mode == FIRST_KOU:
        deal(rng, hands)
    else:
        deal_around(query[V_HAND], seat, query[V_PINNED:V_PINNED + N_SEATS], rng, hands)
    start_hand(hands, np.int64(0), params, ws)
    track_passes(ids, ws)
    if ws[S_PHASE] != PH_LEAD:
        return False  # someone holds a 抢刺: a different position
    seed_state(next_u64(rng), stream)
    if mode == BANKER:
        return True
    stop_at = ids.copy()
    stop_at[seat] = POLICY_PIMC  # advance() stops where the asked seat must decide
    # FIRST_KOU: the banker's first decision is forced to 扣 (entry 0 of its list)
    status = advance(rules, (stop_at, parameters), stream, scratch, no_log(), np.int64(0),
                     np.int64(0 if mode == FIRST_KOU else -1))
    if mode == FIRST_KOU:
        return status == 1
    # kept only if the banker 扣ed and (for seat 2) seat 1 扣ed: the asking reached ``seat``
    # after exactly ``seat`` actions
    return (status == 1 and ws[S_PHASE] == PH_KOU and ws[S_N_ACT] == seat
            and ws[S_LEAD] == 0)
