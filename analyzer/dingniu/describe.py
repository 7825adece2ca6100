"""Text for the 顶牛 commands' results (what :mod:`analyzer.dingniu.api` returns): points as
signed decimals, probabilities by :func:`analyzer.core.stats.format_percent`, every estimate
with its 95% CI and n."""

from __future__ import annotations

from ..core.stats import format_estimate, format_percent
from ..core.tournament import tournament_lines
from .rules import SEAT_NAMES

__all__ = ["advise_lines", "odds_lines", "replay_lines", "solve_line", "tournament_lines"]


def odds_lines(d: dict) -> list[str]:
    """Deal odds of the 头牌's hand, in percent."""
    lines = [f"头牌's hand ({d['distinct_hands']:,} distinct hands), rules {d['rules']}: exact "
             f"probability, and a Monte Carlo estimate [95% CI] from {d['deals']:,} deals "
             f"(seed {d['seed']})"]
    for row in d["features"]:
        lines.append(f"  {row['feature']:<34} {format_percent(row['exact'], 4):>9}   "
                     f"{format_estimate(row['monte_carlo'], 4, percent=True)}")
    return lines


def recommendation(d: dict) -> str:
    """One line: the best play and its margin over the next best, with its 95% CI."""
    b = d["best"]
    if "margin" not in b:
        return f"play {b['action']}: the only legal play (n={b['pimc']['n']:,} deals)"
    m = b["margin"]
    close = "; close: the CI holds 0" if m["low"] <= 0 else ""
    return (f"play {b['action']}: {m['value']:+.2f} [{m['low']:+.2f}, {m['high']:+.2f}] points "
            f"over the next best, {b['next_best']} (n={m['n']:,} deals{close})")


def advise_lines(d: dict) -> list[str]:
    """A ranked position: the recommendation first, then every action's numbers."""
    lines = [recommendation(d), d["position"],
             f"{d['samples']} hidden deals (seed {d['seed']}); every seat then plays the "
             "heuristic; points of my seat, 95% CI"]
    for row in d["actions"]:
        line = f"  {row['action']:<12} PIMC {format_estimate(row['pimc'])}"
        if "open_hands" in row:
            line += f"   open hands {format_estimate(row['open_hands'])}"
        if "behind_best" in row:
            line += f"   behind best {format_estimate(row['behind_best'])}"
        lines.append(line)
    oh = d.get("open_hands")
    if oh:
        lines.append(f"open hands (max-n, {oh['samples']} deals, {oh['seconds_per_deal']:.2f} s "
                     f"per deal): best per deal {format_estimate(oh['clairvoyant'])}; one action "
                     f"for all ({oh['best_single_action']}) "
                     f"{format_estimate(oh['best_single_action_value'])}; cost of hidden "
                     f"information {format_estimate(oh['cost_of_hidden_information'])}")
    return lines


def replay_lines(d: dict) -> list[str]:
    """A replayed record: the moves, then the result or who is to act."""
    lines = [f"{i:3d}  {line}" for i, line in enumerate(d["log"])]
    if not d["over"]:
        lines.append(f"record stops before the end; seat {d['to_act']} is to act")
        return lines
    s = d["suan_seat"]
    how = f"算帐 by seat {s} {SEAT_NAMES[s]}" if s >= 0 else "all tiles out"
    lines.append(f"hand over ({how}); counts {d['totals']}; points "
                 + ", ".join(f"seat {s} {SEAT_NAMES[s]} {v:+d}"
                             for s, v in enumerate(d["points"])))
    return lines


def solve_line(d: dict) -> str:
    """The solved values of a position, one line."""
    return (f"seat {d['to_act']} to act; best {d['best']}; values (max-n, open hands) "
            + ", ".join(f"seat {s} {v:+d}" for s, v in enumerate(d["values"]))
            + f"; {d['positions']} positions in {d['seconds']:.2f} s")
