"""Replay kernel hands in the reference engine: same legal sets, same actor, same points."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .engine import SUAN, new_hand
from .rules import DingniuRules, get_rules
from .sim import logged_hands


@dataclass
class Report:
    """How many hands and decisions were compared, and every mismatch found."""

    hands: int = 0
    decisions: int = 0
    suan: int = 0
    mismatches: list[str] = field(default_factory=list)


def _mask_set(lo: np.uint64, hi: np.uint64) -> set[int]:
    lo, hi = int(lo), int(hi)
    return {b for b in range(64) if lo >> b & 1} | {64 + b for b in range(64) if hi >> b & 1}


def crosscheck(n: int, policies: str = "random", seed: int = 0,
               rules: str | DingniuRules | None = None,
               arrays: tuple[np.ndarray, np.ndarray] | None = None,
               max_report: int = 20) -> Report:
    """Play ``n`` kernel hands and replay each in the reference engine."""
    r = get_rules(rules)
    deals, out, acts, masks, moves = logged_hands(n, policies, seed, r, arrays)
    rep = Report()
    for g in range(n):
        rep.hands += 1
        st = new_hand(deals[g].tolist(), r)
        bad = None
        for i in range(int(moves[g])):
            seat, a = int(acts[g, i, 0]), int(acts[g, i, 1])
            rep.decisions += 1
            if st.is_terminal():
                bad = f"move {i}: the engine's hand is over"
            elif st.current_player() != seat:
                bad = f"move {i}: engine seat {st.current_player()}, kernel seat {seat}"
            elif set(st.legal_actions()) != _mask_set(*masks[g, i]):
                bad = (f"move {i}: legal sets differ, engine {st.legal_actions()}, "
                       f"kernel {sorted(_mask_set(*masks[g, i]))}")
            if bad:
                break
            st.apply(a)
        if bad is None:
            if not st.is_terminal():
                bad = "the engine's hand is not over"
            elif st.returns() != out[g, 0:4].tolist() or st.totals() != out[g, 4:8].tolist():
                bad = (f"points differ: engine {st.returns()} / {st.totals()}, kernel "
                       f"{out[g, 0:4].tolist()} / {out[g, 4:8].tolist()}")
            elif (st.end_reason == SUAN) != (out[g, 8] == 2) or st.suan_seat != out[g, 9]:
                bad = "the end differs"
        rep.suan += int(st.end_reason == SUAN)
        if bad is not None and len(rep.mismatches) < max_report:
            rep.mismatches.append(f"hand {g}: {bad}")
    return rep
