"""Puzzles: one answer, proven; mined from self-play, verified, kept once, shipped."""

from __future__ import annotations

import functools
import json
import random
from pathlib import Path

import pytest

from analyzer.core import puzzles as pz
from analyzer.core.library import Library
from analyzer.games import GAMES, get_game

ROOT = Path(__file__).resolve().parents[2]
CHEAP = {"samples": 120}  # 顶牛's advice, lighter than a shipped set's


def _gap(value, half):
    return {"value": value, "low": value - half, "high": value + half, "n": 400}


def _ranked(*gaps):
    return [{"action": {"a": i}, "diff": g} for i, g in enumerate([_gap(0, 0), *gaps])]


def test_one_answer_needs_a_margin_and_every_gap_surely_above_0():
    assert pz.one_answer(_ranked(_gap(1.5, 0.4), _gap(2.0, 0.5)), 1.0) is None
    assert pz.one_answer(_ranked(_gap(0.8, 0.1)), 1.0) == "margin"
    # the second's gap is sure, the third's is not once made simultaneous over 3 actions
    assert pz.one_answer(_ranked(_gap(1.5, 0.4), _gap(2.0, 1.9)), 1.0) == "ci"
    assert pz.one_answer(_ranked(), 1.0) == "actions"


@pytest.fixture(scope="module")
def mined():
    game = get_game("dingniu")
    records = game.part("luck").selfplay_records(1, 5)
    return pz.mine(game, records, seed=3, budget=CHEAP)


def test_mined_puzzles_are_the_advice_s_answer_and_pass_every_check(mined):
    found, report = mined
    assert found and report.kept == len(found) <= report.candidates <= report.decisions
    assert sum(report.rejects.values()) == report.decisions - report.kept
    assert len({p.key for p in found}) == len(found)
    game = get_game("dingniu")
    adv = game.part("advise")
    for p in found:
        assert p.verified and set(p.checks) - {"solver"} == {"budget", "search"}
        # the open-hand check only where the solver reaches: never a lead (a whole hand)
        assert not (p.theme == "lead" and "solver" in p.checks)
        assert p.checks["search"]["options"]["policy"] == "pimc"
        assert p.margin >= adv.PUZZLE_MARGIN and p.actions[0]["action"] == p.answer
        assert p.player_move is not None and p.theme in ("lead", "play", "扣")
        again = pz.Puzzle.from_json(json.loads(json.dumps(p.to_json())))
        assert again.to_json() == p.to_json()


def test_mining_on_dask_finds_the_puzzles_found_here(mined):
    game = get_game("dingniu")
    records = game.part("luck").selfplay_records(1, 5)
    found, report = pz.mine(game, records, seed=3, budget=CHEAP, backend="dask")
    assert [p.to_json() for p in found] == [p.to_json() for p in mined[0]]
    assert report.as_dict() == mined[1].as_dict()


def test_a_wrong_answer_fails_verification(mined):
    found, _ = mined
    p = pz.Puzzle.from_json(found[0].to_json())
    p.answer, p.group = p.actions[1]["action"], [p.actions[1]["action"]]
    pz.verify(get_game("dingniu"), p, 11, CHEAP)
    assert not p.verified and p.checks["budget"]["why"] == "answer"


def test_the_library_keeps_a_puzzle_once(tmp_path, mined):
    found, _ = mined
    with Library(tmp_path / "lib.sqlite") as lib:
        first = lib.add_puzzle(found[0].to_json(), "mined")
        assert first.new and not lib.add_puzzle(found[0].to_json(), "mined").new
        assert lib.puzzle(first.id)["key"] == found[0].key
        assert [i for i, _ in lib.puzzles(game="dingniu")] == [first.id]


def _shipped(game: str) -> Path:
    return ROOT / "analyzer" / game / "puzzles.jsonl"


SHIPPED = ("dingniu", "xianniu")  # the games whose set is made (docs/puzzles.md)


def test_the_shipped_sets_are_there():
    assert [g for g in GAMES if _shipped(g).exists()] == [g for g in GAMES if g in SHIPPED]


RECHECKED = 20  # shipped puzzles of each game verified again, each its own test (xdist)


@functools.cache
def _shipped_set(game: str) -> tuple[dict, list]:
    return pz.read_set(_shipped(game).read_text(encoding="utf-8"))


@functools.cache
def _rechecks(game: str) -> list[tuple[pz.Puzzle, int]]:
    """A random 20 of ``game``'s shipped set, each with a seed no set was mined with."""
    rng = random.Random(2026)
    found = _shipped_set(game)[1]
    return [(p, rng.getrandbits(62)) for p in rng.sample(found, RECHECKED)]


@pytest.mark.parametrize("game", SHIPPED)
def test_shipped_sets_are_whole_and_verified(game):
    head, found = _shipped_set(game)
    assert head["game"] == game and head["command"].startswith("xianniu puzzles mine")
    assert len(found) == head["puzzles"] >= 150
    assert pz.shipped_count(get_game(game)) == len(found)
    assert all(p.verified for p in found)
    assert len({p.key for p in found}) == len(found)


@pytest.mark.parametrize("game,k", [(g, k) for g in SHIPPED for k in range(RECHECKED)])
def test_shipped_puzzles_pass_again_at_a_new_seed(game, k):
    p, seed = _rechecks(game)[k]
    again = pz.Puzzle.from_json(p.to_json())
    pz.verify(get_game(game), again, seed)
    assert again.verified, (p.source, again.checks)


def test_your_own_mistakes_from_the_library(tmp_path, capsys):
    """A hand played by random in seat 1: the puzzles mined from it are seat 1's decisions
    where another action was surely better."""
    from cli_checks import ok

    from analyzer.core.contract import random_record

    game = get_game("dingniu")
    lib = tmp_path / "lib.sqlite"
    with Library(lib) as library:
        library.add(random_record(game, "seed", 4), seat=1)
    found, report = pz.mine(game, [random_record(game, "seed", 4)], seed=1, budget=CHEAP,
                            seats=[1], missed_only=True)
    assert all(p.seat == 1 and p.difficulty["player_missed"] for p in found)
    assert report.rejects.get("player right", 0) + len(found) <= report.candidates
    out = ok(capsys, "puzzles", "mine", "--game", "dingniu", "--from-library", "--library",
             str(lib), "--quiet")
    assert "1 hands" in out


def test_glicko2_matches_glickman_s_example():
    from analyzer.core.glicko import Rating, update

    r = update(Rating(1500, 200, 0.06),
               [(Rating(1400, 30), 1), (Rating(1550, 100), 0), (Rating(1700, 300), 0)])
    assert (round(r.rating, 2), round(r.rd, 2), round(r.vol, 5)) == (1464.05, 151.52, 0.06)
    assert update(Rating(1500, 50), []).rd > 50  # a period without games widens it


def test_a_missed_puzzle_comes_back_and_the_ratings_move(tmp_path, mined):
    import datetime as dt

    found, _ = mined
    assert len(found) >= 2
    t0 = dt.datetime(2026, 12, 7, 20, 0, tzinfo=dt.UTC)
    with Library(tmp_path / "lib.sqlite") as lib:
        ids = [lib.add_puzzle(p.to_json(), "mined").id for p in found[:2]]
        first = lib.next_puzzle("dingniu", t0)
        assert first in ids
        wrong = found[ids.index(first)].actions[1]["action"]
        player, puzzle = lib.attempt(first, wrong, solved=False, at=t0)
        assert player.rating < 1500 < puzzle.rating
        other = lib.next_puzzle("dingniu", t0)  # the missed one is not due yet
        assert other != first
        lib.attempt(other, found[ids.index(other)].answer, solved=True, at=t0)
        assert lib.rating(0).rating > player.rating
        assert lib.next_puzzle("dingniu", t0 + dt.timedelta(minutes=5)) is None
        assert lib.next_puzzle("dingniu", t0 + dt.timedelta(minutes=11)) == first  # back
        lib.attempt(first, found[ids.index(first)].answer, True, t0 + dt.timedelta(minutes=11))
        later = t0 + dt.timedelta(hours=2)
        assert lib.next_puzzle("dingniu", later) is None  # next due in a day
        assert lib.next_puzzle("dingniu", later + dt.timedelta(days=1)) == first
        with pytest.raises(ValueError, match="no puzzle 999"):
            lib.attempt(999, {}, True, t0)


def test_the_shipped_sets_go_into_the_library(tmp_path, capsys):
    from cli_checks import bad, ok

    lib = str(tmp_path / "lib.sqlite")
    out = ok(capsys, "puzzles", "add", "--shipped", "--library", lib)
    for game in SHIPPED:
        head, found = pz.shipped(get_game(game))
        assert f"shipped {game}: {len(found)} added" in out
    assert "0 added" in ok(capsys, "puzzles", "add", "--shipped", "--library", lib)
    listed = json.loads(ok(capsys, "puzzles", "list", "--json", "--library", lib))
    assert len(listed) == sum(len(pz.shipped(get_game(g))[1]) for g in SHIPPED)
    (tmp_path / "bad.jsonl").write_text('{"x": 1}\n')
    bad(capsys, "puzzles", "add", str(tmp_path / "bad.jsonl"), "--library", lib)
    bad(capsys, "puzzles", "add", "--library", lib)


def test_practice_on_the_command_line(tmp_path, capsys):
    """puzzles next / show / answer: the position as its seat saw it (the choices not in
    the answer's order), a right answer and a wrong one judged and kept, bad input refused."""
    from cli_checks import bad, ok

    lib = str(tmp_path / "lib.sqlite")
    shown = json.loads(ok(capsys, "puzzles", "next", "--game", "dingniu", "--json",
                          "--library", lib))
    assert shown["choices"] == sorted(shown["choices"]) and len(shown["choices"]) >= 2
    pid = shown["id"]
    with Library(lib) as library:
        puzzle = library.puzzle(pid)
        assert library.count_puzzles("dingniu") == len(pz.shipped(get_game("dingniu"))[1])
    game = get_game("dingniu")
    recs = game.part("records")
    state = recs.replay(puzzle["position"])
    index = len(puzzle["position"]["actions"])

    def token(entry):
        return recs.action_token(state, puzzle["seat"], recs.action_from_json(entry, index)[1])
    text = ok(capsys, "puzzles", "show", str(pid), "--library", lib)
    assert f"seat {puzzle['seat']}" in text and "answer:" not in text
    assert "answer:" in ok(capsys, "puzzles", "show", str(pid), "--answer", "--library", lib)
    wrong = next(a["action"] for a in puzzle["actions"]
                 if a["action"] != puzzle["answer"] and a["action"] not in puzzle["group"])
    out = json.loads(ok(capsys, "puzzles", "answer", str(pid), token(wrong), "--json",
                        "--library", lib))
    assert out["solved"] is False and out["rating"] < 1500 and out["due"] is not None
    out = ok(capsys, "puzzles", "answer", str(pid), token(puzzle["answer"]), "--library", lib)
    assert out.startswith("right!") and f"answer: {token(puzzle['answer'])}" in out
    from analyzer.dingniu.rules import TILES

    other = next(t.name for t in TILES if t.name not in shown["choices"])
    assert "choices" in bad(capsys, "puzzles", "answer", str(pid), other, "--library", lib)
    bad(capsys, "puzzles", "answer", str(pid), "xx", "--library", lib)
    bad(capsys, "puzzles", "show", "999", "--library", lib)
    bad(capsys, "puzzles", "next", "--game", "poker", "--library", lib)


def test_the_seats_view_hides_the_others_face_down_actions():
    """A 顶牛 扣 of another seat is written ``?``; the seat's own is written out."""
    game = get_game("dingniu")
    recs = game.part("records")
    for seed in range(1, 60):
        record = random_record_of(game, seed)
        kous = [e for e in record["actions"] if e["action"] == "kou"]
        if len({e["seat"] for e in kous}) >= 2:
            break
    else:
        raise AssertionError("no random hand with two seats' 扣")
    seat = kous[0]["seat"]
    position = {**record, "actions": record["actions"][:-1]}
    position.pop("result", None)
    p = {"seat": seat, "position": recs.record_of(recs.replay(position)),
         "actions": []}
    view = pz.seen(game, p)
    for (s, tok), entry in zip(view["moves"], position["actions"]):
        if entry["action"] == "kou":
            assert (tok == "?") == (s != seat)


def random_record_of(game, seed: int):
    import numpy as np

    from analyzer.core.contract import random_record

    return random_record(game, game.facts.default_preset, np.random.SeedSequence(seed))


def test_the_open_hand_check_agrees_or_refuses():
    """Within the solver's reach the answer must have the best mean open-hand value: a
    shipped 顶牛 puzzle past the lead passes, the same puzzle with its worst action called
    the answer fails; a lead is beyond the solver (no check)."""
    game = get_game("dingniu")
    found = pz.shipped(game)[1]
    lead = next(p for p in found if p.theme == "lead")
    assert pz._solver_check(game, lead, 1) is None
    late = next(p for p in found if p.theme == "play" and len(p.position["actions"]) >= 12)
    check = pz._solver_check(game, late, 1)
    assert check is not None and check["deals"] == pz.SOLVER_DEALS
    assert check["passed"] and len(check["values"]) == len(late.actions)
    values = check["values"]
    if max(values) > min(values):
        worst = min(range(len(values)), key=values.__getitem__)
        swapped = pz.Puzzle.from_json({**late.to_json(),
                                       "actions": [late.actions[worst]] + [
                                           a for i, a in enumerate(late.actions) if i != worst]})
        assert pz._solver_check(game, swapped, 1)["passed"] is False


def test_an_interrupted_mining_run_resumes_where_it_stopped(tmp_path, capsys, monkeypatch):
    """Hand 0 is mined and checkpointed, hand 1 is interrupted; --resume mines hand 1 only
    and writes the set of both hands, in hand order, and removes the checkpoint."""
    from cli_checks import bad, run

    real = pz.mine_hand
    made, interrupt = [], [True]

    def fake(game, record, hand_seed, source, *args):
        made.append(source)
        if source.endswith("hand 1") and interrupt:
            interrupt.pop()  # once: the resumed run mines it
            raise KeyboardInterrupt
        return real(game, record, hand_seed, source, CHEAP, 0)  # seat 0's decisions only

    monkeypatch.setattr(pz, "mine_hand", fake)
    out = tmp_path / "set.jsonl"
    args = ["puzzles", "mine", "--game", "dingniu", "--hands", "2", "--seed", "5",
            "--out", str(out), "--library", str(tmp_path / "lib.sqlite"), "--quiet"]
    rc, _, err = run(capsys, *args)
    assert rc == 130 and "--resume" in err and not out.exists()
    kept = json.loads(pz_checkpoint(out).read_text(encoding="utf-8"))
    assert list(kept["hands"]) == ["0"] and kept["run"].endswith("--seed 5")
    more = [("3" if a == "2" else a) for a in args]  # resumed with one hand more
    rc, text, err = run(capsys, *more, "--resume")
    assert rc == 0, err
    assert made[2:] == [made[1], made[1].replace("hand 1", "hand 2")]
    assert "1 hands from the checkpoint" in text
    assert not pz_checkpoint(out).exists()
    resumed = out.read_text(encoding="utf-8")
    made.clear()
    whole = tmp_path / "whole.jsonl"
    rc, _, err = run(capsys, *[str(whole) if a == str(out) else a for a in more])
    assert rc == 0, err
    assert whole.read_text(encoding="utf-8") == resumed
    assert json.loads(resumed.splitlines()[0])["puzzles"] >= 1  # the sets compared hold some
    assert [m[-6:] for m in made] == ["hand 0", "hand 1", "hand 2"]
    # a checkpoint of another run is refused; --resume needs the run's --out
    pz_checkpoint(out).write_text(json.dumps({"run": "other", "hands": {}}), encoding="utf-8")
    assert "another run" in bad(capsys, *args, "--resume")
    pz_checkpoint(out).write_text('{"run": "x"', encoding="utf-8")
    assert "unreadable" in bad(capsys, *args, "--resume")
    assert "--resume needs" in bad(capsys, *[a for a in args if a != str(out) and a != "--out"],
                                   "--resume")


@pytest.mark.parametrize("game", GAMES)
def test_self_play_hands_are_the_same_whatever_their_number(game):
    """What lets a mining run resume with more --hands: hand h of n is hand h of n + 1."""
    luck = get_game(game).part("luck")
    assert luck.selfplay_records(2, 7) == luck.selfplay_records(3, 7)[:2]
    from analyzer.core.review import decision_seeds

    assert decision_seeds(7, 2) == decision_seeds(7, 3)[:2]


def test_the_seat_that_picked_up_the_kitty_keeps_it_in_its_view():
    """A 双升 bury seen from the burier: it picked the kitty up, so the deals drawn from its
    view hold that kitty and its bury can be made on each (drawn anew, a bury of kitty cards
    was refused: "seat 0 does not hold …"); seen from another seat, the kitty is unknown."""
    from analyzer.core.review import decision_seeds
    from analyzer.shengji.advise import cut

    game = get_game("shengji")
    recs = game.part("records")
    record = game.part("luck").selfplay_records(1, 5)[0]
    history = recs.replay(record).history
    at = next(i for i, (_, a) in enumerate(history) if a.kind == "bury")
    burier, bury = history[at]
    position = cut(record, at)
    mine = pz.hidden_from(game, position, burier)
    assert mine["kitty"] == position["kitty"] and mine["hands"][burier] != "?"
    assert pz.hidden_from(game, position, (burier + 1) % 4)["kitty"] == "?"
    for s in decision_seeds(3, 4):
        state = recs.replay(recs.complete(mine, s, going_on=True))
        assert sorted(state.hands[(burier + 1) % 4]) != sorted(
            recs.replay(position).hands[(burier + 1) % 4])  # the other hands were drawn
        state.apply(bury)


def pz_checkpoint(out: Path) -> Path:
    from analyzer.core.batchrun import checkpoint_path

    return checkpoint_path(out)


def test_a_decision_before_the_solver_s_phase_is_beyond_the_open_hand_check(monkeypatch):
    """双升's solver starts in the play: at a declaring decision the check answers None
    before playing on (after a 造反 decision there a new deal would be needed, which the open
    hands do not hold: that stopped a mining run before this)."""
    game = get_game("shengji")
    solver, recs = game.part("solver"), game.part("records")
    record = game.part("luck").selfplay_records(1, 5)[0]
    _, seat, position, state = next(d for d in pz.decisions(game, record)
                                    if d[3].phase == "declare")
    assert not solver.reaches(state)
    actions = [{"action": recs.action_to_json(seat, a)} for a in state.legal_actions()[:2]]
    puzzle = pz.Puzzle(game="shengji", rules=str(position["rules"]), seat=seat,
                       position=position, answer=actions[0]["action"], group=[], actions=actions,
                       theme="declare", margin=1.0, unit="levels", source="test", seed=0)
    monkeypatch.setattr(solver, "open_values", lambda st: pytest.fail("valued"))
    assert pz.open_hand_values(game, puzzle, 3, deals=2) is None
    played = next(d[3] for d in pz.decisions(game, record) if d[3].phase == "play")
    assert solver.reaches(played)
    assert all(get_game(g).part("solver").reaches(None) for g in ("xianniu", "dingniu"))
