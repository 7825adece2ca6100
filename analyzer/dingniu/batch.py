"""How the batch runner plays and counts 顶牛 hands (see :class:`analyzer.core.runner.RunSpec`).

A task keeps integer sums only: per seat Σ points, Σ points², wins, Σ count (扣 pips) and
Σ count²; hands ending in a 算帐 and those the maker won. They add across tasks exactly.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pandas as pd

from kernels.dingniu import game as kd

from ..core.runner import RunCounts
from ..core.stats import mean_ci_from_sums, proportion_ci
from .records import FORMAT as RECORD_FORMAT
from .records import action_to_json
from .rules import N_SEATS, get_rules
from .sim import CHUNK, heuristic_matrix, policy_ids, rule_arrays
from .tiles import format_tiles

CHUNK_SIZE = CHUNK
SEAT_NAMES = ("头牌", "二牌", "三牌", "末牌")
# Layout of the counts vector.
A_N, A_PTS, A_PTS_SQ, A_WIN, A_CNT, A_CNT_SQ = 0, 1, 5, 9, 13, 17
A_SUAN, A_SUAN_WON, AGG_SIZE = 21, 22, 23
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
    tiles, params = rule_arrays(get_rules(spec.rules))
    out = np.empty((n, kd.N_RESULT), dtype=np.int64)
    kd.play_chunks(states, spec.chunk_size, n, tiles, params, policy_ids(spec.policies),
                   heuristic_matrix(policies=spec.policies, rules=spec.rules), out)
    return out


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
    tiles, params = rule_arrays(get_rules(spec.rules))
    deals = np.zeros((n, N_SEATS, kd.N_KINDS), dtype=np.int64)
    res = np.empty((n, kd.N_RESULT), dtype=np.int64)
    acts = np.zeros((n, kd.MAX_MOVES, 2), dtype=np.int64)
    legal = np.zeros((n, kd.MAX_MOVES, 2), dtype=np.uint64)
    moves = np.zeros(n, dtype=np.int64)
    kd.logged_chunks(states, spec.chunk_size, n, tiles, params, policy_ids(spec.policies),
                     heuristic_matrix(policies=spec.policies, rules=spec.rules), deals, res,
                     acts, legal, moves)
    dealt = [[format_tiles(h) for h in deals[:, s].tolist()] for s in range(N_SEATS)]
    cols = {**{f"points{s}": res[:, kd.R_PTS + s] for s in range(N_SEATS)},
            **{f"count{s}": res[:, kd.R_TOT + s] for s in range(N_SEATS)},
            "end": pd.Categorical.from_codes(res[:, kd.R_END], list(END_CODES.values())),
            "suan_seat": res[:, kd.R_SUAN], "moves": res[:, kd.R_MOVES],
            **{f"dealt{s}": dealt[s] for s in range(N_SEATS)},
            "record": _record_texts(get_rules(spec.rules).name, list(zip(*dealt)), acts, moves)}
    return counts_of(res), pd.DataFrame(cols)


def _record_texts(rules: str, dealt: list[tuple[str, ...]], acts: np.ndarray,
                  moves: np.ndarray) -> list[str]:
    """Each hand's game record as compact JSON (:mod:`analyzer.dingniu.records`); an
    action's entry depends on (seat, action) alone, so each is encoded once."""
    def dumps(x) -> str:
        return json.dumps(x, ensure_ascii=False, separators=(",", ":"))

    head = dumps({"format": RECORD_FORMAT, "version": 1, "rules": rules})[:-1]
    entries: dict[tuple[int, int], str] = {}
    texts = []
    for h, log in enumerate(acts.tolist()):
        parts = []
        for seat, a in log[:int(moves[h])]:
            text = entries.get((seat, a))
            if text is None:
                text = entries[(seat, a)] = dumps(action_to_json(seat, a))
            parts.append(text)
        texts.append(f'{head},"hands":{dumps(dealt[h])},"actions":[{",".join(parts)}]}}')
    return texts


class Result(RunCounts):
    """Counts of a 顶牛 run (layout ``A_*``) and what produced them."""

    game = "dingniu"

    def as_json(self) -> dict[str, Any]:
        """Per seat: mean points, P(win), mean count; P(算帐), its success rate and P(包庄)
        (a 算帐 that fails, per hand)."""
        c, n = self.counts, self.hands
        seats = [{"seat": s, "name": SEAT_NAMES[s],
                  "points": mean_ci_from_sums(float(c[A_PTS + s]), float(c[A_PTS_SQ + s]),
                                              n).as_dict(),
                  "p_win": proportion_ci(int(c[A_WIN + s]), n).as_dict(),
                  "count": mean_ci_from_sums(float(c[A_CNT + s]), float(c[A_CNT_SQ + s]),
                                             n).as_dict()} for s in range(N_SEATS)]
        return {**self.head(), "seats": seats, "p_suan": proportion_ci(int(c[A_SUAN]), n).as_dict(),
                "p_suan_success": proportion_ci(int(c[A_SUAN_WON]), int(c[A_SUAN])).as_dict(),
                "p_baozhuang": proportion_ci(int(c[A_SUAN] - c[A_SUAN_WON]), n).as_dict()}

    def tidy(self) -> pd.DataFrame:
        """One row per statistic and seat: value, 95% CI, n and the run's metadata."""
        s = self.as_json()
        rows = []
        for seat in s["seats"]:
            for stat in ("points", "p_win", "count"):
                rows.append({"statistic": stat, "seat": seat["seat"], **_ci_cols(seat[stat])})
        for stat in ("p_suan", "p_suan_success", "p_baozhuang"):
            rows.append({"statistic": stat, "seat": None, **_ci_cols(s[stat])})
        df = pd.DataFrame(rows)
        df["seat"] = df["seat"].astype("Int64")
        for key in ("game", "rules", "policy", "seed"):
            df[key] = s[key]
        return df

    def text(self) -> str:
        """A few lines of text, every figure with its 95% CI and n."""
        s = self.as_json()
        lines = [f"{s['hands']:,} hands of 顶牛, rules {s['rules']}, policy {s['policy']}, "
                 f"seed {s['seed']} (95% CIs)"]
        for seat in s["seats"]:
            lines.append(f"  seat {seat['seat']} {seat['name']}: points "
                         f"{_fmt(seat['points'], signed=True)}  P(win) {_pct(seat['p_win'])}  "
                         f"count {_fmt(seat['count'], 2)}")
        lines.append(f"  P(算帐) {_pct(s['p_suan'])}")
        lines.append(f"  P(算帐 succeeds | 算帐) {_pct(s['p_suan_success'])}")
        lines.append(f"  P(包庄) {_pct(s['p_baozhuang'])}")
        return "\n".join(lines)


def result(counts: np.ndarray, meta: dict) -> Result:
    """The run's result."""
    return Result(counts, meta)


def _ci_cols(e: dict) -> dict:
    return {"value": e["value"], "ci_low": e["low"], "ci_high": e["high"], "n": e["n"]}


def _fmt(e: dict, digits: int = 3, signed: bool = False) -> str:
    f = f"{{:{'+' if signed else ''}.{digits}f}}"
    return f"{f.format(e['value'])} [{f.format(e['low'])}, {f.format(e['high'])}] (n={e['n']:,})"


def _pct(e: dict) -> str:
    from ..core.stats import format_percent

    return f"{format_percent(e['value'])} [{format_percent(e['low'])}, " \
           f"{format_percent(e['high'])}] (n={e['n']:,})"
