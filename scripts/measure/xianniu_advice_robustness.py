"""Is the 掀牛 advice robust to the player it simulates? should-xian on typical hands, answered
by the default play-on and by a search player with a larger budget, side by side.

The hands: seat 1 of uniform deals (``deal_hands``, one SeedSequence child per preset of
``--seed``), ``--hands`` per preset; a hand where no deal reaches the question (the banker
never 扣s first with it, or it opens a 抢刺) is skipped and the next deal taken. Each hand is
asked ``should-xian`` with every play-on of ``--policies``, at ``--precision`` and the query
seed ``--seed``. A play-on is a policy name or a best-of list ``A,B,…`` and, after ``@``,
the play-outs per decision of its pimc (default: the query's default at its own budget,
against pimc2 alone with four times pimc2's 512). Per pair of play-ons the script counts
the hands whose answers agree (the same sign of 掀 − 扣), and those whose answers are
opposite with both CIs excluding 0; each answer keeps every continuation's values.

Usage: python scripts/measure/xianniu_advice_robustness.py [--rules lanzhou,kanniutui] [--hands 20]
       [--policies net,tuned2,pimc2@64+pimc2@2048] [--precision 0.3] [--seed 1]
       [--out FILE.json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np

from analyzer.core.fileio import write_atomic
from analyzer.xianniu.cards import format_cards
from analyzer.xianniu.decision import should_xian
from analyzer.xianniu.defaults import DECISION_BUDGET, DECISION_POLICY
from analyzer.xianniu.rules import PRESETS
from analyzer.xianniu.sim import deal_hands

PIMC2_BUDGET = 512
DEFAULT_PLAYS_ON = f"{DECISION_POLICY}@{DECISION_BUDGET}+pimc2@{4 * PIMC2_BUDGET}"


def play_on(text: str) -> tuple[str, int]:
    """``policy@budget`` (or ``policy``, at the query's default budget) as its two parts."""
    policy, _, budget = text.partition("@")
    return policy, int(budget) if budget else DECISION_BUDGET


def typical_hands(preset_seed: np.random.SeedSequence, count: int) -> list[int]:
    """Seat 1's hands of uniform deals from ``preset_seed``, more than ``count`` of them so
    that skipped hands can be replaced."""
    root = int(preset_seed.generate_state(1, dtype=np.uint32)[0])
    return [int(h) for h in deal_hands(4 * count, root)[:, 1]]


def ask(hand: int, preset: str, policy: str, budget: int, precision: float,
        seed: int) -> dict | None:
    """The should-xian answer's figures, or None when no deal reaches the question."""
    try:
        res = should_xian(hand, 1, preset, policy, precision, seed=seed, budget=budget)
    except ValueError:
        return None
    return {"diff": res.diff, "low": res.ci95[0], "high": res.ci95[1], "n": res.hands,
            "budget": budget,
            "recommendation": res.recommendation, "valued_by": list(res.valued_by),
            "by_policy": res.by_policy}


def verdicts(a: dict, b: dict) -> tuple[bool, bool]:
    """(the two answers agree in sign, they are opposite with both CIs excluding 0)."""
    agree = (a["diff"] > 0) == (b["diff"] > 0)
    sure = (a["low"] > 0 or a["high"] < 0) and (b["low"] > 0 or b["high"] < 0)
    return agree, (not agree) and sure


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", default=",".join(PRESETS))
    ap.add_argument("--hands", type=int, default=20)
    ap.add_argument("--policies", default=DEFAULT_PLAYS_ON)
    ap.add_argument("--precision", type=float, default=0.3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)
    plays_on = args.policies.split("+")
    presets = args.rules.split(",")
    children = np.random.SeedSequence(args.seed).spawn(len(presets))
    rows = []
    for preset, child in zip(presets, children, strict=True):
        kept = 0
        for hand in typical_hands(child, args.hands):
            if kept == args.hands:
                break
            answers = {}
            for label in plays_on:
                policy, budget = play_on(label)
                t0 = time.perf_counter()
                got = ask(hand, preset, policy, budget, args.precision, args.seed)
                if got is None:
                    break
                got["seconds"] = time.perf_counter() - t0
                answers[label] = got
            if len(answers) < len(plays_on):
                continue
            kept += 1
            rows.append({"rules": preset, "hand": format_cards(hand), "answers": answers})
            cells = "  ".join(f"{p}: {a['diff']:+.2f} [{a['low']:+.2f}, {a['high']:+.2f}] "
                              f"n={a['n']:,} ({a['seconds']:.0f} s)" for p, a in answers.items())
            print(f"{preset:<9} {kept:>2}  {format_cards(hand)}  {cells}", flush=True)
    print()
    for preset in presets:
        mine = [r for r in rows if r["rules"] == preset]
        for i, p in enumerate(plays_on):
            for q in plays_on[i + 1:]:
                v = [verdicts(r["answers"][p], r["answers"][q]) for r in mine]
                print(f"{preset}: {p} against {q}: the same answer on "
                      f"{sum(a for a, _ in v)} of {len(v)} hands, opposite with both CIs "
                      f"excluding 0 on {sum(s for _, s in v)}")
    if args.out:
        write_atomic(args.out, json.dumps({"command": " ".join(sys.argv), "rows": rows},
                                          ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
