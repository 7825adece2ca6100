"""A puzzle at each game's table (analyzer.web.puzzle): drawn from the puzzle's seat with
nothing hidden sent, the answer judged and kept, a second answer refused, the explanation's
lines played on one sampled deal; bad requests answered with one clear error."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from starlette.testclient import TestClient

from analyzer.core.contract import random_record
from analyzer.core.game import NotListed
from analyzer.core.library import Library
from analyzer.core.puzzles import Puzzle, hidden_from
from analyzer.games import GAMES, get_game
from analyzer.web.puzzle import EXPLAIN_TRIES, tempting


def made_puzzle(name: str, seed: int) -> dict[str, Any]:
    """A puzzle's shape (not a proven one) at the last decision of a random hand whose
    choices the engine lists: the action taken there is called the answer, another legal
    one the second choice."""
    game = get_game(name)
    recs = game.part("records")
    record = random_record(game, game.facts.default_preset, np.random.SeedSequence(seed))
    state = recs.start_of(record)
    found = None
    for seat, action in recs.replay(record).history:
        try:
            legal = state.legal_actions()
        except NotListed:
            legal = []
        if len(legal) >= 2:
            found = (recs.record_of(state), seat, action, next(a for a in legal if a != action))
        state.apply(action)
    assert found is not None, "no decision with two listed choices"
    position, seat, action, other = found
    rows = [{"action": recs.action_to_json(seat, a), "ev": ev, "ci95": [ev - 1, ev + 1],
             "n": 64, "diff": {"value": d, "low": d - .5, "high": d + .5, "n": 64}}
            for a, ev, d in ((action, 1.0, 0.0), (other, -1.0, 2.0))]
    return Puzzle(game=name, rules=str(position["rules"]), seat=seat, position=position,
                  answer=rows[0]["action"], group=[rows[0]["action"]], actions=rows,
                  theme="test", margin=2.0, unit=game.facts.returns_unit, source="test",
                  seed=seed, player_move=rows[1]["action"]).to_json()


def made_puzzles(name: str, n: int) -> list[dict[str, Any]]:
    """``n`` of :func:`made_puzzle`'s, from the first random hands that have such a
    decision (a random 双升 hand may have none: its play is not listed)."""
    out = []
    for seed in range(1, 100):
        try:
            out.append(made_puzzle(name, seed))
        except AssertionError:
            continue
        if len(out) == n:
            return out
    raise AssertionError(f"fewer than {n} random {name} hands with a listed choice")


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    lib = tmp_path_factory.mktemp("puzzles") / "lib.sqlite"
    ids = {}
    with Library(lib) as library:
        for name in GAMES:
            ids[name] = [library.add_puzzle(p, "test").id for p in made_puzzles(name, 3)]
    apps = {name: g.part("web").make_app(library=lib) for name, g in GAMES.items()}
    return lib, ids, apps


def _client(app) -> TestClient:
    return TestClient(app, base_url="http://127.0.0.1")


@pytest.mark.parametrize("name", list(GAMES))
def test_a_puzzle_is_judged_kept_and_explained(tables, name):
    lib, ids, apps = tables
    with Library(lib) as library:
        puzzle = library.puzzle(ids[name][0])
        before = library.rating(0).rating
    with _client(apps[name]) as c:
        r = c.post(f"/api/puzzles/{ids[name][0]}")
        assert r.status_code == 200, r.text
        sid, view = r.json()["id"], r.json()["view"]
        assert view["you"] == view["to_act"] == puzzle["seat"]
        assert view["puzzle"]["verdict"] is None and view["advice"] is None
        assert view["legal"] in ([], None) or len(view["legal"]) >= 2
        assert c.post(f"/api/games/{sid}/advice", json={"version": view["version"]}
                      ).status_code == 409
        # the answer, in the page's form, solves it
        web = get_game(name).part("web").GAME
        table = web.position_table(puzzle["position"], puzzle["seat"], 0)
        recs = get_game(name).part("records")
        index = len(puzzle["position"]["actions"])
        right = table.action_page(recs.action_from_json(puzzle["answer"], index)[1])
        r = c.post(f"/api/games/{sid}/act", json={"version": view["version"], "action": right})
        assert r.status_code == 200, r.text
        verdict = r.json()["puzzle"]["verdict"]
        assert verdict["solved"] is True and verdict["rating"] > before
        assert [a["ev"] for a in verdict["actions"]] == [1.0, -1.0]
        again = c.post(f"/api/games/{sid}/act", json={"version": r.json()["version"],
                                                      "action": right})
        assert again.status_code == 409
        assert c.get(f"/api/games/{sid}/record").status_code == 409
        # the second choice misses it: it comes back, and is explained if a deal shows it
        r = c.post(f"/api/puzzles/{ids[name][1]}")
        sid, view = r.json()["id"], r.json()["view"]
        with Library(lib) as library:
            second = library.puzzle(ids[name][1])
        table = web.position_table(second["position"], second["seat"], 0)
        index = len(second["position"]["actions"])
        wrong = table.action_page(recs.action_from_json(second["actions"][1]["action"], index)[1])
        r = c.post(f"/api/games/{sid}/act", json={"version": view["version"], "action": wrong})
        verdict = r.json()["puzzle"]["verdict"]
        assert verdict["solved"] is False and verdict["due"] is not None
        ex = verdict["explanation"]
        if ex is not None:
            assert ex["seat"] == second["seat"]
            assert len(ex["hands"]) == len(second["position"]["hands"])
            assert ex["lines"][1]["result"] < ex["lines"][0]["result"]
            assert all(line["moves"] for line in ex["lines"])
    with Library(lib) as library:
        assert library.count() == 0  # a puzzle's position is not a hand of the player's


def test_a_puzzle_view_holds_only_what_its_seat_sees():
    """The view of a puzzle position names no piece of another seat's hand."""
    from webtable import hidden_cards

    name = "xianniu"
    puzzle = made_puzzle(name, 4)
    table = get_game(name).part("web").GAME.position_table(puzzle["position"],
                                                            puzzle["seat"], 0)
    view = table.view()
    text = " ".join(str(x) for x in (view["hand"], view["moves"], view["legal"]))
    assert not hidden_cards(table) & set(text.replace(",", " ").replace("'", " ").split())


def test_the_tempting_choice_is_the_bots_when_it_missed():
    p = made_puzzle("dingniu", 1)
    assert tempting(p) == 1
    p["player_move"] = p["answer"]
    assert tempting(p) == 1
    hidden = hidden_from(get_game("dingniu"), p["position"], p["seat"])
    assert sum(h == "?" for h in hidden["hands"]) == 3 and EXPLAIN_TRIES >= 8


def test_bad_puzzle_requests_get_one_clear_error(tables, tmp_path):
    lib, ids, apps = tables
    with _client(apps["dingniu"]) as c:
        r = c.post("/api/puzzles/first")
        assert r.status_code == 400 and "number" in r.json()["error"]
        r = c.post("/api/puzzles/99999")
        assert r.status_code == 404 and "no puzzle 99999" in r.json()["error"]
        r = c.post(f"/api/puzzles/{ids['xianniu'][0]}")  # another game's
        assert r.status_code == 404 and "xianniu puzzle" in r.json()["error"]
    bare = get_game("dingniu").part("web").make_app()
    with _client(bare) as c:
        assert c.post("/api/puzzles/next").status_code == 404


def test_next_stocks_the_shipped_set_then_runs_out(tmp_path):
    lib = tmp_path / "lib.sqlite"
    with _client(get_game("dingniu").part("web").make_app(library=lib)) as c:
        r = c.post("/api/puzzles/next")
        assert r.status_code == 200, r.text
    with Library(lib) as library:
        assert library.count_puzzles("dingniu") >= 150
        assert library.count_puzzles("xianniu") == 0
    # a game with no puzzle at all says how to get some
    with _client(get_game("shengji").part("web").make_app(library=tmp_path / "l2.sqlite")) as c:
        r = c.post("/api/puzzles/next")
        if r.status_code == 404:
            assert "puzzles mine" in r.json()["error"]
