"""Duplicate tournaments: the same deals played with every seating of the policies.

Each deal is played once per seating, so every policy holds every hand in every seat and the
luck of the deal cancels. All seatings of a deal share one random stream (common random
numbers). The deal is the unit of the sample: a policy's score on a deal is its mean points
per seat-hand over the seatings, and confidence intervals are taken across deals.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import permutations, product
from typing import Any

import numba
import numpy as np

from kernels.rng import states_from_seed
from kernels.xianniu.game import R_PTS0
from kernels.xianniu.hand import pimc_flag
from kernels.xianniu.policies import (
    HEURISTIC_DEFAULTS,
    HEURISTIC_NAMES,
    N_HEURISTIC,
    PIMC_SAMPLES,
)

from ..core.batches import chunk_batches
from ..core.drive import play_rows
from ..core.fileio import read_json
from ..core.tournament import TournamentResult, seat_results
from .cards import N_SEATS
from .rules import Rules, get_rules
from .sim import POLICIES, POLICY_IDS, SEARCH, rule_arrays, seat_row
from .tuned import TUNED


def load_heuristic_params(path: str) -> np.ndarray:
    """A heuristic parameter vector from JSON: a tuning result (its ``tuned`` entry), an
    object of named parameters, or a list of numbers; missing names keep their defaults."""
    data = read_json(path)
    if isinstance(data, dict) and "tuned" in data:
        data = data["tuned"]
    vec = HEURISTIC_DEFAULTS.copy()
    if isinstance(data, dict):
        for key, value in data.items():
            if key not in HEURISTIC_NAMES:
                raise ValueError(f"{path}: unknown heuristic parameter {key!r} (known: "
                                 f"{', '.join(HEURISTIC_NAMES)})")
            vec[HEURISTIC_NAMES.index(key)] = _number(value, path, key)
    elif isinstance(data, list) and len(data) == N_HEURISTIC:
        vec[:] = [_number(v, path, str(i)) for i, v in enumerate(data)]
    else:
        raise ValueError(f"{path}: expected a tuning result, named parameters or "
                         f"{N_HEURISTIC} numbers")
    return vec


def _number(value: Any, path: str, key: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not np.isfinite(value):
        raise ValueError(f"{path}: parameter {key} must be a finite number, got {value!r}")
    return float(value)


def seatings(n_policies: int) -> list[tuple[int, ...]]:
    """Seatings (policy index per seat) in which every policy holds every seat equally often.

    Three policies: the 6 permutations. Two: the 6 seatings with both present (AAB, ABA, ...).
    """
    if n_policies == 3:
        return list(permutations(range(3)))
    if n_policies == 2:
        return [s for s in product(range(2), repeat=N_SEATS) if len(set(s)) == 2]
    raise ValueError(f"a tournament takes 2 or 3 policies, got {n_policies}")


def tournament(policies: str | list[str], n_deals: int, rules: str | Rules | None = None,
               seed: int = 0, heuristic_params: dict[str, np.ndarray] | None = None,
               pimc_samples: int | None = None,
               chunk_size: int | None = None,
               progress: Callable[[int], None] | None = None,
               rows: dict[str, np.ndarray] | None = None) -> TournamentResult:
    """Play ``n_deals`` deals in duplicate between 2 or 3 policies.

    ``heuristic_params`` maps a policy label to a heuristic parameter vector; a label of the
    form ``heuristic:NAME`` plays the heuristic with those parameters; ``tuned`` plays the
    heuristic and ``tuned2`` heuristic2 on the preset's tuned weights (:func:`tuned_vector`,
    heuristic2's own entries at their defaults). Deals are split into
    chunks of ``chunk_size`` (default 512, or 8 with pimc, whose deals are slow), each with
    its own random stream. ``rows`` maps a policy label to the whole parameter row it plays
    with (e.g. ``net`` with weights in training).
    """
    names = [p.strip() for p in (policies.split(",") if isinstance(policies, str) else policies)]
    if len(names) not in (2, 3):
        raise ValueError(f"a tournament takes 2 or 3 policies, got {len(names)}")
    if len(set(names)) != len(names):
        raise ValueError("the policies of a tournament must differ")
    if not isinstance(n_deals, (int, np.integer)) or n_deals < 2:
        raise ValueError(f"a tournament needs at least 2 deals, got {n_deals!r}")
    r = get_rules(rules)
    ids, vecs = [], []
    for name in names:
        base = name.lower() if name.lower() in TUNED else name.split(":", 1)[0].lower()
        if base not in POLICY_IDS:
            raise ValueError(f"unknown policy {name!r} (choose from {', '.join(POLICIES)})")
        vec = seat_row(base, r)
        if base in SEARCH and pimc_samples is not None:
            vec[PIMC_SAMPLES] = pimc_samples  # pimc and its variants alike
        if rows and name in rows:
            vec = np.asarray(rows[name], dtype=np.float64).copy()  # a row given whole
        if heuristic_params and name in heuristic_params:
            h = np.asarray(heuristic_params[name], dtype=np.float64)
            if h.shape != (N_HEURISTIC,):
                raise ValueError(f"{name}: heuristic parameters need {N_HEURISTIC} values")
            vec[:N_HEURISTIC] = h
        elif ":" in name and not (rows and name in rows):
            raise ValueError(f"no parameters given for {name!r}")
        ids.append(POLICY_IDS[base])
        vecs.append(vec)
    if chunk_size is None:
        chunk_size = 8 if POLICY_IDS["pimc"] in ids else 512
    seats = seatings(len(names))
    seat_ids = np.array([[ids[p] for p in s] for s in seats], dtype=np.int64)
    seat_params = np.array([[vecs[p] for p in s] for s in seats], dtype=np.float64)
    n_deals = int(n_deals)
    n_chunks = -(-n_deals // chunk_size)
    states = states_from_seed(seed, n_chunks)
    out = np.empty((n_deals, len(seats), N_SEATS), dtype=np.int64)
    rk = rule_arrays(r)
    seated = (seat_ids, seat_params, pimc_flag(seat_ids))
    for a, b, lo, hi in chunk_batches(n_deals, chunk_size, max(1, 4 * numba.get_num_threads())):
        played = play_rows(rk, seated, states[a:b], chunk_size, hi - lo, paired=True)
        out[lo:hi] = played[:, :, R_PTS0:R_PTS0 + N_SEATS]
        if progress is not None:
            progress(hi - lo)
    per_deal, hand_sd = seat_results(out, seats, len(names))
    meta = {"game": "xianniu", "rules": r.name, "seed": seed, "deals": n_deals,
            "seatings": len(seats),
            "hands_played": n_deals * len(seats)}
    if POLICY_IDS["pimc"] in ids:
        meta["pimc_samples"] = int(vecs[ids.index(POLICY_IDS["pimc"])][PIMC_SAMPLES])
    return TournamentResult(names, r.name, seed, n_deals, per_deal, meta, hand_sd=hand_sd)
