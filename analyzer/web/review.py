"""The review of a finished game: each of the human's decisions beside the advice for it.

The advice of a decision is ``{"actions": [...], "separated"}``, best first, each action
with ``ev``, ``ci95``, ``n`` and ``diff``: the paired difference best − it (``{"value",
"low", "high", "n"}``). The points lost at a decision are the ``diff`` of the action taken.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .game import Progress


def total_lost(losses) -> dict[str, Any]:
    """The sum of the decisions' losses; its 95% CI adds their variances (normal
    approximation, the decisions' play-outs taken as independent); n: decisions."""
    losses = list(losses)
    value = sum(x["value"] for x in losses)
    half = sum(((x["high"] - x["low"]) / 2) ** 2 for x in losses) ** 0.5
    return {"value": value, "low": value - half, "high": value + half, "n": len(losses)}


def review(decisions: list[dict[str, Any]], advice_at: Callable[[int], dict[str, Any]],
           same: Callable[[dict[str, Any], dict[str, Any]], bool],
           progress: Progress) -> dict[str, Any]:
    """Rows of ``decisions`` (``{"version", "n_legal", "action"}``): the action, the best,
    and the estimated points lost; forced decisions are marked and not valued. ``move`` is
    the decision's number in the page's move log (1 for the hand's first action: the move
    taken at ``version``, the number of actions before it).
    ``advice_at(version)`` gives the advice there; ``same(row, action)`` tells whether an
    advice row holds the action taken."""
    todo = sum(1 for d in decisions if d["n_legal"] > 1)
    rows, done = [], 0
    progress(0, todo)
    for d in decisions:
        row = {"version": d["version"], "move": d["version"] + 1, "action": d["action"],
               "forced": d["n_legal"] < 2}
        if not row["forced"]:
            adv = advice_at(d["version"])
            mine = next((r for r in adv["actions"] if same(r, d["action"])), None)
            row.update(best=adv["actions"][0], mine=mine, separated=adv["separated"],
                       lost=None if mine is None else mine["diff"])
            done += 1
            progress(done, todo)
        rows.append(row)
    return {"rows": rows, "total_lost": total_lost(r["lost"] for r in rows if r.get("lost")),
            "decisions": len(rows)}
