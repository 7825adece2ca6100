"""pimc and pimc2 read only their seat's view, and pimc2's play-outs are heuristic2's."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.xianniu.rules import get_rules
from analyzer.xianniu.sim import deal_hands, policy_arrays, rule_arrays
from kernels.arrays import copy_into
from kernels.rng import states_from_seed
from kernels.xianniu import game as kg
from kernels.xianniu.pimc import pimc_pick, seat_to_act
from kernels.xianniu.policies import (
    PIMC_BUDGET,
    PIMC_INFER,
    PIMC_ROLLOUT,
    PIMC_SAMPLES,
    POLICY_HEURISTIC,
    POLICY_HEURISTIC2,
    POLICY_PIMC,
)

PRESETS = ("lanzhou", "kanniutui")


def _positions(rules, n_hands, seed):
    """Every pimc decision (state words and listed actions) of ``n_hands`` hands played by
    pimc (4 samples) at every seat."""
    rk = rule_arrays(get_rules(rules))
    ids, params = policy_arrays("pimc", pimc_samples=4)
    rng = states_from_seed(seed, 1)[0]
    scratch, work = kg.new_scratch(), kg.new_scratch()
    ws = scratch[2]
    logbuf = (np.empty((kg.MAX_LOG, 3), dtype=np.int64), np.empty((1, 2), dtype=np.int64),
              np.empty(1, dtype=np.int64))
    out = []
    for d, deal in enumerate(deal_hands(n_hands, seed=seed).astype(np.int64)):
        kg.start_hand(deal, np.int64(d % 3), rk[0], ws)
        ws[kg.S_TRACK] = 1
        status = kg.advance(rk, (ids, params), rng, scratch, logbuf, np.int64(0), np.int64(-1))
        while status != 0:
            out.append((ws.copy(), scratch[0].copy(), scratch[1].copy()))
            pick = pimc_pick(rk, params[0], rng, scratch, work)
            status = kg.advance(rk, (ids, params), rng, scratch, logbuf, np.int64(0),
                                np.int64(pick))
    return rk, out


def _redeal_hidden(ws, seat, gen):
    """``ws`` with the cards ``seat`` cannot see (the other seats' hands and discards) dealt
    anew, every count kept."""
    other = [(seat + 1) % 3, (seat + 2) % 3]
    slots = [kg.WS_HANDS + o for o in other] + [kg.WS_DISC + o for o in other]
    cards = [c for s in slots for c in range(48) if int(ws[s]) >> c & 1]
    sizes = [bin(int(ws[s])).count("1") for s in slots]
    gen.shuffle(cards)
    out = ws.copy()
    at = 0
    for s, k in zip(slots, sizes):
        out[s] = sum(1 << c for c in cards[at:at + k])
        at += k
    return out


def _played_out(rk, ws, seed):
    """The points of the hand at ``ws`` played out by the heuristic at every seat."""
    scratch = kg.new_scratch()
    copy_into(scratch[2], ws)
    logbuf = (np.empty((kg.MAX_LOG, 3), dtype=np.int64), np.empty((1, 2), dtype=np.int64),
              np.empty(1, dtype=np.int64))
    kg.advance(rk, policy_arrays("heuristic"), states_from_seed(seed, 1)[0], scratch, logbuf,
               np.int64(0), np.int64(0))
    res = np.empty(kg.N_RESULT, dtype=np.int64)
    kg.finish_hand(rk[0], scratch[2], res)
    return tuple(res[kg.R_PTS0:kg.R_PTS0 + 3])


def _pick(rk, row, ws, lists, seed):
    scratch, work = kg.new_scratch(), kg.new_scratch()
    copy_into(scratch[2], ws)
    scratch[0][:] = lists[0]
    scratch[1][:] = lists[1]
    return pimc_pick(rk, row, states_from_seed(seed, 1)[0], scratch, work)


@pytest.mark.parametrize("rules", PRESETS)
def test_pimc_choices_ignore_cards_the_seat_cannot_see(rules):
    rk, positions = _positions(rules, 6, seed=31)
    gen = np.random.default_rng(7)
    checked = moved = outcome_changed = 0
    inferring = policy_arrays("pimc2", pimc_samples=6)[1][0].copy()
    inferring[PIMC_INFER] = 1.0  # its weights read only the public choice log
    rows = (policy_arrays(n, pimc_samples=6)[1][0] for n in ("pimc", "pimc2", "pimc-net"))
    for row in (*rows, inferring):
        for i, (ws, am, ai) in enumerate(positions):
            seat = seat_to_act(ws)
            other = _redeal_hidden(ws, seat, gen)
            hidden = [kg.WS_HANDS + o for o in range(3) if o != seat]
            moved += any(ws[s] != other[s] for s in hidden)
            assert _pick(rk, row, ws, (am, ai), i) == _pick(rk, row, other, (am, ai), i)
            outcome_changed += _played_out(rk, ws, i) != _played_out(rk, other, i)
            checked += 1
    # the check has teeth: the hidden hands really changed, and often changed how the hand ends
    assert checked >= 120 and moved >= checked - 8 and outcome_changed >= checked // 4


def test_pimc2_plays_out_with_heuristic2_and_pimc_with_the_heuristic():
    ids, params = policy_arrays("pimc,pimc2,heuristic")
    assert list(ids[:2]) == [POLICY_PIMC, POLICY_PIMC]
    assert params[0, PIMC_ROLLOUT] == POLICY_HEURISTIC
    assert params[1, PIMC_ROLLOUT] == POLICY_HEURISTIC2
    assert params[0, PIMC_SAMPLES] == params[1, PIMC_SAMPLES] == 24
    assert params[0, PIMC_BUDGET] == 0 and params[1, PIMC_BUDGET] == 512
    # the play-out policy matters: on some positions the two choose differently
    rk, positions = _positions("lanzhou", 8, seed=5)
    rows = [policy_arrays(n, pimc_samples=8)[1][0] for n in ("pimc", "pimc2")]
    differ = sum(_pick(rk, rows[0], ws, (am, ai), i) != _pick(rk, rows[1], ws, (am, ai), i)
                 for i, (ws, am, ai) in enumerate(positions))
    assert differ > 0


def test_pimc_net_plays_out_with_the_shipped_network_in_every_command(monkeypatch):
    """pimc-net's row carries net's weights, in simulate's arrays and in a tournament's
    seatings alike (a row without them would play out with a zero network), and the
    weights decide: with them negated, its choices move."""
    from analyzer.xianniu import tournament as tour
    from analyzer.xianniu.net import policy_row as net_row
    from kernels.xianniu.policies import LEARNED_W, POLICY_NET

    ids, params = policy_arrays("pimc-net,net,pimc2")
    assert list(ids) == [POLICY_PIMC, POLICY_NET, POLICY_PIMC]
    assert params[0, PIMC_ROLLOUT] == POLICY_NET and params[0, PIMC_BUDGET] == 128
    assert np.array_equal(params[0, LEARNED_W:], net_row()[LEARNED_W:])
    seen = []

    def play_rows(rk, seated, *args, **kw):
        seen.append(seated)
        raise StopIteration  # the rows are all this test needs
    monkeypatch.setattr(tour, "play_rows", play_rows)
    with pytest.raises(StopIteration):
        tour.tournament("pimc-net,net,pimc2", 2, "lanzhou", seed=1)
    seat_ids, seat_params, _ = seen[0]
    for s, seat in np.ndindex(seat_ids.shape):  # every seat plays one of the three rows whole
        assert any(np.array_equal(seat_params[s, seat], params[k]) for k in range(3))
    assert (seat_params[..., PIMC_ROLLOUT] == POLICY_NET).sum() == len(seat_ids)
    rk, positions = _positions("lanzhou", 8, seed=5)
    row = policy_arrays("pimc-net", pimc_samples=8)[1][0]
    negated = row.copy()
    negated[LEARNED_W:] = -negated[LEARNED_W:]
    differ = sum(_pick(rk, row, ws, (am, ai), i) != _pick(rk, negated, ws, (am, ai), i)
                 for i, (ws, am, ai) in enumerate(positions))
    assert differ > 0


def test_inference_is_off_by_default_and_changes_choices_when_on():
    assert policy_arrays("pimc2")[1][0][PIMC_INFER] == 0.0
    assert policy_arrays("pimc")[1][0][PIMC_INFER] == 0.0
    rk, positions = _positions("lanzhou", 8, seed=5)
    plain = policy_arrays("pimc2", pimc_samples=8)[1][0]
    inferring = plain.copy()
    inferring[PIMC_INFER] = 0.5
    differ = sum(_pick(rk, plain, ws, (am, ai), i) != _pick(rk, inferring, ws, (am, ai), i)
                 for i, (ws, am, ai) in enumerate(positions))
    assert differ > 0
