"""Compile every 顶牛 kernel the commands use, so that later runs start warm."""

from __future__ import annotations


def warmup() -> None:
    """Run each command's kernels once on tiny inputs (cached on disk)."""
    from .analysis import simulate
    from .tournament import tournament

    simulate(100, "heuristic", 0)
    tournament("heuristic,random", 4, 0)
    tournament("pimc,tuned", 2, 0, pimc_samples=2)
