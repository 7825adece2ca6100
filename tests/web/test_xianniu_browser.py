"""The 掀牛 table in a real browser: headless Chromium (Debian's, driven by Playwright) plays
whole hands by clicking, with the advice off and on, reaches the review and saves a record
that ``xianniu replay`` accepts; every Chinese label and card of the page renders from the
page's own web font (Chromium is shown no CJK font of the system)."""

from __future__ import annotations

import json
import os
import re
import time

import pytest
from webtable import (
    TOFU_JS,
    chromium_path,
    dejavu_only_fontconfig,
    live_server,
    play_xianniu_hand,
    table_idle,
)

from analyzer.xianniu.advise import advise
from analyzer.xianniu.web import make_app

ADVICE = {"samples": 64, "precision": 5.0}
SAVED: dict[str, object] = {}


def _slow_advise(record, _calls=[0], **kwargs):  # noqa: B006 (a call counter)
    """The real advice; the first one the page asks for (with a progress callback, unlike
    the review's) a little slower, so that the progress indicator can be seen."""
    if kwargs.get("progress") is not None:
        _calls[0] += 1
        if _calls[0] == 1:
            time.sleep(1.0)
    return advise(record, **kwargs)


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    from playwright.sync_api import sync_playwright

    tmp = tmp_path_factory.mktemp("browser")
    env = {**os.environ, "FONTCONFIG_FILE": str(dejavu_only_fontconfig(tmp))}
    app = make_app(seed=12, advisor=_slow_advise, advice_options=ADVICE, query_deals=400)
    app.state.game.warmup()  # a cold kernel cache compiles here, not under a page timeout
    with live_server(app) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), env=env,
                                    args=["--no-sandbox", "--disable-gpu"])
        context = browser.new_context(viewport={"width": 1280, "height": 900},
                                      accept_downloads=True)
        pg = context.new_page()
        errors = []
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pg.set_default_timeout(60_000)
        pg.goto(url + "/")
        pg.wait_for_selector("#board[data-turn]")
        pg.url_base = url
        pg.errors = errors
        pg.tmp = tmp
        yield pg
        assert errors == []
        browser.close()


def _review_and_save(page, name: str) -> dict:
    page.click("#review-btn")
    page.wait_for_selector("#review-table")
    rows = page.locator("#review-table tr").count() - 1
    assert rows >= 1
    assert page.locator("#points tr").count() == 4  # the settlement: a row per seat
    with page.expect_download() as dl:
        page.click("#save-btn")
    path = page.tmp / name
    dl.value.save_as(path)
    return json.loads(path.read_text(encoding="utf-8")), path


def test_whole_hands_by_clicking_with_advice_off_then_on(page, capsys):
    from analyzer.cli import main

    # seed 15: my first decision has a choice (30 leads), so its advice takes a while
    for advice, seed in ((False, "12"), (True, "15")):
        page.fill("#opt-seed", seed)
        page.click("#new-btn")
        table_idle(page)
        if advice != page.is_checked("#advice-toggle"):
            page.click("#advice-toggle")
        if advice:
            assert page.get_attribute("#board", "data-turn") == "me"
            assert int(page.get_attribute("#board", "data-legal")) > 1
            # the progress indicator shows while the advice is computed
            page.wait_for_selector("#advice .progress", state="visible", timeout=5000)
        decisions = play_xianniu_hand(page, advice)
        record, path = _review_and_save(page, f"hand-{seed}.json")
        assert decisions >= 2 and page.locator("#review-table tr").count() == decisions + 1
        assert main(["replay", str(path)]) == 0
        assert "hand over" in capsys.readouterr().out
        SAVED[seed] = path
    assert page.errors == []


def _record_by_http(page) -> object:
    """A finished hand's record, played through the HTTP API (first legal action each)."""
    import httpx2 as httpx

    with httpx.Client(base_url=page.url_base, timeout=60) as c:
        r = c.post("/api/games", json={"options": {"seed": 15}}).json()
        sid, view = r["id"], r["view"]
        while not view["over"]:
            a = view["legal"][0]
            view = c.post(f"/api/games/{sid}/act", json={
                "version": view["version"], "action": {"kind": a["kind"],
                                                       "cards": a["cards"]}}).json()
        path = page.tmp / "http-hand.json"
        path.write_text(json.dumps(c.get(f"/api/games/{sid}/record").json()), encoding="utf-8")
        return path


def test_a_loaded_record_steps_move_by_move(page):
    path = SAVED.get("12") or _record_by_http(page)
    n = len(json.loads(path.read_text(encoding="utf-8"))["actions"])
    page.set_input_files("#load-file", str(path))
    page.wait_for_selector("#replay")
    assert page.inner_text("#rp-pos").endswith(f"0 / {n}")
    page.click("#rp-next")
    assert page.inner_text("#rp-pos").endswith(f"1 / {n}")
    assert page.locator("#replay .rp-move").count() == 1
    page.click("#rp-last")
    assert page.inner_text("#rp-pos").endswith(f"{n} / {n}")
    assert page.locator("#replay .settlement").count() == 1


def test_the_should_kou_form_answers_with_cis(page):
    page.fill("#q-hand", "As Ah Ac 2s 2h 3s 5s 6h 7c 8d 9s 9h 10c Js Qh Kd")
    page.select_option("#q-kind", "should_kou")
    page.click("#q-ask")
    # on an empty kernel cache the first query compiles its search's kernels first
    page.wait_for_selector("#q-rec", timeout=240_000)
    text = page.inner_text("#q-result")
    assert "[" in text and "=" in text  # every estimate with its CI and n
    page.fill("#q-hand", "As Ah")
    page.click("#q-ask")
    page.wait_for_selector("#error:not([hidden])")
    assert "16" in page.inner_text("#error")


def _page_text(page) -> str:
    return page.evaluate("document.body.innerText")


def test_every_label_and_card_renders_in_the_page_font(page):
    page.fill("#opt-seed", "14")
    page.click("#new-btn")
    table_idle(page)
    page.evaluate("document.fonts.ready")
    assert page.evaluate("""[...document.fonts].some((f) => f.family.replace(/"/g, '') ===
                            'Xianniu Web' && f.status === 'loaded')""")
    for lang in ("zh", "en"):
        text = _page_text(page)
        res = page.evaluate(TOFU_JS, text)
        assert res["bad"] == [], f"{lang}: characters drawn as missing glyphs: {res['bad']}"
        if lang == "zh":
            assert res["chars"] > 40 and "掀" in text and "♥" in text
            page.screenshot(path=str(page.tmp / "table-zh.png"), full_page=True)
            page.click("#lang-btn")
            page.wait_for_function("document.title === 'Xianniu'")
    page.click("#lang-btn")
    page.wait_for_function("document.title === '掀牛'")
    # cards are drawn as cards: a box of their own with the rank and a coloured suit
    boxes = page.evaluate("""[...document.querySelectorAll('#hand .card')].map((c) => {
        const r = c.getBoundingClientRect();
        return [r.width, r.height, getComputedStyle(c).color, c.dataset.card]; })""")
    assert len(boxes) >= 1
    for w, h, colour, name in boxes:
        assert w > 20 and h > w
        red = name[-1] in "♥♦"
        assert (colour == "rgb(198, 40, 40)") == red, (name, colour)


def test_the_tofu_check_has_teeth(page):
    # 龘 is in no font Chromium is shown here: the detector must call it missing
    res = page.evaluate(TOFU_JS, "掀牛龘♠")
    assert res["bad"] == ["龘"]


def test_the_form_names_the_presets_and_offers_learned_bots(page):
    from analyzer.xianniu.rules import PRESETS
    from analyzer.xianniu.web_strings import PRESET_NAMES_EN

    def names():
        return page.eval_on_selector_all("#opt-rules option", "(os) => os.map((o) => o.textContent)")
    ids = page.eval_on_selector_all("#opt-rules option", "(os) => os.map((o) => o.value)")
    assert sorted(ids) == sorted(PRESETS)
    assert names() == [PRESETS[i].title for i in ids] and "兰州掀牛" in names()
    page.click("#lang-btn")
    page.wait_for_function("document.title === 'Xianniu'")
    assert names() == [PRESET_NAMES_EN[i] for i in ids]
    page.click("#lang-btn")
    page.wait_for_function("document.title === '掀牛'")
    assert page.input_value("#opt-opponents") == "net"


def test_the_end_speaks_the_page_language_and_the_review_counts_as_the_log(page):
    page.fill("#opt-seed", "16")
    page.click("#new-btn")
    table_idle(page)
    if page.is_checked("#advice-toggle"):
        page.click("#advice-toggle")
    assert play_xianniu_hand(page, advice=False) >= 1
    page.click("#review-btn")
    page.wait_for_selector("#review-table")
    # each review row's number is that move's number in the log, a move of mine
    numbers = [int(x) for x in page.eval_on_selector_all(
        "#review-table td.move-no", "(cs) => cs.map((c) => c.textContent)")]
    seats = page.eval_on_selector_all("#moves li", "(ls) => ls.map((l) => l.dataset.seat)")
    assert numbers and numbers == [k + 1 for k, s in enumerate(seats) if s == "0"]
    end = page.inner_text("#end")
    # Chinese: the seats by the page's names, no line of the CLI's English
    assert "头家" in end and "二家" in end and "三家" in end
    assert not re.search(r"\b(pays|seat|captured|nobody|points)\b", end), end
    assert page.locator("#end pre").count() == 0
    page.click("#lang-btn")
    page.wait_for_function("document.title === 'Xianniu'")
    end = page.inner_text("#end")
    assert not re.search(r"[\u4e00-\u9fff]", end), end  # English: no Chinese left
    assert "banker" in end and "Points" in end
    page.click("#lang-btn")
    page.wait_for_function("document.title === '掀牛'")


def test_the_table_names_the_preset_it_plays(page):
    page.select_option("#opt-rules", "kanniutui")
    page.fill("#opt-seed", "17")
    page.click("#new-btn")
    table_idle(page)
    assert page.inner_text("#preset") == "砍牛腿"
    page.click("#lang-btn")
    page.wait_for_function("document.title === 'Xianniu'")
    assert page.inner_text("#preset").startswith("Kan Niu Tui")
    page.click("#lang-btn")
    page.wait_for_function("document.title === '掀牛'")
    page.select_option("#opt-rules", "lanzhou")
