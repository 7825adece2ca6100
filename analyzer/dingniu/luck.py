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


def deal_of(record: dict[str, Any]) -> dict[str, Any]:
    """The record of the deal the hand was played with: its own (no deal is ever redealt)."""
    return record


def deal_results(records: list[dict[str, Any]], seed: int) -> np.ndarray:
    """Each seat's points (int64[n, 4]) in the hands of ``records`` (dealt, no action
    taken), played whole by :data:`PLAYER`."""
    seating = seatings_of(policy_arrays(PLAYER))
    return given_results(BRIDGE, seating, [start_of(r) for r in records], records[0]["rules"],
                         seed)
