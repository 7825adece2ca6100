"""How the batch runner plays and counts 掀牛 hands (see :class:`analyzer.core.runner.RunSpec`)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from kernels.xianniu import batch as kb

from ..core.limits import Cost
from .result import Result
from .rules import get_rules
from .sim import CHUNK_SIZE, aggregate, play_hands, policy_arrays, policy_names, rule_arrays

AGG_SIZE = kb.AGG_SIZE
# What a unit of each command costs at the most (analyzer.core.limits): docs/bench.md's
# fastest policy on 2 threads, halved and rounded up (random hands about 1.0 M/s, deals
# 19.5 M/s); a tournament's deal is played once per seating (6), and keeps [deals, 6
# seatings, 3 seats] int64 twice and [deals, 3] float64. Re-derive them when a command's
# arrays change: too small a figure lets the out-of-memory killer in.
COSTS = {"simulate": Cost("hands", 600_000), "tournament": Cost("deals", 100_000, 320),
         "odds": Cost("deals", 12_000_000)}
__all__ = ["AGG_SIZE", "CHUNK_SIZE", "COSTS", "check", "meta", "result", "task_counts", "task_rows"]


def check(spec) -> None:
    """Refuse unknown rules or policies."""
    get_rules(spec.rules)
    policy_names(spec.policies)


def meta(spec) -> dict:
    """The rules and the policy (one name, or one per seat) of a run."""
    names = policy_names(spec.policies)
    return {"rules": get_rules(spec.rules).name,
            "policy": names[0] if len(set(names)) == 1 else ",".join(names)}


def task_counts(spec, states: np.ndarray, n: int) -> np.ndarray:
    """Aggregate counts of ``n`` hands from one stream per chunk."""
    r = get_rules(spec.rules)
    rows = play_hands(states, spec.chunk_size, n, rule_arrays(r),
                      policy_arrays(spec.policies, rules=r))
    return aggregate(rows, r.gou_min, r.ci_min)


def task_rows(spec, states: np.ndarray, n: int) -> tuple[np.ndarray, pd.DataFrame]:
    """Counts and per-hand rows: results, the deal and the hand's game record (``record``,
    JSON that ``xianniu replay`` reads). The counts are those of :func:`task_counts`."""
    from .sim import recorded_rows

    r = get_rules(spec.rules)
    df = recorded_rows(states, spec.chunk_size, n, r, spec.policies)
    return Result.from_frame(df, r.gou_min, r.ci_min).counts, df


def result(counts: np.ndarray, meta: dict) -> Result:
    """The run's result."""
    return Result(counts, meta)
