"""掀牛's part of the luck-and-skill split (:mod:`analyzer.core.luck`): redealt hands played
whole in the kernels by the default player, net, in every seat."""

from __future__ import annotations

from typing import Any

import numpy as np

from kernels.rng import states_from_seed
from kernels.xianniu import game as kg

from ..core.drive import play_rows, seatings_of
from .cards import N_SEATS
from .defaults import ADVICE_OPPONENTS
from .records import start_of
from .rules import get_rules
from .sim import deal_row, driver_policies, policy_arrays, rule_arrays

PLAYER = ADVICE_OPPONENTS  # the player the review's play-outs continue with
HIDDEN = ()  # the record's deal fields, besides the hands, a seat cannot see
CHUNK = 64  # redealt hands a random stream: a few hundred spread over the cores


def deal_results(records: list[dict[str, Any]], seed: int) -> np.ndarray:
    """Each seat's points (int64[n, 3]) in the hands of ``records`` (dealt, no action
    taken), played whole by :data:`PLAYER`."""
    preset = records[0]["rules"]
    deals = np.stack([deal_row(start_of(r)) for r in records])
    n = len(deals)
    rows = play_rows(rule_arrays(get_rules(preset)),
                     seatings_of(driver_policies(policy_arrays(PLAYER, rules=preset))),
                     states_from_seed(seed, -(-n // CHUNK)), CHUNK, n, deals=deals,
                     source="given")
    return rows[:, 0, kg.R_PTS0:kg.R_PTS0 + N_SEATS]
