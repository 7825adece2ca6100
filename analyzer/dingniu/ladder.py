"""The 顶牛 policy ladder and the cost of hidden information, per preset.

- :func:`ladder`: duplicate tournaments heuristic − random, tuned − heuristic and
  pimc − tuned; each difference in points per hand with its 95% CI over deals.
- :func:`hidden_cost`: at decision points late in a hand (few tiles left in the hands, so
  the open-hand max-n value of every legal action is exact and quick), what each policy's
  choice loses against the best action with every hand open: the open-hand value of the
  best action minus that of the chosen one, for the seat to act, with its 95% CI.
- :func:`search_seats`: each seat's points with every seat on a fast player and with every
  seat on the search over it, each deal played both ways: how much the seat findings move
  under the strongest player.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from kernels.dingniu import game as kd
from kernels.dingniu import pimc as kp
from kernels.dingniu import policies as kpol
from kernels.rng import states_from_seed

from ..core.stats import mean_ci, proportion_ci
from ..core.tournament import SKILL_COLUMNS
from .rules import N_SEATS, DingniuRules, get_rules
from .sim import POLICY_IDS, policy_ids, policy_vector, rule_arrays
from .tournament import play_seatings, tournament

RUNGS = (("heuristic", "random"), ("tuned", "heuristic"), ("pimc", "tuned"))
COST_POLICIES = ("heuristic", "tuned", "pimc")


def ladder(rules: str | DingniuRules | None = None, deals: int = 20_000,
           pimc_deals: int = 2_000, seed: int = 0, pimc_samples: int | None = None,
           pimc_leaf: int | None = None) -> pd.DataFrame:
    """One row per rung A − B: the difference, its 95% CI, deals and the seed (spawned
    per rung from ``seed``); pimc rungs play ``pimc_deals`` deals, the others ``deals``."""
    r = get_rules(rules)
    rows = []
    for (a, b), s in zip(RUNGS, rung_seeds(seed)):
        n = pimc_deals if "pimc" in (a, b) else deals
        d = tournament(f"{a},{b}", n, s, r, pimc_samples, pimc_leaf).differences().iloc[0]
        rows.append({"rules": r.name, "a": a, "b": b, "diff": d["diff"], "ci_low": d["ci_low"],
                     "ci_high": d["ci_high"], "n_deals": int(d["n_deals"]),
                     **{k: d[k] for k in SKILL_COLUMNS}, "seed": s,
                     "command": f"xianniu dingniu tournament --policies {a},{b} --deals {n} "
                                f"--rules {r.name} --seed {s}"})
    return pd.DataFrame(rows)


SEARCH = "pimc"  # the strongest search player


def search_seats(n_deals: int, seed: int, rules: str | DingniuRules | None = None,
                 player: str = "tuned", search: str = SEARCH) -> pd.DataFrame:
    """Per seat: its points per hand with every seat on ``player`` and with every seat on
    ``search``, each of ``n_deals`` deals played both ways from one stream, and the paired
    difference search − player, each with its 95% CI over deals (n = deals)."""
    r = get_rules(rules)
    names = [player, search]
    ids = policy_ids(names * 2, POLICY_IDS).tolist()[:2]  # checks the names
    vecs = [policy_vector(p, r) for p in names]
    points = play_seatings(ids, vecs, [(0,) * N_SEATS, (1,) * N_SEATS], int(n_deals), seed, r)
    rows = []
    for seat in range(N_SEATS):
        a, b = points[:, 0, seat], points[:, 1, seat]
        row: dict[str, Any] = {"rules": r.name, "seat": seat, "player": player,
                               "search": search}
        for key, x in (("player", a), ("search", b), ("diff", b - a)):
            e = mean_ci(x)
            row.update({f"{key}_value": e.value, f"{key}_low": e.low, f"{key}_high": e.high})
        row.update({"n": int(n_deals), "seed": seed})
        rows.append(row)
    return pd.DataFrame(rows)


def rung_seeds(seed: int) -> list[int]:
    """The tournament seed of each rung, spawned from ``seed``."""
    return [int(c.generate_state(1)[0]) for c in np.random.SeedSequence(seed).spawn(len(RUNGS))]


def decision_points(r: DingniuRules, n: int, seed: int | np.random.SeedSequence, lo: int = 8,
                    hi: int = 14) -> np.ndarray:
    """``n`` kernel states where the seat to act has two or more legal actions and at most
    T tiles are left in the hands (T uniform in ``lo``–``hi`` per hand), reached by the tuned
    heuristic for every seat from uniform deals (deals and T from two spawned streams)."""
    tiles, params = rule_arrays(r)
    hp = policy_vector("tuned", r)
    root = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    deal_seq, limit_seq = root.spawn(2)
    rng_t = np.random.default_rng(limit_seq)
    streams = states_from_seed(deal_seq, 1)[0].copy()
    acts = np.empty(64, dtype=np.int64)
    scratch = np.empty(64, dtype=np.int64)
    state = np.empty(kd.STATE_LEN, dtype=np.int64)
    out: list[np.ndarray] = []
    while len(out) < n:
        kd.deal(streams, tiles, state)
        limit = int(rng_t.integers(lo, hi + 1))
        while state[kd.S_OVER] == 0:
            k = kd.legal(state, tiles, params, acts)
            if k > 1 and kp.tiles_in_hands(state) <= limit:
                out.append(state.copy())
                break
            a = acts[0] if k == 1 else kpol.heuristic_action(state, tiles, params, hp, acts, k)
            kd.apply(state, tiles, params, a, scratch)
    return np.array(out)


def hidden_cost(rules: str | DingniuRules | None = None, n: int = 2_000, seed: int = 0,
                pimc_samples: int | None = None, pimc_leaf: int | None = None) -> pd.DataFrame:
    """Per policy: mean open-hand loss of its choice against the best open-hand action
    (points, ≥ 0), P(it picks an open-hand best action), n decision points, 95% CIs."""
    r = get_rules(rules)
    tiles, params = rule_arrays(r)
    point_seq, pimc_seq = np.random.SeedSequence(seed).spawn(2)
    states = decision_points(r, n, point_seq)
    vecs = {p: policy_vector(p, r, pimc_samples, pimc_leaf) for p in COST_POLICIES}
    streams = states_from_seed(pimc_seq, len(states))  # one per decision point
    loss = {p: np.empty(len(states)) for p in COST_POLICIES}
    acts = np.empty(64, dtype=np.int64)
    for i, s in enumerate(states):
        k = kd.legal(s, tiles, params, acts)
        values = dict(zip(acts[:k].tolist(), _open_values(s, tiles, params, acts, k)))
        best = max(values.values())
        for p in COST_POLICIES:
            if p == "pimc":
                a = kp.pimc_action(s, tiles, params, vecs[p], streams[i].copy(), acts, k)
            else:
                a = kpol.heuristic_action(s, tiles, params, vecs[p], acts, k)
            loss[p][i] = best - values[int(a)]
    rows = []
    for p in COST_POLICIES:
        e = mean_ci(loss[p])
        hit = proportion_ci(int((loss[p] == 0).sum()), len(states))
        rows.append({"rules": r.name, "policy": p, "loss": e.value, "loss_low": e.low,
                     "loss_high": e.high, "p_best": hit.value, "p_best_low": hit.low,
                     "p_best_high": hit.high, "n": e.n, "seed": seed})
    return pd.DataFrame(rows)


def _open_values(s: np.ndarray, tiles: np.ndarray, params: np.ndarray, acts: np.ndarray,
                 k: int) -> list[int]:
    """The open-hand (max-n) points of the seat to act after each of ``acts[:k]``."""
    seat = int(s[kd.S_TURN])
    child = np.empty_like(s)
    scratch = np.empty(64, dtype=np.int64)
    res = np.empty(kd.N_RESULT, dtype=np.int64)
    vals = np.empty(kd.N_SEATS, dtype=np.int64)
    out = []
    for j in range(k):
        child[:] = s
        kd.apply(child, tiles, params, acts[j], scratch)
        if child[kd.S_OVER]:
            kd.settle(child, tiles, params, res)
            out.append(int(res[kd.R_PTS + seat]))
        else:
            kp.maxn(child, tiles, params, vals)
            out.append(int(vals[seat]))
    return out


def summary(rules: str | DingniuRules | None, deals: int, pimc_deals: int, positions: int,
            seed: int) -> dict[str, Any]:
    """The ladder and the hidden-information cost of one preset as JSON-ready rows."""
    lad_seed, cost_seed = (int(c.generate_state(1)[0])
                           for c in np.random.SeedSequence(seed).spawn(2))
    return {"ladder": ladder(rules, deals, pimc_deals, lad_seed).to_dict("records"),
            "hidden_cost": hidden_cost(rules, positions, cost_seed).to_dict("records")}
