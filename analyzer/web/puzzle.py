"""A puzzle (残局题) at the table: its position drawn as the table draws a hand, from the
puzzle's seat; the answer judged and kept in the library (the attempt, both Glicko ratings,
the repetition: :meth:`analyzer.core.library.Library.attempt`), then explained.

The explanation is every action's value with its 95% CI and n (the puzzle's own proof), and
one deal sampled from what the seat could see on which the most tempting wrong action (the
one the default player took there, else the second best) ends worse than the answer, with
each line of play that follows, bots of the table's player in every seat. Nothing hidden
from the seat reaches the page before its answer: the view is the table's view from that
seat, and the explanation is built only once the answer is in.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ..core.library import Library, LibraryError
from ..core.puzzles import hidden_from, solves
from ..core.review import decision_seeds
from .game import Conflict, Task

EXPLAIN_TRIES = 12  # sampled deals looked at for one where the tempting action loses


class PuzzleSession:
    """One puzzle at the table (:class:`analyzer.web.game.GameSession`): ``finished`` once
    it is answered."""

    def __init__(self, game: Any, web: Any, library: Path, puzzle_id: int,
                 puzzle: dict[str, Any]):
        self.game, self.web, self.library = game, web, library
        self.id, self.puzzle = puzzle_id, puzzle
        self.seat = int(puzzle["seat"])
        self.table = web.position_table(puzzle["position"], self.seat, int(puzzle["seed"]))
        self.index = len(self.table.state.history)
        self.pages = [self._page(a["action"]) for a in puzzle["actions"]]
        self.verdict: dict[str, Any] | None = None
        with Library(library) as lib:
            self.rating = lib.rating(0)

    def _page(self, entry: dict[str, Any]) -> dict[str, Any]:
        """A record entry of the puzzle's decision as the table's page shows an action."""
        _, action = self.game.part("records").action_from_json(entry, self.index)
        return self.table.action_page(action)

    # -- the session API ---------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.verdict is not None

    @property
    def version(self) -> int:
        return self.table.version

    def view(self) -> dict[str, Any]:
        out = self.table.view()
        out["advice"] = None
        if self.verdict is not None:
            out["legal"] = []
        out["puzzle"] = {"id": self.id, "theme": self.puzzle["theme"],
                         "unit": self.puzzle["unit"], "seat": self.seat,
                         "actions": len(self.puzzle["actions"]),
                         "rating": round(self.rating.rating), "verdict": self.verdict}
        return out

    def act(self, data: Any) -> None:
        if self.verdict is not None:
            raise Conflict("this puzzle is answered: open the next one")
        self.table.act(data)  # the engine checks it; nothing moves after it
        seat, action = self.table.state.history[self.index]
        entry = self.game.part("records").action_to_json(seat, action)
        solved = solves(entry, self.puzzle)
        with Library(self.library) as lib:
            player, rated = lib.attempt(self.id, entry, solved)
            due = lib.due(self.id)
        self.rating = player
        self.verdict = {
            "solved": solved, "taken": self.table.moves[-1],
            "answer": self.pages[0], "rating": round(player.rating),
            "puzzle_rating": round(rated.rating), "due": due,
            "actions": [{"action": page, "ev": a["ev"], "ci95": a["ci95"], "n": a["n"],
                         "diff": a["diff"]}
                        for page, a in zip(self.pages, self.puzzle["actions"])],
            "explanation": explain(self.game, self.web, self.puzzle, self.pages)}

    def record(self) -> dict[str, Any]:
        raise Conflict("a puzzle is a position, not a hand to save")

    def advice_task(self) -> Task:
        raise Conflict("a puzzle gets no advice: its answer and values come with the verdict")

    def review_task(self) -> Task:
        raise Conflict("a puzzle has no review: its answer and values come with the verdict")


def tempting(puzzle: dict[str, Any]) -> int:
    """The index among the puzzle's actions of the most tempting wrong one: the default
    player's move there when it missed the answer, else the second best."""
    move = puzzle.get("player_move")
    for i, a in enumerate(puzzle["actions"][1:], 1):
        if move is not None and a["action"] == move and not solves(move, puzzle):
            return i
    return 1


def explain(game: Any, web: Any, puzzle: dict[str, Any],
            pages: list[dict[str, Any]]) -> dict[str, Any] | None:
    """One deal (of :data:`EXPLAIN_TRIES` sampled from the seat's view, seeded by the
    puzzle's seed) on which the tempting action ends worse for the seat than the answer:
    every hand at the position, and each line played on to the end. None if none is found
    (the answer wins on average, not on every deal)."""
    recs = game.part("records")
    seat, wrong = int(puzzle["seat"]), tempting(puzzle)
    bare = hidden_from(game, puzzle["position"], seat)
    index = len(puzzle["position"].get("actions", []))
    for seed in decision_seeds(int(puzzle["seed"]), EXPLAIN_TRIES):
        try:
            deal = recs.complete(bare, seed, going_on=True)
        except ValueError:
            continue
        lines = []
        for choice in (0, wrong):
            table = web.position_table(deal, None, seed)
            hands = table.hands_json()
            _, action = recs.action_from_json(puzzle["actions"][choice]["action"], index)
            table.play_out(action)
            lines.append({"action": pages[choice], "moves": table.moves[index:],
                          "result": float(np.asarray(table.state.returns())[seat])})
        if lines[1]["result"] < lines[0]["result"]:
            return {"hands": hands, "seat": seat, "lines": lines, "unit": puzzle["unit"]}
    return None


def open_puzzle(library: Path, name: str, web: Any, puzzle_id: int | None) -> PuzzleSession:
    """Puzzle ``puzzle_id`` of the game ``name`` (``web``: its table), or (None) the one to
    practise now — the game's shipped set is put into a library that holds none of its
    puzzles; LibraryError (404) when there is no such puzzle or none is left to practise."""
    from ..core.puzzles import stock
    from ..games import get_game

    game = get_game(name)
    with Library(library) as lib:
        if puzzle_id is None:
            stock(lib, game)
            puzzle_id = lib.next_puzzle(game.name)
            if puzzle_id is None and not lib.count_puzzles(game.name):
                raise LibraryError(f"the library holds no {game.name} puzzle: mine some with "
                                   f"xianniu puzzles mine --game {game.name}")
            if puzzle_id is None:
                raise LibraryError(f"no {game.name} puzzle is due: every one is solved or "
                                   f"waits for its next repetition")
        puzzle = lib.puzzle(puzzle_id)
    if puzzle["game"] != game.name:
        raise LibraryError(f"puzzle {puzzle_id} is a {puzzle['game']} puzzle, not "
                           f"{game.name}'s")
    return PuzzleSession(game, web, library, puzzle_id, puzzle)
