"""Where cold compile time goes: every kernel Numba compiles for a game's warmup (or for one
command), with its own time, its typing and lowering time, and how many signatures.

    python scripts/measure/compile_times.py --game xianniu            # the game's warmup, cold
    python scripts/measure/compile_times.py \
        --command "should-xian 9s9h9c9dKsQhQcJs10h8c7h6s3c3h2sAd"
    python scripts/measure/compile_times.py --game shengji --csv shengji.csv --top 40
    python scripts/measure/compile_times.py --suite [-- PYTEST ARGS]   # the test suite, cold

With ``--suite`` the README's test command runs on an empty cache with a listener in every
pytest worker, and the table adds how many kernels two workers compiled alike (the same
kernel and argument types, paid twice because neither had cached it yet).

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


def pytest_configure(config):
    """With ``--suite``: each pytest process (xdist worker) logs its compilations to
    ``$COMPILE_LOG.<pid>`` (worker, kernel, own seconds, argument types)."""
    out = os.environ.get("COMPILE_LOG")
    if not out:
        return
    from numba.core import event

    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    log = open(f"{out}.{os.getpid()}", "a", buffering=1, encoding="utf-8")  # noqa: SIM115
    stack: list = []

    class Listener(event.Listener):
        def on_start(self, ev):
            stack.append([ev.data["dispatcher"], time.perf_counter(), 0.0, ev.data["args"]])

        def on_end(self, ev):
            disp, t0, inner, args = stack.pop()
            took = time.perf_counter() - t0
            if stack:
                stack[-1][2] += took
            name = f"{disp.py_func.__module__}.{disp.py_func.__qualname__}"
            log.write(f"{worker}\t{name}\t{took - inner:.3f}\t{args}\n")

    event.register("numba:compile", Listener())


def _suite(pytest_args: list[str], top: int) -> int:
    """The suite on an empty cache, every worker's compilations logged; prints the totals."""
    import subprocess

    work = Path(tempfile.mkdtemp(prefix="xianniu-suite-compile-"))
    env = dict(os.environ, NUMBA_CACHE_DIR=str(work / "cache"), COMPILE_LOG=str(work / "log"),
               PYTHONPATH=os.pathsep.join([str(Path(__file__).parent),
                                           os.environ.get("PYTHONPATH", "")]))
    t0 = time.perf_counter()
    rc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "compile_times",
                         *pytest_args], env=env, check=False).returncode
    wall = time.perf_counter() - t0
    rows = [line.rstrip("\n").split("\t") for f in sorted(work.glob("log.*"))
            for line in f.open(encoding="utf-8")]
    by_kernel: dict = defaultdict(lambda: [0.0, 0])
    seen: dict = defaultdict(list)
    for worker, name, own, args in rows:
        by_kernel[name][0] += float(own)
        by_kernel[name][1] += 1
        seen[name, args].append((worker, float(own)))
    twice = {k: v for k, v in seen.items() if len({w for w, _ in v}) > 1}
    wasted = sum(sum(t for _, t in v) - max(t for _, t in v) for v in twice.values())
    total = sum(t for t, _ in by_kernel.values())
    print(f"suite exit status {rc}, {wall:.0f} s wall; {len(rows)} compilations, {total:.1f} s "
          f"of own compile time; {len(twice)} compiled by two workers alike ({wasted:.1f} s "
          f"paid twice)")
    by_game: dict[str, float] = defaultdict(float)
    for name, (t, _) in by_kernel.items():
        parts = name.split(".")
        by_game[parts[1] if parts[0] == "kernels" and len(parts) > 2 else parts[0]] += t
    print("by game: " + ", ".join(f"{g} {t:.1f} s" for g, t in
                                  sorted(by_game.items(), key=lambda kv: -kv[1])))
    print(f"{'kernel':64} {'own s':>7} {'compiles':>8}")
    for name, (t, n) in sorted(by_kernel.items(), key=lambda kv: -kv[1][0])[:top]:
        print(f"{name[-64:]:64} {t:7.2f} {n:8d}")
    return rc


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    what = ap.add_mutually_exclusive_group(required=True)
    what.add_argument("--game", help="compile the game's warmup (xianniu, dingniu, shengji)")
    what.add_argument("--command", help="an xianniu command line, in quotes")
    what.add_argument("--suite", action="store_true",
                      help="the test suite (arguments after -- go to pytest)")
    ap.add_argument("--top", type=int, default=25, help="rows to print (default 25)")
    ap.add_argument("--csv", type=Path, help="write every row here")
    argv = sys.argv[1:] if argv is None else argv
    rest = argv[argv.index("--") + 1:] if "--" in argv else []
    args = ap.parse_args(argv[:argv.index("--")] if "--" in argv else argv)
    if args.suite:
        return _suite(rest, args.top)

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
        by_module[r["module"] or "(no module)"] += r["own"]
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
