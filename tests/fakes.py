"""Stand-ins the tests share."""

from __future__ import annotations


class FakeClock:
    """A clock the test moves by hand (``clock.now``), called as ``time.perf_counter`` is."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now
