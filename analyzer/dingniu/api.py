"""The 顶牛 commands as Python functions: each checks its input and returns plain data
(JSON-ready); the command line only parses and prints.

Every estimate in the returned data is ``{"value", "low", "high", "n"}`` (a 95% CI and its
sample size); ``simulate``, ``tournament`` and ``odds`` start with ``game``, ``rules``,
``seed`` and their sample size.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

from .rules import get_rules


def simulate(n_hands: int, rules: str | None = None, policies: str = "heuristic", seed: int = 0,
             out: str | None = None, fmt: str = "table", backend: str = "local",
             scheduler: str | None = None, resume: bool = False, records: str | None = None,
             progress=None) -> str | bytes:
    """``xianniu dingniu simulate``: play hands in the kernels through the batch runner and
    return the summary rendered in ``fmt`` (written whole to ``out`` when given)."""
    from ..core.batchrun import simulate_run
    from ..core.runner import RunSpec

    spec = RunSpec("dingniu", n_hands, get_rules(rules).name, policies, seed)
    return simulate_run(spec, out, fmt, backend, scheduler, resume, records, progress)[1]


def odds(n_deals: int = 200_000, seed: int = 0, rules: str | None = None) -> dict[str, Any]:
    """``xianniu dingniu odds``: P(feature) of the 头牌's hand, exact and Monte Carlo."""
    from .odds import odds as run

    return run(n_deals, seed, rules)


def tournament(policies: str = "heuristic,random", n_deals: int = 20_000, seed: int = 0,
               rules: str | None = None, pimc_samples: int | None = None,
               pimc_leaf: int | None = None) -> dict[str, Any]:
    """``xianniu dingniu tournament``: two policies in duplicate over ``n_deals`` deals."""
    from .tournament import tournament as run

    return run(policies, n_deals, seed, rules, pimc_samples, pimc_leaf).as_dict()



def best_response(n_deals: int = 2_000, seed: int = 0, rules: str | None = None,
                  player: str = "heuristic", responder: str = "pimc",
                  pimc_samples: int | None = None, pimc_leaf: int | None = None
                  ) -> dict[str, Any]:
    """``xianniu dingniu best-response``: ``responder`` alone in each seat against
    ``player``, less ``player`` there, on the same deals (:mod:`analyzer.core.exploit`): a
    lower bound, in points a hand, on how much ``player`` can be exploited."""
    from .tournament import best_response as run

    return run(n_deals, seed, rules, player, responder, pimc_samples, pimc_leaf).as_dict()

def advise(position: Any = None, hand: str | None = None, history: str | None = None,
           samples: int = 400, seed: int = 0, solve_samples: int | None = None,
           rules: str | None = None, file: str | None = None) -> dict[str, Any]:
    """``xianniu dingniu advise``: rank the legal plays of a position, given as a
    position (a dict, as in a position file), a position ``file`` (``-``: standard input)
    or ``hand`` with ``history``."""
    from ..core.fileio import read_json
    from .advise import advise as run

    given = (position is not None) + (file is not None) + (hand is not None)
    if given == 0:
        raise ValueError("give the position: a position file (or - for standard input), or "
                         "--hand with --history")
    if given > 1:
        raise ValueError("give a position file (or -) or --hand with --history, not both")
    if hand is None and history is not None:
        raise ValueError("--history goes with --hand, not with a position file")
    if file is not None:
        position = read_json(file)
    elif hand is not None:
        position = {"hand": hand, "history": history or ""}
    return run(position, samples, seed, solve_samples, rules)


def replay_record(record: Any, rules: str | None = None) -> dict[str, Any]:
    """``xianniu dingniu replay``: check a record move by move (under ``rules`` when given);
    the log and, if the hand is over, the counts and points."""
    from .records import replay

    st = replay(record, rules=rules)
    over = st.is_terminal()
    return {"game": "dingniu", "rules": st.rules.name, "log": st.describe(), "over": over,
            "end": st.end_reason, "suan_seat": st.suan_seat if over else None,
            "totals": st.totals() if over else None, "points": st.returns() if over else None,
            "to_act": st.current_player()}


def solve_record(record: Any, rules: str | None = None) -> dict[str, Any]:
    """``xianniu dingniu solve``: max-n values, all hands open, of a record's position
    (under ``rules`` when given)."""
    from .records import replay
    from .solver import solve
    from .tiles import format_action

    st = replay(record, rules=rules)
    t0 = time.perf_counter()
    sol = solve(st)
    return {"game": "dingniu", "rules": st.rules.name, "values": list(sol.values),
            "best": format_action(sol.action), "to_act": st.current_player(),
            "positions": sol.positions, "seconds": time.perf_counter() - t0}


def review(record: Any, seats: Iterable[int] | None = None, *, seed: int = 0,
           samples: int = 400, progress: Callable[[int, int], None] | None = None):
    """``xianniu dingniu review``: every decision of ``seats`` (default every seat) in
    ``record`` beside the advised one (the advice on the position the seat saw, ``samples``
    hidden deals; decision *k* seeded by ``SeedSequence(seed)`` child *k*); an
    :class:`analyzer.core.review.Review` (``.to_json()`` is the command's JSON).
    ``progress(done, total)`` after each decision. ValueError on a bad record or seat."""
    from ..core.review import review as run
    from ..games import get_game

    return run(get_game("dingniu"), record, seats, seed=seed, progress=progress,
               samples=samples)


def review_many(records: list[Any], seats: Iterable[int] | None = None, *, seed: int = 0,
                samples: int = 400, backend: str = "local", scheduler: str | None = None,
                progress: Callable[[int], None] | None = None) -> list:
    """``xianniu dingniu review FOLDER`` (or a .jsonl file): :func:`review` of every record,
    record *i* seeded by ``SeedSequence(seed)`` child *i*, here or on Dask (``backend``);
    the same numbers either way. ``progress(1)`` after each record."""
    from ..core.review import review_many as run

    return run(records, seats, seed=seed, backend=backend, scheduler=scheduler,
               progress=progress, samples=samples)
