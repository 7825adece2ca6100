"""A valued action: one legal action (or a group of equivalent ones) of a decision and the
acting side's result after it, over sampled deals of what the seat could not see — the one
shape every game's advice gives its actions in (the review, the puzzles and the tables read
it as ``to_json()``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ActionValue:
    """``action``: the group's first action as a record entry (append it to the record to
    play it); ``group``: every action of the group; ``ev`` and ``ci95``: the mean result and
    its 95% CI over ``n`` deals; ``diff``: the paired difference best − this action over the
    deals both were played on (``{"value", "low", "high", "n"}``); ``label``: a game's word
    for the action's role in the question the player asked, if any."""

    action: dict[str, Any]
    group: tuple[dict[str, Any], ...]
    ev: float
    ci95: tuple[float, float]
    n: int
    diff: dict[str, float | int]
    label: str = ""

    def to_json(self) -> dict[str, Any]:
        out = {"action": dict(self.action), "ev": self.ev, "ci95": list(self.ci95),
               "n": self.n, "diff": dict(self.diff), "group": [dict(a) for a in self.group]}
        if self.label:
            out["label"] = self.label
        return out
