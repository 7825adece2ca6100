"""A position rebuilt from the reference engine equals the kernels' own state, word for word."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.xianniu.crosscheck import themed_deals
from analyzer.xianniu.engine import ACTION_KINDS, Action, new_hand
from analyzer.xianniu.kernel_state import SCRATCH_WORDS, ws_from_state
from analyzer.xianniu.rules import get_rules
from analyzer.xianniu.sim import deal_hands, policy_arrays, rule_arrays
from kernels.rng import states_from_seed
from kernels.xianniu import game as kg
from kernels.xianniu.batch import full_log
from kernels.xianniu.pimc import sample_positions

TOP = [kg.S_TOP_KIND, kg.S_TOP_SIZE, kg.S_TOP_RANK, kg.S_TOP_K, kg.S_TOP_OWNER]


def meaningful(ws: np.ndarray) -> dict:
    """The words that describe the game (stale scratch and unused slots left out)."""
    phase = int(ws[kg.S_PHASE])
    core = [int(ws[i]) for i in range(kg.S_N_PASS + 1)
            if i not in SCRATCH_WORDS and i not in TOP
            and not kg.WS_QUEUE <= i < kg.WS_QUEUE + 3 and i not in (kg.S_QI, kg.S_QLEN)
            and not (i == kg.S_LIMIT and phase != kg.PH_DISCARD)]
    queue = [] if phase == kg.PH_LEAD else \
        [int(ws[kg.WS_QUEUE + i]) for i in range(int(ws[kg.S_QI]), int(ws[kg.S_QLEN]))]
    top = [int(ws[i]) for i in TOP] if phase == kg.PH_TRICK else []
    n_x, n_p, n_c = int(ws[kg.S_N_XIAN]), int(ws[kg.S_N_PASS]), int(ws[kg.S_N_CHOICE])
    return {"core": core, "queue": queue, "top": top,
            "xian": ws[kg.WS_XIAN_X:kg.WS_XIAN_X + n_x].tolist()
            + ws[kg.WS_XIAN_T:kg.WS_XIAN_T + n_x].tolist(),
            "passes": ws[kg.WS_PASS:kg.WS_PASS + n_p * kg.PASS_COLS].tolist(),
            "choices": ws[kg.WS_CHOICE:kg.WS_CHOICE + n_c * kg.CHOICE_COLS].tolist()}


@pytest.mark.parametrize("rules", ["lanzhou", "kanniutui"])
def test_rebuilt_positions_equal_kernel_positions(rules):
    r = get_rules(rules)
    rk = rule_arrays(r)
    deals = np.concatenate([deal_hands(150, seed=3).astype(np.int64), themed_deals(80, 3)])
    rng = states_from_seed(1, 1)[0]
    compared = with_choices = 0
    for d, deal in enumerate(deals):
        names = ["random"] * 3
        names[d % 3] = "pimc"
        snaps = np.zeros((64, kg.WS_SIZE), dtype=np.int64)
        samples = np.zeros((64, 1, kg.WS_SIZE), dtype=np.int64)
        logbuf = full_log()
        n = sample_positions(deal, rk, policy_arrays(names), rng, 1, snaps, samples, logbuf)
        for p in range(n):
            ws = snaps[p]
            state = new_hand([int(h) for h in deal], r)
            for i in range(int(ws[kg.S_N_ACT])):
                state.apply(Action(ACTION_KINDS[logbuf[0][i, 1]], int(logbuf[0][i, 2])))
            assert meaningful(ws_from_state(state)) == meaningful(ws), (rules, d, p)
            compared += 1
            with_choices += ws[kg.S_N_CHOICE] > 0
    assert compared > 1000 and with_choices > compared // 4
