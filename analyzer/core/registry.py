"""How a game plugs into the core: its name, seats and where its parts live.

Every game package has the same parts with the same names (``rules``, ``engine``,
``records``, ``sim``, ``batch``, ``analysis``, ``report``, ``cli``); the core finds them
through a :class:`Game` and imports each only when it is used.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType


@dataclass(frozen=True)
class Game:
    """A registered game: ``package`` holds its parts (``package.cli:group`` and so on)."""

    name: str
    title: str
    package: str
    n_seats: int

    @property
    def cli(self) -> str:
        """The import target of the game's click group."""
        return f"{self.package}.cli:group"

    def part(self, name: str) -> ModuleType:
        """The game's module ``name`` (``batch``, ``report`` …), imported on first use."""
        return importlib.import_module(f"{self.package}.{name}")
