"""The Python face of the 掀牛 commands: each checks its input and returns data (JSON-ready
where the command prints JSON); the command line only parses and prints.

Every estimate in the returned data is ``{"value", "low", "high", "n"}`` (a 95% CI and its
sample size), and the results of ``tournament``, ``odds`` and ``stats`` start with ``game``,
``rules``, ``seed`` and their sample size.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import Any

from .cards import N_SEATS, count, format_cards, parse_mask
from .combos import Play, beats, classify
from .defaults import ADVICE_OPPONENTS, ADVICE_POLICY, DECISION_BUDGET, DECISION_POLICY
from .describe import action_text, beat_verdict, play_info, settlement_json
from .records import replay, start_of
from .rules import Rules, get_rules
from .scoring import Settlement, settle


def classify_cards(cards: str, rules: str | Rules | None = None) -> dict[str, Any]:
    """Kind, size and strength of the play ``cards`` make; ValueError if none."""
    r = get_rules(rules)
    return play_info(classify(parse_mask(cards), r), r)


def _two_plays(top: str, challenger: str, r: Rules) -> tuple[Play, Play]:
    t, c = parse_mask(top), parse_mask(challenger)
    if t & c:
        raise ValueError(f"TOP and CHALLENGER share {format_cards(t & c)}")
    try:
        top_play = classify(t, r)
    except ValueError as e:
        raise ValueError(f"TOP: {e}") from None
    try:
        ch_play = classify(c, r)
    except ValueError as e:
        raise ValueError(f"CHALLENGER: {e}") from None
    return top_play, ch_play


def beat_check(top: str, challenger: str, rules: str | Rules | None = None) -> dict[str, Any]:
    """``xianniu beats``: may ``challenger`` beat ``top``, and the reason in words, with
    both plays described as by :func:`classify_cards`."""
    r = get_rules(rules)
    top_play, ch_play = _two_plays(top, challenger, r)
    _, reason = beat_verdict(top_play, ch_play, r)
    return {"rules": r.name, "beats": beats(top_play, ch_play, r), "reason": reason,
            "top": play_info(top_play, r), "challenger": play_info(ch_play, r)}


def score_hand(data: Any, rules: str | Rules | None = None) -> Settlement:
    """Settle a finished hand given as ``{"rules", "captured", "xian"}``.

    ``rules`` overrides the one in ``data``.
    """
    if not isinstance(data, dict):
        raise ValueError("the score input must be a JSON object with \"captured\" and \"xian\"")
    r = get_rules(rules if rules is not None else data.get("rules"))
    captured = data.get("captured")
    if not isinstance(captured, list) or len(captured) != N_SEATS:
        raise ValueError("\"captured\" must list the captured plays of the three seats")
    seen = 0
    plays: list[list[Play]] = []
    for seat, seat_plays in enumerate(captured):
        if not isinstance(seat_plays, list):
            raise ValueError(f"captured plays of seat {seat} must be a list of card strings")
        plays.append([])
        for j, text in enumerate(seat_plays):
            if not isinstance(text, str):
                raise ValueError(f"seat {seat} play {j}: expected a string of cards, got {text!r}")
            try:
                play = classify(parse_mask(text), r)
            except ValueError as e:
                raise ValueError(f"seat {seat} play {j}: {e}") from None
            if seen & play.mask:
                raise ValueError(f"seat {seat} play {j}: {format_cards(seen & play.mask)} "
                                 f"already captured in another play")
            seen |= play.mask
            plays[-1].append(play)
    if count(seen) > r.table_cap:
        raise ValueError(f"{count(seen)} cards captured; the table holds at most {r.table_cap}")
    xian = data.get("xian", [])
    if not isinstance(xian, list):
        raise ValueError("\"xian\" must be a list of [x, t] seat pairs")
    events = []
    for i, ev in enumerate(xian):
        if (not isinstance(ev, list) or len(ev) != 2
                or not all(isinstance(s, int) and not isinstance(s, bool) for s in ev)):
            raise ValueError(f"xian event {i}: expected [x, t] with seats 0-2, got {ev!r}")
        events.append((ev[0], ev[1]))
    return settle(plays, events, r)


def replay_record(record: Any) -> dict[str, Any]:
    """Check a game record move by move; the log, captured plays and (if over) the scores."""
    state = replay(record)
    shadow = start_of(record)
    log = []
    for seat, action in state.history:
        log.append(action_text(shadow, seat, action))
        shadow.apply(action)
    out: dict[str, Any] = {
        "rules": state.rules.name,
        "banker": state.banker,
        "log": log,
        "captured": [[format_cards(p.mask) for p in plays] for plays in state.captured],
        "xian": [list(e) for e in state.xian_events],
        "over": state.is_terminal(),
        "end": state.end_reason,
    }
    if state.is_terminal():
        out["settlement"] = settlement_json(state.settlement())
    else:
        out["to_act"] = state.current_player()
    return out


def solve_record(record: Any, rules: str | None = None, engine: str = "kernel",
                 max_positions: int = 50_000_000) -> dict[str, Any]:
    """``xianniu solve``: max-n values, all hands open, of a record's position (under
    ``rules`` when given) by the jit-compiled solver (``engine`` "kernel", giving up after
    ``max_positions`` searched positions) or the pure-Python one over the reference engine
    ("reference"; same values and action, slower); ValueError if the record is bad, the
    hand is over or the position too big."""
    import time

    from .solver import solve, solve_kernel

    if engine not in ("kernel", "reference"):
        raise ValueError(f"unknown solver engine {engine!r} (kernel or reference)")
    if max_positions < 1:
        raise ValueError(f"--max-positions must be at least 1, got {max_positions}")

    if rules is not None and isinstance(record, dict):
        record = {**record, "rules": get_rules(rules).name}
    state = replay(record)
    if state.is_terminal():
        raise ValueError(f"the hand is over ({state.end_reason}): nothing to solve")
    t0 = time.perf_counter()
    sol = solve_kernel(state, None, max_positions) if engine == "kernel" else solve(state)
    seconds = time.perf_counter() - t0
    seat = state.current_player()
    return {"game": "xianniu", "rules": state.rules.name, "engine": engine, "to_act": seat,
            "values": list(sol.values), "best": str(sol.action),
            "best_text": action_text(state, seat, sol.action),
            "best_action": _action_entry(seat, sol.action), "positions": sol.positions,
            "seconds": seconds, "table": state.table_count(),
            "cards_left": [count(h) for h in state.hands]}


def _action_entry(seat: int, action: Any) -> dict[str, Any]:
    """An action as a record entry (what ``xianniu replay`` reads)."""
    from .records import action_to_json

    return action_to_json(seat, action)


def simulate(n_hands: int, rules: str | None = None, policies: str = "heuristic", seed: int = 0,
             out: str | None = None, fmt: str = "table", backend: str = "local",
             scheduler: str | None = None, resume: bool = False, records: str | None = None,
             engine: str = "kernel", progress=None) -> str | bytes:
    """``xianniu simulate``: play hands and return the summary rendered in ``fmt`` (written
    whole to ``out`` when given). ``engine="reference"`` plays random hands in the reference
    engine instead of the kernels (locally, without checkpoints or records); ``"kernels"``
    is the earlier name of ``"kernel"``."""
    from ..core.batchrun import render, simulate_run
    from ..core.fileio import write_atomic
    from ..core.runner import RunSpec

    r = get_rules(rules)
    engine = "kernel" if engine == "kernels" else engine
    if engine == "reference":
        from .reference_sim import random_hands
        from .result import Result

        if policies != "random" or backend != "local" or resume or records:
            raise ValueError("the reference engine plays random hands locally only: give "
                             "--policy random and no --backend, --resume or --records")
        agg = Result.from_frame(random_hands(n_hands, r.name, seed, progress=progress))
        agg.meta["game"] = "xianniu"
        data = render(agg, fmt)
        if out:
            write_atomic(out, data)
        return data
    if engine != "kernel":
        raise ValueError(f"unknown engine {engine!r} (choose kernel or reference)")
    spec = RunSpec("xianniu", n_hands, r.name, policies, seed)
    return simulate_run(spec, out, fmt, backend, scheduler, resume, records, progress)[1]


def parse_heuristic_params(items: Iterable[str]) -> dict[str, Any]:
    """``LABEL=FILE`` items as ``{"heuristic:LABEL": parameter vector}``."""
    from .tournament import load_heuristic_params

    params = {}
    for item in items:
        label, sep, path = item.partition("=")
        if not sep or not label or not path:
            raise ValueError(f"--heuristic-params: expected LABEL=FILE, got {item!r}")
        params[f"heuristic:{label}"] = load_heuristic_params(path)
    return params


def tournament(policies: str = "heuristic,random", n_deals: int = 20_000,
               rules: str | None = None, seed: int = 0, pimc_samples: int | None = None,
               heuristic_params: Iterable[str] | dict[str, Any] = (),
               progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """``xianniu tournament``: 2 or 3 policies in duplicate over ``n_deals`` deals.
    ``heuristic_params`` maps ``heuristic:LABEL`` to parameters, or lists ``LABEL=FILE``."""
    from .tournament import tournament as run

    params = (heuristic_params if isinstance(heuristic_params, dict)
              else parse_heuristic_params(heuristic_params))
    return run(policies, n_deals, rules, seed, heuristic_params=params,
               pimc_samples=pimc_samples, progress=progress).as_dict()



def best_response(n_deals: int = 1_000, rules: str | None = None, seed: int = 0,
                  player: str = ADVICE_OPPONENTS, responder: str = "pimc-net",
                  pimc_samples: int | None = None,
                  progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """``xianniu best-response``: ``responder`` alone in each seat against ``player``, less
    ``player`` there, on the same deals (:mod:`analyzer.core.exploit`): a lower bound, in
    points a hand, on how much ``player`` can be exploited."""
    from .tournament import best_response as run

    return run(n_deals, rules, seed, player, responder, pimc_samples, progress).as_dict()

def should_xian(hand: str | None = None, seat: int = 1, rules: str | None = None,
                policy: str = DECISION_POLICY, precision: float = 0.1, max_deals: int = 200_000,
                seed: int = 0, record: Any = None,
                progress: Callable[[int], None] | None = None,
                opponents: str = ADVICE_OPPONENTS, budget: int = DECISION_BUDGET
                ) -> dict[str, Any]:
    """``xianniu should-xian``: after a 扣, should ``hand`` (16 cards, answering from
    ``seat``) 掀 or 扣? Or, with ``record``, the seat where a partial record stops. The
    asking seat plays on with ``policy`` (``A,B,…``: each action valued by the best of them
    on the same deals; a pimc among them plays ``budget`` play-outs a decision), the others
    with ``opponents``."""
    from . import decision

    if record is not None and hand:
        raise ValueError("give HAND or --record, not both")
    if record is None and not hand:
        raise ValueError("give HAND (16 cards) or --record FILE")
    if record is not None:
        res = decision.should_xian_record(record, policy, precision, max_deals, seed,
                                          progress=progress, opponents=opponents,
                                          budget=budget)
    else:
        assert hand is not None  # given: checked above
        res = decision.should_xian(hand, seat, rules, policy, precision, max_deals, seed,
                                   progress=progress, opponents=opponents, budget=budget)
    return res.as_dict()


def should_kou(hand: str, rules: str | None = None, policy: str = DECISION_POLICY,
               precision: float = 0.1, max_deals: int = 200_000, seed: int = 0,
               progress: Callable[[int], None] | None = None,
               opponents: str = ADVICE_OPPONENTS, budget: int = DECISION_BUDGET
               ) -> dict[str, Any]:
    """``xianniu should-kou``: the banker holds ``hand`` at its first decision: 扣 or lead?"""
    from .decision import searched_first_decision
    from .decision import should_kou as ask

    if not hand:
        raise ValueError("give HAND (16 cards)")
    out = ask(hand, rules, policy, precision, max_deals, seed, progress=progress,
              opponents=opponents, budget=budget).as_dict()
    # advise plays one continuation: the first of ``policy``'s
    search_policy = policy.split(",")[0]
    out["searched"] = searched = searched_first_decision(hand, rules, search_policy, precision,
                                                         seed, opponents)
    if searched:
        searched["policy"] = search_policy
    if searched and searched["best_lead"]:
        # The policy's own lead against the best lead found (independent samples).
        own, best = out["ev_lead"], searched["best_lead"]["ev"]
        half = math.hypot((own["high"] - own["low"]) / 2, (best["high"] - best["low"]) / 2)
        gap = best["value"] - own["value"]
        out["best_lead_over_own"] = {"value": gap, "low": gap - half, "high": gap + half,
                                     "n": min(own["n"], best["n"])}
    return out


STATS = ("values", "xian", "banker")


def _est(row: Any, value: str, low: str, high: str, n: Any) -> dict[str, Any]:
    """A table row's flat estimate columns as ``{"value", "low", "high", "n"}``."""
    return {"value": float(row[value]), "low": float(row[low]), "high": float(row[high]),
            "n": int(n)}


def stats(what: str, n_deals: int = 20_000, rules: str | None = None,
          policies: str = "heuristic", seed: int = 0,
          progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """``xianniu stats``: pattern ``values`` (牛 喜 K 亮子), the ``xian`` EV of seat 1 after
    the banker's 扣, or the ``banker``'s advantage, from ``n_deals`` deals (``progress``: the
    deals finished, as they finish)."""
    if what not in STATS:
        raise ValueError(f"unknown statistic {what!r} (choose {', '.join(STATS)})")
    from .analysis import banker_advantage, pattern_values, xian_ev
    from .sim import simulate_aggregate

    r = get_rules(rules)
    if what == "banker":
        summary = simulate_aggregate(n_deals, r, policies, seed, progress=progress).summary()
        adv = banker_advantage(summary)
        return {"game": "xianniu", "rules": r.name, "seed": seed, "deals": int(n_deals),
                "policy": adv["policy"], "analysis": what,
                "banker_mean_points": adv["banker_mean_points"]}
    df = (pattern_values if what == "values" else xian_ev)(n_deals, r, policies, seed,
                                                            progress=progress)
    a = df.attrs
    head = {"game": "xianniu", "rules": a["rules"], "seed": a["seed"], "deals": a["deals"],
            "policy": a["policy"], "analysis": what}
    rows = df.to_dict("records")
    if what == "values":
        return {**head, "unit": a["unit"], "rows": [{
            "pattern": row["pattern"],
            "mean_with": _est(row, "mean_with", "with_ci_low", "with_ci_high", row["n_with"]),
            "mean_without": _est(row, "mean_without", "without_ci_low", "without_ci_high",
                                 row["n_without"]),
            "observed_diff": _est(row, "observed_diff", "obs_ci_low", "obs_ci_high",
                                  row["n_with"] + row["n_without"]),
            "counterfactual_diff": _est(row, "counterfactual_diff", "cf_ci_low", "cf_ci_high",
                                        row["cf_pairs"]),
            "cf_share_made": float(row["cf_share_made"])} for row in rows],
            "k_count": a["k_count"]}
    return {**head, "positions": a["positions"], "overall": a["overall"],
            "share_of_deals": a["share_of_deals"], "rows": [{
                "sure_cards": row["sure_cards"], "k_count": int(row["k_count"]),
                "ev_xian": _est(row, "ev_xian", "xian_ci_low", "xian_ci_high", row["n"]),
                "ev_kou": _est(row, "ev_kou", "kou_ci_low", "kou_ci_high", row["n"]),
                "diff": _est(row, "diff", "ci_low", "ci_high", row["n"])} for row in rows]}


def odds(rules: str | None = None, n_deals: int = 1_000_000, seed: int = 0) -> dict[str, Any]:
    """``xianniu odds``: exact odds of one seat's deal beside Monte Carlo estimates."""
    from .odds import odds as compute

    res = compute(rules, n_deals, seed)
    return {"game": "xianniu", "rules": res["rules"], "seed": seed, "deals": int(n_deals),
            "seat_cards": res["seat_cards"], "exact": res["exact"],
            "monte_carlo": res["monte_carlo"]}


def advise(record: Any, *, samples: int | None = None, precision: float = 0.1,
           policy: str = ADVICE_POLICY, seed: int | None = None,
           progress: Callable[[int, int], None] | None = None,
           opponents: str = ADVICE_OPPONENTS):
    """``xianniu advise``: every legal action where ``record`` stops, valued by paired
    play-outs on hidden deals that fit the public record; an
    :class:`analyzer.xianniu.advise.Advice` (``.to_json()`` is the command's JSON)."""
    from .advise import advise as run

    return run(record, samples=samples, precision=precision, policy=policy, seed=seed,
               progress=progress, opponents=opponents)


def legal_actions(record: Any) -> list[dict[str, Any]]:
    """The record-format actions open to the seat to act where ``record`` stops, in groups
    of equivalent ones (:func:`analyzer.xianniu.advise.legal_actions`)."""
    from .advise import legal_actions as run

    return run(record)


def review(record: Any, seats: Iterable[int] | None = None, *, seed: int = 0,
           samples: int | None = None, precision: float = 0.1, policy: str = ADVICE_POLICY,
           opponents: str = ADVICE_OPPONENTS,
           progress: Callable[[int, int], None] | None = None):
    """``xianniu review``: every decision of ``seats`` (default every seat) in ``record``
    beside the advised one (:func:`advise` at each decision, decision *k* seeded by
    ``SeedSequence(seed)`` child *k*); an :class:`analyzer.core.review.Review`
    (``.to_json()`` is the command's JSON). ``progress(done, total)`` after each decision.
    ValueError on a bad record or seat."""
    from ..core.review import review as run
    from ..games import get_game

    return run(get_game("xianniu"), record, seats, seed=seed, progress=progress,
               samples=samples, precision=precision, policy=policy, opponents=opponents)


def review_many(records: list[Any], seats: Iterable[int] | None = None, *, seed: int = 0,
                samples: int | None = None, precision: float = 0.1,
                policy: str = ADVICE_POLICY, opponents: str = ADVICE_OPPONENTS,
                backend: str = "local", scheduler: str | None = None,
                progress: Callable[[int], None] | None = None) -> list:
    """``xianniu review FOLDER`` (or a .jsonl file): :func:`review` of every record, record
    *i* seeded by ``SeedSequence(seed)`` child *i*, here or on Dask (``backend``); the
    same numbers either way. ``progress(1)`` after each record."""
    from ..core.review import review_many as run

    return run(records, seats, seed=seed, backend=backend, scheduler=scheduler,
               progress=progress, samples=samples, precision=precision, policy=policy,
               opponents=opponents)
