"""The games xianniu plays, registered with the core by name."""

from __future__ import annotations

from typing import Any

from .core.records import Legacy, game_of
from .core.registry import Game

GAMES: dict[str, Game] = {g.name: g for g in (
    Game("xianniu", "兰州掀牛", "analyzer.xianniu"),
    Game("dingniu", "顶牛", "analyzer.dingniu"),
    Game("shengji", "郑州双升", "analyzer.shengji"),
)}
DEFAULT_GAME = "xianniu"


def get_game(name: str) -> Game:
    """The registered game called ``name``."""
    try:
        return GAMES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r} (choose {', '.join(GAMES)})") from None


def legacy_formats() -> Legacy:
    """The older record formats every game still reads, mapped to their game."""
    out: Legacy = {}
    for game in reversed(GAMES.values()):  # the first game wins a shared old format
        out.update(dict.fromkeys(game.part("records").LEGACY, game.name))
    return out


def game_of_record(record: Any) -> Game:
    """The registered game whose record ``record`` is (RecordError if none)."""
    return get_game(game_of(record, legacy_formats()))
