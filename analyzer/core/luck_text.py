"""The luck-and-skill split in words and JSON (``xianniu library split``)."""

from __future__ import annotations

import math
from typing import Any

from .luck import Split, losses_by_kind, mean_parts, weekly
from .stats import Estimate

PARTS = (("result", "result"), ("deal", "the deal (发牌)"),
         ("decisions", "the decisions (决策)"), ("lie", "the lie of the cards (牌运)"))


def _est(e: Estimate, digits: int = 2) -> str:
    if not (math.isfinite(e.low) and math.isfinite(e.high)):  # one case: no spread to read
        return f"{e.value:+.{digits}f} [—, —] (n={e.n:,})"
    return f"{e.value:+.{digits}f} [{e.low:+.{digits}f}, {e.high:+.{digits}f}] (n={e.n:,})"


def _finite(data: Any) -> Any:
    """``data`` with every infinite or undefined number as None (JSON has neither)."""
    if isinstance(data, float) and not math.isfinite(data):
        return None
    if isinstance(data, dict):
        return {k: _finite(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_finite(v) for v in data]
    return data


def _by_game(pairs: list[tuple[Any, Split]]) -> dict[str, list[tuple[Any, Split]]]:
    out: dict[str, list[tuple[Any, Split]]] = {}
    for h, s in pairs:
        out.setdefault(h.game, []).append((h, s))
    return out


def split_lines(pairs: list[tuple[Any, Split]], left_out: int, each: bool) -> list[str]:
    """The summary per game (and, with ``each``, a line per hand)."""
    if not pairs:
        return ["no hand to split" + (f" ({left_out} without the player's seat: give it "
                                      f"with xianniu library add --seat)" if left_out else "")]
    lines = []
    for game, mine in _by_game(pairs).items():
        unit = mine[0][1].unit
        lines.append(f"{game}: {len(mine):,} hands, seat's result split in {unit} a hand "
                     f"(valued under {mine[0][1].player}; 95% CIs, n = hands)")
        if each:
            for h, s in mine:
                lines.append(f"  #{h.id:<5} {h.played[:10]} seat {s.seat}  result {s.result:+d}"
                             f"  deal {_est(s.deal)}  decisions {_est(s.decisions)}"
                             f"  lie {_est(s.lie)}")
        means = mean_parts([s for _, s in mine])
        for key, name in PARTS:
            lines.append(f"  {name:<28} {_est(means[key])}")
        kinds = losses_by_kind([s for _, s in mine])
        if kinds:
            lines.append("  decision losses by kind, a decision (n = decisions):")
            for kind, e in kinds.items():
                lines.append(f"    {kind:<10} {_est(e, 3)}")
        lines.append("  by week (mean a hand; n = hands):")
        for w in weekly(mine):
            lines.append(f"    {w['week']}  result {_est(Estimate(**w['result']))}  "
                         f"deal {_est(Estimate(**w['deal']))}  decisions "
                         f"{_est(Estimate(**w['decisions']))}  lie {_est(Estimate(**w['lie']))}")
    if left_out:
        lines.append(f"{left_out} hand(s) left out: the player's seat is not known (xianniu "
                     f"library add --seat)")
    return lines


def split_json(pairs: list[tuple[Any, Split]], left_out: int, seed: int) -> dict[str, Any]:
    games = {}
    for game, mine in _by_game(pairs).items():
        splits = [s for _, s in mine]
        games[game] = {
            "hands": [{"id": h.id, "played": h.played, **s.to_json()} for h, s in mine],
            "mean": {k: v.as_dict() for k, v in mean_parts(splits).items()},
            "by_kind": {k: v.as_dict() for k, v in losses_by_kind(splits).items()},
            "weekly": weekly(mine)}
    return _finite({"seed": seed, "games": games, "left_out": left_out})
