"""The app of xianniu serve: the tables mounted under one page, the library's API, the report."""

from __future__ import annotations

import json

import numpy as np
import pytest
from starlette.testclient import TestClient

from analyzer.core.contract import random_record
from analyzer.core.library import Library, parse_when
from analyzer.dingniu import web as dweb
from analyzer.games import get_game
from analyzer.web.home import make_home, mean_results


@pytest.fixture()
def served(tmp_path):
    lib = tmp_path / "lib.sqlite"
    report = tmp_path / "report"
    report.mkdir()
    (report / "report.html").write_text("<html>the report</html>", encoding="utf-8")
    app = make_home(lib, {"dingniu": dweb.make_app(library=lib)}, report)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        yield client, lib


def _play(client, prefix: str, seed: int) -> dict:
    rng = np.random.default_rng(seed)
    made = client.post(f"{prefix}/api/games", json={"options": {"seed": seed}}).json()
    sid, view = made["id"], made["view"]
    while not view["over"]:
        a = view["legal"][int(rng.integers(len(view["legal"])))]
        r = client.post(f"{prefix}/api/games/{sid}/act",
                        json={"version": view["version"], "action": {"id": a["id"]}})
        assert r.status_code == 200, r.text
        view = r.json()
    return view


def test_a_hand_at_a_mounted_table_is_in_the_library(served):
    client, lib = served
    assert "home.js" in client.get("/").text
    home = client.get("/api/home").json()
    assert [t["name"] for t in home["tables"]] == ["dingniu"] and home["report"] is True
    assert client.get("/dingniu", follow_redirects=False).status_code in (307, 308)
    assert "app.js" in client.get("/dingniu/").text
    assert client.get("/dingniu/api/info").json()["game"] == "dingniu"
    view = _play(client, "/dingniu", 3)
    hands = client.get("/api/library/hands").json()
    assert [h["id"] for h in hands["hands"]] == [view["stored"]["id"]]
    h = hands["hands"][0]
    assert (h["game"], h["seat"], h["source"], h["result"]) == ("dingniu", 0, "table",
                                                                view["points"][0])
    assert hands["summary"] == [{"game": "dingniu", "n": 1, "mean": view["points"][0],
                                 "low": None, "high": None}]
    record = client.get(f"/api/library/hands/{h['id']}/record").json()
    assert record == client.get(f"/dingniu/api/games/{_sid(client)}/record").json()


def _sid(client) -> str:
    sessions = client.app.state.tables["dingniu"].state.sessions
    (sid,) = list(sessions._slots)
    return sid


def test_filters_export_and_errors(served):
    client, lib = served
    recs = [random_record(get_game(g), p, c) for (g, p), c in
            zip([("xianniu", "lanzhou"), ("dingniu", "seed"), ("shengji", "zhengzhou")],
                np.random.SeedSequence(4).spawn(3))]
    with Library(lib) as library:
        for i, rec in enumerate(recs):
            library.add(rec, seat=1, played=parse_when(f"2026-10-0{i + 1}"), tags=[f"t{i}"])
    got = client.get("/api/library/hands", params={"game": "shengji"}).json()["hands"]
    assert [h["game"] for h in got] == ["shengji"]
    got = client.get("/api/library/hands", params={"since": "2026-10-02",
                                                   "until": "2026-10-02"}).json()["hands"]
    assert [h["game"] for h in got] == ["dingniu"]
    assert [h["tags"] for h in client.get("/api/library/hands",
                                          params={"tag": "t2"}).json()["hands"]] == [["t2"]]
    lines = client.get("/api/library/export.jsonl").text.splitlines()
    assert [json.loads(line) for line in lines] == recs
    for params in ({"since": "last week"}, {"colour": "red"}, {"limit": "0"}):
        r = client.get("/api/library/hands", params=params)
        assert r.status_code == 400 and "\n" not in r.json()["error"], params
    assert client.get("/api/library/hands/999/record").status_code == 404
    assert client.get("/report/report.html").text == "<html>the report</html>"
    bad_host = client.get("/api/library/hands", headers={"Host": "evil.example"})
    assert bad_host.status_code == 403


def test_mean_results_carry_n_and_a_ci():
    from analyzer.core.library import Hand

    hands = [Hand(i, "xianniu", "lanzhou", 0, "t", "t", "table", (r, -r, 0), ())
             for i, r in enumerate([2, 4, -2, 0])]
    (row,) = mean_results(hands)
    assert row["n"] == 4 and row["mean"] == 1.0
    sd = np.std([2, 4, -2, 0], ddof=1)
    assert row["high"] - row["mean"] == pytest.approx(1.959964 * sd / 2, rel=1e-5)


def test_the_split_runs_as_a_job(served):
    import time

    client, lib = served
    with Library(lib) as library:
        for child in np.random.SeedSequence(3).spawn(2):
            library.add(random_record(get_game("dingniu"), "seed", child), seat=3)
    r = client.post("/api/library/split", params={"game": "dingniu"})
    job = r.json()["job"]
    for _ in range(600):
        data = client.get(f"/api/jobs/{job}").json()
        if data["finished"]:
            break
        time.sleep(0.1)
    assert data["error"] is None and data["total"] == 2 == data["done"]
    g = data["result"]["games"]["dingniu"]
    assert [h["seat"] for h in g["hands"]] == [3, 3]
    assert set(g["mean"]) == {"result", "deal", "decisions", "lie"}
    assert g["weekly"][0]["result"]["n"] == 2
    assert client.get("/api/jobs/nonesuch").status_code == 404
    assert client.post("/api/library/split", params={"since": "x"}).status_code == 400
