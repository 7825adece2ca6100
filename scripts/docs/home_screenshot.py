"""The README's picture of ``xianniu serve``: the home page with a library of hands and its
luck-and-skill split.

    python scripts/docs/home_screenshot.py                 # docs/home.png
    python scripts/docs/home_screenshot.py --hands 12 --seed 2 --out /tmp/home.png

The library is a fresh one filled with ``--hands`` hands of random play of the three games
(seeded), one a day, the player in seat 0, some tagged; the page is the one ``xianniu
serve`` serves. Needs Chromium (``chromium`` on the PATH, or ``CHROMIUM``) and Playwright.
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from served import served_page  # noqa: E402  (beside this script)

from analyzer.core.contract import random_record  # noqa: E402
from analyzer.core.library import Library, parse_when  # noqa: E402
from analyzer.games import GAMES  # noqa: E402
from analyzer.web.home import make_home  # noqa: E402


def shoot(n_hands: int, seed: int, out: Path) -> None:
    games = list(GAMES.values())
    with tempfile.TemporaryDirectory() as tmp:
        lib = Path(tmp) / "lib.sqlite"
        day = dt.date(2026, 11, 20)
        with Library(lib) as library:
            for i, s in enumerate(np.random.SeedSequence(seed).spawn(n_hands)):
                game = games[i % len(games)]
                preset = game.facts.presets[(i // len(games)) % len(game.facts.presets)]
                tags = ["club"] if i % 3 == 0 else []
                library.add(random_record(game, preset, s), seat=0, tags=tags,
                            played=parse_when(f"{day + dt.timedelta(days=i)}T20:00"),
                            source="club.jsonl")
        tables = {name: g.part("web").make_app(library=lib) for name, g in GAMES.items()}
        with served_page(make_home(lib, tables), 800, 120_000) as (url, page):
            page.goto(url + "/")
            page.wait_for_selector("#hands-table")
            page.wait_for_function("document.body.dataset.busy === '0'")
            page.click("#split-btn")
            page.wait_for_selector(".split-table", timeout=600_000)
            page.screenshot(path=str(out), full_page=True)
    print(f"wrote {out}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=12)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "home.png")
    args = ap.parse_args()
    shoot(args.hands, args.seed, args.out)


if __name__ == "__main__":
    main()
