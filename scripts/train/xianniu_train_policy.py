"""Train the ``learned`` 掀牛 policy from scratch: teacher self-play, fit, validation figures.

1. The teacher (pimc, heuristic2 play-outs, ``--budget`` play-outs and at least ``--samples``
   hidden deals per decision) plays ``--hands`` hands of each preset from ``--seed``; the
   decisions go to ``--data`` as Parquet parts (parts already there are reused).
2. The scorer is fitted on every hand ``h`` with ``h % 10 != 9`` of both presets
   (:mod:`analyzer.xianniu.learned_train`); the other hands are the validation set.
3. Validation figures (agreement with the teacher's best action, regret in points, each with
   n and a 95% CI; heuristic2's beside them) are printed, and the weights are written with
   the figures and the settings to ``--out`` (the package's ``learned_weights.npz``).

Usage: python scripts/train/xianniu_train_policy.py [--seed 17] [--budget 256] [--samples 16]
           [--hands 12000] [--data build/learned] [--tau 0.5] [--steps 400]
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import time

import numpy as np

from analyzer.core.fileio import write_atomic
from analyzer.xianniu import learned_train as lt
from analyzer.xianniu.learned import WEIGHTS_FILE
from analyzer.xianniu.learned_data import TEACHER_BUDGET, TEACHER_SAMPLES, generate_parts
from analyzer.xianniu.rules import get_rules

PRESETS = ("lanzhou", "kanniutui")


def _line(label: str, f: dict) -> str:
    a, r = f["agreement"], f["regret"]
    return (f"{label}: agreement {a['value']:.3f} [{a['low']:.3f}, {a['high']:.3f}], regret "
            f"{r['value']:.3f} [{r['low']:.3f}, {r['high']:.3f}] points (n={f['n']} decisions)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=17)
    ap.add_argument("--budget", type=int, default=TEACHER_BUDGET)
    ap.add_argument("--samples", type=int, default=TEACHER_SAMPLES)
    ap.add_argument("--hands", type=int, default=12_000, help="teacher hands per preset")
    ap.add_argument("--part", type=int, default=500)
    ap.add_argument("--data", default="build/learned")
    ap.add_argument("--out", default=str(WEIGHTS_FILE))
    ap.add_argument("--tau", type=float, default=0.5, help="target temperature, points")
    ap.add_argument("--l2", type=float, default=1e-4)
    ap.add_argument("--steps", type=int, default=400)
    ap.add_argument("--lr", type=float, default=0.05)
    args = ap.parse_args()
    t0 = time.perf_counter()
    try:
        for r in PRESETS:
            get_rules(r)
        if min(args.hands, args.part, args.budget, args.samples, args.steps) < 1 \
                or args.tau <= 0 or args.l2 < 0:
            raise ValueError("--hands, --part, --budget, --samples, --steps and --tau must be "
                             "positive, --l2 not negative")
        generate_parts(args.data, list(PRESETS), args.hands, args.part, args.seed, args.budget,
                       args.samples, lambda r, first, n, nd, nc: print(
                           f"teacher {r} hands {first}..{first + n - 1}: {nd} decisions "
                           f"({time.perf_counter() - t0:.0f} s)", flush=True))
        data, _ = lt.load_dir(args.data, np.float64)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    t_data = time.perf_counter() - t0
    data = data.subset(data.hand < args.hands)
    val = lt.is_validation(data.hand)
    train, valid = data.subset(~val), data.subset(val)
    t1 = time.perf_counter()
    w = lt.fit(train, args.tau, args.l2, args.steps, args.lr)
    t_fit = time.perf_counter() - t1
    figures, check = {}, {}
    for r in (*PRESETS, "both"):
        v = valid if r == "both" else valid.subset(valid.rules == r)
        figures[r] = {"learned": lt.figures(v, lt.picks(v, lt.scores(v, w))),
                      "heuristic2": lt.figures(v, lt.heuristic2_picks(v))}
        print(_line(f"{r} learned   ", figures[r]["learned"]))
        print(_line(f"{r} heuristic2", figures[r]["heuristic2"]))
        if r != "both":  # the first validation hand, for the test to play again
            hand = lt.VALIDATION_EVERY - 1
            c = v.subset(v.hand == hand)
            check[r] = {"hand": hand, **lt.figures(c, lt.picks(c, lt.scores(c, w)))}
    train_fig = lt.figures(train, lt.picks(train, lt.scores(train, w)))
    print(_line("training set learned", train_fig))
    info = {"seed": args.seed, "hands_per_preset": args.hands,
            "teacher": {"policy": "pimc", "rollout": "heuristic2", "budget": args.budget,
                        "samples": args.samples},
            "fit": {"tau": args.tau, "l2": args.l2, "steps": args.steps, "lr": args.lr},
            "train_decisions": train_fig["n"], "validation": figures, "check": check,
            "seconds": {"data": round(t_data, 1), "fit": round(t_fit, 1)}}
    buf = io.BytesIO()
    np.savez(buf, weights=w, info=np.array(json.dumps(info)))
    write_atomic(args.out, buf.getvalue())
    print(f"wrote {args.out} (data {t_data:.0f} s, fit {t_fit:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
