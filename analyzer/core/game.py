"""The game contract: one verb set for every game's reference engine, and its facts as data.

A game's ``engine`` module declares :data:`FACTS` (a :class:`GameFacts`) and a ``State``
class with the verbs of :class:`GameState`; its ``records`` module reads and writes records
in the shared envelope (:mod:`analyzer.core.records`) with the game's own action codec.
:mod:`analyzer.core.contract` checks any game against this contract, and the contract test
suite runs those checks for every registered game and preset.

The verbs (after OpenSpiel's state API and pokerkit's verify / can / do):

- ``current_player()``: the seat to act, :data:`TERMINAL` (-1) once the hand is over;
- ``legal_actions()``: every legal action, in the engine's order (:func:`action_key`),
  empty once over; a phase whose choices are too many to list raises :class:`NotListed`
  (then ``engine.random_action`` draws one, and ``verify`` judges any);
- ``verify(action)``: ``ValueError`` naming why ``action`` is illegal now;
- ``can(action)``: ``verify`` as a yes or no;
- ``apply(action)``: verify, then play the action of the seat to act;
- ``is_terminal()``, ``returns()`` (per seat; zeros before the end), ``clone()``;
- ``view(seat)``: what that seat may see now, as a frozen dataclass (its own hand and the
  public facts; never a card it cannot see);
- ``history``: ``(seat, action)`` in order; ``rules``: the frozen preset.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar, runtime_checkable

TERMINAL = -1  # current_player() once the hand is over

A = TypeVar("A")


class NotListed(ValueError):
    """``legal_actions`` in a phase whose legal actions are too many to list."""


@dataclass(frozen=True)
class GameFacts:
    """What a game declares about itself (OpenSpiel's game information), as data.

    ``teams`` lists the seats of each side (one seat a side where every seat plays for
    itself); ``utility_sum`` is what ``returns()`` sums to at the end of every hand, or
    None where the sum is not constant; ``max_length`` bounds the actions of one hand.
    """

    name: str
    n_seats: int
    teams: tuple[tuple[int, ...], ...]
    max_length: int
    utility_sum: int | None
    returns_unit: str  # what one unit of returns() is: "points", "levels"
    presets: tuple[str, ...]  # the rule presets, the default first

    def __post_init__(self) -> None:
        seats = sorted(s for team in self.teams for s in team)
        if seats != list(range(self.n_seats)):
            raise ValueError(f"the teams {self.teams} must cover seats 0..{self.n_seats - 1} "
                             f"once each")
        if self.max_length < 1 or not self.presets:
            raise ValueError("a game has a positive maximum length and at least one preset")

    @property
    def default_preset(self) -> str:
        return self.presets[0]

    def team_of(self, seat: int) -> int:
        """The index of ``seat``'s side in :attr:`teams`."""
        for i, team in enumerate(self.teams):
            if seat in team:
                return i
        raise ValueError(f"no seat {seat!r} (seats 0..{self.n_seats - 1})")


@runtime_checkable
class GameState(Protocol[A]):
    """One hand of a game in its reference engine. See the module's docstring."""

    history: list[tuple[int, A]]

    def current_player(self) -> int:
        """The seat to act; TERMINAL once the hand is over."""

    def legal_actions(self) -> list[A]:
        """Every legal action in the engine's order; NotListed where too many."""

    def verify(self, action: A) -> None:
        """Raise ValueError with the reason unless ``action`` is legal now."""

    def can(self, action: A) -> bool:
        """True if ``action`` is legal now."""

    def apply(self, action: A) -> None:
        """Play ``action`` for the seat to act (verified first)."""

    def is_terminal(self) -> bool:
        """True once the hand is over."""

    def returns(self) -> Sequence[int]:
        """Each seat's result (zeros before the end)."""

    def clone(self) -> GameState[A]:
        """An independent copy."""

    def view(self, seat: int) -> Any:
        """What ``seat`` may see now (a frozen dataclass)."""


class GameEngine(Protocol):
    """What a game's ``engine`` module offers the contract, beside its ``State``."""

    FACTS: GameFacts
    action_key: Callable[[Any], Any]  # the sort key of the engine's order of actions

    def random_start(self, rules: str, rng: Any) -> GameState:
        """A new hand from a random deal (every chance outcome from ``rng``)."""

    def random_action(self, state: GameState, rng: Any) -> Any:
        """A legal action drawn by ``rng`` (for phases that list none too)."""

    def redeal_hidden(self, state: GameState, seat: int, rng: Any) -> GameState:
        """A copy of ``state`` in which what ``seat`` cannot see is dealt anew."""


class GameRecords(Protocol):
    """What a game's ``records`` module offers: its records in the shared envelope, and
    their text notation (``docs/records.md``). Every game's module has all of it
    (``tests/core/test_records_protocol.py``), so callers never probe."""

    def record_of(self, state: GameState) -> dict[str, Any]:
        """The record of a hand so far (the envelope, the deal, every action)."""

    def replay(self, record: Any, require_end: bool = False) -> GameState:
        """The hand a record describes, every action checked (ValueError naming the first
        illegal one)."""

    def start_of(self, record: Any) -> GameState:
        """The state right after the deal a record describes."""

    def action_to_json(self, seat: int, action: Any) -> dict[str, Any]:
        """One record entry."""

    def action_from_json(self, entry: Any, index: int) -> tuple[int, Any]:
        """``(seat, action)`` of one record entry (ValueError if malformed)."""

    def complete(self, record: Any, seed: int = 0, tries: int = ...,
                 going_on: bool = False) -> Any:
        """``record`` with every hand written ``"?"`` dealt to fit its actions (itself when
        it has none)."""

    def action_token(self, state: Any, seat: int, action: Any) -> str:
        """One action as a token of the text notation."""

    def token_action(self, state: Any, token: str) -> Any:
        """The action a token stands for at ``state`` (ValueError if it names none)."""

    def text_head(self, head: dict[str, Any]) -> list[str]:
        """The head lines of a record in the text notation."""

    def head_of_text(self, fields: dict[str, str], hands: list[str]) -> dict[str, Any]:
        """The record's head read back from its text's fields and hands."""

    def hidden_token(self, entry: dict[str, Any]) -> str | None:
        """The token of an entry that hides what was played (None: the game has none)."""

    def hidden_entry(self, seat: int, token: str) -> dict[str, Any] | None:
        """The entry of a token that hides what was played, or None for any other."""


@dataclass(frozen=True)
class KernelBridge:
    """How a game's reference engine maps onto its kernels (the contract of
    :mod:`kernels.contract`), for checks that hold the two to each other.

    ``rules(preset)``: the kernels' rules bundle; ``deal_row(state)``: the deal of an engine
    hand as the kernels' deal row; ``action(state, a)``: the kernels' code of the engine's
    action ``a`` in ``state``; ``returns(row)``: the engine's ``returns()`` read from a
    kernel result row.
    """

    rules: Callable[[str], Any]
    deal_row: Callable[[Any], Any]
    action: Callable[[Any, Any], int]
    returns: Callable[[Any], list[int]]
