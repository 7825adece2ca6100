"""The distilled policy ``learned``: its shipped weights (its training data are made by
:mod:`.learned_data`, its training is :mod:`.learned_train`)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import numpy as np

from kernels.xianniu.policies import LEARNED_W, N_LEARNED_WEIGHTS, NET_W, POLICY_DEFAULTS

WEIGHTS_FILE = Path(__file__).with_name("learned_weights.npz")


@cache
def _shipped() -> dict:
    if not WEIGHTS_FILE.exists():
        raise ValueError(f"the learned policy's weights are missing ({WEIGHTS_FILE.name}); "
                         "scripts/train/xianniu_train_policy.py writes them")
    with np.load(WEIGHTS_FILE) as z:
        return {k: z[k] for k in z.files}


def learned_weights() -> np.ndarray:
    """The shipped weights of ``learned`` (``N_LEARNED_WEIGHTS`` floats)."""
    w = _shipped()["weights"]
    if w.shape != (N_LEARNED_WEIGHTS,):
        raise ValueError(f"{WEIGHTS_FILE.name} holds {w.shape} weights, the kernels read "
                         f"{N_LEARNED_WEIGHTS}")
    return w


def shipped_info() -> dict:
    """What the shipped weights were trained with and their validation figures."""
    return json.loads(str(_shipped()["info"]))


def policy_row(weights: np.ndarray | None = None) -> np.ndarray:
    """A parameter row playing ``learned`` with ``weights`` (default: the shipped ones)."""
    row = POLICY_DEFAULTS.copy()
    row[LEARNED_W:NET_W] = learned_weights() if weights is None else weights
    return row
