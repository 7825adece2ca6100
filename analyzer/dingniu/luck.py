"""顶牛's part of the luck-and-skill split (:mod:`analyzer.core.luck`): redealt hands played
whole in the kernels by the player the advice plays on with, in every seat."""

from __future__ import annotations

from typing import Any

import numpy as np

from kernels.dingniu import game as kd
from kernels.rng import states_from_seed

from ..core.drive import play_rows, seatings_of
from .records import start_of
from .rules import N_SEATS, get_rules
from .sim import deal_row, policy_arrays, rule_arrays

PLAYER = "heuristic"  # the player the review's play-outs continue with (advise.py)
HIDDEN = ()  # the record's deal fields, besides the hands, a seat cannot see
CHUNK = 64  # redealt hands a random stream: a few hundred spread over the cores


def deal_results(records: list[dict[str, Any]], seed: int) -> np.ndarray:
    """Each seat's points (int64[n, 4]) in the hands of ``records`` (dealt, no action
    taken), played whole by :data:`PLAYER`."""
    preset = records[0]["rules"]
    deals = np.stack([deal_row(start_of(r)) for r in records])
    n = len(deals)
    rows = play_rows(rule_arrays(get_rules(preset)), seatings_of(policy_arrays(PLAYER)),
                     states_from_seed(seed, -(-n // CHUNK)), CHUNK, n, deals=deals,
                     source="given")
    return rows[:, 0, kd.R_PTS:kd.R_PTS + N_SEATS]
