"""``should-throw``: at a recorded lead, throw (甩牌) or lead the safest single unit of it?

The hidden cards are dealt by the pimc policy's sampler (``kernels.shengji.pimc``): every
other hand gets its public size, the kitty its 8 (known to its burier), cards shown in
declarations and failed throws and not played since stay with their seat, and no seat gets
cards of an effective suit it has shown void in. Each sampled deal is played on once with
the throw and once with each of its units led alone. The **safest unit** is the unit the
fewest sampled deals let another hand beat (ties: the first in canonical order, longest
tractor and highest first); the throw is compared with it. The sampled probability that the
throw stands is reported with its Wilson CI.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from kernels.shengji import decisions as kd
from kernels.shengji.context import new_context
from kernels.shengji.planes import cards_of, planes_of
from kernels.shengji.policies import (
    KN_KITTY,
    KN_KITTY_SEAT,
    KN_PLAYED,
    KN_SHOWN,
    KN_VOID,
    new_knowledge,
)

from ..core.stats import proportion_ci
from . import combos
from .actions import PLAY_PHASE
from .cards import RANK_NAMES, TRUMP, format_cards
from .decision import (
    DEFAULT_SAMPLING,
    DecisionResult,
    Progress,
    Sampling,
    _cards,
    _pols,
    _result,
    _sample,
    _trump_name,
)
from .records import replay
from .sim import rule_arrays

MAX_UNITS = kd.MAX_OPTIONS - 1


def _add(kn, at: int, cards) -> None:
    """Add ``cards`` to the plane pair at ``kn[at:at + 2]`` (copies beyond two are errors
    of the caller)."""
    one, two = int(kn[at]), int(kn[at + 1])
    for f in cards:
        b = 1 << f
        two |= one & b
        one |= b
    kn[at], kn[at + 1] = one, two


def knowledge(state, seat: int) -> np.ndarray:
    """The kernels' knowledge array (``policies.KN_*``) at a recorded position: cards played,
    voids shown, the kitty for its burier only, and as cards shown the engine's cards known
    to be held (shown and not played or buried since), with no play counted against them
    yet (``KN_BY`` starts empty: plays from here on are subtracted as they happen)."""
    kn = new_knowledge()
    for t in state.tricks:
        for play in t.plays:
            _add(kn, KN_PLAYED, play)
    for s in range(4):
        for e in state.voids[s]:
            kn[KN_VOID + s] |= 1 << e
        one, two = planes_of(list(state.known[s].elements()))
        kn[KN_SHOWN + 2 * s], kn[KN_SHOWN + 2 * s + 1] = one, two
    kn[KN_KITTY_SEAT] = -1 if state.last_burier is None else state.last_burier
    if state.last_burier == seat:
        kn[KN_KITTY], kn[KN_KITTY + 1] = planes_of(state.kitty)
    return kn


def _throw_cards(cards, hand, state, seat, kn, ctx, params, hp) -> tuple[int, ...]:
    """The throw: ``cards`` (checked), else the heuristic's lead if it is a throw, else the
    whole holding of one suit (「把手里某種花色的牌全都出出去」) with two units or more: a
    plain suit before 主, then the most units, then the most cards."""
    if cards is not None:
        throw = _cards(cards, "CARDS", (2, 25))
        missing = Counter(throw) - Counter(hand)
        if missing:
            raise ValueError(f"CARDS: seat {seat} does not hold "
                             f"{format_cards(missing.elements())}")
        if combos.effective_suit(throw, state.ctx) is None:
            raise ValueError(f"CARDS: {format_cards(throw, state.ctx)} mix effective suits; "
                             "a throw is one suit (or all 主)")
        if len(combos.decompose(throw, state.ctx)) < 2:
            raise ValueError(f"CARDS: {format_cards(throw, state.ctx)} is one unit, not a "
                             "throw (甩牌 leads two or more units)")
        return throw
    one, two = planes_of(hand)
    lead = cards_of(*map(int, kd.heuristic_lead_of(seat, one, two, ctx, params, hp[seat],
                                                   kn)))
    if len(combos.decompose(lead, state.ctx)) >= 2:
        return lead
    held = [state.ctx.suit_cards(hand, e) for e in range(5)]
    # plain suits before 主 (a whole-trump throw is rarely meant), then most units and cards
    ranked = [(e != TRUMP, len(combos.decompose(h, state.ctx)), len(h), -e)
              for e, h in enumerate(held) if len(combos.decompose(h, state.ctx)) >= 2]
    if not ranked:
        raise ValueError(f"seat {seat} holds no two units of one suit: no throw to consider")
    return held[-max(ranked)[3]]


def should_throw(record, cards=None, run: Sampling = DEFAULT_SAMPLING,
                 progress: Progress = None) -> DecisionResult:
    """A record stopping where a seat leads: throw ``cards`` (default: module docstring of
    ``_throw_cards``) or lead its safest unit alone (module docstring)? ``run``: how to
    sample (:class:`~.decision.Sampling`)."""
    state = replay(record)
    if state.phase != PLAY_PHASE or state.tricks[-1].plays:
        where = "the end" if state.is_terminal() else (
            "a follow" if state.phase == PLAY_PHASE else f"the {state.phase} phase")
        raise ValueError(f"the record must stop where a seat leads a trick (it stops at "
                         f"{where})")
    seat, r = state.turn, state.rules
    params = rule_arrays(r)
    ctx = new_context(state.trump, state.level, r.nt_level_joker_tractor)
    kn = knowledge(state, seat)
    pol, hp = _pols(seat, run, r)
    hand = state.hands[seat]
    throw = _throw_cards(cards, hand, state, seat, kn, ctx, params, hp)
    units = np.zeros((40, 2), dtype=np.int64)
    t_one, t_two = planes_of(throw)
    nu = kd.throw_units(t_one, t_two, ctx, units)
    if nu > MAX_UNITS:
        raise ValueError(f"CARDS: {nu} units; at most {MAX_UNITS} are compared")
    options = np.array([[t_one, t_two]] + [list(units[j]) for j in range(nu)], dtype=np.int64)
    names = ["throw"] + [f"unit {j + 1}" for j in range(nu)]
    texts = [format_cards(throw, state.ctx)] + [
        format_cards(cards_of(*map(int, units[j])), state.ctx) for j in range(nu)]
    h_one, h_two = planes_of(hand)
    sizes = np.array([len(h) for h in state.hands] + [h_one, h_two], dtype=np.int64)
    levels = np.array(state.levels, dtype=np.int64)
    n_opt = len(options)
    width = kd.Q_VALUES + n_opt + 2
    beaten_col = kd.Q_VALUES + n_opt + kd.Q_BEATEN

    def safest(rows: np.ndarray) -> int:
        bits = rows[:, beaten_col]
        freq = [int(((bits >> j) & 1).sum()) for j in range(nu)]
        return 1 + min(range(nu), key=lambda j: (freq[j], j))

    query = (seat, sizes, kn, state.banker, levels, state.attacker_points, ctx)

    def call(chunks, out):
        kd.throw_chunks(query, options, chunks, params, (pol, hp), out)

    rows, ref = _sample(call, width, n_opt, safest, run, progress)
    stands = int(rows[:, kd.Q_VALUES + n_opt + kd.Q_STANDS].sum())
    bits = rows[:, beaten_col]
    beaten = {texts[1 + j]: proportion_ci(int(((bits >> j) & 1).sum()), len(rows)).as_dict()
              for j in range(nu)}
    setting = {"seat": seat, "level": RANK_NAMES[state.the_level],
               "trump": _trump_name(state.the_trump), "banker": state.banker,
               "trick": len(state.tricks), "attacker_points": state.attacker_points,
               "hand": format_cards(hand, state.ctx)}
    res = _result("throw", seat, r, run, names, texts, rows, ref, setting,
                  {"p_stands": proportion_ci(stands, len(rows)).as_dict(),
                   "p_unit_beatable": beaten, "safest_unit": texts[ref]})
    res.recommendation = _throw_verdict(res)
    return res


def _throw_verdict(res: DecisionResult) -> str:
    """Throw or the safest unit, by their paired difference; "close" when its CI holds 0."""
    d = res.diff[0]
    if d.low <= 0 <= d.high:
        return "close: throw and the safest unit are within the noise"
    return "throw" if d.value > 0 else f"lead the safest unit ({res.cards[res.reference]})"
