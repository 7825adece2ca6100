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


# -- entering a hand ---------------------------------------------------------------------------


def _enter(client, text) -> dict:
    return _run_query(client, "enter_hand", {"text": text})


def _run_query(client, name, body) -> dict:
    r = client.post(f"/api/queries/{name}", json=body)
    assert r.status_code == 200, r.text
    jid = r.json()["job"]
    for _ in range(6000):
        data = client.get(f"/api/jobs/{jid}").json()
        if data["finished"]:
            assert data.get("error") is None, data
            return data["result"]
    raise AssertionError("the query did not finish")


@pytest.mark.parametrize("game", GAMES)
def test_a_hand_is_entered_action_by_action(game):
    from analyzer.core.notation import to_text
    from analyzer.games import get_game

    make, record, _ = GAMES[game]
    rec = record()
    g = get_game(game)
    recs = g.part("records")
    cut = {**rec, "actions": rec["actions"][:2]}
    with TestClient(make(), base_url="http://127.0.0.1") as client:
        got = _enter(client, to_text(g, cut))
        assert got["record"] == recs.record_of(recs.replay(cut)) and not got["over"]
        state = recs.replay(cut)
        assert got["to_act"] == state.current_player()
        assert [x["entry"] for x in got["legal"]] == \
            [recs.action_to_json(state.current_player(), a) for a in state.legal_actions()]
        # the token of the action the record took next appends it
        nxt = rec["actions"][2]
        token = next(x["token"] for x in got["legal"] if x["entry"] == nxt)
        more = _enter(client, got["text"] + token + "\n")
        assert more["record"]["actions"] == rec["actions"][:3]
        r = client.post("/api/queries/enter_hand", json={"text": got["text"] + "nonsense@\n"})
        assert r.status_code == 400 and "action 2" in r.json()["error"]
        # the whole hand entered: over, nothing more to offer
        done = _enter(client, to_text(g, rec))
        assert done["over"] and done["legal"] == [] and done["record"] == rec


def test_enter_a_hand_and_review_it_in_the_browser(page):
    from analyzer.core.notation import to_text
    from analyzer.games import get_game

    rec = _dingniu_record(9)
    cut = {**rec, "actions": rec["actions"][:3]}
    page.fill("#eh-text", to_text(get_game("dingniu"), cut))
    page.click("#eh-check")
    page.wait_for_selector("#eh-legal button")
    before = page.input_value("#eh-text")
    page.locator("#eh-legal button").first.click()
    page.wait_for_function(f"document.querySelector('#eh-text').value !== {json.dumps(before)}")
    page.wait_for_function("document.body.dataset.busy === '0'")
    assert len(page.input_value("#eh-text").split()) == len(before.split()) + 1
    page.select_option("#eh-rr-seat", "0")
    page.click("#eh-rr-btn")
    page.wait_for_selector("#eh-rr-table")
    assert "95%" in page.inner_text("#enter-hand")
    assert page.errors == []
