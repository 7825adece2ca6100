"""The 双升 table through HTTP: whole hands to the settlement and the next hand with random
legal choices for seat 0, no hidden card in any response before the end (checked against
the true hands and kitty), bad requests refused with no state changed, 20 sessions at once
without cross-talk, the Host/Origin guard, records that replay, advice and the review."""

from __future__ import annotations

import json
import random
import threading
from collections import Counter

import pytest
from starlette.testclient import TestClient
from webtable import live_server, served_command

from analyzer.shengji import web as sweb
from analyzer.shengji.actions import BURY, PLAY
from analyzer.shengji.cards import RANK_NAMES, card_name
from analyzer.shengji.engine import random_action, redeal_hidden
from analyzer.shengji.records import replay

ADVICE = {"samples": 256, "precision": 1.0}


@pytest.fixture(scope="module")
def client():
    app = sweb.make_app(advice_options=ADVICE)
    app.state.game.warmup()
    with TestClient(app, base_url="http://127.0.0.1") as c:
        yield c


def _new(client, seed, **options):
    r = client.post("/api/games", json={"options": {"seed": seed, **options}})
    assert r.status_code == 200, r.text
    return r.json()["id"], r.json()["view"]


def _table(client, sid):
    return client.app.state.sessions.slot(sid).obj


def _act(client, sid, view, action):
    return client.post(f"/api/games/{sid}/act", json={"version": view["version"],
                                                      "action": action})


def _random_choice(table, rng: random.Random) -> dict:
    """A random legal action of seat 0 (the engine's random policy on the true state), as
    the page sends it."""
    a = random_action(table.state.clone(), rng)
    return {"kind": a.kind, "cards": sweb.names(a.cards)}


def hidden_faces(table) -> set[str]:
    """The cards seat 0 cannot know of now, read from the true state: faces whose every copy
    lies in another hand or in a kitty seat 0 did not bury, and that no public event (a
    declaration, a failed throw, a trick, the turned kitty card) has shown."""
    st = table.state
    if st.is_terminal():
        return set()
    mine = Counter(st.hands[0])
    kitty = st.kitty_known_to(0)
    if kitty:
        mine.update(kitty)
    for seat, up, down in st.kitty_log:  # the kitty seat 0 picked up and buried
        if seat == 0:
            mine.update(up)
            mine.update(down)
    public = Counter()
    for _, cards, _ in st.declarations:
        public.update(cards)
    for _, tried, _ in st.failed_throws:
        public.update(tried)
    for t in st.tricks:
        for p in t.plays:
            public.update(p)
    if st.random_trump_card is not None:
        public[st.random_trump_card] += 1
    faces = set()
    for s in range(1, 4):
        faces |= set(st.hands[s])
    if kitty is None:
        faces |= set(st.kitty)
    return {card_name(f) for f in faces if not mine[f] and not public[f]}


def _text(response) -> str:
    return json.dumps(response.json(), ensure_ascii=False)


def _no_hidden(table, text: str) -> int:
    """Assert that ``text`` names no hidden card of ``table``; how many were hidden."""
    hidden = hidden_faces(table)
    for name in hidden:
        assert f'"{name}"' not in text, f"hidden card {name} in a response"
    return len(hidden)


def test_whole_hands_to_the_next_hand_show_no_hidden_card(client, tmp_path, capsys):
    from analyzer.cli import main

    rng = random.Random(1)
    checked = phases = 0
    seen_phases: set[str] = set()
    for seed in (1, 2):
        sid, view = _new(client, seed)
        table = _table(client, sid)
        assert view["seed"] is None and view["hand_no"] == 1 and view["banker"] is None
        hands = 0
        while hands < 2:
            if view["over"]:
                end = view["end"]
                assert view["seed"] == seed and len(end["dealt"]) == 4
                assert tuple(end["levels_after"]) == table.state.result.levels_after
                rec = client.get(f"/api/games/{sid}/record").json()
                path = tmp_path / f"hand-{seed}-{hands}.json"
                path.write_text(json.dumps(rec, ensure_ascii=False), encoding="utf-8")
                assert main(["shengji", "replay", str(path)]) == 0
                assert "result: attackers' points" in capsys.readouterr().out
                before = end
                view = _act(client, sid, view, {"kind": "next_hand"}).json()
                hands += 1
                if hands < 2:  # the next hand is dealt at the settled levels
                    lv = [RANK_NAMES[v] for v in before["levels_after"]]
                    if not before["match_won"]:
                        assert view["levels"] == lv and view["hand_no"] == 2
                        assert table.state.start_banker == before["next_banker"]
                continue
            seen_phases.add(view["phase"])
            for r in (client.get(f"/api/games/{sid}"),):
                checked += _no_hidden(table, _text(r))
            assert view["to_act"] == 0
            assert Counter(view["hand"]) == Counter(sweb.names(table.state.hands[0]))
            r = _act(client, sid, view, _random_choice(table, rng))
            assert r.status_code == 200, r.text
            checked += _no_hidden(table, _text(r))
            view = r.json()
            phases += 1
    assert checked > 100 and {"declare", "bury", "play"} <= seen_phases


def test_the_hidden_card_check_has_teeth(client):
    sid, view = _new(client, 3)
    table = _table(client, sid)
    hidden = hidden_faces(table)
    assert hidden
    leak = json.dumps({**view, "hand": view["hand"] + sweb.names(table.state.hands[1])},
                      ensure_ascii=False)
    with pytest.raises(AssertionError, match="hidden card"):
        _no_hidden(table, leak)


def test_the_view_is_the_same_whatever_the_hidden_cards_are(client):
    """Every response is built from seat 0's view: deal the cards it cannot see anew and
    the view does not change."""
    rng = random.Random(4)
    sid, view = _new(client, 4)
    table = _table(client, sid)
    compared = 0
    while not view["over"] and compared < 40:
        real = table.state
        for k in range(2):
            table.state = redeal_hidden(real, 0, random.Random(k))
            if sum(len(real.hands[s]) for s in (1, 2, 3)) > 3:  # cards to deal anew
                assert any(table.state.hands[s] != real.hands[s] for s in (1, 2, 3))
            assert table.view() == view
            table.state = real
        compared += 1
        view = _act(client, sid, view, _random_choice(table, rng)).json()
    assert compared >= 20


def _bad_actions(table, view) -> list[tuple[dict, int, str]]:
    """Malformed and illegal actions for the position, with the status and a word of the
    expected one-line error."""
    out = [({"kind": "fly"}, 400, "unknown action"),
           ({"kind": "play", "cards": "Z♠ 3x"}, 400, ""),
           ({"kind": "play", "cards": 7}, 400, "cards"),
           ("play", 400, "object"),
           ({"kind": "next_hand"}, 409, "not over")]
    hand = table.state.hands[0]
    others = [f for f in range(54) if hand.count(f) == 0]
    out.append(({"kind": "play", "cards": [card_name(others[0])]}, 400, ""))
    if view["select"] and view["select"]["kind"] == BURY:
        out.append(({"kind": "bury", "cards": view["hand"][:7]}, 400, "8"))
        out.append(({"kind": "play", "cards": view["hand"][:1]}, 400, "bury"))
    elif view["select"] and view["select"]["kind"] == PLAY:
        n = view["select"]["count"]
        if n and len(view["hand"]) > n:  # a follow of the wrong size
            out.append(({"kind": "play", "cards": view["hand"][:n + 1]}, 400, "cards"))
        out.append(({"kind": "bury", "cards": view["hand"][:8]}, 400, "play"))
        out.append(({"kind": "pass"}, 400, "play"))
    else:
        out.append(({"kind": "bury", "cards": view["hand"][:8]}, 400, ""))
    return out


def test_bad_requests_get_a_clear_error_and_change_nothing(client):
    rng = random.Random(5)
    phases: set[str] = set()
    sid, view = _new(client, 6)
    table = _table(client, sid)
    steps = 0
    while not view["over"] and steps < 30:
        before = client.get(f"/api/games/{sid}").json()
        for action, status, words in _bad_actions(table, view):
            r = _act(client, sid, view, action)
            assert r.status_code == status, (action, r.text)
            err = r.json()["error"]
            assert err and "\n" not in err and words in err, (action, err)
            assert client.get(f"/api/games/{sid}").json() == before
        for body, status in (({"action": {"kind": "pass"}}, 400),  # no version
                             ({"version": view["version"] - 1, "action": {"kind": "pass"}}, 409),
                             ({"version": view["version"]}, 400)):
            r = client.post(f"/api/games/{sid}/act", json=body)
            assert r.status_code == status, (body, r.text)
            assert client.get(f"/api/games/{sid}").json() == before
        for body in (b"{", b"[1]", b"\xff", b"null"):
            r = client.post(f"/api/games/{sid}/act", content=body,
                            headers={"Content-Type": "application/json"})
            assert r.status_code == 400 and r.json()["error"].startswith("the request")
        assert client.get(f"/api/games/{sid}").json() == before
        phases.add(view["phase"])
        view = _act(client, sid, view, _random_choice(table, rng)).json()
        steps += 1
    assert {"bury", "play"} <= phases or "declare" in phases


def test_a_refused_throw_is_explained_from_the_engine(client):
    """A lead of cards of two suits is refused with the engine's reason, in one line."""
    rng = random.Random(7)
    sid, view = _new(client, 8)
    table = _table(client, sid)
    while not (view["select"] and view["select"]["kind"] == PLAY and view["select"]["lead"]):
        view = _act(client, sid, view, _random_choice(table, rng)).json()
        if view["over"]:
            view = _act(client, sid, view, {"kind": "next_hand"}).json()
    ctx = table.state.ctx
    by_suit: dict[int, list[int]] = {}
    for f in table.state.hands[0]:
        by_suit.setdefault(ctx.esuit[f], []).append(f)
    a, b = list(by_suit)[:2]
    mixed = [card_name(by_suit[a][0]), card_name(by_suit[b][0])]
    before = client.get(f"/api/games/{sid}").json()
    r = _act(client, sid, view, {"kind": "play", "cards": mixed})
    assert r.status_code == 400
    err = r.json()["error"]
    assert "cannot lead" in err and "\n" not in err, err
    assert client.get(f"/api/games/{sid}").json() == before


def test_advice_and_review_name_only_my_choices(client):
    rng = random.Random(9)
    sid, view = _new(client, 10)
    table = _table(client, sid)
    asked = 0
    while not view["over"]:
        if asked < 3 and (view["legal"] and len(view["legal"]) > 1 or view["select"]):
            r = client.post(f"/api/games/{sid}/advice", json={"version": view["version"]})
            assert r.status_code == 200, r.text
            done = _job(client, r.json()["job"])
            res = done.json()
            assert res["error"] is None, res
            adv = res["result"]
            _no_hidden(table, _text(done))
            assert adv["actions"] and all(len(a["ci95"]) == 2 and a["n"] >= 0
                                          for a in adv["actions"])
            if view["legal"]:
                legal = {(a["kind"], tuple(a["cards"])) for a in view["legal"]}
                got = {(a["action"]["kind"], tuple(a["action"]["cards"])) for a in adv["actions"]}
                assert got == legal
            assert client.get(f"/api/games/{sid}").json()["advice"] == adv
            asked += 1
        view = _act(client, sid, view, _random_choice(table, rng)).json()
    assert asked == 3
    r = client.post(f"/api/games/{sid}/review")
    done = _job(client, r.json()["job"]).json()
    assert done["error"] is None, done
    rv = done["result"]
    mine = [s for s, _ in table.state.history if s == 0]
    assert len(rv["rows"]) == len(mine) and rv["seats"] == [0]
    s = rv["summary"]["0"]
    assert s["decisions"] == len(mine) and "total_loss" in s


def _job(client, jid):
    for _ in range(12_000):
        r = client.get(f"/api/jobs/{jid}")
        if r.json()["finished"]:
            return r
        threading.Event().wait(0.02)
    raise AssertionError("the job did not finish")


def test_a_loaded_record_replays_position_by_position(client):
    rng = random.Random(11)
    sid, view = _new(client, 12)
    table = _table(client, sid)
    while not view["over"]:
        view = _act(client, sid, view, _random_choice(table, rng)).json()
    rec = client.get(f"/api/games/{sid}/record").json()
    r = client.post("/api/records/review", json={"record": rec})
    assert r.status_code == 200, r.text
    rv = r.json()
    assert len(rv["frames"]) == len(rec["actions"]) + 1 and rv["over"]
    assert rv["result"]["attacker_points"] == view["end"]["attacker_points"]
    # the review of any loaded record, for a chosen seat (the page's review_record query)
    r = client.post("/api/queries/review_record", json={"record": rec, "seat": 2, "seed": 1})
    assert r.status_code == 200, r.text
    done = _job(client, r.json()["job"]).json()
    assert done["error"] is None and done["result"]["seats"] == [2]
    assert len(done["result"]["rows"]) == sum(1 for a in rec["actions"] if a["seat"] == 2)
    r = client.post("/api/queries/review_record", json={"record": rec, "seat": 4})
    assert r.status_code == 400 and "seat" in r.json()["error"]
    bad = {**rec, "actions": rec["actions"][:3] + [{"seat": 0, "action": "fly"}]}
    r = client.post("/api/records/review", json={"record": bad})
    assert r.status_code == 400 and "fly" in r.json()["error"]


def test_host_and_origin_are_guarded(client):
    r = client.get("/api/info", headers={"Host": "evil.example"})
    assert r.status_code == 403
    r = client.post("/api/games", json={"options": {}},
                    headers={"Origin": "http://evil.example"})
    assert r.status_code == 403
    r = client.post("/api/games", json={"options": {"seed": 1}},
                    headers={"Origin": "http://127.0.0.1"})
    assert r.status_code == 200


def test_new_game_options_are_checked(client):
    for options, word in (({"rules": "nope"}, "rules"), ({"opponents": "pimc"}, "opponents"),
                          ({"seed": -1}, "seed"), ({"seed": "x"}, "seed")):
        r = client.post("/api/games", json={"options": options})
        assert r.status_code == 400 and word in r.json()["error"], r.text
    info = client.get("/api/info").json()
    assert info["game"] == "shengji"
    assert info["options"]["opponents"]["default"] == sweb.DEFAULT_OPPONENTS == "net"


def _play_http(app, url: str, seed: int, out: dict, errors: list) -> None:
    import httpx2 as httpx

    try:
        rng = random.Random(seed)
        with httpx.Client(base_url=url, timeout=120) as c:
            r = c.post("/api/games", json={"options": {"seed": seed}})
            r.raise_for_status()
            sid, view = r.json()["id"], r.json()["view"]
            table = app.state.sessions.slot(sid).obj
            actions = []
            while not view["over"]:
                action = _random_choice(table, rng)
                actions.append(action)
                r = c.post(f"/api/games/{sid}/act", json={"version": view["version"],
                                                          "action": action})
                r.raise_for_status()
                view = r.json()
            out[seed] = (actions, c.get(f"/api/games/{sid}/record").json(), view)
    except Exception as e:  # noqa: BLE001 - reported by the test
        errors.append(f"seed {seed}: {type(e).__name__}: {e}")


def test_twenty_sessions_at_once_finish_without_error_or_cross_talk():
    app = sweb.make_app(advice_options=ADVICE)
    out, errors = {}, []
    with live_server(app) as url:
        threads = [threading.Thread(target=_play_http, args=(app, url, 100 + i, out, errors))
                   for i in range(20)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(300)
    assert errors == []
    assert len(out) == 20
    for seed, (actions, record, view) in out.items():
        # the same seed and the same human actions, alone: the same hand, move for move
        alone = sweb.ShengjiTable("zhengzhou", sweb.DEFAULT_OPPONENTS, seed)
        for action in actions:
            alone.act(action)
        assert alone.record() == record, seed
        st = replay(record, require_end=True)
        assert st.result.settlement.attacker_points == view["end"]["attacker_points"]


def test_i_may_rebel_and_the_hand_is_dealt_again():
    """造反: a hand of few points offered the rebellion; taking it redeals into a 抢庄局, and the
    new hand is played to the end with nothing hidden shown."""
    from analyzer.shengji.bidding import qualifies_rebel
    from analyzer.shengji.engine import new_hand
    from analyzer.shengji.state import deal

    rules = "zhengzhou"
    table = sweb.ShengjiTable(rules, "tuned", 30)
    hands, kitty = deal(random.Random(82))  # seat 0 holds fewer than 15 points
    assert qualifies_rebel(hands[0], table.state.rules)
    # seat 3 banks: its 下家, seat 0, is asked first
    table.state = new_hand(rules, (5, 7), 3, hands=hands, kitty=kitty, rng=random.Random(1))
    table.moves = []
    view = table.view()
    assert view["phase"] == "rebel" and view["to_act"] == 0
    assert [a["kind"] for a in view["legal"]] == ["pass", "rebel"]
    old = Counter(view["hand"])
    table.act({"kind": "rebel"})
    view = table.view()
    assert view["grab"] and view["banker"] is None and Counter(view["hand"]) != old
    assert table.state.rebel == 0 and len(table.state.deals) == 2
    rng = random.Random(2)
    while not table.finished:
        _no_hidden(table, json.dumps(table.view(), ensure_ascii=False))
        table.act(_random_choice(table, rng))
    rec = table.record()
    assert replay(rec, require_end=True).result == table.state.result
    assert len(rec["redeals"]) == 1


def test_shengji_play_serves_on_127_0_0_1_only_and_checks_its_options(capsys):
    import httpx2 as httpx

    from analyzer.cli import main

    assert main(["shengji", "play", "--no-open", "--opponents", "pimc"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "pimc" in err and "Traceback" not in err
    with served_command(["shengji", "play", "--seed", "4", "--rules", "classic",
                         "--no-library"]) as url:
        info = httpx.get(f"{url}api/info", timeout=30).json()
        assert info["game"] == "shengji" and info["options"]["seed"]["default"] == 4
        assert info["options"]["rules"]["default"] == "classic"


def test_a_drawn_seed_never_reaches_the_page(client):
    """A seed the player did not choose would tell the hands still to come: it stays on the
    server; a chosen one is shown once the hand is over."""
    rng = random.Random(13)
    for seed, shown in ((None, None), (14, 14)):
        sid, view = _new(client, seed)
        table = _table(client, sid)
        while not view["over"]:
            assert view["seed"] is None
            view = _act(client, sid, view, _random_choice(table, rng)).json()
        assert view["seed"] == shown


@pytest.mark.parametrize("policy", ["net", "tuned", "heuristic", "random"])
def test_a_bot_decides_the_same_whatever_the_cards_it_cannot_see(policy):
    """A bot's choice depends on its seat's view only: deal the cards it cannot see anew and
    it chooses the same, at every decision of whole hands, every seat's."""
    import numpy as np

    from analyzer.shengji.engine import new_hand
    from analyzer.shengji.web_bot import Bot

    checked = 0
    for k, banker in enumerate((None, 1)):
        st = new_hand("zhengzhou", (2, 5), banker, rng=random.Random(40 + k))
        while not st.is_terminal():
            seat = st.turn
            redealt = redeal_hidden(st, seat, random.Random(checked))
            a = Bot(seat, policy, np.random.SeedSequence(checked)).choose(st.clone())
            b = Bot(seat, policy, np.random.SeedSequence(checked)).choose(redealt)
            assert a == b, (checked, st.phase)
            st.apply(a, seat)
            checked += 1
    assert checked > 100


def test_a_hand_is_entered_in_the_text_notation():
    """enter a hand at the 双升 table: typed in the text notation, read as far as it goes,
    the declarations offered where the engine lists them, an impossible action named."""
    from pathlib import Path

    from analyzer.core.notation import from_text, to_text
    from analyzer.games import get_game

    g = get_game("shengji")
    doc = (Path(__file__).resolve().parents[2] / "docs" / "records.md").read_text(encoding="utf-8")
    start = doc.index("game shengji")
    text = doc[start:doc.index("```", start)]
    head = text[:text.index("actions\n") + len("actions\n")]
    whole = from_text(g, text)
    with TestClient(sweb.make_app(), base_url="http://127.0.0.1") as client:
        def enter(body):
            r = client.post("/api/queries/enter_hand", json=body)
            assert r.status_code == 200, r.text
            jid = r.json()["job"]
            for _ in range(6000):
                data = client.get(f"/api/jobs/{jid}").json()
                if data["finished"]:
                    assert data.get("error") is None, data
                    return data["result"]
            raise AssertionError("the query did not finish")

        first = enter({"text": head})
        assert not first["over"] and first["to_act"] == 0 and first["listed"]
        tokens = {x["token"] for x in first["legal"]}
        assert "pass" in tokens and "大王10♥" in tokens  # the declarations are offered
        bury = enter({"text": head + "大王10♥ pass pass pass pass\n"})
        assert bury["to_act"] == 0 and bury["listed"] is False and bury["legal"] == []
        done = enter({"text": text})
        assert done["over"] and done["record"] == whole
        assert done["text"] == to_text(g, whole)
        r = client.post("/api/queries/enter_hand", json={"text": head + "大王10♥ 3♣3♣\n"})
        assert r.status_code == 400 and "action 1" in r.json()["error"]
