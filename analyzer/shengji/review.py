"""``xianniu shengji review``: the core review (:mod:`analyzer.core.review`) of a 双升 record.

Each decision of the reviewed seats is advised by :mod:`.advise`, with the action the
record took added to what is valued (a bury or a capped listing of plays need not hold it
otherwise). A decision the advice does not value yet (造反 under rebel_scope=side) is
counted with the forced ones.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from ..core import review as core_review
from ..core.records import RecordError
from . import advise as adv
from . import engine, records
from .actions import PLAY_PHASE


class _Advisor:
    """The advice the core review reads, for one record: its own action is always valued."""

    THRESHOLDS = adv.THRESHOLDS
    UNIT = adv.UNIT

    def __init__(self, record: dict[str, Any]):
        self.actions = list(record.get("actions", []))

    @staticmethod
    def decision_kind(state: Any, action: Any) -> str:
        return adv.decision_kind(state, action)

    def advise(self, record: dict[str, Any], **options: Any) -> Any:
        k = len(record.get("actions", []))
        taken = [self.actions[k]] if k < len(self.actions) else []
        state = adv._state_of(record)
        kind = state.phase
        try:
            return adv.advise(state, candidates=taken if kind in ("bury", PLAY_PHASE) else (),
                              **options)
        except adv.NotValued:
            return adv.taken_only(state, taken[0] if taken else None)


class _Shengji:
    """The game as the core review reads it, its advice bound to one record."""

    name = records.GAME

    def __init__(self, record: dict[str, Any]):
        from ..games import get_game

        self.game = get_game(records.GAME)
        self.advisor = _Advisor(record)

    @property
    def facts(self) -> Any:
        return engine.FACTS

    def part(self, name: str) -> ModuleType | Any:
        return self.advisor if name == "advise" else self.game.part(name)


def review(record: Any, seats=None, *, seed: int | None = None, progress=None,
           **advice: Any) -> core_review.Review:
    """Review a 双升 record (``seats``: None for every seat); ``advice`` goes to
    :func:`.advise.advise` (precision, samples, policy, opponents). ValueError on a bad
    record or seat."""
    if not isinstance(record, dict):
        raise RecordError("a record is a JSON object")
    return core_review.review(_Shengji(record), record, seats, seed=seed,  # type: ignore[arg-type]
                              progress=progress, **advice)


def text_lines(rv: core_review.Review) -> list[str]:
    """The review as the core's table."""
    return core_review.text_lines(rv)
