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
from ..core.exploit import BestResponse, responder_seatings, seat_gains
from ..core.fileio import read_json
from ..core.tournament import TournamentResult, seat_results
from .cards import N_SEATS
from .defaults import ADVICE_OPPONENTS
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
    ids, vecs = policy_rows(names, r, heuristic_params, pimc_samples, rows)
    seats = seatings(len(names))
    n_deals = int(n_deals)
    out = play_seatings(ids, vecs, seats, n_deals, r, seed, chunk_size, progress)
    per_deal, hand_sd = seat_results(out, seats, len(names))
    meta = {"game": "xianniu", "rules": r.name, "seed": seed, "deals": n_deals,
            "seatings": len(seats),
            "hands_played": n_deals * len(seats)}
    if POLICY_IDS["pimc"] in ids:
        meta["pimc_samples"] = int(vecs[ids.index(POLICY_IDS["pimc"])][PIMC_SAMPLES])
    return TournamentResult(names, r.name, seed, n_deals, per_deal, meta, hand_sd=hand_sd)


def policy_rows(names: list[str], r: Rules, heuristic_params: dict[str, np.ndarray] | None = None,
                pimc_samples: int | None = None, rows: dict[str, np.ndarray] | None = None
                ) -> tuple[list[int], list[np.ndarray]]:
    """Each policy label's kernel id and parameter row (:func:`tournament`'s
    ``heuristic_params``, ``pimc_samples`` and ``rows``); ValueError naming an unknown one."""
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
    return ids, vecs


def play_seatings(ids: list[int], vecs: list[np.ndarray], seats: list[tuple[int, ...]],
                  n_deals: int, r: Rules, seed: int, chunk_size: int | None = None,
                  progress: Callable[[int], None] | None = None) -> np.ndarray:
    """Each seat's points ``[deals, seatings, seats]`` of ``n_deals`` deals, each played
    under every seating of ``seats`` (the policy index of each seat: ids ``ids``, rows
    ``vecs``) from one stream; deals in chunks of ``chunk_size`` (default 512, or 8 with a
    search, whose deals are slow), each chunk its own stream."""
    if chunk_size is None:
        chunk_size = 8 if POLICY_IDS["pimc"] in ids else 512
    seat_ids = np.array([[ids[p] for p in s] for s in seats], dtype=np.int64)
    seat_params = np.array([[vecs[p] for p in s] for s in seats], dtype=np.float64)
    states = states_from_seed(seed, -(-n_deals // chunk_size))
    out = np.empty((n_deals, len(seats), N_SEATS), dtype=np.int64)
    rk = rule_arrays(r)
    seated = (seat_ids, seat_params, pimc_flag(seat_ids))
    for a, b, lo, hi in chunk_batches(n_deals, chunk_size, max(1, 4 * numba.get_num_threads())):
        played = play_rows(rk, seated, states[a:b], chunk_size, hi - lo, paired=True)
        out[lo:hi] = played[:, :, R_PTS0:R_PTS0 + N_SEATS]
        if progress is not None:
            progress(hi - lo)
    return out


PLAYER = ADVICE_OPPONENTS  # the default player: the other seats of every query and review
RESPONDER = "pimc-net"  # the search over it: pimc whose play-outs net plays


def best_response(n_deals: int, rules: str | Rules | None = None, seed: int = 0,
                  player: str = PLAYER, responder: str = RESPONDER,
                  pimc_samples: int | None = None,
                  progress: Callable[[int], None] | None = None) -> BestResponse:
    """``responder`` alone in each seat against ``player`` in the others, less ``player``
    in that seat, on ``n_deals`` deals (:mod:`analyzer.core.exploit`), points per hand."""
    names = [player.strip().lower(), responder.strip().lower()]
    if names[0] == names[1]:
        raise ValueError("the responder must differ from the player")
    if isinstance(n_deals, bool) or not isinstance(n_deals, (int, np.integer)) or n_deals < 2:
        raise ValueError(f"a best response needs at least 2 deals, got {n_deals!r}")
    r = get_rules(rules)
    ids, vecs = policy_rows(names, r, pimc_samples=pimc_samples)
    points = play_seatings(ids, vecs, responder_seatings(N_SEATS), int(n_deals), r, seed,
                           progress=progress)
    meta = {"game": "xianniu", "seatings": N_SEATS + 1}
    if POLICY_IDS["pimc"] in ids:
        meta["pimc_samples"] = int(vecs[ids.index(POLICY_IDS["pimc"])][PIMC_SAMPLES])
    return BestResponse(names[0], names[1], r.name, seed, "points", seat_gains(points), meta)
