"""顶牛's part of the luck-and-skill split (:mod:`analyzer.core.luck`): redealt hands played
whole in the kernels by the player the advice plays on with, in every seat."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.drive import given_results, seatings_of
from .records import start_of
from .sim import BRIDGE, policy_arrays

PLAYER = "heuristic"  # the player the review's play-outs continue with (advise.py)
HIDDEN = ()  # the record's deal fields, besides the hands, a seat cannot see


def seen_hidden(record: dict[str, Any], seat: int) -> frozenset[str]:
    """The fields of :data:`HIDDEN` that ``seat`` has seen by the end of ``record``: none."""
    return frozenset()


def deal_of(record: dict[str, Any]) -> dict[str, Any]:
    """The record of the deal the hand was played with: its own (no deal is ever redealt)."""
    return record


def deal_results(records: list[dict[str, Any]], seed: int) -> np.ndarray:
    """Each seat's points (int64[n, 4]) in the hands of ``records`` (dealt, no action
    taken), played whole by :data:`PLAYER`."""
    seating = seatings_of(policy_arrays(PLAYER))
    return given_results(BRIDGE, seating, [start_of(r) for r in records], records[0]["rules"],
                         seed)


def selfplay_records(n: int, seed: int, rules: str | None = None) -> list[dict[str, Any]]:
    """``n`` whole hands played by :data:`PLAYER` in every seat, as records (played in the
    kernels, read back move by move through the reference engine)."""
    from .engine import new_hand
    from .records import record_of
    from .rules import get_rules
    from .sim import logged_hands

    r = get_rules(rules)
    deals, _, acts, _, moves = logged_hands(n, PLAYER, seed, r)
    out = []
    for g in range(n):
        st = new_hand(deals[g].tolist(), r)
        for i in range(int(moves[g])):
            st.apply(int(acts[g, i, 1]))
        out.append(record_of(st))
    return out
