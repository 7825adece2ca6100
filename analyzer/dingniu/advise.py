"""Every legal action of a 顶牛 position ranked (``xianniu dingniu advise``).

Hidden deals are drawn behind the position from the seat's own view
(:mod:`analyzer.dingniu.position`); each legal action is played out by the heuristic for
every seat on the same deals and streams (PIMC), and ranked by the seat's mean points with
its 95% CI. On the first deals each action is also valued with all hands open (max-n,
:mod:`analyzer.dingniu.solver`): what not seeing the other hands costs.

:func:`advise_record` answers the same for a game record stopped where a seat must choose
(the position that seat saw), in the shape the review of a hand reads
(:mod:`analyzer.core.review`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from kernels import drivers
from kernels.dingniu import game as kd
from kernels.rng import states_from_seed

from ..core.stats import mean_ci
from ..core.valued import ActionValue
from .engine import State
from .position import Position, parse_position, position_of, sample_states
from .records import action_to_json, replay
from .sim import policy_arrays, rule_arrays, state_array
from .solver import Solver
from .tiles import KOU, LEAD, format_action, split_action

UNIT = "points"  # of the acting seat's returns, per hand
# The review's labels (analyzer.core.review): the loss whose 95% CI lies above this many
# points; a hand pays out +6 −1 −2 −3, so one place in the order is worth 1 to 3 points.
THRESHOLDS = {"inaccuracy": 0.3, "mistake": 1.0, "blunder": 3.0}
DEFAULT_SAMPLES = 400  # hidden deals an action is played out on
POLICY = "heuristic"  # how every seat plays on in the play-outs
PLAY_ON = ("heuristic", "tuned", "pimc")  # what else they may play on with
PUZZLE_MARGIN = 1.0  # points: how far a puzzle's answer is ahead (analyzer.core.puzzles)
PUZZLE_BUDGET = {"samples": DEFAULT_SAMPLES}  # the advice a puzzle is mined with
PUZZLE_SEARCH = {"policy": "pimc", "samples": 100}  # ... and checked with: the search player


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
           rules: str | None = None, policy: str = POLICY) -> dict[str, Any]:
    """Rank the legal actions of a position by mean points over sampled hidden deals.

    Each action is played out by ``policy`` (:data:`PLAY_ON`; the heuristic by default)
    for every seat on the same deals and streams (PIMC). On the first ``solve_samples``
    deals each action is also valued with all hands open (max-n); ``clairvoyant`` is the
    mean of the best open-hand action per deal, and the gap to the best single action is
    what not seeing the other hands costs.
    """
    p = position if isinstance(position, Position) else parse_position(position, rules)
    if isinstance(samples, bool) or not isinstance(samples, int) or not 2 <= samples <= 100_000:
        raise ValueError(f"samples must be 2–100000, got {samples!r}")
    if policy not in PLAY_ON:
        raise ValueError(f"unknown play-on policy {policy!r} (choose {', '.join(PLAY_ON)})")
    states = sample_states(p, samples, seed)
    legal = states[0].legal_actions()
    r = p.rules
    arr = np.stack([state_array(s) for s in states])
    kr = rule_arrays(r)
    out = kr.result_rows(len(states), len(legal))
    drivers.paired(kr, policy_arrays(policy, r, known=PLAY_ON), arr, p.seat,
                   np.array(legal, dtype=np.int64),
                   out, streams=states_from_seed(seed, len(states)))
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


def decision_kind(state: State, action: int) -> str:
    """The kind of decision ``action`` answers: lead (the first tile), play (on an open
    end) or 扣 (no tile fits: which one goes face down).

    >>> [decision_kind(None, a) for a in (3 * 8 + LEAD, 3 * 8 + 5, 3 * 8 + KOU)]
    ['lead', 'play', '扣']
    """
    slot = split_action(action)[1]
    return "lead" if slot == LEAD else "扣" if slot == KOU else "play"


@dataclass(frozen=True)
class Advice:
    """:func:`advise_record`'s answer: every legal action valued, best first, and whether
    the best is separated from the second (the 95% CI of their paired difference excludes
    0; also true with one legal action)."""

    rules: str
    seat: int
    position: Any  # the position the seat saw, as :func:`advise` reads it
    samples: int
    policy: str
    seed: int
    actions: tuple[ActionValue, ...]
    separated: bool

    @property
    def best(self) -> ActionValue:
        return self.actions[0]

    def to_json(self) -> dict[str, Any]:
        """JSON-ready, in the shape every game's advice has (the review and the puzzles
        read it)."""
        return {"game": "dingniu", "rules": self.rules, "seed": self.seed, "seat": self.seat,
                "position": self.position, "samples": self.samples, "policy": self.policy,
                "actions": [a.to_json() for a in self.actions], "best": self.best.to_json(),
                "separated": self.separated}


def advise_record(record: Any, *, samples: int = DEFAULT_SAMPLES, seed: int = 0,
                  solve_samples: int = 0, taken: dict[str, Any] | None = None,
                  policy: str = POLICY) -> Advice:
    """Every legal action where ``record`` stops, ranked as :func:`advise` ranks the
    position the seat to act sees there (its own tiles and 扣, the public moves).

    ``actions``: best first, each an :class:`~analyzer.core.valued.ActionValue` of one
    record entry (``diff``: the paired difference best − this action, points);
    ``separated``: the best's lead over the second excludes 0 at 95%. Every legal action
    is valued, so ``taken`` (the record's own action, from the review) needs nothing more.
    ValueError on a bad record or a finished hand.
    """
    st = record if isinstance(record, State) else replay(record)
    if st.is_terminal():
        raise ValueError("the hand is over: there is no decision to advise on")
    seat = st.current_player()
    res = advise(position_of(st.rules, st.dealt, st.history, seat), samples, seed,
                 solve_samples, policy=policy)
    rows = []
    for row in res["actions"]:
        pimc = row["pimc"]
        entry = action_to_json(seat, row["action_id"])
        rows.append(ActionValue(entry, (entry,), pimc["value"], (pimc["low"], pimc["high"]),
                                pimc["n"], row.get("behind_best", {"value": 0.0, "low": 0.0,
                                                                   "high": 0.0,
                                                                   "n": pimc["n"]})))
    separated = len(rows) == 1 or rows[1].diff["low"] > 0
    return Advice(res["rules"], seat, res["position"], res["samples"], policy, seed,
                  tuple(rows), bool(separated))
