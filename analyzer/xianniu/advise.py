"""What should the seat to act do? Every legal action of a recorded decision, valued.

A game record that stops where a seat must choose is replayed in the reference engine. The
hidden cards are dealt anew for every sample, consistent with every public fact the acting
seat knows (:mod:`kernels.xianniu.advise`), and each legal action is played out from the
same deal and the same random stream (paired play-outs: the seat plays on with ``policy``,
the other seats with ``opponents``). The deals fit the public facts only: unlike
``should-xian``, which keeps only the deals on which the other seats' policies would have
made their 扣, advise draws no inference from why a seat chose what it did (``CONDITIONING``).
Sampling runs in batches as a race: after each batch an
action whose paired difference to the leader excludes 0 at z = 3.29 (a stricter bound than
95%, since the race looks many times) leaves the race; sampling stops when only the leader
is left, when every action still racing is within ``precision`` points of the leader (95%
CI half-width of the paired difference), or after ``samples`` deals.

Actions are grouped only where the rules cannot tell them apart: two actions whose cards
differ only by swapping cards of one rank (for 9s and 5s, of one rank and one colour) that
the acting seat holds lead to positions that are images of each other under that swap, so
they have the same value. One action of each group is played out; the group lists them all.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from kernels.rng import states_for_chunks
from kernels.xianniu import advise as ka
from kernels.xianniu import views
from kernels.xianniu.game import R_PTS0
from kernels.xianniu.verbs import TYPE_SHIFT

from ..core.checks import check_seed
from ..core.race import Race, ranked_lines
from ..core.stats import Estimate, mean_ci
from ..core.valued import ActionValue
from .cards import FIVE, NINE, cards_of, format_cards
from .defaults import ADVICE_OPPONENTS, ADVICE_POLICY
from .engine import (
    ACTION_KINDS,
    DISCARD_PHASE,
    KOU,
    KOU_ASK,
    LEAD,
    PLAY,
    QIANGCI,
    TIGHTEN,
    TRICK,
    Action,
    State,
)
from .kernel_state import ws_from_state
from .records import action_to_json, record_of, replay, start_of
from .sim import POLICIES, paired_playouts, policy_arrays, rule_arrays

DEFAULT_POLICY = ADVICE_POLICY
NOT_PLAYED = -(1 << 40)  # an entry for an action out of the race
DEFAULT_PRECISION = 0.1  # points: CI half-width of the paired differences still racing
DEFAULT_SAMPLES = 20_000  # deals at most
PUZZLE_MARGIN = 1.0  # points: how far a puzzle's answer is ahead (analyzer.core.puzzles)
PUZZLE_BUDGET = {"samples": 2048}  # the advice a puzzle is mined with (racing stops sooner)
# ... and checked with: every seat playing on with the strongest search player
PUZZLE_SEARCH = {"policy": "pimc2", "opponents": "pimc2", "samples": 256}
CHUNKS = 8  # random streams per batch: fixed, so the numbers depend on the seed alone
PER_CHUNK = 32  # deals per chunk and batch
UNIT = "points"  # of the acting seat's returns, per hand
# The review's labels (analyzer.core.review): the loss whose 95% CI lies above this many
# points. A 牛 (an own 4-card 牛 settled) is worth a few points; 0.3 is about the value of
# one card changing hands late in a trick, 3 the swing of a hand going the other way.
THRESHOLDS = {"inaccuracy": 0.3, "mistake": 1.0, "blunder": 3.0}
GROUPING = ("actions whose cards differ only by cards of one rank (9s and 5s: of one rank and "
            "colour) held by the seat to act are equivalent; one of each group is played out")


@dataclass(frozen=True)
class Advice:
    """The answer of :func:`advise`: actions ranked best first (by the paired difference to
    the best), the best, and whether the best is separated from the second (the 95% CI of
    their paired difference excludes 0; also true when the best's group is the only one)."""

    rules: str
    seat: int
    phase: str
    hand: str
    policy: str
    seed: int
    precision: float
    samples: int
    deals: int  # deals played (the best action's n)
    dealt: int  # sampler calls, kept or not
    stopped: str  # "leader alone", "precision" or "samples"
    actions: tuple[ActionValue, ...]
    separated: bool
    opponents: str = ADVICE_OPPONENTS  # how the other two seats play on

    @property
    def best(self) -> ActionValue:
        return self.actions[0]

    def to_json(self) -> dict[str, Any]:
        """JSON-ready; the head keys are those of the other 掀牛 commands."""
        return {"game": "xianniu", "rules": self.rules, "seed": self.seed, "deals": self.deals,
                "policy": self.policy, "others_policy": self.opponents,
                "seat_policies": [self.policy if s == self.seat else self.opponents
                                  for s in range(3)], "seat": self.seat,
                "phase": self.phase, "hand": self.hand, "precision": self.precision,
                "samples": self.samples, "dealt": self.dealt, "stopped": self.stopped,
                "grouping": GROUPING, "conditioning": CONDITIONING,
                "actions": [a.to_json() for a in self.actions],
                "best": self.best.to_json(), "separated": self.separated}


def _state_of(record: Any) -> State:
    """The replayed position of a record given as a dict, JSON text or engine state."""
    if isinstance(record, State):
        record = record_of(record)
    elif isinstance(record, (str, bytes)):
        try:
            record = json.loads(record)
        except json.JSONDecodeError as e:
            raise ValueError(f"the record is not valid JSON: {e}") from None
    return replay(record)


def _class_key(mask: int) -> tuple[tuple[int, int], ...]:
    """Cards per class the rules tell apart: a rank, or for 9s and 5s a rank and colour."""
    counts: dict[int, int] = {}
    for c in cards_of(mask):
        r = c >> 2
        k = 4 * r + (c & 1) if r in (NINE, FIVE) else 4 * r  # ♠♣ even suits, ♥♦ odd
        counts[k] = counts.get(k, 0) + 1
    return tuple(sorted(counts.items()))


def _groups(state: State) -> list[list[Action]]:
    """The legal actions of the seat to act in groups of equivalent ones, engine order."""
    by_key: dict[tuple, list[Action]] = {}
    for a in state.legal_actions():
        by_key.setdefault((a.kind, _class_key(a.cards)), []).append(a)
    return list(by_key.values())


def _decision(record: Any) -> tuple[State, int, list[list[Action]]]:
    state = _state_of(record)
    if state.is_terminal():
        raise ValueError("the hand is over: there is no decision to advise on")
    seat = state.current_player()
    groups = _groups(state)
    if sum(len(g) for g in groups) < 2:
        only = state.legal_actions()[0]
        raise ValueError(f"the record does not stop at a decision: seat {seat} has one legal "
                         f"action ({only})")
    return state, seat, groups


def decision_kind(state: State, action: Action) -> str:
    """The kind of decision ``action`` answers at ``state``: 抢刺, lead, 扣 or 紧牌 (a lead
    holder's choice, named by what it did), 扣/掀 (answering a 扣), answer, discard.

    >>> from types import SimpleNamespace
    >>> lead, trick = SimpleNamespace(phase=LEAD), SimpleNamespace(phase=TRICK)
    >>> [decision_kind(lead, Action(KOU)), decision_kind(trick, Action("pass"))]
    ['扣', 'answer']
    """
    if state.phase == QIANGCI:
        return "抢刺"
    if state.phase == LEAD:
        return {KOU: "扣", TIGHTEN: "紧牌"}.get(action.kind, "lead")
    return {KOU_ASK: "扣/掀", TRICK: "answer", DISCARD_PHASE: "discard"}.get(state.phase,
                                                                           state.phase)


def legal_actions(record: Any) -> list[dict[str, Any]]:
    """The record-format actions open to the seat to act, in groups of equivalent ones:
    ``[{"action": first of the group, "group": [every action of the group]}, ...]``.

    ``record`` is a record dict, its JSON text or an engine state; ValueError if it is
    malformed or the hand is over.
    """
    state = _state_of(record)
    if state.is_terminal():
        raise ValueError("the hand is over: no seat is to act")
    seat = state.current_player()
    return [{"action": action_to_json(seat, g[0]), "group": [action_to_json(seat, a) for a in g]}
            for g in _groups(state)]


def qiangci_known(state: State) -> np.ndarray:
    """Per seat, what the 抢刺 phase showed about its dealt hand: 1 it held a 龙凤 or 八大对,
    0 it did not, -1 not known (always -1 for the seat to act, which sees its own hand).

    The phase offers the holders their 抢刺 in turn order from the banker (under a
    mandatory 抢刺 only the first holder): a seat seen acting held one; a seat skipped
    before the last one seen held none; after it, nothing is known if that seat played
    its 抢刺 or is deciding now, and otherwise (every holder passed) none held one.
    """
    known = np.full(3, -1, dtype=np.int64)
    shadow = start_of(record_of(state))
    if shadow.phase != QIANGCI:
        known[:] = 0
    else:
        actors, played = [], False
        for seat, action in state.history:
            if shadow.phase == QIANGCI:
                actors.append(seat)
                played = played or action.kind == PLAY
            shadow.apply(action)
        open_now = state.phase == QIANGCI
        if open_now:
            actors.append(state.current_player())
        order = [(state.banker + i) % 3 for i in range(3)]
        last = max(order.index(s) for s in actors)
        for i, s in enumerate(order):
            if i <= last:
                known[s] = int(s in actors)
            elif not (played or open_now):
                known[s] = 0
    if not state.is_terminal():
        known[state.current_player()] = -1
    return known


def _options(position: np.ndarray, rules, groups: list[list[Action]]) -> np.ndarray:
    """The kernels' action code of each group's first action; the kernels' list must hold
    exactly the engine's legal actions."""
    types = np.empty(1024, dtype=np.int64)
    masks = np.empty(1024, dtype=np.int64)
    n = ka.list_actions(position, rules, types, masks)
    listed = {(ACTION_KINDS[int(types[i])], int(masks[i])) for i in range(n)}
    engine = {(a.kind, a.cards) for g in groups for a in g}
    if listed != engine or n != len(engine):
        raise RuntimeError("the kernels list other actions than the reference engine here")
    return np.array([g[0].cards | ACTION_KINDS.index(g[0].kind) << TYPE_SHIFT
                     for g in groups], dtype=np.int64)


def _check_args(samples: int | None, precision: float, policy: str,
                seed: int | None) -> tuple[int, float, int]:
    if policy not in POLICIES:
        raise ValueError(f"policy must be one of {', '.join(POLICIES)}, got {policy!r}")
    samples = DEFAULT_SAMPLES if samples is None else samples
    if not isinstance(samples, (int, np.integer)) or isinstance(samples, bool) or samples < 2:
        raise ValueError(f"samples must be an integer of at least 2, got {samples!r}")
    if (not isinstance(precision, (int, float)) or isinstance(precision, bool)
            or not math.isfinite(precision) or precision <= 0):
        raise ValueError(f"precision must be a positive number of points, got {precision!r}")
    return int(samples), float(precision), check_seed(seed, fresh=True)


def _batch(view, seat, options, active, rk, pol, states) -> tuple[np.ndarray, int]:
    """One batch of paired play-outs: ``seat``'s points per kept deal (rows) and option
    (columns; ``NOT_PLAYED`` where the option is out of the race), and the deals drawn."""
    racing = np.flatnonzero(active)
    out = rk.result_rows(CHUNKS * PER_CHUNK, len(racing))
    _, kept, tries = paired_playouts(rk, pol, view, seat, options[racing], out, states,
                                     PER_CHUNK)
    got = np.full((int(kept.sum()), len(options)), NOT_PLAYED, dtype=np.int64)
    got[:, racing] = out[kept == 1][:, :, R_PTS0 + seat]
    return got, int(tries.sum())


def _run_race(position, seat, options, known, rk, pol, samples, precision, seed,
              progress) -> tuple[Race, int, str]:
    race = Race(len(options))
    per_batch = CHUNKS * PER_CHUNK
    view = views.view_rows(views.RECORDED, position, qiangci=known)
    dealt, batch = 0, 0
    while True:
        states = states_for_chunks(seed, batch * CHUNKS, CHUNKS)
        got, tries = _batch(view, seat, options, race.active, rk, pol, states)
        race.add(got[:samples - race.n])
        dealt += tries
        batch += 1
        if progress is not None:
            progress(race.n, samples)
        if race.n == 0 and dealt >= 20 * per_batch:
            raise ValueError("no deal of the hidden cards fits this record's public facts")
        stop = race.step(precision, samples, per_batch)
        if stop is not None:
            return race, dealt, stop


def _values(race: Race, groups: list[list[Action]], seat: int,
            best: int) -> list[ActionValue]:
    """Each group's value and its paired difference to ``best``, ranked best first."""
    rows = np.concatenate(race.batches)
    vals = []
    for a, g in enumerate(groups):
        col = rows[:, a]
        n_a = int(np.count_nonzero(col != NOT_PLAYED))  # a prefix: racing stops for good
        e = mean_ci(col[:n_a])
        d = Estimate(0.0, 0.0, 0.0, n_a) if a == best else mean_ci(rows[:n_a, best] - col[:n_a])
        vals.append(ActionValue(action_to_json(seat, g[0]),
                                tuple(action_to_json(seat, x) for x in g), e.value,
                                (e.low, e.high), n_a, d.as_dict()))
    order = sorted(range(len(groups)), key=lambda a: (a != best, vals[a].diff["value"], a))
    return [vals[a] for a in order]


def advise(record: Any, *, samples: int | None = None, precision: float = DEFAULT_PRECISION,
           policy: str = DEFAULT_POLICY, seed: int | None = None,
           progress: Callable[[int, int], None] | None = None,
           opponents: str = ADVICE_OPPONENTS) -> Advice:
    """Value every legal action where ``record`` stops (see the module docstring).

    ``record``: a record dict, its JSON text or an engine state, stopping where a seat has a
    choice. ``samples``: deals at most (default 20,000). ``precision``: points (95% CI
    half-width of the paired gaps still racing). ``policy``: how the acting seat plays on,
    ``opponents``: how the other two do (any policy name). ``seed``: None draws one
    (reported). ``progress(done, total)`` is called after each batch of deals.
    ValueError on a bad record, a finished hand or a seat without a choice.
    """
    samples, precision, seed = _check_args(samples, precision, policy, seed)
    if opponents not in POLICIES:
        raise ValueError(f"opponents must be one of {', '.join(POLICIES)}, got {opponents!r}")
    state, seat, groups = _decision(record)
    position = ws_from_state(state)
    rk = rule_arrays(state.rules)
    names = [opponents] * 3
    names[seat] = policy
    pol = policy_arrays(names, rules=state.rules)
    options = _options(position, rk, groups)
    race, dealt, stop = _run_race(position, seat, options, qiangci_known(state), rk, pol,
                                  samples, precision, seed, progress)
    best = race.leader()
    vals = _values(race, groups, seat, best)
    separated = len(vals) == 1 or vals[1].diff["low"] > 0
    return Advice(state.rules.name, seat, state.phase, format_cards(state.hands[seat]), policy,
                  seed, precision, samples, race.n, dealt, stop, tuple(vals), bool(separated),
                  opponents)


CONDITIONING = ("hidden hands fit the public facts only (cards played, counts, passes, 抢刺); "
                "no inference from why the other seats chose what they did")
_KOU_NOTE = ("note: should-xian also keeps only the deals on which the other seats' policies "
             "would have 扣ed as they did, so its EVs (weaker hands behind a 扣) differ from "
             "these; compare the gap 掀 − 扣")

_LABEL = {"kou": "扣 kou", "xian": "掀 xian", "tighten": "紧牌 tighten", "pass": "pass"}


def _action_label(entry: dict[str, Any], group: int) -> str:
    text = _LABEL.get(entry["action"], entry["action"])
    if entry.get("cards"):
        text += " " + entry["cards"]
    return text + (f" (+{group - 1} equivalent)" if group > 1 else "")


def entry_label(entry: dict[str, Any]) -> str:
    """A record entry in the words of the tables: ``扣 kou``, ``掀 xian``, ``play 9♠ 9♥`` …

    >>> entry_label({"seat": 1, "action": "xian"}), entry_label({"seat": 0, "action": "play",
    ...                                                         "cards": "9♠ 9♥"})
    ('掀 xian', 'play 9♠ 9♥')
    """
    return _action_label(entry, 1)


def advice_lines(d: dict[str, Any]) -> list[str]:
    """:meth:`Advice.to_json` as a table: rank, action, EV with 95% CI and n, and the paired
    gap best − action with its 95% CI."""
    lines = [f"seat {d['seat']} to act ({d['phase']}), rules {d['rules']}, hand {d['hand']}",
             f"play-outs: this seat {d['policy']}, others {d['others_policy']}; seed "
             f"{d['seed']}; {d['deals']:,} deals (stopped: {d['stopped']}, precision "
             f"{d['precision']:g}); points per hand, 95% CIs"]
    lines += ranked_lines(d, lambda a: _action_label(a["action"], len(a["group"])))
    if d["phase"] == "kou_ask":
        lines.append(_KOU_NOTE)
    return lines


def advise_record(record: Any, *, taken: dict[str, Any] | None = None,
                  **options: Any) -> Advice:
    """The advice the review of a hand (:mod:`analyzer.core.review`) asks at each decision:
    :func:`advise`, whose listing is complete, so ``taken`` (the record's own action) is
    among the actions valued already."""
    return advise(record, **options)
