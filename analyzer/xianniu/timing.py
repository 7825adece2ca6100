"""Time per decision of 掀牛 policies: whole hands on one core, every seat playing the policy.

A decision is a move with more than one legal action (forced moves cost a search player
nothing). Hands are played one by one with their log, which tells the decisions apart; for
the fast policies the figure therefore includes the call per hand and the logging, an upper
bound of a few microseconds. Each round plays the same deals under every policy in turn,
the order reversed every other round, so load from other work on a shared machine falls on
all of them alike; the median over rounds is kept, with the fastest and slowest round. These
are the only figures here that a seed does not fix.
"""

from __future__ import annotations

import statistics
import time

import numpy as np
import pandas as pd

from kernels.rng import states_from_seed
from kernels.xianniu import game as kg
from kernels.xianniu.batch import play_logged

from .rules import Rules, get_rules
from .sim import SEARCH, deal_hands, policy_arrays, rule_arrays


class _Player:
    """Plays logged hands of one policy from one stream; counts decisions, keeps seconds."""

    def __init__(self, pol, rk, seed: int):
        self.pol, self.rk = pol, rk
        self.seed = seed
        self.log = np.empty((kg.MAX_LOG, 3), dtype=np.int64)
        self.legal = np.empty((kg.MAX_LOG * 128, 2), dtype=np.int64)
        self.legal_off = np.empty(kg.MAX_LOG + 1, dtype=np.int64)
        self.res = np.empty(kg.N_RESULT, dtype=np.int64)

    def play(self, deals: np.ndarray) -> tuple[float, int]:
        """Seconds and decisions for ``deals``, from a fresh copy of the stream."""
        rng = states_from_seed(self.seed, 1)[0]
        secs, decisions = 0.0, 0
        for d in deals:
            t = time.perf_counter()
            n = play_logged(d, 0, self.rk, self.pol, rng, (self.log, self.legal,
                                                           self.legal_off), self.res)
            secs += time.perf_counter() - t
            decisions += int((np.diff(self.legal_off[:n + 1]) > 1).sum())
        return secs, decisions


def move_times(policies: tuple[str, ...] | list[str], rules: str | Rules | None = None,
               seed: int = 0, hands: int = 2000, search_hands: int = 6,
               rounds: int = 3) -> pd.DataFrame:
    """Milliseconds per decision of each policy (``hands`` hands a round, ``search_hands``
    for pimc and its variants; the same deals for all), one row per policy:
    ``ms_per_decision`` (median over ``rounds``), ``ms_low``/``ms_high`` (fastest and
    slowest round), ``decisions`` and ``hands`` per round, ``rounds``, ``seed``."""
    if rounds < 1 or hands < 1 or search_hands < 1:
        raise ValueError("timing needs at least one round and one hand")
    r = get_rules(rules)
    rk = rule_arrays(r)
    sizes = {p: search_hands if p in SEARCH else hands for p in policies}
    deals = deal_hands(max(sizes.values()), seed).astype(np.int64)
    players = {p: _Player(policy_arrays([p] * 3, rules=r), rk, seed) for p in policies}
    decisions = {}
    for p in policies:  # compile or load from the cache, and count the decisions, untimed
        decisions[p] = players[p].play(deals[:sizes[p]])[1]
    secs: dict[str, list[float]] = {p: [] for p in policies}
    for k in range(rounds):
        for p in (policies if k % 2 == 0 else policies[::-1]):
            secs[p].append(players[p].play(deals[:sizes[p]])[0])
    rows = []
    for p in policies:
        ms = [1e3 * s / max(1, decisions[p]) for s in secs[p]]
        rows.append({"rules": r.name, "policy": p, "ms_per_decision": statistics.median(ms),
                     "ms_low": min(ms), "ms_high": max(ms), "decisions": decisions[p],
                     "hands": sizes[p], "rounds": rounds, "seed": seed})
    return pd.DataFrame(rows)
