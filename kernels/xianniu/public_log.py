"""The logs of the public record that pimc's sampler reads: passes and 扣 / 掀 choices.

Kept in the state words only when a pimc seat plays (``S_TRACK``): a pass, with the play it
passed on, tells the sampler what that seat cannot hold (:func:`kernels.xianniu.pimc._consistent`);
a 扣 or 掀 tells it what the seat likely holds (:func:`kernels.xianniu.pimc.choice_weight`).
Each row also keeps what the seat had shown then, so the sampler can rebuild its hand then.
"""

from __future__ import annotations

from ..jit import njit
from .bits import popcount
from .layout import (
    CHOICE_COLS,
    MAX_CHOICE,
    MAX_PASS,
    PASS_COLS,
    S_N_CHOICE,
    S_N_PASS,
    S_TOP_K,
    S_TOP_KIND,
    S_TOP_RANK,
    S_TOP_SIZE,
    S_TRACK,
    WS_CAP,
    WS_CHOICE,
    WS_DISC,
    WS_PASS,
    WS_PLAYED,
    WS_PUBLIC,
)


@njit(cache=True)
def record_pass(ws, seat):
    """Log ``seat``'s pass on the top play, with its public plays and discard count then."""
    i = ws[S_N_PASS]
    if ws[S_TRACK] == 0 or i >= MAX_PASS:
        return
    row = WS_PASS + i * PASS_COLS
    ws[row] = seat
    ws[row + 1] = ws[S_TOP_KIND]
    ws[row + 2] = ws[S_TOP_SIZE]
    ws[row + 3] = ws[S_TOP_RANK]
    ws[row + 4] = ws[S_TOP_K]
    ws[row + 5] = ws[WS_PLAYED + seat]
    ws[row + 6] = popcount(ws[WS_DISC + seat])
    ws[S_N_PASS] = i + 1


@njit(cache=True)
def record_choice(ws, seat, choice):
    """Log ``seat``'s 扣 or 掀 (a ``CH_*`` code) with its captured cards, the public cards,
    its public plays and its discard count then."""
    i = ws[S_N_CHOICE]
    if ws[S_TRACK] == 0 or i >= MAX_CHOICE:
        return
    row = WS_CHOICE + i * CHOICE_COLS
    ws[row] = seat
    ws[row + 1] = choice
    ws[row + 2] = ws[WS_CAP + seat]
    ws[row + 3] = ws[WS_PUBLIC]
    ws[row + 4] = ws[WS_PLAYED + seat]
    ws[row + 5] = popcount(ws[WS_DISC + seat])
    ws[S_N_CHOICE] = i + 1
