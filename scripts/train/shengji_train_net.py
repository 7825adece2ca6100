"""Train the 双升 ``net`` policy by self-play, resumable, one weight set per preset, then ship.

For each preset of ``--rules``, each round plays ``--hands`` whole hands (every seat net with
the weights in training and ε-greedy exploration ``--explore``; round 1 plays tuned's
choices), logs a decision with probability ``--log-rate`` with every candidate played out on
the true deal by tuned, fits the network to the candidates' gains over tuned's choice (the
last ``--window`` rounds' data), and evaluates it against ``tuned`` in team duplicate on
``--eval-deals`` deals (:mod:`analyzer.core.selfplay`, :mod:`analyzer.shengji.net_train`).
Every round is checkpointed in ``--run``/<preset>; the same command resumes after the last
finished round. The best round's weights then get their margin (the value a candidate must
beat to leave tuned's choice): each of ``--margins`` plays ``--margin-deals`` deals against
tuned from a seed spawned from ``--seed`` (not the documented tournaments' seed), the best in
attackers' points is kept. The weights, margin, figures, command and the stored check
(:func:`analyzer.shengji.net_train.action_hash`) go to ``--out`` (the package's
``net_weights.npz``; a preset not trained here keeps its entry).

Usage: python scripts/train/shengji_train_net.py [--seed 1] [--rules zhengzhou,classic]
           [--rounds 5] [--hands 80000] [--run build/shengji-net] [--no-ship]
"""

from __future__ import annotations

import argparse
import io
import json
import shlex
import sys
import time
from pathlib import Path

import numpy as np

from analyzer.core.fileio import write_atomic
from analyzer.core.mlp import FitSettings
from analyzer.core.selfplay import TrainConfig, Trainer
from analyzer.shengji.net import WEIGHTS_FILE, net_row
from analyzer.shengji.net_train import CHECK_HANDS, PRESETS, ShengjiSelfPlay, action_hash, duel
from analyzer.shengji.sim import tuned_row

CHECK_SEED = 200
MARGIN_KEY = 1_000_003  # spawn key of the margin choice's deals


def _margin_seed(seed: int) -> int:
    return int(np.random.SeedSequence(seed, spawn_key=(MARGIN_KEY,)).generate_state(1)[0]
               >> np.uint32(1))


def _train(rules: str, args, command: str, t0: float) -> dict:
    config = TrainConfig(seed=args.seed, rounds=args.rounds, hands=args.hands, tasks=args.tasks,
                         explore=args.explore, window=args.window,
                         fit=FitSettings(lr=args.lr, l2=args.l2, epochs=args.epochs,
                                         batch=args.batch),
                         eval_deals=args.eval_deals)
    game = ShengjiSelfPlay(rules, margin=0.0, log_rate=args.log_rate)
    trainer = Trainer(game, config, Path(args.run) / rules, command, args.backend,
                      args.scheduler, progress=lambda line: print(
                          f"[{time.perf_counter() - t0:6.0f} s] {rules}: {line}", flush=True))
    state = trainer.run()
    best = state["best_round"]
    fig = state["history"][best]
    print(f"{rules}: best round {best + 1}: {fig['eval']['text']}", flush=True)
    weights = trainer.load_weights(best)
    seed = _margin_seed(args.seed)
    trials = {}
    for m in args.margins:
        trials[m] = duel(weights, m, rules, seed, args.margin_deals)
        p = trials[m]["points"]
        print(f"{rules}: margin {m:g}: net - tuned {p['value']:+.2f} [{p['low']:+.2f}, "
              f"{p['high']:+.2f}] points per deal (n={p['n']}, seed {seed})", flush=True)
    margin = max(args.margins, key=lambda m: trials[m]["points"]["value"])
    row = net_row(tuned_row(rules), weights, margin)
    return {"weights": weights, "margin": margin, "seed": args.seed,
            "commands": state["commands"], "best_round": best, "config": state["config"],
            "figures": fig, "margin_trials": {"seed": seed, "deals": args.margin_deals,
                                              "results": {str(k): v for k, v in trials.items()}},
            "history": [{"round": h["round"], "eval": h["eval"]["text"], "seconds": h["seconds"]}
                        for h in state["history"]],
            "training_seconds": round(sum(h["seconds"] for h in state["history"]), 1),
            "check": {"seed": CHECK_SEED, "hands": CHECK_HANDS,
                      "sha256": action_hash(row, rules, CHECK_SEED)}}


def _ship(out: str, trained: dict[str, dict]) -> None:
    arrays: dict[str, np.ndarray] = {}
    info: dict = {}
    if Path(out).exists():
        with np.load(out) as z:
            arrays = {k: z[k] for k in z.files if k.startswith("weights_")}
            info = json.loads(str(z["info"]))
    for rules, d in trained.items():
        arrays[f"weights_{rules}"] = d.pop("weights")
        info[rules] = d
    buf = io.BytesIO()
    np.savez(buf, info=np.array(json.dumps(info)), **arrays)
    write_atomic(out, buf.getvalue())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rules", default=",".join(PRESETS), help="presets, comma-separated")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--hands", type=int, default=80_000, help="self-play hands a round")
    ap.add_argument("--tasks", type=int, default=8, help="self-play tasks a round")
    ap.add_argument("--explore", type=float, default=0.03)
    ap.add_argument("--log-rate", type=float, default=0.1,
                    help="share of decisions played out and logged")
    ap.add_argument("--window", type=int, default=2, help="rounds of data each fit sees")
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--batch", type=int, default=1024)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--l2", type=float, default=1e-5)
    ap.add_argument("--eval-deals", type=int, default=4000)
    ap.add_argument("--margins", default="0,0.1,0.2,0.4",
                    help="margins tried on the best weights (units of 10 points)")
    ap.add_argument("--margin-deals", type=int, default=10_000)
    ap.add_argument("--run", default="build/shengji-net", help="the run's folder")
    ap.add_argument("--out", default=str(WEIGHTS_FILE))
    ap.add_argument("--no-ship", action="store_true", help="train only; write no --out")
    ap.add_argument("--backend", default="local", choices=("local", "dask"))
    ap.add_argument("--scheduler", default=None)
    args = ap.parse_args(argv)
    command = "python scripts/train/shengji_train_net.py " + shlex.join(
        sys.argv[1:] if argv is None else argv)
    t0 = time.perf_counter()
    try:
        presets = [r.strip() for r in args.rules.split(",")]
        if any(r not in PRESETS for r in presets):
            raise ValueError(f"--rules takes presets of {', '.join(PRESETS)}")
        args.margins = [float(m) for m in args.margins.split(",")]
        if args.margin_deals < 2:
            raise ValueError("--margin-deals must be at least 2")
        trained = {r: _train(r, args, command, t0) for r in presets}
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if not args.no_ship:
        _ship(args.out, trained)
        print(f"wrote {args.out} ({time.perf_counter() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
