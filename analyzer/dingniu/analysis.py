"""顶牛 analyses: the batch statistics of a policy (as JSON-ready data) and open hands
against hidden ones. Every estimate carries n and a 95% CI (analyzer.core.stats).

The other studies have modules of their own: deal odds (:mod:`.odds`), the duplicate
tournament (:mod:`.tournament`), the policy ladder and the cost of hidden information
(:mod:`.ladder`), the ranked actions of a position (:mod:`.advise`).
"""

from __future__ import annotations

import random
import time
from typing import Any

import numpy as np
import pandas as pd

from kernels.dingniu import game as kd
from kernels.dingniu import pimc as kp
from kernels.dingniu import policies as kpol
from kernels.rng import states_from_seed

from ..core.stats import mean_ci
from .engine import new_hand
from .rules import N_KINDS, N_SEATS, DingniuRules, get_rules
from .sim import heuristic_matrix, play_rows, policy_arrays, rule_arrays, seatings_of, state_array
from .solver import Solver


def simulate(n: int, policies: str = "heuristic", seed: int = 0,
             rules: str | DingniuRules | None = None) -> dict[str, Any]:
    """Mean points and P(win) per seat, P(算帐) and its success rate, from ``n`` hands (the
    batch runner's numbers: the same for any number of threads or workers)."""
    from ..core.runner import RunSpec, run

    return run(RunSpec("dingniu", n, get_rules(rules).name, policies, seed)).as_json()


def frame(rows: list[dict[str, Any]], **meta: Any) -> pd.DataFrame:
    """A table of ``rows`` with ``meta`` (seed, n, rules …) stamped in its attrs."""
    df = pd.DataFrame(rows)
    df.attrs.update(meta)
    return df


def open_hands_vs_heuristic(n_deals: int = 40, moves: int = 4, seed: int = 0,
                            rules: str | DingniuRules | None = None) -> pd.DataFrame:
    """Per seat: points when all play the heuristic, and when all play pimc, from move
    ``moves`` on, beside the open-hand max-n value of the same positions (first ``moves``
    by the heuristic); both play-outs start from the same stream."""
    r = get_rules(rules)
    tiles, params = rule_arrays(r)
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    positions: list[np.ndarray] = []
    solved: list[tuple[int, ...]] = []
    secs: list[float] = []
    heuristic = policy_arrays("heuristic")
    hps = heuristic[1]
    all_pimc = (np.full(N_SEATS, kp.PIMC, dtype=np.int64),
                heuristic_matrix(policies="pimc", rules=r))
    acts = np.empty(64, dtype=np.int64)
    i = 0
    while len(positions) < n_deals and i < 2 * n_deals:
        deck = [k for k in range(N_KINDS) for _ in range(int(r.counts[k]))]
        random.Random(int(rng.integers(2**63))).shuffle(deck)
        st = new_hand([[deck[6 * s:6 * s + 6].count(k) for k in range(N_KINDS)]
                       for s in range(N_SEATS)], r)
        for _ in range(moves):  # the opening, by the heuristic
            if st.is_terminal():
                break
            s = state_array(st)
            n = kd.legal(s, tiles, params, acts)
            st.apply(int(kpol.heuristic_action(s, tiles, params, hps[0], acts, n)))
        i += 1
        if st.is_terminal():
            continue
        positions.append(state_array(st))
        t0 = time.perf_counter()
        solved.append(Solver(r).solve(st).values)
        secs.append(time.perf_counter() - t0)
    # both seatings play each position on one stream of its own (paired)
    played = play_rows(rule_arrays(r), seatings_of(heuristic, all_pimc),
                     states_from_seed(seed, len(positions)), 1, len(positions),
                     deals=np.array(positions).reshape(len(positions), kd.STATE_LEN),
                     source="position", paired=True)
    h, p = (played[:, j, kd.R_PTS:kd.R_PTS + N_SEATS].astype(float) for j in range(2))
    o = np.array(solved, dtype=float)
    rows = []
    for seat in range(N_SEATS):
        eh, eo, ed = mean_ci(h[:, seat]), mean_ci(o[:, seat]), mean_ci(o[:, seat] - h[:, seat])
        ep, epd = mean_ci(p[:, seat]), mean_ci(o[:, seat] - p[:, seat])
        rows.append({"seat": seat, "heuristic": eh.value, "heuristic_low": eh.low,
                     "heuristic_high": eh.high, "pimc": ep.value, "pimc_low": ep.low,
                     "pimc_high": ep.high, "open_hands": eo.value, "open_low": eo.low,
                     "open_high": eo.high, "difference": ed.value, "diff_low": ed.low,
                     "diff_high": ed.high, "pimc_difference": epd.value,
                     "pimc_diff_low": epd.low, "pimc_diff_high": epd.high, "n": eh.n})
    return frame(rows, seed=seed, moves=moves, rules=r.name,
                 solver_seconds_per_position=float(np.mean(secs)) if secs else float("nan"))
