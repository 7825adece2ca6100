"""One workload of 掀牛's paired play-outs, to time from outside (A/B of two checkouts with
``farm-bench``): the decision queries, advice, or the two experiments.

    farm-bench -n 4 --warmup 1 --timeout 900 \\
        --vs "python scripts/measure/xianniu_paired_speed.py exp" \\
        -- python scripts/measure/xianniu_paired_speed.py exp     # run from each checkout in turn

``query``: should-xian (play-ons net,heuristic) and should-kou (heuristic) of the README's
hand to 200,000 deals; ``advise``: every action of a first decision, 100,000 deals at most;
``exp``: ``pattern_values`` on 200,000 deals and ``xian_ev`` on 400,000 (heuristic).
"""

from __future__ import annotations

import sys

HAND = "Ks Qh Qc Js 10h 9s 9d 8c 7h 6s 5d 3c 3h 2s Ad Ac"


def main(what: str) -> None:
    if what == "query":
        from analyzer.xianniu.decision import should_kou, should_xian

        should_xian(HAND, 1, "lanzhou", policy="net,heuristic", max_hands=200_000,
                    precision=0.001, seed=1)
        should_kou(HAND, "lanzhou", policy="heuristic", max_hands=200_000, precision=0.001,
                   seed=1)
    elif what == "advise":
        from analyzer.xianniu.advise import advise
        from analyzer.xianniu.sim import hand_records

        rec = hand_records(1, "lanzhou", "heuristic", 3)[0]
        advise({**rec, "actions": []}, samples=100_000, precision=0.001, seed=2,
               policy="heuristic", opponents="heuristic")
    elif what == "exp":
        from analyzer.xianniu.analysis import pattern_values, xian_ev

        pattern_values(200_000, "lanzhou", "heuristic", seed=1)
        xian_ev(400_000, "lanzhou", "heuristic", seed=1)
    else:
        raise SystemExit("usage: xianniu_paired_speed.py query|advise|exp")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "")
