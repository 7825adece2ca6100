"""The kernel contract (kernels/contract.py) against each game's reference engine, verb by
verb: random hands of every preset replayed through the kernels' verbs alone must list the
engine's seat to act and legal actions at every step, and score the engine's returns.

The games whose kernels speak the contract give a ``BRIDGE`` in their ``sim`` part
(:class:`analyzer.core.game.KernelBridge`).
"""

from __future__ import annotations

import random
from typing import NamedTuple

import numpy as np
import pytest

from analyzer.core.game import KernelBridge, NotListed
from analyzer.games import GAMES, get_game
from kernels import contract, drivers

BRIDGED = [g for g in GAMES if isinstance(getattr(get_game(g).part("sim"), "BRIDGE", None),
                                          KernelBridge)]
CASES = [(g, p) for g in BRIDGED for p in get_game(g).facts.presets]
HANDS = 2000


def _random_hands(game: str, preset: str, n: int, seed: int):
    """``n`` random hands of the engine, each with what it showed before every action:
    the seat to act and the kernels' codes of its legal actions (None where the engine
    does not list them)."""
    engine = get_game(game).part("engine")
    bridge = get_game(game).part("sim").BRIDGE
    rng = random.Random(seed)
    hands = []
    for _ in range(n):
        st = engine.random_start(preset, rng)
        deal = bridge.deal_row(st)
        steps = []
        while not st.is_terminal():
            try:
                listed = sorted(bridge.action(st, b) for b in st.legal_actions())
            except NotListed:
                listed = None
            a = engine.random_action(st, rng)
            steps.append((st.current_player(), bridge.action(st, a), listed))
            st.apply(a)
        hands.append((deal, steps, list(st.returns())))
    return hands


def _replay(rules, hands):
    """The replay driver's answers for ``hands``, a hundred hands at a time (a step's
    legal list has room for every action a game may list)."""
    out = []
    for lo in range(0, len(hands), 100):
        part = hands[lo:lo + 100]
        width = max(len(steps) for _, steps, _ in part)
        actions = np.zeros((len(part), width), dtype=np.int64)
        for g, (_, steps, _) in enumerate(part):
            actions[g, :len(steps)] = [a for _, a, _ in steps]
        n_actions = np.array([len(steps) for _, steps, _ in part], dtype=np.int64)
        deals = np.stack([deal for deal, _, _ in part])
        out.extend(zip(*drivers.replay(rules, deals, actions, n_actions)))
    return out


def test_every_game_with_kernels_is_bridged():
    assert {"dingniu", "xianniu"} <= set(BRIDGED)
    assert all(type(get_game(g).part("sim").BRIDGE.rules(get_game(g).facts.presets[0]))
               in contract.registered(steps=True) for g in BRIDGED)


def test_a_game_without_step_verbs_is_refused_by_the_step_drivers():
    """双升 plays whole hands only: the replay driver refuses its rules by name, before
    compiling anything."""
    from analyzer.shengji.sim import kernel_rules

    rules = kernel_rules("zhengzhou", np.array([2, 2]), 0)
    assert type(rules) in contract.registered() and \
        type(rules) not in contract.registered(steps=True)
    with pytest.raises(TypeError, match="has no verb"):
        drivers.replay(rules, rules.deal_rows(1), np.zeros((1, 1), dtype=np.int64),
                       np.zeros(1, dtype=np.int64))


def test_register_refuses_a_partial_step_set():
    class Rules(NamedTuple):
        params: np.ndarray

    play = {v: (lambda *a: None) for v in contract.PLAY_VERBS}
    with pytest.raises(TypeError, match="missing verbs"):
        contract.register(Rules, **play, legal=lambda rules, state, out: 0)


@pytest.mark.parametrize("game,preset", CASES)
def test_kernel_verbs_follow_the_engine_step_by_step(game, preset):
    bridge = get_game(game).part("sim").BRIDGE
    hands = _random_hands(game, preset, HANDS, seed=20261206)
    _compare(bridge, hands, _replay(bridge.rules(preset), hands))


def _compare(bridge, hands, replayed):
    for g, ((_, steps, returns), (seats, legal, n_legal, result)) in enumerate(
            zip(hands, replayed)):
        for i, (seat, a, listed) in enumerate(steps):
            got = sorted(legal[i, :n_legal[i]].tolist())
            assert seats[i] == seat, f"hand {g} step {i}: the kernels' seat {seats[i]}"
            assert got == listed if listed is not None else a in got, \
                f"hand {g} step {i}: the kernels list {got[:8]}…, the engine {listed[:8]}…"
        assert seats[len(steps)] == -1, f"hand {g}: the kernels' hand did not end"
        assert bridge.returns(result) == list(returns), f"hand {g}: returns"


@pytest.mark.parametrize("game", BRIDGED)
def test_the_replay_check_has_teeth(game):
    """Each hand's deal with the next hand's actions: the comparison must fail."""
    bridge = get_game(game).part("sim").BRIDGE
    preset = get_game(game).facts.presets[0]
    rules = bridge.rules(preset)
    hands = _random_hands(game, preset, 50, seed=7)
    _compare(bridge, hands, _replay(rules, hands))
    crossed = [(deal, hands[(g + 1) % len(hands)][1], r)
               for g, (deal, _, r) in enumerate(hands)]
    with pytest.raises(AssertionError):
        _compare(bridge, hands, _replay(rules, crossed))


def test_register_refuses_a_verb_whose_arguments_are_named_otherwise():
    class Rules(NamedTuple):
        params: np.ndarray

    play = {v: getattr(contract, v) for v in contract.PLAY_VERBS}
    play["load_state"] = lambda rules, dst, src: None
    with pytest.raises(TypeError, match="load_state takes"):
        contract.register(Rules, **play)
