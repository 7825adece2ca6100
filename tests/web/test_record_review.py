"""The review of a loaded record at the web tables (the ``review_record`` query): through
HTTP for both games (the same numbers as ``review``, bad input refused in one line), and in
the browser: load a record, review a seat, see its decisions worst first."""

from __future__ import annotations

import json
import os
import random

import pytest
from starlette.testclient import TestClient
from webtable import TOFU_JS, chromium_path, dejavu_only_fontconfig, live_server

from analyzer.dingniu import api as dapi
from analyzer.dingniu import web as dweb
from analyzer.dingniu.engine import random_start
from analyzer.dingniu.records import record_of
from analyzer.xianniu import api as xapi
from analyzer.xianniu import web as xweb
from analyzer.xianniu.sim import hand_records


def _dingniu_record(seed: int) -> dict:
    rng = random.Random(seed)
    st = random_start("seed", rng)
    while not st.is_terminal():
        st.apply(rng.choice(st.legal_actions()))
    return record_of(st)


def _run(client, body) -> dict:
    r = client.post("/api/queries/review_record", json=body)
    assert r.status_code == 200, r.text
    jid = r.json()["job"]
    for _ in range(6000):
        data = client.get(f"/api/jobs/{jid}").json()
        if data["finished"]:
            assert data.get("error") is None, data
            return data["result"]
    raise AssertionError("the review did not finish")


GAMES = {
    "xianniu": (lambda: xweb.make_app(), lambda: hand_records(1, "lanzhou", "heuristic", seed=3)[0],
                lambda rec, seat: xapi.review(rec, [seat], seed=0)),
    "dingniu": (lambda: dweb.make_app(advice_samples=40), lambda: _dingniu_record(7),
                lambda rec, seat: dapi.review(rec, [seat], seed=0, samples=40)),
}


@pytest.mark.parametrize("game", GAMES)
def test_a_loaded_record_is_reviewed_as_the_command_does(game):
    make, record, direct = GAMES[game]
    rec = record()
    with TestClient(make(), base_url="http://127.0.0.1") as client:
        got = _run(client, {"record": rec, "seat": 1})
        assert got == json.loads(json.dumps(direct(rec, 1).to_json(), ensure_ascii=False))
        assert got["seats"] == [1] and got["thresholds"]
        for body, word in (({"record": {**rec, "actions": rec["actions"][:1] * 2}}, "action 1"),
                           ({"record": rec, "seat": 9}, "seat"), ({}, "record")):
            r = client.post("/api/queries/review_record", json=body)
            assert r.status_code == 400 and word in r.json()["error"]
            assert "\n" not in r.json()["error"]


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    from playwright.sync_api import sync_playwright

    tmp = tmp_path_factory.mktemp("record-review-browser")
    env = {**os.environ, "FONTCONFIG_FILE": str(dejavu_only_fontconfig(tmp))}
    app = dweb.make_app(seed=5, advice_samples=40)
    app.state.game.warmup()
    with live_server(app) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), env=env,
                                    args=["--no-sandbox", "--disable-gpu"])
        pg = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        errors: list[str] = []
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pg.set_default_timeout(60_000)
        pg.goto(url + "/")
        pg.wait_for_selector("#board[data-turn]")
        pg.tmp, pg.errors = tmp, errors
        yield pg
        assert errors == []
        browser.close()


def test_load_a_record_and_review_it_in_the_browser(page):
    rec = _dingniu_record(7)
    path = page.tmp / "hand.json"
    path.write_text(json.dumps(rec, ensure_ascii=False), encoding="utf-8")
    page.set_input_files("#load-file", str(path))
    page.wait_for_selector("#replay")
    page.select_option("#rr-seat", "0")
    page.click("#rr-btn")
    page.wait_for_selector("#rr-table")
    want = dapi.review(rec, [0], seed=0, samples=40)
    valued = sorted((r for r in want.rows if not r["forced"]),
                    key=lambda r: -r["loss"]["value"])
    rows = page.locator("#rr-table tr")
    assert rows.count() == 1 + len(valued)
    if valued:  # worst first: the first row is the costliest decision
        assert rows.nth(1).locator("td").first.inner_text() == str(valued[0]["index"])
    assert "95%" in page.inner_text("#record-review")
    page.click("#rp-next")  # stepping through the record keeps the review
    page.wait_for_selector("#rr-table")
    # the review's words and the tiles render from the page's font (the page is in Chinese)
    res = page.evaluate(TOFU_JS, page.evaluate("document.body.innerText"))
    assert res["bad"] == [] and res["chars"] > 20
    page.click("#lang-btn")
    page.wait_for_selector("#rr-table")
    assert "Labels" in page.inner_text("#record-review")
    assert page.errors == []
