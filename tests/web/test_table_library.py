"""Tables store every hand in the library when it ends: once each, from many sessions at once."""

from __future__ import annotations

import json
import threading
import urllib.request
from pathlib import Path
from typing import Any

import numpy as np
from starlette.testclient import TestClient

from analyzer.core.contract import random_record
from analyzer.core.library import Filter, Library
from analyzer.dingniu import web as dweb
from analyzer.games import get_game
from analyzer.web.app import make_app
from analyzer.web.server import in_background


class _Hands:
    """A session that plays given records hand after hand (as a 双升 session does): one
    action ends a hand, ``next`` deals the next one."""

    def __init__(self, records: list[dict]):
        self.records, self.i, self.finished, self.version = records, 0, False, 0

    def view(self) -> dict[str, Any]:
        return {"over": self.finished, "version": self.version}

    def act(self, action: Any) -> None:
        if action == "next":
            self.i, self.finished = self.i + 1, False
        else:
            self.finished = True
        self.version += 1

    def record(self) -> dict:
        return self.records[self.i]


class _Game:
    name, seat, strings, options, queries = "dingniu", 2, {"zh": {}, "en": {}}, {}, {}

    def __init__(self, records: list[dict], static: Path):
        self.records, self.static_dir = records, static

    def new_game(self, options: Any) -> _Hands:
        return _Hands(self.records)


def test_each_hand_of_a_session_is_stored_once(tmp_path):
    recs = [random_record(get_game("dingniu"), "seed", c)
            for c in np.random.SeedSequence(5).spawn(2)]
    path = tmp_path / "lib.sqlite"
    app = make_app(_Game(recs, tmp_path), library=path)  # type: ignore[arg-type]
    with TestClient(app, base_url="http://127.0.0.1") as client:
        r = client.post("/api/games", json={})
        sid, version = r.json()["id"], 0
        assert "stored" not in r.json()["view"]
        ids = []
        for action in ("end", "next", "end"):
            r = client.post(f"/api/games/{sid}/act", json={"version": version,
                                                            "action": action})
            view = r.json()
            version = view["version"]
            if view["over"]:
                ids.append(view["stored"]["id"])
            else:
                assert "stored" not in view
        assert ids == [1, 2]
    with Library(path) as lib:
        rows = lib.hands()
        assert [(h.seat, h.source) for h in rows] == [(2, "table")] * 2
        assert [lib.record(h.id) for h in rows] == recs


def test_a_library_that_refuses_the_hand_does_not_break_the_table(tmp_path):
    recs = [random_record(get_game("dingniu"), "seed", 1)]
    path = tmp_path / "lib.sqlite"
    Library(path).close()
    path.write_bytes(b"broken" * 1000)  # the file spoilt after the table started
    app = make_app(_Game(recs, tmp_path), library=path)  # type: ignore[arg-type]
    with TestClient(app, base_url="http://127.0.0.1") as client:
        sid = client.post("/api/games", json={}).json()["id"]
        r = client.post(f"/api/games/{sid}/act", json={"version": 0, "action": "end"})
        assert r.status_code == 200 and "not a xianniu library" in r.json()["stored"]["error"]
        assert client.get(f"/api/games/{sid}/record").json() == recs[0]


def _post(url: str, body: dict) -> dict:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=120) as r:
        return json.loads(r.read())


def test_twenty_tables_at_once_store_their_hands(tmp_path):
    path = tmp_path / "lib.sqlite"
    app = dweb.make_app(library=path)
    stored: dict[int, tuple[int, list[int]]] = {}
    errors: list[BaseException] = []
    with in_background(app) as url:
        def table(k: int) -> None:
            try:
                rng = np.random.default_rng(k)
                made = _post(f"{url}/api/games", {"options": {"seed": 100 + k}})
                sid, view = made["id"], made["view"]
                while not view["over"]:
                    a = view["legal"][int(rng.integers(len(view["legal"])))]
                    view = _post(f"{url}/api/games/{sid}/act",
                                 {"version": view["version"], "action": {"id": a["id"]}})
                stored[k] = (view["stored"]["id"], view["points"])
            except BaseException as e:  # noqa: BLE001 (reported below)
                errors.append(e)

        threads = [threading.Thread(target=table, args=(k,)) for k in range(20)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert errors == []
    assert len({hand_id for hand_id, _ in stored.values()}) == 20
    with Library(path) as lib:
        assert lib.integrity() == "ok" and lib.count(Filter(game="dingniu")) == 20
        for hand_id, points in stored.values():
            row = lib.hands(Filter(ids=(hand_id,)))[0]
            assert (row.seat, row.source, list(row.returns)) == (0, "table", points)
