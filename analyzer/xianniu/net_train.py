"""The 掀牛 side of ``net``'s self-play training (:mod:`analyzer.core.selfplay`).

:class:`XianniuSelfPlay` plays hands of every preset in turn with the kernels
(:func:`kernels.xianniu.net_selfplay.selfplay_hands`): the behaviour is ``net`` with the
weights in training, or ``learned`` before the first fit; each decision's input is φ and the
taken action's candidate input, its return the acting seat's final points. Weights are
evaluated by duplicate tournaments against ``learned`` on every preset. :func:`action_hash`
is the stored check the shipped weights carry: a hash of every action ``net`` takes in 200
seeded hands of a preset, which the tests replay.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import numpy as np

from kernels.rng import states_from_seed
from kernels.xianniu import batch as kb
from kernels.xianniu import game as kg
from kernels.xianniu.net_selfplay import selfplay_hands
from kernels.xianniu.policies import (
    NET_ACT,
    NET_H1,
    NET_H2,
    NET_STATE,
    POLICY_LEARNED,
    POLICY_NET,
)

from ..core.stats import mean_ci
from .learned import policy_row as learned_row
from .net import policy_row
from .rules import get_rules
from .sim import rule_arrays
from .tournament import tournament

PRESETS = ("lanzhou", "kanniutui")
SIZES = (NET_STATE + NET_ACT, NET_H1, NET_H2, 1)
MAX_DECISIONS = 64  # decisions kept per hand (hands average about 12 with a choice)
CHECK_HANDS = 200


def net_row(weights: np.ndarray | None) -> np.ndarray:
    """The parameter row of ``net`` with ``weights`` (None: learned's row, net's part zero)."""
    return learned_row() if weights is None else policy_row(weights)


def selfplay(weights: np.ndarray | None, rules: str, seed: np.random.SeedSequence, hands: int,
             explore: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``hands`` self-play hands of ``rules`` (hand ``h`` from the ``h``-th stream spawned
    from ``seed``): every decision's input ``[φ, x]``, the acting seat's final points and
    the hand."""
    rk = rule_arrays(get_rules(rules))
    states = states_from_seed(seed, hands)
    phi = np.zeros((hands, MAX_DECISIONS, NET_STATE), dtype=np.float32)
    x = np.zeros((hands, MAX_DECISIONS, NET_ACT), dtype=np.float32)
    seat = np.zeros((hands, MAX_DECISIONS), dtype=np.int64)
    counts = np.zeros(hands, dtype=np.int64)
    points = np.zeros((hands, 3), dtype=np.int64)
    how = (np.int64(POLICY_LEARNED if weights is None else POLICY_NET), float(explore))
    selfplay_hands(states, rk, net_row(weights), how, (phi, x, seat, counts, points))
    keep = np.arange(MAX_DECISIONS)[None, :] < counts[:, None]
    hand = np.broadcast_to(np.arange(hands)[:, None], keep.shape)[keep]
    inputs = np.concatenate([phi[keep], x[keep]], axis=1)
    returns = points[hand, seat[keep]].astype(np.float32)
    return inputs, returns, hand


@dataclass(frozen=True)
class XianniuSelfPlay:
    """The adapter :class:`analyzer.core.selfplay.Trainer` trains ``net`` with."""
    presets: tuple[str, ...] = PRESETS
    name: str = "xianniu"
    sizes: tuple[int, ...] = SIZES

    def play(self, weights: np.ndarray | None, seed: np.random.SeedSequence, hands: int,
             explore: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Self-play split evenly between the presets, each from its own spawned child."""
        xs, ys, hs = [], [], []
        first = 0
        for k, (rules, child) in enumerate(zip(self.presets, seed.spawn(len(self.presets)))):
            n = hands // len(self.presets) + (1 if k < hands % len(self.presets) else 0)
            if n == 0:
                continue
            x, y, h = selfplay(weights, rules, child, n, explore)
            xs.append(x)
            ys.append(y)
            hs.append(h + first)
            first += n
        return np.concatenate(xs), np.concatenate(ys), np.concatenate(hs)

    def evaluate(self, weights: np.ndarray, seed: int, deals: int) -> dict[str, Any]:
        """net − learned in duplicate tournaments, each preset and the mean of the presets'
        per-deal differences (``score``), each with a 95% CI and n."""
        out: dict[str, Any] = {}
        per = []
        for rules in self.presets:
            res = tournament("net,learned", deals, rules, seed, rows={"net": policy_row(weights)})
            d = res.per_deal[:, 0] - res.per_deal[:, 1]
            per.append(d)
            out[rules] = mean_ci(d).as_dict()
        both = mean_ci(np.mean(per, axis=0))
        out["both"] = both.as_dict()
        out["score"] = float(both.value)
        out["text"] = ", ".join(
            f"{r} {out[r]['value']:+.3f} [{out[r]['low']:+.3f}, {out[r]['high']:+.3f}]"
            for r in (*self.presets, "both")) + f" (n={deals} deals each)"
        return out


def action_hash(weights: np.ndarray, rules: str, seed: int, hands: int = CHECK_HANDS) -> str:
    """sha256 of every action (seat, type, cards) ``net`` with ``weights`` takes at all
    three seats in ``hands`` hands of ``rules`` dealt from ``seed`` (one stream)."""
    rk = rule_arrays(get_rules(rules))
    row = policy_row(weights)
    ids = np.full(3, POLICY_NET, dtype=np.int64)
    pol = (ids, np.ascontiguousarray(np.tile(row, (3, 1))))
    states = states_from_seed(seed, 1)
    out = np.zeros((hands, kg.N_RESULT), dtype=np.int64)
    deals = np.zeros((hands, 3), dtype=np.int64)
    actions = np.zeros((1, hands * 64), dtype=np.int64)
    used = np.zeros(1, dtype=np.int64)
    kb.recorded_chunks(states, hands, hands, rk, pol, (out, deals, actions, used))
    if used[0] < 0:
        raise ValueError("the check's action buffer is too short")
    h = hashlib.sha256(actions[0, :used[0]].tobytes())
    h.update(out.tobytes())
    return h.hexdigest()
