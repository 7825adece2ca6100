"""The 顶牛 table: whole hands through HTTP (no hidden tile in any response before the end, bad
actions refused with no state changed, records that replay), bots that decide on their own
view, and one browser launch that clicks through hands with the advice on and off."""

from __future__ import annotations

import json
import os
import threading

import numpy as np
import pytest
from starlette.testclient import TestClient
from webtable import (
    TOFU_JS,
    assert_steady_under_pointer,
    chromium_path,
    dejavu_only_fontconfig,
    live_server,
    play_dingniu_hand,
)

from analyzer.dingniu import web as dweb
from analyzer.dingniu.records import replay
from analyzer.dingniu.rules import N_KINDS, N_SEATS, TILES


@pytest.fixture(scope="module")
def client():
    with TestClient(dweb.make_app(advice_samples=40), base_url="http://127.0.0.1") as c:
        yield c


def _new(client, seed):
    r = client.post("/api/games", json={"options": {"seed": seed}})
    assert r.status_code == 200, r.text
    return r.json()["id"], r.json()["view"]


def _hidden_kinds(table) -> list[int]:
    """Kinds of which seat 0 sees no tile (not held, not its 扣, none laid) but others hold."""
    st = table.state
    out = []
    for k in range(N_KINDS):
        seen = st.hands[0][k] + st.kou[0][k] + st.laid[k]
        if seen == 0 and any(st.hands[s][k] + st.kou[s][k] for s in range(1, N_SEATS)):
            out.append(k)
    return out


def _no_hidden(client, sid, text):
    table = client.app.state.sessions.slot(sid).obj
    if table.finished:
        return 0
    kinds = _hidden_kinds(table)
    for k in kinds:
        t = TILES[k]
        for word in (t.name, *t.aliases, f"[{t.ends[0]}, {t.ends[1]}]"):
            assert word not in text, f"hidden tile {t.name} named in a response"
    return len(kinds)


def _job(client, jid):
    for _ in range(6000):
        r = client.get(f"/api/jobs/{jid}")
        if r.json()["finished"]:
            return r
        threading.Event().wait(0.02)
    raise AssertionError("the job did not finish")


def test_whole_hands_show_no_hidden_tile_and_replay(client, tmp_path, capsys):
    from analyzer.cli import main

    rng = np.random.default_rng(1)
    checked = 0
    for seed in range(1, 6):
        sid, view = _new(client, seed)
        assert view["seed"] is None
        while not view["over"]:
            checked += _no_hidden(client, sid, client.get(f"/api/games/{sid}").text)
            if seed == 1:
                r = client.post(f"/api/games/{sid}/advice", json={"version": view["version"]})
                done = _job(client, r.json()["job"])
                checked += _no_hidden(client, sid, done.text)
                ids = {a["id"] for a in view["legal"]}
                assert {row["action"]["id"] for row in done.json()["result"]["actions"]} == ids
            assert client.get(f"/api/games/{sid}/record").status_code == 409
            a = view["legal"][int(rng.integers(len(view["legal"])))]
            r = client.post(f"/api/games/{sid}/act", json={"version": view["version"],
                                                           "action": {"id": a["id"]}})
            assert r.status_code == 200, r.text
            checked += _no_hidden(client, sid, r.text)
            view = r.json()
        assert sum(view["points"]) == 0
        record = client.get(f"/api/games/{sid}/record").json()
        assert replay(record).returns() == view["points"]
        path = tmp_path / f"d{seed}.json"
        path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
        assert main(["dingniu", "replay", str(path)]) == 0
        capsys.readouterr()
        r = client.post("/api/records/review", json={"record": record})
        assert len(r.json()["frames"]) == len(record["actions"]) + 1
    assert checked > 20  # hidden kinds were there to look for


def test_the_hidden_tile_check_has_teeth(client):
    sid, view = _new(client, 7)
    table = client.app.state.sessions.slot(sid).obj
    k = _hidden_kinds(table)[0]
    with pytest.raises(AssertionError, match="hidden tile"):
        _no_hidden(client, sid, json.dumps({"x": TILES[k].name}, ensure_ascii=False))


def test_bad_actions_get_a_clear_error_and_change_nothing(client):
    sid, view = _new(client, 8)
    before = client.get(f"/api/games/{sid}").json()
    legal = {a["id"] for a in view["legal"]}
    illegal = next(a for a in range(N_KINDS * 8) if a not in legal)
    for action, status in (({"id": illegal}, 400), ({"id": 9999}, 400), ({"id": True}, 400),
                           ({"kind": "play", "tile": "大天", "end": 9}, 400),
                           ({"kind": "fly", "tile": "大天"}, 400),
                           ({"kind": "lead", "tile": "no such tile"}, 400), ("lead", 400)):
        r = client.post(f"/api/games/{sid}/act", json={"version": view["version"],
                                                       "action": action})
        assert r.status_code == status, (action, r.text)
        assert r.json()["error"] and "\n" not in r.json()["error"]
        assert client.get(f"/api/games/{sid}").json() == before
    r = client.post(f"/api/games/{sid}/act", json={"version": view["version"] + 1,
                                                   "action": {"id": min(legal)}})
    assert r.status_code == 409
    r = client.post(f"/api/games/{sid}/act", content=b"{", headers={"Content-Type": "x"})
    assert r.status_code == 400
    assert client.get("/api/games/nope").status_code == 404
    assert client.get(f"/api/games/{sid}").json() == before


def test_a_bot_decides_on_its_own_view(monkeypatch):
    """What a bot's policy is given: public words as they are, hidden tiles redrawn."""
    from analyzer.dingniu.sim import state_array
    from kernels.dingniu import game as kd
    from kernels.dingniu import policies as kpol

    seen = []
    real = kpol.choose

    def spy(state, *args):
        seen.append(state.copy())
        return real(state, *args)
    monkeypatch.setattr(dweb.kpol, "choose", spy)
    table = dweb.DingniuTable("seed", "heuristic", 11, 10)
    rng = np.random.default_rng(0)
    while not table.finished:  # seat 0 plays at random, the bots answer
        legal = table.state.legal_actions()
        table.act({"id": int(legal[rng.integers(len(legal))])})
    st = table.state
    bot = dweb.Bot(1, "heuristic", st.rules, np.random.SeedSequence(3))
    # replay the hand and ask the bot at each of seat 1's turns
    shadow = dweb.new_hand([list(h) for h in st.dealt], st.rules)
    differs = 0
    for seat, a in st.history:
        if seat == 1 and len(shadow.legal_actions()) > 1:
            truth = state_array(shadow)
            seen.clear()
            assert shadow.can(bot.choose(shadow))
            view = seen[0]
            hidden = [kd.S_HAND + s * N_KINDS + k for s in (0, 2, 3) for k in range(N_KINDS)]
            hidden += [kd.S_KOUK + s * N_KINDS + k for s in (0, 2, 3) for k in range(N_KINDS)]
            hidden += [kd.S_KOU + s for s in (0, 2, 3)]
            public = [i for i in range(len(truth)) if i not in hidden]
            assert (view[public] == truth[public]).all()
            differs += int((view[hidden] != truth[hidden]).any())
        shadow.apply(a)
    assert differs > 0


# -- the browser --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    from playwright.sync_api import sync_playwright

    tmp = tmp_path_factory.mktemp("dingniu-browser")
    env = {**os.environ, "FONTCONFIG_FILE": str(dejavu_only_fontconfig(tmp))}
    app = dweb.make_app(seed=5, advice_samples=40)
    app.state.game.warmup()
    with live_server(app) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), env=env,
                                    args=["--no-sandbox", "--disable-gpu"])
        pg = browser.new_context(viewport={"width": 1280, "height": 900},
                                 accept_downloads=True).new_page()
        errors = []
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pg.set_default_timeout(60_000)
        pg.goto(url + "/")
        pg.wait_for_selector("#board[data-turn]")
        pg.tmp, pg.errors = tmp, errors
        yield pg
        assert errors == []
        browser.close()


def _idle(page) -> str:
    page.wait_for_function("document.body.dataset.busy === '0' && "
                           "document.querySelector('#board').dataset.turn !== 'bot'")
    return page.get_attribute("#board", "data-turn")


def test_whole_hands_by_clicking(page, capsys):
    from analyzer.cli import main

    for advice, seed in ((False, "5"), (True, "6")):
        page.fill("#opt-seed", seed)
        page.click("#new-btn")
        _idle(page)
        if advice != page.is_checked("#advice-toggle"):
            page.click("#advice-toggle")
        for _ in range(30):
            if _idle(page) == "over":
                break
            version = page.get_attribute("#board", "data-version")
            if advice:
                page.wait_for_selector(f"#advice .advice-table[data-version='{version}']")
            elif page.locator("#hand .tile.usable").count():
                assert_steady_under_pointer(page, "#hand .tile.usable")
            page.locator("#hand .tile.usable").first.click()
            page.locator("#actions button.act").first.click()
            page.wait_for_function(
                f"document.querySelector('#board').dataset.version !== '{version}'")
        assert _idle(page) == "over"
        page.click("#review-btn")
        page.wait_for_selector("#review-table")
        assert page.locator("#points tr").count() == 5
        with page.expect_download() as dl:
            page.click("#save-btn")
        path = page.tmp / f"dingniu-{seed}.json"
        dl.value.save_as(path)
        assert main(["dingniu", "replay", str(path)]) == 0
        capsys.readouterr()
    # the tile names render from the page's font: nothing drawn as a missing glyph
    res = page.evaluate(TOFU_JS, page.evaluate("document.body.innerText"))
    assert res["bad"] == [] and res["chars"] > 20
    assert page.errors == []


def test_tiles_are_drawn_with_their_names_and_seats_named_as_elsewhere(page):
    from analyzer.dingniu.rules import PRESETS, SEAT_NAMES, SEAT_NAMES_EN
    from analyzer.dingniu.web_strings import PRESET_NAMES

    page.fill("#opt-seed", "9")
    page.click("#new-btn")
    _idle(page)
    names = {t.name for t in TILES}
    drawn = page.eval_on_selector_all("#board .tile", """(ts) => ts.map((t) => [t.dataset.tile,
        t.querySelector('.tname') ? t.querySelector('.tname').textContent : null,
        t.querySelector('.tname') ? t.querySelector('.tname').getBoundingClientRect().height : 0])""")
    assert len(drawn) >= 6
    for tile, label, height in drawn:
        assert label == tile and tile in names and height > 5, (tile, label, height)
    seats = page.eval_on_selector_all(".seat .name", "(ns) => ns.map((n) => n.textContent)")
    assert [s.split(" (")[0] for s in seats] == list(SEAT_NAMES[1:])
    assert page.inner_text(".me .name").startswith(f"你 · {SEAT_NAMES[0]}")
    ids = page.eval_on_selector_all("#opt-rules option", "(os) => os.map((o) => o.value)")
    labels = page.eval_on_selector_all("#opt-rules option", "(os) => os.map((o) => o.textContent)")
    assert sorted(ids) == sorted(PRESETS) and labels == [PRESET_NAMES[i][0] for i in ids]
    assert page.inner_text("#preset") == f"规则: {PRESET_NAMES['seed'][0]}"
    page.click("#lang-btn")
    page.wait_for_function("document.documentElement.lang === 'en'")
    seats = page.eval_on_selector_all(".seat .name", "(ns) => ns.map((n) => n.textContent)")
    assert [s.split(" (Bot)")[0] for s in seats] == list(SEAT_NAMES_EN[1:])
    labels = page.eval_on_selector_all("#opt-rules option", "(os) => os.map((o) => o.textContent)")
    assert labels == [PRESET_NAMES[i][1] for i in ids]
    page.click("#lang-btn")
    page.wait_for_function("document.documentElement.lang === 'zh-CN'")


def test_the_review_is_numbered_as_the_move_log(page):
    page.fill("#opt-seed", "10")
    page.click("#new-btn")
    play_dingniu_hand(page)
    page.click("#review-btn")
    page.wait_for_selector("#review-table")
    numbers = [int(x) for x in page.eval_on_selector_all(
        "#review-table td.move-no", "(cs) => cs.map((c) => c.textContent)")]
    who = page.eval_on_selector_all("#moves li b", "(bs) => bs.map((b) => b.textContent)")
    assert numbers and numbers == [k + 1 for k, w in enumerate(who) if w.startswith("你")]
