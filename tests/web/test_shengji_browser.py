"""The 双升 table in a real browser: headless Chromium (Debian's, driven by Playwright) clicks
whole hands from the deal through the settlement, with the advice off and on, sees a refused
throw explained, reaches the review, saves a record that ``xianniu shengji replay`` accepts
and loads it back; every Chinese label and card renders from the page's own web font
(Chromium is shown no CJK font of the system)."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest
from webtable import (
    TOFU_JS,
    chromium_path,
    dejavu_only_fontconfig,
    live_server,
    play_shengji_hand,
    shengji_idle,
    shengji_table,
)

from analyzer.shengji import web as sweb

ADVICE = {"samples": 256, "precision": 2.0}
KEY = "xn-shengji-game"
EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "shengji-hand.json"


def _compile_the_advice() -> None:
    # The advice and the review play out with kernels of their own (declaring, burying,
    # leading, following), which a cold cache compiles for minutes, far beyond a page
    # timeout: a review of the example hand for the banker reaches all of them first.
    from analyzer.core.review import review
    from analyzer.games import get_game

    record = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    review(get_game("shengji"), record, [record["banker"]], seed=0, samples=16, precision=2.0)


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    from playwright.sync_api import sync_playwright

    tmp = tmp_path_factory.mktemp("shengji-browser")
    env = {**os.environ, "FONTCONFIG_FILE": str(dejavu_only_fontconfig(tmp))}
    app = sweb.make_app(seed=3, advice_options=ADVICE)
    app.state.game.warmup()  # a cold kernel cache compiles here, not under a page timeout
    _compile_the_advice()
    with live_server(app) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), env=env,
                                    args=["--no-sandbox", "--disable-gpu"])
        pg = browser.new_context(viewport={"width": 1280, "height": 900},
                                 accept_downloads=True).new_page()
        errors: list[str] = []
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pg.set_default_timeout(60_000)
        pg.goto(url + "/")
        pg.wait_for_selector("#board[data-turn]")
        pg.tmp, pg.errors, pg.app = tmp, errors, app
        yield pg
        assert errors == []
        browser.close()


def test_whole_hands_clicked_with_advice_off_and_on(page, capsys):
    from analyzer.cli import main

    rng = random.Random(1)
    for advice, seed in ((False, "21"), (True, "22")):
        page.fill("#opt-seed", seed)
        page.click("#new-btn")
        shengji_idle(page)
        if advice != page.is_checked("#advice-toggle"):
            page.click("#advice-toggle")
        if advice:  # the progress indicator shows while the advice is computed
            page.wait_for_selector("#advice .progress, #advice .advice-table", state="visible")
        seen = play_shengji_hand(page, page.app, advice, rng, refuse=not advice)
        assert seen["decisions"] >= 10 and {"declare", "play"} <= seen["phases"]
        assert seen["refused"] or advice
        assert (seen["advice"] == seen["decisions"]) if advice else seen["advice"] == 0
        # the settlement: points, 抠底, the winner and the levels after
        end = page.inner_text("#settlement")
        assert "闲家得分" in end and "结算后级数" in end
        assert page.locator("#end .cards").count() >= 5  # the dealt hands and the kitty
        page.click("#review-btn")
        page.wait_for_selector("#end-rr-table")
        assert "总估计损失" in page.inner_text("#end-rr-total")
        with page.expect_download() as dl:
            page.click("#save-btn")
        path = page.tmp / f"shengji-{seed}.json"
        dl.value.save_as(path)
        assert main(["shengji", "replay", str(path)]) == 0
        assert "result: attackers' points" in capsys.readouterr().out
        page.tmp_record = path
    # the next hand, at the settled levels
    levels = shengji_table(page, page.app).state.result.levels_after
    page.click("#next-btn")
    shengji_idle(page)
    assert page.inner_text("#hand-no") == "第 2 局"
    from analyzer.shengji.cards import RANK_NAMES

    assert page.inner_text("#lv-us") == RANK_NAMES[levels[0]]
    # the second hand played out: the settlement lists the first
    page.click("#advice-toggle")
    play_shengji_hand(page, page.app, False, rng)
    assert page.locator("#history tr").count() == 2
    assert page.errors == []


def test_a_saved_record_loads_and_steps(page):
    path = getattr(page, "tmp_record", None)
    if path is None:
        pytest.fail("the first test saves the record this one loads")
    n = len(json.loads(path.read_text(encoding="utf-8"))["actions"])
    page.set_input_files("#load-file", str(path))
    page.wait_for_selector("#replay")
    assert page.inner_text("#rp-pos").endswith(f"0 / {n}")
    page.click("#rp-next")
    assert page.inner_text("#rp-pos").endswith(f"1 / {n}")
    page.click("#rp-last")
    assert page.inner_text("#rp-pos").endswith(f"{n} / {n}")
    assert page.locator("#replay .settlement").count() == 1
    assert page.locator("#replay .rp-hand").count() == 4


def test_every_label_and_card_renders_in_the_page_font_in_both_languages(page):
    page.fill("#opt-seed", "23")
    page.click("#new-btn")
    shengji_idle(page)
    page.evaluate("document.fonts.ready")
    for lang, title in (("zh", "双升"), ("en", "Shuangsheng (Tractor)")):
        page.wait_for_function(f"document.title === '{title}'")
        text = page.evaluate("document.body.innerText")
        res = page.evaluate(TOFU_JS, text)
        assert res["bad"] == [], f"{lang}: characters drawn as missing glyphs: {res['bad']}"
        page.click("#lang-btn")
    page.wait_for_function("document.title === '双升'")
    # cards are drawn as cards, ♥♦ red; the level and trump are on the page
    boxes = page.evaluate("""[...document.querySelectorAll('#hand .card')].map((c) => {
        const r = c.getBoundingClientRect();
        return [r.width, r.height, getComputedStyle(c).color, c.dataset.card]; })""")
    assert len(boxes) == 25
    for w, h, colour, name in boxes:
        assert w > 20 and h > w
        assert (colour == "rgb(198, 40, 40)") == (name[-1] in "♥♦" or name == "大王"), name
    assert page.inner_text("#level") and page.inner_text("#trump")
