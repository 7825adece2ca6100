"""Where cold compile time goes: every kernel Numba compiles for a game's warmup (or for one
command), with its own time, its typing and lowering time, and how many signatures.

    python scripts/compile_times.py --game xianniu            # the game's warmup, cold
    python scripts/compile_times.py --command "should-xian 9s9h9c9dKsQhQcJs10h8c7h6s3c3h2sAd"
    python scripts/compile_times.py --game shengji --csv shengji.csv --top 40

The kernel cache is a fresh empty folder (``NUMBA_CACHE_DIR``), so everything compiles.
"own" is the wall time of a kernel's compilation less that of the kernels compiled inside
it (Numba compiles a callee while it types its caller), so the column sums to the total;
"typing" and "lowering" are Numba's pass timings of that kernel (callees included in
typing). Times vary with the machine's load: compare runs made at the same load.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path


def _listener(rows: dict, stack: list):
    from numba.core import event

    class Listener(event.Listener):
        def on_start(self, ev):
            stack.append([ev.data["dispatcher"], time.perf_counter(), 0.0])

        def on_end(self, ev):
            disp, t0, inner = stack.pop()
            took = time.perf_counter() - t0
            if stack:
                stack[-1][2] += took
            name = f"{disp.py_func.__module__}.{disp.py_func.__qualname__}"
            row = rows[name]
            row["own"] += took - inner
            row["total"] += took
            row["compiles"] += 1
            row["module"] = disp.py_func.__module__

    return Listener()


def _pass_times(rows: dict) -> None:
    """Typing and lowering times from each compiled kernel's pipeline timings."""
    import gc

    from numba.core.registry import CPUDispatcher

    for obj in gc.get_objects():
        if not isinstance(obj, CPUDispatcher):
            continue
        name = f"{obj.py_func.__module__}.{obj.py_func.__qualname__}"
        if name not in rows:
            continue
        for cres in obj.overloads.values():
            times = cres.metadata.get("pipeline_times", {}).get("nopython", {})
            for key, t in times.items():
                if key.endswith("nopython_type_inference"):
                    rows[name]["typing"] += t.run
                elif key.endswith("native_lowering"):
                    rows[name]["lowering"] += t.run


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    what = ap.add_mutually_exclusive_group(required=True)
    what.add_argument("--game", help="compile the game's warmup (xianniu, dingniu, shengji)")
    what.add_argument("--command", help="an xianniu command line, in quotes")
    ap.add_argument("--top", type=int, default=25, help="rows to print (default 25)")
    ap.add_argument("--csv", type=Path, help="write every row here")
    args = ap.parse_args(argv)

    os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="xianniu-cold-")
    from numba.core import event

    rows: dict = defaultdict(lambda: {"own": 0.0, "total": 0.0, "typing": 0.0,
                                      "lowering": 0.0, "compiles": 0, "module": ""})
    stack: list = []
    event.register("numba:compile", _listener(rows, stack))
    t0 = time.perf_counter()
    if args.game:
        from analyzer.games import get_game

        get_game(args.game).part("warmup").warmup()
    else:
        from analyzer.cli import main as cli_main

        rc = cli_main(shlex.split(args.command))
        if rc not in (0, None):
            print(f"the command ended with status {rc}", file=sys.stderr)
    wall = time.perf_counter() - t0
    _pass_times(rows)
    order = sorted(rows.items(), key=lambda kv: -kv[1]["own"])
    own = sum(r["own"] for r in rows.values())
    print(f"{len(rows)} kernels, {sum(r['compiles'] for r in rows.values())} compilations; "
          f"compiling {own:.1f} s of {wall:.1f} s wall (the rest runs the kernels)")
    print(f"{'kernel':64} {'own s':>7} {'typing':>7} {'lower':>7} {'sigs':>4}")
    for name, r in order[:args.top]:
        print(f"{name[-64:]:64} {r['own']:7.2f} {r['typing']:7.2f} {r['lowering']:7.2f} "
              f"{r['compiles']:4d}")
    by_module: dict[str, float] = defaultdict(float)
    for r in rows.values():
        by_module[r["module"]] += r["own"]
    print("\nby module:")
    for mod, s in sorted(by_module.items(), key=lambda kv: -kv[1]):
        print(f"  {mod:60} {s:7.2f} s")
    if args.csv:
        import csv

        with args.csv.open("w", newline="", encoding="utf-8") as f:
            w = csv.writer(f)
            w.writerow(["kernel", "own_s", "total_s", "typing_s", "lowering_s", "compiles"])
            for name, r in order:
                w.writerow([name, f"{r['own']:.3f}", f"{r['total']:.3f}", f"{r['typing']:.3f}",
                            f"{r['lowering']:.3f}", r["compiles"]])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
