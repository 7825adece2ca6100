"""The Python face of the ``xianniu shengji`` commands. Each function checks its input,
calls the rule primitives and returns plain data; bad input raises ValueError.

Cards are card text (``"♠A♠A 5d5d 大王"``, see ``cards.parse_cards``) or face tuples; a
group of hands or plays is text split on ``|`` or a sequence of such cards.

>>> classify("♠A♠A ♦5♦5", 5, "s")
{'suit': 'trump', 'units': [{'kind': 'tractor', 'pairs': 2, 'cards': '5♦ 5♦ A♠ A♠'}]}
>>> winner("♣5 ♣4♣4 | ♠9 ♠7♠7 | ♠8♠8 ♠4 | ♣2♣3♣6", 10, "s")
{'winner': 2, 'points': 5}
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..core.checks import check_seed
from . import bidding, combos, scoring, tricks
from . import odds as odds_module
from .cards import (
    ESUIT_LABELS,
    RANK_NAMES,
    Context,
    as_cards,
    card_name,
    context,
    format_cards,
    parse_level,
    parse_trump,
    points,
)
from .rules import ShengjiRules, get_rules
from .sim import QUERY_POLICY

KITTY_CARDS = 8
TOTAL_POINTS = 200
SIDES = ("attackers", "banker")


def _setup(level, trump, rules) -> tuple[ShengjiRules, Context]:
    r = get_rules(rules)
    return r, context(parse_level(level), parse_trump(trump), r.nt_level_joker_tractor)


def _cards(cards, what: str) -> tuple[int, ...]:
    """Cards, with the argument named in the error."""
    try:
        return as_cards("" if cards is None else cards)
    except ValueError as e:
        raise ValueError(f"{what}: {e}") from None


def _group(groups, n: int, what: str) -> list[tuple[int, ...]]:
    """Exactly ``n`` card groups from ``"A | B | …"`` or a sequence."""
    parts = str(groups).split("|") if isinstance(groups, str) else list(groups)
    if len(parts) != n:
        raise ValueError(f"{what}: need {n} groups of cards separated by '|', got {len(parts)}")
    return [_cards(p, f"{what} {i}") for i, p in enumerate(parts)]


def _check_copies(**groups) -> None:
    """The groups together hold at most two copies of each face (the two decks)."""
    seen: Counter[int] = Counter()
    for cards in groups.values():
        seen.update(cards)
    over = sorted(f for f, c in seen.items() if c > 2)
    if over:
        names = ", ".join(groups)
        raise ValueError(f"{card_name(over[0])} appears {seen[over[0]]} times across {names} "
                         "(the two decks hold two)")


def _one_suit(cards, ctx: Context, what: str) -> int:
    if not cards:
        raise ValueError(f"{what}: no cards")
    es = combos.effective_suit(cards, ctx)
    if es is None:
        raise ValueError(f"{what}: {format_cards(cards, ctx)} mix effective suits; "
                         "a lead or a winning play is one suit (or all 主)")
    return es


def classify(cards, level, trump, rules=None) -> dict[str, Any]:
    """The effective suit (门) of ``cards`` and their canonical units (§3): longest tractor
    (拖拉机) first, then pairs (对子), then singles (单牌); per suit, 主 first, if mixed."""
    _, ctx = _setup(level, trump, rules)
    suit, units = combos.classify(_cards(cards, "CARDS"), ctx)
    return {"suit": suit,
            "units": [{"kind": u.kind, "pairs": u.pairs, "cards": format_cards(u.cards, ctx)}
                      for u in units]}


def legal(lead, hand, play, level, trump, rules=None) -> dict[str, Any]:
    """May a player holding ``hand`` (which includes ``play``) follow ``lead`` with ``play``
    (§5.3)? ``lead`` is the trick's format (after a failed throw, the forced unit).
    Cards of ``play`` not in ``hand`` are bad input, not an illegal play."""
    r, ctx = _setup(level, trump, rules)
    lead, hand, play = _cards(lead, "LEAD"), _cards(hand, "HAND"), _cards(play, "PLAY")
    es = _one_suit(lead, ctx, "LEAD")
    _check_copies(LEAD=lead, HAND=hand)
    missing = Counter(play) - Counter(hand)
    if missing:
        raise ValueError(f"PLAY holds {format_cards(missing.elements(), ctx)}, "
                         "which HAND does not")
    ok, reason = combos.follow_ok(lead, hand, play, ctx, r)
    return {"legal": ok, "reason": reason if not ok else _why_legal(lead, hand, es, ctx)}


def _why_legal(lead, hand, es: int, ctx: Context) -> str:
    n, label = len(lead), ESUIT_LABELS[es]
    held = ctx.suit_cards(hand, es)
    if not held:
        return f"void in {label}: any {n} cards may follow (毙 or 垫)"
    if len(held) <= n:
        return f"plays all {len(held)} {label} cards held" + (
            f" and {n - len(held)} others" if len(held) < n else "")
    units = combos.decompose(lead, ctx)
    ks, _, _ = combos.lead_format(units)
    duty = []
    if ks:
        ts = combos.tractor_coverage(held, units, ctx)
        duty.append(f"tractors covering {ts} pairs" if ts else "no tractor (none held)")
    if any(u.pairs for u in units):
        duty.append(f"{combos.pair_score(held, units)} pairs in all")
    if not duty:
        return f"{n} {label} cards follow a lead of singles" if n > 1 else (
            f"a {label} card follows a single")
    return f"{n} {label} cards with {' and '.join(duty)}, the most the hand allows"


def winner(plays, level, trump, rules=None) -> dict[str, Any]:
    """The winning play of a trick (§5.4–5.5) and its point cards. ``plays``: four plays in
    play order, the lead first; each has the lead's card count."""
    r, ctx = _setup(level, trump, rules)
    groups = _group(plays, 4, "PLAYS")
    _one_suit(groups[0], ctx, "PLAYS 0 (the lead)")
    for i, p in enumerate(groups[1:], start=1):
        if len(p) != len(groups[0]):
            raise ValueError(f"PLAYS {i}: {len(p)} cards; every play has the lead's "
                             f"{len(groups[0])}")
    _check_copies(**{f"PLAYS_{i}": p for i, p in enumerate(groups)})
    return {"winner": tricks.trick_winner(groups, ctx, r),
            "points": tricks.trick_points(groups)}


def throw(cards, others, level, trump, rules=None) -> dict[str, Any]:
    """Does a throw (甩牌) stand against the three other hands, given in play order from the
    thrower's 下家 (§5.2), and what is led: the throw, or the forced unit."""
    r, ctx = _setup(level, trump, rules)
    cards = _cards(cards, "CARDS")
    _one_suit(cards, ctx, "CARDS")
    hands = _group(others, 3, "OTHERS")
    _check_copies(CARDS=cards, **{f"OTHERS_{i}": h for i, h in enumerate(hands)})
    stands, played = tricks.check_throw(cards, hands, ctx, r)
    beaten = [] if stands else _beaten(cards, hands, ctx, r)
    return {"stands": stands, "played": format_cards(played, ctx), "beaten": beaten}


# the three other hands of a throw, in play order from the thrower's 下家
THROW_SEATS = ("下家 (the next seat)", "对家 (the partner)", "上家 (the seat before)")


def _beaten(cards, hands, ctx, r: ShengjiRules) -> list[dict[str, Any]]:
    """Each unit of a failed throw that another hand beats: whose hand (its index in
    OTHERS and its seat), the unit, and the highest unit of that hand that beats it."""
    suit = combos.effective_suit(cards, ctx)
    return [{"other": i, "seat": THROW_SEATS[i], "kind": u.kind,
             "unit": format_cards(u.cards, ctx),
             "beaten_by": format_cards(tricks.beating_cards(
                 u, ctx.suit_cards(tricks.as_cards(hands[i]), suit), ctx), ctx)}
            for i, u in tricks.throw_failures(cards, hands, ctx, r)]


def _no_declaration(cards, level: int, r: ShengjiRules) -> str:
    if r.level_cards_need_joker:
        big = "♥♦" if r.joker_colour == "standard" else "♠♣"
        small = "♠♣" if r.joker_colour == "standard" else "♥♦"
        how = (f"one joker with one or two identical {RANK_NAMES[level]}s of its colour "
               f"(大王 {big}, 小王 {small}), or a joker pair")
    else:
        how = f"one or two identical {RANK_NAMES[level]}s, or a joker pair"
    return (f"the cards {format_cards(cards)} make no declaration at level "
            f"{RANK_NAMES[level]}: show {how}")


def overcall(standing, new, level, same_player: bool = False, rules=None) -> dict[str, Any]:
    """May declaration ``new`` follow ``standing`` (§4.1–4.2)? Empty ``standing``: nothing
    declared yet. ``same_player``: the standing declarer shows ``new``, i.e. 加固
    (reinforcing); ``new`` is then the whole reinforced declaration (e.g. 大王 2h 2h)."""
    r = get_rules(rules)
    lv = parse_level(level)
    st_cards, new_cards = _cards(standing, "STANDING"), _cards(new, "NEW")
    if not new_cards:
        raise ValueError("NEW: no cards")
    st = None
    if st_cards:
        st = bidding.classify_declaration(st_cards, lv, r)
        if st is None:
            raise ValueError(f"STANDING: {_no_declaration(st_cards, lv, r)}")
    elif same_player:
        raise ValueError("--same-player (加固) needs a standing declaration")
    if not same_player:  # two players' cards: the decks hold two of each
        _check_copies(STANDING=st_cards, NEW=new_cards)
    decl = bidding.classify_declaration(new_cards, lv, r)
    if decl is None:
        return {"valid": False, "reason": _no_declaration(new_cards, lv, r)}
    try:
        bidding.verify_overcall(st, decl, same_player, r)
    except ValueError as e:
        return {"valid": False, "reason": str(e)}
    return {"valid": True}


def score(points_before, kitty, level, trump, last_trick=None, last_by: str | None = None,
          rules=None) -> dict[str, Any]:
    """Score a hand (§6): 抠底 multiplier, the attackers' points after it, the winning side
    and the levels it gains.

    ``points_before``: the attackers' points from tricks, before 抠底. ``kitty``: the final
    kitty (at most 8 cards; its point cards are enough). ``last_trick``: the cards that
    decide the multiplier, i.e. the last trick's winning play. ``last_by``: who took the
    last trick, "attackers" or "banker" (default: attackers if ``last_trick`` is given,
    else banker).
    """
    r, ctx = _setup(level, trump, rules)
    kitty = _cards(kitty, "KITTY")
    if len(kitty) > KITTY_CARDS:
        raise ValueError(f"KITTY: {len(kitty)} cards; the kitty holds {KITTY_CARDS}")
    last = _cards(last_trick, "LAST_TRICK")
    if last_by is None:
        last_by = "attackers" if last else "banker"
    if last_by not in SIDES:
        raise ValueError(f"--last-by must be attackers or banker, not {last_by!r}")
    if last_by == "attackers":
        if not last:
            raise ValueError("--last-by attackers needs --last-trick (the winning play)")
        _one_suit(last, ctx, "LAST_TRICK")
    _check_copies(KITTY=kitty, LAST_TRICK=last)
    _check_points(points_before, points(kitty), r)
    s = scoring.settle(points_before, kitty, last_by == "attackers", last, ctx, r)
    return {"multiplier": s.multiplier, "attacker_points": s.attacker_points,
            "winner": s.winner, "levels": s.levels}


def _check_points(n, kitty_points: int, r: ShengjiRules) -> None:
    if isinstance(n, bool) or not isinstance(n, int):
        raise ValueError(f"POINTS must be an integer, got {n!r}")
    if n % 5:
        raise ValueError(f"POINTS {n} is not a multiple of 5 (point cards score 5 or 10)")
    if r.throw_fail_penalty_per_card:
        return  # penalties can move the attackers' points past the cards' bounds
    if not 0 <= n <= TOTAL_POINTS - kitty_points:
        raise ValueError(f"POINTS must be 0..{TOTAL_POINTS - kitty_points}: the deck holds "
                         f"{TOTAL_POINTS} and the kitty {kitty_points}")


def odds(level, trump=None, deals: int = 200_000, seed: int = 0, rules=None) -> dict[str, Any]:
    """Deal odds for one player's 25 cards: exact by counting, beside a Monte Carlo estimate
    from ``deals`` random deals (0: exact only) seeded with ``seed``; see ``odds.odds_table``."""
    r = get_rules(rules)
    lv = parse_level(level)
    t = None if trump is None else parse_trump(trump)
    for name, v in (("deals", deals), ("seed", seed)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise ValueError(f"{name} must be an integer ≥ 0, got {v!r}")
    return odds_module.odds_table(r, lv, t, deals, seed)


__all__ = ["best_response", "bury", "classify", "legal", "odds", "overcall", "score",
           "should_declare", "should_rebel", "should_throw", "simulate", "solve_record",
           "throw", "tournament", "winner"]


def replay(record) -> dict[str, Any]:
    """``xianniu shengji replay``: check a game record action by action (ValueError names the
    first illegal action); the hand's actions and, if it ended, its result."""
    from .records import describe, result_of
    from .records import replay as replay_record

    state = replay_record(record)
    out: dict[str, Any] = {"game": "shengji", "rules": state.rules.name,
                           "actions": len(record.get("actions", [])),
                           "lines": describe(record), "finished": state.is_terminal()}
    if state.is_terminal():
        out["result"] = result_of(state)
    else:
        out["to_act"] = state.current_player()
        out["phase"] = state.phase
    return out


def solve_record(record: Any, rules: str | None = None, engine: str = "kernel",
                 max_positions: int = 50_000_000) -> dict[str, Any]:
    """``xianniu shengji solve``: the open-hand value (all four hands visible) of the play
    position where ``record`` stops (under ``rules`` when given): the attackers' points at
    the end under minimax play, the level outcome it gives, the best action. ``engine``
    "kernel": the jit-compiled alpha-beta, giving up after ``max_positions`` searched
    positions; "reference": plain minimax over the engine (same value, small positions
    only). ValueError if the record is bad, stops outside the play, or the position is
    too big."""
    import time

    from .cards import format_cards
    from .cards import points as card_points
    from .records import action_to_json
    from .records import replay as replay_record
    from .scoring import level_result
    from .solver import solve, solve_reference

    if engine not in ("kernel", "reference"):
        raise ValueError(f"unknown solver engine {engine!r} (kernel or reference)")
    if max_positions < 1:
        raise ValueError(f"--max-positions must be at least 1, got {max_positions}")
    if rules is not None and isinstance(record, dict):
        record = {**record, "rules": get_rules(rules).name}
    state = replay_record(record)
    if state.is_terminal():
        raise ValueError("the hand is over: nothing to solve")
    t0 = time.perf_counter()
    sol = solve(state, max_positions) if engine == "kernel" else solve_reference(state)
    seconds = time.perf_counter() - t0
    seat = state.current_player()
    trick = state.tricks[-1]
    winner, gain = level_result(sol.points, state.rules)
    return {"game": "shengji", "rules": state.rules.name, "engine": engine, "to_act": seat,
            "banker": state.the_banker, "winner": winner, "levels": gain,
            "attacker_points": sol.points,
            "points_so_far": state.attacker_points,
            "points_to_come": sol.points - state.attacker_points,
            "kitty_points": card_points(state.kitty), "values": list(sol.values),
            "best": str(sol.action), "best_text": format_cards(sol.action.cards,
                                                                state.play_ctx),
            "best_action": action_to_json(seat, sol.action), "positions": sol.positions,
            "seconds": seconds, "trick": len(state.tricks),
            "plays_in_trick": len(trick.plays),
            "cards_left": [len(h) for h in state.hands]}


def simulate(n_hands: int, rules: str | None = None, policies: str = "random", seed: int = 0,
             out: str | None = None, fmt: str = "table", backend: str = "local",
             scheduler: str | None = None, resume: bool = False, records: str | None = None,
             progress=None, play_only: bool = False) -> str | bytes:
    """``xianniu shengji simulate``: random whole hands from the deal (造反, bidding, bury,
    扒鸡窝, play), or with ``play_only`` play-only hands (bidding not simulated), in the
    kernels through the batch runner; the summary rendered in ``fmt`` (written whole to
    ``out`` when given). See :mod:`analyzer.shengji.batch` for the settings."""
    from ..core.batchrun import simulate_run
    from ..core.runner import RunSpec
    from .rules import get_rules

    spec = RunSpec("shengji", n_hands, get_rules(rules).name, policies, seed,
                   options={"play_only": play_only})
    return simulate_run(spec, out, fmt, backend, scheduler, resume, records, progress)[1]


def tournament(policies: str = "heuristic,random", n_deals: int = 20_000,
               rules: str | None = None, seed: int = 0, pimc_samples: int | None = None,
               progress=None) -> dict[str, Any]:
    """``xianniu shengji tournament``: policy A on one team and B on the other, each deal
    (a whole hand, team levels 2 and 2, seat 0 banker going in) played again with the teams
    swapped; levels gained per hand, net attacker points and the attackers' points when
    attacking per policy, and A − B for levels and attackers' points per deal, with 95% CIs
    (see :mod:`analyzer.shengji.tournament`); ``pimc_samples``: hidden deals a pimc seat
    samples per decision (default 12)."""
    from .tournament import tournament as run
    from .tournament import tournament_dict

    return tournament_dict(*run(policies, n_deals, rules, check_seed(seed),
                                pimc_samples=pimc_samples, progress=progress))



def best_response(n_deals: int = 1_000, rules: str | None = None, seed: int = 0,
                  player: str = "net", responder: str = "pimc2",
                  pimc_samples: int | None = None, progress=None) -> dict[str, Any]:
    """``xianniu shengji best-response``: ``responder`` alone in each seat (its partner and
    both opponents ``player``), less ``player`` there, on the same deals (team levels 2 and
    2, seat 0 banker going in; :mod:`analyzer.core.exploit`): a lower bound, in levels a
    hand, on how much ``player`` can be exploited."""
    from .tournament import best_response as run

    return run(n_deals, rules, check_seed(seed), player=player, responder=responder,
               pimc_samples=pimc_samples, progress=progress).as_dict()

def should_declare(hand, level, seat: int = 0, banker: int = 0, standing=None,
                   standing_seat: int | None = None, rules=None, policy: str = QUERY_POLICY,
                   precision: float = 0.1, max_deals: int = 200_000, seed: int = 0,
                   progress=None, opponents: str = QUERY_POLICY) -> dict[str, Any]:
    """``xianniu shengji should-declare``: each declaration ``hand`` can show, or pass
    (:func:`analyzer.shengji.decision.should_declare`), as JSON-ready data; the asking seat
    plays on with ``policy``, the others with ``opponents``."""
    from .decision import Sampling
    from .decision import should_declare as ask

    return ask(hand, level, seat, banker, standing, standing_seat, rules,
               Sampling(policy, precision, max_deals, seed, opponents), progress).as_dict()


def bury(hand, level, trump, seat: int = 0, banker: int | None = None, standing=None,
         standing_seat: int | None = None, candidates=(), rules=None,
         policy: str = QUERY_POLICY, precision: float = 0.1, max_deals: int = 200_000,
         seed: int = 0, progress=None, opponents: str = QUERY_POLICY) -> dict[str, Any]:
    """``xianniu shengji bury``: 8-card buries of 33 cards ranked
    (:func:`analyzer.shengji.decision.bury`), as JSON-ready data."""
    from .decision import Sampling
    from .decision import bury as ask

    return ask(hand, level, trump, seat, banker, standing, standing_seat, candidates, rules,
               Sampling(policy, precision, max_deals, seed, opponents), progress).as_dict()


def should_rebel(hand, seat: int = 1, banker: int = 0, level=2, rules=None,
                 policy: str = QUERY_POLICY, precision: float = 0.1, max_deals: int = 200_000,
                 seed: int = 0, progress=None, opponents: str = QUERY_POLICY) -> dict[str, Any]:
    """``xianniu shengji should-rebel``: 造反 or not
    (:func:`analyzer.shengji.decision.should_rebel`), as JSON-ready data."""
    from .decision import Sampling
    from .decision import should_rebel as ask

    return ask(hand, seat, banker, level, rules,
               Sampling(policy, precision, max_deals, seed, opponents), progress).as_dict()


def should_throw(record, cards=None, policy: str = QUERY_POLICY, precision: float = 0.1,
                 max_deals: int = 200_000, seed: int = 0, progress=None,
                 opponents: str = QUERY_POLICY) -> dict[str, Any]:
    """``xianniu shengji should-throw``: throw or the safest unit at a recorded lead
    (:func:`analyzer.shengji.decision_throw.should_throw`), as JSON-ready data."""
    from .decision import Sampling
    from .decision_throw import should_throw as ask

    return ask(record, cards, Sampling(policy, precision, max_deals, seed, opponents),
               progress).as_dict()


def advise(record, *, samples: int | None = None, precision: float = 0.1,
           policy: str = QUERY_POLICY, opponents: str = QUERY_POLICY, seed: int | None = None,
           candidates=(), progress=None):
    """``xianniu shengji advise``: every listed action where ``record`` stops, valued in
    levels on paired play-outs (:func:`analyzer.shengji.advise.advise`; ``.to_json()`` is
    the command's JSON)."""
    from .advise import advise as run

    return run(record, samples=samples, precision=precision, policy=policy,
               opponents=opponents, seed=seed, candidates=candidates, progress=progress)


def review(record, seats=None, *, seed: int = 0, samples: int | None = None,
           precision: float = 0.1, policy: str = QUERY_POLICY, opponents: str = QUERY_POLICY,
           progress=None):
    """``xianniu shengji review``: every decision of ``seats`` (default every seat) in
    ``record`` beside the advised one, in levels (:func:`analyzer.core.review.review`, the
    record's own action always valued); an :class:`analyzer.core.review.Review`."""
    from ..core.review import review as run
    from ..games import get_game

    return run(get_game("shengji"), record, seats, seed=seed, progress=progress,
               samples=samples, precision=precision, policy=policy, opponents=opponents)


def review_many(records, seats=None, *, seed: int = 0, samples: int | None = None,
                precision: float = 0.1, policy: str = QUERY_POLICY, opponents: str = QUERY_POLICY,
                backend: str = "local", scheduler: str | None = None, progress=None) -> list:
    """``xianniu shengji review FOLDER`` (or a .jsonl file): :func:`review` of every record,
    record *i* seeded by ``SeedSequence(seed)`` child *i*, here or on Dask."""
    from ..core.review import review_many as run

    return run(records, seats, seed=seed, backend=backend, scheduler=scheduler,
               progress=progress, samples=samples, precision=precision, policy=policy,
               opponents=opponents)
