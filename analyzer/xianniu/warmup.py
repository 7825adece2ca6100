"""Compile every 掀牛 kernel the commands use, so that later runs start warm."""

from __future__ import annotations

HAND = "Ks Qh Qc Js 10h 9s 9d 8c 7h 6s 5d 3c 3h 2s Ad Ac"


def warmup() -> None:
    """Run each command's kernels once on tiny inputs, both presets (cached on disk)."""
    from .advise import advise
    from .analysis import pattern_values, xian_ev
    from .decision import should_kou, should_xian
    from .odds import monte_carlo_odds
    from .records import replay
    from .sim import deal_hands, hand_records, logged_hands, simulate, simulate_aggregate
    from .tournament import tournament

    for rules in ("lanzhou", "kanniutui"):
        simulate(100, rules, seed=0)
        simulate_aggregate(100, rules, seed=0)
        logged_hands(2, rules, seed=0)
        logged_hands(1, rules, "pimc,heuristic,random", seed=0, pimc_samples=2)
        monte_carlo_odds(100, rules, seed=0)
        tournament("heuristic,random", 4, rules, seed=0)
        pattern_values(10, rules, seed=0)
        xian_ev(10, rules, seed=0)
        # the queries, advice and the 掀 experiment share one build of the paired driver,
        # with the search in place whatever the seats play (sim.paired_playouts)
        should_xian(HAND, 1, rules, max_hands=100, precision=10.0)
        should_kou(HAND, rules, max_hands=100, precision=10.0)
        advise(_first_decision(hand_records(1, rules, "heuristic", 0)[0], replay), samples=8,
               seed=0)
        # kernels with a pimc seat are compiled apart (the others leave pimc out)
        simulate(3, rules, "pimc,heuristic,random", seed=0)
        simulate_aggregate(3, rules, "pimc,heuristic,random", seed=0)
        tournament("pimc,heuristic", 2, rules, seed=0, pimc_samples=2)
        # the report's search part plays the value and 掀 experiments with pimc2
        pattern_values(2, rules, "pimc2", seed=0)
        xian_ev(2, rules, "pimc2", seed=0)
    deal_hands(10, seed=0)


def _first_decision(record: dict, replay) -> dict:
    """``record`` cut at its first action where the seat to act has a choice."""
    for cut in range(len(record["actions"]) + 1):
        part = {**record, "actions": record["actions"][:cut]}
        if len(replay(part).legal_actions()) > 1:
            return part
    raise ValueError("the hand has no decision")
