"""Checks that hold a game to the contract of :mod:`analyzer.core.game`, for any game.

- :func:`random_hand` plays one hand with random legal actions and checks every verb at
  every step (OpenSpiel's random-simulation test): the seat to act, the listed actions
  (sorted, distinct, each accepted; candidates outside the list refused with a reason),
  ``apply`` adding exactly one history entry, clones equal and independent, returns zero
  before the end and summing to the declared sum at it, the length within the declared
  bound, and ``view(seat)`` unchanged when what the seat cannot see is dealt anew.
- :func:`check_record` writes the hand's record, reads it back and replays it.
- :func:`playthrough` is the record text of a seeded random hand: a golden file per game
  and preset pins the engine's behaviour.

Each check raises ``AssertionError`` naming the step and what failed. Randomness comes
from ``SeedSequence(seed)``: one child stream plays the hand (so the hand depends on the
seed only), another drives the checks.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from . import records as core_records
from .game import TERMINAL, GameFacts, GameState, NotListed
from .registry import Game


@dataclass
class CrossCheck:
    """What a kernel-against-engine crosscheck found: hands replayed, and one line per
    hand whose kernel play the reference engine refused or scored otherwise."""

    hands: int = 0
    mismatches: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.hands > 0 and not self.mismatches


Seed = int | np.random.SeedSequence


def streams(seed: Seed, n: int = 2) -> list[random.Random]:
    """``n`` independent Python random streams spawned from ``seed`` (an int, or a
    SeedSequence such as a child of one)."""
    if isinstance(seed, np.random.SeedSequence):  # a fresh copy: the same streams each call
        root = np.random.SeedSequence(seed.entropy, spawn_key=seed.spawn_key)
    else:
        root = np.random.SeedSequence(seed)
    return [random.Random(int(c.generate_state(1, dtype=np.uint64)[0])) for c in root.spawn(n)]


def _fail(step: int, what: str) -> AssertionError:
    return AssertionError(f"step {step}: {what}")


def _check_listed(state: GameState, engine: Any, step: int) -> list[Any] | None:
    try:
        acts = state.legal_actions()
    except NotListed:
        return None
    if not acts:
        raise _fail(step, "no legal action although the hand is not over")
    keys = [engine.action_key(a) for a in acts]
    if keys != sorted(keys):
        raise _fail(step, f"legal actions not in the engine's order: {acts[:6]} …")
    if len(set(keys)) != len(keys):
        raise _fail(step, "a legal action is listed twice")
    for a in acts:
        if not state.can(a):
            raise _fail(step, f"listed action {a!r} is refused by can()")
    return acts


def _check_refusals(state: GameState, engine: Any, listed: list[Any] | None, rng: random.Random,
                    step: int) -> None:
    candidates = getattr(engine, "candidate_actions", None)
    if candidates is None or listed is None:
        return
    keys = {engine.action_key(a) for a in listed}
    for a in candidates(state, rng):
        if engine.action_key(a) in keys:
            continue
        if state.can(a):
            raise _fail(step, f"{a!r} is accepted but not listed")
        try:
            state.verify(a)
        except ValueError as e:
            if not str(e):
                raise _fail(step, f"{a!r} is refused without a reason") from None
        else:
            raise _fail(step, f"verify() accepts {a!r}, can() refuses it")


def _check_views(state: GameState, engine: Any, facts: GameFacts, rng: random.Random,
                 step: int, seats: list[int]) -> None:
    for seat in seats:
        view = state.view(seat)
        if getattr(view, "seat", seat) != seat:
            raise _fail(step, f"view({seat}) is the view of seat {view.seat}")
        if view != state.view(seat):
            raise _fail(step, f"view({seat}) changes when asked twice")
        other = engine.redeal_hidden(state, seat, rng)
        if other.view(seat) != view:
            raise _fail(step, f"view({seat}) changes when the cards seat {seat} cannot see "
                              f"are dealt anew: it shows hidden cards")


def _check_end(state: GameState, facts: GameFacts, step: int) -> None:
    if state.current_player() != TERMINAL:
        raise _fail(step, f"current_player() is {state.current_player()!r} after the end, "
                          f"not {TERMINAL}")
    if state.legal_actions() != []:
        raise _fail(step, "legal actions listed after the end")
    rets = tuple(state.returns())
    if len(rets) != facts.n_seats or not all(isinstance(r, int) for r in rets):
        raise _fail(step, f"returns() {rets!r} are not {facts.n_seats} integers")
    if facts.utility_sum is not None and sum(rets) != facts.utility_sum:
        raise _fail(step, f"returns {rets} sum to {sum(rets)}, not {facts.utility_sum}")


def random_hand(game: Game, preset: str, seed: Seed,
                on_step: Callable[[GameState], None] | None = None,
                view_every: int = 1) -> GameState:
    """Play one hand of ``game`` under ``preset`` with random legal actions, checking the
    contract at every step (views every ``view_every`` steps, one seat in turn; every
    seat at the end); ``on_step`` adds the game's own invariants. The finished state."""
    engine, facts = game.part("engine"), game.facts
    play, check = streams(seed)
    state = engine.random_start(preset, play)
    step = 0
    while not state.is_terminal():
        seat = state.current_player()
        if not isinstance(seat, int) or not 0 <= seat < facts.n_seats:
            raise _fail(step, f"current_player() is {seat!r}, not a seat")
        if any(state.returns()):
            raise _fail(step, f"returns() {state.returns()} before the end")
        listed = _check_listed(state, engine, step)
        _check_refusals(state, engine, listed, check, step)
        if view_every and step % view_every == 0:
            _check_views(state, engine, facts, check, step, [step // view_every
                                                             % facts.n_seats])
        action = play.choice(listed) if listed is not None else \
            engine.random_action(state, play)
        if not state.can(action):
            raise _fail(step, f"the drawn action {action!r} is refused")
        twin, before = state.clone(), len(state.history)
        state.apply(action)
        if len(state.history) != before + 1 or state.history[-1] != (seat, action):
            raise _fail(step, "apply() did not add exactly (seat, action) to the history")
        if len(twin.history) != before:
            raise _fail(step, "a clone changed with the original")
        twin.apply(action)
        if twin.history != state.history or twin.is_terminal() != state.is_terminal() or \
                any(twin.view(s) != state.view(s) for s in range(facts.n_seats)):
            raise _fail(step, "a clone given the same action differs from the original")
        step += 1
        if step > facts.max_length:
            raise _fail(step, f"the hand is longer than the declared {facts.max_length} "
                              f"actions")
        if on_step is not None:
            on_step(state)
    _check_end(state, facts, step)
    _check_views(state, engine, facts, check, step, list(range(facts.n_seats)))
    return state


def check_record(game: Game, state: GameState) -> dict[str, Any]:
    """Write ``state``'s record, read it back as text and replay it; the record."""
    recs = game.part("records")
    rec = recs.record_of(state)
    for key in core_records.ENVELOPE:
        if key not in rec:
            raise AssertionError(f"the record has no {key!r}")
    if (rec["format"], rec["version"], rec["game"]) != (core_records.FORMAT,
                                                        core_records.VERSION, game.name):
        raise AssertionError(f"the record's envelope is {rec['format']!r} version "
                             f"{rec['version']!r} of {rec['game']!r}")
    rules = getattr(state, "rules").name  # noqa: B009 (every engine's State has rules)
    if rec["rules"] != rules:
        raise AssertionError(f"the record names rules {rec['rules']!r}, the hand was played "
                             f"under {rules!r}")
    text = core_records.dumps(rec)
    if core_records.loads(text) != rec:
        raise AssertionError("the record's text does not read back as the record")
    try:
        back = recs.replay(core_records.loads(text), require_end=state.is_terminal())
    except core_records.RecordError as e:
        raise AssertionError(f"the record does not replay: {e}") from None
    if back.history != state.history:
        raise AssertionError("the replayed record has another history")
    if tuple(back.returns()) != tuple(state.returns()):
        raise AssertionError(f"the replayed record returns {back.returns()}, the hand "
                             f"{state.returns()}")
    if recs.record_of(back) != rec:
        raise AssertionError("the replayed hand writes another record")
    for i, (seat, action) in enumerate(state.history):
        entry = recs.action_to_json(seat, action)
        if recs.action_from_json(entry, i) != (seat, action):
            raise AssertionError(f"action {i} {action!r} does not survive its codec: {entry}")
    return rec


def check_refused_record(game: Game, rec: dict[str, Any], index: int) -> None:
    """A record whose action ``index`` was swapped for another seat's turn must be refused
    with a RecordError naming that index."""
    broken = dict(rec, actions=[dict(a) for a in rec["actions"]])
    entry = broken["actions"][index]
    entry["seat"] = (entry["seat"] + 1) % game.facts.n_seats
    try:
        game.part("records").replay(broken)
    except core_records.RecordError as e:
        if e.index != index:
            raise AssertionError(f"the broken action {index} was reported as {e.index}: "
                                 f"{e}") from None
        return
    raise AssertionError(f"a record with action {index} out of turn was replayed")


def playthrough(game: Game, preset: str, seed: Seed) -> str:
    """The record text of the random hand of ``seed`` (the golden playthrough)."""
    state = random_hand(game, preset, seed, view_every=0)
    rec = game.part("records").record_of(state)
    return core_records.dumps(rec)


def random_record(game: Game, preset: str, seed: Seed) -> dict[str, Any]:
    """The record of one whole hand of ``game`` under ``preset``, every seat playing random
    legal actions (no contract checks: :func:`random_hand` makes them)."""
    engine = game.part("engine")
    rng = streams(seed, 1)[0]
    state = engine.random_start(preset, rng)
    while not state.is_terminal():
        try:
            action = rng.choice(state.legal_actions())
        except NotListed:
            action = engine.random_action(state, rng)
        state.apply(action)
    return game.part("records").record_of(state)
