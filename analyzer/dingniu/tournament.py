"""The 顶牛 duplicate tournament: two policies, every deal played under the 14 seatings of
four seats that use both, all seatings of a deal from one random stream."""

from __future__ import annotations

from itertools import product

import numpy as np

from kernels.dingniu import pimc as kp
from kernels.dingniu.game import R_PTS
from kernels.rng import states_from_seed

from ..core.exploit import BestResponse, responder_seatings, seat_gains
from ..core.tournament import TournamentResult, seat_results
from .luck import PLAYER
from .rules import N_SEATS, DingniuRules, get_rules
from .sim import POLICY_IDS, play_rows, policy_ids, policy_vector, rule_arrays


def seatings() -> list[tuple[int, ...]]:
    """The 14 seatings of two policies over four seats with both present (AAAB, AABA, ...)."""
    return [s for s in product(range(2), repeat=N_SEATS) if len(set(s)) == 2]


def tournament(policies: str, n_deals: int, seed: int = 0,
               rules: str | DingniuRules | None = None, pimc_samples: int | None = None,
               pimc_leaf: int | None = None) -> TournamentResult:
    """Two policies in duplicate: every deal under all 14 mixed seatings, one stream per deal.

    Policies: ``random``, ``heuristic`` (default weights), ``tuned`` (the preset's tuned
    weights) and ``pimc`` (hidden deals sampled from its seat's view, play-outs by the tuned
    heuristic, exact max-n below ``pimc_leaf`` tiles in hand).
    """
    names = [p.strip().lower() for p in policies.split(",")]
    if len(names) != 2 or len(set(names)) != 2:
        raise ValueError("a 顶牛 tournament takes two different policies, e.g. heuristic,random")
    ids = policy_ids(names * 2, POLICY_IDS).tolist()[:2]  # checks the names
    check_sizes("a tournament", n_deals, pimc_samples, pimc_leaf)
    r = get_rules(rules)
    seats = seatings()
    vecs = [policy_vector(n, r, pimc_samples, pimc_leaf) for n in names]
    n = int(n_deals)
    per_deal, hand_sd = duplicate(ids, vecs, n, seed, r)
    meta = {"game": "dingniu", "rules": r.name, "seed": seed, "deals": n,
            "seatings": len(seats), "hands_played": n * len(seats)}
    if "pimc" in names:
        vec = vecs[names.index("pimc")]
        meta["pimc_samples"], meta["pimc_leaf"] = int(vec[kp.H_SAMPLES]), int(vec[kp.H_LEAF])
    return TournamentResult(names, r.name, seed, n, per_deal, meta, hand_sd=hand_sd)


def check_sizes(run: str, n_deals, pimc_samples, pimc_leaf) -> None:
    """ValueError unless ``n_deals`` is an integer ≥ 2 and pimc's samples (≥ 1) and leaf
    (≥ 0) are integers or None; ``run`` names what needs them."""
    if isinstance(n_deals, bool) or not isinstance(n_deals, (int, np.integer)) or n_deals < 2:
        raise ValueError(f"{run} needs at least 2 deals, got {n_deals!r}")
    for what, v, lo in (("pimc samples", pimc_samples, 1), ("pimc leaf", pimc_leaf, 0)):
        if v is not None and (isinstance(v, bool) or not isinstance(v, int) or v < lo):
            raise ValueError(f"{what} must be an integer ≥ {lo}, got {v!r}")


def duplicate(ids: list[int], vecs: list[np.ndarray], n: int, seed: int,
              r: DingniuRules) -> tuple[np.ndarray, tuple[float, ...]]:
    """``[n, 2]``: each policy's mean points per seat-hand on each of ``n`` deals, played
    under the 14 seatings (policy ids ``ids``, seat vectors ``vecs``), and the SD of one
    seat-hand's points of each (:func:`analyzer.core.tournament.seat_results`)."""
    seats = seatings()
    return seat_results(play_seatings(ids, vecs, seats, n, seed, r), seats, 2)


def play_seatings(ids: list[int], vecs: list[np.ndarray], seats: list[tuple[int, ...]],
                  n: int, seed: int, r: DingniuRules) -> np.ndarray:
    """Each seat's points ``[n, seatings, seats]`` of ``n`` deals, each played under every
    seating of ``seats`` (the policy index of each seat: ids ``ids``, vectors ``vecs``)
    from one stream."""
    seat_ids = np.array([[ids[p] for p in s] for s in seats], dtype=np.int64)
    seat_hps = np.array([[vecs[p] for p in s] for s in seats], dtype=np.float64)
    chunk = 4 if kp.PIMC in ids else 256
    rows = play_rows(rule_arrays(r), (seat_ids, seat_hps), states_from_seed(seed, -(-n // chunk)),
                     chunk, n, paired=True)
    return rows[:, :, R_PTS:R_PTS + N_SEATS]


RESPONDER = "pimc"  # the search over the player: its play-outs are the player's own


def best_response(n_deals: int, seed: int = 0, rules: str | DingniuRules | None = None,
                  player: str = PLAYER, responder: str = RESPONDER,
                  pimc_samples: int | None = None, pimc_leaf: int | None = None
                  ) -> BestResponse:
    """``responder`` alone in each seat against ``player`` in the others, less ``player``
    in that seat, on ``n_deals`` deals (:mod:`analyzer.core.exploit`), points per hand. A
    ``pimc`` responder plays its play-outs with the player's heuristic weights, so that it
    searches over the player it faces."""
    names = [player.strip().lower(), responder.strip().lower()]
    if names[0] == names[1]:
        raise ValueError("the responder must differ from the player")
    ids = policy_ids(names * 2, POLICY_IDS).tolist()[:2]  # checks the names
    check_sizes("a best response", n_deals, pimc_samples, pimc_leaf)
    r = get_rules(rules)
    vecs = [policy_vector(n, r, pimc_samples, pimc_leaf) for n in names]
    if ids[1] == kp.PIMC:  # its play-outs: the player's heuristic weights
        vecs[1][:kp.H_SAMPLES] = policy_vector(names[0], r)[:kp.H_SAMPLES]
    points = play_seatings(ids, vecs, responder_seatings(N_SEATS), int(n_deals), seed, r)
    meta = {"game": "dingniu", "seatings": N_SEATS + 1}
    if ids[1] == kp.PIMC:
        meta["pimc_samples"] = int(vecs[1][kp.H_SAMPLES])
        meta["pimc_leaf"] = int(vecs[1][kp.H_LEAF])
    return BestResponse(names[0], names[1], r.name, seed, "points", seat_gains(points), meta)
