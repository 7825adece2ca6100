"""The bury (扣底) and declaring (亮主) decision queries run over many random hands, for the
report: how the heuristic's bury fares against the buries its variants make, and what
declaring is worth against passing by trump length.

Each hand is random (its own child of the seed's ``SeedSequence``) and is asked with the
decision-query kernels (``kernels.shengji.decisions``): ``deals`` random completions of the
rest, every option played out from one saved stream state per completion, every seat on the
default heuristic. The hand is the unit: each estimate is a mean over hands of the hand's
mean over its deals, with a 95% CI across hands (n = hands).

- :func:`bury_study`: the banker (seat 0, both teams at level 2) holds 33 random cards; trump
  is the suit of its longest trump holding, shown by the cheapest declaration of it when it
  has one. Per bury rule (the heuristic's, and the heuristic under other parameters): the
  heuristic's bury less that rule's bury in levels (0 on the hands where both bury the same
  8), and the share of hands where the heuristic's bury is the best of them all.
- :func:`declare_study`: a seat (0: the banker going in, first to act; 1: an attacker, after
  seat 0 passed) holds 25 random cards that can declare; declaring its longest trump (the
  declaration whose trump count is largest) less passing, by that trump count.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kernels.rng import states_for_chunks
from kernels.shengji import decisions as kd
from kernels.shengji.bidding import legal_declarations
from kernels.shengji.context import new_context
from kernels.shengji.planes import planes_of
from kernels.shengji.policies import H_BURY_SAFE, HEURISTIC_DEFAULTS

from ..core.checks import check_seed
from ..core.stats import mean_ci, proportion_ci
from .decision import (
    BURY_VARIANTS,
    Position,
    Sampling,
    _default_standing,
    _fixed,
    _pols,
    _standing,
)
from .rules import get_rules
from .sim import check_n, rule_arrays

PER_CHUNK = 32  # completions per stream
# The studies are measured with the heuristic at every seat (the report says so).
HEURISTIC_SEATS = Sampling("heuristic", opponents="heuristic")
LEVEL = 2
# The bury rules compared: the query's variants, then the heuristic burying point cards
# first (``bury_safe`` 0: always trusts its side with the last trick).
RULES = BURY_VARIANTS + (("points first", {H_BURY_SAFE: 0.0}),)
LENGTH_BINS = ((0, 7), (8, 9), (10, 11), (12, 99))  # trump counts, inclusive


def _trump_count(cards: np.ndarray, suit: int) -> int:
    """Cards of a hand that would be trump under ``suit`` (4: NT) at level 2."""
    level = (cards < 52) & (cards % 13 == LEVEL - 2)
    plain_suit = (cards < 52) & (cards // 13 == suit)
    return int(((cards >= 52) | level | plain_suit).sum())


def _hand_rngs(seed: int, n: int) -> list[np.random.SeedSequence]:
    return np.random.SeedSequence(check_seed(seed)).spawn(n)


def _deal(child: np.random.SeedSequence, n_cards: int) -> np.ndarray:
    deck = np.repeat(np.arange(54), 2)
    return np.random.default_rng(child).permutation(deck)[:n_cards]


def _chunks(deals: int) -> int:
    deals = check_n(deals, "deals per hand")
    if deals % PER_CHUNK:
        raise ValueError(f"deals per hand must be a multiple of {PER_CHUNK}, got {deals}")
    return deals // PER_CHUNK


def bury_study(hands: int, rules=None, seed: int = 0, deals: int = 64) -> dict[str, Any]:
    """The heuristic's bury against its variants over ``hands`` random banker hands
    (module docstring)."""
    r, n = get_rules(rules), check_n(hands)
    chunks, params = _chunks(deals), rule_arrays(r)
    hp_rows = np.tile(HEURISTIC_DEFAULTS, (len(RULES), 1))
    for k, (_, changes) in enumerate(RULES):
        for i, v in changes.items():
            hp_rows[k, i] = v
    pol, hp = _pols(0, HEURISTIC_SEATS)
    levels = np.array([LEVEL, LEVEL], dtype=np.int64)
    diffs = np.zeros((n, len(RULES)))
    best = np.zeros(n, dtype=bool)
    for h, child in enumerate(_hand_rngs(seed, n)):
        cards = _deal(child, 33)
        t = max(range(4), key=lambda s: (_trump_count(cards, s), -s))
        one, two = planes_of(cards.tolist())
        st, _ = _standing(_default_standing(one, two, LEVEL, t, params), None, LEVEL, r, 0)
        got = np.zeros((len(RULES), 2), dtype=np.int64)
        kd.bury_variants(one, two, new_context(t, LEVEL, r.nt_level_joker_tractor), hp_rows,
                         got)
        planes, col = [], []
        for o, w in got:
            if (int(o), int(w)) not in planes:
                planes.append((int(o), int(w)))
            col.append(planes.index((int(o), int(w))))
        fixed, sizes = _fixed()
        fixed[0], sizes[0], sizes[4] = (one, two), 33, 0
        width = kd.Q_VALUES + len(planes)
        out = np.empty((chunks, PER_CHUNK, width), dtype=np.int64)
        pos = Position(fixed, sizes, 0, 0, levels, st)
        kd.bury_chunks(pos.kernel(), (t, np.array(planes, dtype=np.int64)),
                       (states_for_chunks(int(child.generate_state(1)[0]), 0, chunks),
                        PER_CHUNK), params, (pol, hp), out)
        v = out.reshape(-1, width)[:, kd.Q_VALUES:].astype(np.float64).mean(axis=0)
        diffs[h] = v[col[0]] - v[col]
        best[h] = v[col[0]] >= v.max()
    wins = int(best.sum())
    return {"game": "shengji", "analysis": "bury", "rules": r.name, "seed": seed, "hands": n,
            "deals_per_hand": deals, "level": LEVEL,
            "value": "the heuristic's bury less the rule's, banker side's levels per hand",
            "rows": [{"rule": name, "diff": mean_ci(diffs[:, k]).as_dict(),
                      "p_same": proportion_ci(int((diffs[:, k] == 0).sum()), n).as_dict()}
                     for k, (name, _) in enumerate(RULES) if k > 0],
            "p_heuristic_best": proportion_ci(wins, n).as_dict()}


def declare_study(hands: int, rules=None, seed: int = 0, deals: int = 64) -> dict[str, Any]:
    """Declaring the longest trump less passing over ``hands`` random hands that can declare,
    half at seat 0 (the banker going in), half at seat 1 (module docstring)."""
    r, n = get_rules(rules), check_n(hands)
    chunks, params = _chunks(deals), rule_arrays(r)
    levels = np.array([LEVEL, LEVEL], dtype=np.int64)
    first = 1 if r.declare_start == "banker_next" else 0
    st = np.zeros(5, dtype=np.int64)
    out_rows: list[tuple[int, int, float]] = []  # (seat, trump count, declare − pass)
    dcls, dsuit = np.zeros(10, dtype=np.int64), np.zeros(10, dtype=np.int64)
    for h, child in enumerate(_hand_rngs(seed, n)):
        seat = h % 2
        deal_seq, play_seq = child.spawn(2)
        while True:  # redraw until the hand can declare (the seed fixes every draw)
            cards = _deal(deal_seq.spawn(1)[0], 25)
            one, two = planes_of(cards.tolist())
            k = legal_declarations(one, two, LEVEL, (0, 0, -1), seat, False, params,
                                   (dcls, dsuit))
            if k:
                break
        counts = [_trump_count(cards, int(dsuit[i])) for i in range(k)]
        i = int(np.argmax(counts))
        options = np.array([[0, 0], [dcls[i], dsuit[i]]], dtype=np.int64)
        fixed, sizes = _fixed()
        fixed[seat] = one, two
        pol, hp = _pols(seat, HEURISTIC_SEATS)
        width = kd.Q_VALUES + 2
        out = np.empty((chunks, PER_CHUNK, width), dtype=np.int64)
        pos = Position(fixed, sizes, seat, 0, levels, st)
        kd.declare_chunks(pos.kernel(), kd.first_round_ask(pos.kernel(), (seat - first) % 4,
                                                           options),
                          (states_for_chunks(int(play_seq.generate_state(1)[0]), 0, chunks),
                           PER_CHUNK), params, (pol, hp), out)
        v = out.reshape(-1, width)[:, kd.Q_VALUES:].astype(np.float64).mean(axis=0)
        out_rows.append((seat, counts[i], v[1] - v[0]))
    a = np.array(out_rows)
    rows = []
    for seat in (0, 1):
        for lo, hi in LENGTH_BINS:
            sel = (a[:, 0] == seat) & (a[:, 1] >= lo) & (a[:, 1] <= hi)
            if sel.sum() >= 2:
                rows.append({"seat": seat, "trump_min": lo, "trump_max": hi,
                             "diff": mean_ci(a[sel, 2]).as_dict()})
        sel = a[:, 0] == seat
        rows.append({"seat": seat, "trump_min": 0, "trump_max": 99,
                     "diff": mean_ci(a[sel, 2]).as_dict()})
    return {"game": "shengji", "analysis": "declare", "rules": r.name, "seed": seed,
            "hands": n, "deals_per_hand": deals, "level": LEVEL,
            "value": "declaring the longest trump less passing, the seat's team's levels per "
                     "hand", "rows": rows}
