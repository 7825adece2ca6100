"""The luck-and-skill split under self-play of each game's default player: the checks of
docs/library.md.

    python scripts/measure/luck_selfplay.py --game dingniu --hands 200 --seed 1
    python scripts/measure/luck_selfplay.py --game xianniu --hands 2000 --seed 1 --library x.sqlite

Hands are played in the kernels by the player the split values them under (the game's
``luck.PLAYER`` in every seat), read back as records through the reference engine, stored
in a library (``--library``, default a temporary one; a run stopped midway keeps the splits
it made), and each seat's result is split. Printed, per seat: the mean of each part a hand
with its 95% CI — under self-play the decisions' mean should hold 0, and the deal's mean
over the seats too where the results sum to 0 — and the time the splits took.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from analyzer.core.library import Filter, Library  # noqa: E402
from analyzer.core.luck import mean_parts, split_library  # noqa: E402
from analyzer.core.stats import Z95  # noqa: E402
from analyzer.games import get_game  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", choices=["xianniu", "dingniu", "shengji"], required=True)
    ap.add_argument("--hands", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--library", type=Path, default=None)
    args = ap.parse_args()
    game = get_game(args.game)
    records = game.part("luck").selfplay_records(args.hands, args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        path = args.library or Path(tmp) / "selfplay.sqlite"
        with Library(path) as lib:
            ids = [lib.add(r, source="self-play").id for r in records]
            per_seat = {}
            t0 = time.perf_counter()
            for seat in range(game.facts.n_seats):
                # a hand is stored with one seat: split each seat in turn
                lib.set_seat(ids, seat)
                pairs, _ = split_library(lib, Filter(ids=tuple(ids)), seed=args.seed)
                per_seat[seat] = mean_parts([s for _, s in pairs])
            took = time.perf_counter() - t0
    n_splits = len(ids) * game.facts.n_seats
    print(f"{args.game}: {len(ids):,} hands of {game.part('luck').PLAYER} self-play, every "
          f"seat split: {n_splits:,} splits in {took:.0f} s ({took / n_splits:.2f} s each)")
    for seat, means in per_seat.items():
        print(f"  seat {seat}: " + "  ".join(f"{k} {v.value:+.3f} [{v.low:+.3f}, {v.high:+.3f}]"
                                            for k, v in means.items()) + f" (n={len(ids)})")
    deals = np.array([[per_seat[s]["deal"].value for s in per_seat]])
    halves = np.array([(per_seat[s]["deal"].high - per_seat[s]["deal"].low) / 2 / Z95
                       for s in per_seat])
    mean = float(deals.mean())
    half = Z95 * float(np.sqrt((halves ** 2).sum())) / len(halves)
    print(f"  the deal's mean over the seats: {mean:+.3f} [{mean - half:+.3f}, "
          f"{mean + half:+.3f}] (n={len(ids)} hands a seat)")


if __name__ == "__main__":
    main()
