"""Checks of the inputs every game takes, with one message each, so that a bad value reads
the same whatever command or function was given it."""

from __future__ import annotations

import secrets
from typing import Any

import numpy as np


def check_seed(seed: Any, *, fresh: bool = False, upper: int | None = None) -> int:
    """``seed`` as an int; ValueError unless it is an integer of at least 0 (and at most
    ``upper``). With ``fresh``, None draws a new seed (a result reports it, so that it can be
    replayed)."""
    if seed is None and fresh:
        return secrets.randbits(63)
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0 \
            or (upper is not None and seed > upper):
        bound = "of at least 0" if upper is None else f"from 0 to {upper}"
        raise ValueError(f"the seed must be an integer {bound}, got {seed!r}")
    return int(seed)
