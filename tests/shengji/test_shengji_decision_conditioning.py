"""The 双升 decision queries' conditioning, checked against brute-force enumeration.

A deal is pinned but for six physical cards (one face with both copies among them). The
queries must deal those six uniformly over the free places: every one of the 6! orders of
the six cards into the free places is equally likely, which gives the exact probability of
each outcome (which faces land where). The deals the declaring and bury queries play must
follow those probabilities, every pinned card must stay put, and a sampler that treated
the two copies of a face as one card would be caught.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter

import numpy as np
import pytest

from analyzer.shengji.rules import get_rules
from analyzer.shengji.sim import rule_arrays
from kernels.rng import states_for_chunks
from kernels.shengji import decisions as kd
from kernels.shengji.deal import deal_many
from kernels.shengji.planes import cards_of, planes_of
from kernels.shengji.policies import default_params

HEURISTIC = np.ones(4, dtype=np.int64)


def _a_deal(seed: int) -> list[list[int]]:
    """A uniformly dealt deal as five lists of faces (seats 0..3, kitty)."""
    out = np.empty((1, 5, 2), dtype=np.int64)
    deal_many(states_for_chunks(seed, 0, 1)[0], 1, out)
    return [list(cards_of(int(o), int(t))) for o, t in out[0]]


def _free_cards(slots: list[list[int]], where: list[int], seed: int) -> list[tuple[int, int]]:
    """Six (slot, face) to free: both copies of one face (in two of ``where``), and one card
    from each of four of ``where`` (with repeats), each face once."""
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    held = {s: Counter(slots[s]) for s in where}
    for f in rng.permutation(54):
        owners = [s for s in where for _ in range(held[s][f])]
        if len(owners) == 2 and owners[0] != owners[1]:
            break
    free = [(owners[0], int(f)), (owners[1], int(f))]
    used = {int(f)}
    for s in rng.choice(where, 4):
        face = next(int(x) for x in rng.permutation(slots[s])
                    if int(x) not in used and held[s][int(x)] == 1)
        used.add(face)
        free.append((int(s), face))
    return free


def _exact(free: list[tuple[int, int]]) -> dict[tuple, float]:
    """Outcome (per slot the sorted freed faces it gets) → exact probability."""
    places = sorted(s for s, _ in free)
    faces = [f for _, f in free]
    counts: Counter[tuple] = Counter()
    for order in itertools.permutations(faces):
        got: dict[int, list[int]] = {}
        for s, f in zip(places, order):
            got.setdefault(s, []).append(f)
        counts[tuple((s, tuple(sorted(got[s]))) for s in sorted(got))] += 1
    total = sum(counts.values())
    return {k: v / total for k, v in counts.items()}


def _outcome(row: np.ndarray, fixed: np.ndarray, free: list[tuple[int, int]]) -> tuple:
    """Per slot of a freed card, the sorted faces it got beyond its pinned cards."""
    got = {}
    for s in sorted({s for s, _ in free}):
        cards = Counter(cards_of(int(row[kd.Q_DEAL + 2 * s]), int(row[kd.Q_DEAL + 2 * s + 1])))
        got[s] = tuple(sorted((cards - Counter(cards_of(*map(int, fixed[s])))).elements()))
    return tuple(got.items())


def _chi2_below_quantile(stat: float, df: int) -> bool:
    """``stat`` below the chi-square 1 - 1e-4 quantile (Wilson-Hilferty)."""
    z = 3.719
    return stat < df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def _chi2(counts: Counter, probs: dict[tuple, float]) -> tuple[float, int]:
    assert set(counts) <= set(probs), "an outcome the pins forbid was dealt"
    n = sum(counts.values())
    stat = sum((counts.get(k, 0) - n * p) ** 2 / (n * p) for k, p in probs.items())
    return stat, len(probs) - 1


def _check(rows: np.ndarray, fixed: np.ndarray, free) -> None:
    # every pinned card where it was pinned, and every deal the whole 108
    for row in rows:
        total: Counter[int] = Counter()
        for s in range(5):
            cards = Counter(cards_of(int(row[kd.Q_DEAL + 2 * s]), int(row[kd.Q_DEAL + 2 * s + 1])))
            assert not Counter(cards_of(*map(int, fixed[s]))) - cards
            total += cards
        assert all(total[f] == 2 for f in range(54))
    probs = _exact(free)
    counts = Counter(_outcome(row, fixed, free) for row in rows)
    stat, df = _chi2(counts, probs)
    assert _chi2_below_quantile(stat, df), (stat, df)
    # teeth: the outcomes are not all equally likely (the two copies of one face count
    # twice), and that difference is seen
    flat = {k: 1 / len(probs) for k in probs}
    assert not _chi2_below_quantile(_chi2(counts, flat)[0], df)


def _pin(slots: list[list[int]], free) -> np.ndarray:
    fixed = np.zeros((5, 2), dtype=np.int64)
    for s in range(5):
        rest = Counter(slots[s]) - Counter(f for t, f in free if t == s)
        fixed[s] = planes_of(list(rest.elements()))
    return fixed


@pytest.mark.parametrize("rules", ["zhengzhou", "classic"])
def test_declaring_query_deals_follow_brute_force_enumeration(rules):
    slots = _a_deal(11)
    seat, banker = 1, 0
    free = _free_cards(slots, [1, 0, 2, 3, 4], seed=3)  # the asking seat's unknown cards too
    fixed = _pin(slots, free)
    sizes = np.array([25, 25, 25, 25, 8], dtype=np.int64)
    levels = np.array([2, 2], dtype=np.int64)
    standing = np.zeros(5, dtype=np.int64)
    options = np.zeros((1, 2), dtype=np.int64)  # passing: the deals are what is checked
    chunks, per_chunk = 4, 800
    out = np.empty((chunks, per_chunk, kd.Q_VALUES + 1), dtype=np.int64)
    pos = (fixed, sizes, seat, banker, levels, standing)
    kd.declare_chunks(pos, kd.first_round_ask(pos, 1, options),
                      (states_for_chunks(5, 0, chunks), per_chunk),
                      rule_arrays(get_rules(rules)), (HEURISTIC, default_params()), out)
    _check(out.reshape(-1, out.shape[-1]), fixed, free)


def test_bury_query_deals_follow_brute_force_enumeration():
    slots = _a_deal(12)
    seat = 0
    slots[seat] = slots[seat] + slots[4]  # the burier holds its 33
    slots[4] = []
    free = _free_cards(slots, [1, 2, 3], seed=4)
    fixed = _pin(slots, free)
    sizes = np.array([33, 25, 25, 25, 0], dtype=np.int64)
    levels = np.array([2, 2], dtype=np.int64)
    standing = np.zeros(5, dtype=np.int64)
    bury = np.array([planes_of(sorted(slots[seat])[:8])], dtype=np.int64)
    chunks, per_chunk = 4, 800
    out = np.empty((chunks, per_chunk, kd.Q_VALUES + 1), dtype=np.int64)
    kd.bury_chunks((fixed, sizes, seat, seat, levels, standing), (0, bury),
                   (states_for_chunks(6, 0, chunks), per_chunk), rule_arrays(get_rules(None)),
                   (HEURISTIC, default_params()), out)
    _check(out.reshape(-1, out.shape[-1]), fixed, free)
