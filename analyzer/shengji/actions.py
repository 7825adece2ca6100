"""Actions, phases, tricks and hand results of 双升: the vocabulary the engine, its phase
modules and the records share."""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import as_cards, format_cards
from .scoring import Settlement

REBEL, PASS, DECLARE, BURY, PLAY = "rebel", "pass", "declare", "bury", "play"
ACTION_KINDS = (REBEL, PASS, DECLARE, BURY, PLAY)
# Phases (``State.phase``).
REBEL_PHASE, DECLARE_PHASE, BURY_PHASE, BAJIWO_PHASE, PLAY_PHASE, DONE = (
    "rebel", "declare", "bury", "bajiwo", "play", "done")
N_SEATS, HAND_SIZE, KITTY_SIZE = 4, 25, 8


@dataclass(frozen=True)
class Action:
    """One decision: ``kind`` from ACTION_KINDS and the cards it shows, buries or plays.

    ``rebel`` and ``pass`` take no cards; ``declare`` shows the declaration's cards (an
    overcall or a 加固 shows the whole new declaration); ``bury`` the 8 cards put down; ``play``
    the cards led or followed (a throw that fails is stored as attempted). Card text is
    parsed: ``Action("play", "8h 8h")``.
    """

    kind: str
    cards: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", as_cards(self.cards))

    def __str__(self) -> str:
        return f"{self.kind} {format_cards(self.cards)}" if self.cards else self.kind


@dataclass
class Trick:
    """One trick: ``plays`` in play order from ``leader``; ``plays[0]`` is what was led (the
    forced unit when the throw ``attempt`` failed, else the attempt itself)."""

    leader: int
    plays: list[tuple[int, ...]] = field(default_factory=list)
    attempt: tuple[int, ...] = ()
    winner: int | None = None  # seat, once the trick is complete
    points: int = 0

    @property
    def failed(self) -> bool:
        return bool(self.plays) and self.attempt != self.plays[0]


@dataclass(frozen=True)
class HandResult:
    """The end of a hand: the settlement (§6) seen per team and per seat."""

    settlement: Settlement
    banker: int  # this hand's 庄家 (after §4.4)
    trick_points: int  # the attackers' points from tricks, before penalties and 抠底
    penalties: int  # failed-throw penalties added to the attackers' points
    winner_team: int  # 0 = seats 0 and 2, 1 = seats 1 and 3
    gain: int  # levels the winner team gains
    levels_before: tuple[int, int]
    levels_after: tuple[int, int]
    next_banker: int  # the seat that banks the next hand (§6.3)
    match_won: bool  # the winner team won the match (§6.4)

    @property
    def team_gains(self) -> tuple[int, int]:
        """Levels gained per team, by the table (the loser gains 0; A may cap the real
        change, see ``levels_after``)."""
        return (self.gain if self.winner_team == 0 else 0,
                self.gain if self.winner_team == 1 else 0)
