"""Pictures of puzzles in ``xianniu serve``: per game, one solved and one missed, each as the
page shows it after the answer (the verdict, every action's value, the sampled deal).

    python scripts/docs/puzzle_screenshots.py                    # docs/puzzles/<game>-*.png
    python scripts/docs/puzzle_screenshots.py --set extra.jsonl  # also a set of one's own

The library is a fresh one holding the shipped sets (and ``--set`` files); the first puzzle
offered is answered right, the next wrong, through the table's own API, then the page is
reloaded and its board and puzzle panel drawn. Needs Chromium (``chromium`` on the PATH,
or ``CHROMIUM``) and Playwright.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from served import served_page  # noqa: E402  (beside this script)

from analyzer.core.library import Library  # noqa: E402
from analyzer.core.puzzles import read_set, shipped  # noqa: E402
from analyzer.games import GAMES  # noqa: E402
from analyzer.web.home import make_home  # noqa: E402


def _call(url: str, body: dict | None = None) -> dict:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req) as r:
        return json.loads(r.read())


def _answer(page, url: str, game: str, lib: Path, right: bool) -> None:
    """Open the next puzzle of ``game`` in ``page``, answer it through the API, redraw."""
    page.goto(f"{url}/")  # a change of the address's hash alone loads nothing
    page.goto(f"{url}/{game}/#puzzle=next")
    page.wait_for_selector("#pz-ask")
    sid = page.evaluate(f"sessionStorage.getItem('xn-{game}-game')")
    view = _call(f"{url}/{game}/api/games/{sid}")
    with Library(lib) as library:
        puzzle = library.puzzle(view["puzzle"]["id"])
    recs = GAMES[game].part("records")
    index = len(puzzle["position"]["actions"])
    answer = recs.action_from_json(puzzle["answer"], index)[1]
    wrong = recs.action_from_json(puzzle["actions"][1]["action"], index)[1]
    web = GAMES[game].part("web").GAME.position_table(puzzle["position"], puzzle["seat"], 0)
    action = web.action_page(answer if right else wrong)
    _call(f"{url}/{game}/api/games/{sid}/act", {"version": view["version"], "action": action})
    page.reload()
    page.wait_for_selector("#pz-verdict")
    page.wait_for_function("document.body.dataset.busy === '0'")


def _palette(path: Path) -> None:
    """The picture in 256 colours (a page of flat colours: a third of the bytes)."""
    from PIL import Image  # matplotlib's dependency

    with Image.open(path) as im:
        small = im.convert("RGB").quantize(256)
    small.save(path, optimize=True)


def shoot(sets: list[Path], out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        lib = Path(tmp) / "lib.sqlite"
        with Library(lib) as library:
            for game in GAMES.values():
                ship = shipped(game)
                for p in ship[1] if ship else []:
                    library.add_puzzle(p.to_json(), "shipped")
            for path in sets:
                for p in read_set(path.read_text(encoding="utf-8"), str(path))[1]:
                    library.add_puzzle(p.to_json(), path.name)
            have = [g for g in GAMES if library.count_puzzles(g)]
        tables = {name: g.part("web").make_app(library=lib) for name, g in GAMES.items()}
        with served_page(make_home(lib, tables), 900, 300_000) as (url, page):
            for game in have:
                for right, name in ((True, "solved"), (False, "missed")):
                    _answer(page, url, game, lib, right)
                    path = out / f"{game}-{name}.png"
                    top = page.locator("#board").bounding_box()
                    end = page.locator("#puzzle").bounding_box()
                    page.screenshot(path=str(path), full_page=True, clip={
                        "x": 0, "y": top["y"] - 8, "width": 1280,
                        "height": end["y"] + end["height"] - top["y"] + 16})
                    _palette(path)
                    print(f"wrote {path}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--set", dest="sets", type=Path, action="append", default=[],
                    help="A puzzle set to add (xianniu puzzles mine --out).")
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "puzzles")
    args = ap.parse_args()
    shoot(args.sets, args.out)


if __name__ == "__main__":
    main()
