"""What a game gives the web machinery: :class:`WebGame` and the sessions it makes.

The machinery knows nothing of a game's pieces: it stores the game's sessions, turns its
errors into HTTP answers, runs its long computations as jobs and serves its board script.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Protocol

from ..core.checks import check_seed

Progress = Callable[[int, int], None]
Task = Callable[[Progress], Any]
MAX_SEED = 2**63 - 1


def parse_seed(value: Any) -> int:
    """The seed a new-game request names (a fresh random one when it names none)."""
    if value is None or value == "":
        return secrets.randbits(32)
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    return check_seed(value, upper=MAX_SEED)


def parse_choice(options: dict, key: str, choices: Iterable[str], default: str) -> str:
    """``options[key]`` (``default`` when absent), which must be one of ``choices``."""
    choices = list(choices)
    value = options.get(key) or default
    if value not in choices:
        raise ValueError(f"unknown {key} {value!r} (choose {', '.join(choices)})")
    return value


class Conflict(ValueError):
    """A request that is well formed but does not fit the game's state now (HTTP 409):
    an action sent from a stale page, an action after the end, a record before the end."""


class GameSession(Protocol):
    """One game at the table, seen from the human seat."""

    finished: bool  # the game is over (its session then expires sooner)
    version: int  # actions taken so far: a request naming another version is stale

    def view(self) -> dict[str, Any]:
        """Everything the human seat may see now, JSON-ready."""

    def act(self, action: Any) -> None:
        """Play the human's ``action`` (then the bots' moves); ValueError if illegal."""

    def record(self) -> dict[str, Any]:
        """The game record (only once the game is over: it shows every hand)."""

    def advice_task(self) -> Task:
        """A computation of the advice for the human's current decision."""

    def review_task(self) -> Task:
        """A computation of the review of the finished game."""


class WebGame(Protocol):
    """A game's part of the web table."""

    name: str  # the game's registry name
    seat: int  # the human's seat
    static_dir: Path  # its board.js and board.css
    strings: dict[str, dict[str, str]]  # its words: {"zh": {key: text}, "en": {...}}
    options: dict[str, Any]  # the new-game form: {option: {"choices": [...], "default": x}}
    queries: dict[str, Callable[[Any], Task]]  # name -> check input, return the computation

    def new_game(self, options: Any) -> GameSession:
        """A new game with ``options`` (ValueError if bad)."""

    def review_record(self, record: Any) -> dict[str, Any]:
        """A record replayed move by move, every position of it (ValueError if bad)."""

    def position_table(self, position: dict[str, Any], seat: int | None, seed: int) -> Any:
        """A table at ``position`` (the record of a hand so far, every hand in it) where
        nothing moves until ``seat`` answers (None: a bot in every seat, for play-outs):
        a session with ``state``, ``moves``, ``action_page(action)``, ``hands_json()``
        and ``play_out(action)`` (the action, then the bots to the end)."""

    def warmup(self) -> None:
        """Make the first game fast (load the bots' compiled code)."""
