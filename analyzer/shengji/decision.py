"""双升 decision queries with error bars: declare (亮主 / 反主) or pass, which 8 cards to
bury (扣底), 造反 (rebellion) or not, and throw (甩牌) or lead one unit.

Every query deals the cards the asking seat cannot place (the other hands and the kitty)
uniformly from the rest, keeping what is known where it is: the seat's own cards and the
cards a standing declaration showed (``should-throw``: everything public in the record,
through the pimc sampler). Each deal is played once per option from one saved random
stream state (paired play-outs), the asking seat on its ``policy`` and every other seat on
``opponents`` (both ``net`` by default, ``sim.QUERY_POLICY``). The value is the
asking team's level change for the hand: the levels it gains less the levels the other
team gains. Sampling stops when the 95% CI of every option's difference from the reference
(pass, the heuristic's bury, not rebelling, the safest unit), and of the best option's
difference from the next best, is at most ``precision`` on each side, or at ``max_deals``.

How a query samples is one :class:`Sampling` (the asking seat's policy, the precision, the
most deals, the seed, the others' policy), the same for every question; where the seat
decides is one :class:`Position` (what is pinned where, the seat, the banker, the levels,
the standing declaration), the bundle the query kernels read.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from kernels.rng import states_for_chunks
from kernels.shengji import decisions as kd
from kernels.shengji.bidding import declarable, legal_declarations, shown_cards
from kernels.shengji.context import new_context
from kernels.shengji.planes import cards_of, planes_of
from kernels.shengji.policies import H_BURY_POINTS, H_BURY_VOID, HEURISTIC_DEFAULTS

from ..core.checks import check_seed
from ..core.stats import Estimate, mean_ci
from .bidding import CLASS_NAMES, classify_declaration
from .cards import (
    NT,
    RANK_NAMES,
    SUIT_SYMBOLS,
    as_cards,
    card_name,
    context,
    format_cards,
    parse_level,
    parse_trump,
    points,
)
from .rules import ShengjiRules, get_rules
from .sim import POLICIES, POLICY_IDS, QUERY_POLICY, policy_row, rule_arrays, stack_rows

CHUNKS = 8  # random streams per batch: fixed, so results do not depend on the threads
PER_CHUNK = 32  # samples per stream
MIN_SAMPLES = CHUNKS * PER_CHUNK  # no stop before one whole batch
HAND, KITTY, HAND33 = 25, 8, 33
Progress = Callable[[int], None] | None


@dataclass
class DecisionResult:
    """A decision query's answer. ``options`` are names; ``ev[k]`` and ``diff[k]`` (option
    k less the reference) are estimates over the same ``n`` deals; ``rows`` holds each
    sample's deal and values (``kernels.shengji.decisions.Q_*``)."""

    question: str
    seat: int
    rules: str
    policy: str
    seed: int
    precision: float
    options: list[str]
    cards: list[str]
    reference: int
    ev: list[Estimate]
    diff: list[Estimate]
    best: int
    best_vs_next: Estimate | None
    recommendation: str
    setting: dict[str, Any] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)
    rows: np.ndarray = field(default_factory=lambda: np.empty((0, 0)), repr=False)
    opponents: str = QUERY_POLICY

    @property
    def n(self) -> int:
        return self.ev[0].n

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready: every estimate as ``{"value", "low", "high", "n"}``."""
        return {
            "game": "shengji", "question": self.question, "rules": self.rules,
            "seat": self.seat, "policy": self.policy, "opponents": self.opponents,
            "seed": self.seed,
            "precision": self.precision, "samples": self.n, "setting": self.setting,
            "value": "levels gained by the asking team less the other team's, per hand",
            "options": [{"option": o, "cards": c, "ev": e.as_dict(), "diff_vs_reference":
                         d.as_dict()} for o, c, e, d in zip(self.options, self.cards, self.ev,
                                                            self.diff)],
            "reference": self.options[self.reference],
            "best": self.options[self.best],
            "best_vs_next": None if self.best_vs_next is None else self.best_vs_next.as_dict(),
            "recommendation": self.recommendation, **self.extra,
        }


# -- checked input ----------------------------------------------------------------------


def _cards(text, what: str, n: int | tuple[int, int]) -> tuple[int, ...]:
    try:
        cards = as_cards(text)
    except ValueError as e:
        raise ValueError(f"{what}: {e}") from None
    lo, hi = (n, n) if isinstance(n, int) else n
    if not lo <= len(cards) <= hi:
        want = str(lo) if lo == hi else f"{lo} to {hi}"
        raise ValueError(f"{what}: {len(cards)} cards, need {want}")
    return cards


def _seat(value, what: str) -> int:
    if isinstance(value, bool) or value not in range(4):
        raise ValueError(f"{what} must be a seat 0..3, got {value!r}")
    return int(value)


def _level(value) -> int:
    lv = parse_level(value) if not isinstance(value, int) or isinstance(value, bool) else value
    if not 2 <= lv <= 14:
        raise ValueError(f"level must be 2..14 (A), got {value!r}")
    return lv


ASKING_POLICIES = tuple(p for p in POLICIES if p != "random")  # how the asking seat plays on


@dataclass(frozen=True)
class Sampling:
    """How a decision query samples (module docstring): the asking seat's ``policy``, the
    CI half-width ``precision`` it stops at (levels), the most deals ``max_deals``, the
    ``seed`` and the policy of the other three seats, ``opponents``; checked when made
    (ValueError)."""

    policy: str = QUERY_POLICY
    precision: float = 0.1
    max_deals: int = 200_000
    seed: int = 0
    opponents: str = QUERY_POLICY

    def __post_init__(self) -> None:
        _check_run(self.policy, self.precision, self.max_deals, self.seed)
        if self.opponents not in POLICIES:
            raise ValueError(f"opponents must be one of {', '.join(POLICIES)}, got "
                             f"{self.opponents!r}")


@dataclass(frozen=True, eq=False)
class Position:
    """Where the asking seat decides, as the query kernels read it (``pos`` of
    ``kernels.shengji.decisions``): the cards pinned per slot (``fixed`` int64[5, 2], seats
    0..3 and the kitty) and each slot's size (``sizes`` int64[5]), the asking ``seat``, the
    ``banker``, the team ``levels`` (int64[2]) and the ``standing`` declaration (int64[5]:
    cls, suit, seat, shown one, shown two; cls 0 for none)."""

    fixed: np.ndarray
    sizes: np.ndarray
    seat: int
    banker: int
    levels: np.ndarray
    standing: np.ndarray
    NONE: ClassVar[np.ndarray] = np.zeros(5, dtype=np.int64)  # no standing declaration

    def kernel(self) -> tuple[Any, ...]:
        """The kernels' ``pos`` tuple."""
        return (self.fixed, self.sizes, self.seat, self.banker, self.levels, self.standing)


def _check_run(policy: str, precision: float, max_deals: int, seed: int) -> None:
    """ValueError in one line unless the sampling settings are usable."""
    if policy == "random":
        raise ValueError("the asking seat plays on with a policy other than random: random "
                         "play after the choice would rank the options by a game nobody "
                         "plays")
    if policy not in ASKING_POLICIES:
        raise ValueError(f"policy must be one of {', '.join(ASKING_POLICIES)}, got {policy!r}")
    if isinstance(precision, bool) or not precision > 0:
        raise ValueError(f"precision must be positive, got {precision!r}")
    if isinstance(max_deals, bool) or not isinstance(max_deals, int) \
            or max_deals < MIN_SAMPLES:
        raise ValueError(f"max samples must be an integer ≥ {MIN_SAMPLES}, got {max_deals!r}")
    check_seed(seed)


DEFAULT_SAMPLING = Sampling()  # net at every seat, 0.1 levels, at most 200,000 deals, seed 0


def _pols(seat: int, run: Sampling, rules=None) -> tuple[np.ndarray, np.ndarray]:
    """Every seat on ``run.opponents`` but ``seat``, on ``run.policy`` (rows:
    ``policy_row``)."""
    pol = np.full(4, POLICY_IDS[run.opponents], dtype=np.int64)
    pol[seat] = POLICY_IDS[run.policy]
    rows = [policy_row(run.opponents, rules)] * 4
    rows[seat] = policy_row(run.policy, rules)
    return pol, stack_rows(rows)


def _copies(**groups) -> None:
    seen: Counter[int] = Counter()
    for cards in groups.values():
        seen.update(cards)
    over = sorted(f for f, c in seen.items() if c > 2)
    if over:
        raise ValueError(f"{card_name(over[0])} appears {seen[over[0]]} times across "
                         f"{', '.join(groups)} (the two decks hold two)")


def _standing(cards, seat, lv: int, r: ShengjiRules, default_seat: int):
    """(cls, suit, seat, shown one, shown two) of a standing declaration; cls 0: none."""
    cards = _cards(cards or "", "STANDING", (0, 3))
    if not cards:
        return np.zeros(5, dtype=np.int64), ()
    d = classify_declaration(cards, lv, r)
    if d is None:
        raise ValueError(f"STANDING: {format_cards(cards)} make no declaration at level "
                         f"{RANK_NAMES[lv]}")
    s = default_seat if seat is None else _seat(seat, "the standing seat")
    one, two = planes_of(cards)
    return np.array([d.cls, d.suit, s, one, two], dtype=np.int64), cards


def declaration_name(cls: int, suit: int) -> str:
    """``single ♥``, ``pair ♠``, ``对小王``…"""
    return CLASS_NAMES[cls].split(" ")[0] + ("" if suit == NT else f" {SUIT_SYMBOLS[suit]}")


# -- the sampling loop -------------------------------------------------------------------


def _spread(rows: np.ndarray, ref: int, n_opt: int) -> tuple[list, list, int, Estimate | None]:
    vals = rows[:, kd.Q_VALUES:kd.Q_VALUES + n_opt].astype(np.float64)
    ev = [mean_ci(vals[:, k]) for k in range(n_opt)]
    diff = [mean_ci(vals[:, k] - vals[:, ref]) for k in range(n_opt)]
    order = sorted(range(n_opt), key=lambda k: (-ev[k].value, k))
    best = order[0]
    bvn = mean_ci(vals[:, best] - vals[:, order[1]]) if n_opt > 1 else None
    return ev, diff, best, bvn


def _sample(call, width: int, n_opt: int, ref_of, run: Sampling,
            progress: Progress) -> tuple[np.ndarray, int]:
    """Batches of ``call(chunks, out)`` (``chunks`` = (streams, samples per stream)) until
    the stopping rule of ``run`` (module docstring); returns the rows and the reference
    option (``ref_of(rows)``)."""
    precision, max_deals = run.precision, run.max_deals
    rows: list[np.ndarray] = []
    batch = n = 0
    while True:
        out = np.empty((CHUNKS, PER_CHUNK, width), dtype=np.int64)
        call((states_for_chunks(run.seed, batch * CHUNKS, CHUNKS), PER_CHUNK), out)
        got = out.reshape(-1, width)
        got = got[got[:, kd.Q_VALUES] != kd.EMPTY]
        rows.append(got)
        batch += 1
        n += len(got)
        if progress is not None:
            progress(len(got))
        if n >= MIN_SAMPLES:
            allrows = np.concatenate(rows)
            ref = ref_of(allrows)
            _, diff, _, bvn = _spread(allrows, ref, n_opt)
            widths = [(d.high - d.low) / 2 for d in diff + ([bvn] if bvn else [])]
            if max(widths) <= precision or n >= max_deals:
                return allrows[:max_deals], ref
        if n == 0 and batch >= 8:
            raise ValueError("no hidden deal fits the public facts of this position")


def _result(question: str, seat: int, r: ShengjiRules, run: Sampling, options: list[str],
            cards: list[str], rows: np.ndarray, ref: int, setting: dict,
            extra: dict | None = None) -> DecisionResult:
    ev, diff, best, bvn = _spread(rows, ref, len(options))
    if bvn is not None and bvn.low <= 0 <= bvn.high:
        rec = f"close: {options[best]} leads, within the noise of the next best"
    else:
        rec = options[best]
    return DecisionResult(question, seat, r.name, run.policy, run.seed, run.precision,
                          options, cards, ref, ev, diff, best, bvn, rec, setting, extra or {},
                          rows, run.opponents)


def _fixed() -> tuple[np.ndarray, np.ndarray]:
    """Nothing pinned yet; four hands of 25 and a kitty of 8."""
    fixed = np.zeros((5, 2), dtype=np.int64)
    sizes = np.array([HAND] * 4 + [KITTY], dtype=np.int64)
    return fixed, sizes


# -- should-declare ----------------------------------------------------------------------


def should_declare(hand, level, seat: int = 0, banker: int = 0, standing=None,
                   standing_seat: int | None = None, rules=None,
                   run: Sampling = DEFAULT_SAMPLING, progress: Progress = None
                   ) -> DecisionResult:
    """At ``seat``'s turn in the first declaring round of a normal hand banked by
    ``banker`` (both teams at ``level``): each declaration ``hand`` can show over the
    standing one (``standing``: its cards, shown by ``standing_seat``, default the seat
    before), or pass. ``hand`` is the seat's known cards (1 to 25: missing ones are dealt
    at random with the rest); the seats between the standing declarer (or the priority
    seat) and ``seat`` have passed. ``run``: how to sample (:class:`Sampling`)."""
    r = get_rules(rules)
    lv, seat, banker = _level(level), _seat(seat, "seat"), _seat(banker, "banker")
    mine = _cards(hand, "HAND", (1, HAND))
    st, shown = _standing(standing, standing_seat, lv, r, (seat + 3) % 4)
    if st[0] and st[2] == seat:
        missing = Counter(shown) - Counter(mine)
        if missing:
            raise ValueError(f"STANDING is the seat's own but HAND lacks "
                             f"{format_cards(missing.elements())}")
    else:
        _copies(HAND=mine, STANDING=shown)
    first = (banker + (1 if r.declare_start == "banker_next" else 0)) % 4
    passes = (seat - st[2] - 1) % 4 if st[0] else (seat - first) % 4
    params = rule_arrays(r)
    one, two = planes_of(mine)
    dcls, dsuit = np.zeros(10, dtype=np.int64), np.zeros(10, dtype=np.int64)
    k = legal_declarations(one, two, lv, (int(st[0]), int(st[1]), int(st[2]) if st[0] else -1),
                           seat, False, params, (dcls, dsuit))
    if k == 0:
        what = "over STANDING" if st[0] else "as a first declaration"
        raise ValueError(f"HAND can show no declaration {what} at level {RANK_NAMES[lv]}: "
                         "passing is the only choice")
    options = np.array([[0, 0]] + [[dcls[i], dsuit[i]] for i in range(k)], dtype=np.int64)
    names = ["pass"] + [declaration_name(c, s) for c, s in options[1:]]
    cards = [""] + [format_cards(cards_of(*map(int, shown_cards(c, s, lv, params))))
                    for c, s in options[1:]]
    fixed, sizes = _fixed()
    fixed[seat] = one, two
    if st[0] and st[2] != seat:
        fixed[st[2]] = st[3], st[4]
    pos = Position(fixed, sizes, seat, banker, np.array([lv, lv], dtype=np.int64), st)
    pols = _pols(seat, run, r)

    def call(chunks, out):
        kd.declare_chunks(pos.kernel(), kd.first_round_ask(pos.kernel(), passes, options),
                          chunks, params, pols, out)

    rows, ref = _sample(call, kd.Q_VALUES + len(options), len(options), lambda _: 0, run,
                        progress)
    setting = {"hand": format_cards(mine), "level": RANK_NAMES[lv], "banker": banker,
               "standing": format_cards(shown) if st[0] else None,
               "standing_seat": int(st[2]) if st[0] else None, "passes_before": passes}
    res = _result("declare", seat, r, run, names, cards, rows, ref, setting)
    res.recommendation = _declare_verdict(res)
    return res


def _declare_verdict(res: DecisionResult) -> str:
    """The question asked first — declare or pass, by the paired gap of the best declaration
    over passing — then which declaration, naming those within the noise of the best."""
    vals = res.rows[:, kd.Q_VALUES:kd.Q_VALUES + len(res.options)].astype(np.float64)
    decl = range(1, len(res.options))
    best = max(decl, key=lambda k: (res.ev[k].value, -k))
    d = res.diff[best]  # best declaration less passing
    gap = f"{d.value:+.3f} [{d.low:+.3f}, {d.high:+.3f}] levels over passing"
    if d.high < 0:
        return f"pass (the best declaration, {res.options[best]}, is {gap})"
    if d.low <= 0:
        return f"close: declaring ({res.options[best]}, {gap}) and passing are within the noise"
    ties = [res.options[k] for k in decl if k != best
            and mean_ci(vals[:, best] - vals[:, k]).low <= 0]
    also = f"; {', '.join(ties)} within the noise of it" if ties else ""
    return f"declare: {res.options[best]} ({gap}{also})"


# -- bury ----------------------------------------------------------------------------------

# The heuristic's bury under other parameters: the alternatives a bury query ranks.
# The first is the heuristic's own; duplicates are dropped.
BURY_VARIANTS: tuple[tuple[str, dict[int, float]], ...] = (("heuristic", {}),) + tuple(
    (f"{'voids of ≤ ' + str(v) + ' cards' if v else 'no voids'}"
     f"{', points allowed' if p else ''}", {H_BURY_VOID: float(v), H_BURY_POINTS: float(p)})
    for p in (0, 1) for v in (0, 2, 4, 6, 8))


def _default_standing(one: int, two: int, lv: int, t: int, params) -> str:
    """The cheapest declaration of ``t`` the 33 cards can show ("" if none)."""
    dcls, dsuit = np.zeros(10, dtype=np.int64), np.zeros(10, dtype=np.int64)
    for i in range(declarable(one, two, lv, params, dcls, dsuit)):
        if dsuit[i] == t:
            return format_cards(cards_of(*map(int, shown_cards(dcls[i], dsuit[i], lv,
                                                                params))))
    return ""


def _void_buries(mine, cx) -> list[tuple[str, tuple[int, ...]]]:
    """Per plain suit of at most 8 cards: bury all of it, then the lowest other cards
    (plain before trump, point cards last)."""
    out = []
    for e in range(4):
        held = cx.suit_cards(mine, e)
        if not 0 < len(held) <= KITTY:
            continue
        rest = list((Counter(mine) - Counter(held)).elements())
        rest.sort(key=lambda f: (cx.is_trump(f), points((f,)) > 0, cx.rung[f], f))
        out.append((f"void {SUIT_SYMBOLS[e]}", tuple(sorted(held + tuple(rest[:KITTY -
                                                                          len(held)])))))
    return out


def _bury_options(mine, one: int, two: int, ctx, cx, candidates
                  ) -> tuple[list, list, np.ndarray]:
    hp = np.tile(HEURISTIC_DEFAULTS, (len(BURY_VARIANTS), 1))
    for k, (_, changes) in enumerate(BURY_VARIANTS):
        for i, v in changes.items():
            hp[k, i] = v
    got = np.zeros((len(BURY_VARIANTS), 2), dtype=np.int64)
    kd.bury_variants(one, two, ctx, hp, got)
    names, planes = [], []
    for (name, _), (o, t) in zip(BURY_VARIANTS, got):
        if (int(o), int(t)) not in planes:
            names.append(name)
            planes.append((int(o), int(t)))
    for name, cards in _void_buries(mine, cx):
        p = planes_of(cards)
        if p not in planes:
            names.append(name)
            planes.append(p)
    for i, text in enumerate(candidates or ()):
        cards = _cards(text, f"CANDIDATE {i + 1}", KITTY)
        missing = Counter(cards) - Counter(mine)
        if missing:
            raise ValueError(f"CANDIDATE {i + 1}: HAND33 lacks "
                             f"{format_cards(missing.elements())}")
        p = planes_of(cards)
        if p not in planes:
            names.append(f"candidate {i + 1}")
            planes.append(p)
    if len(planes) > kd.MAX_OPTIONS:
        raise ValueError(f"at most {kd.MAX_OPTIONS} buries at once, got {len(planes)} "
                         f"({len(planes) - len(candidates or ())} generated)")
    return names, [format_cards(cards_of(*p)) for p in planes], np.array(planes,
                                                                         dtype=np.int64)


def bury(hand, level, trump, seat: int = 0, banker: int | None = None, standing=None,
         standing_seat: int | None = None, candidates=(), rules=None,
         run: Sampling = DEFAULT_SAMPLING, progress: Progress = None) -> DecisionResult:
    """``seat`` holds its 33 cards (hand and kitty) at trump ``trump``: rank the heuristic's
    bury, its variants (``BURY_VARIANTS``), a void of each plain suit of at most 8 cards
    (``_void_buries``) and ``candidates`` by the level change. The
    standing declaration (for 扒鸡窝) defaults to the cheapest one of ``trump`` the 33 cards
    show, made by ``seat``; "" means none (T was drawn from the kitty). ``run``: how to
    sample (:class:`Sampling`)."""
    r = get_rules(rules)
    lv, seat = _level(level), _seat(seat, "seat")
    t = parse_trump(trump)
    banker = seat if banker is None else _seat(banker, "banker")
    mine = _cards(hand, "HAND33", HAND33)
    one, two = planes_of(mine)
    params = rule_arrays(r)
    if standing is None:
        standing = _default_standing(one, two, lv, t, params)
    st, shown = _standing(standing, standing_seat, lv, r, seat)
    if st[0] and st[1] != t:
        raise ValueError(f"STANDING sets trump {_trump_name(int(st[1]))}, not "
                         f"{_trump_name(t)}")
    if st[0] and st[2] == seat:
        missing = Counter(shown) - Counter(mine)
        if missing:
            raise ValueError("STANDING is the seat's own but HAND33 lacks "
                             f"{format_cards(missing.elements())}")
    else:
        _copies(HAND33=mine, STANDING=shown)
    ctx = new_context(t, lv, r.nt_level_joker_tractor)
    cx = context(lv, t, r.nt_level_joker_tractor)
    names, cards, buries = _bury_options(mine, one, two, ctx, cx, candidates)
    fixed, sizes = _fixed()
    fixed[seat], sizes[seat], sizes[4] = (one, two), HAND33, 0
    if st[0] and st[2] != seat:
        fixed[st[2]] = st[3], st[4]
    pos = Position(fixed, sizes, seat, banker, np.array([lv, lv], dtype=np.int64), st)
    pols = _pols(seat, run, r)

    def call(chunks, out):
        kd.bury_chunks(pos.kernel(), (t, buries), chunks, params, pols, out)

    rows, ref = _sample(call, kd.Q_VALUES + len(names), len(names), lambda _: 0, run,
                        progress)
    setting = {"hand": format_cards(mine), "level": RANK_NAMES[lv], "trump": _trump_name(t),
               "banker": banker, "standing": format_cards(shown) if st[0] else None,
               "standing_seat": int(st[2]) if st[0] else None}
    return _result("bury", seat, r, run, names, cards, rows, ref, setting)


def _trump_name(t: int) -> str:
    return "NT" if t == NT else SUIT_SYMBOLS[t]


# -- should-rebel --------------------------------------------------------------------------


def should_rebel(hand, seat: int = 1, banker: int = 0, level=2, rules=None,
                 run: Sampling = DEFAULT_SAMPLING, progress: Progress = None
                 ) -> DecisionResult:
    """Defender ``seat`` holds ``hand`` (25 cards, fewer points than rebel_threshold) right
    after the deal of a normal hand banked by ``banker`` (both teams at ``level``): 造反
    (a redeal and a 抢庄局 from ``seat``) or decline (the defender asked after it, if any,
    decides by its policy, then the declaring)? ``run``: how to sample (:class:`Sampling`)."""
    r = get_rules(rules)
    if not r.rebel_enabled:
        raise ValueError(f"the {r.name} rules have no 造反 (rebel_enabled is off)")
    if r.rebel_scope != "player":
        raise ValueError("should-rebel asks one defender: it needs rebel_scope=player")
    lv, seat, banker = _level(level), _seat(seat, "seat"), _seat(banker, "banker")
    if (seat - banker) % 2 == 0:
        raise ValueError(f"seat {seat} is on the banker's side: only a defender may 造反")
    mine = _cards(hand, "HAND", HAND)
    if points(mine) >= r.rebel_threshold:
        raise ValueError(f"HAND holds {points(mine)} points: 造反 needs fewer than "
                         f"{r.rebel_threshold}")
    params = rule_arrays(r)
    fixed, sizes = _fixed()
    fixed[seat] = planes_of(mine)
    pos = Position(fixed, sizes, seat, banker, np.array([lv, lv], dtype=np.int64),
                   Position.NONE)
    pols = _pols(seat, run, r)

    def call(chunks, out):
        kd.rebel_chunks(pos.kernel(), chunks, params, pols, out)

    rows, ref = _sample(call, kd.Q_VALUES + 2, 2, lambda _: 1, run, progress)
    setting = {"hand": format_cards(mine), "points": points(mine), "level": RANK_NAMES[lv],
               "banker": banker}
    return _result("rebel", seat, r, run, ["造反 (rebel)", "decline"],
                   ["", ""], rows, ref, setting)
