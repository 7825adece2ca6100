"""kernels.xianniu.sampler against the generators it replaces, entry by entry."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from analyzer.xianniu.crosscheck import themed_deals
from analyzer.xianniu.rules import get_rules
from analyzer.xianniu.sim import rule_arrays
from kernels.rng import states_from_seed
from kernels.xianniu.batch import deal_many
from kernels.xianniu.game import MAX_ACTIONS
from kernels.xianniu.plays import INFO_COLS, gen_answers, gen_plays
from kernels.xianniu.sampler import answer_at, count_answers, count_plays, play_at
from kernels.xianniu.tables import (
    KIND_BAI,
    KIND_BAI_LIANG,
    KIND_FISH,
    KIND_FISH_LIANG,
    KIND_K_BAI,
    KIND_NIU,
    KIND_SET,
    KIND_XI,
    KIND_XI_BAO_LIANG,
)

PRESETS = ("lanzhou", "kanniutui")
N_KINDS = 11

# The checking loops below are jit-compiled but not cached: a cached caller keeps its own
# copy of the sampler functions it calls and would not see a change to kernels/sampler.py.


@njit(cache=True)  # cached: a warm suite should not compile it again
def _check_plays(hands, params, set_beats, fail, kinds):
    """count_plays / play_at against gen_plays for every hand and max_size 1..16.

    Returns the number of entries compared; on the first disagreement fills ``fail`` with
    (hand index, max_size, entry, got mask, wanted mask) and returns -1. ``kinds[kind]``
    counts the entries compared by kind.
    """
    am = np.empty(MAX_ACTIONS, dtype=np.int64)
    ai = np.empty((MAX_ACTIONS, INFO_COLS), dtype=np.int64)
    info = np.empty(INFO_COLS, dtype=np.int64)
    compared = 0
    for h in range(hands.shape[0]):
        hand = hands[h]
        for ms in range(1, 17):
            n = gen_plays(hand, params, set_beats, ms, am, ai, 0)
            c = count_plays(hand, params, set_beats, ms)
            if c != n:
                fail[0], fail[1], fail[2], fail[3], fail[4] = h, ms, -1, c, n
                return -1
            for i in range(n):
                info[:] = -99
                m = play_at(hand, params, set_beats, ms, i, info)
                same = m == am[i]
                for j in range(INFO_COLS):
                    if info[j] != ai[i, j]:
                        same = False
                if not same:
                    fail[0], fail[1], fail[2], fail[3], fail[4] = h, ms, i, m, am[i]
                    return -1
                kinds[ai[i, 1]] += 1
            info[:] = -99
            if play_at(hand, params, set_beats, ms, n, info) != -1 or info[0] != -99 \
                    or play_at(hand, params, set_beats, ms, -1, info) != -1:
                fail[0], fail[1], fail[2], fail[3], fail[4] = h, ms, n, -2, -1
                return -1
            compared += n
    return compared


@njit(cache=True)
def _check_answers_to(hand, tops, n_tops, set_beats, am, ai, info, kinds):
    """count_answers / answer_at against gen_answers for one hand and tops[:n_tops].

    Returns -1 if all agree, else the index of the first top that disagrees.
    """
    for t in range(n_tops):
        kind, size, rank, k = tops[t, 1], tops[t, 2], tops[t, 3], tops[t, 4]
        n = gen_answers(hand, kind, size, rank, k, set_beats, am, ai, 0)
        if count_answers(hand, kind, size, rank, k, set_beats) != n:
            return t
        for i in range(n):
            info[:] = -99
            m = answer_at(hand, kind, size, rank, k, set_beats, i, info)
            if m != am[i]:
                return t
            for j in range(INFO_COLS):
                if info[j] != ai[i, j]:
                    return t
            kinds[ai[i, 1]] += 1
        info[:] = -99
        if answer_at(hand, kind, size, rank, k, set_beats, n, info) != -1 or info[0] != -99:
            return t
    return -1


@njit(cache=True)
def _check_answers(hands, top_hands, params, set_beats, grid, fail, kinds):
    """Every hand against every play of its top hand and against every top in ``grid``.

    Returns the number of (hand, top) pairs compared, or -1 with ``fail`` =
    (hand index, 0 for a top-hand play / 1 for a grid top, top index).
    """
    am = np.empty(MAX_ACTIONS, dtype=np.int64)
    ai = np.empty((MAX_ACTIONS, INFO_COLS), dtype=np.int64)
    tm = np.empty(MAX_ACTIONS, dtype=np.int64)
    ti = np.empty((MAX_ACTIONS, INFO_COLS), dtype=np.int64)
    info = np.empty(INFO_COLS, dtype=np.int64)
    pairs = 0
    for h in range(hands.shape[0]):
        nt = gen_plays(top_hands[h], params, set_beats, 16, tm, ti, 0)
        bad = _check_answers_to(hands[h], ti, nt, set_beats, am, ai, info, kinds)
        if bad >= 0:
            fail[0], fail[1], fail[2] = h, 0, bad
            return -1
        bad = _check_answers_to(hands[h], grid, grid.shape[0], set_beats, am, ai, info, kinds)
        if bad >= 0:
            fail[0], fail[1], fail[2] = h, 1, bad
            return -1
        pairs += nt + grid.shape[0]
    return pairs


def _top_grid() -> np.ndarray:
    """Every (type, kind, size, rank, k) a top play can have, whatever a hand holds."""
    rows = []
    for size in range(1, 5):
        for rank in range(12):
            rows.append((0, KIND_SET, size, rank, 0))
    for size in (2, 3):
        rows.append((0, KIND_NIU, size, 7, 0))
        rows.append((0, KIND_XI, size, 3, 0))
    for k in range(1, 5):
        rows.append((0, KIND_FISH, 3 * k, -1, k))
        rows.append((0, KIND_BAI, 3 * k, -1, k))
    rows.append((0, KIND_FISH_LIANG, 6, 0, 0))
    rows.append((0, KIND_BAI_LIANG, 6, 11, 0))
    rows.append((0, KIND_K_BAI, 4, 11, 0))
    rows.append((0, KIND_K_BAI, 5, 11, 0))
    for size in (6, 7):
        for rank in range(12):
            if rank != 3:
                rows.append((0, KIND_XI_BAO_LIANG, size, rank, 0))
    return np.array(rows, dtype=np.int64)


def _drop_cards(hands: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Each hand with every card kept with a per-hand probability in [0.15, 1)."""
    keep = rng.random((len(hands), 48)) < rng.uniform(0.15, 1.0, size=(len(hands), 1))
    bits = (keep.astype(np.int64) << np.arange(48, dtype=np.int64)).sum(axis=1)
    return hands & bits


def _hands(seed: int) -> np.ndarray:
    """Random full hands, random sub-hands of them, themed hands and the empty hand."""
    deals = np.empty((700, 3), dtype=np.int64)
    deal_many(states_from_seed(seed, 1)[0], 700, deals)
    full = deals.reshape(-1)
    themed = themed_deals(500, seed).reshape(-1)
    rng = np.random.default_rng(seed)
    return np.concatenate([full, _drop_cards(full, rng), themed, _drop_cards(themed, rng),
                           np.zeros(1, dtype=np.int64)])


@pytest.fixture(scope="module")
def hands():
    return _hands(20260314)


@pytest.mark.parametrize("rules", PRESETS)
def test_play_at_matches_gen_plays(rules, hands):
    params, set_beats, _ = rule_arrays(get_rules(rules))
    fail = np.full(5, -1, dtype=np.int64)
    kinds = np.zeros(N_KINDS, dtype=np.int64)
    compared = _check_plays(hands, params, set_beats, fail, kinds)
    assert compared > 0, (f"hand {hands[fail[0]]:#x} max_size {fail[1]} entry {fail[2]}: "
                          f"got {fail[3]:#x}, gen_plays {fail[4]:#x}")
    assert compared > 1_000_000
    expected = [KIND_SET, KIND_NIU, KIND_XI, KIND_FISH, KIND_FISH_LIANG, KIND_BAI, KIND_BAI_LIANG]
    if rules == "lanzhou":
        expected += [KIND_K_BAI, KIND_XI_BAO_LIANG]
    for kind in expected:
        assert kinds[kind] > 50, kind
    if rules == "kanniutui":
        assert kinds[KIND_K_BAI] == 0 and kinds[KIND_XI_BAO_LIANG] == 0


@pytest.mark.parametrize("rules", PRESETS)
def test_answer_at_matches_gen_answers(rules, hands):
    params, set_beats, _ = rule_arrays(get_rules(rules))
    # each hand answers the plays of another hand (its neighbour in the list: often the
    # next seat of the same deal, so themed seats meet their rare answers)
    top_hands = np.roll(hands, 1)
    fail = np.full(3, -1, dtype=np.int64)
    kinds = np.zeros(N_KINDS, dtype=np.int64)
    pairs = _check_answers(hands, top_hands, params, set_beats, _top_grid(), fail, kinds)
    assert pairs > 0, (f"hand {hands[fail[0]]:#x}, top {fail[2]} of "
                       f"{'the top hand' if fail[1] == 0 else 'the grid'}")
    assert pairs > 500_000
    for kind in (KIND_SET, KIND_NIU, KIND_BAI, KIND_BAI_LIANG):
        assert kinds[kind] > 50, kind
    if rules == "lanzhou":
        assert kinds[KIND_XI_BAO_LIANG] > 50


def test_out_of_range_index():
    params, set_beats, _ = rule_arrays(get_rules("lanzhou"))
    info = np.full(INFO_COLS, 7, dtype=np.int64)
    assert count_plays(0, params, set_beats, 16) == 0
    assert play_at(0, params, set_beats, 16, 0, info) == -1
    assert (info == 7).all()
    hand = 0xF  # the four aces
    assert count_plays(hand, params, set_beats, 16) == 15
    assert count_plays(hand, params, set_beats, 2) == 4 + 6
    assert play_at(hand, params, set_beats, 16, 15, info) == -1
    assert play_at(hand, params, set_beats, 16, 14, info) == 0xF
    assert info.tolist() == [0, KIND_SET, 4, 0, 0]
    assert count_answers(hand, KIND_FISH, 3, -1, 1, set_beats) == 0
    assert answer_at(hand, KIND_SET, 1, 0, 0, set_beats, 0, info) == -1
