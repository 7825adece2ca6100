"""Puzzles (残局题): positions from one seat's view where one action beats every other, proven
by paired play-outs — found in whole hands, verified, and kept with their explanation.

A decision of a hand is a **candidate** when the game's advice (the ``advise`` part the
review reads: every legal action valued on the same deals of the hidden cards, consistent
with what the seat has seen) ranks one action first by at least the game's margin
(``advise.PUZZLE_MARGIN``, in the game's unit) over the second, with
every gap's 95% CI, made simultaneous over the actions (Bonferroni, as the review's labels
are), above 0. It is **kept** only if it passes each check of :func:`verify`:

- ``budget``: the same answer, the same margin and CIs, at 4× the play-outs on a fresh seed;
- ``search``: the same answer, ahead of every other action (the lead's 95% CI above 0),
  when every seat plays on with the game's strongest search player
  (``advise.PUZZLE_SEARCH``: the advice's options for it, at the smaller budget a search
  affords);
- ``solver``: where the position is within the open-hand solver's reach on every one of
  :data:`SOLVER_DEALS` deals sampled from the seat's view (the game's ``solver`` part),
  the answer has the best mean of the actions' open-hand values.

A kept puzzle checked again later (:func:`verify` without ``mining``) must not be
contradicted: the same answer, every gap's simultaneous CI above 0, a margin whose CI
reaches the game's, and a lead under the search player.

The rest of a puzzle is data: the position (the record up to the decision, every hand in it:
only the seat's view is ever shown before an answer), the answer and its group of equal
actions, every action's value with its CI and n, the theme (the kind of decision, as the
review names it), the difficulty (the number of distinct actions, and the margin), and where
it came from. Every figure is seeded.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .records import RecordError
from .registry import Game
from .review import decision_seeds, simultaneous_low

SET_FORMAT = "xianniu-puzzles"  # a puzzle set's first line names it and its command


@dataclass
class Puzzle:
    """One puzzle (module docstring); ``checks`` holds :func:`verify`'s verdicts."""

    game: str
    rules: str
    seat: int
    position: dict[str, Any]  # the record up to the decision (every hand: never shown whole)
    answer: dict[str, Any]  # the record entry of the best action
    group: list[dict[str, Any]]  # the actions as good as it (the same cards, another order …)
    actions: list[dict[str, Any]]  # every action: action, ev, ci95, n, diff (best − it)
    theme: str
    margin: float  # best − second, in the game's unit
    unit: str
    source: str
    seed: int
    player_move: dict[str, Any] | None = None  # what the hand's player did there
    checks: dict[str, Any] = field(default_factory=dict)

    @property
    def player_right(self) -> bool | None:
        """Whether the hand's player found the answer (None: not known)."""
        return None if self.player_move is None else _same(self.player_move, self)

    @property
    def verified(self) -> bool:
        return bool(self.checks) and all(c.get("passed") for c in self.checks.values())

    @property
    def difficulty(self) -> dict[str, Any]:
        """How hard: the distinct actions to choose from, how far ahead the answer is, and
        whether the player of the hand it came from (the default player, in self-play)
        missed it."""
        return {"actions": len(self.actions), "margin": self.margin,
                "player_missed": None if self.player_right is None else not self.player_right}

    @property
    def key(self) -> str:
        """The position's hash: a puzzle is found once however often its hand is mined."""
        text = json.dumps({"position": self.position, "seat": self.seat}, sort_keys=True,
                          ensure_ascii=False)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "rules": self.rules, "seat": self.seat,
                "position": self.position, "answer": self.answer, "group": self.group,
                "actions": self.actions, "theme": self.theme, "margin": self.margin,
                "unit": self.unit, "difficulty": self.difficulty, "source": self.source,
                "seed": self.seed, "player_move": self.player_move, "checks": self.checks,
                "key": self.key}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Puzzle:
        return cls(**{k: data[k] for k in ("game", "rules", "seat", "position", "answer",
                                           "group", "actions", "theme", "margin", "unit",
                                           "source", "seed", "player_move", "checks")})


def one_answer(ranked: list[dict[str, Any]], margin: float) -> str | None:
    """None when the advice's ``ranked`` actions (best first) make a puzzle, else why not:
    ``actions`` (fewer than two), ``margin`` (the second is closer than ``margin``) or
    ``ci`` (a gap's simultaneous CI reaches 0)."""
    if len(ranked) < 2:
        return "actions"
    if ranked[1]["diff"]["value"] < margin:
        return "margin"
    k = len(ranked)
    if any(simultaneous_low(r["diff"], k) <= 0 for r in ranked[1:]):
        return "ci"
    return None


def solves(entry: dict[str, Any], puzzle: dict[str, Any]) -> bool:
    """Whether the record entry ``entry`` is the answer of ``puzzle`` (as JSON) or one of
    the actions as good as it."""
    return entry == puzzle["answer"] or entry in puzzle["group"]


def _same(a: dict[str, Any], puzzle: Puzzle) -> bool:
    return solves(a, {"answer": puzzle.answer, "group": puzzle.group})


def decisions(game: Game, record: dict[str, Any]) -> Iterator[tuple[int, int, dict, Any]]:
    """Each decision of the whole hand ``record`` with a choice: (index, seat, the record up
    to it, the engine state there)."""
    recs = game.part("records")
    state = recs.start_of(record)
    for i, (seat, action) in enumerate(recs.replay(record).history):
        try:
            several = len(state.legal_actions()) > 1
        except ValueError:  # a phase too rich to list (NotListed): there is a choice
            several = True
        if several:
            yield i, seat, recs.record_of(state), state
        state.apply(action)


def candidates(game: Game, record: dict[str, Any], seed: int, source: str,
               budget: dict[str, Any] | None = None,
               rejected: Callable[[str], None] | None = None,
               seats: Iterable[int] | None = None) -> Iterator[Puzzle]:
    """The candidates among the decisions of ``record`` (of ``seats`` only, when given;
    decision ``i`` advised with the seed of ``SeedSequence(seed)``'s child ``i``);
    ``rejected(why)`` for each other decision."""
    adv, recs = game.part("advise"), game.part("records")
    options = dict(adv.PUZZLE_BUDGET if budget is None else budget)
    history = recs.replay(record).history
    seeds = decision_seeds(seed, len(history))
    chosen = None if seats is None else set(seats)
    for i, seat, position, state in decisions(game, record):
        if chosen is not None and seat not in chosen:
            continue
        ranked = adv.advise_record(position, seed=seeds[i], **options).to_json()["actions"]
        why = one_answer(ranked, adv.PUZZLE_MARGIN)
        if why is not None:
            if rejected:
                rejected(why)
            continue
        best = ranked[0]
        _, action = recs.action_from_json(best["action"], i)
        taken = recs.action_to_json(*history[i])
        yield Puzzle(game=game.name, rules=str(position["rules"]), seat=seat,
                     position=position, answer=best["action"],
                     group=list(best.get("group") or [best["action"]]), actions=ranked,
                     theme=adv.decision_kind(state, action),
                     margin=float(ranked[1]["diff"]["value"]), unit=adv.UNIT,
                     source=f"{source}, decision {i}", seed=seeds[i], player_move=taken)


def _check(game: Game, puzzle: Puzzle, seed: int, options: dict[str, Any], strict: bool,
           mining: bool) -> dict[str, Any]:
    """The advice again with ``options``: the same answer, and (``strict``) the margin and
    every gap's simultaneous CI above 0, else only a lead over every other action. A check
    made while mining asks for the margin itself (``strict``) or a lead whose 95% CI is
    above 0; made again later, for data that do not contradict it: a margin whose CI
    reaches the game's, a lead above 0 (so that a puzzle kept is one that a fresh look
    confirms, not one a fresh look may by chance just miss)."""
    adv = game.part("advise")
    ranked = adv.advise_record(puzzle.position, seed=seed, **options).to_json()["actions"]
    if len(ranked) < 2:
        why: str | None = "actions"
    elif strict:
        why = one_answer(ranked, adv.PUZZLE_MARGIN if mining else -math.inf)
        gap = ranked[1]["diff"]
        if why is None and not mining and gap["high"] < adv.PUZZLE_MARGIN:
            why = "margin"
    else:
        gap = ranked[1]["diff"]
        why = "margin" if (gap["low"] if mining else gap["value"]) <= 0 else None
    if why is None and not _same(ranked[0]["action"], puzzle):
        why = "answer"
    return {"passed": why is None, "why": why, "seed": seed, "options": options,
            "best": ranked[0]["action"],
            "margin": float(ranked[1]["diff"]["value"]) if len(ranked) > 1 else None}


SOLVER_DEALS = 16  # deals of the unseen cards the open-hand check solves


def hidden_from(game: Game, position: dict[str, Any], seat: int) -> dict[str, Any]:
    """The record ``position`` with what ``seat`` could not see written unknown (``"?"``):
    the other hands and the game's other hidden deal fields (``luck.HIDDEN``) that the seat
    has not seen by then (``luck.seen_hidden``: cards it picked up stay known)."""
    luck = game.part("luck")
    hidden = set(luck.HIDDEN) - luck.seen_hidden(position, seat)
    out = {k: ("?" if k in hidden else v) for k, v in position.items()
           if k not in ("result", "known")}
    out["hands"] = [h if i == seat else "?" for i, h in enumerate(position["hands"])]
    return out


def open_hand_values(game: Game, puzzle: Puzzle, seed: int,
                     deals: int = SOLVER_DEALS) -> np.ndarray | None:
    """Each action's value for the seat (float[deals, actions]) with every hand open, by the
    game's solver, on ``deals`` deals of the unseen cards consistent with the seat's view
    (drawn from ``seed``); None when the position is beyond the solver on any of them."""
    solver, recs = game.part("solver"), game.part("records")
    bare = hidden_from(game, puzzle.position, puzzle.seat)
    index = len(puzzle.position.get("actions", []))
    out = np.empty((deals, len(puzzle.actions)))
    actions = [recs.action_from_json(a["action"], index)[1] for a in puzzle.actions]
    for i, s in enumerate(decision_seeds(seed, deals)):
        try:
            completed = recs.complete(bare, s, going_on=True)
        except RecordError:  # a record the game cannot deal anew from a view
            return None
        there = recs.replay(completed)
        if not solver.reaches(there):  # e.g. a decision whose outcome is a new deal
            return None
        for j, action in enumerate(actions):
            state = there.clone()
            state.apply(action)
            try:
                v = state.returns() if state.is_terminal() else solver.open_values(state)
            except solver.SearchLimit:
                return None
            out[i, j] = v[puzzle.seat]
    return out


def _solver_check(game: Game, puzzle: Puzzle, seed: int) -> dict[str, Any] | None:
    """The answer's open-hand value, averaged over the sampled deals, is the best of the
    actions'; None (no check) when the position is beyond the solver."""
    values = open_hand_values(game, puzzle, seed)
    if values is None:
        return None
    means = values.mean(axis=0)
    passed = bool(means[0] >= means.max() - 1e-9)
    return {"passed": passed, "why": None if passed else "answer", "seed": seed,
            "deals": len(values), "values": [float(m) for m in means]}


def verify(game: Game, puzzle: Puzzle, seed: int,
           budget: dict[str, Any] | None = None, mining: bool = False) -> Puzzle:
    """``puzzle`` with its checks (module docstring) made on seeds drawn from ``seed``;
    ``budget``: the advice's options it was mined with (the game's own by default);
    ``mining``: the checks that keep a new puzzle, stricter than a later look's."""
    adv = game.part("advise")
    budget = dict(adv.PUZZLE_BUDGET if budget is None else budget)
    budget_seed, search_seed, solver_seed = decision_seeds(seed, 3)
    more = {k: v * 4 if k == "samples" else v for k, v in budget.items()}
    puzzle.checks = {"budget": _check(game, puzzle, budget_seed, more, True, mining)}
    if puzzle.checks["budget"]["passed"]:  # the search is the costly check: only then
        puzzle.checks["search"] = _check(game, puzzle, search_seed,
                                         {**budget, **adv.PUZZLE_SEARCH}, False, mining)
    if puzzle.verified:  # within the open-hand solver's reach: its values agree
        solved = _solver_check(game, puzzle, solver_seed)
        if solved is not None:
            puzzle.checks["solver"] = solved
    return puzzle


@dataclass
class MineReport:
    """What mining did: hands and decisions looked at, candidates, puzzles kept, and where
    the rest failed (margin, ci, actions; budget, search, solver)."""

    hands: int = 0
    decisions: int = 0
    candidates: int = 0
    kept: int = 0
    rejects: dict[str, int] = field(default_factory=dict)

    def count(self, why: str) -> None:
        self.rejects[why] = self.rejects.get(why, 0) + 1

    def add(self, other: MineReport) -> None:
        """Count ``other``'s hands here too."""
        self.hands += other.hands
        self.decisions += other.decisions
        self.candidates += other.candidates
        self.kept += other.kept
        for why, n in other.rejects.items():
            self.rejects[why] = self.rejects.get(why, 0) + n

    def as_dict(self) -> dict[str, Any]:
        return {"hands": self.hands, "decisions": self.decisions,
                "candidates": self.candidates, "kept": self.kept, "rejects": self.rejects}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MineReport:
        return cls(**{**data, "rejects": dict(data["rejects"])})


def mine_hand(game: Game, record: dict[str, Any], hand_seed: int, source: str,
              budget: dict[str, Any] | None = None, seat: int | None = None,
              missed_only: bool = False) -> tuple[list[Puzzle], MineReport]:
    """One hand's verified puzzles (of ``seat`` only, when given) and its report, every
    advice and check seeded from ``hand_seed`` (:func:`mine`)."""
    report = MineReport(hands=1)
    out = []
    mine_seed, check_seed = decision_seeds(hand_seed, 2)

    def rejected(why: str) -> None:
        report.decisions += 1
        report.count(why)
    only = None if seat is None else [seat]
    for puzzle in candidates(game, record, mine_seed, source, budget, rejected=rejected,
                             seats=only):
        if missed_only and puzzle.player_right:
            rejected("player right")
            continue
        report.decisions += 1
        report.candidates += 1
        index = len(puzzle.position.get("actions", []))
        verify(game, puzzle, decision_seeds(check_seed, index + 1)[index], budget,
               mining=True)
        if puzzle.verified:
            report.kept += 1
            out.append(puzzle)
        else:
            for name, c in puzzle.checks.items():
                if not c["passed"]:
                    report.count(name)
                    break
    return out, report


Mined = tuple[list[Puzzle], MineReport]  # one hand's puzzles and report


def mine(game: Game, records: Iterable[dict[str, Any]], seed: int, source: str = "self-play",
         progress: Callable[[int], None] | None = None,
         found: Callable[[int, Mined], Any] | None = None,
         budget: dict[str, Any] | None = None, seats: list[int | None] | None = None,
         missed_only: bool = False, done: dict[int, Mined] | None = None,
         backend: str = "local", scheduler: str | None = None
         ) -> tuple[list[Puzzle], MineReport]:
    """Mine the hands ``records`` (hand ``h`` seeded by ``SeedSequence(seed)``'s child
    ``h``, :func:`mine_hand`): the verified puzzles in hand order, and the report.

    ``found(h, mined)`` as each hand is done (in the order they end: to keep what is done),
    then ``progress(1)``; ``done``: hands already mined (a resumed run), not mined again;
    ``budget``: the advice's options (the game's ``PUZZLE_BUDGET`` by default);
    ``seats[h]``: the one seat of hand ``h`` mined (None: every seat); ``missed_only``: keep
    only the puzzles the hand's player got wrong (its own mistakes, surely costly: the
    answer is proven ahead of what it did); ``backend``, ``scheduler``: the hands here, one
    after another, or as Dask tasks (the same puzzles either way)."""
    from .runner import map_tasks

    records = list(records)
    hand_seeds = decision_seeds(seed, len(records))
    mined: dict[int, Mined] = dict(done or {})
    todo = [h for h in range(len(records)) if h not in mined]
    tasks = [functools.partial(mine_hand, game, records[h], hand_seeds[h],
                               f"{source} hand {h}", budget,
                               None if seats is None else seats[h], missed_only)
             for h in todo]

    def keep(i: int, result: Mined) -> None:
        mined[todo[i]] = result
        if found:
            found(todo[i], result)

    if progress and mined:
        progress(len(mined))
    map_tasks(tasks, backend, scheduler, progress=progress, finished=keep)
    report = MineReport()
    out = []
    for h in range(len(records)):
        out.extend(mined[h][0])
        report.add(mined[h][1])
    return out, report


def read_set(text: str, source: str = "the set") -> tuple[dict[str, Any], list[Puzzle]]:
    """A puzzle set (``xianniu puzzles mine --out``): its head line, and its puzzles;
    ValueError naming ``source`` and the line when it is not one."""
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        raise ValueError(f"{source} is an empty puzzle set")
    rows = []
    for n, line in enumerate(lines, 1):
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError as e:
            raise ValueError(f"{source} line {n}: not JSON ({e.msg})") from None
    head = rows[0]
    if not isinstance(head, dict) or head.get("format") != SET_FORMAT:
        raise ValueError(f"{source} is not a puzzle set: its first line does not say "
                         f"{SET_FORMAT!r}")
    try:
        return head, [Puzzle.from_json(row) for row in rows[1:]]
    except (KeyError, TypeError) as e:
        raise ValueError(f"{source}: a puzzle lacks {e}") from None


def _shipped_path(game: Game) -> Any:
    from importlib.resources import files

    return files(game.package) / "puzzles.jsonl"


def shipped(game: Game) -> tuple[dict[str, Any], list[Puzzle]] | None:
    """The puzzle set shipped with ``game`` (its package's ``puzzles.jsonl``), or None."""
    path = _shipped_path(game)
    if not path.is_file():
        return None
    return read_set(path.read_text(encoding="utf-8"))


def shipped_count(game: Game) -> int:
    """How many puzzles ``game``'s shipped set holds, as its head line says (0: none)."""
    path = _shipped_path(game)
    if not path.is_file():
        return 0
    with path.open(encoding="utf-8") as f:
        return int(json.loads(f.readline()).get("puzzles", 0))


def stock(lib: Any, game: Game) -> int:
    """Put ``game``'s shipped set into the library ``lib`` if it holds none of the game's
    puzzles yet (the first puzzle asked for); how many were added."""
    if lib.count_puzzles(game.name):
        return 0
    ship = shipped(game)
    return sum(lib.add_puzzle(p.to_json(), "shipped").new for p in (ship[1] if ship else []))


def seen(game: Game, puzzle: dict[str, Any]) -> dict[str, Any]:
    """The position as the puzzle's seat saw it, in the text notation's tokens: its own
    hand, every action so far (another seat's face-down one written ``?``), and the
    choices, in the notation's order (not the answer's)."""
    recs = game.part("records")
    seat = int(puzzle["seat"])
    state = recs.start_of(puzzle["position"])
    moves = []
    for s, action in recs.replay(puzzle["position"]).history:
        entry = recs.action_to_json(s, action)
        hidden = s != seat and entry["action"] in recs.FACE_DOWN
        moves.append((s, "?" if hidden else recs.action_token(state, s, action)))
        state.apply(action)
    index = len(moves)
    choices = sorted(recs.action_token(state, seat, recs.action_from_json(a["action"], index)[1])
                     for a in puzzle["actions"])
    return {"seat": seat, "hand": puzzle["position"]["hands"][seat], "moves": moves,
            "choices": choices}


def judge(game: Game, puzzle: dict[str, Any], token: str) -> tuple[dict[str, Any], bool]:
    """The record entry of the answer ``token`` (the text notation's) and whether it solves
    ``puzzle``; ValueError if it names no choice of the position."""
    recs = game.part("records")
    state = recs.replay(puzzle["position"])
    entry = recs.action_to_json(int(puzzle["seat"]), recs.token_action(state, token))
    if all(entry != a["action"] and entry not in a.get("group", []) for a in puzzle["actions"]):
        raise ValueError(f"{token!r} is not one of the position's choices "
                         f"({', '.join(seen(game, puzzle)['choices'])})")
    return entry, solves(entry, puzzle)
