"""What the library's modules share (:mod:`.library`, :mod:`.library_puzzles`): its error,
the time as it stores it, and what storing one item did."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass


class LibraryError(ValueError):
    """A library file that cannot be used (another kind of file, a newer schema), or a hand
    that is not in it."""


def now_utc() -> str:
    """The time now, ISO 8601 UTC to the second."""
    return dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass
class Stored:
    """What storing one hand did: its id, and whether it was new."""

    id: int
    new: bool
