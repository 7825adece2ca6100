"""xianniu serve in headless Chromium: a hand played at a table appears in the library, and a
stored hand opens in its table's review."""

from __future__ import annotations

import random

import numpy as np
import pytest
from webtable import (
    TOFU_JS,
    browser_page,
    live_server,
    play_dingniu_hand,
    play_shengji_hand,
    play_xianniu_hand,
)

from analyzer.core.contract import random_record
from analyzer.core.library import Library, parse_when
from analyzer.games import GAMES, get_game
from analyzer.web.home import make_home


@pytest.fixture(scope="module")
def home(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("home-browser")
    lib = tmp / "lib.sqlite"
    with Library(lib) as library:  # a hand of each game already there, played last week
        for game, seed in zip(GAMES.values(), np.random.SeedSequence(9).spawn(3)):
            library.add(random_record(game, game.facts.default_preset, seed), seat=0,
                        played=parse_when("2026-11-30"), source="club.jsonl", tags=["club"])
    tables = {name: g.part("web").make_app(library=lib) for name, g in GAMES.items()}
    for name in ("dingniu", "xianniu"):  # a cold kernel cache compiles here, not in a page
        tables[name].state.game.warmup()
    with live_server(make_home(lib, tables)) as url, browser_page(tmp) as pg:
        pg.url_root, pg.tables = url, tables
        yield pg


def _library_rows(page) -> int:
    page.wait_for_function("document.body.dataset.busy === '0'")
    return page.locator("#hands-table tbody tr").count()


def test_a_hand_at_the_table_shows_in_the_library_and_opens_in_its_review(home):
    page = home
    page.goto(page.url_root + "/")
    page.wait_for_selector("#hands-table")
    assert _library_rows(page) == 3
    assert page.locator(".table-link").count() == 3
    # play a 顶牛 hand at its table, reached from the home page
    page.click("#table-dingniu")
    page.wait_for_selector("#board[data-turn]")
    play_dingniu_hand(page)
    page.click("#home-link")
    page.wait_for_selector("#hands-table")
    assert _library_rows(page) == 4
    newest = page.locator("#hands-table tbody tr").first
    assert newest.get_attribute("data-hand") == "4"  # the newest first
    # and a 掀牛 hand at its table
    page.click("#table-xianniu")
    page.wait_for_selector("#board[data-turn]")
    assert play_xianniu_hand(page, advice=False) >= 1
    page.click("#home-link")
    page.wait_for_selector("#hands-table")
    assert _library_rows(page) == 5
    assert "兰州掀牛" in page.locator("#hands-table tbody tr").first.inner_text()
    # and a 双升 hand, from the declaring to the settlement
    page.click("#table-shengji")
    page.wait_for_selector("#board[data-turn]")
    play_shengji_hand(page, page.tables["shengji"], advice=False, rng=random.Random(2))
    page.click("#home-link")
    page.wait_for_selector("#hands-table")
    assert _library_rows(page) == 6
    assert page.locator("#hands-table tbody tr").first.get_attribute("data-hand") == "6"
    assert get_game("shengji").title in page.locator("#hands-table tbody tr").first.inner_text()
    # the filters: one game, then a tag
    page.select_option("#f-game", "dingniu")
    page.click("#filter-btn")
    page.wait_for_function("document.querySelectorAll('#hands-table tbody tr').length === 2")
    assert "n=2" in page.inner_text("#summary")
    page.select_option("#f-game", "")
    page.fill("#f-tag", "club")
    page.click("#filter-btn")
    page.wait_for_function("document.querySelectorAll('#hands-table tbody tr').length === 3")
    # the words render from the page's font: nothing drawn as a missing glyph
    res = page.evaluate(TOFU_JS, page.evaluate("document.body.innerText"))
    assert res["bad"] == [] and res["chars"] > 20
    # luck and skill, per game, with the trend by week drawn
    page.click("#split-btn")
    page.wait_for_selector(".split-table[data-game='dingniu']", timeout=240_000)
    assert page.locator(".split-table").count() == 3
    assert page.locator("svg.trend polyline").count() == 9
    assert "n=1" in page.inner_text(".split-table[data-game='xianniu'] tr[data-part='deal']")
    assert page.locator("#hands-table td.split-cell").count() == 9  # the 3 hands split
    res = page.evaluate(TOFU_JS, page.evaluate("document.body.innerText"))
    assert res["bad"] == []
    # a stored 掀牛 hand opens in the 掀牛 table's review
    page.locator("#hands-table tr[data-hand='1'] a.review-link").click()
    page.wait_for_selector("#replay #rp-pos")
    assert page.url.endswith("/xianniu/#hand=1")
    assert page.errors == []


def test_the_page_switches_language_and_shows_a_bad_filter(home):
    page = home
    page.goto(page.url_root + "/")
    page.wait_for_selector("#hands-table")
    zh = page.inner_text("#library-title")
    page.click("#lang-btn")
    assert page.inner_text("#library-title") != zh == "牌谱库"
    page.click("#lang-btn")
    page.evaluate("document.getElementById('f-since').type = 'text'")
    page.fill("#f-since", "yesterday")
    page.click("#filter-btn")
    page.wait_for_selector("#error:not([hidden])")
    assert "since" in page.inner_text("#error")
