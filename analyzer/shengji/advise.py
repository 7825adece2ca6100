"""What should the seat to act do? Every legal action where a 双升 record stops, valued.

The record is replayed in the reference engine. Each sample deals the cards the acting seat
cannot see anew, consistent with what is public: the other hands keep their sizes, the
cards a seat has shown (declarations, failed throws) and not played since stay with it, a
seat shown void in a suit gets none of it, and the kitty is dealt anew unless this seat
buried it. Every action is then played out from that one deal and one saved random stream
(paired play-outs): the acting seat plays on with ``policy``, the other three with
``opponents``. The value is the acting team's level change for the hand: the levels it
gains less the levels the other team gains.

Sampling runs in batches as a race: after each batch an action whose paired gap to the
leader excludes 0 at z = 3.29 (stricter than 95%, as the race looks many times) leaves the
race; sampling stops when the leader is alone, when every action still racing is within
``precision`` levels of the leader (95% CI half-width of the paired gap), or after
``samples`` deals.

What is listed, by phase (``LISTING``):

- **造反**: pass or rebel (``rebel_scope="player"``).
- **declaring** (any round, 抢庄局 included) and **扒鸡窝**: pass and every declaration or
  overcall the engine allows (an overcall then buries by the seat's policy).
- **the bury** (the first, or after a 扒鸡窝 overcall): the buries the bury generator of
  ``shengji bury`` proposes (the heuristic's and its variants, a void per short plain
  suit) and any ``candidates``; a bury has C(33, 8) choices, too many to list.
- **a lead**: every unit (single, pair, tractor) and every throw (甩牌) attempt the engine
  allows, when there are at most ``MAX_VALUED`` of them; else the units, the whole-suit
  throws, the policies' candidates, any ``candidates`` and a seeded sample of the rest up
  to ``MAX_VALUED``, and the answer says how many are legal.
- **a follow**: every legal follow when there are at most ``MAX_VALUED``; else the
  policies' candidates (the heuristic's follow; its low, feed and high follows and ruffs),
  any ``candidates`` and a seeded sample of the legal rest.

No two actions are grouped: each ``group`` holds its action alone.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.checks import check_seed
from ..core.race import Race, ranked_lines
from ..core.stats import Estimate, mean_ci
from ..core.valued import ActionValue
from .actions import (
    BAJIWO_PHASE,
    BURY_PHASE,
    DECLARE,
    DECLARE_PHASE,
    KITTY_SIZE,
    PASS,
    PLAY_PHASE,
    REBEL,
    REBEL_PHASE,
    Action,
)
from .advise_listing import (
    LISTING,
    MAX_VALUED,
    Listing,
    _count_multisets,
    _extra_actions,
    _follow_listing,
    _is_throw,
    _lead_listing,
)
from .advise_playouts import (
    CHUNKS,
    NOT_PLAYED,
    PER_CHUNK,
    Caller,
    NotValued,
    _bajiwo_caller,
    _bury_caller,
    _bury_listing,
    _declare_caller,
    _kernel_candidates,
    _play_caller,
    _rebel_caller,
)
from .cards import NT, RANK_NAMES, SUIT_SYMBOLS, format_cards
from .engine import State
from .records import action_from_json, action_to_json, record_of, replay
from .sim import POLICIES, QUERY_POLICY, seat_policies

UNIT = "levels"
# Loss thresholds (levels a hand) the 95% CI's lower end must reach (core review labels).
THRESHOLDS = {"inaccuracy": 0.05, "mistake": 0.2, "blunder": 0.5}
DEFAULT_POLICY = QUERY_POLICY  # the strongest policy fast enough to answer in seconds
DEFAULT_OPPONENTS = QUERY_POLICY
DEFAULT_PRECISION = 0.1  # levels: CI half-width of the paired gaps still racing
DEFAULT_SAMPLES = 20_000  # deals at most
PUZZLE_MARGIN = 0.1  # levels: how far a puzzle's answer is ahead (analyzer.core.puzzles)
PUZZLE_BUDGET = {"samples": 1024}  # the advice a puzzle is mined with (racing stops sooner)
# ... and checked with: every seat playing on with the strongest search player
# (looking after every 64 deals: a clear answer stops at 64, the rest play the 128; no stop
# for precision, which would end a lead still short of sure sooner than the 128 deals)
PUZZLE_SEARCH = {"policy": "pimc2", "opponents": "pimc2", "samples": 128, "look": 64,
                 "precision": 1e-6}
GROUPING = "none: every action is valued on its own"


# -- the position --------------------------------------------------------------------------


def _state_of(record: Any) -> State:
    """The replayed position of a record given as a dict, JSON text or engine state."""
    if isinstance(record, State):
        return record
    if isinstance(record, (str, bytes)):
        try:
            record = json.loads(record)
        except json.JSONDecodeError as e:
            raise ValueError(f"the record is not valid JSON: {e}") from None
    return replay(record)


def decision_kind(state: State, action: Action) -> str:
    """The kind of decision ``action`` answers at ``state``: rebel, declare, bury, bajiwo,
    lead, throw (a lead of two or more units) or follow."""
    phase = state.phase
    if phase == PLAY_PHASE:
        if state.tricks[-1].plays:
            return "follow"
        return "throw" if _is_throw(action.cards, state) else "lead"
    return {REBEL_PHASE: "rebel", DECLARE_PHASE: "declare", BURY_PHASE: "bury",
            BAJIWO_PHASE: "bajiwo"}.get(phase, phase)


def _phase_name(state: State) -> str:
    if state.phase == PLAY_PHASE:
        return "follow" if state.tricks[-1].plays else "lead"
    return state.phase


# -- the race ---------------------------------------------------------------------------------


class _Race(Race):
    """The core race, with the actions that left it marked as not played on later deals."""

    def add(self, got: np.ndarray) -> None:
        got = got.copy()
        got[:, self.active == 0] = NOT_PLAYED
        super().add(got)


def _run(call: Caller, k: int, samples: int, precision: float,
         progress: Callable[[int, int], None] | None, look: int = CHUNKS) -> tuple[_Race, str]:
    """The race, looking after every ``look`` chunks (a batch's ``CHUNKS`` by default): the
    deals are the chunks' in order whatever the look, so a shorter look only stops sooner."""
    race = _Race(k)
    at = 0  # chunks asked for so far, over the batches
    while True:
        need = samples - race.n
        batch, first = divmod(at, CHUNKS)
        count = min(look, CHUNKS - first, -(-need // PER_CHUNK))  # only the chunks needed
        active = race.active.copy()
        got = call(active, batch, first, count)
        at += count
        rest = min(look, CHUNKS - first) - count
        if len(got) < need and rest > 0:  # deals that fit no hand were dropped: the look's rest
            got = np.concatenate([got, call(active, batch, first + count, rest)])
            at += rest
        race.add(got[:need])
        if progress is not None:
            progress(race.n, samples)
        if race.n == 0 and at >= 20 * CHUNKS:
            raise ValueError("no deal of the hidden cards fits this record's public facts")
        stop = race.step(precision, samples, look * PER_CHUNK)
        if stop is not None:
            return race, stop


# -- the answer ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Advice:
    """The answer of :func:`advise`: the player's question first (declare or pass, 造反 or
    not, throw or not) where there is one, then every valued action best first."""

    rules: str
    seat: int
    phase: str
    hand: str
    setting: dict[str, Any]
    policy: str
    opponents: str
    seed: int
    precision: float
    samples: int
    deals: int
    stopped: str
    actions: tuple[ActionValue, ...]
    separated: bool
    listing: dict[str, Any]
    question: dict[str, Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def best(self) -> ActionValue:
        return self.actions[0]

    def to_json(self) -> dict[str, Any]:
        return {"game": "shengji", "rules": self.rules, "seed": self.seed,
                "deals": self.deals, "policy": self.policy, "others_policy": self.opponents,
                "seat_policies": [self.policy if s == self.seat else self.opponents
                                  for s in range(4)],
                "seat": self.seat, "phase": self.phase, "hand": self.hand,
                "setting": self.setting, "precision": self.precision,
                "samples": self.samples, "stopped": self.stopped,
                "value": "levels gained by the acting seat's team less the other team's, "
                         "per hand",
                "grouping": GROUPING, "listing": self.listing, "question": self.question,
                "actions": [a.to_json() for a in self.actions],
                "best": self.best.to_json(), "separated": self.separated, **self.extra}


def _check_args(samples, precision, policy, opponents, seed) -> tuple[int, float, int]:
    for what, name in (("policy", policy), ("opponents", opponents)):
        if name not in POLICIES:
            raise ValueError(f"{what} must be one of {', '.join(POLICIES)}, got {name!r}")
    samples = DEFAULT_SAMPLES if samples is None else samples
    if not isinstance(samples, (int, np.integer)) or isinstance(samples, bool) or samples < 2:
        raise ValueError(f"samples must be an integer of at least 2, got {samples!r}")
    if (not isinstance(precision, (int, float)) or isinstance(precision, bool)
            or not math.isfinite(precision) or precision <= 0):
        raise ValueError(f"precision must be a positive number of levels, got {precision!r}")
    return int(samples), float(precision), check_seed(seed, fresh=True)


def _setting(state: State) -> dict[str, Any]:
    out: dict[str, Any] = {"levels": list(state.levels), "banker": state.banker}
    if state.level is not None:
        out["level"] = RANK_NAMES[state.level]
    if state.trump is not None:
        out["trump"] = "NT" if state.trump == NT else SUIT_SYMBOLS[state.trump]
    if state.standing is not None:
        out["standing"] = format_cards(state.standing.cards)
        out["standing_seat"] = state.standing.seat
    if state.phase == PLAY_PHASE:
        t = state.tricks[-1]
        out["trick"] = len(state.tricks)
        out["leader"] = t.leader
        out["plays"] = [format_cards(p, state.ctx) for p in t.plays]
        out["attacker_points"] = state.attacker_points
    return out


def listing_of(record: Any, candidates=(), seed: int = 0) -> tuple[State, Listing]:
    """The position ``record`` stops at and the actions :func:`advise` values there
    (``candidates`` added; ``seed`` draws the sample of a capped listing)."""
    state = _state_of(record)
    if state.is_terminal():
        raise ValueError("the hand is over: there is no decision to advise on")
    extra = _extra_actions(state, candidates)
    rng = random.Random(seed)
    phase = state.phase
    if phase == PLAY_PHASE:
        pols = seat_policies("heuristic", state.rules)
        cands = _kernel_candidates(state, pols)
        if state.tricks[-1].plays:
            return state, _follow_listing(state, extra, rng, cands)
        return state, _lead_listing(state, extra, rng, cands)
    if phase == BURY_PHASE:
        acts, _ = _bury_listing(state, extra)
        return state, Listing(acts, _count_multisets(state.hands[state.turn], KITTY_SIZE),
                              False, LISTING["bury"])
    acts = state.legal_actions()
    return state, Listing(acts, len(acts), True, LISTING[phase])


def _question(state: State, race: _Race, listing: Listing, rows: np.ndarray
              ) -> dict[str, Any] | None:
    """The player's question: the best 'yes' action against the best 'no' one, paired."""
    phase = _phase_name(state)
    acts = listing.actions
    if phase in ("declare", "rebel", "bajiwo"):
        yes = [i for i, a in enumerate(acts) if a.kind in (DECLARE, REBEL)]
        no = [i for i, a in enumerate(acts) if a.kind == PASS]
        text = {"declare": ("declare or pass", "declare", "pass"),
                "bajiwo": ("扒鸡窝 or pass", "overcall (扒鸡窝)", "pass"),
                "rebel": ("造反 or not", "造反 (rebel)", "pass")}[phase]
    elif phase == "lead":
        yes = [i for i, a in enumerate(acts) if _is_throw(a.cards, state)]
        no = [i for i, a in enumerate(acts) if not _is_throw(a.cards, state)]
        text = ("throw or not", "throw", "lead one unit")
    else:
        return None
    if not yes or not no:
        return None
    n_of = (rows != NOT_PLAYED).sum(axis=0)
    # the best of each side: the one that stayed longest in the race, then by mean
    def by(i: int) -> tuple[int, float]:
        return int(n_of[i]), _col_mean(rows, i)

    y, nn = max(yes, key=by), max(no, key=by)
    m = int(min(n_of[y], n_of[nn]))
    d = mean_ci(rows[:m, y].astype(np.float64) - rows[:m, nn])
    if d.low > 0:
        answer = text[1]
    elif d.high < 0:
        answer = text[2]
    else:
        answer = "close"
    seat = state.turn
    return {"question": text[0], "answer": answer, "yes": action_to_json(seat, acts[y]),
            "no": action_to_json(seat, acts[nn]), "yes_less_no": d.as_dict(),
            "options": [text[1], text[2]]}


def _col_mean(rows: np.ndarray, i: int) -> float:
    col = rows[:, i]
    col = col[col != NOT_PLAYED]
    return float(col.mean()) if len(col) else -math.inf


def advise(record: Any, *, samples: int | None = None,
           precision: float = DEFAULT_PRECISION, policy: str = DEFAULT_POLICY,
           opponents: str = DEFAULT_OPPONENTS, seed: int | None = None, candidates=(),
           look: int = CHUNKS * PER_CHUNK,
           progress: Callable[[int, int], None] | None = None) -> Advice:
    """Value every listed action where ``record`` stops (module docstring).

    ``record``: a record dict, its JSON text or an engine state. ``samples``: deals at most;
    ``precision``: levels (95% CI half-width of the paired gaps still racing); ``policy``
    and ``opponents``: how the acting seat and the other three play on; ``seed``: None
    draws one (reported); ``candidates``: actions to value besides the listing (record
    entries or card text); ``look``: deals between two looks of the race (a multiple of
    ``PER_CHUNK`` up to a batch: the same deals, a shorter look only stops sooner). A
    position with one legal action is answered without play-outs (``stopped`` = "forced").
    ValueError on a bad record or a finished hand.
    """
    samples, precision, seed = _check_args(samples, precision, policy, opponents, seed)
    if (not isinstance(look, int) or isinstance(look, bool)
            or look not in range(PER_CHUNK, CHUNKS * PER_CHUNK + 1, PER_CHUNK)):
        raise ValueError(f"look must be a multiple of {PER_CHUNK} deals up to "
                         f"{CHUNKS * PER_CHUNK}, got {look!r}")
    state, listing = listing_of(record, candidates, seed)
    seat, r = state.turn, state.rules
    hand = format_cards(state.hands[seat], state.ctx)
    listed = {"legal": listing.legal, "valued": len(listing.actions),
              "complete": listing.complete, "how": listing.how}
    names = [opponents] * 4
    names[seat] = policy
    pols = seat_policies(",".join(names), r)
    base: dict[str, Any] = {
        "rules": r.name, "seat": seat, "phase": _phase_name(state), "hand": hand,
        "setting": _setting(state), "policy": policy, "opponents": opponents, "seed": seed,
        "precision": precision, "samples": samples, "listing": listed}
    acts = listing.actions
    if len(acts) == 1:
        entry = action_to_json(seat, acts[0])
        only = ActionValue(entry, (entry,), 0.0, (0.0, 0.0), 0,
                           {"value": 0.0, "low": 0.0, "high": 0.0, "n": 0})
        return Advice(**base, deals=0, stopped="forced", actions=(only,), separated=True)
    maker = {PLAY_PHASE: _play_caller, DECLARE_PHASE: _declare_caller,
             BURY_PHASE: _bury_caller, BAJIWO_PHASE: _bajiwo_caller,
             REBEL_PHASE: _rebel_caller}[state.phase]
    call = maker(state, acts, pols, seed)
    race, stop = _run(call, len(acts), samples, precision, progress, look // PER_CHUNK)
    rows = np.concatenate(race.batches)
    best = race.leader()
    vals = _values(rows, acts, seat, best, state)
    separated = len(vals) == 1 or vals[1].diff["low"] > 0
    return Advice(**base, deals=race.n, stopped=stop, actions=tuple(vals),
                  separated=bool(separated), question=_question(state, race, listing, rows))


def taken_only(state: State, entry: dict[str, Any] | None) -> Advice:
    """An answer that values nothing: the record's own action alone (a decision advise does
    not value yet, :class:`NotValued`); ``stopped`` = "not valued"."""
    seat = state.turn
    if entry is None:
        entry = action_to_json(seat, Action(PASS))
    else:
        entry = action_to_json(*action_from_json(entry, 0))
    only = ActionValue(entry, (entry,), 0.0, (0.0, 0.0), 0,
                       {"value": 0.0, "low": 0.0, "high": 0.0, "n": 0})
    return Advice(state.rules.name, seat, _phase_name(state),
                  format_cards(state.hands[seat], state.ctx), _setting(state), DEFAULT_POLICY,
                  DEFAULT_OPPONENTS, 0, DEFAULT_PRECISION, 0, 0, "not valued", (only,), True,
                  {"legal": None, "valued": 0, "complete": False, "how": "not valued"})


def advise_record(record: Any, *, taken: dict[str, Any] | None = None,
                  **options: Any) -> Advice:
    """The advice the review of a hand (:mod:`analyzer.core.review`) asks at each decision:
    :func:`advise` with ``taken`` (the record's own action) valued too, since a bury or a
    capped listing of plays need not hold it; a decision advise does not value yet
    (:class:`NotValued`) gets :func:`taken_only`, which the review counts as forced."""
    state = _state_of(record)
    extra = [taken] if taken is not None and state.phase in (BURY_PHASE, PLAY_PHASE) else []
    try:
        return advise(state, candidates=extra, **options)
    except NotValued:
        return taken_only(state, taken)


def _label(state: State, a: Action) -> str:
    if state.phase == PLAY_PHASE and not state.tricks[-1].plays and _is_throw(a.cards, state):
        return "throw"
    return ""


def _values(rows: np.ndarray, acts: list[Action], seat: int, best: int,
            state: State) -> list[ActionValue]:
    vals = []
    for a, act in enumerate(acts):
        col = rows[:, a]
        n_a = int(np.count_nonzero(col != NOT_PLAYED))  # a prefix: racing stops for good
        e = mean_ci(col[:n_a].astype(np.float64))
        d = Estimate(0.0, 0.0, 0.0, n_a) if a == best else mean_ci(
            rows[:n_a, best].astype(np.float64) - col[:n_a])
        entry = action_to_json(seat, act)
        vals.append(ActionValue(entry, (entry,), e.value, (e.low, e.high), n_a, d.as_dict(),
                                _label(state, act)))
    order = sorted(range(len(acts)), key=lambda a: (a != best, vals[a].diff["value"], a))
    return [vals[a] for a in order]


# -- text ---------------------------------------------------------------------------------------


def _action_text(entry: dict[str, Any]) -> str:
    text = entry["action"]
    if entry.get("cards"):
        text += " " + entry["cards"]
    return text


def advice_lines(d: dict[str, Any]) -> list[str]:
    """:meth:`Advice.to_json` as text: the question first, then each action with its EV
    (95% CI, n) and the paired gap best − action."""
    from ..core.stats import format_estimate

    s = d["setting"]
    where = ", ".join(f"{k} {v}" for k, v in s.items() if k in ("level", "trump", "banker")
                      and v is not None) or "抢庄局 (no banker yet)"
    lines = [f"seat {d['seat']} to act ({d['phase']}), rules {d['rules']}, {where}; hand "
             f"{d['hand']}"]
    if s.get("plays"):
        lines.append(f"trick {s['trick']} led by seat {s['leader']}: "
                     + " | ".join(s["plays"]))
    if d["stopped"] == "forced":
        lines.append("one legal action: " + _action_text(d["best"]["action"]) + " (forced)")
        return lines
    q = d.get("question")
    if q:
        diff = format_estimate(q["yes_less_no"])
        verdict = q["answer"] if q["answer"] != "close" else \
            f"close ({q['options'][0]} and {q['options'][1]} within the noise)"
        lines.append(f"{q['question']}: {verdict} — best {q['options'][0]} "
                     f"({_action_text(q['yes'])}) less best {q['options'][1]} "
                     f"({_action_text(q['no'])}): {diff} levels")
    li = d["listing"]
    legal = "?" if li["legal"] is None else f"{li['legal']:,}"
    lines.append(f"play-outs: this seat {d['policy']}, others {d['others_policy']}; seed "
                 f"{d['seed']}; {d['deals']:,} deals (stopped: {d['stopped']}, precision "
                 f"{d['precision']:g}); {li['valued']} actions valued of {legal} legal"
                 + ("" if li["complete"] else f" ({li['how']})"))
    lines.append("value: levels gained by the seat's team less the other team's, per hand, "
                 "95% CIs")
    return lines + ranked_lines(d, lambda a: _action_text(a["action"]), 34)


def cut(record: Any, at: int) -> dict[str, Any]:
    """``record`` stopped after its first ``at`` actions (ValueError past its end)."""
    if not isinstance(record, dict) or not isinstance(record.get("actions"), list):
        raise ValueError("a record is a JSON object with \"actions\"")
    n = len(record["actions"])
    if not 0 <= at <= n:
        raise ValueError(f"--at {at}: the record has {n} actions")
    out = dict(record)
    out["actions"] = record["actions"][:at]
    if at < n:
        out.pop("result", None)
    return out


def appended(record: dict[str, Any], entry: dict[str, Any]) -> dict[str, Any]:
    """``record`` with ``entry`` appended to its actions (replayable)."""
    out = dict(record)
    out["actions"] = list(record.get("actions", [])) + [dict(entry)]
    out.pop("result", None)
    return out


__all__ = ["DEFAULT_OPPONENTS", "DEFAULT_POLICY", "DEFAULT_PRECISION", "DEFAULT_SAMPLES",
           "MAX_VALUED", "NotValued",
           "THRESHOLDS", "UNIT", "Advice", "ActionValue", "advice_lines", "advise",
           "appended", "cut", "decision_kind", "listing_of", "record_of"]
