"""How the batch runner plays and counts 顶牛 hands (see :class:`analyzer.core.runner.RunSpec`).

A task keeps integer sums only (the counts vector of :mod:`.result`); they add across tasks
exactly. ``task_rows`` also keeps every hand's row, its deal and its game record.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pandas as pd

from kernels.dingniu import game as kd

from ..core.limits import Cost
from ..core.records import envelope
from .engine import NORMAL, SUAN
from .records import GAME, action_to_json
from .result import (
    A_CNT,
    A_CNT_SQ,
    A_N,
    A_PTS,
    A_PTS_SQ,
    A_SUAN,
    A_SUAN_WON,
    A_WIN,
    AGG_SIZE,
    Result,
)
from .rules import N_SEATS, get_rules
from .sim import CHUNK, logged_rows, play_rows, policy_arrays, policy_ids, rule_arrays, seatings_of
from .tiles import format_tiles

OPTIONS: dict[str, Any] = {}  # 顶牛 runs have no options of their own
CHUNK_SIZE = CHUNK
# What a unit of each command costs at the most (analyzer.core.limits): docs/bench.md's
# fastest policy on 2 threads, halved and rounded up (random hands about 1.0 M/s, deals
# 5.6 M/s); a tournament's deal is played once per seating (14) and keeps the play driver's
# result rows [deals, 14, 11] int64 and a [deals, 14, 4] product; odds keep every deal's
# [4 seats, 13 kinds]. Re-derive them when a command's arrays change.
COSTS = {"simulate": Cost("hands", 600_000),
         "tournament": Cost("deals", 43_000, 14 * 11 * 8 + 14 * 4 * 8 + 16),
         "odds": Cost("deals", 4_000_000, 4 * 13 * 8 + 8)}
END_CODES = {0: "blocked or out", 1: "all tiles played", 2: "算帐"}


def check(spec) -> None:
    """Refuse unknown rules or policies."""
    get_rules(spec.rules)
    if "pimc" in str(spec.policies).lower():
        raise ValueError("pimc plays in 顶牛 tournaments only (xianniu dingniu tournament)")
    policy_ids(spec.policies)


def meta(spec) -> dict:
    """The rules and the policy (one name, or one per seat) of a run."""
    names = [n.strip().lower() for n in spec.policies.split(",")]
    return {"rules": get_rules(spec.rules).name,
            "policy": names[0] if len(set(names)) == 1 else ",".join(names)}


def _play(spec, states: np.ndarray, n: int) -> np.ndarray:
    return play_rows(rule_arrays(get_rules(spec.rules)),
                     seatings_of(policy_arrays(spec.policies, spec.rules)), states,
                     spec.chunk_size, n)[:, 0]


def counts_of(res: np.ndarray) -> np.ndarray:
    """The counts vector of result rows (``kernels.dingniu.game.R_*``)."""
    c = np.zeros(AGG_SIZE, dtype=np.int64)
    pts = res[:, kd.R_PTS:kd.R_PTS + N_SEATS]
    cnt = res[:, kd.R_TOT:kd.R_TOT + N_SEATS]
    c[A_N] = len(res)
    c[A_PTS:A_PTS + N_SEATS] = pts.sum(axis=0)
    c[A_PTS_SQ:A_PTS_SQ + N_SEATS] = (pts * pts).sum(axis=0)
    c[A_WIN:A_WIN + N_SEATS] = (pts > 0).sum(axis=0)
    c[A_CNT:A_CNT + N_SEATS] = cnt.sum(axis=0)
    c[A_CNT_SQ:A_CNT_SQ + N_SEATS] = (cnt * cnt).sum(axis=0)
    suan = res[:, kd.R_END] == 2
    maker = np.maximum(res[:, kd.R_SUAN], 0)
    c[A_SUAN] = int(suan.sum())
    c[A_SUAN_WON] = int((suan & (pts[np.arange(len(res)), maker] > 0)).sum())
    return c


def task_counts(spec, states: np.ndarray, n: int) -> np.ndarray:
    """Counts of ``n`` hands from one stream per chunk."""
    return counts_of(_play(spec, states, n))


def task_rows(spec, states: np.ndarray, n: int) -> tuple[np.ndarray, pd.DataFrame]:
    """Counts and per-hand rows: results, the deal (``dealt0`` … ``dealt3``, tile names) and
    ``record``, the hand as a game record in JSON (what ``xianniu dingniu replay`` reads).

    The hands are those :func:`task_counts` plays: the logging driver deals and plays
    exactly as the counting one, from the same streams.
    """
    deals, res, acts, _, moves = logged_rows(rule_arrays(get_rules(spec.rules)),
                                             policy_arrays(spec.policies, spec.rules), states,
                                             spec.chunk_size, n)
    dealt = [[format_tiles(h) for h in deals[:, s].tolist()] for s in range(N_SEATS)]
    cols = {**{f"points{s}": res[:, kd.R_PTS + s] for s in range(N_SEATS)},
            **{f"count{s}": res[:, kd.R_TOT + s] for s in range(N_SEATS)},
            "end": pd.Categorical.from_codes(res[:, kd.R_END], list(END_CODES.values())),
            "suan_seat": res[:, kd.R_SUAN], "moves": res[:, kd.R_MOVES],
            **{f"dealt{s}": dealt[s] for s in range(N_SEATS)},
            "record": _record_texts(get_rules(spec.rules).name, list(zip(*dealt)), acts, moves,
                                    res)}
    return counts_of(res), pd.DataFrame(cols)


def _dumps(x: Any) -> str:
    return json.dumps(x, ensure_ascii=False, separators=(",", ":"))


def _record_texts(rules: str, dealt: list[tuple[str, ...]], acts: np.ndarray,
                  moves: np.ndarray, res: np.ndarray) -> list[str]:
    """Each hand's game record (what :func:`analyzer.dingniu.records.record_of` writes of
    the hand) as compact JSON; an action's entry depends on (seat, action) alone, so each is encoded
    once."""
    start = envelope(GAME, rules, {}, [])
    del start["actions"]  # written after the hands
    head = _dumps(start)[:-1]
    entries: dict[tuple[int, int], str] = {}
    texts = []
    for h, log in enumerate(acts.tolist()):
        parts = []
        for seat, a in log[:int(moves[h])]:
            text = entries.get((seat, a))
            if text is None:
                text = entries[(seat, a)] = _dumps(action_to_json(seat, a))
            parts.append(text)
        row = res[h].tolist()
        end = int(row[kd.R_END])
        result = {"end": SUAN if end == 2 else NORMAL, "suan_seat": row[kd.R_SUAN],
                  "totals": row[kd.R_TOT:kd.R_TOT + N_SEATS],
                  "points": row[kd.R_PTS:kd.R_PTS + N_SEATS]}
        texts.append(f'{head},"hands":{_dumps(dealt[h])},"actions":[{",".join(parts)}],'
                     f'"result":{_dumps(result)}}}')
    return texts


def result(counts: np.ndarray, meta: dict) -> Result:
    """The run's result."""
    return Result(counts, meta)
