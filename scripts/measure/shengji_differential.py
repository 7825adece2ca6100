"""Replay kernel whole 双升 hands (bidding included) in the reference engine, at length.

    python scripts/measure/shengji_differential.py [--hands N] [--seed S]
        [--rules zhengzhou,classic]

For each preset, N random whole hands are played in the kernels — spread over normal hands
at several levels and banker seats and 抢庄局 first hands — and replayed action by action
from the same deal (``analyzer.shengji.crosscheck``). Prints hands/s of the replay and the
first differences; exits 1 if any hand disagrees.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from analyzer.shengji import crosscheck as wr  # noqa: E402
from analyzer.shengji.rules import get_rules  # noqa: E402
from kernels.shengji import game as kw  # noqa: E402

# (team levels, start banker or None for a 抢庄局, share of the hands)
SETTINGS = [((2, 2), 0, 0.4), ((5, 9), 1, 0.2), ((14, 3), None, 0.2), ((13, 14), 3, 0.2)]


def run(rules: str, n: int, seed: int) -> int:
    r = get_rules(rules)
    bad = 0
    played = 0
    t = time.perf_counter()
    for i, (levels, banker, share) in enumerate(SETTINGS):
        k = max(1, round(n * share))
        hands = wr.kernel_hands(k, r, seed * 10 + i, levels, banker)
        diffs = wr.replay_all(hands, r)
        played += k
        bad += len(diffs)
        for h, err in diffs[:5]:
            print(f"  {r.name} levels {levels} banker {banker} hand {h}: {err}")
        res = hands.res
        print(f"{r.name:>10} levels {levels} banker {banker}: {k} hands, {len(diffs)} differ; "
              f"造反 {(res[:, kw.W_REBEL] >= 0).sum()}, 下台 {res[:, kw.W_STEPPED_DOWN].sum()}, "
              f"random trump {res[:, kw.W_RANDOM_TRUMP].sum()}, 扒鸡窝 swaps "
              f"{res[:, kw.W_BAJIWO].sum()}")
    dt = time.perf_counter() - t
    print(f"{r.name:>10}: {played} hands replayed in {dt:.1f} s ({played / dt:.0f} hands/s), "
          f"{bad} differ")
    return bad


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=3000, help="hands per preset")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--rules", default="zhengzhou,classic")
    args = ap.parse_args(argv)
    bad = sum(run(name.strip(), args.hands, args.seed) for name in args.rules.split(","))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
