"""The review of a finished game: each of the human's decisions beside the advice for it.

The advice of a decision is ``{"actions": [...], "separated"}``, best first, each action
with ``ev``, ``ci95``, ``n`` and ``diff``: the paired difference best − it (``{"value",
"low", "high", "n"}``). The points lost at a decision are the ``diff`` of the action taken.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..core.game import NotListed
from .game import Progress, Task, parse_seed


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


def record_review_query(game: str, **advice: Any) -> Callable[[Any], Task]:
    """The table's ``review_record`` query: the review of any loaded record
    (:func:`analyzer.core.review.review`) for one seat, ``{"record", "seat", "seed"}``; the
    record and seat are checked at once, the review runs in the job (``advice`` goes to the
    game's advice at each decision)."""
    def make(body: Any) -> Task:
        from ..core.review import review as run
        from ..games import get_game

        if not isinstance(body, dict) or "record" not in body:
            raise ValueError("the query needs \"record\": a game record")
        g = get_game(game)
        record = body["record"]
        g.part("records").replay(record)  # a bad record is refused before the job starts
        seat = body.get("seat", 0)
        n = g.facts.n_seats
        if isinstance(seat, bool) or not isinstance(seat, int) or seat not in range(n):
            raise ValueError(f"the seat is 0-{n - 1}, got {seat!r}")
        seed = parse_seed(body.get("seed", 0))

        def task(progress: Progress) -> dict[str, Any]:
            return run(g, record, [seat], seed=seed, progress=progress, **advice).to_json()
        return task
    return make


def enter_hand_query(game: str) -> Callable[[Any], Task]:
    """The table's ``enter_hand`` query: a hand typed in the text notation
    (:mod:`analyzer.core.notation`, ``{"text"}``) read so far — its record, its text tidied,
    and, while it goes on, the seat to act and its legal actions, each as a record entry
    with the token that appends it (none where the engine does not list its choices,
    ``NotListed``: the action is typed, and checked as it is read). A text that
    cannot be read (or an impossible action, named) is refused at once."""
    def make(body: Any) -> Task:
        from ..core.notation import from_text, to_text
        from ..games import get_game

        if not isinstance(body, dict) or not isinstance(body.get("text"), str):
            raise ValueError("the query needs \"text\": the hand in the text notation")
        g = get_game(game)
        record = from_text(g, body["text"])
        recs = g.part("records")
        state = recs.replay(record)
        out: dict[str, Any] = {"record": record, "text": to_text(g, record),
                               "over": state.is_terminal(), "to_act": None, "legal": [],
                               "listed": True}
        if not state.is_terminal():
            seat = state.current_player()
            out["to_act"] = seat
            try:
                actions = state.legal_actions()
            except NotListed:  # too many to offer as buttons: typed instead
                actions, out["listed"] = [], False
            out["legal"] = [{"entry": recs.action_to_json(seat, a),
                             "token": recs.action_token(state, seat, a)} for a in actions]

        def task(progress: Progress) -> dict[str, Any]:
            return out
        return task
    return make
