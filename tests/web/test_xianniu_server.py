"""The 掀牛 table's server through HTTP: whole hands, every kind of bad request (a clear 4xx,
no state changed), sessions kept apart and expired, no hidden card in any response before
the end, records that replay."""

from __future__ import annotations

import json
import threading

import numpy as np
import pytest
from starlette.testclient import TestClient
from webtable import card_tokens, hidden_cards, live_server, pick

from analyzer.web.sessions import SessionStore
from analyzer.xianniu.records import replay
from analyzer.xianniu.web import XianniuTable, make_app

ADVICE = {"samples": 64, "precision": 5.0}  # light advice: the tests check plumbing


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture()
def client():
    with TestClient(make_app(advice_options=ADVICE), base_url="http://127.0.0.1") as c:
        yield c


def _table(client, sid) -> XianniuTable:
    return client.app.state.sessions.slot(sid).obj


def _new(client, seed=1, **options):
    r = client.post("/api/games", json={"options": {"seed": seed, **options}})
    assert r.status_code == 200, r.text
    return r.json()["id"], r.json()["view"]


def _act(client, sid, view, action):
    return client.post(f"/api/games/{sid}/act", json={"version": view["version"],
                                                      "action": action})


def _job(client, jid):
    for _ in range(6000):
        r = client.get(f"/api/jobs/{jid}")
        assert r.status_code == 200, r.text
        if r.json()["finished"]:
            return r
        threading.Event().wait(0.02)
    raise AssertionError("the job did not finish")


def _no_hidden(client, sid, response):
    """No card the human cannot see appears anywhere in ``response``."""
    table = _table(client, sid)
    if table.finished:
        return
    leaked = card_tokens(response.text) & hidden_cards(table)
    assert not leaked, f"hidden cards in a response: {sorted(leaked)}"


def _play_out(client, sid, view, rng, advice_every=0):
    """Play the hand to its end by random legal actions, checking every response."""
    n = 0
    while not view["over"]:
        assert view["to_act"] == 0 and view["legal"], view
        r = client.get(f"/api/games/{sid}")
        _no_hidden(client, sid, r)
        if advice_every and n % advice_every == 0:
            r = client.post(f"/api/games/{sid}/advice", json={"version": view["version"]})
            _no_hidden(client, sid, r)
            done = _job(client, r.json()["job"])
            _no_hidden(client, sid, done)
            adv = done.json()["result"]
            assert done.json()["error"] is None and adv["actions"]
            legal = {(a["kind"], tuple(sorted(a["cards"]))) for a in view["legal"]}
            for row in adv["actions"]:
                assert (row["action"]["kind"], tuple(sorted(row["action"]["cards"]))) in legal
                if adv.get("forced"):  # one legal action: nothing estimated
                    assert len(legal) == 1 and len(adv["actions"]) == 1 and "ev" not in row
                else:
                    assert row["n"] > 0 and row["ci95"][0] <= row["ev"] <= row["ci95"][1]
        r = client.get(f"/api/games/{sid}/record")
        assert r.status_code == 409 and "over" in r.json()["error"]
        r = _act(client, sid, view, pick(view, rng))
        assert r.status_code == 200, r.text
        _no_hidden(client, sid, r)
        view = r.json()
        n += 1
    return view


def test_whole_hands_show_no_hidden_card_before_the_end(client):
    rng = np.random.default_rng(11)
    for seed in (1, 2, 3):
        r = client.post("/api/games", json={"options": {"seed": seed}})
        sid, view = r.json()["id"], r.json()["view"]
        _no_hidden(client, sid, r)
        assert view["seed"] is None  # the seed would tell the deal
        _no_hidden(client, sid, client.get(f"/api/games/{sid}"))
        view = _play_out(client, sid, view, rng, advice_every=4 if seed == 1 else 0)
        assert view["over"] and view["seed"] == seed
        assert sum(view["settlement"]["points"]) == 0
        assert len(view["dealt"]) == 3 and all(len(h) == 16 for h in view["dealt"])


def test_the_hidden_card_check_has_teeth(client):
    sid, view = _new(client, 5)
    table = _table(client, sid)
    bot_card = sorted(hidden_cards(table))[0]

    class Fake:
        text = json.dumps({"oops": [bot_card]}, ensure_ascii=False)
    with pytest.raises(AssertionError, match="hidden cards"):
        _no_hidden(client, sid, Fake)
    assert card_tokens("10♦ A♠ 9♥x") == {"10♦", "A♠", "9♥"}


def _bad_actions(view):
    hand = set(view["hand"])
    from analyzer.xianniu.cards import RANKS, SUIT_SYMBOLS
    missing = next(f"{r}{s}" for r in RANKS for s in SUIT_SYMBOLS if f"{r}{s}" not in hand)
    kinds = {a["kind"] for a in view["legal"]}
    out = [({"kind": "play", "cards": [missing]}, 400,
            "not play" if view["phase"] in ("kou_ask", "discard") else "does not hold"),
           ({"kind": "fly"}, 400, "unknown action"),
           ({"kind": "play", "cards": "Zz"}, 400, ""),
           ({"kind": "play", "cards": "4s"}, 400, ""),
           ({"kind": "play", "cards": 7}, 400, "cards"),
           ("play", 400, "object"),
           ({"kind": "kou", "cards": [view["hand"][0]]}, 400, "takes no cards")]
    for kind in ("pass", "xian", "tighten", "discard"):
        if kind not in kinds:
            cards = [view["hand"][0]] if kind == "discard" else []
            out.append(({"kind": kind, "cards": cards}, 400, ""))
    return out


def test_illegal_actions_get_a_clear_error_and_change_nothing(client):
    rng = np.random.default_rng(3)
    checked, phases = 0, set()
    for seed in range(8, 40):
        sid, view = _new(client, seed)
        while not view["over"] and checked < 12:
            _check_refusals(client, sid, view, rng)
            phases.add(view["phase"])
            r = _act(client, sid, view, pick(view, rng))
            assert r.status_code == 200, r.text
            view = r.json()
            checked += 1
        if checked >= 12 and {"lead", "trick"} <= phases:
            break
    assert {"lead", "trick"} <= phases


def _check_refusals(client, sid, view, rng):
    before = client.get(f"/api/games/{sid}").json()
    for action, status, words in _bad_actions(view):
        r = _act(client, sid, view, action)
        assert r.status_code == status, (action, r.text)
        err = r.json()["error"]
        assert err and "\n" not in err and words in err, (action, err)
        assert client.get(f"/api/games/{sid}").json() == before
    for body, status in (({"action": pick(view, rng)}, 400),  # no version
                         ({"version": view["version"] - 1, "action": pick(view, rng)}, 409),
                         ({"version": True, "action": pick(view, rng)}, 400),
                         ({"version": view["version"]}, 400)):  # no action
        r = client.post(f"/api/games/{sid}/act", json=body)
        assert r.status_code == status, (body, r.text)
        assert r.json()["error"]
        assert client.get(f"/api/games/{sid}").json() == before


@pytest.mark.parametrize("body", [b"{", b"[1, 2]", b"\xff\xfe", b"null", b"\"text\"",
                                  b"{\"version\": 1, \"action\": {\"kind\": \"play\"", b"1e999x"])
def test_malformed_json_gets_400_and_changes_nothing(client, body):
    sid, view = _new(client, 9)
    before = client.get(f"/api/games/{sid}").json()
    for url in (f"/api/games/{sid}/act", "/api/games", "/api/records/review",
                "/api/queries/should_kou", f"/api/games/{sid}/advice"):
        r = client.post(url, content=body, headers={"Content-Type": "application/json"})
        assert r.status_code == 400, (url, r.text)
        assert r.json()["error"].startswith("the request")
    assert client.get(f"/api/games/{sid}").json() == before


def test_a_too_large_request_gets_413(client):
    sid, view = _new(client, 9)
    r = client.post(f"/api/games/{sid}/act", content=b"[" + b"1," * 600_000 + b"1]")
    assert r.status_code == 413 and r.json()["error"]


def test_unknown_ids_and_routes_get_404(client):
    sid, view = _new(client, 4)
    for method, url in (("GET", "/api/games/nope"), ("POST", "/api/games/nope/act"),
                        ("POST", "/api/games/nope/advice"), ("GET", "/api/games/nope/record"),
                        ("POST", "/api/games/nope/review"), ("GET", "/api/jobs/nope"),
                        ("GET", "/api/nothing"), ("POST", "/api/queries/nothing"),
                        ("GET", f"/api/games/{sid[:-1]}")):
        r = client.request(method, url, json={"version": view["version"],
                                              "action": pick(view, np.random.default_rng(0))})
        assert r.status_code == 404, (url, r.text)
        assert r.json()["error"]
    assert client.get(f"/api/games/{sid}").json() == view


def test_a_second_tab_plays_its_own_hand_and_a_stale_one_is_refused(client):
    rng = np.random.default_rng(5)
    a, view_a = _new(client, 21)
    b, view_b = _new(client, None)  # a fresh random seed, as a new tab gets
    assert a != b and len(a) >= 20
    assert view_a["hand"] != view_b["hand"]
    view_b = _act(client, b, view_b, pick(view_b, rng)).json()
    assert client.get(f"/api/games/{a}").json() == view_a
    # the same game open in two tabs: the one that acted moves on, the other is stale
    tab1 = tab2 = client.get(f"/api/games/{a}").json()
    tab1 = _act(client, a, tab1, pick(tab1, rng)).json()
    if not tab1["over"]:
        r = _act(client, a, tab2, pick(tab2, rng))
        assert r.status_code == 409 and "stale" in r.json()["error"]
        assert client.get(f"/api/games/{a}").json() == tab1
    assert client.get(f"/api/games/{b}").json() == view_b


def _play_http(url: str, seed: int, out: dict, errors: list) -> None:
    import httpx2 as httpx

    try:
        rng = np.random.default_rng(seed)
        with httpx.Client(base_url=url, timeout=120) as c:
            r = c.post("/api/games", json={"options": {"seed": seed}})
            r.raise_for_status()
            sid, view = r.json()["id"], r.json()["view"]
            actions = []
            while not view["over"]:
                action = pick(view, rng)
                actions.append(action)
                r = c.post(f"/api/games/{sid}/act", json={"version": view["version"],
                                                          "action": action})
                r.raise_for_status()
                view = r.json()
            out[seed] = (actions, c.get(f"/api/games/{sid}/record").json(), view)
    except Exception as e:  # noqa: BLE001 - reported by the test
        errors.append(f"seed {seed}: {type(e).__name__}: {e}")


def test_twenty_sessions_at_once_finish_without_error_or_cross_talk():
    app = make_app()
    out, errors = {}, []
    with live_server(app) as url:
        threads = [threading.Thread(target=_play_http, args=(url, 100 + i, out, errors))
                   for i in range(20)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(300)
    assert errors == []
    assert len(out) == 20
    for seed, (actions, record, view) in out.items():
        # the same seed and the same human actions, alone: the same hand, move for move
        alone = XianniuTable("lanzhou", app.state.game.opponents, seed)
        for action in actions:
            alone.act(action)
        assert alone.record() == record, seed
        assert replay(record, require_end=True).returns() == tuple(view["settlement"]["points"])


def test_finished_and_idle_sessions_expire():
    clock = Clock()
    store = SessionStore(idle_ttl=100, finished_ttl=10, clock=clock)
    with TestClient(make_app(sessions=store), base_url="http://127.0.0.1") as c:
        rng = np.random.default_rng(1)
        done, view = _new(c, 31)
        while not view["over"]:
            view = _act(c, done, view, pick(view, rng)).json()
        idle, _ = _new(c, 32)
        assert len(store) == 2
        clock.now += 11  # past the finished lifetime, not the idle one
        assert c.get(f"/api/games/{done}").status_code == 404
        assert c.get(f"/api/games/{idle}").status_code == 200
        assert len(store) == 1
        clock.now += 101
        r = c.get(f"/api/games/{idle}")
        assert r.status_code == 404 and "expired" in r.json()["error"]
        assert len(store) == 0


def test_the_session_cap_drops_the_longest_idle():
    clock = Clock()
    store = SessionStore(max_sessions=3, clock=clock)
    ids = []
    for _i in range(4):
        clock.now += 1
        ids.append(store.add(object()))
    assert len(store) == 3
    with pytest.raises(LookupError):
        store.slot(ids[0])
    assert all(store.slot(s) for s in ids[1:])


def test_a_saved_record_replays_with_xianniu_replay_and_reviews(client, tmp_path, capsys):
    from analyzer.cli import main

    rng = np.random.default_rng(2)
    sid, view = _new(client, 41)
    view = _play_out(client, sid, view, rng)
    record = client.get(f"/api/games/{sid}/record").json()
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "hand over" in out and f"seat 0 {view['settlement']['points'][0]:+d}" in out
    r = client.post("/api/records/review", json={"record": record})
    assert r.status_code == 200
    frames = r.json()["frames"]
    assert len(frames) == len(record["actions"]) + 1
    assert frames[-1]["captured"] == view["captured"]
    assert r.json()["settlement"] == view["settlement"]
    # a record with an illegal action: 400 naming it
    bad = {**record, "actions": record["actions"][:2] + [{"seat": 2, "action": "xian"}]}
    r = client.post("/api/records/review", json={"record": bad})
    assert r.status_code == 400 and "action 2" in r.json()["error"]
    r = client.post("/api/records/review", json={"record": {"hands": ["As"]}})
    assert r.status_code == 400


def test_the_review_lists_each_decision_beside_the_advice(client):
    rng = np.random.default_rng(6)
    sid, view = _new(client, 51)
    assert client.post(f"/api/games/{sid}/review").status_code == 409
    view = _play_out(client, sid, view, rng)
    r = client.post(f"/api/games/{sid}/review")
    done = _job(client, r.json()["job"]).json()
    assert done["error"] is None, done
    rows = done["result"]["rows"]
    table = _table(client, sid)
    assert len(rows) == sum(1 for s, _ in table.state.history if s == 0)
    for row in rows:
        if row["forced"]:
            continue
        assert row["mine"] is not None and row["lost"]["n"] > 0
        assert row["lost"]["low"] <= row["lost"]["value"] <= row["lost"]["high"]
        if row["mine"] == row["best"]:
            assert row["lost"]["value"] == 0
    assert client.post(f"/api/games/{sid}/advice",
                       json={"version": view["version"]}).status_code == 409


def test_queries_check_their_input_first(client):
    for name, body, words in (("should_kou", {"hand": "As Ah"}, "16"),
                              ("should_kou", {}, "hand"),
                              ("should_xian", {"hand": "As Ah 2s 2h 3s 3h 5s 5h 6s 6h 7s 7h "
                                               "8s 8h 9s 9h", "seat": 3}, "seat"),
                              ("should_kou", {"hand": "As Ah 2s 2h 3s 3h 5s 5h 6s 6h 7s 7h "
                                              "8s 8h 9s 4h"}, "")):
        r = client.post(f"/api/queries/{name}", json=body)
        assert r.status_code == 400 and words in r.json()["error"], r.text


def test_new_game_options_are_checked(client):
    for options, words in (({"rules": "vegas"}, "rules"), ({"opponents": "oracle"}, "opponents"),
                           ({"seed": -1}, "seed"), ({"seed": "x"}, "seed")):
        r = client.post("/api/games", json={"options": options})
        assert r.status_code == 400 and words in r.json()["error"], r.text
    r = client.post("/api/games", json={"options": []})
    assert r.status_code == 400
    _, view = _new(client, 3, rules="kanniutui", opponents="pimc")
    assert view["rules"] == "kanniutui" and view["opponents"] == "pimc"
