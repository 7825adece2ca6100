"""Fitting and checking the ``learned`` scorer (numpy only).

The scorer gives listed action ``c`` of decision ``d`` the score
``s_c = φ_d · U[type_c] + ψ_c · V[group_c]`` (:mod:`kernels.xianniu.learned`); the weight
vector is ``U`` then ``V``, row by row, as the kernel reads it. The fit minimises, over the
training decisions, the cross-entropy between the softmax of the scores and the softmax of
the teacher's action values divided by a temperature ``tau`` (points), plus an L2 penalty,
by full-batch Adam from zero weights: deterministic, no random draws.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from kernels.xianniu.policies import LEARNED_ACT, LEARNED_GROUPS, LEARNED_STATE, LEARNED_TYPES

from ..core.stats import mean_ci, proportion_ci
from .learned_data import PHI, PSI, read_parquet

N_U = LEARNED_TYPES * LEARNED_STATE
VALIDATION_EVERY = 10  # hands h with h % 10 == 9 are the validation set


@dataclass
class Data:
    """Decisions and their listed actions, candidates of a decision contiguous."""
    phi: np.ndarray  # [D, N_STATE]
    hand: np.ndarray  # [D]
    rules: np.ndarray  # [D] preset names
    start: np.ndarray  # [D + 1] candidate offsets
    teacher_pick: np.ndarray  # [D]
    phase: np.ndarray  # [D]
    dec: np.ndarray  # [C] decision of each candidate
    type: np.ndarray  # [C]
    group: np.ndarray  # [C]
    psi: np.ndarray  # [C, N_ACT]
    value: np.ndarray  # [C] teacher's mean points

    def subset(self, keep: np.ndarray) -> Data:
        """The decisions where ``keep`` is True, with their candidates."""
        idx = np.flatnonzero(keep)
        n = np.diff(self.start)[idx]
        cand = np.concatenate([np.arange(self.start[d], self.start[d + 1]) for d in idx]) \
            if len(idx) else np.zeros(0, dtype=np.int64)
        return Data(self.phi[idx], self.hand[idx], self.rules[idx],
                    np.concatenate([[0], np.cumsum(n)]), self.teacher_pick[idx], self.phase[idx],
                    np.repeat(np.arange(len(idx)), n), self.type[cand], self.group[cand],
                    self.psi[cand], self.value[cand])


def from_frames(dec: pd.DataFrame, cand: pd.DataFrame, dtype=np.float64) -> Data:
    """:class:`Data` from the two tables of :func:`analyzer.xianniu.learned_data.generate`."""
    n = dec["n"].to_numpy()
    start = np.concatenate([[0], np.cumsum(n)])
    dix = np.repeat(np.arange(len(dec)), n)
    if len(cand) != start[-1] or not (
            np.array_equal(cand["hand"].to_numpy(), dec["hand"].to_numpy()[dix])
            and np.array_equal(cand["decision"].to_numpy(), dec["decision"].to_numpy()[dix])):
        raise ValueError("decision and candidate tables do not match")
    return Data(dec[PHI].to_numpy(dtype), dec["hand"].to_numpy(), dec["rules"].to_numpy(),
                start, dec["teacher_pick"].to_numpy(), dec["phase"].to_numpy(), dix,
                cand["type"].to_numpy(), cand["group"].to_numpy(), cand[PSI].to_numpy(dtype),
                cand["value"].to_numpy(np.float64))


def load_dir(folder: str | Path, dtype=np.float32) -> tuple[Data, list[dict]]:
    """Every complete part in ``folder`` (both files present), in name order."""
    decs, cands, infos = [], [], []
    for dpath in sorted(Path(folder).glob("*-decisions.parquet")):
        cpath = dpath.with_name(dpath.name.replace("-decisions", "-candidates"))
        if not cpath.exists():
            continue
        d, c = read_parquet(dpath), read_parquet(cpath)
        infos.append(d.attrs)
        decs.append(d)
        cands.append(c)
    if not decs:
        raise ValueError(f"no training data in {folder}")
    return from_frames(pd.concat(decs, ignore_index=True), pd.concat(cands, ignore_index=True),
                       dtype), infos


def _group_blocks(data: Data) -> list[np.ndarray]:
    """Row indices of the candidates of each ψ group."""
    order = np.argsort(data.group, kind="stable")
    bounds = np.searchsorted(data.group[order], np.arange(LEARNED_GROUPS + 1))
    return [order[bounds[k]:bounds[k + 1]] for k in range(LEARNED_GROUPS)]


def scores(data: Data, w: np.ndarray, blocks: list[np.ndarray] | None = None) -> np.ndarray:
    """Every candidate's score under weights ``w``; as in the kernel, the state term counts
    only in decisions whose actions are not all of one type (elsewhere it is a constant)."""
    u = w[:N_U].reshape(LEARNED_TYPES, LEARNED_STATE)
    n = np.diff(data.start)
    mixed = np.maximum.reduceat(data.type, data.start[:-1]) \
        != np.minimum.reduceat(data.type, data.start[:-1])
    s = (data.phi.astype(np.float64) @ u.T)[data.dec, data.type] * np.repeat(mixed, n)
    for k, rows in enumerate(_group_blocks(data) if blocks is None else blocks):
        off = N_U + k * LEARNED_ACT
        s[rows] += data.psi[rows].astype(np.float64) @ w[off:off + LEARNED_ACT]
    return s


def _seg_softmax(x: np.ndarray, start: np.ndarray) -> np.ndarray:
    m = np.maximum.reduceat(x, start[:-1])
    e = np.exp(x - np.repeat(m, np.diff(start)))
    return e / np.repeat(np.add.reduceat(e, start[:-1]), np.diff(start))


def fit(data: Data, tau: float = 0.5, l2: float = 1e-4, steps: int = 400,
        lr: float = 0.05) -> np.ndarray:
    """Weights minimising the mean per-decision cross-entropy to ``softmax(values / tau)``."""
    target = _seg_softmax(data.value / tau, data.start)
    n_dec = len(data.start) - 1
    w = np.zeros(N_U + LEARNED_GROUPS * LEARNED_ACT)
    m1, m2 = np.zeros_like(w), np.zeros_like(w)
    blocks = _group_blocks(data)
    psi_blocks = [data.psi[rows].astype(np.float64) for rows in blocks]
    phi = data.phi.astype(np.float64)
    key = data.dec * LEARNED_TYPES + data.type
    for step in range(1, steps + 1):
        u = w[:N_U].reshape(LEARNED_TYPES, LEARNED_STATE)
        s = (phi @ u.T)[data.dec, data.type]
        for k, rows in enumerate(blocks):
            off = N_U + k * LEARNED_ACT
            s[rows] += psi_blocks[k] @ w[off:off + LEARNED_ACT]
        ds = (_seg_softmax(s, data.start) - target) / n_dec
        g = np.empty_like(w)
        gu = np.bincount(key, ds, minlength=n_dec * LEARNED_TYPES).reshape(n_dec, LEARNED_TYPES)
        g[:N_U] = (gu.T @ phi).ravel()
        for k, rows in enumerate(blocks):
            off = N_U + k * LEARNED_ACT
            g[off:off + LEARNED_ACT] = psi_blocks[k].T @ ds[rows]
        g += 2 * l2 * w
        m1 = 0.9 * m1 + 0.1 * g
        m2 = 0.999 * m2 + 0.001 * g * g
        w -= lr * (m1 / (1 - 0.9 ** step)) / (np.sqrt(m2 / (1 - 0.999 ** step)) + 1e-8)
    return w


def picks(data: Data, s: np.ndarray) -> np.ndarray:
    """The index (within its decision) of each decision's best score; the first on a tie, as
    the kernel takes it."""
    n = np.diff(data.start)
    best = np.maximum.reduceat(s, data.start[:-1])
    pos = np.where(s >= np.repeat(best, n), np.arange(len(s)), len(s))
    return np.minimum.reduceat(pos, data.start[:-1]) - data.start[:-1]


def figures(data: Data, chosen: np.ndarray) -> dict:
    """Agreement with the teacher's best action and regret (teacher's value of its best
    action minus that of the chosen one, points), each with n and a 95% CI."""
    best = data.value[data.start[:-1] + data.teacher_pick]
    got = data.value[data.start[:-1] + chosen]
    agree = proportion_ci(int(np.sum(chosen == data.teacher_pick)), len(chosen))
    regret = mean_ci(best - got)
    return {"n": len(chosen), "agreement": _est(agree), "regret": _est(regret),
            "regret_sum": float(np.sum(best - got)), "agree_count": int(np.sum(chosen ==
                                                                               data.teacher_pick))}


def _est(e) -> dict:
    d = e._asdict() if hasattr(e, "_asdict") else dict(vars(e))
    return {k: float(v) if isinstance(v, (float, np.floating)) else v for k, v in d.items()}


def heuristic2_picks(data: Data) -> np.ndarray:
    """heuristic2's pick at each decision (the ψ entry that marks it)."""
    from kernels.xianniu.learned import PSI_H2
    flag = data.psi[:, PSI_H2] > 0.5
    out = np.zeros(len(data.start) - 1, dtype=np.int64)
    out[data.dec[flag]] = np.flatnonzero(flag) - data.start[data.dec[flag]]
    return out


def is_validation(hand: np.ndarray) -> np.ndarray:
    return hand % VALIDATION_EVERY == VALIDATION_EVERY - 1
