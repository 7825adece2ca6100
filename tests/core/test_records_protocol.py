"""Every game's records module has every member of the records protocol, with the
protocol's parameters, so that callers use it without probing."""

from __future__ import annotations

import inspect

import pytest

from analyzer.core.game import GameRecords
from analyzer.games import GAMES, get_game

MEMBERS = [name for name, v in vars(GameRecords).items()
           if inspect.isfunction(v) and not name.startswith("_")]


def test_the_protocol_names_the_text_notation_too():
    assert {"complete", "action_token", "token_action", "text_head", "head_of_text",
            "hidden_token", "hidden_entry", "start_of"} <= set(MEMBERS)


@pytest.mark.parametrize("game", list(GAMES))
def test_each_game_has_every_member(game):
    recs = get_game(game).part("records")
    for name in MEMBERS:
        assert callable(getattr(recs, name, None)), f"{game}.records has no {name}"
        want = list(inspect.signature(getattr(GameRecords, name)).parameters)[1:]
        got = list(inspect.signature(getattr(recs, name)).parameters)
        assert got[:len(want)] == want or len(got) == len(want), (game, name, got, want)


def test_a_module_missing_a_member_is_caught(monkeypatch):
    recs = get_game("xianniu").part("records")
    monkeypatch.delattr(recs, "hidden_entry")
    with pytest.raises(AssertionError, match="hidden_entry"):
        test_each_game_has_every_member("xianniu")
