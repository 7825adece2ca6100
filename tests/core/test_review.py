"""The review of a played hand (``xianniu review``, ``xianniu dingniu review``): a hand
played as advised shows no loss surely above 0, a planted blunder is found and labelled,
the JSON replays, and a folder or a JSON-lines file of records is reviewed as a batch."""

from __future__ import annotations

import functools
import json
import random

import pytest
from cli_checks import bad, ok, write_json

from analyzer.core.review import LABELS, decision_seeds, label_of
from analyzer.dingniu import advise as dadv
from analyzer.dingniu import api as dapi
from analyzer.dingniu.engine import random_start
from analyzer.dingniu.records import action_to_json as daction_to_json
from analyzer.dingniu.records import record_of as drecord_of
from analyzer.dingniu.records import replay as dreplay
from analyzer.games import get_game
from analyzer.xianniu import advise as xadv
from analyzer.xianniu import api as xapi
from analyzer.xianniu.records import action_to_json as xaction_to_json
from analyzer.xianniu.records import replay as xreplay
from analyzer.xianniu.sim import hand_records

X_ADVICE = {"samples": 1024, "precision": 0.3}  # loose: the tests stay quick
D_ADVICE = {"samples": 200}


# -- hands to review ---------------------------------------------------------------------------


def _x_deal(seed: int) -> dict:
    """A 掀牛 deal (the record of a heuristic hand, its actions dropped)."""
    return {**hand_records(1, "lanzhou", "heuristic", seed=seed)[0], "actions": []}


def _x_played_as_advised(seed: int, seat: int = 0) -> dict:
    """A whole 掀牛 hand in which ``seat`` plays the advised action at each of its choices
    (advice seeded by ``seed``) and the others play at random."""
    rec = _x_deal(seed)
    rng = random.Random(seed)
    while True:
        st = xreplay(rec)
        if st.is_terminal():
            return rec
        legal = st.legal_actions()
        if st.current_player() == seat and len(legal) > 1:
            entry = xadv.advise(rec, seed=seed, **X_ADVICE).to_json()["actions"][0]["action"]
        else:
            entry = xaction_to_json(st.current_player(), rng.choice(legal))
        rec = {**rec, "actions": [*rec["actions"], entry]}


def _d_played_as_advised(seed: int, seat: int = 0) -> dict:
    """A whole 顶牛 hand in which ``seat`` plays the advised action at each of its choices
    and the others play at random."""
    rng = random.Random(seed)
    st = random_start("seed", rng)
    while not st.is_terminal():
        legal = st.legal_actions()
        if st.current_player() == seat and len(legal) > 1:
            best = dadv.advise_record(st, seed=seed, **D_ADVICE).to_json()["actions"][0]["action"]
            a = next(b for b in legal if daction_to_json(seat, b) == best)
        else:
            a = rng.choice(legal)
        st.apply(a)
    return drecord_of(st)


GAMES = {
    "xianniu": (_x_played_as_advised, xapi.review, X_ADVICE, xadv.THRESHOLDS),
    "dingniu": (_d_played_as_advised, dapi.review, D_ADVICE, dadv.THRESHOLDS),
}


@pytest.mark.parametrize("game,seed", [("xianniu", 2), ("dingniu", 3)])
def test_a_hand_played_as_advised_shows_no_loss_surely_above_zero(game, seed):
    build, review, advice, _ = GAMES[game]
    rec = build(seed)
    rv = review(rec, None, seed=11, **advice)  # other seeds than the hand was played with
    assert rv.seats == list(range(len(rec["hands"])))
    valued = [r for r in rv.rows if not r["forced"] and r["seat"] == 0]
    assert len(valued) >= 3, "the hand gave seat 0 few choices"
    assert [r["label"] for r in valued] == [None] * len(valued)
    # "surely above 0" as the review says it: the simultaneous low over the actions the best
    # was picked among (the advice stops within its precision of the leader, so a single
    # decision's own 95% CI may just exclude 0 for an action advised as equal)
    assert all(r["loss_low_all"] <= 0 for r in valued), [r["loss"] for r in valued]
    assert all(r["loss"]["value"] <= X_ADVICE["precision"] for r in valued if game == "xianniu")
    assert rv.summary()["0"]["reviewed"] == len(valued)
    # teeth: the seats that played at random lost points surely above 0 somewhere
    others = [r for r in rv.rows if not r["forced"] and r["seat"] != 0]
    assert sum(r["loss"]["low"] > 0 for r in others) >= 1

    def mean(rows):
        return sum(r["loss"]["value"] for r in rows) / len(rows)
    assert mean(others) > mean(valued) + 0.1


@functools.cache
def _x_blunder(seed: int) -> tuple[dict, int]:
    """A 掀牛 record cut where seat 0 has an action surely worse than the best by more than
    the blunder threshold (searched in heuristic hands from ``seed``), that action played;
    and its index."""
    floor = xadv.THRESHOLDS["blunder"] + 1
    for rec in hand_records(20, "lanzhou", "heuristic", seed=seed):
        for k in range(len(rec["actions"])):
            part = {**rec, "actions": rec["actions"][:k]}
            st = xreplay(part)
            if st.current_player() != 0 or len(st.legal_actions()) < 2:
                continue
            worst = xadv.advise(part, seed=seed, **X_ADVICE).to_json()["actions"][-1]
            if worst["diff"]["low"] > floor:
                return {**part, "actions": [*part["actions"], worst["action"]]}, k
    raise AssertionError("no blunder found to plant")


@functools.cache
def _d_blunder(seed: int) -> tuple[dict, int]:
    """As :func:`_x_blunder` for 顶牛 (random hands)."""
    floor = dadv.THRESHOLDS["blunder"] + 1
    rng = random.Random(seed)
    for _ in range(40):
        st = random_start("seed", rng)
        while not st.is_terminal():
            if len(st.legal_actions()) > 1:
                worst = dadv.advise_record(st, seed=seed, **D_ADVICE).to_json()["actions"][-1]
                if worst["diff"]["low"] > floor:
                    rec = drecord_of(st)
                    return {**rec, "actions": [*rec["actions"], worst["action"]]}, \
                        len(rec["actions"])
            st.apply(rng.choice(st.legal_actions()))
    raise AssertionError("no blunder found to plant")


@pytest.mark.parametrize("game,find", [("xianniu", _x_blunder), ("dingniu", _d_blunder)])
def test_a_planted_blunder_is_found_and_labelled(game, find):
    _, review, advice, thresholds = GAMES[game]
    rec, k = find(5)
    seat = rec["actions"][k]["seat"]
    rv = review(rec, [seat], seed=2, **advice)
    row = next(r for r in rv.rows if r["index"] == k)
    assert row["taken"] == rec["actions"][k]
    assert row["label"] == "blunder" and row["loss"]["low"] >= thresholds["blunder"]
    assert row["best"] != row["taken"] and row["rank"] == row["choices"]
    s = rv.summary()[str(seat)]
    assert s["labels"]["blunder"] >= 1 and k in s["worst"]
    assert s["total_loss"]["low"] > 0


def _hidden(rec: dict, seat: int) -> dict:
    """``rec`` as the table of ``seat`` would write it: the other hands unknown (``?``),
    their 扣 in 顶牛 face down."""
    out = {**rec, "hands": [h if s == seat else "?" for s, h in enumerate(rec["hands"])]}
    out["actions"] = [a if a["seat"] == seat or a["action"] != "kou" or "tile" not in a
                      or rec.get("game") != "dingniu" else {"seat": a["seat"], "action": "kou"}
                      for a in rec["actions"]]
    out.pop("result", None)
    return out


@pytest.mark.parametrize("game,find", [("xianniu", _x_blunder), ("dingniu", _d_blunder)])
def test_a_planted_blunder_is_found_with_the_other_hands_unknown(game, find):
    """The other hands unknown, the review deals them to fit the play and says so; the
    advice deals the acting seat's hidden cards from its own view, so the review is the one
    of the whole record, whatever the deal of the unknown hands."""
    _, review, advice, _ = GAMES[game]
    rec, k = find(5)
    seat = rec["actions"][k]["seat"]
    hidden = _hidden(rec, seat)
    rv = review(hidden, None, seed=2, **advice)  # the seats whose hands are known
    assert rv.seats == [seat]
    assert "the other hands were unknown: dealt at random consistent with the play, seed 2" \
        in rv.hidden
    row = next(r for r in rv.rows if r["index"] == k)
    assert row["label"] == "blunder" and row["taken"] == rec["actions"][k]
    assert rv.rows == review(rec, [seat], seed=2, **advice).rows
    recs = get_game(game).part("records")
    other = recs.complete(hidden, seed=99)
    assert other["hands"] != recs.complete(hidden, seed=2)["hands"]
    assert review(other, [seat], seed=2, **advice).rows == rv.rows


def test_labels_by_the_low_end():
    th = {"inaccuracy": 0.3, "mistake": 1.0, "blunder": 3.0}
    assert [label_of({"low": x}, th) for x in (-1, 0.29, 0.3, 2.9, 3.0)] == \
        [None, None, "inaccuracy", "mistake", "blunder"]
    assert LABELS == ("inaccuracy", "mistake", "blunder")


# -- the command line --------------------------------------------------------------------------


X_CLI = ("--samples", "1024", "--precision", "0.5", "--quiet")
D_CLI = ("--samples", "100", "--quiet")


def _x_hand(seed: int) -> dict:
    return hand_records(1, "lanzhou", "heuristic", seed=seed)[0]


def _d_hand(seed: int) -> dict:
    rng = random.Random(seed)
    st = random_start("seed", rng)
    while not st.is_terminal():
        st.apply(rng.choice(st.legal_actions()))
    return drecord_of(st)


CLI = {"xianniu": ((), _x_hand, xreplay, X_CLI), "dingniu": (("dingniu",), _d_hand, dreplay,
                                                              D_CLI)}


@pytest.mark.parametrize("game", CLI)
def test_bad_input_is_one_line_and_status_2(game, tmp_path, capsys):
    prefix, hand, _, opts = CLI[game]
    rec = hand(1)
    broken = {**rec, "actions": [*rec["actions"][:1], {**rec["actions"][0]}]}
    for path in (write_json(tmp_path / "broken.json", broken),
                 str(tmp_path / "missing.json")):
        assert "xianniu: error" in bad(capsys, *prefix, "review", path, *opts)
        assert "xianniu: error" in bad(capsys, *prefix, "review", path)  # no bar line either
    (tmp_path / "not.json").write_text("{", encoding="utf-8")
    assert "not valid JSON" in bad(capsys, *prefix, "review", str(tmp_path / "not.json"))
    good = write_json(tmp_path / "good.json", rec)
    assert "no seat 7" in bad(capsys, *prefix, "review", good, "--seat", "7", *opts)
    assert "--seat" in bad(capsys, *prefix, "review", good, "--seat", "x", *opts)
    assert "does not exist" in bad(capsys, *prefix, "review", good, "--html",
                                   str(tmp_path / "no" / "page.html"), *opts)
    assert not (tmp_path / "no").exists()
    other = _d_hand(1) if game == "xianniu" else _x_hand(1)
    folder = tmp_path / "mixed"
    folder.mkdir()
    write_json(folder / "a.json", rec)
    write_json(folder / "b.json", other)
    assert "record 1 is a record of" in bad(capsys, *prefix, "review", str(folder), *opts)
    write_json(folder / "b.json", broken)  # every record is checked before any is reviewed
    assert "record 1: action 1" in bad(capsys, *prefix, "review", str(folder))


@pytest.mark.parametrize("game", CLI)
def test_json_rows_replay(game, tmp_path, capsys):
    prefix, hand, replay, opts = CLI[game]
    rec = hand(2)
    path = write_json(tmp_path / "hand.json", rec)
    data = json.loads(ok(capsys, *prefix, "review", path, "--seat", "0", "--json", *opts))
    assert data["game"] == game and data["seats"] == [0] and data["seed"] == 0
    assert data["thresholds"] and data["unit"] == "points"
    rows = data["rows"]
    assert rows and all(r["seat"] == 0 for r in rows)
    for r in rows:
        before = rec["actions"][:r["index"]]
        assert r["taken"] == rec["actions"][r["index"]]
        replay({**rec, "actions": [*before, r["taken"]]})
        if not r["forced"]:
            replay({**rec, "actions": [*before, r["best"]]})  # the best is a legal entry
            assert r["loss"]["n"] >= 2 and r["taken_ev"]["low"] <= r["taken_ev"]["high"]
    table = ok(capsys, *prefix, "review", path, "--seat", "0", *opts)
    assert "labels: a loss whose 95% CI, made simultaneous" in table and "seat 0:" in table
    html = tmp_path / "page.html"
    ok(capsys, *prefix, "review", path, "--seat", "0", "--html", str(html), *opts)
    page = html.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "@font-face" in page
    valued = [r for r in rows if not r["forced"]]
    if valued:  # the decisions table starts with the costliest decision
        worst = max(valued, key=lambda r: r["loss"]["value"])
        first = page.split("Decisions, worst first")[1].split("<tr")[2]
        assert f'<td class="num">{worst["index"]}</td>' in first


def test_many_records_from_a_folder_and_a_jsonl_file(tmp_path, capsys):
    recs = [_d_hand(s) for s in (3, 4, 5)]
    folder = tmp_path / "hands"
    folder.mkdir()
    for i, rec in enumerate(recs[:2]):
        write_json(folder / f"{i}.json", rec)
    lines = tmp_path / "hands.jsonl"
    lines.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in recs),
                     encoding="utf-8")
    data = json.loads(ok(capsys, "dingniu", "review", str(folder), "--seed", "9", "--json",
                         *D_CLI))
    assert data["records"] == 2 and len(data["reviews"]) == 2
    assert data["seeds"] == decision_seeds(9, 2)
    valued = [r for rv in data["reviews"] for r in rv["rows"] if not r["forced"]]
    assert sum(d["reviewed"] for d in data["by_seat"]) == len(valued)
    assert sum(k["decisions"] for k in data["by_kind"]) == len(valued)
    assert {d["seat"] for d in data["by_seat"]} == {0, 1, 2, 3}
    # record i is the review of that record alone with the i-th spawned seed
    alone = dapi.review(recs[1], seed=data["seeds"][1], samples=100).to_json()
    assert json.loads(json.dumps(alone, ensure_ascii=False)) == data["reviews"][1]
    table = ok(capsys, "dingniu", "review", str(lines), "--seat", "0", *D_CLI)
    assert "review of 3 dingniu records" in table and "by kind of decision" in table
    assert table.count("\n     0       3 ") == 1  # seat 0, three records


def test_many_xianniu_records_in_a_jsonl_file(tmp_path, capsys):
    lines = tmp_path / "hands.jsonl"
    lines.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n"
                             for r in (_x_hand(6), _x_hand(7))), encoding="utf-8")
    data = json.loads(ok(capsys, "review", str(lines), "--seat", "1", "--json", *X_CLI))
    assert data["records"] == 2 and [d["seat"] for d in data["by_seat"]] == [1]
    assert data["by_seat"][0]["records"] == 2
    kinds = {k["kind"] for k in data["by_kind"]}
    assert kinds and kinds <= {"抢刺", "lead", "扣", "紧牌", "扣/掀", "answer", "discard"}


def test_random_play_loses_significantly_more_than_strong_bots():
    """Hands of random (seat 0) against two learned bots: the review finds the random
    seat's mean loss per decision significantly larger (the 95% CIs apart)."""
    from analyzer.core.review import by_seat

    recs = hand_records(8, "lanzhou", "random,learned,learned", seed=21)
    seats = {d["seat"]: d for d in by_seat(xapi.review_many(recs, seed=1, **X_ADVICE))}
    assert all(seats[s]["reviewed"] >= 20 for s in range(3))
    random_low = seats[0]["mean_per_decision"]["low"]
    assert random_low > max(seats[s]["mean_per_decision"]["high"] for s in (1, 2))


def test_a_label_needs_the_loss_above_its_threshold_for_every_action_compared():
    from analyzer.core.review import label_of, simultaneous_low

    th = {"inaccuracy": 0.05, "mistake": 0.2, "blunder": 0.5}
    loss = {"value": 0.2, "low": 0.1, "high": 0.3, "n": 256}
    # Two actions: the paired CI alone decides. Forty-one: the best is the highest of forty
    # noisy gaps, so the same CI is no longer sure evidence of an inaccuracy.
    assert label_of({"low": simultaneous_low(loss, 2)}, th) == "inaccuracy"
    assert label_of({"low": simultaneous_low(loss, 41)}, th) is None
    assert simultaneous_low(loss, 41) < simultaneous_low(loss, 5) < loss["low"]
