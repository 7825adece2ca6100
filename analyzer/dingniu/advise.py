"""Every legal action of a 顶牛 position ranked (``xianniu dingniu advise``).

Hidden deals are drawn behind the position from the seat's own view
(:mod:`analyzer.dingniu.position`); each legal action is played out by the heuristic for
every seat on the same deals and streams (PIMC), and ranked by the seat's mean points with
its 95% CI. On the first deals each action is also valued with all hands open (max-n,
:mod:`analyzer.dingniu.solver`): what not seeing the other hands costs.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from kernels.dingniu import batch as kb
from kernels.dingniu import game as kd
from kernels.rng import states_from_seed

from ..core.stats import mean_ci
from .position import Position, parse_position, sample_states
from .sim import policy_arrays, rule_arrays, state_array
from .solver import Solver
from .tiles import format_action


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


def advise(position: Any, samples: int = 200, seed: int = 0, solve_samples: int | None = None,
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
    arr = np.stack([state_array(s) for s in states])
    out = np.empty((len(states), len(legal), kd.N_RESULT), dtype=np.int64)
    kb.evaluate_actions(arr, np.array(legal, dtype=np.int64), len(legal), rule_arrays(r),
                        policy_arrays("heuristic"), states_from_seed(seed, len(states)), out)
    mine = out[:, :, kd.R_PTS + p.seat].astype(np.float64)
    if solve_samples is None:
        solve_samples = 0 if p.ends is None else min(16, len(states))
    solve_samples = max(0, min(int(solve_samples), len(states)))
    t0 = time.perf_counter()
    open_vals = np.empty((solve_samples, len(legal)))
    for i in range(solve_samples):
        solver = Solver(r)
        for j, a in enumerate(legal):
            child = states[i].clone()
            child.apply(a)
            v = child.returns() if child.is_terminal() else solver.solve(child).values
            open_vals[i, j] = v[p.seat]
    solve_time = time.perf_counter() - t0
    rows: list[dict[str, Any]] = []
    for j, a in enumerate(legal):
        row: dict[str, Any] = {"action": format_action(a), "action_id": a,
                               "pimc": mean_ci(mine[:, j]).as_dict()}
        if solve_samples:
            row["open_hands"] = mean_ci(open_vals[:, j]).as_dict()
        rows.append(row)
    order = sorted(range(len(legal)), key=lambda j: -rows[j]["pimc"]["value"])
    best = order[0]
    for j in order[1:]:  # paired on the same deals: how far behind the best each action is
        rows[j]["behind_best"] = mean_ci(mine[:, best] - mine[:, j]).as_dict()
    result: dict[str, Any] = {"game": "dingniu", "rules": r.name, "seed": seed, "seat": p.seat,
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
