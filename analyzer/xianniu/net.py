"""The self-play policy ``net``: its shipped weights (trained by
``scripts/train/xianniu_train_net.py`` through :mod:`analyzer.core.selfplay`; the 掀牛 side of the
training is :mod:`.net_train`)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import numpy as np

from kernels.xianniu.policies import N_NET_WEIGHTS, NET_W

from .learned import policy_row as learned_row

WEIGHTS_FILE = Path(__file__).with_name("net_weights.npz")


@cache
def _shipped() -> dict:
    if not WEIGHTS_FILE.exists():
        raise ValueError(f"the net policy's weights are missing ({WEIGHTS_FILE.name}); "
                         "scripts/train/xianniu_train_net.py writes them")
    with np.load(WEIGHTS_FILE) as z:
        return {k: z[k] for k in z.files}


def net_weights() -> np.ndarray:
    """The shipped weights of ``net`` (``N_NET_WEIGHTS`` floats)."""
    w = _shipped()["weights"]
    if w.shape != (N_NET_WEIGHTS,):
        raise ValueError(f"{WEIGHTS_FILE.name} holds {w.shape} weights, the kernels read "
                         f"{N_NET_WEIGHTS}")
    return w


def shipped_info() -> dict:
    """What the shipped weights were trained with, their figures and their stored check."""
    return json.loads(str(_shipped()["info"]))


def policy_row(weights: np.ndarray | None = None) -> np.ndarray:
    """A parameter row playing ``net`` with ``weights`` (default: the shipped ones); learned's
    shipped scorer, which net reads, is in it too."""
    row = learned_row()
    row[NET_W:] = net_weights() if weights is None else weights
    return row
