"""What each game adds to the contract suite (tests/core/test_game_contract.py)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


def _nothing(state: Any, seen: Counter) -> None:
    """No invariant of the game's own."""


@dataclass(frozen=True)
class Hooks:
    """A game's sizes and invariants for the contract suite.

    ``on_step`` checks the game's own invariants after every action and counts what it saw
    in ``seen`` (phases, action kinds, endings); ``must_see`` lists what random play must
    have reached over all hands; ``crosscheck`` lists ``(policies, hands)`` per preset for
    the kernel-against-engine crosscheck.
    """

    root: int  # SeedSequence root of the random hands
    hands: dict[str, int]  # random hands per preset
    record_hands: int
    must_see: tuple[str, ...]
    golden_seeds: tuple[int, ...]
    crosscheck: dict[str, list[tuple[str, int]]]
    legacy_records: tuple[Path, ...]  # records written before the shared envelope
    view_every: int = 1
    on_step: Callable[[Any, Counter], None] = _nothing
    on_end: Callable[[Any, Counter], None] = _nothing
    notes: dict[str, str] = field(default_factory=dict)
