"""The 双升 open-hand solver (analyzer.shengji.solver, kernels.shengji.solver) against plain
minimax over the reference engine on small end positions (random play from random deals,
both presets, at trick starts and inside tricks); its best play is legal in the engine and
achieves the value; the table is an optimisation only; ``xianniu shengji solve`` on records,
and bad records fail cleanly."""

from __future__ import annotations

import json
import random

import pytest
from cli_checks import bad, ok, write_json

from analyzer.shengji import solver as sv
from analyzer.shengji.actions import PLAY
from analyzer.shengji.records import record_of
from analyzer.shengji.rules import PRESETS


def _positions(rules: str, n: int, max_cards: int, seed: int):
    root = random.Random(f"{rules} {max_cards} {seed}")
    for _ in range(n):
        yield sv.late_position(random.Random(root.getrandbits(64)), rules, max_cards,
                               mid_trick=root.random() < 0.5)


def _achieves(st, sol) -> None:
    """The best action is legal and the position after it has the same value."""
    assert sol.action.kind == PLAY
    assert st.can(sol.action), sol.action
    child = st.clone()
    child.apply(sol.action)
    if child.is_terminal():
        got = child.result.settlement.attacker_points
    else:
        got = sv.solve_reference(child).points
    assert got == sol.points


@pytest.mark.parametrize("rules", sorted(PRESETS))
@pytest.mark.parametrize("max_cards,n", [(2, 20), (3, 14)])
def test_solver_equals_brute_force(rules, max_cards, n):
    multi = 0
    for st in _positions(rules, n, max_cards, 1):
        ref = sv.solve_reference(st)
        sol = sv.solve(st)
        assert (sol.points, sol.values) == (ref.points, ref.values), record_of(st)
        assert sol.values == sv.level_values(st, ref.points)
        _achieves(st, sol)
        _achieves(st, ref)
        multi += len(st.hands[st.turn]) >= 2
    assert multi > 0  # positions with a choice of several cards were met


@pytest.mark.parametrize("rules", sorted(PRESETS))
def test_four_tricks_to_go_equal_brute_force(rules):
    # four cards a hand, inside the first of the four tricks (brute force is slow)
    late = [st for st in _positions(rules, 60, 4, 2)
            if len(st.tricks[-1].plays) >= 2 and max(map(len, st.hands)) == 4]
    assert late
    for st in late[:2]:
        ref = sv.solve_reference(st)
        sol = sv.solve(st)
        assert sol.points == ref.points, record_of(st)
        assert st.can(sol.action)


def test_a_tiny_table_gives_the_same_values():
    # 16 rows: positions overwrite each other all the time, the values stay exact
    for st in _positions("zhengzhou", 10, 3, 3):
        assert sv.solve(st, log2_rows=4).points == sv.solve(st).points


def test_positions_with_throws_are_solved_exactly():
    # leads of several cards of one suit met: throws (standing or failing) are in the
    # brute force's listing; the values still agree
    found = 0
    for st in _positions("classic", 40, 3, 4):
        if st.tricks[-1].plays:
            continue
        hand = st.hands[st.turn]
        ctx = st.play_ctx
        if max(sum(ctx.esuit[f] == e for f in hand) for e in range(5)) < 2:
            continue
        found += 1
        assert sv.solve(st).points == sv.solve_reference(st).points, record_of(st)
    assert found >= 5


def test_principal_line_ends_on_the_value():
    for st in _positions("zhengzhou", 5, 3, 5):
        end = sv.principal_line(st)
        assert end.result.settlement.attacker_points == sv.solve(st).points


def test_search_limit_is_reported():
    st = next(_positions("zhengzhou", 1, 3, 6))
    with pytest.raises(sv.SearchLimit):
        sv.solve(st, max_positions=1)


# -- the command ------------------------------------------------------------------------------


def test_solve_command_on_a_record(capsys, tmp_path):
    st = next(_positions("zhengzhou", 1, 3, 7))
    path = write_json(tmp_path / "r.json", record_of(st))
    d = json.loads(ok(capsys, "shengji", "solve", path, "--json"))
    ref = sv.solve_reference(st)
    assert d["attacker_points"] == ref.points
    assert d["values"] == list(ref.values)
    assert d["to_act"] == st.turn and d["rules"] == "zhengzhou"
    assert d["points_so_far"] + d["points_to_come"] == d["attacker_points"]
    r = json.loads(ok(capsys, "shengji", "solve", path, "--json", "--engine", "reference"))
    assert r["attacker_points"] == d["attacker_points"]
    line = ok(capsys, "shengji", "solve", path)
    assert f"attackers' points {ref.points}" in line and "best" in line
    # the best action is a record entry: appended, the record replays
    rec = record_of(st)
    rec["actions"].append(d["best_action"])
    ok(capsys, "shengji", "replay", write_json(tmp_path / "r2.json", rec))


def test_solve_command_rejects_bad_records(capsys, tmp_path):
    st = next(_positions("classic", 1, 2, 8))
    rec = record_of(st)
    bad(capsys, "shengji", "solve", write_json(tmp_path / "x.json", {"x": 1}))
    bad(capsys, "shengji", "solve", str(tmp_path / "missing.json"))
    (tmp_path / "broken.json").write_text("{", encoding="utf-8")
    bad(capsys, "shengji", "solve", str(tmp_path / "broken.json"))
    illegal = dict(rec, actions=rec["actions"] + [{"seat": st.turn, "action": "play",
                                                   "cards": "大王 大王 小王"}])
    bad(capsys, "shengji", "solve", write_json(tmp_path / "ill.json", illegal))
    done = sv.principal_line(st)
    bad(capsys, "shengji", "solve", write_json(tmp_path / "done.json", record_of(done)))
    bad(capsys, "shengji", "solve", write_json(tmp_path / "r.json", rec), "--max-positions",
        "0")
    bad(capsys, "shengji", "solve", write_json(tmp_path / "r.json", rec), "--max-positions",
        "1")


def test_the_follow_listing_meets_every_pick_of_its_size_once():
    import itertools

    import numpy as np

    from kernels.shengji import solver as ks

    rng = np.random.default_rng(0)
    for _ in range(200):
        nf = int(rng.integers(0, 7))
        cs = np.zeros(64, np.int64)
        cs[:nf] = rng.integers(1, 3, nf)
        need = int(rng.integers(0, 8))
        dig = np.zeros(64, np.int64)
        got = []
        more = ks._first_of_size(dig, cs, nf, need)
        while more:
            got.append(tuple(int(x) for x in dig[:nf]))
            more = ks._next_of_size(dig, cs, nf)
        want = [p for p in itertools.product(*(range(c + 1) for c in cs[:nf]))
                if sum(p) == need]
        assert len(set(got)) == len(got) and sorted(got) == sorted(want)


def test_merged_equivalent_singles_keep_the_value():
    # positions whose root listing drops equivalent single cards: still the brute force's
    from kernels.shengji import solver as ks

    found = 0
    for st in _positions("zhengzhou", 60, 3, 9):
        pos, rk = sv.kernel_position(st)
        stack = ks.new_stack(ks.stack_depth(pos[0]))
        bufs = (stack[4], stack[5], stack[6], stack[7], stack[9])
        moves, k = stack[2][0], pos[2]
        if k == 0:
            n = ks.list_leads(pos[0], pos[3], rk, moves, bufs)
        else:
            n = ks.list_follows(pos[0], (pos[3] + k) % 4, pos[1][0], rk, moves, bufs)
        if ks.merge_singles(moves, n, pos[0], (pos[1], k), rk) == n:
            continue
        found += 1
        sol = sv.solve(st)
        assert sol.points == sv.solve_reference(st).points, record_of(st)
        _achieves(st, sol)
    assert found >= 5
