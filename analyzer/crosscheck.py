"""Differential check: kernel hands replayed move for move in the reference engine."""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import format_cards
from .engine import new_hand
from .rules import Rules, get_rules
from .simulate import RESULT_COLUMNS, LoggedHand, logged_hands


@dataclass
class CrossCheck:
    """What a differential run compared, and the first disagreements found."""

    rules: str
    hands: int = 0
    decisions: int = 0
    legal_compared: int = 0
    mismatches: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.mismatches


def _describe(actions) -> str:
    return ", ".join(sorted(str(a) for a in actions)[:6])


def check_hand(lh: LoggedHand, rules: Rules, report: CrossCheck, index: int) -> None:
    """Replay one kernel hand in the reference engine and record any disagreement."""
    state = new_hand(list(lh.hands), rules)
    where = f"{rules.name} hand {index} ({' | '.join(format_cards(h) for h in lh.hands)})"
    for i, (seat, action) in enumerate(lh.actions):
        if state.is_terminal():
            report.mismatches.append(f"{where}: reference hand over before kernel action {i}")
            return
        if seat != state.current_player():
            report.mismatches.append(f"{where} action {i}: kernel seat {seat}, reference seat "
                                     f"{state.current_player()}")
            return
        ref = set(state.legal_actions())
        report.legal_compared += len(ref)
        if ref != lh.legal[i]:
            report.mismatches.append(
                f"{where} action {i} ({state.phase}): only reference: "
                f"{_describe(ref - lh.legal[i])}; only kernel: {_describe(lh.legal[i] - ref)}")
            return
        state.apply(action)
        report.decisions += 1
    if not state.is_terminal():
        report.mismatches.append(f"{where}: kernel stopped but reference hand goes on")
        return
    st = state.settlement()
    row = dict(zip(RESULT_COLUMNS, lh.result.tolist()))
    got = tuple(row[f"points{s}"] for s in range(3))
    caps = tuple(row[f"captured{s}"] for s in range(3))
    if got != st.points or caps != tuple(t.captured for t in st.tallies):
        report.mismatches.append(f"{where}: kernel points {got} captured {caps}, reference "
                                 f"{st.points} {[t.captured for t in st.tallies]}")
    if len(state.xian_events) != row["xian_count"]:
        report.mismatches.append(f"{where}: 掀 count {row['xian_count']} vs "
                                 f"{len(state.xian_events)}")


def crosscheck(n_hands: int, rules: str | Rules | None = None, seed: int = 0,
               policies: str = "random", max_mismatches: int = 10) -> CrossCheck:
    """Play ``n_hands`` kernel hands and replay each in the reference engine."""
    r = get_rules(rules)
    report = CrossCheck(r.name)
    for i, lh in enumerate(logged_hands(n_hands, r, policies, seed)):
        check_hand(lh, r, report, i)
        report.hands += 1
        if len(report.mismatches) >= max_mismatches:
            break
    return report
