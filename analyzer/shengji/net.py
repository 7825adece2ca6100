"""The 双升 policy ``net``: its shipped weights, one set per preset (trained by
``scripts/train/shengji_train_net.py`` through :mod:`analyzer.core.selfplay`; the 双升 side of
the training is :mod:`.net_train`), and the parameter row the kernels read."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import numpy as np

from kernels.shengji.policies import N_HEURISTIC, N_NET_ROW, N_NET_WEIGHTS, NET_MARGIN, NET_W

from .rules import ShengjiRules, get_rules

WEIGHTS_FILE = Path(__file__).with_name("net_weights.npz")


@cache
def _shipped() -> dict:
    if not WEIGHTS_FILE.exists():
        raise ValueError(f"the net policy's weights are missing ({WEIGHTS_FILE.name}); "
                         "scripts/train/shengji_train_net.py writes them")
    with np.load(WEIGHTS_FILE) as z:
        return {k: z[k] for k in z.files}


def shipped_info() -> dict:
    """What the shipped weights were trained with, per preset: the run's seed, command,
    figures, margin and the stored check."""
    return json.loads(str(_shipped()["info"]))


def net_weights(rules: str | ShengjiRules | None = None) -> tuple[np.ndarray, float]:
    """The shipped weights of a preset (``N_NET_WEIGHTS`` floats) and their margin."""
    name = get_rules(rules).name
    key = f"weights_{name}"
    z = _shipped()
    if key not in z:
        raise ValueError(f"{WEIGHTS_FILE.name} holds no net weights for the {name} rules")
    w = z[key]
    if w.shape != (N_NET_WEIGHTS,):
        raise ValueError(f"{WEIGHTS_FILE.name} holds {w.shape} weights for {name}, the kernels "
                         f"read {N_NET_WEIGHTS}")
    return w, float(shipped_info()[name]["margin"])


def net_row(base: np.ndarray, weights: np.ndarray | None, margin: float) -> np.ndarray:
    """A net row (float64[N_NET_ROW]): the heuristic row ``base`` (for the bidding, the bury
    and the play-outs), the ``margin``, no exploration or logging, and ``weights`` (None:
    zeros, with the margin out of reach, so that net plays the heuristic's choices)."""
    row = np.zeros(N_NET_ROW)
    row[:N_HEURISTIC] = base[:N_HEURISTIC]
    if weights is None:
        row[NET_MARGIN] = np.inf
    else:
        row[NET_MARGIN] = margin
        row[NET_W:] = weights
    return row
