"""What the tables' server tells the page about names: the presets by their names in both
languages, 掀牛's opponents (net by default), 顶牛's seats named as the CLI and the report
name them, the review numbered as the move log, the settlement sent as data (the page writes
it in its own words), never as the CLI's English lines."""

from __future__ import annotations

import re
import threading

import numpy as np
import pytest
from starlette.testclient import TestClient

from analyzer.dingniu import web as dweb
from analyzer.dingniu.report import TEXT as DN_TEXT
from analyzer.dingniu.rules import PRESETS as DN_PRESETS
from analyzer.dingniu.rules import SEAT_NAMES as DN_SEATS
from analyzer.xianniu import web as xweb
from analyzer.xianniu.defaults import ADVICE_OPPONENTS
from analyzer.xianniu.rules import PRESETS as XN_PRESETS

CJK = re.compile(r"[\u4e00-\u9fff]")
ADVICE = {"samples": 64, "precision": 5.0}


@pytest.fixture(scope="module")
def xn():
    with TestClient(xweb.make_app(advice_options=ADVICE), base_url="http://127.0.0.1") as c:
        yield c


@pytest.fixture(scope="module")
def dn():
    with TestClient(dweb.make_app(advice_samples=20), base_url="http://127.0.0.1") as c:
        yield c


def _job(client, jid):
    for _ in range(6000):
        r = client.get(f"/api/jobs/{jid}")
        if r.json()["finished"]:
            assert r.json()["error"] is None, r.text
            return r.json()["result"]
        threading.Event().wait(0.02)
    raise AssertionError("the job did not finish")


# -- presets and opponents ---------------------------------------------------------------


def test_xianniu_presets_have_their_names_in_both_languages(xn):
    info = xn.get("/api/info").json()
    zh, en = info["strings"]["zh"], info["strings"]["en"]
    assert zh["rules_lanzhou"] == "兰州掀牛" and zh["rules_kanniutui"] == "砍牛腿"
    for name in info["options"]["rules"]["choices"]:
        assert zh[f"rules_{name}"] == XN_PRESETS[name].title
        assert en[f"rules_{name}"] and not CJK.search(en[f"rules_{name}"])
        assert en[f"rules_{name}"] != name and zh[f"rules_{name}"] != name
    assert en["rules_lanzhou"] == "Lanzhou Xianniu"


def test_dingniu_presets_have_their_names_in_both_languages(dn):
    info = dn.get("/api/info").json()
    zh, en = info["strings"]["zh"], info["strings"]["en"]
    assert sorted(info["options"]["rules"]["choices"]) == sorted(DN_PRESETS)
    for name in DN_PRESETS:
        assert CJK.search(zh[f"rules_{name}"]) and not CJK.search(en[f"rules_{name}"])


def test_xianniu_opponents_are_net_by_default(xn):
    info = xn.get("/api/info").json()
    assert ADVICE_OPPONENTS == "net"
    assert info["options"]["opponents"]["default"] == "net"
    assert {"net", "learned"} <= set(info["options"]["opponents"]["choices"])
    r = xn.post("/api/games", json={"options": {"seed": 3}})
    assert r.json()["view"]["opponents"] == "net"
    table = xn.app.state.sessions.slot(r.json()["id"]).obj
    assert {b.policy for b in table.bots.values()} == {"net"}
    # another choice is still one option away
    r = xn.post("/api/games", json={"options": {"seed": 3, "opponents": "heuristic"}})
    assert r.json()["view"]["opponents"] == "heuristic"


def test_xianniu_play_defaults_to_net_opponents():
    from analyzer.xianniu.cli import play

    opt = next(p for p in play.params if p.name == "opponents")
    assert opt.default == "net"


# -- 顶牛's seats --------------------------------------------------------------------------


def test_dingniu_seats_are_named_as_in_the_cli_and_the_report(dn, tmp_path, capsys):
    info = dn.get("/api/info").json()
    zh, en = info["strings"]["zh"], info["strings"]["en"]
    assert [zh[f"seat_{s}"] for s in range(4)] == list(DN_SEATS) == ["头牌", "二牌", "三牌", "末牌"]
    assert [(zh[f"seat_{s}"], en[f"seat_{s}"]) for s in range(4)] == \
        [DN_TEXT[f"dn_seat{s}"] for s in range(4)]
    from analyzer.cli import main

    assert main(["dingniu", "simulate", "--hands", "200", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert all(f"seat {s} {name}" in out for s, name in enumerate(DN_SEATS)), out


def test_dingniu_replay_names_the_seats(dn, tmp_path, capsys):
    import json

    from analyzer.cli import main

    sid, view = _play_dingniu(dn, 4)
    path = tmp_path / "d.json"
    path.write_text(json.dumps(dn.get(f"/api/games/{sid}/record").json(), ensure_ascii=False),
                    encoding="utf-8")
    assert main(["dingniu", "replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "seat 1 二牌:" in out and "seat 0 头牌 " in out, out


# -- the review's numbers and the settlement ---------------------------------------------


def _play_dingniu(client, seed):
    r = client.post("/api/games", json={"options": {"seed": seed}})
    sid, view = r.json()["id"], r.json()["view"]
    rng = np.random.default_rng(seed)
    while not view["over"]:
        a = view["legal"][int(rng.integers(len(view["legal"])))]
        view = client.post(f"/api/games/{sid}/act", json={"version": view["version"],
                                                          "action": {"id": a["id"]}}).json()
    return sid, view


def _play_xianniu(client, seed):
    r = client.post("/api/games", json={"options": {"seed": seed}})
    sid, view = r.json()["id"], r.json()["view"]
    rng = np.random.default_rng(seed)
    while not view["over"]:
        a = view["legal"][int(rng.integers(len(view["legal"])))]
        view = client.post(f"/api/games/{sid}/act", json={
            "version": view["version"], "action": {"kind": a["kind"], "cards": a["cards"]}}).json()
    return sid, view


@pytest.mark.parametrize("game", ["xianniu", "dingniu"])
def test_the_review_is_numbered_as_the_move_log(game, xn, dn):
    client = xn if game == "xianniu" else dn
    sid, view = (_play_xianniu if game == "xianniu" else _play_dingniu)(client, 21)
    review = _job(client, client.post(f"/api/games/{sid}/review").json()["job"])
    moves = view["moves"]  # the page's log: move k is moves[k - 1]
    mine = [k + 1 for k, m in enumerate(moves) if m["seat"] == 0]
    assert [row["move"] for row in review["rows"]] == mine and mine
    for row in review["rows"]:
        assert moves[row["move"] - 1] == row["action"]
        assert row["move"] == row["version"] + 1


def test_the_xianniu_settlement_is_data_not_english_lines(xn):
    sid, view = _play_xianniu(xn, 22)
    sett = view["settlement"]
    assert "settlement_lines" not in view
    assert len(sett["tallies"]) == 3 and sum(sett["points"]) == 0
    for key in ("captured", "gou", "ci", "niu", "xi", "liang", "ci_points"):
        assert all(key in tl for tl in sett["tallies"])
    record = xn.get(f"/api/games/{sid}/record").json()
    replayed = xn.post("/api/records/review", json={"record": record}).json()
    assert "settlement_lines" not in replayed and replayed["settlement"] == sett
    # every word the page writes the settlement with exists in both languages
    words = xn.get("/api/info").json()["strings"]
    for key in ("col_niu", "col_xi", "col_liang", "col_ci", "pays", "pay_for", "nobody_pays",
                "points_unit", *(f"r_{p['reason']}" for p in sett["payments"])):
        assert words["zh"][key] and words["en"][key]
        assert not CJK.search(words["en"][key]), key
