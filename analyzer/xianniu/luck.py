"""掀牛's part of the luck-and-skill split (:mod:`analyzer.core.luck`): redealt hands played
whole in the kernels by the default player, net, in every seat."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.drive import given_results, seatings_of
from .defaults import ADVICE_OPPONENTS
from .records import start_of
from .sim import BRIDGE, driver_policies, policy_arrays

PLAYER = ADVICE_OPPONENTS  # the player the review's play-outs continue with
HIDDEN = ()  # the record's deal fields, besides the hands, a seat cannot see


def seen_hidden(record: dict[str, Any], seat: int) -> frozenset[str]:
    """The fields of :data:`HIDDEN` that ``seat`` has seen by the end of ``record``: none."""
    return frozenset()


def deal_of(record: dict[str, Any]) -> dict[str, Any]:
    """The record of the deal the hand was played with: its own (no deal is ever redealt)."""
    return record


def deal_results(records: list[dict[str, Any]], seed: int) -> np.ndarray:
    """Each seat's points (int64[n, 3]) in the hands of ``records`` (dealt, no action
    taken), played whole by :data:`PLAYER`."""
    preset = records[0]["rules"]
    seating = seatings_of(driver_policies(policy_arrays(PLAYER, rules=preset)))
    return given_results(BRIDGE, seating, [start_of(r) for r in records], preset, seed)


def selfplay_records(n: int, seed: int, rules: str = "lanzhou") -> list[dict[str, Any]]:
    """``n`` whole hands played by :data:`PLAYER` in every seat, as records."""
    from .sim import hand_records

    return hand_records(n, rules, PLAYER, seed)
