"""The games xianniu plays, registered with the core by name."""

from __future__ import annotations

from .core.registry import Game

GAMES: dict[str, Game] = {g.name: g for g in (
    Game("xianniu", "兰州掀牛", "analyzer.xianniu", n_seats=3),
    Game("dingniu", "顶牛", "analyzer.dingniu", n_seats=4),
    Game("shengji", "郑州双升", "analyzer.shengji", n_seats=4),
)}
DEFAULT_GAME = "xianniu"


def get_game(name: str) -> Game:
    """The registered game called ``name``."""
    try:
        return GAMES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r} (choose {', '.join(GAMES)})") from None
