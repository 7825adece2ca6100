"""Wall time of ``xianniu advise`` on typical decisions, warm.

Typical decisions come from seeded heuristic self-play (``--seed``): hand ``i`` of
``--decisions`` hands is cut at its ``i``-th tenth (the decision points where the seat to act
has a choice, at position ``round(i / (k - 1) * (points - 1))``), so the ten cover the
hand from the first lead to the last tricks. Each is timed in this process through the
Python API after one uncounted warm-up call (what a long-lived server sees), and with
``--cli`` also as a fresh ``xianniu advise`` process (that adds start-up and loading the
kernels from the cache).

Usage: python scripts/measure/xianniu_advise_timing.py [--decisions K] [--seed S]
                                               [--rules lanzhou,kanniutui]
                                       [--policy P] [--samples N] [--precision P] [--cli]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from analyzer.xianniu.advise import DEFAULT_POLICY, DEFAULT_PRECISION, advise
from analyzer.xianniu.records import replay
from analyzer.xianniu.sim import hand_records


def typical_decisions(rules: str, k: int, seed: int) -> list[dict]:
    """``k`` records, each cut at a decision point spread over its hand (module docstring)."""
    out = []
    for i, rec in enumerate(hand_records(k, rules, "heuristic", seed)):
        points = []
        for cut in range(len(rec["actions"])):
            part = {**rec, "actions": rec["actions"][:cut]}
            if len(replay(part).legal_actions()) > 1:
                points.append(part)
        out.append(points[round(i / max(k - 1, 1) * (len(points) - 1))])
    return out


def time_cli(record: dict, args) -> float:
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "record.json"
        path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
        cmd = [sys.executable, "-m", "analyzer.cli", "advise", str(path), "--json",
               "--policy", args.policy, "--precision", str(args.precision)]
        if args.samples:
            cmd += ["--samples", str(args.samples)]
        t = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True, text=True)
        return time.perf_counter() - t


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--decisions", type=int, default=10, help="decisions per rule preset")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--rules", default="lanzhou,kanniutui")
    ap.add_argument("--policy", default=DEFAULT_POLICY)
    ap.add_argument("--samples", type=int, default=None)
    ap.add_argument("--precision", type=float, default=DEFAULT_PRECISION)
    ap.add_argument("--cli", action="store_true", help="also time fresh CLI processes")
    args = ap.parse_args()
    for rules in args.rules.split(","):
        records = typical_decisions(rules, args.decisions, args.seed)
        advise(records[0], samples=args.samples, precision=args.precision,
               policy=args.policy, seed=0)  # warm-up, not counted
        times, cli_times = [], []
        for i, rec in enumerate(records):
            t = time.perf_counter()
            res = advise(rec, samples=args.samples, precision=args.precision,
                         policy=args.policy, seed=0)
            times.append(time.perf_counter() - t)
            line = (f"{rules} #{i}: {res.phase:<8} {len(res.actions):>3} groups, "
                    f"{res.deals:>6,} deals, stopped: {res.stopped:<12} {times[-1]:6.2f} s")
            if args.cli:
                cli_times.append(time_cli(rec, args))
                line += f"   cli {cli_times[-1]:6.2f} s"
            print(line, flush=True)
        print(f"{rules}: policy {args.policy}, precision {args.precision:g}, "
              f"samples {args.samples or 'default'}: API warm median "
              f"{statistics.median(times):.2f} s, max {max(times):.2f} s (n={len(times)})"
              + (f"; CLI median {statistics.median(cli_times):.2f} s, max "
                 f"{max(cli_times):.2f} s" if cli_times else ""), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
