"""顶牛 questions answered with numbers: batch statistics, deal odds, duplicate tournaments
and the best play of a position. Every estimate carries n and a 95% CI (analyzer.core.stats)."""

from __future__ import annotations

import time
from itertools import product
from math import comb
from typing import Any

import numpy as np

from kernels.dingniu import game as kd
from kernels.dingniu import pimc as kp
from kernels.rng import states_from_seed

from ..core.stats import mean_ci, proportion_ci
from ..core.tournament import TournamentResult
from .position import Position, parse_position, sample_states
from .rules import N_KINDS, N_SEATS, DingniuRules, get_rules
from .sim import POLICIES, heuristic_matrix, policy_ids, policy_vector, rule_arrays, state_array
from .solver import Solver, _copy
from .tiles import format_action

SEAT_NAMES = ("头牌", "二牌", "三牌", "末牌")


def simulate(n: int, policies: str = "heuristic", seed: int = 0,
             rules: str | DingniuRules | None = None) -> dict[str, Any]:
    """Mean points and P(win) per seat, P(算帐) and its success rate, from ``n`` hands (the
    batch runner's numbers: the same for any number of threads or workers)."""
    from ..core.runner import RunSpec, run

    return run(RunSpec("dingniu", n, get_rules(rules).name, policies, seed)).as_json()


# -- odds of deal features ---------------------------------------------------------------------

def _features(r: DingniuRules) -> dict[str, Any]:
    """Features of one hand (counts per kind) as functions of a [.., 13] count array."""
    hongba, hongshi = 4, 3
    single = ~r.double
    six = r.match[:, 6]

    def barred(h: np.ndarray) -> np.ndarray:  # some held tile the 头牌 may not lead (R3)
        out = np.zeros(h.shape[:-1], dtype=bool)
        for k in range(N_KINDS):
            a, b = r.ends[k]
            sel = single & (r.match[:, a] | r.match[:, b])
            outside = ((r.counts - h) * sel).sum(axis=-1)
            out |= (h[..., k] > 0) & (outside == 0)
        return out

    return {
        "both 红八 (led together, R4)": lambda h: h[..., hongba] == 2,
        "both 红十": lambda h: h[..., hongshi] == 2,
        "a lead barred by 不能拉三家 (R3)": barred,
        "3 or more 横牌 (doubles)": lambda h: (h * r.double).sum(axis=-1) >= 3,
        "no tile with a 六 end": lambda h: (h * six).sum(axis=-1) == 0,
        "60 or more pips": lambda h: (h * r.pips).sum(axis=-1) >= 60,
    }


def _all_hands(r: DingniuRules) -> tuple[np.ndarray, np.ndarray]:
    """Every distinct six-tile hand and its probability (exact, by counting)."""
    hands, weights = [], []
    for h in product(*(range(int(c) + 1) for c in r.counts)):
        if sum(h) == r.hand_size:
            hands.append(h)
            weights.append(np.prod([comb(int(c), x) for c, x in zip(r.counts, h)]))
    w = np.array(weights, dtype=np.float64)
    return np.array(hands, dtype=np.int64), w / comb(int(r.counts.sum()), r.hand_size)


def odds(n: int, seed: int = 0, rules: str | DingniuRules | None = None) -> dict[str, Any]:
    """P(feature) of the 头牌's hand: exact by counting, beside a Monte Carlo estimate."""
    r = get_rules(rules)
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"the number of deals must be a positive integer, got {n!r}")
    hands, prob = _all_hands(r)
    tiles, _ = rule_arrays(r)
    deals = np.empty((int(n), N_SEATS, N_KINDS), dtype=np.int64)
    kd.deal_many(states_from_seed(seed, -(-int(n) // 4096)), 4096, int(n), tiles, deals)
    rows = []
    for name, f in _features(r).items():
        exact = float(prob[f(hands)].sum())
        mc = proportion_ci(int(f(deals[:, 0]).sum()), int(n))
        rows.append({"feature": name, "exact": exact, "monte_carlo": mc.as_dict()})
    return {"game": "dingniu", "rules": r.name, "seed": seed, "deals": int(n),
            "distinct_hands": len(hands), "features": rows}


# -- duplicate tournament ----------------------------------------------------------------------

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
    ids = policy_ids(names * 2, POLICIES).tolist()[:2]  # checks the names
    if isinstance(n_deals, bool) or not isinstance(n_deals, (int, np.integer)) or n_deals < 2:
        raise ValueError(f"a tournament needs at least 2 deals, got {n_deals!r}")
    for what, v, lo in (("pimc samples", pimc_samples, 1), ("pimc leaf", pimc_leaf, 0)):
        if v is not None and (isinstance(v, bool) or not isinstance(v, int) or v < lo):
            raise ValueError(f"{what} must be an integer ≥ {lo}, got {v!r}")
    r = get_rules(rules)
    seats = seatings()
    vecs = [policy_vector(n, r, pimc_samples, pimc_leaf) for n in names]
    n = int(n_deals)
    with_pimc = "pimc" in names
    per_deal = duplicate(ids, vecs, n, seed, r)
    meta = {"game": "dingniu", "rules": r.name, "seed": seed, "deals": n,
            "seatings": len(seats), "hands_played": n * len(seats)}
    if with_pimc:
        v = vecs[names.index("pimc")]
        meta["pimc_samples"], meta["pimc_leaf"] = int(v[kp.H_SAMPLES]), int(v[kp.H_LEAF])
    return TournamentResult(names, r.name, seed, n, per_deal, meta)


def duplicate(ids: list[int], vecs: list[np.ndarray], n: int, seed: int,
              r: DingniuRules) -> np.ndarray:
    """``[n, 2]``: each policy's mean points per seat-hand on each of ``n`` deals, played
    under the 14 seatings (policy ids ``ids``, seat vectors ``vecs``)."""
    tiles, params = rule_arrays(r)
    seats = seatings()
    seat_ids = np.array([[ids[p] for p in s] for s in seats], dtype=np.int64)
    seat_hps = np.array([[vecs[p] for p in s] for s in seats], dtype=np.float64)
    with_pimc = kp.PIMC in ids
    chunk = 4 if with_pimc else 256
    out = np.empty((n, len(seats), N_SEATS), dtype=np.int64)
    run = kp.duplicate_chunks if with_pimc else kd.duplicate_chunks
    run(states_from_seed(seed, -(-n // chunk)), chunk, n, tiles, params, seat_ids, seat_hps, out)
    per_deal = np.zeros((n, 2))
    for i in range(2):
        mask = np.array([[p == i for p in s] for s in seats])
        per_deal[:, i] = (out * mask).sum(axis=(1, 2)) / mask.sum()
    return per_deal


# -- best play ---------------------------------------------------------------------------------

def _best(rows: list[dict[str, Any]], order: list[int]) -> dict[str, Any]:
    """The recommended action: the best by PIMC mean and, when there is another, its margin
    over the next best (paired on the same deals)."""
    top = rows[order[0]]
    best = {"action": top["action"], "action_id": top["action_id"], "pimc": top["pimc"]}
    if len(order) > 1:
        runner_up = rows[order[1]]
        best["next_best"] = runner_up["action"]
        best["margin"] = runner_up["behind_best"]
    return best


def best_play(position: Any, samples: int = 200, seed: int = 0, solve_samples: int | None = None,
              rules: str | None = None) -> dict[str, Any]:
    """Rank the legal actions of a position by mean points over sampled hidden deals.

    Each action is played out by the heuristic for every seat on the same deals and streams
    (PIMC). On the first ``solve_samples`` deals each action is also valued with all hands
    open (max-n); ``clairvoyant`` is the mean of the best open-hand action per deal, and the
    gap to the best single action is what not seeing the other hands costs.
    """
    p = position if isinstance(position, Position) else parse_position(position, rules)
    if isinstance(samples, bool) or not isinstance(samples, int) or not 2 <= samples <= 100_000:
        raise ValueError(f"samples must be 2–100000, got {samples!r}")
    states = sample_states(p, samples, seed)
    legal = states[0].legal_actions()
    r = p.rules
    tiles, params = rule_arrays(r)
    arr = np.stack([state_array(s) for s in states])
    out = np.empty((len(states), len(legal), kd.N_RESULT), dtype=np.int64)
    kd.evaluate_actions(arr, np.array(legal, dtype=np.int64), len(legal), tiles, params,
                        policy_ids("heuristic"), heuristic_matrix(),
                        states_from_seed(seed, len(states)), out)
    mine = out[:, :, kd.R_PTS + p.seat].astype(np.float64)
    if solve_samples is None:
        solve_samples = 0 if p.ends is None else min(16, len(states))
    solve_samples = max(0, min(int(solve_samples), len(states)))
    t0 = time.perf_counter()
    open_vals = np.empty((solve_samples, len(legal)))
    for i in range(solve_samples):
        solver = Solver(r)
        for j, a in enumerate(legal):
            child = _copy(states[i])
            child.apply(a)
            v = child.returns() if child.is_terminal() else solver.solve(child).values
            open_vals[i, j] = v[p.seat]
    solve_time = time.perf_counter() - t0
    rows = []
    for j, a in enumerate(legal):
        row = {"action": format_action(a), "action_id": a, "pimc": mean_ci(mine[:, j]).as_dict()}
        if solve_samples:
            row["open_hands"] = mean_ci(open_vals[:, j]).as_dict()
        rows.append(row)
    order = sorted(range(len(legal)), key=lambda j: -rows[j]["pimc"]["value"])
    best = order[0]
    for j in order[1:]:  # paired on the same deals: how far behind the best each action is
        rows[j]["behind_best"] = mean_ci(mine[:, best] - mine[:, j]).as_dict()
    result = {"game": "dingniu", "rules": r.name, "seed": seed, "seat": p.seat,
              "position": p.describe(), "samples": len(states),
              "best": _best(rows, order), "actions": [rows[j] for j in order]}
    if solve_samples:
        chosen = int(np.argmax(open_vals.mean(axis=0)))
        result["open_hands"] = {
            "samples": solve_samples, "seconds": solve_time,
            "seconds_per_deal": solve_time / solve_samples,
            "clairvoyant": mean_ci(open_vals.max(axis=1)).as_dict(),
            "best_single_action": format_action(legal[chosen]),
            "best_single_action_value": mean_ci(open_vals[:, chosen]).as_dict(),
            "cost_of_hidden_information": mean_ci(open_vals.max(axis=1)
                                                  - open_vals[:, chosen]).as_dict(),
        }
    return result
