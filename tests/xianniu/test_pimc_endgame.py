"""pimc with exact play-outs (``PIMC_ENDGAME``: open-hand max-n values once few cards are
left): it plays legal hands, reads only its seat's view, and the exact play-outs change
choices. The variant is pimc2 with ``PIMC_ENDGAME`` 9, named here for the test only."""

from __future__ import annotations

import numpy as np
import pytest
from test_pimc2 import PRESETS, _pick, _positions, _redeal_hidden

from analyzer.xianniu import sim
from kernels.xianniu import solver as ks
from kernels.xianniu.pimc import seat_to_act
from kernels.xianniu.policies import PIMC_ENDGAME, POLICY_PIMC

ENDGAME = 9
NAME = "pimc2-endgame"


@pytest.fixture
def endgame_variant(monkeypatch):
    monkeypatch.setitem(sim.PIMC_VARIANTS, NAME,
                        {**sim.PIMC_VARIANTS["pimc2"], PIMC_ENDGAME: ENDGAME})
    monkeypatch.setitem(sim.POLICY_IDS, NAME, POLICY_PIMC)
    monkeypatch.setitem(sim.POLICIES, NAME, "pimc2 with an exact endgame")


def _row(samples=6):
    row = sim.policy_arrays("pimc2", pimc_samples=samples)[1][0]
    row[PIMC_ENDGAME] = ENDGAME
    return row


def _late(positions, cards):
    return [p for p in positions if ks.cards_left(p[0]) <= cards]


@pytest.mark.parametrize("rules", PRESETS)
def test_exact_play_outs_play_only_legal_actions(rules, endgame_variant):
    from analyzer.xianniu.crosscheck import crosscheck

    report = crosscheck(40, rules, seed=9, policies=f"{NAME},heuristic2,pimc2", pimc_samples=3)
    assert report.hands == 40 and report.mismatches == []


@pytest.mark.parametrize("rules", PRESETS)
def test_exact_play_outs_ignore_cards_the_seat_cannot_see(rules):
    from kernels.xianniu import game as kg

    rk, positions = _positions(rules, 10, seed=41)
    late = _late(positions, ENDGAME + 4)  # exact play-outs from the first action on, or soon
    gen = np.random.default_rng(8)
    moved = 0
    for i, (ws, am, ai) in enumerate(late):
        seat = seat_to_act(ws)
        other = _redeal_hidden(ws, seat, gen)
        moved += any(ws[kg.WS_HANDS + o] != other[kg.WS_HANDS + o] for o in range(3) if o != seat)
        assert _pick(rk, _row(), ws, (am, ai), i) == _pick(rk, _row(), other, (am, ai), i)
    assert len(late) >= 10 and moved >= len(late) - 2  # the hidden hands really changed


def test_exact_play_outs_change_choices():
    """Late in the hand the variant and pimc2 (the same but for the exact play-outs) disagree
    on some positions, from the same stream: the endgame path is taken and matters."""
    differ = checked = 0
    rk, positions = _positions("kanniutui", 12, seed=43)  # lanzhou hands end with more cards
    plain = sim.policy_arrays("pimc2", pimc_samples=6)[1][0]
    for i, (ws, am, ai) in enumerate(_late(positions, ENDGAME + 3)):
        checked += 1
        differ += _pick(rk, plain, ws, (am, ai), i) != _pick(rk, _row(), ws, (am, ai), i)
    assert checked >= 10 and differ > 0
