"""The open-hand max-n solver against brute force through the reference engine."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.xianniu.engine import State
from analyzer.xianniu.solver import (
    Solver,
    copy_state,
    late_position,
    position_key,
    principal_line,
    solve,
    step,
)

N_POSITIONS = 120  # per preset


def brute(st: State):
    """Max-n by enumerating every line through the engine (checked moves, no table), ties to
    the first legal action: (values, action)."""
    seat, best = st.current_player(), None
    for a in st.legal_actions():
        child = copy_state(st)
        child.apply(a)
        v = tuple(child.returns()) if child.is_terminal() else brute(child)[0]
        if best is None or v[seat] > best[0][seat]:
            best = (v, a)
    return best


def positions(rules: str, n: int, max_cards: int, root: int = 16):
    seeds = np.random.SeedSequence(root, spawn_key=(max_cards,)).spawn(n)
    return [late_position(s, rules, max_cards) for s in seeds]


@pytest.mark.parametrize("rules", ["lanzhou", "kanniutui"])
def test_solver_equals_brute_force_on_small_positions(rules):
    kinds = set()
    for st in positions(rules, N_POSITIONS, 6):
        sol = solve(st)
        assert (sol.values, sol.action) == brute(st)
        kinds.add(st.phase)
        assert sum(sol.values) == 0
    assert len(kinds) >= 2  # not all positions alike


@pytest.mark.parametrize("rules", ["lanzhou", "kanniutui"])
def test_principal_line_replays_to_the_solved_values(rules):
    for st in positions(rules, 6, 8, root=3):
        sol = solve(st)
        assert principal_line(st).returns() == sol.values
        assert sol.action in st.legal_actions()


class LastTie(Solver):
    """A wrong tie rule: among equal actions, the last."""

    def _search(self, st):
        seat, best = st.current_player(), None
        for a in st.legal_actions():
            child = step(st, a)
            v = tuple(child.returns()) if child.is_terminal() else self._search(child)[0]
            if best is None or v[seat] >= best[0][seat]:
                best = (v, a)
        return best


class NoXianKey(Solver):
    """A broken table: the key forgets the 掀 events and who has said 扣."""

    @staticmethod
    def key(st):
        k = position_key(st)
        return k[:9] + k[11:]


@pytest.mark.parametrize("wrong", [LastTie, NoXianKey])
def test_brute_force_catches_a_wrong_solver(wrong):
    caught = 0
    for rules in ("lanzhou", "kanniutui"):
        for st in positions(rules, 40, 6):
            sol = wrong().solve(st)
            caught += (sol.values, sol.action) != brute(st)
    assert caught > 0


def test_solving_a_finished_hand_is_an_error():
    st = principal_line(positions("lanzhou", 1, 6)[0])
    with pytest.raises(ValueError, match="over"):
        solve(st)


# -- xianniu solve -----------------------------------------------------------------------------

def _write(tmp_path, st, name="s.json"):
    import json

    from analyzer.xianniu.records import record_of

    path = tmp_path / name
    path.write_text(json.dumps(record_of(st), ensure_ascii=False), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("rules", ["lanzhou", "kanniutui"])
def test_cli_solves_a_partial_record(capsys, tmp_path, rules):
    import json

    from cli_checks import ok

    st = positions(rules, 1, 6, root=5)[0]
    res = json.loads(ok(capsys, "solve", _write(tmp_path, st), "--json"))
    sol = solve(st)
    assert res["values"] == list(sol.values) and res["to_act"] == st.current_player()
    assert res["rules"] == rules and res["best"] == str(sol.action)
    assert res["engine"] == "kernel"
    ref = json.loads(ok(capsys, "solve", _write(tmp_path, st), "--engine", "reference",
                        "--json"))
    assert ref["engine"] == "reference" and ref["positions"] > 0
    assert (ref["values"], ref["best_action"]) == (res["values"], res["best_action"])
    line = ok(capsys, "solve", _write(tmp_path, st))
    assert f"seat {st.current_player()} to act; best " in line and "max-n" in line
    # the best action, appended to the record, replays
    from analyzer.xianniu.records import record_of, replay

    rec = record_of(st)
    rec["actions"].append(res["best_action"])
    replay(rec)


def test_cli_rules_override(capsys, tmp_path):
    import json

    from cli_checks import bad, ok, write_json

    from analyzer.xianniu.records import record_of

    st = positions("kanniutui", 1, 6, root=5)[0]
    rec = {**record_of(st), "rules": "lanzhou"}  # a kanniutui line, labelled lanzhou
    path = write_json(tmp_path / "o.json", rec)
    res = json.loads(ok(capsys, "solve", path, "--rules", "kanniutui", "--json"))
    assert res["rules"] == "kanniutui" and res["values"] == list(solve(st).values)
    assert "action" in bad(capsys, "solve", path)  # illegal under lanzhou


def test_cli_bad_input(capsys, tmp_path):
    from cli_checks import bad, write_json

    from analyzer.xianniu.records import record_of

    st = positions("lanzhou", 1, 6, root=5)[0]
    done = principal_line(st)
    assert "over" in bad(capsys, "solve", _write(tmp_path, done))
    rec = record_of(st)
    rec["actions"].append({"seat": (st.current_player() + 1) % 3, "action": "pass"})
    assert "turn" in bad(capsys, "solve", write_json(tmp_path / "b.json", rec))
    assert bad(capsys, "solve", write_json(tmp_path / "c.json", {"hands": ["Zz"]}))
    assert bad(capsys, "solve", _write(tmp_path, st), "--engine", "fast")
    assert bad(capsys, "solve", _write(tmp_path, st), "--max-positions", "0")
    big = positions("lanzhou", 1, 14, root=5)[0]  # more than 10 positions to search
    assert "within 10 positions" in bad(capsys, "solve", _write(tmp_path, big),
                                        "--max-positions", "10")
    (tmp_path / "d.json").write_text("{not json", encoding="utf-8")
    assert bad(capsys, "solve", str(tmp_path / "d.json"))
    assert bad(capsys, "solve", str(tmp_path / "missing.json"))
