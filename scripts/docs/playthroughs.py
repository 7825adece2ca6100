"""Write the golden playthroughs of the contract suite: the record of one seeded random hand
per game, preset and seed (tests/data/playthroughs/GAME-PRESET-SEED.json).

    python scripts/docs/playthroughs.py            # every game
    python scripts/docs/playthroughs.py --game G   # one game

Run it only after a deliberate change of an engine's behaviour, and read the diff.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

from analyzer.core.contract import playthrough  # noqa: E402
from analyzer.core.fileio import write_atomic  # noqa: E402
from analyzer.games import GAMES, get_game  # noqa: E402

OUT = ROOT / "tests" / "data" / "playthroughs"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", choices=list(GAMES), action="append")
    args = ap.parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    for name in args.game or list(GAMES):
        game = get_game(name)
        seeds = importlib.import_module(f"contract_{name}").HOOKS.golden_seeds
        for preset in game.facts.presets:
            for seed in seeds:
                path = OUT / f"{name}-{preset}-{seed}.json"
                write_atomic(path, playthrough(game, preset, seed))
                print(path.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
