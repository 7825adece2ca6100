"""Practising puzzles: each attempt judged, both ratings moved (Glicko-2: :mod:`.glicko`),
and a puzzle missed brought back later, less often each time it is then solved (spaced
repetition, Leitner's boxes).

A puzzle missed goes to box 0 and is due again after :data:`INTERVALS` [0] (ten minutes); a
due puzzle solved moves up a box and waits that box's interval (a day, three, a week, three
weeks); after the last box it is done. :func:`pick` offers first the puzzle due longest ago,
else the new puzzle whose rating is nearest the player's.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

INTERVALS = (dt.timedelta(minutes=10), dt.timedelta(days=1), dt.timedelta(days=3),
             dt.timedelta(days=7), dt.timedelta(days=21))


@dataclass(frozen=True)
class Slot:
    """Where a puzzle stands in the repetition: its box, and when it is due (None: done)."""

    box: int
    due: dt.datetime | None


def after(slot: Slot | None, solved: bool, now: dt.datetime) -> Slot | None:
    """The puzzle's slot after an attempt at ``now``: None for a new puzzle solved at the
    first try (it never comes back), box 0 after a miss, the next box after a repeat solved
    (done after the last)."""
    if not solved:
        return Slot(0, now + INTERVALS[0])
    if slot is None:
        return None
    box = slot.box + 1
    return Slot(box, now + INTERVALS[box]) if box < len(INTERVALS) else Slot(box, None)


def pick(due: list[tuple[int, dt.datetime]], new: list[tuple[int, float]],
         player: float, now: dt.datetime) -> int | None:
    """The puzzle to offer: the one due longest ago among ``due`` (id, due) if any is due
    by ``now``, else the one of ``new`` (id, rating) nearest the ``player``'s rating (the
    lower id on a tie), else None."""
    ready = [(when, pid) for pid, when in due if when <= now]
    if ready:
        return min(ready)[1]
    if new:
        return min(new, key=lambda x: (abs(x[1] - player), x[0]))[0]
    return None
