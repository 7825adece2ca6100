"""The decision query's conditioning, checked against brute-force enumeration.

All but six hidden cards are pinned to their seats, so only the 20 ways of splitting those
six between the two hidden seats remain. For each split the reference engine (and, for a
heuristic seat, the policy's own choice on that deal) gives the exact probability that the
public facts hold: no 抢刺, the banker 扣s and, when seat 2 asks, seat 1 扣s too. The deals the
query keeps must follow those probabilities, normalised, and its acceptance rate must be
their mean.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from analyzer.xianniu.decision import Q_HAND0, query_rows
from analyzer.xianniu.engine import KOU, QIANGCI, Action, new_hand
from analyzer.xianniu.rules import get_rules
from analyzer.xianniu.sim import deal_hands, logged_hands, policy_arrays, rule_arrays
from kernels.rng import states_for_chunks

N_FREE_EACH = 3  # cards left free in each hidden seat: C(6, 3) = 20 splits


def _bits(mask: int) -> list[int]:
    return [1 << i for i in range(48) if mask >> i & 1]


def _splits(free: list[int]) -> list[tuple[int, int]]:
    out = []
    for pick in itertools.combinations(range(len(free)), N_FREE_EACH):
        a = sum(free[i] for i in pick)
        b = sum(free[i] for i in range(len(free)) if i not in pick)
        out.append((a, b))
    return out


def _accept_probability(deal: tuple[int, int, int], seat: int, names: list[str],
                        rules: str) -> float:
    """Exact probability that the deal reaches ``seat``'s 掀-or-扣 decision."""
    state = new_hand(deal, rules)
    if state.phase == QIANGCI:
        return 0.0
    prob = 1.0
    first = None
    for s in range(seat):  # the banker, then (for seat 2) seat 1, must each 扣
        legal = state.legal_actions()
        if Action(KOU) not in legal:
            return 0.0
        if names[s] == "random":
            prob /= len(legal)
        else:  # the heuristic decides deterministically: ask it on this very deal
            assert all(n == "heuristic" for n in names[:s]), "earlier seats must be forced"
            if first is None:
                first = logged_hands(1, rules, ",".join(names), seed=0,
                                     deals=np.array([deal], dtype=np.int64))[0].actions
            if first[s] != (s, Action(KOU)):
                return 0.0
        state.apply(Action(KOU))
    return prob


def _find_case(seat: int, names: list[str], rules: str, seed: int):
    """A deal and six free cards whose splits reach the decision with varied probabilities."""
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    deals = deal_hands(400, seed=seed).astype(np.int64)
    o1, o2 = (seat + 1) % 3, (seat + 2) % 3
    for deal in deals:
        deal = tuple(int(x) for x in deal)
        free = [int(c) for o in (o1, o2)
                for c in rng.choice(_bits(deal[o]), N_FREE_EACH, replace=False)]
        pinned = [0, 0, 0]
        pinned[o1] = deal[o1] & ~sum(free)
        pinned[o2] = deal[o2] & ~sum(free)
        probs = []
        for a, b in _splits(free):
            d = [0, 0, 0]
            d[seat], d[o1], d[o2] = deal[seat], pinned[o1] | a, pinned[o2] | b
            probs.append(_accept_probability(tuple(d), seat, names, rules))
        probs = np.array(probs)
        if (probs > 0).sum() >= 5 and (probs.min() == 0 or len(set(probs.round(9))) >= 3):
            return deal, free, pinned, probs
    raise AssertionError("no varied case found")  # pragma: no cover


def _chi2_below_quantile(stat: float, df: int) -> bool:
    """``stat`` below the chi-square 1 - 1e-4 quantile (Wilson-Hilferty)."""
    z = 3.719
    return stat < df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def _chi2(counts: np.ndarray, probs: np.ndarray) -> tuple[float, int]:
    expected = counts.sum() * probs / probs.sum()
    live = expected > 0
    assert counts[~live].sum() == 0, "a split that cannot reach the decision was kept"
    return float(((counts[live] - expected[live]) ** 2 / expected[live]).sum()), \
        int(live.sum()) - 1


CASES = [
    # (asking seat, the three seats' policies, rules): a random banker makes the weight of a
    # split 1 / (number of its legal actions); a heuristic banker makes it 0 or 1.
    (1, ["random", "heuristic", "heuristic"], "lanzhou"),
    (2, ["heuristic", "random", "heuristic"], "kanniutui"),
    (2, ["random", "random", "heuristic"], "lanzhou"),
]


@pytest.mark.parametrize("seat,names,rules", CASES)
def test_kept_deals_follow_brute_force_enumeration(seat, names, rules):
    deal, free, pinned, probs = _find_case(seat, names, rules, seed=31 + seat)
    o1 = (seat + 1) % 3
    index = {a: k for k, (a, _) in enumerate(_splits(free))}
    chunks, per_chunk = 4, 3000
    rows, n = query_rows("xian", deal[seat], seat, None, states_for_chunks(5, 0, chunks),
                         per_chunk, rule_arrays(get_rules(rules)), policy_arrays(names),
                         pinned=np.array(pinned, dtype=np.int64))
    assert len(rows) > chunks * per_chunk // 2  # a slot gives up after 64 rejected deals
    assert np.all(rows[:, Q_HAND0 + seat] == deal[seat])
    counts = np.zeros(len(probs))
    for h in rows[:, Q_HAND0 + o1]:
        counts[index[int(h) & sum(free)]] += 1
    stat, df = _chi2(counts, probs)
    assert _chi2_below_quantile(stat, df), (stat, df, counts, probs)
    # the acceptance rate is the mean probability over the uniformly dealt splits
    p = probs.mean()
    assert abs(len(rows) / n - p) < 4.5 * math.sqrt(p * (1 - p) / n)
    # the case discriminates: kept deals are far from the unconditioned (uniform) deal
    flat = _chi2(counts, np.ones(len(probs)))[0]
    assert not _chi2_below_quantile(flat, len(probs) - 1)
