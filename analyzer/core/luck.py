"""Luck and skill: one seat's result of a hand split into the deal, the decisions and the lie
of the cards, in the game's unit, each with its 95% CI.

- **The deal** (发牌): what the seat's cards were worth when they were dealt, seen from the
  seat: its expected result under the game's default player in every seat (the game's
  ``luck.PLAYER``), over ``samples`` deals of the cards it could not see (redealt by the
  game's ``records.complete``), less the average seat's result on the same deals (the mean
  over the seats: 0 where the results sum to 0). The redealt hands are played whole in the
  kernels (``luck.deal_results``).
- **The decisions** (决策): minus the sum of the review's losses (best − taken, paired
  play-outs: :mod:`.review`) of the seat's decisions; 0 for perfect play, below 0 for
  points given away.
- **The lie of the cards** (牌运): the rest, result − deal − decisions; the three sum to the
  result exactly. Its CI adds the other two's variances (their samples are independent).

Every figure is seeded: hand ``h`` of the library uses ``SeedSequence([seed, digest])``, so
a hand's split does not depend on which other hands were split with it.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from typing import Any

import numpy as np

from .registry import Game
from .review import decision_seeds, review, total_of
from .stats import Z95, Estimate

DEFAULT_SAMPLES = 256  # redealt hands the deal's value is estimated on


@dataclass(frozen=True)
class Split:
    """One seat's result of one hand, split (module docstring)."""

    game: str
    seat: int
    unit: str
    player: str  # the default player (and xianniu's version) the parts are valued under
    result: int
    deal: Estimate
    decisions: Estimate
    lie: Estimate
    by_kind: dict[str, list[float]] = field(default_factory=dict)  # kind -> losses

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "seat": self.seat, "unit": self.unit, "player": self.player,
                "result": self.result, "deal": self.deal.as_dict(),
                "decisions": self.decisions.as_dict(), "lie": self.lie.as_dict(),
                "by_kind": self.by_kind}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Split:
        return cls(game=data["game"], seat=int(data["seat"]), unit=data["unit"],
                   player=data["player"], result=int(data["result"]),
                   deal=Estimate(**data["deal"]), decisions=Estimate(**data["decisions"]),
                   lie=Estimate(**data["lie"]),
                   by_kind={k: list(v) for k, v in data["by_kind"].items()})


def player_of(game: Game) -> str:
    """The player a split of ``game`` is valued under, stamped with xianniu's version: a
    split made under another is made again."""
    try:
        ours = version("xianniu")
    except PackageNotFoundError:  # run from a source tree
        ours = "source"
    return f"{game.part('luck').PLAYER}@{ours}"


def hand_seed(seed: int, digest: str) -> np.random.SeedSequence:
    """The seed of one hand's split: the root ``seed`` and the hand's digest."""
    words = [int(digest[i:i + 8], 16) for i in range(0, 32, 8)]
    return np.random.SeedSequence([int(seed), *words])


def children(seed: np.random.SeedSequence, n: int) -> list[np.random.SeedSequence]:
    """``seed``'s first ``n`` children, the same at every call (``spawn`` would move on)."""
    return [np.random.SeedSequence(seed.entropy, spawn_key=(*seed.spawn_key, i))
            for i in range(n)]


def redealt(game: Game, record: dict[str, Any], seat: int, n: int,
            seed: np.random.SeedSequence) -> list[dict[str, Any]]:
    """``n`` records of the hand's deal as ``seat`` saw it (the deal it played: the game's
    ``luck.deal_of``): its own hand as dealt, the others and the game's other hidden deal
    fields (``luck.HIDDEN``) dealt anew, no action taken."""
    recs, part = game.part("records"), game.part("luck")
    dealt = part.deal_of(record)
    bare = {k: v for k, v in dealt.items() if k not in ("actions", "result", "known")}
    bare["hands"] = [h if i == seat else "?" for i, h in enumerate(dealt["hands"])]
    for name in part.HIDDEN:
        bare[name] = "?"
    bare["actions"] = []
    seeds = decision_seeds(int(seed.generate_state(1, dtype=np.uint64)[0] >> np.uint64(1)), n)
    return [recs.complete(bare, s) for s in seeds]


def deal_value(game: Game, record: dict[str, Any], seat: int, n: int,
               seed: np.random.SeedSequence) -> Estimate:
    """The seat's expected result at the deal less the average seat's (module docstring)."""
    deal_seed, play_seed = children(seed, 2)
    hands = redealt(game, record, seat, n, deal_seed)
    results = np.asarray(game.part("luck").deal_results(
        hands, int(play_seed.generate_state(1, dtype=np.uint64)[0] >> np.uint64(1))),
        dtype=np.float64)
    x = results[:, seat] - results.mean(axis=1)
    m = float(x.mean())
    half = Z95 * float(x.std(ddof=1)) / math.sqrt(n) if n > 1 else math.inf
    return Estimate(m, m - half, m + half, n)


def split_hand(game: Game, record: dict[str, Any], seat: int, *, digest: str, seed: int = 0,
               deal_samples: int = DEFAULT_SAMPLES, **advice: Any) -> Split:
    """The split of ``seat``'s result of the whole hand ``record``: its deal valued on
    ``deal_samples`` redealt hands, ``advice`` the review's options."""
    recs = game.part("records")
    final = recs.replay(recs.complete(record, 0), require_end=True)
    result = int(final.returns()[seat])
    deal_seed, review_seed = children(hand_seed(seed, digest), 2)
    deal = deal_value(game, record, seat, deal_samples, deal_seed)
    rv = review(game, record, [seat],
                seed=int(review_seed.generate_state(1, dtype=np.uint64)[0] >> np.uint64(1)),
                **advice)
    valued = [r for r in rv.rows if not r["forced"]]
    total = total_of(r["loss"] for r in valued)
    decisions = Estimate(-total["value"], -total["high"], -total["low"], int(total["n"]))
    lie_value = result - deal.value - decisions.value
    half = math.sqrt(((deal.high - deal.low) / 2) ** 2
                     + ((decisions.high - decisions.low) / 2) ** 2)
    lie = Estimate(lie_value, lie_value - half, lie_value + half, deal.n)
    by_kind: dict[str, list[float]] = {}
    for r in valued:
        by_kind.setdefault(r["kind"], []).append(float(r["loss"]["value"]))
    return Split(game.name, seat, rv.unit, player_of(game), result, deal, decisions, lie,
                 by_kind)


def mean_parts(splits: list[Split]) -> dict[str, Estimate]:
    """Over many hands: the mean a hand of the result and of each part, with its 95% CI from
    the spread over the hands (n: hands)."""
    out = {}
    for part in ("result", "deal", "decisions", "lie"):
        xs = np.array([s.result if part == "result" else getattr(s, part).value
                       for s in splits], dtype=np.float64)
        n = len(xs)
        m = float(xs.mean()) if n else math.nan
        half = Z95 * float(xs.std(ddof=1)) / math.sqrt(n) if n > 1 else math.inf
        out[part] = Estimate(m, m - half, m + half, n)
    return out


def losses_by_kind(splits: list[Split]) -> dict[str, Estimate]:
    """Over many hands: per kind of decision, the mean loss a decision with its 95% CI (n:
    decisions), costliest first."""
    pooled: dict[str, list[float]] = {}
    for s in splits:
        for kind, xs in s.by_kind.items():
            pooled.setdefault(kind, []).extend(xs)
    out = {}
    for kind, xs in pooled.items():
        a = np.asarray(xs, dtype=np.float64)
        m = float(a.mean())
        half = Z95 * float(a.std(ddof=1)) / math.sqrt(a.size) if a.size > 1 else math.inf
        out[kind] = Estimate(m, m - half, m + half, int(a.size))
    return dict(sorted(out.items(), key=lambda kv: -kv[1].value))


def split_library(lib: Any, which: Any, *, seed: int = 0,
                  deal_samples: int = DEFAULT_SAMPLES, progress: Any = None,
                  backend: str = "local", scheduler: str | None = None,
                  **advice: Any) -> tuple[list[tuple[Any, Split]], int]:
    """The split of every hand of ``lib`` that ``which`` (a library Filter) selects and whose
    seat is known: read where the library keeps it (same player, seed and seat), else made
    (here, or as Dask tasks: ``backend``, ``scheduler``) and kept as each is done, so that a
    run stopped midway keeps what it finished. Returns the (hand, split) pairs in the order
    played, and how many hands were left out for want of a seat."""
    from ..games import get_game  # the registry: each game's parts on first use
    from .runner import map_tasks

    hands = lib.hands(which)
    mine = [h for h in hands if h.seat is not None]
    if progress is not None:
        progress.expect(len(mine))
    players = {name: player_of(get_game(name)) for name in {h.game for h in mine}}
    splits: dict[int, Split] = {}
    todo = []
    for h in mine:
        kept = lib.split_of(h.id, h.seat, players[h.game], seed)
        if kept is not None:
            splits[h.id] = Split.from_json(kept)
            if progress is not None:
                progress(1)
        else:
            todo.append(h)

    def keep(i: int, split: Split) -> None:
        h = todo[i]
        lib.store_split(h.id, h.seat, players[h.game], seed, split.to_json())
        splits[h.id] = split

    tasks = [functools.partial(split_hand, get_game(h.game), lib.record(h.id), h.seat,
                               digest=lib.digest(h.id), seed=seed, deal_samples=deal_samples,
                               **advice) for h in todo]
    map_tasks(tasks, backend, scheduler, progress=progress, finished=keep)
    return [(h, splits[h.id]) for h in mine], len(hands) - len(mine)


def weekly(pairs: list[tuple[Any, Split]]) -> list[dict[str, Any]]:
    """Per ISO week played (``2026-W49``): the mean a hand of the result and each part, with
    95% CIs (n: hands)."""
    import datetime as dt

    weeks: dict[str, list[Split]] = {}
    for h, s in pairs:
        year, week, _ = dt.date.fromisoformat(h.played[:10]).isocalendar()
        weeks.setdefault(f"{year}-W{week:02d}", []).append(s)
    return [{"week": w, **{k: v.as_dict() for k, v in mean_parts(ss).items()}}
            for w, ss in sorted(weeks.items())]
