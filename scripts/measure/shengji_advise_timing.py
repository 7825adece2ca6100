"""Wall time of ``xianniu shengji advise`` on typical decisions at the default precision
(±0.1 levels), with the default policies (``--policy`` and ``--opponents`` set others).

Positions: random hands (zhengzhou, both teams at 2, banker 0) played by the engine's
seeded random actions (seed ``--seed``) and stopped at a declaring turn with a choice, at
the first bury, at the 1st and the 4th lead, and at a follow of trick 5. A first query of
each kind warms the kernels and is not counted. Each position is timed in this process once
the kernels are loaded (the query alone) and as a fresh process (start-up and loading the
cached kernels included). The load average is printed before and after.

Usage: python scripts/measure/shengji_advise_timing.py [--positions K] [--seed S] [--policy P]
           [--opponents P]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from analyzer.shengji.advise import DEFAULT_OPPONENTS, DEFAULT_POLICY, advise
from analyzer.shengji.engine import new_hand, random_action
from analyzer.shengji.records import record_of

KINDS = {"declare": ("declare", 0), "bury": ("bury", 0), "first lead": ("lead", 0),
         "4th lead": ("lead", 3), "follow": ("follow", 12)}


def _phase(st) -> str:
    if st.phase == "play":
        return "follow" if st.tricks[-1].plays else "lead"
    return st.phase


def position(rng: random.Random, phase: str, skip: int):
    st = new_hand("zhengzhou", (2, 2), 0, rng=random.Random(rng.random()))
    seen = 0
    while not st.is_terminal():
        if _phase(st) == phase and (phase != "declare" or len(st.legal_actions()) > 1):
            if seen == skip:
                return record_of(st)
            seen += 1
        st.apply(random_action(st, rng))
    return None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=6)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--policy", default=DEFAULT_POLICY)
    ap.add_argument("--opponents", default=DEFAULT_OPPONENTS)
    args = ap.parse_args()
    who = {"policy": args.policy, "opponents": args.opponents}
    flags = ["--policy", args.policy, "--opponents", args.opponents]
    print("load before:", os.getloadavg(), "policy", args.policy, "opponents", args.opponents)
    rng = random.Random(args.seed)
    tmp = Path(tempfile.mkdtemp())
    for name, (phase, skip) in KINDS.items():
        recs = []
        while len(recs) < args.positions + 1:
            r = position(rng, phase, skip)
            if r is not None:
                recs.append(r)
        advise(recs[0], seed=1, **who)  # warm
        here, fresh, deals = [], [], []
        for i, r in enumerate(recs[1:]):
            query_seed = rng.randrange(2**32)
            t = time.perf_counter()
            res = advise(r, seed=query_seed, **who)
            here.append(time.perf_counter() - t)
            deals.append(res.deals)
            path = tmp / f"{name}{i}.json"
            path.write_text(json.dumps(r, ensure_ascii=False), encoding="utf-8")
            t = time.perf_counter()
            subprocess.run([sys.executable, "-m", "analyzer.cli", "shengji", "advise",
                            str(path), "--seed", str(query_seed), "--json", *flags], check=True,
                           capture_output=True)
            fresh.append(time.perf_counter() - t)
        print(f"{name:<10} n={len(here)}  in process median {statistics.median(here):.2f} s "
              f"(max {max(here):.2f});  fresh process median {statistics.median(fresh):.2f} s "
              f"(max {max(fresh):.2f});  deals {min(deals)}–{max(deals)}")
    print("load after:", os.getloadavg())


if __name__ == "__main__":
    main()
