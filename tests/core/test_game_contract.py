"""One contract for every game: the same checks for each registered game and preset.

Each game supplies its own invariants and sizes in ``tests/contract_<game>.py`` (``HOOKS``,
a :class:`contract_hooks.Hooks`); everything else here names no game. The checks
themselves are :mod:`analyzer.core.contract`; the tests at the end break a game on purpose
and require each check to notice.
"""

from __future__ import annotations

import importlib
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from analyzer.cli import cli as root_cli
from analyzer.core import contract
from analyzer.core import records as core_records
from analyzer.core.game import GameFacts
from analyzer.core.registry import PARTS
from analyzer.games import GAMES, game_of_record, get_game

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "playthroughs"
CASES = [(g, p) for g, game in GAMES.items() for p in game.facts.presets]


def hooks(game: str):
    return importlib.import_module(f"contract_{game}").HOOKS


def _hands(game: str, preset: str, root: int, n: int):
    """The children of ``SeedSequence(root)`` that seed ``n`` hands, with their labels."""
    return [(f"{game}/{preset} hand {i} of SeedSequence({root})", child)
            for i, child in enumerate(np.random.SeedSequence(root).spawn(n))]


@pytest.mark.parametrize("game", GAMES)
def test_the_facts_are_declared(game):
    facts = get_game(game).facts
    assert isinstance(facts, GameFacts) and facts.name == game
    assert facts.presets == tuple(get_game(game).part("rules").PRESETS)
    assert all(facts.team_of(s) in range(len(facts.teams)) for s in range(facts.n_seats))


@pytest.mark.parametrize("game", GAMES)
def test_every_part_exists(game):
    g = get_game(game)
    missing = []
    for part in PARTS:
        try:
            g.part(part)
        except ModuleNotFoundError as e:
            missing.append(f"{part} ({e.name})")
    assert missing == [], f"{game} lacks {missing}"
    assert hasattr(g.part("report"), "SECTION") and hasattr(g.part("web"), "GAME")


@pytest.mark.parametrize("game,preset", CASES)
def test_random_hands_keep_the_contract(game, preset):
    h = hooks(game)
    seen: Counter = Counter()
    for label, child in _hands(game, preset, h.root, h.hands[preset]):
        try:
            st = contract.random_hand(get_game(game), preset, child,
                                      on_step=lambda s: h.on_step(s, seen),
                                      view_every=h.view_every)
            h.on_end(st, seen)
        except AssertionError as e:
            raise AssertionError(f"{label}: {e}") from e
    missing = [k for k in h.must_see if not seen[k]]
    assert missing == [], f"random play never reached {missing} (saw {dict(seen)})"


@pytest.mark.parametrize("game,preset", CASES)
def test_records_round_trip_whole_and_partial(game, preset):
    h, g = hooks(game), get_game(game)
    for label, child in _hands(game, preset, h.root + 1, h.record_hands):
        st = contract.random_hand(g, preset, child, view_every=0)
        rec = contract.check_record(g, st)
        assert game_of_record(rec) is g
        cut = len(st.history) // 2
        partial = g.part("records").replay(dict(rec, actions=rec["actions"][:cut]))
        assert partial.history == st.history[:cut], label
        contract.check_record(g, partial)
        contract.check_refused_record(g, rec, cut)


@pytest.mark.parametrize("game", GAMES)
def test_records_of_older_versions_still_replay(game):
    h, recs = hooks(game), get_game(game).part("records")
    assert recs.LEGACY, f"{game} names no older record format"
    for path in h.legacy_records:
        old = core_records.load(path)
        assert "game" not in old and game_of_record(old).name == game
        recs.replay(old)


@pytest.mark.parametrize("game,preset", CASES)
def test_golden_playthroughs(game, preset):
    """The record of each seeded random hand is the stored one (``python
    scripts/docs/playthroughs.py`` writes them after a deliberate change of the engine)."""
    for seed in hooks(game).golden_seeds:
        path = GOLDEN / f"{game}-{preset}-{seed}.json"
        assert path.exists(), f"{path} is missing: run python scripts/docs/playthroughs.py"
        assert contract.playthrough(get_game(game), preset, seed) == \
            path.read_text(encoding="utf-8"), f"{path.name} differs"


@pytest.mark.parametrize("game,preset", CASES)
def test_kernels_agree_with_the_engine(game, preset):
    h = hooks(game)
    for policies, n in h.crosscheck[preset]:
        report = get_game(game).part("crosscheck").crosscheck(n, preset, seed=h.root + 2,
                                                              policies=policies)
        assert isinstance(report, contract.CrossCheck)
        assert report.hands == n and report.mismatches == [], report.mismatches[:3]


def _commands(group, path=()):
    """Every visible command under ``group`` (groups load their commands lazily)."""
    import click

    ctx = click.Context(group)
    for name in group.list_commands(ctx):
        cmd = group.get_command(ctx, name)
        if cmd is None or getattr(cmd, "hidden", False):
            continue
        yield (*path, name), cmd
        if isinstance(cmd, click.Group):
            yield from _commands(cmd, (*path, name))


COMMANDS = [p for p, _ in _commands(root_cli)]


def test_the_command_list_is_whole():
    assert len(COMMANDS) > 40 and ("report",) in COMMANDS
    groups = {p[0] for p in COMMANDS if len(p) > 1}
    # record, library, puzzles: every game's
    assert groups - {"record", "library", "puzzles"} == set(GAMES) - {next(iter(GAMES))}
    assert ("record", "convert") in COMMANDS and ("library", "split") in COMMANDS


@pytest.mark.parametrize("path", COMMANDS, ids=" ".join)
def test_every_command_offers_its_help(path):
    result = CliRunner().invoke(root_cli, [*path, "--help"])
    assert result.exit_code == 0, result.output
    assert "Usage:" in result.output


# -- teeth: each check catches a deliberately broken game -----------------------------------


def _broken(monkeypatch, game: str, attr: str, wrap):
    state_cls = get_game(game).part("engine").State
    monkeypatch.setattr(state_cls, attr, wrap(getattr(state_cls, attr)))


TEETH_GAME, TEETH_SEED = next(iter(GAMES)), 5


def _check(expect: str) -> None:
    g = get_game(TEETH_GAME)
    with pytest.raises(AssertionError, match=expect):
        st = contract.random_hand(g, g.facts.default_preset, TEETH_SEED)
        contract.check_record(g, st)


def test_teeth_an_illegal_action_listed(monkeypatch):
    def wrap(f):
        def legal(self):
            acts = f(self)
            return acts + [acts[0]] if acts else acts
        return legal
    _broken(monkeypatch, TEETH_GAME, "legal_actions", wrap)
    _check("listed twice|order")


def test_teeth_can_disagrees_with_the_list(monkeypatch):
    def wrap(f):
        def can(self, action):
            return f(self, action) and len(self.history) < 3
        return can
    _broken(monkeypatch, TEETH_GAME, "can", wrap)
    _check("refused")


def test_teeth_apply_that_forgets_the_history(monkeypatch):
    def wrap(f):
        def apply(self, action):
            f(self, action)
            if len(self.history) == 4:
                self.history.pop()
        return apply
    _broken(monkeypatch, TEETH_GAME, "apply", wrap)
    _check("history")


def test_teeth_a_view_that_shows_a_hidden_hand(monkeypatch):
    def wrap(f):
        def view(self, seat):
            return (f(self, seat), repr(self.hands))  # every hand, the others' too
        return view
    _broken(monkeypatch, TEETH_GAME, "view", wrap)
    _check("hidden")


def test_teeth_a_record_that_drops_a_field(monkeypatch):
    recs = get_game(TEETH_GAME).part("records")
    real = recs.record_of
    monkeypatch.setattr(recs, "record_of", lambda st: {k: v for k, v in real(st).items()
                                                       if k != "rules"})
    _check("'rules'")


def test_teeth_a_record_that_loses_the_last_action(monkeypatch):
    recs = get_game(TEETH_GAME).part("records")
    real = recs.record_of
    monkeypatch.setattr(recs, "record_of", lambda st: dict(real(st),
                                                           actions=real(st)["actions"][:-1]))
    _check("history|ends before")


def test_teeth_returns_that_do_not_add_up(monkeypatch):
    assert get_game(TEETH_GAME).facts.utility_sum is not None

    def wrap(f):
        def returns(self):
            r = list(f(self))
            if self.is_terminal():
                r[0] += 1
            return tuple(r)
        return returns
    _broken(monkeypatch, TEETH_GAME, "returns", wrap)
    _check("sum")
