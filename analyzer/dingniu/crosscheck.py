"""The 顶牛 kernels against the reference engine, hand by hand: kernel hands replayed in the
engine with the same legal sets at every decision, the same seat to act and the same
points, totals and end."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.contract import CrossCheck
from .engine import SUAN, new_hand
from .rules import DingniuRules, get_rules
from .sim import KernelRules, logged_hands


@dataclass
class Report(CrossCheck):
    """The crosscheck's hands and mismatches, and how many decisions and 算帐 it saw."""

    decisions: int = 0
    suan: int = 0


def _mask_set(lo: np.uint64, hi: np.uint64) -> set[int]:
    a, b = int(lo), int(hi)
    return {x for x in range(64) if a >> x & 1} | {64 + x for x in range(64) if b >> x & 1}


def crosscheck(n_hands: int, rules: str | DingniuRules | None = None, seed: int = 0,
               policies: str = "random", arrays: KernelRules | None = None,
               max_report: int = 20) -> Report:
    """Play ``n_hands`` kernel hands under ``rules`` (``policies``: one name or one per
    seat) and replay each in the reference engine; ``arrays`` replaces the rule arrays given
    to the kernels (to show that the check catches a wrong one)."""
    r = get_rules(rules)
    deals, out, acts, masks, moves = logged_hands(n_hands, policies, seed, r, arrays)
    rep = Report()
    for g in range(n_hands):
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
