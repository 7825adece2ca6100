"""Sessions: each game in its own slot under a random, unguessable id, dropped when idle.

A session that reports itself finished is kept a shorter while (long enough to save its
record and read its review). Expired sessions are swept on every access, so memory stays
bounded without a timer thread; ``max_sessions`` caps what a flood of new games can hold.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

IDLE_TTL = 30 * 60.0  # seconds a session is kept after its last request
FINISHED_TTL = 10 * 60.0  # ... once its game is over
MAX_SESSIONS = 200


class SessionError(LookupError):
    """No live session under this id (unknown, or expired)."""


@dataclass
class Slot:
    """One session: its object, a lock that serialises its requests, the last access, and
    where its hand went in the library."""

    obj: Any
    touched: float
    lock: threading.Lock = field(default_factory=threading.Lock)
    stored_at: int | None = None  # the session's version when its last hand was stored
    keeps: bool = True  # its hands go to the library (a puzzle's position does not)


def _finished(obj: Any) -> bool:
    return bool(getattr(obj, "finished", False))


class SessionStore:
    """Sessions by id. ``clock`` is injectable so that tests can move time on."""

    def __init__(self, idle_ttl: float = IDLE_TTL, finished_ttl: float = FINISHED_TTL,
                 max_sessions: int = MAX_SESSIONS, clock: Callable[[], float] = time.monotonic):
        if idle_ttl <= 0 or finished_ttl <= 0 or max_sessions < 1:
            raise ValueError("session lifetimes and the session cap must be positive")
        self.idle_ttl, self.finished_ttl, self.max_sessions = idle_ttl, finished_ttl, max_sessions
        self.clock = clock
        self._slots: dict[str, Slot] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        with self._lock:
            self._sweep()
            return len(self._slots)

    def _expired(self, slot: Slot, now: float) -> bool:
        ttl = self.finished_ttl if _finished(slot.obj) else self.idle_ttl
        return now - slot.touched > ttl

    def _sweep(self) -> None:
        now = self.clock()
        for sid in [s for s, slot in self._slots.items() if self._expired(slot, now)]:
            del self._slots[sid]

    def add(self, obj: Any) -> str:
        """Keep ``obj`` under a new id (128 random bits); the id."""
        with self._lock:
            self._sweep()
            if len(self._slots) >= self.max_sessions:
                # drop the longest idle one rather than refuse a new game
                oldest = min(self._slots, key=lambda s: self._slots[s].touched)
                del self._slots[oldest]
            sid = secrets.token_urlsafe(16)
            self._slots[sid] = Slot(obj, self.clock())
            return sid

    def slot(self, sid: Any) -> Slot:
        """The live slot under ``sid`` (its access time renewed); SessionError if none."""
        with self._lock:
            self._sweep()
            slot = self._slots.get(sid) if isinstance(sid, str) else None
            if slot is None:
                raise SessionError("no such game: it has expired or never existed (start a "
                                   "new one)")
            slot.touched = self.clock()
            return slot

    def drop(self, sid: str) -> None:
        """Forget ``sid`` (no error if it is already gone)."""
        with self._lock:
            self._slots.pop(sid, None)
