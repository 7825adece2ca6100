"""The bots' turns at a table, the same in every game: after the human's action the bots
move until the human is to act again (or the hand is over); a table set up at a puzzle's
position (``frozen``) waits for its answer and moves nothing by itself; a play-out plays
one action, then every seat's bot to the end."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class BotTurns:
    """What a game's table session has for it: the engine ``state``, ``bots`` by seat (each
    with ``choose(state)``), the human's ``seat`` (-1: none, a bot in every seat),
    ``frozen``, and ``_apply(seat, action)``, which plays and logs a move."""

    state: Any
    bots: dict[int, Any]
    seat: int
    frozen: bool
    _apply: Callable[[int, Any], None]

    def _run_bots(self, to_end: bool = False) -> None:
        if self.frozen and not to_end:  # a puzzle's position: nothing moves by itself
            return
        st = self.state
        while not st.is_terminal() and (to_end or st.current_player() != self.seat):
            seat = st.current_player()
            self._apply(seat, self.bots[seat].choose(st))
            st = self.state

    def play_out(self, action: Any) -> None:
        """``action`` for the seat to act, then the bots to the end (a line of a puzzle's
        explanation)."""
        self._apply(self.state.current_player(), action)
        self._run_bots(to_end=True)
