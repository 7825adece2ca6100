"""Compile every 双升 kernel the commands use, so that later runs start warm."""

from __future__ import annotations


def warmup() -> None:
    """Run ``simulate`` (counts and per-hand rows, whole and play-only hands), the team
    ``tournament``, the ``odds`` deal kernels and the ``stats`` kernels (the bury and
    declaring studies with their decision-query kernels too), and the net seats' tournament,
    outcomes and declaring query once on tiny inputs, both presets (cached on disk)."""
    from kernels.rng import states_from_seed

    from ..core.runner import RunSpec
    from . import analysis, batch, study
    from .decision import Sampling, should_declare
    from .odds import kernel_monte_carlo
    from .rules import PRESETS
    from .tournament import tournament

    for name, rules in PRESETS.items():
        for play_only in (False, True):
            spec = RunSpec("shengji", 8, name, "random", 0, options={"play_only": play_only})
            batch.task_counts(spec, states_from_seed(0, 1), 8)
            batch.task_rows(spec, states_from_seed(0, 1), 8)
        kernel_monte_carlo(rules, 2, None, 8, 0)
        tournament("heuristic,random", 2, name)
        analysis.outcomes(2, rules)
        analysis.values(2, rules)
        analysis.banker_by_level(2, rules, levels=(2, 5))
        study.bury_study(1, rules, 0, 32)
        study.declare_study(2, rules, 0, 32)
        # the searching seats (net, the queries' default) compile their own kernels
        tournament("net,tuned", 2, name)
        analysis.outcomes(2, rules, "net")
        should_declare("大王 大王 2h 2h Ah Ah Kh", 2, rules=rules, run=Sampling(max_deals=256))
