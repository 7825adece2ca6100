"""The report's 掀牛 policy ladder: its rungs, and each policy's time per decision.

Each rung is a duplicate tournament between two neighbouring policies. All rungs of one
analysis (``ladder``: the kernel policies, on one deal per :data:`KERNEL_SHARE` of the
section's ``--hands``; ``pimc``: the search players, on one per :data:`PIMC_SHARE`) play the
same deals from one seed, so the rungs are measured on common deals. The time per decision
(:mod:`.timing`) is the one part of the section that a seed does not fix; ``--no-timings``
leaves it out.
"""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd

from ..report.formats import played_deals
from .rules import get_rules
from .sim import seat_row
from .timing import move_times
from .tournament import PIMC_SAMPLES, tournament

PIMC_SHARE = 2000  # the search rungs play one deal per this many hands (search is slow)
# the kernel rungs play one deal per this many hands: six rungs of six seatings each would
# otherwise play 3.6 M hands at the default size, for CIs of about ±0.01 points a hand
KERNEL_SHARE = 2
RUNGS: dict[str, tuple[tuple[str, str], ...]] = {
    "ladder": (("heuristic", "random"), ("tuned", "heuristic"), ("heuristic2", "tuned"),
               ("tuned2", "heuristic2"), ("learned", "tuned2"), ("net", "learned"),
               ("net", "heuristic")),  # the last: the strongest fast player against the plain one
    "pimc": (("pimc", "tuned2"), ("pimc2", "pimc"), ("learned", "pimc2"), ("net", "pimc2"),
             ("pimc-net", "net")),  # the top: the search over the strongest fast player
}
MATCHES = [rung for rungs in RUNGS.values() for rung in rungs]
TIMED = tuple(dict.fromkeys(p for rung in MATCHES for p in rung[::-1]))  # weakest first

TEXT: dict[str, tuple[str, str]] = {
    "sec_timing": ("每步决策的用时", "Time per decision"),
    "intro_timing": ("每种策略在同一批牌上各打整局（三家都用它），单核计时；只计有选择的决策"
                     "（不止一种合法打法）。取 {rounds} 轮的中位数（轮间交替先后，抵消机器负载），"
                     "括号内为最快与最慢的一轮。快策略的数字含每局一次调用与记录的开销，是上限。"
                     "计时不由种子决定：同一命令在别的机器上会得到别的时间。",
                     "Each policy plays whole hands (all three seats) on the same deals, timed on "
                     "one core; only decisions with a choice (more than one legal action) count. "
                     "The median of {rounds} rounds (the order alternating between rounds, so "
                     "machine load falls on all alike), with the fastest and slowest round in "
                     "brackets. For the fast policies the figure includes a call and the log per "
                     "hand, an upper bound. No seed fixes a time: the same command gives other "
                     "times on another machine."),
    "timing_off": ("本报告未计时（--no-timings）。", "Not timed in this report (--no-timings)."),
    "col_policy": ("策略", "policy"),
    "col_us": ("微秒/决策", "µs per decision"),
    "col_decisions": ("决策数（每轮）", "decisions (per round)"),
    "col_hands_timed": ("局数（每轮）", "hands (per round)"),
    "step_timing": ("每步用时", "time per decision"),
}


def ladder_sizes(hands: int) -> dict[str, int]:
    """Deals of each analysis of the ladder for ``--hands``: the search rungs only where they
    reach the report's floor (else 0, not played: :func:`analyzer.report.formats.played_deals`)."""
    return {"ladder": max(2, int(hands) // KERNEL_SHARE),
            "pimc": played_deals(int(hands) // PIMC_SHARE)}


def timing_sizes(hands: int) -> tuple[int, int]:
    """Hands a round for the fast policies and for the search players, for ``--hands``."""
    return min(2000, max(10, int(hands) // 200)), min(12, max(1, int(hands) // 30_000))


def rung_commands(which: str, n: int, preset: str, seed: int) -> list[str]:
    """The ``xianniu tournament`` command of each rung of analysis ``which``."""
    return [f"xianniu tournament --policies {a},{b} --deals {n} --rules {preset} --seed {seed}"
            for a, b in RUNGS[which]]


def play_rungs(which: str, n: int, preset: str, seed: int, meta: dict,
               progress: Callable[[int], None] | None = None) -> pd.DataFrame:
    """Every rung of ``which`` on the same ``n`` deals: one row per rung (``a − b``), none
    for ``n`` = 0; ``progress(k)`` after every ``k`` deals played."""
    if not n:  # not played at this size: only what the page says of pimc
        meta["pimc_samples"] = int(seat_row("pimc", get_rules(preset))[PIMC_SAMPLES])
        return pd.DataFrame()
    frames = []
    for a, b in RUNGS[which]:
        res = tournament(f"{a},{b}", n, preset, seed, progress=progress)
        if "pimc_samples" in res.meta:
            meta["pimc_samples"] = res.meta["pimc_samples"]
        df = res.differences()
        df.insert(0, "rules", preset)
        df["hands_played"], df["seed"] = res.meta["hands_played"], seed
        frames.append(df)
    return pd.concat(frames, ignore_index=True)


def time_policies(hands: int, preset: str, seed: int, rounds: int = 3) -> pd.DataFrame:
    """:func:`.timing.move_times` of every policy of the ladder, sized for ``--hands``."""
    fast, search = timing_sizes(hands)
    return move_times(TIMED, preset, seed, hands=fast, search_hands=search, rounds=rounds)
