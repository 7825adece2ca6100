"""The 双升 side of ``net``'s self-play training (:mod:`analyzer.core.selfplay`).

:class:`ShengjiSelfPlay` plays whole hands of one preset with the kernels
(:func:`kernels.shengji.net_selfplay.selfplay_chunks`): every seat is net with the weights
in training (before the first fit: the tuned heuristic's choices), ε-greedy over its
candidates. At a logged decision (probability ``log_rate``) every candidate is played out on
the true deal by the tuned heuristic for all four seats; each candidate other than the
heuristic's choice gives one sample, its input and its gain over that choice in points for
the acting seat's side (attackers: their points after 抠底; banker side: minus those), in
units of ``kernels.shengji.net.SCALE``. The network is the action-value of deviating from
the heuristic, so the heuristic's choice needs no sample and no forward pass.

Why points and why play-outs: the tournament measures both levels and points, and levels
are a step function of the attackers' points (turnover at 80, a level per 40), so the points
carry the same ordering with far less noise. And a hand's final result moves by tens of
points with the cards alone; the gain of one decision over the heuristic's, both played out
on the same true deal, removes that noise (the cards the seat cannot see are still unknown
to the network: it is fitted to the mean over the deals self-play meets, as pimc averages
over the deals it samples).

Weights are evaluated by team duplicate tournaments against ``tuned`` (``score``: net −
tuned in attackers' points per deal). :func:`action_hash` is the stored check the shipped
weights carry: a hash of every action of 200 seeded whole hands with net on every seat.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import numpy as np

from kernels.rng import states_from_seed
from kernels.shengji import batch as kb
from kernels.shengji import game as kw
from kernels.shengji import hand as kh
from kernels.shengji.net_selfplay import selfplay_chunks
from kernels.shengji.policies import (
    NET_EXPLORE,
    NET_H1,
    NET_H2,
    NET_IN,
    NET_LOG,
    POLICY_NET,
    pimc_flag,
)

from ..core.stats import mean_ci
from .crosscheck import KernelHands
from .net import net_row
from .rules import get_rules
from .sim import CHUNK as SIM_CHUNK
from .sim import rule_arrays, tuned_row
from .tournament import play_duplicate, scores

PRESETS = ("zhengzhou", "classic")
SIZES = (NET_IN, NET_H1, NET_H2, 1)
MAX_ROWS = 48  # samples kept per hand (about 20 at the default log rate)
LOG_RATE = 0.1
CHUNK = 64  # hands per random stream
LEVELS = (2, 2)  # the tournament's start: team levels 2 and 2, seat 0 the banker
BANKER = 0
CHECK_HANDS = 200


def selfplay(weights: np.ndarray | None, margin: float, rules: str,
             seed: np.random.SeedSequence, hands: int, explore: float,
             log_rate: float = LOG_RATE) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``hands`` self-play whole hands of ``rules`` from ``seed`` (chunk ``c`` of
    :data:`CHUNK` hands from the ``c``-th spawned stream): every sample's input, its target
    and its hand."""
    r = get_rules(rules)
    row = net_row(tuned_row(r), weights, margin)
    row[NET_EXPLORE], row[NET_LOG] = explore, log_rate
    pols = (np.full(4, POLICY_NET, dtype=np.int64), np.ascontiguousarray(np.tile(row, (4, 1))))
    states = states_from_seed(seed, -(-hands // CHUNK))
    xs = np.zeros((hands, MAX_ROWS, NET_IN), dtype=np.float32)
    ys = np.zeros((hands, MAX_ROWS), dtype=np.float32)
    counts = np.zeros(hands, dtype=np.int64)
    start = (np.array(LEVELS, dtype=np.int64), BANKER)
    selfplay_chunks((states, CHUNK, hands), start, rule_arrays(r), pols, (xs, ys, counts))
    keep = np.arange(MAX_ROWS)[None, :] < counts[:, None]
    hand = np.broadcast_to(np.arange(hands)[:, None], keep.shape)[keep]
    return xs[keep], ys[keep], hand


def duel(weights: np.ndarray, margin: float, rules: str, seed: int, deals: int
         ) -> dict[str, Any]:
    """net (these weights and margin) − tuned in team duplicate over ``deals`` deals of
    ``rules``: attackers' points and levels per deal, each with a 95% CI and n."""
    r = get_rules(rules)
    tuned = tuned_row(r)
    rows = play_duplicate(["net", "tuned"], deals, r, seed,
                          rows=(net_row(tuned, weights, margin), tuned))
    levels, points, _ = scores(rows)
    return {"points": mean_ci(points[:, 0] - points[:, 1]).as_dict(),
            "levels": mean_ci(levels[:, 0] - levels[:, 1]).as_dict()}


def _text(d: dict[str, Any]) -> str:
    p, lv = d["points"], d["levels"]
    return (f"points {p['value']:+.2f} [{p['low']:+.2f}, {p['high']:+.2f}], levels "
            f"{lv['value']:+.4f} [{lv['low']:+.4f}, {lv['high']:+.4f}] (n={p['n']} deals)")


@dataclass(frozen=True)
class ShengjiSelfPlay:
    """The adapter :class:`analyzer.core.selfplay.Trainer` trains one preset's ``net``
    with (one weight set per preset: the presets score the kitty and the throws
    differently)."""
    rules: str = "zhengzhou"
    margin: float = 0.0
    log_rate: float = LOG_RATE
    sizes: tuple[int, ...] = SIZES

    @property
    def name(self) -> str:
        return f"shengji-{self.rules}"

    def play(self, weights: np.ndarray | None, seed: np.random.SeedSequence, hands: int,
             explore: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return selfplay(weights, self.margin, self.rules, seed, hands, explore, self.log_rate)

    def evaluate(self, weights: np.ndarray, seed: int, deals: int) -> dict[str, Any]:
        """net − tuned (:func:`duel`); ``score``: the points per deal."""
        out = duel(weights, self.margin, self.rules, seed, deals)
        out["score"] = float(out["points"]["value"])
        out["text"] = _text(out)
        return out


def net_hands(row: np.ndarray, rules: str, seed: int, hands: int) -> KernelHands:
    """``hands`` whole hands of ``rules`` from ``seed`` with every log kept (for replays in
    the reference engine), net with the parameter row ``row`` on every seat."""
    hp = np.ascontiguousarray(np.tile(row, (4, 1)))
    pol = np.full(4, POLICY_NET, dtype=np.int64)
    states = states_from_seed(seed, -(-hands // SIM_CHUNK))
    res = np.zeros((hands, kw.N_WHOLE), dtype=np.int64)
    deals = np.zeros((hands, 2, 5, 2), dtype=np.int64)
    alogs = np.zeros((hands, kw.MAX_ACTIONS, kw.AL_WIDTH), dtype=np.int64)
    chances = np.zeros((hands, kw.CH_SIZE), dtype=np.int64)
    tlogs = np.zeros((hands, kh.MAX_TRICKS, kh.LOG_WIDTH), dtype=np.int64)
    kb.whole_logged((states, SIM_CHUNK, hands), (np.array(LEVELS, dtype=np.int64), BANKER),
                    rule_arrays(rules), (pol, hp), (res, deals, alogs, chances, tlogs),
                    pimc_flag(pol))
    return KernelHands(LEVELS, BANKER, res, deals, alogs, chances, tlogs)


def action_hash(row: np.ndarray, rules: str, seed: int, hands: int = CHECK_HANDS) -> str:
    """sha256 of every logged action, trick and result of ``hands`` whole hands of
    ``rules`` from ``seed`` with net (parameter row ``row``) on every seat."""
    kh_ = net_hands(row, rules, seed, hands)
    h = hashlib.sha256()
    for a in (kh_.res, kh_.alogs, kh_.tlogs):
        h.update(np.ascontiguousarray(a, dtype=np.int64).tobytes())
    return h.hexdigest()
