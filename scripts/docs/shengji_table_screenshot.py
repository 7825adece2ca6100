"""The README's picture of the 双升 table: a hand played from the deal in headless Chromium,
shot at seat 0's first play after ``--tricks`` tricks, with the play selected.

    python scripts/docs/shengji_table_screenshot.py                      # docs/shengji-table.png
    python scripts/docs/shengji_table_screenshot.py --seed 11 --tricks 6 --out /tmp/t.png

Seat 0's own decisions are made by the table's bot policy (``--opponents``, default the
table's), so the picture shows a sensible hand; the page is the one ``xianniu shengji play``
serves. Needs Chromium (``chromium`` on the PATH, or ``CHROMIUM``) and Playwright.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from analyzer.shengji import web as sweb  # noqa: E402
from analyzer.shengji.web_bot import Bot  # noqa: E402
from analyzer.web.server import in_background  # noqa: E402


def _idle(page) -> str:
    page.wait_for_function("document.body.dataset.busy === '0' && "
                           "document.querySelector('#board').dataset.turn !== 'bot'")
    return page.get_attribute("#board", "data-turn")


def _click_cards(page, names: list[str]) -> None:
    for name in names:
        page.locator(f"#hand .card[data-card='{name}']:not(.selected)").first.click()


def shoot(seed: int, tricks: int, out: Path, opponents: str) -> None:
    from playwright.sync_api import sync_playwright

    app = sweb.make_app(seed=seed, opponents=opponents)
    app.state.game.warmup()
    me = Bot(0, opponents, np.random.SeedSequence(seed))
    chromium = os.environ.get("CHROMIUM") or shutil.which("chromium")
    with in_background(app) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium,
                                    args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
        page.set_default_timeout(120_000)
        page.goto(url + "/")
        page.wait_for_selector("#board[data-turn]")
        for _ in range(200):
            if _idle(page) == "over":
                raise SystemExit("the hand ended before the picture: try fewer --tricks")
            version = page.get_attribute("#board", "data-version")
            sid = page.evaluate("sessionStorage.getItem('xn-shengji-game')")
            table = app.state.sessions.slot(sid).obj
            state = table.state
            action = me.choose(state.clone())
            phase = page.get_attribute("#board", "data-phase")
            if phase in ("bury", "play"):
                _click_cards(page, sweb.names(action.cards))
                if phase == "play" and len(state.tricks) > tricks:
                    page.mouse.move(0, 0)
                    page.screenshot(path=str(out))
                    print(f"wrote {out} (seed {seed}, trick {len(state.tricks)})")
                    return
                page.click("#bury-btn:not([disabled])" if phase == "bury"
                           else "#play-btn:not([disabled])")
            else:  # declaring, 造反, 扒鸡窝: the listed choice that is the bot's
                page.locator("#actions button.act").nth(_choice_index(table, action)).click()
            page.wait_for_function(
                f"document.querySelector('#board').dataset.version !== '{version}'")
        raise SystemExit("no play of seat 0 reached")


def _choice_index(table, action) -> int:
    from analyzer.shengji.engine import action_key

    # the page lists the choices in the engine's order; the bot's choice is one of them
    return [action_key(a) for a in table.state.legal_actions()].index(action_key(action))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--tricks", type=int, default=4, help="tricks played before the picture")
    ap.add_argument("--opponents", default=sweb.DEFAULT_OPPONENTS)
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "shengji-table.png")
    args = ap.parse_args()
    shoot(args.seed, args.tricks, args.out, args.opponents)


if __name__ == "__main__":
    main()
