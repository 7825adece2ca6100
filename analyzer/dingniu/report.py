"""The 顶牛 tables for the strategy report, as tidy DataFrames (seed and n stamped in attrs).

``report_data()`` is what a report section renders; it computes, it does not draw.
"""

from __future__ import annotations

import random
import time
from typing import Any

import numpy as np
import pandas as pd

from kernels import dingniu as kd
from kernels.rng import states_from_seed

from ..stats import mean_ci
from .analysis import odds, simulate, tournament
from .engine import new_hand
from .rules import N_KINDS, N_SEATS, DingniuRules, get_rules
from .sim import heuristic_matrix, policy_ids, rule_arrays, state_array
from .solver import Solver


def _frame(rows: list[dict[str, Any]], **meta: Any) -> pd.DataFrame:
    df = pd.DataFrame(rows)
    df.attrs.update(meta)
    return df


def open_hands_vs_heuristic(n_deals: int = 40, moves: int = 4, seed: int = 0,
                            rules: str | DingniuRules | None = None) -> pd.DataFrame:
    """Per seat: points when all play the heuristic from move ``moves`` on, beside the
    open-hand max-n value of the same positions (first ``moves`` by the heuristic)."""
    r = get_rules(rules)
    tiles, params = rule_arrays(r)
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    heur, solved, secs = [], [], []
    pol, hps = policy_ids("heuristic"), heuristic_matrix()
    streams = states_from_seed(seed, n_deals * 2)
    acts = np.empty(64, dtype=np.int64)
    res = np.empty(kd.N_RESULT, dtype=np.int64)
    la = np.empty((1, 2), dtype=np.int64)
    ll = np.empty((1, 2), dtype=np.uint64)
    i = 0
    while len(heur) < n_deals and i < 2 * n_deals:
        deck = [k for k in range(N_KINDS) for _ in range(int(r.counts[k]))]
        random.Random(int(rng.integers(2**63))).shuffle(deck)
        st = new_hand([[deck[6 * s:6 * s + 6].count(k) for k in range(N_KINDS)]
                       for s in range(N_SEATS)], r)
        for _ in range(moves):  # the opening, by the heuristic
            if st.is_terminal():
                break
            s = state_array(st)
            n = kd.legal(s, tiles, params, acts)
            st.apply(int(kd.heuristic_action(s, tiles, hps[0], acts, n)))
        stream = streams[i].copy()
        i += 1
        if st.is_terminal():
            continue
        s = state_array(st)
        kd.play_out(s, tiles, params, pol, hps, stream, res, la, ll)
        t0 = time.perf_counter()
        solved.append(Solver(r).solve(st).values)
        secs.append(time.perf_counter() - t0)
        heur.append(res[kd.R_PTS:kd.R_PTS + N_SEATS].tolist())
    h, o = np.array(heur, dtype=float), np.array(solved, dtype=float)
    rows = []
    for seat in range(N_SEATS):
        eh, eo, ed = mean_ci(h[:, seat]), mean_ci(o[:, seat]), mean_ci(o[:, seat] - h[:, seat])
        rows.append({"seat": seat, "heuristic": eh.value, "heuristic_low": eh.low,
                     "heuristic_high": eh.high, "open_hands": eo.value, "open_low": eo.low,
                     "open_high": eo.high, "difference": ed.value, "diff_low": ed.low,
                     "diff_high": ed.high, "n": eh.n})
    return _frame(rows, seed=seed, moves=moves, rules=r.name,
                  solver_seconds_per_position=float(np.mean(secs)) if secs else float("nan"))


def report_data(n_hands: int = 200_000, n_deals: int = 20_000, n_odds: int = 200_000,
                n_solved: int = 40, seed: int = 0,
                rules: str | DingniuRules | None = None) -> dict[str, pd.DataFrame]:
    """The 顶牛 section's tables: seats by policy, the duplicate tournament, deal odds and
    open hands against the heuristic. Every row carries its n and 95% CI bounds."""
    r = get_rules(rules)
    seat_rows = []
    for policy in ("random", "heuristic"):
        sim = simulate(n_hands, policy, seed, r)
        for s in sim["seats"]:
            seat_rows.append({"policy": policy, "seat": s["seat"], "name": s["name"],
                              **{f"points_{k}": v for k, v in s["points"].items()},
                              **{f"p_win_{k}": v for k, v in s["p_win"].items()}})
        seat_rows[-1]["p_suan"] = sim["p_suan"]["value"]
    tr = tournament("heuristic,random", n_deals, seed, r)
    od = odds(n_odds, seed, r)
    odds_rows = [{"feature": f["feature"], "exact": f["exact"],
                  **{f"mc_{k}": v for k, v in f["monte_carlo"].items()}} for f in od["features"]]
    return {"seats": _frame(seat_rows, seed=seed, hands=n_hands, rules=r.name),
            "tournament": tr.differences(),
            "odds": _frame(odds_rows, seed=seed, deals=n_odds, rules=r.name),
            "open_hands": open_hands_vs_heuristic(n_solved, 4, seed, r)}
