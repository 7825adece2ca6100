"""The heuristic weights tuned for each preset, and the named policies that play them.

``scripts/train/xianniu_tune.py`` tunes the heuristic's weights by self-play (results in
``reports/tuning_R.json``); the package ships a copy (``tuned.json``). ``tuned`` plays the
heuristic and ``tuned2`` heuristic2 on them (heuristic2's own entries keep their defaults).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np

from kernels.xianniu.policies import HEURISTIC_DEFAULTS, HEURISTIC_NAMES

from ..core.fileio import read_json
from .rules import Rules, get_rules

TUNED_FILE = Path(__file__).with_name("tuned.json")
TUNED = {"tuned": "heuristic", "tuned2": "heuristic2"}  # name -> the policy it plays


@cache
def _tuned_table() -> dict:
    return read_json(str(TUNED_FILE))


def tuned_vector(rules: str | Rules | None = None) -> np.ndarray:
    """The tuned heuristic weights of a preset; ValueError for a preset never tuned."""
    name = get_rules(rules).name
    table = _tuned_table()
    if name not in table:
        raise ValueError(f"no tuned heuristic weights for rules {name!r} (tuned: "
                         f"{', '.join(table)})")
    vec = HEURISTIC_DEFAULTS.copy()
    for key, value in table[name]["tuned"].items():
        vec[HEURISTIC_NAMES.index(key)] = float(value)
    return vec
