"""The decision kernels continue a hand exactly as the whole-hand kernel plays it: when the
asked seat's option is the heuristic's own choice, the level change equals that of
``game.whole_hand`` on the same deal and stream, for every deal tried (declaring at the
banker's first turn, and 造反 or not for the first qualifying defender)."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.shengji.rules import get_rules
from analyzer.shengji.sim import rule_arrays
from kernels.rng import states_for_chunks
from kernels.shengji import decisions as kd
from kernels.shengji import game as kw
from kernels.shengji.bidding import legal_declarations, rebel_candidates
from kernels.shengji.deal import deal_many
from kernels.shengji.heuristic_bid import heuristic_declare, heuristic_rebel
from kernels.shengji.policies import default_params

N_DEALS = 120
HEURISTIC = np.ones(4, dtype=np.int64)
LEVELS = np.array([5, 5], dtype=np.int64)


def _deals(seed: int) -> np.ndarray:
    out = np.empty((N_DEALS, 5, 2), dtype=np.int64)
    deal_many(states_for_chunks(seed, 0, 1)[0], N_DEALS, out)
    return out


def _whole_swing(deal, state, params, team: int) -> int:
    deals = np.zeros((2, 5, 2), dtype=np.int64)
    deals[0] = deal
    res = np.empty(kw.N_WHOLE, dtype=np.int64)
    chance = np.empty(kw.CH_SIZE, dtype=np.int64)
    kw.whole_hand(deals, (LEVELS, 0), params, state.copy(), np.empty(108, dtype=np.uint8),
                  (res, np.empty((0, kw.AL_WIDTH), dtype=np.int64), chance,
                   np.empty((0, 13), dtype=np.int64)), (HEURISTIC, default_params()))
    return int((res[kw.W_LEVEL0_AFTER + team] - LEVELS[team])
               - (res[kw.W_LEVEL0_AFTER + 1 - team] - LEVELS[1 - team]))


@pytest.mark.parametrize("rules", ["zhengzhou", "classic"])
def test_declaring_the_heuristics_choice_is_the_whole_hand(rules):
    params = rule_arrays(get_rules(rules).with_(rebel_enabled=False))
    hp = default_params()
    states = states_for_chunks(1, 0, N_DEALS)
    dcls, dsuit = np.zeros(10, dtype=np.int64), np.zeros(10, dtype=np.int64)
    declared = 0
    for deal, state in zip(_deals(3), states):
        k = legal_declarations(deal[0, 0], deal[0, 1], 5, (0, 0, -1), 0, False, params,
                               (dcls, dsuit))
        pick = heuristic_declare(deal[0, 0], deal[0, 1], 5, (0, 0, -1), (0, 0, False, False),
                                 (dcls, dsuit, k), hp[0])
        option = [[dcls[pick - 1], dsuit[pick - 1]]] if pick else [[0, 0]]
        declared += pick > 0
        out = np.empty((1, 1, kd.Q_VALUES + 1), dtype=np.int64)
        pos = (deal, np.array([25, 25, 25, 25, 8], dtype=np.int64), 0, 0, LEVELS,
               np.zeros(5, dtype=np.int64))
        kd.declare_chunks(pos, kd.first_round_ask(pos, 0, np.array(option, dtype=np.int64)),
                          (state.reshape(1, 4).copy(), 1), params, (HEURISTIC, hp), out)
        assert out[0, 0, kd.Q_VALUES] == _whole_swing(deal, state, params, 0)
    assert 0 < declared < N_DEALS  # both branches met


def test_rebelling_as_the_heuristic_would_is_the_whole_hand():
    params = rule_arrays(get_rules("zhengzhou"))
    hp = default_params()
    states = states_for_chunks(2, 0, N_DEALS * 8)
    cands = np.zeros(2, dtype=np.int64)
    seen = {True: 0, False: 0}
    for deal, state in zip(np.concatenate([_deals(s) for s in range(5, 13)]), states):
        if rebel_candidates(deal, 0, params, cands) == 0:
            continue
        seat = int(cands[0])
        yes = bool(heuristic_rebel(deal[seat, 0], deal[seat, 1], 5, hp[seat]))
        seen[yes] += 1
        out = np.empty((1, 1, kd.Q_VALUES + 2), dtype=np.int64)
        pos = (deal, np.array([25, 25, 25, 25, 8], dtype=np.int64), seat, 0, LEVELS,
               np.zeros(5, dtype=np.int64))
        kd.rebel_chunks(pos, (state.reshape(1, 4).copy(), 1), params, (HEURISTIC, hp), out)
        option = 0 if yes else 1
        assert out[0, 0, kd.Q_VALUES + option] == _whole_swing(deal, state, params, seat % 2)
    assert seen[True] > 0 and seen[False] > 0
