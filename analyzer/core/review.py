"""The review of a whole hand, for any game: every decision beside the advised one.

A record is replayed through the game's engine; at each decision of the reviewed seats the
game's ``advise`` part values every legal action on paired play-outs (the acting seat's
hidden cards dealt anew, consistent with what it knew). The **loss** of a decision is the
paired difference best − taken with its 95% CI and n; a decision whose loss is surely
above a threshold is labelled ``inaccuracy``, ``mistake`` or ``blunder`` (the game states
its thresholds, in its own units). "Surely" is a simultaneous bound: the best is the
highest of ``k`` noisy estimates, so the loss's lower end ``low_all`` widens its half-width
to a Bonferroni bound over the ``k − 1`` gaps (z for 0.025 / (k − 1)), lest the largest of
many noisy gaps be taken for a mistake. Forced
decisions (one legal action, or one group of equivalent ones) are skipped and counted.

The game's ``advise`` module supplies :class:`Advisor`'s parts (``advise_record``, the
advice where a record stops, ``decision_kind``, ``THRESHOLDS`` and ``UNIT``); every figure
is seeded: decision *k* of a record draws its play-outs from
``SeedSequence(seed).spawn(...)[k]``.
"""

from __future__ import annotations

import math
import secrets
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Any, Protocol

import numpy as np

from . import completion
from .game import NotListed
from .registry import Game
from .stats import Z95

LABELS = ("inaccuracy", "mistake", "blunder")  # mildest first
Progress = Callable[[int, int], None]


class Advisor(Protocol):
    """What a game's ``advise`` module offers the review."""

    THRESHOLDS: dict[str, float]  # label -> loss (returns units) the CI's low end must reach
    UNIT: str  # the unit of returns: "points", "levels"

    def advise_record(self, record: Any, **options: Any) -> Any:
        """The ranked actions where ``record`` stops (``.to_json()``: ``actions`` best
        first, each ``{"action", "group", "ev", "ci95", "n", "diff"}``, and ``separated``)."""

    def decision_kind(self, state: Any, action: Any) -> str:
        """What kind of decision ``action`` answers at ``state`` (lead, answer …)."""


def label_of(loss: dict[str, float], thresholds: dict[str, float]) -> str | None:
    """The label of a loss whose CI's lower end reaches a threshold (the largest such).

    >>> th = {"inaccuracy": 0.5, "mistake": 1.5, "blunder": 4.0}
    >>> label_of({"low": 2.0}, th), label_of({"low": 0.2}, th), label_of({"low": 9}, th)
    ('mistake', None, 'blunder')
    """
    found = None
    for name in LABELS:
        if loss["low"] >= thresholds[name]:
            found = name
    return found


def simultaneous_low(loss: dict[str, float], k: int) -> float:
    """The lower end of a loss when the best was picked among ``k`` actions: the half-width
    of its 95% CI widened to a Bonferroni bound over the ``k − 1`` gaps.

    >>> round(simultaneous_low({"value": 0.2, "low": 0.1, "high": 0.3}, 2), 3)
    0.1
    >>> round(simultaneous_low({"value": 0.2, "low": 0.1, "high": 0.3}, 41), 3)
    0.035
    """
    if k <= 2:
        return loss["low"]
    z = NormalDist().inv_cdf(1 - 0.025 / (k - 1))
    return loss["value"] - _half(loss) * z / Z95


def _half(e: dict[str, float]) -> float:
    return (e["high"] - e["low"]) / 2


def total_of(losses: Iterable[dict[str, float]]) -> dict[str, float]:
    """The sum of decisions' losses; its 95% CI adds their variances (normal approximation,
    each decision's play-outs drawn from its own stream); n: decisions."""
    losses = list(losses)
    value = float(sum(x["value"] for x in losses))
    half = math.sqrt(sum(_half(x) ** 2 for x in losses))
    return {"value": value, "low": value - half, "high": value + half, "n": len(losses)}


def mean_of(losses: Iterable[dict[str, float]]) -> dict[str, float]:
    """The mean loss per decision, its CI from :func:`total_of` (NaN with no decision)."""
    losses = list(losses)
    if not losses:
        return {"value": math.nan, "low": math.nan, "high": math.nan, "n": 0}
    t = total_of(losses)
    k = len(losses)
    return {"value": t["value"] / k, "low": t["low"] / k, "high": t["high"] / k, "n": k}


def _entry_matches(row: dict[str, Any], entry: dict[str, Any]) -> bool:
    return entry == row["action"] or entry in row.get("group", ())


def _is_forced(state: Any) -> bool:
    try:
        return len(state.legal_actions()) < 2
    except NotListed:
        return False


@dataclass
class Review:
    """A reviewed record: one row per decision of the reviewed seats, and their summary."""

    game: str
    rules: str
    seed: int
    unit: str
    thresholds: dict[str, float]
    seats: list[int]
    rows: list[dict[str, Any]] = field(default_factory=list)
    advice_options: dict[str, Any] = field(default_factory=dict)
    hidden: str = "every hand known"

    def summary(self) -> dict[str, Any]:
        """Per seat: decisions reviewed and forced, total and mean loss with CIs, the three
        costliest decisions (by estimated loss)."""
        out = {}
        for seat in self.seats:
            mine = [r for r in self.rows if r["seat"] == seat]
            valued = [r for r in mine if not r["forced"]]
            worst = sorted(valued, key=lambda r: -r["loss"]["value"])[:3]
            out[str(seat)] = {
                "decisions": len(mine), "reviewed": len(valued),
                "forced": len(mine) - len(valued),
                "total_loss": total_of(r["loss"] for r in valued),
                "mean_loss": mean_of(r["loss"] for r in valued),
                "labels": {lab: sum(r["label"] == lab for r in valued) for lab in LABELS},
                "worst": [r["index"] for r in worst]}
        return out

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "rules": self.rules, "seed": self.seed, "unit": self.unit,
                "thresholds": self.thresholds, "seats": self.seats, "hidden": self.hidden,
                "advice": self.advice_options, "summary": self.summary(), "rows": self.rows}


def decision_seeds(seed: int, n: int) -> list[int]:
    """The seeds of a record's ``n`` actions' advice, spawned from ``SeedSequence(seed)``."""
    return [int(c.generate_state(1, dtype=np.uint64)[0] >> np.uint64(1))
            for c in np.random.SeedSequence(seed).spawn(n)]


def advisor_of(game: Game) -> Any:
    """The game's ``advise`` part (ValueError if the game has none yet)."""
    try:
        return game.part("advise")
    except ModuleNotFoundError as e:
        if e.name != f"{game.package}.advise":
            raise
        raise ValueError(f"{game.name} has no advice on a decision yet, so no review") from None


def review(game: Game, record: Any, seats: Iterable[int] | None = None, *,
           seed: int | None = None, progress: Progress | None = None,
           **advice: Any) -> Review:
    """Review ``record`` (a whole or partial hand) for ``seats`` (default every seat whose
    hand the record knows); ``advice`` goes to the game's ``advise`` (precision, samples,
    policy …). Hands the record does not know (``"?"``) are first dealt at random to fit
    the play (the game's ``records.complete``, seeded by ``seed``); the advice at each
    decision deals the acting seat's hidden cards anew from its own view, so what that
    deal gave the others does not reach it. ValueError on a bad record or seat."""
    recs, adv = game.part("records"), advisor_of(game)
    facts = game.facts
    seed = secrets.randbits(63) if seed is None else int(seed)
    known = completion.known_flags(record, facts.n_seats) if isinstance(record, dict) else \
        [True] * facts.n_seats
    given = record
    record = recs.complete(record, seed)  # the unknown hands dealt to fit the play, seeded
    final = recs.replay(record)
    chosen = sorted(set(range(facts.n_seats) if seats is None else seats))
    for s in chosen:
        if s not in range(facts.n_seats):
            raise ValueError(f"no seat {s} (seats 0..{facts.n_seats - 1})")
    if seats is None:
        chosen = [s for s in chosen if known[s]]
    unknown = [s for s in chosen if not known[s]]
    if unknown:
        raise ValueError(f"the record does not know the hand of seat {unknown[0]}: only a "
                         f"seat whose own cards are known can be reviewed")
    history = final.history
    seeds = decision_seeds(seed, len(history))
    out = Review(game.name, final.rules.name, seed, adv.UNIT, dict(adv.THRESHOLDS), chosen,
                 advice_options={k: v for k, v in advice.items() if v is not None},
                 hidden=("every hand known" if all(known) else
                         completion.unknown_note(seed) if record is not given else
                         "hands not in the record were dealt to fit every public fact; each "
                         "decision's advice deals the acting seat's hidden cards anew"))
    todo = [i for i, (s, _) in enumerate(history) if s in chosen]
    state = recs.start_of(record)
    done = 0
    if progress:
        progress(0, len(todo))
    for i, (seat, action) in enumerate(history):
        if seat in chosen:
            out.rows.append(_row(recs, adv, state, i, seat, action, seeds[i], advice))
            done += 1
            if progress:
                progress(done, len(todo))
        state.apply(action)
    return out


def _row(recs: Any, adv: Any, state: Any, index: int, seat: int, action: Any, seed: int,
         advice: dict[str, Any]) -> dict[str, Any]:
    entry = recs.action_to_json(seat, action)
    row: dict[str, Any] = {"index": index, "seat": seat, "kind": adv.decision_kind(state, action),
                           "taken": entry, "forced": _is_forced(state)}
    if row["forced"]:
        return row
    result = adv.advise_record(recs.record_of(state), seed=seed, taken=entry,
                               **{k: v for k, v in advice.items() if v is not None}).to_json()
    ranked = result["actions"]
    mine = next((r for r in ranked if _entry_matches(r, entry)), None)
    if mine is None:
        raise ValueError(f"action {index} ({entry}) is not among the advised actions")
    if len(ranked) < 2:
        row["forced"] = True  # every legal action is equivalent to the one taken
        return row
    best = ranked[0]
    d = mine["diff"]
    if d["value"] == d["low"] == d["high"] == 0:
        best = mine  # as good as the leader on every paired deal: a best action too
    loss = dict(d) if mine is not best else \
        {"value": 0.0, "low": 0.0, "high": 0.0, "n": best["n"]}
    low_all = simultaneous_low(loss, len(ranked)) if mine is not best else 0.0
    row.update(best=best["action"], best_ev=_ev(best), taken_ev=_ev(mine), loss=loss,
               loss_low_all=low_all,
               label=label_of({"low": low_all}, adv.THRESHOLDS),
               separated=bool(result["separated"]),
               rank=1 if mine is best else ranked.index(mine) + 1, choices=len(ranked))
    return row


def _ev(row: dict[str, Any]) -> dict[str, float]:
    return {"value": row["ev"], "low": row["ci95"][0], "high": row["ci95"][1], "n": row["n"]}


def by_kind(reviews: Iterable[Review]) -> list[dict[str, Any]]:
    """Which kinds of decision cost the most, over many reviews: per kind, the decisions
    valued, the mean loss with its 95% CI (over decisions: the spread of their losses) and
    the total; costliest mean first."""
    losses: dict[str, list[float]] = {}
    for rv in reviews:
        for r in rv.rows:
            if not r["forced"]:
                losses.setdefault(r["kind"], []).append(r["loss"]["value"])
    out = []
    for kind, xs in losses.items():
        mean = _spread(xs)
        out.append({"kind": kind, "decisions": mean["n"], "total": float(sum(xs)),
                    "mean": mean})
    return sorted(out, key=lambda d: -d["mean"]["value"])


def entry_text(entry: dict[str, Any]) -> str:
    """A record entry in words: its kind, then its cards or tile (and end)."""
    parts = [str(entry.get("action", "?"))]
    for key in ("cards", "tile"):
        if entry.get(key):
            parts.append(str(entry[key]))
    if "end" in entry:
        parts.append(f"@{entry['end']}")
    return " ".join(parts)


def _est(e: dict[str, float], digits: int = 2) -> str:
    return (f"{e['value']:+.{digits}f} [{e['low']:+.{digits}f}, {e['high']:+.{digits}f}] "
            f"(n={e['n']:,})")


def _pad(text: str, width: int) -> str:
    """``text`` padded to ``width`` columns of a terminal (a wide character takes two).

    >>> _pad("中", 4) + "|", _pad("ab", 4) + "|"
    ('中  |', 'ab  |')
    """
    cols = sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)
    return text + " " * max(width - cols, 0)


def _short(e: dict[str, float]) -> str:
    """An estimate as value ± its 95% CI half-width (n)."""
    return f"{e['value']:+.2f} ±{_half(e):.2f} (n={e['n']:,})"


def thresholds_line(thresholds: dict[str, float], unit: str) -> str:
    """The labels' rule in words."""
    th = thresholds
    return (f"labels: a loss whose 95% CI, made simultaneous over the actions compared "
            f"(Bonferroni), lies above {th['inaccuracy']:g} {unit} is an inaccuracy, above "
            f"{th['mistake']:g} a mistake, above {th['blunder']:g} a blunder")


def _width(texts: Iterable[str], least: int = 22) -> int:
    """The terminal columns of the widest of ``texts``, at least ``least``."""
    return max([least, *(sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in t)
                         for t in texts)])


def text_lines(rv: Review, text: Callable[[dict[str, Any]], str] = entry_text) -> list[str]:
    """The review as a table: each decision (the action taken and its EV, the best and its
    EV, the loss with its 95% CI and the simultaneous bound its label rests on), then each
    seat's summary and the labels' rule. The action columns are as wide as their widest
    entry, so a long bury keeps the columns aligned."""
    valued = [r for r in rv.rows if not r["forced"]]
    wt = _width(text(r["taken"]) for r in rv.rows)
    wb = _width("= taken" if r["rank"] == 1 else text(r["best"]) for r in valued)
    lines = [f"review of {rv.game} ({rv.rules}), seat{'s' if len(rv.seats) > 1 else ''} "
             f"{', '.join(map(str, rv.seats))}; seed {rv.seed}; {rv.hidden}",
             f"EV: the acting seat's {rv.unit} per hand, ± 95% CI (n deals); loss = best − "
             f"taken on paired play-outs, 95% CI (n); surely ≥: the loss's lower bound made "
             f"simultaneous over the actions compared, which the label reads",
             f"  {'#':>3} {'seat':>4}  {'kind':<8} {_pad('taken', wt)} {'EV taken':<22} "
             f"{_pad('best', wb)} {'EV best':<22} {'loss':<32} {'surely ≥':<9} label"]
    for r in rv.rows:
        head = (f"  {r['index']:>3} {r['seat']:>4}  {_pad(r['kind'], 8)} "
                f"{_pad(text(r['taken']), wt)} ")
        if r["forced"]:
            lines.append(head + "(forced)")
            continue
        best = "= taken" if r["rank"] == 1 else text(r["best"])
        surely = "—" if r["rank"] == 1 else f"{r.get('loss_low_all', 0.0):+.2f}"
        lines.append(f"{head}{_short(r['taken_ev']):<22} {_pad(best, wb)} "
                     f"{_short(r['best_ev']):<22} {_est(r['loss']):<32} {surely:<9} "
                     f"{r['label'] or ''}".rstrip())
    lines.extend(summary_lines(rv))
    lines.append(thresholds_line(rv.thresholds, rv.unit))
    return lines


def summary_lines(rv: Review) -> list[str]:
    """Each reviewed seat's summary in one line."""
    out = []
    for seat, s in rv.summary().items():
        worst = ", ".join(f"#{i}" for i in s["worst"]) or "—"
        out.append(f"seat {seat}: {s['reviewed']} decisions reviewed, {s['forced']} forced "
                   f"skipped; total loss {_est(s['total_loss'])}; mean per decision "
                   f"{_est(s['mean_loss'], 3) if s['reviewed'] else '—'}; "
                   + ", ".join(f"{k} {v}" for k, v in s["labels"].items())
                   + f"; costliest {worst}")
    return out


def _spread(xs: list[float]) -> dict[str, float]:
    """The mean of ``xs`` with its 95% CI from their spread (normal approximation)."""
    a = np.asarray(xs, dtype=np.float64)
    if a.size == 0:
        return {"value": math.nan, "low": math.nan, "high": math.nan, "n": 0}
    m = float(a.mean())
    half = Z95 * float(a.std(ddof=1)) / math.sqrt(a.size) if a.size > 1 else math.inf
    return {"value": m, "low": m - half, "high": m + half, "n": int(a.size)}


def by_seat(reviews: Iterable[Review]) -> list[dict[str, Any]]:
    """Per seat over many reviews: records, decisions reviewed and forced, the mean loss per
    decision and per record (95% CIs over decisions and over records: their spread), and
    how many decisions got each label."""
    per: dict[int, dict[str, Any]] = {}
    for rv in reviews:
        for seat in rv.seats:
            d = per.setdefault(seat, {"losses": [], "totals": [], "forced": 0,
                                      "labels": dict.fromkeys(LABELS, 0)})
            valued = [r for r in rv.rows if r["seat"] == seat and not r["forced"]]
            d["forced"] += sum(1 for r in rv.rows if r["seat"] == seat and r["forced"])
            d["losses"].extend(r["loss"]["value"] for r in valued)
            d["totals"].append(sum(r["loss"]["value"] for r in valued))
            for r in valued:
                if r["label"]:
                    d["labels"][r["label"]] += 1
    return [{"seat": seat, "records": len(d["totals"]), "reviewed": len(d["losses"]),
             "forced": d["forced"], "mean_per_decision": _spread(d["losses"]),
             "mean_per_record": _spread(d["totals"]), "labels": d["labels"]}
            for seat, d in sorted(per.items())]


def many_json(reviews: list[Review]) -> dict[str, Any]:
    """Many reviews as JSON: the per-seat and per-kind summaries, then every review."""
    head = reviews[0] if reviews else None
    return {"game": head.game if head else None, "records": len(reviews),
            "unit": head.unit if head else None,
            "thresholds": head.thresholds if head else None,
            "seeds": [rv.seed for rv in reviews], "by_seat": by_seat(reviews),
            "by_kind": by_kind(reviews), "reviews": [rv.to_json() for rv in reviews]}


def many_lines(reviews: list[Review], seed: int) -> list[str]:
    """Many reviews as tables: per seat, then which kind of decision cost the most."""
    if not reviews:
        return ["no records"]
    head = reviews[0]
    rules = sorted({rv.rules for rv in reviews})
    lines = [f"review of {len(reviews)} {head.game} records ({', '.join(rules)}); seed {seed} "
             f"(record i: SeedSequence(seed) child i); loss = best − taken, {head.unit}, "
             f"95% CI over decisions or records (n)",
             f"  {'seat':>4} {'records':>7} {'reviewed':>8} {'forced':>6}  "
             f"{'mean loss per decision':<34} {'mean loss per record':<34} labels"]
    for d in by_seat(reviews):
        labels = ", ".join(f"{k} {v}" for k, v in d["labels"].items())
        lines.append(f"  {d['seat']:>4} {d['records']:>7} {d['reviewed']:>8} {d['forced']:>6}  "
                     f"{_est(d['mean_per_decision'], 3):<34} {_est(d['mean_per_record']):<34} "
                     f"{labels}")
    lines.append("by kind of decision, costliest mean first:")
    lines.append(f"  {'kind':<10} {'decisions':>9}  {'mean loss per decision':<34} total")
    for k in by_kind(reviews):
        lines.append(f"  {_pad(k['kind'], 10)} {k['decisions']:>9}  {_est(k['mean'], 3):<34} "
                     f"{k['total']:+.2f}")
    lines.append(thresholds_line(head.thresholds, head.unit))
    return lines


@dataclass(frozen=True)
class ReviewTask:
    """One record of a batch review, with its own seed (picklable for Dask workers)."""

    record: dict[str, Any]
    seats: tuple[int, ...] | None
    seed: int
    advice: tuple[tuple[str, Any], ...]

    def __call__(self) -> Review:
        from ..games import game_of_record

        return review(game_of_record(self.record), self.record, self.seats, seed=self.seed,
                      **dict(self.advice))


def review_many(records: list[dict[str, Any]], seats: Iterable[int] | None = None, *,
                seed: int = 0, backend: str = "local", scheduler: str | None = None,
                progress: Callable[[int], None] | None = None,
                **advice: Any) -> list[Review]:
    """Review every record (record *i* seeded by ``SeedSequence(seed).spawn(...)[i]``, so
    the numbers do not depend on the backend or the number of workers), in order."""
    seeds = decision_seeds(seed, len(records))
    chosen = None if seats is None else tuple(seats)
    tasks = [ReviewTask(r, chosen, s, tuple(sorted(advice.items())))
             for r, s in zip(records, seeds)]
    from .runner import map_tasks

    return map_tasks(tasks, backend, scheduler, progress)
