"""pimc's inference: hidden deals weighed by how likely they make the other seats' 扣 and 掀.

The weight of a deal is checked against the reference engine (each choice's seat, hand, captured
cards and unseen cards rebuilt by replaying the record), shown to favour the true deal over
uniform samples when the other seats play the modelled policy, and shown not to read what the
deciding seat cannot see.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from analyzer.xianniu.cards import FULL_DECK
from analyzer.xianniu.engine import ACTION_KINDS, DISCARD, KOU, PLAY, XIAN, Action, new_hand
from analyzer.xianniu.rules import get_rules
from analyzer.xianniu.sim import deal_hands, policy_arrays, rule_arrays
from kernels.rng import states_from_seed
from kernels.xianniu import game as kg
from kernels.xianniu.batch import full_log
from kernels.xianniu.pimc import INFER_FLOOR, choice_weight, sample_positions, seat_to_act
from kernels.xianniu.policies import H_KOU_BELOW, H_XIAN_AT, PIMC_INFER, estimate2

PRESETS = ("lanzhou", "kanniutui")
SOFT = 1.0  # cards


def _row(soft: float = SOFT) -> np.ndarray:
    row = policy_arrays("pimc2")[1][0].copy()
    row[PIMC_INFER] = soft
    return row


def _positions(rules: str, n_deals: int, seed: int, k: int):
    """Decisions of a pimc seat (acting at random) among heuristic2 seats, with ``k`` hidden
    deals sampled at each: (deal, history, state words, samples) per position."""
    rk = rule_arrays(get_rules(rules))
    rng = states_from_seed(seed, 1)[0]
    out = []
    for d, deal in enumerate(deal_hands(n_deals, seed=seed).astype(np.int64)):
        names = ["heuristic2"] * 3
        names[d % 3] = "pimc"
        snaps = np.zeros((64, kg.WS_SIZE), dtype=np.int64)
        samples = np.zeros((64, k, kg.WS_SIZE), dtype=np.int64)
        logbuf = full_log()
        n = sample_positions(deal, rk, policy_arrays(names), rng, k, snaps, samples, logbuf)
        for p in range(n):
            ws = snaps[p]
            history = [(int(logbuf[0][i, 0]), Action(ACTION_KINDS[logbuf[0][i, 1]],
                                                     int(logbuf[0][i, 2])))
                       for i in range(int(ws[kg.S_N_ACT]))]
            out.append((deal, history, ws, samples[p]))
    return rk, out


def _reference_weight(rules: str, deal, history, seat: int, row: np.ndarray, rk) -> float:
    """The weight of the true deal, from the reference engine's replay of the record."""
    r = get_rules(rules)
    state = new_hand([int(h) for h in deal], r)
    public = 0
    discards = [0, 0, 0]
    weight = 1.0
    for o, a in history:
        kind = None
        if state.phase == "lead" and a.kind == KOU:
            kind = "lead kou"
        elif state.phase == "kou_ask" and not state.said_kou[o]:
            kind = "xian" if a.kind == XIAN else "kou answer"
        captured = sum(p.size for p in state.captured[o])
        if kind is not None and o != seat and not (kind == "lead kou" and captured >= r.gou_min):
            hand = state.hands[o]
            unseen = FULL_DECK & ~hand & ~public & ~discards[o]
            est = estimate2(np.int64(hand), np.int64(unseen), np.int64(captured), rk[2], row)
            if kind == "lead kou":
                p = 1 / (1 + math.exp(-(row[H_KOU_BELOW] - est) / row[PIMC_INFER]))
            else:
                p = 1 / (1 + math.exp(-(est - row[H_XIAN_AT]) / row[PIMC_INFER]))
                if kind == "kou answer":
                    p = 1 - p
            weight *= INFER_FLOOR + (1 - 2 * INFER_FLOOR) * p
        if a.kind == PLAY:
            public |= a.cards
        elif a.kind == DISCARD:
            discards[o] |= a.cards
        state.apply(a)
    return weight


@pytest.mark.parametrize("rules", PRESETS)
def test_the_true_deals_weight_equals_the_reference_engines(rules):
    rk, positions = _positions(rules, 100, seed=41, k=1)
    row = _row()
    weighed = 0
    for deal, history, ws, _ in positions:
        seat = int(seat_to_act(ws))
        got = choice_weight(ws, seat, rk, row)
        assert got == pytest.approx(_reference_weight(rules, deal, history, seat, row, rk),
                                    rel=1e-12), (rules, len(history))
        weighed += got != 1.0
    # the check has teeth: most positions carry other seats' choices
    assert len(positions) > 300 and weighed > len(positions) // 2


@pytest.mark.parametrize("rules", PRESETS)
def test_inference_favours_deals_like_the_true_one(rules):
    """The other seats play heuristic2, the model: the true deal explains their choices
    better than deals drawn only to fit the public record."""
    rk, positions = _positions(rules, 100, seed=43, k=8)
    row = _row()
    true_log = sampled_log = 0.0
    n = 0
    for _, _, ws, samples in positions:
        seat = int(seat_to_act(ws))
        truth = choice_weight(ws, seat, rk, row)
        drawn = [choice_weight(s, seat, rk, row) for s in samples if s[0] != -1]
        if truth == 1.0 or not drawn:
            continue
        true_log += math.log(truth)
        sampled_log += float(np.mean(np.log(drawn)))
        n += 1
    assert n > 300
    assert (true_log - sampled_log) / n > 0.2  # nats per position


def test_no_inference_weighs_every_deal_alike():
    rk, positions = _positions("lanzhou", 10, seed=45, k=2)
    off, on = _row(0.0), _row()
    drawn = [(int(seat_to_act(ws)), s) for _, _, ws, samples in positions for s in samples
             if s[0] != -1]
    assert all(choice_weight(s, seat, rk, off) == 1.0 for seat, s in drawn)
    assert sum(choice_weight(s, seat, rk, on) != 1.0 for seat, s in drawn) > len(drawn) // 4


def test_the_variant_script_plays_the_changed_row_against_its_base(capsys):
    import importlib.util
    from pathlib import Path

    path = Path(__file__).parents[2] / "scripts" / "measure" / "xianniu_pimc_variant.py"
    spec = importlib.util.spec_from_file_location("xianniu_pimc_variant", path)
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    args = ["--set", "infer=3", "--set", "samples=2", "--deals", "4", "--seed", "5"]
    assert script.main(args) == 0
    out = capsys.readouterr().out
    assert "pimc2:infer=3,samples=2 − pimc2" in out and "n=4 deals, seed 5" in out
    assert script.main(args) == 0 and capsys.readouterr().out.split(" s)")[0].rsplit(",", 1)[0] \
        == out.split(" s)")[0].rsplit(",", 1)[0]  # seeded: the same figures again
    with pytest.raises(SystemExit) as bad:
        script.main(["--set", "oracle=1"])
    assert bad.value.code == 2
    assert "NAME one of infer" in capsys.readouterr().err
