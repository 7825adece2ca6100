"""Training data of the distilled policy ``learned``: pimc's self-play.

The teacher is pimc with heuristic2 play-outs and a budget of play-outs per decision. Hand
``h`` of a run with seed ``S`` is played from the stream ``SeedSequence(S, spawn_key=(h,))``
alone, so any range of hands can be generated again on any number of threads.
:func:`generate` returns two tables: ``decisions`` (one row per decision with more than one
legal action: who decides, φ, the teacher's and learned's picks) and ``candidates`` (one
row per listed action: its type, ψ and the teacher's mean points).
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
import pandas as pd

from kernels.rng import states_for_chunks
from kernels.xianniu.distill import META_COLS, teacher_hands
from kernels.xianniu.policies import (
    LEARNED_ACT,
    LEARNED_STATE,
    N_LEARNED_WEIGHTS,
    PIMC_BUDGET,
    PIMC_ROLLOUT,
    PIMC_SAMPLES,
    POLICY_DEFAULTS,
    POLICY_HEURISTIC2,
)

from ..core.fileio import write_atomic
from .learned import WEIGHTS_FILE, learned_weights, policy_row
from .rules import get_rules
from .sim import rule_arrays

TEACHER_BUDGET = 256  # play-outs per decision (pimc2 takes 512)
TEACHER_SAMPLES = 16  # at least this many hidden deals per decision (pimc2: 24)
MAX_DECISIONS = 96  # decisions kept per hand
MAX_CANDIDATES = 6000  # listed actions kept per hand
PHI = [f"phi{j}" for j in range(LEARNED_STATE)]
PSI = [f"psi{j}" for j in range(LEARNED_ACT)]


def teacher_row(budget: int = TEACHER_BUDGET, samples: int = TEACHER_SAMPLES) -> np.ndarray:
    """pimc's parameter row for the teacher: heuristic2 play-outs, ``budget`` play-outs and at
    least ``samples`` deals per decision."""
    if budget < 1 or samples < 1:
        raise ValueError("the teacher needs a positive budget and sample count")
    row = POLICY_DEFAULTS.copy()
    row[PIMC_ROLLOUT] = POLICY_HEURISTIC2
    row[PIMC_BUDGET] = budget
    row[PIMC_SAMPLES] = samples
    return row


def generate(n_hands: int, rules: str, seed: int, first: int = 0,
             budget: int = TEACHER_BUDGET, samples: int = TEACHER_SAMPLES,
             weights: np.ndarray | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Hands ``first .. first + n_hands - 1`` of the teacher's self-play under ``rules``:
    ``(decisions, candidates)`` as in this module's docstring. ``learned_pick`` uses
    ``weights`` (default: zeros, when none are shipped yet: the column then means nothing)."""
    r = get_rules(rules)
    if weights is None:
        weights = learned_weights() if WEIGHTS_FILE.exists() else np.zeros(N_LEARNED_WEIGHTS)
    states = states_for_chunks(seed, first, n_hands)
    meta = np.zeros((n_hands, MAX_DECISIONS, META_COLS), dtype=np.int64)
    phi = np.zeros((n_hands, MAX_DECISIONS, LEARNED_STATE))
    values = np.zeros((n_hands, MAX_CANDIDATES))
    types = np.zeros((n_hands, MAX_CANDIDATES), dtype=np.int64)
    groups = np.zeros((n_hands, MAX_CANDIDATES), dtype=np.int64)
    psi = np.zeros((n_hands, MAX_CANDIDATES, LEARNED_ACT))
    counts = np.zeros((n_hands, 3), dtype=np.int64)
    points = np.zeros((n_hands, 3), dtype=np.int64)
    teacher_hands(states, rule_arrays(r), teacher_row(budget, samples), policy_row(weights),
                  (meta, phi, values, types, groups, psi, counts, points))
    nd, nc = counts[:, 0], counts[:, 1]
    hand = np.repeat(np.arange(first, first + n_hands), nd)
    dsel = np.concatenate([np.arange(k) for k in nd]) if nd.sum() else np.zeros(0, int)
    m = meta[hand - first, dsel]
    dec = pd.DataFrame({"rules": r.name, "hand": hand, "decision": dsel, "seat": m[:, 0],
                        "phase": m[:, 1], "n": m[:, 2], "teacher_pick": m[:, 4],
                        "learned_pick": m[:, 5], "deals": m[:, 6]})
    dec[PHI] = phi[hand - first, dsel]
    chand = np.repeat(np.arange(first, first + n_hands), nc)
    csel = np.concatenate([np.arange(k) for k in nc]) if nc.sum() else np.zeros(0, int)
    # each candidate's decision (within its hand) and its index in that decision's list
    cdec = np.concatenate([np.repeat(np.arange(nd[h]), meta[h, :nd[h], 2])
                           for h in range(n_hands)]) if nc.sum() else np.zeros(0, int)
    start = meta[chand - first, cdec, 3]
    cand = pd.DataFrame({"rules": r.name, "hand": chand, "decision": cdec, "action": csel - start,
                         "type": types[chand - first, csel], "group": groups[chand - first, csel],
                         "value": values[chand - first, csel]})
    cand[PSI] = psi[chand - first, csel]
    info = {"rules": r.name, "seed": seed, "first": first, "hands": n_hands,
            "teacher": {"policy": "pimc", "rollout": "heuristic2", "budget": budget,
                        "samples": samples},
            "truncated_hands": int(counts[:, 2].sum())}
    dec.attrs.update(info)
    cand.attrs.update(info)
    return dec, cand


def part_paths(folder: str | Path, rules: str, first: int) -> tuple[Path, Path]:
    """The two files of the part of ``rules`` starting at hand ``first``."""
    stem = f"{rules}-{first:07d}"
    return Path(folder) / f"{stem}-decisions.parquet", Path(folder) / f"{stem}-candidates.parquet"


def generate_parts(folder: str | Path, presets: list[str], hands: int, part: int, seed: int,
                   budget: int = TEACHER_BUDGET, samples: int = TEACHER_SAMPLES,
                   progress=None) -> None:
    """Write hands ``0 .. hands - 1`` of each preset in parts of ``part`` hands, the presets'
    parts alternating; parts already in ``folder`` are kept (ValueError if they were made with
    another seed or teacher)."""
    for first in range(0, hands, part):
        for rules in presets:
            dpath, cpath = part_paths(folder, rules, first)
            n = min(part, hands - first)
            if dpath.exists() and cpath.exists():
                info = read_parquet(dpath).attrs
                if (info.get("seed"), info.get("teacher", {}).get("budget"),
                        info.get("teacher", {}).get("samples")) != (seed, budget, samples):
                    raise ValueError(f"{dpath} was made with another seed or teacher")
                continue
            dec, cand = generate(n, rules, seed, first, budget, samples)
            write_parquet(cand, cpath)
            write_parquet(dec, dpath)  # last: a part counts as written once both are
            if progress is not None:
                progress(rules, first, n, len(dec), len(cand))


def write_parquet(df: pd.DataFrame, path: str | Path) -> None:
    """Write ``df`` as Parquet with its ``attrs`` (seed, teacher, …) in the file's metadata,
    atomically."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    table = pa.Table.from_pandas(df, preserve_index=False)
    table = table.replace_schema_metadata({**(table.schema.metadata or {}),
                                           b"xianniu": json.dumps(df.attrs).encode()})
    buf = io.BytesIO()
    pq.write_table(table, buf, compression="zstd")
    write_atomic(path, buf.getvalue())


def read_parquet(path: str | Path) -> pd.DataFrame:
    """A table written by :func:`write_parquet`, its metadata back in ``attrs``."""
    import pyarrow.parquet as pq
    table = pq.read_table(path)
    df = table.to_pandas()
    meta = (table.schema.metadata or {}).get(b"xianniu")
    df.attrs.update(json.loads(meta) if meta else {})
    return df
