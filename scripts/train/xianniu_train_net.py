"""Train the ``net`` 掀牛 policy by self-play (deep Monte Carlo), resumable, then ship it.

Each round plays ``--hands`` hands (both presets, every seat the current network with
ε-greedy exploration ``--explore``; round 1 plays ``learned``), fits the action-value network
to the points each decision's seat ended its hand with (the last ``--window`` rounds' data),
and evaluates it against ``learned`` in duplicate tournaments of ``--eval-deals`` deals per
preset (:mod:`analyzer.core.selfplay`, :mod:`analyzer.xianniu.net_train`). Every round is
checkpointed in ``--run``; the same command resumes after the last finished round (more
``--rounds`` go on further). At the end the best round's weights are written to ``--out``
(the package's ``net_weights.npz``) with the seed, the command, the figures and the stored
check (:func:`analyzer.xianniu.net_train.action_hash` on both presets).

Usage: python scripts/train/xianniu_train_net.py [--seed 1] [--rounds 6] [--hands 60000]
           [--run build/net] [--backend local|dask] [--no-ship]
"""

from __future__ import annotations

import argparse
import io
import json
import shlex
import sys
import time

import numpy as np

from analyzer.core.fileio import write_atomic
from analyzer.core.mlp import FitSettings
from analyzer.core.selfplay import TrainConfig, Trainer
from analyzer.xianniu.net import WEIGHTS_FILE
from analyzer.xianniu.net_train import CHECK_HANDS, PRESETS, XianniuSelfPlay, action_hash

CHECK_SEED = 200


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--hands", type=int, default=60_000, help="self-play hands a round")
    ap.add_argument("--tasks", type=int, default=4, help="self-play tasks a round")
    ap.add_argument("--explore", type=float, default=0.05)
    ap.add_argument("--window", type=int, default=2, help="rounds of data each fit sees")
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--batch", type=int, default=1024)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--l2", type=float, default=1e-5)
    ap.add_argument("--eval-deals", type=int, default=2000)
    ap.add_argument("--run", default="build/net", help="the run's folder (checkpoints, data)")
    ap.add_argument("--out", default=str(WEIGHTS_FILE))
    ap.add_argument("--no-ship", action="store_true", help="train only; write no --out")
    ap.add_argument("--backend", default="local", choices=("local", "dask"))
    ap.add_argument("--scheduler", default=None)
    args = ap.parse_args(argv)
    command = "python scripts/train/xianniu_train_net.py " + shlex.join(
        sys.argv[1:] if argv is None else argv)
    t0 = time.perf_counter()
    config = TrainConfig(seed=args.seed, rounds=args.rounds, hands=args.hands, tasks=args.tasks,
                         explore=args.explore, window=args.window,
                         fit=FitSettings(lr=args.lr, l2=args.l2, epochs=args.epochs,
                                         batch=args.batch),
                         eval_deals=args.eval_deals)
    try:
        trainer = Trainer(XianniuSelfPlay(), config, args.run, command, args.backend,
                          args.scheduler, progress=lambda line: print(
                              f"[{time.perf_counter() - t0:6.0f} s] {line}", flush=True))
        state = trainer.run()
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    best = state["best_round"]
    fig = state["history"][best]
    print(f"best round {best + 1}: {fig['eval']['text']}")
    if args.no_ship:
        return 0
    weights = trainer.load_weights(best)
    check = {r: {"seed": CHECK_SEED, "hands": CHECK_HANDS,
                 "sha256": action_hash(weights, r, CHECK_SEED)} for r in PRESETS}
    info = {"seed": args.seed, "commands": state["commands"], "best_round": best,
            "config": state["config"], "figures": fig,
            "history": [{"round": h["round"], "eval": h["eval"]["text"], "seconds": h["seconds"]}
                        for h in state["history"]],
            "training_seconds": round(sum(h["seconds"] for h in state["history"]), 1),
            "check": check}
    buf = io.BytesIO()
    np.savez(buf, weights=weights, info=np.array(json.dumps(info)))
    write_atomic(args.out, buf.getvalue())
    print(f"wrote {args.out} ({time.perf_counter() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
