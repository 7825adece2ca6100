"""The 顶牛 ladder and the cost of hidden information under each preset, as a Markdown table
and JSON: duplicate heuristic − random, tuned − heuristic (``--deals``), pimc − tuned
(``--pimc-deals``), and each policy's open-hand loss at ``--positions`` late decisions.
Every figure carries n, its 95% CI, its seed and the command that reproduces it.

Usage: python scripts/measure/dingniu_ladder.py [--rules seed,navpil] [--deals 100000]
                                        [--pimc-deals 2000] [--positions 5000] [--seed 1]
                                        [--out ladder.json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np

from analyzer.core.fileio import write_atomic
from analyzer.dingniu.ladder import hidden_cost, ladder
from analyzer.dingniu.rules import PRESETS, get_rules


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="seed,navpil")
    ap.add_argument("--deals", type=int, default=100_000)
    ap.add_argument("--pimc-deals", type=int, default=2_000)
    ap.add_argument("--positions", type=int, default=5_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    names = [get_rules(n).name for n in args.rules.split(",")]
    out = {"command": "python scripts/measure/dingniu_ladder.py " + " ".join(sys.argv[1:]),
           "presets": {}}
    children = dict(zip(PRESETS, np.random.SeedSequence(args.seed).spawn(len(PRESETS))))
    for name in names:  # a preset's seeds do not depend on which others run
        child = children[name]
        lad_seed, cost_seed = (int(c.generate_state(1)[0]) for c in child.spawn(2))
        t0 = time.perf_counter()
        lad = ladder(name, args.deals, args.pimc_deals, lad_seed)
        t1 = time.perf_counter()
        cost = hidden_cost(name, args.positions, cost_seed)
        t2 = time.perf_counter()
        out["presets"][name] = {"ladder": lad.to_dict("records"),
                                "hidden_cost": cost.to_dict("records"),
                                "seconds": {"ladder": round(t1 - t0, 1),
                                            "hidden_cost": round(t2 - t1, 1)}}
        print(f"\n{name}: ladder ({t1 - t0:.0f} s), points per hand, 95% CI over deals")
        for r in lad.to_dict("records"):
            print(f"| {name} | {r['a']} − {r['b']} | {r['diff']:+.3f} [{r['ci_low']:+.3f}, "
                  f"{r['ci_high']:+.3f}] | {r['n_deals']:,} | `{r['command']}` |")
        print(f"{name}: open-hand loss at late decisions ({t2 - t1:.0f} s), seed {cost_seed}")
        for r in cost.to_dict("records"):
            print(f"| {name} | {r['policy']} | {r['loss']:.3f} [{r['loss_low']:.3f}, "
                  f"{r['loss_high']:.3f}] | {r['p_best']:.1%} [{r['p_best_low']:.1%}, "
                  f"{r['p_best_high']:.1%}] | {r['n']:,} |")
        sys.stdout.flush()
    if args.out:
        write_atomic(args.out, json.dumps(out, ensure_ascii=False, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
