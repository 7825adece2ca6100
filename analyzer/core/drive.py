"""Setups of the shared kernel drivers (:mod:`kernels.drivers`) that every game uses.

A game's policies bundle for one seating is a tuple of arrays (one row per seat) and
possibly flags; the play driver takes seatings: the same tuple with every array stacked on
a leading axis.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kernels import drivers
from kernels.rng import states_from_seed


def seatings_of(*bundles: tuple) -> tuple:
    """The seatings of the play driver from one policies bundle per seating: arrays stacked,
    a flag member True if it is True in any bundle (else as in the first)."""
    out: list[Any] = []
    for members in zip(*bundles):
        if isinstance(members[0], np.ndarray):
            out.append(np.ascontiguousarray(np.stack(members)))
        else:
            out.append(True if any(m is True for m in members) else members[0])
    return tuple(out)


def no_seating(policies: tuple) -> tuple:
    """The seatings of none, shaped as ``policies``' stack: the play driver then deals
    only."""
    return tuple(np.zeros((0, *a.shape), dtype=a.dtype) if isinstance(a, np.ndarray) else a
                 for a in policies)


def deal_rows(rules, policies: tuple, streams: np.ndarray, chunk: int, n: int) -> np.ndarray:
    """The deal rows of ``n`` hands the play driver deals (chunk ``c`` from ``streams[c]``)
    and plays under no seating: the deals alone, as every seating would get them."""
    deals = rules.deal_rows(n)
    play_rows(rules, no_seating(policies), streams, chunk, n, deals=deals, source="kept")
    return deals


def play_rows(rules, seatings: tuple, streams: np.ndarray, chunk: int, n: int,
              **setup: Any) -> np.ndarray:
    """Result rows ``[n, seatings, width]`` of ``n`` hands played by the play driver, chunk
    ``c`` from ``streams[c]`` (``setup``: the driver's ``deals``, ``source``, ``paired``,
    ``log``)."""
    out = rules.result_rows(n, seatings[0].shape[0])
    drivers.play(rules, seatings, out, streams=streams, chunk_size=chunk, n_hands=n, **setup)
    return out


def given_results(bridge, seatings: tuple, states: list, preset: str, seed: int,
                  chunk: int = 64) -> np.ndarray:
    """Each seat's returns (int64[n, seats]) of the engine hands ``states`` (dealt, nothing
    played) played whole by the play driver under ``seatings`` (one seating), through the
    game's :class:`~analyzer.core.game.KernelBridge`; ``chunk`` hands a random stream, the
    streams drawn from ``seed``."""
    deals = np.stack([bridge.deal_row(st) for st in states])
    n = len(deals)
    rows = play_rows(bridge.rules(preset), seatings, states_from_seed(seed, -(-n // chunk)),
                     chunk, n, deals=deals, source="given")[:, 0]
    return np.array([bridge.returns(r) for r in rows], dtype=np.int64)
