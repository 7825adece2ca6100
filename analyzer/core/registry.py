"""How a game plugs into the core: its name and where its parts live.

Every game package has the same parts with the same names (:data:`PARTS`); the core finds
them through a :class:`Game` and imports each only when it is used. The game's facts
(seats, teams, length, presets: :class:`~analyzer.core.game.GameFacts`) are declared by its
engine.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType

from .game import GameFacts

# The parts of every game package, by role.
PARTS = {
    "rules": "the rule presets as frozen data",
    "engine": "the reference engine: State with the contract's verbs, and FACTS",
    "records": "game records in the shared envelope, and their replay",
    "sim": "the kernels adapter: rule arrays and kernel calls",
    "batch": "how the batch runner plays and counts a chunk of hands",
    "result": "a batch run's result: counts, statistics, text and JSON",
    "analysis": "the analyses (counterfactual values, studies)",
    "tournament": "the duplicate tournament",
    "crosscheck": "kernels against the reference engine, hand by hand",
    "report": "the game's report section (SECTION)",
    "web": "the game's web table (GAME)",
    "api": "every command as a Python function",
    "cli": "the game's click commands",
    "bench": "the game's throughput benchmark",
    "warmup": "compiles the game's kernels ahead",
}

# Parts a game may have (the commands built on them are offered where it does).
OPTIONAL_PARTS = {
    "advise": "every legal action at a record's decision, valued (the review of a hand reads "
              "it: analyzer.core.review.Advisor)",
    "solver": "the open-hand solver: open_values(state), every seat's value with all hands "
              "open, SearchLimit (a ValueError) beyond its reach (REACH positions); "
              "reaches(state), whether what follows a decision there is in its tree; the "
              "puzzle miner checks answers by it",
    "luck": "the default player (PLAYER) and its self-play (selfplay_records); a seat's deal "
            "valued from its own view (HIDDEN, seen_hidden, deal_of, deal_results of redealt "
            "hands played whole): the luck-and-skill split and the puzzle miner read it",
}


@dataclass(frozen=True)
class Game:
    """A registered game: ``package`` holds its parts (``package.cli:group`` and so on)."""

    name: str
    title: str
    package: str

    @property
    def cli(self) -> str:
        """The import target of the game's click group."""
        return f"{self.package}.cli:group"

    @property
    def facts(self) -> GameFacts:
        """The facts the game's engine declares."""
        facts = self.part("engine").FACTS
        if facts.name != self.name:
            raise ValueError(f"the engine of {self.name} declares the facts of {facts.name}")
        return facts

    def part(self, name: str) -> ModuleType:
        """The game's module ``name`` (one of :data:`PARTS` or :data:`OPTIONAL_PARTS`),
        imported on first use."""
        if name not in PARTS and name not in OPTIONAL_PARTS:
            raise ValueError(f"no game part {name!r} (parts: "
                             f"{', '.join([*PARTS, *OPTIONAL_PARTS])})")
        return importlib.import_module(f"{self.package}.{name}")
