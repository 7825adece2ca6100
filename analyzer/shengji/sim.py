"""Checked wrappers over the 双升 kernels: the rule vector, policy ids, deals and play-only
hands (``kernels.shengji``).

>>> from analyzer.shengji.rules import CLASSIC
>>> from kernels.shengji.params import P_KITTY_MULTIPLIER, KITTY_POW_SIZE
>>> int(rule_arrays(CLASSIC)[P_KITTY_MULTIPLIER]) == KITTY_POW_SIZE
True
"""

from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path

import numpy as np

from kernels.rng import states_from_seed
from kernels.shengji.params import param_vector
from kernels.shengji.policies import (
    HEURISTIC_DEFAULTS,
    HEURISTIC_NAMES,
    P_PIMC_SAMPLES,
    P_PIMC_Z,
    POLICY_HEURISTIC,
    POLICY_NAMES,
    pimc_flag,
)
from kernels.shengji.policies import seat_policies as kernel_seats
from kernels.shengji.verbs import Rules as KernelRules

from ..core.drive import play_rows, seatings_of
from .cards import NT, parse_level, parse_trump
from .rules import ShengjiRules, get_rules

# Every policy 双升 plays, with its help line (``analyzer.core.cli_common.policy_help``).
POLICIES = {
    "random": "uniform over the legal choices",
    "heuristic": "rules of thumb from what its seat knows",
    "tuned": "the heuristic with its preset's tuned parameters",
    "pimc": "sampled deals played out by the heuristic, slow",
    "net": "tuned, with a small self-play network choosing its leads and follows",
    "pimc2": "pimc from net's choice, 128 sampled deals played out by tuned, slow",
}
# The policies that sample hidden deals at every lead and follow: seconds a deal, not µs.
SLOW_POLICIES = ("pimc", "pimc2")
# The strongest policy fast enough for the decision queries, advise and the table's bots.
QUERY_POLICY = "net"
PIMC2_SAMPLES = 128  # pimc2's hidden deals a decision (pimc keeps its row's 16)
PIMC2_Z = 2.0  # pimc2 leaves net's pick only for a gain this many SEs above 0 (pimc: 1)
# Each policy's kernel id (``kernels.shengji.policies``): ``tuned`` is the heuristic playing
# the parameter row of :func:`policy_row`.
POLICY_IDS = {**{name: i for i, name in enumerate(POLICY_NAMES)}, "tuned": POLICY_HEURISTIC}
assert set(POLICY_IDS) == set(POLICIES)
TUNED_FILE = Path(__file__).with_name("tuned.json")
CHUNK = 1024  # hands or deals per random stream
SLOW_CHUNK = 8  # the same with a slow seat: enough streams to keep every core busy
SLOW_MAX = 2_000  # whole hands a statistic plays with slow seats (seconds a hand)
N_SEATS = 4


def rule_arrays(rules: str | ShengjiRules | None) -> np.ndarray:
    """The kernels' int64 rule vector (``kernels.shengji.params``) of a preset."""
    r = get_rules(rules)
    return param_vector({f.name: getattr(r, f.name) for f in fields(r)})


def kernel_rules(rules: str | ShengjiRules | None, levels: np.ndarray, banker: int) -> KernelRules:
    """The drivers' rules bundle: the rule vector of ``rules`` and the start of the hand
    (the teams' ``levels``, ``banker`` going in, -1 for a 抢庄局)."""
    return KernelRules(rule_arrays(rules), np.ascontiguousarray(levels, dtype=np.int64),
                       int(banker))


def driver_policies(pol: np.ndarray, hp: np.ndarray) -> tuple:
    """The play driver's policies bundle: ``(ids, parameters, pimc)`` (``pimc``: True when
    a seat searches or plays net, else None: the search is then not compiled in)."""
    return pol, hp, pimc_flag(pol)


def whole_hand_rows(rules: KernelRules, pols: tuple[np.ndarray, np.ndarray], streams: np.ndarray,
               chunk: int, n: int) -> np.ndarray:
    """Whole-hand rows (``game.W_*``) of ``n`` hands dealt and played by the play driver,
    chunk ``c`` from ``streams[c]`` (``pols``: ``(ids, parameters)``, one row per seat)."""
    return play_rows(rules, seatings_of(driver_policies(*pols)), streams, chunk, n)[:, 0]


def is_slow(names) -> bool:
    """Whether any of the policy ``names`` samples hidden deals (:data:`SLOW_POLICIES`)."""
    return any(n in SLOW_POLICIES for n in names)


def seat_names(policies: str) -> list[str]:
    """The policy of each seat from one name (every seat) or four names ``a,b,c,d``."""
    names = [p.strip().lower() for p in str(policies).split(",")]
    if len(names) == 1:
        names *= N_SEATS
    if len(names) != N_SEATS:
        raise ValueError(f"give one policy or {N_SEATS} (one per seat, a,b,c,d), "
                         f"got {len(names)}")
    for n in names:
        if n not in POLICIES:
            raise ValueError(f"unknown policy {n!r} (choose from {', '.join(POLICIES)})")
    return names


def policy_ids(policies: str) -> np.ndarray:
    """Policy id per seat from one name (every seat) or four names ``a,b,c,d``."""
    return np.array([POLICY_IDS[n] for n in seat_names(policies)], dtype=np.int64)


def seat_policies(policies: str, rules: str | ShengjiRules | None = None
                  ) -> tuple[np.ndarray, np.ndarray]:
    """``(ids int64[4], parameters float64[4, N_HEURISTIC])`` of one name or four
    ``a,b,c,d``: each seat's kernel policy and the parameter row it plays
    (:func:`policy_row`)."""
    names = seat_names(policies)
    return (np.array([POLICY_IDS[n] for n in names], dtype=np.int64),
            stack_rows([policy_row(n, rules) for n in names]))


def stack_rows(rows) -> np.ndarray:
    """Parameter rows as one float64 array, the shorter padded with zeros (a net row
    carries its weights after the heuristic's entries; the heuristic reads none of them)."""
    width = max(len(r) for r in rows)
    out = np.zeros((len(rows), width))
    for i, r in enumerate(rows):
        out[i, :len(r)] = r
    return out


def tuned_row(rules: str | ShengjiRules | None = None) -> np.ndarray:
    """The tuned heuristic parameters of a preset (``tuned.json``, written by
    ``scripts/train/shengji_tune.py``); the defaults for a preset not tuned. Parameters the file
    does not name keep their defaults."""
    name = get_rules(rules).name
    row = HEURISTIC_DEFAULTS.copy()
    data = json.loads(TUNED_FILE.read_text(encoding="utf-8")) if TUNED_FILE.exists() else {}
    if name in data:
        names = data[name]["names"]
        for k, v in zip(names, data[name]["weights"]):
            row[HEURISTIC_NAMES.index(k)] = v
    return row


def policy_row(name: str, rules: str | ShengjiRules | None = None) -> np.ndarray:
    """The parameter row a policy plays with: the preset's tuned row for ``tuned``, that
    row with the preset's shipped weights for ``net`` (``analyzer.shengji.net``; longer
    than N_HEURISTIC) and for ``pimc2`` with ``PIMC2_SAMPLES`` samples and ``PIMC2_Z``, the
    defaults for the others."""
    if name not in POLICIES:
        raise ValueError(f"unknown policy {name!r} (choose from {', '.join(POLICIES)})")
    if name in ("net", "pimc2"):
        from .net import net_row, net_weights  # the weights file when net plays

        row = net_row(tuned_row(rules), *net_weights(rules))
        if name == "pimc2":
            row[P_PIMC_SAMPLES], row[P_PIMC_Z] = PIMC2_SAMPLES, PIMC2_Z
        return row
    row = tuned_row(rules) if name == "tuned" else HEURISTIC_DEFAULTS.copy()
    return row


def check_n(n, what: str = "hands") -> int:
    """``n`` as a positive int; ValueError otherwise."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"the number of {what} must be a positive integer, got {n!r}")
    return int(n)


def check_setting(level, trump, banker: int) -> tuple[int, int, int]:
    """``(level 2..14, trump 0..4, banker 0..3)`` from level/trump text or codes."""
    lv = parse_level(level) if isinstance(level, str) else level
    if isinstance(lv, bool) or not isinstance(lv, (int, np.integer)) or not 2 <= lv <= 14:
        raise ValueError(f"level must be 2..14 (A), got {level!r}")
    t = trump if isinstance(trump, (int, np.integer)) and not isinstance(trump, bool) \
        else parse_trump(trump)
    if not 0 <= t <= NT:
        raise ValueError(f"trump must be 0..3 (♠♥♣♦) or 4 (NT), got {trump!r}")
    if isinstance(banker, bool) or banker not in range(N_SEATS):
        raise ValueError(f"banker must be a seat 0..3, got {banker!r}")
    return int(lv), int(t), int(banker)


def deal_features(n: int, level=2, trump=0, rules=None, seed: int = 0,
                  banker: int = 0) -> np.ndarray:
    """The deal aggregate (``kernels.shengji.deal`` ``DS_*`` / ``DT_*``, int64) of ``n``
    deals at (L, T) with ``banker``, summed over the chunks."""
    from kernels.shengji.deal import DEAL_AGG_SIZE, deal_chunks  # the kernels when used: the
    #                                 commands' help reads POLICIES without loading them

    n = check_n(n, "deals")
    lv, t, b = check_setting(level, trump, banker)
    states = states_from_seed(seed, -(-n // CHUNK))
    out = np.zeros((len(states), DEAL_AGG_SIZE), dtype=np.int64)
    deal_chunks(states, CHUNK, n, lv, t, b, rule_arrays(rules), out)
    return out.sum(axis=0)


def play_hands(n: int, rules=None, seed: int = 0, level=2, trump=0,
               banker: int = 0) -> np.ndarray:
    """Result rows (``kernels.shengji.hand.R_*``) of ``n`` play-only random hands."""
    from kernels.shengji.batch import play_chunks
    from kernels.shengji.hand import N_RESULT

    n = check_n(n)
    lv, t, b = check_setting(level, trump, banker)
    states = states_from_seed(seed, -(-n // CHUNK))
    out = np.empty((n, N_RESULT), dtype=np.int64)
    play_chunks(states, CHUNK, n, (lv, t, b), rule_arrays(rules), out)
    return out


def check_start(levels, banker) -> tuple[np.ndarray, int]:
    """Team levels (two of 2..14) as int64[2] and the start banker (a seat, or None for a
    抢庄局: -1), checked."""
    lv = [parse_level(v) if isinstance(v, str) else v for v in levels]
    if len(lv) != 2 or any(isinstance(v, bool) or not isinstance(v, (int, np.integer))
                           or not 2 <= v <= 14 for v in lv):
        raise ValueError(f"levels are two team levels 2..14 (A), got {levels!r}")
    if banker is not None and (isinstance(banker, bool) or banker not in range(N_SEATS)):
        raise ValueError(f"banker must be a seat 0..3 or None (抢庄局), got {banker!r}")
    return np.array(lv, dtype=np.int64), -1 if banker is None else int(banker)


def whole_hands(n: int, rules=None, seed: int = 0, levels=(2, 2),
                banker: int | None = 0) -> np.ndarray:
    """Result rows (``kernels.shengji.game.W_*``) of ``n`` whole random hands from the deal
    (造反, bidding, bury, 扒鸡窝, play) with team ``levels`` and start ``banker``."""
    n = check_n(n)
    lv, b = check_start(levels, banker)
    states = states_from_seed(seed, -(-n // CHUNK))
    return whole_hand_rows(kernel_rules(rules, lv, b), kernel_seats(), states, CHUNK, n)


def seat0_joker_pairs(n: int, seed: int = 0) -> tuple[int, int]:
    """Of the deals of :func:`deal_features` (same ``n`` and ``seed``): how many give seat 0
    the 大王 pair and the 小王 pair (the aggregate counts either pair only)."""
    from kernels.shengji import deal as kd

    n = check_n(n, "deals")
    states = states_from_seed(seed, -(-n // CHUNK))
    out = np.zeros((len(states), 2), dtype=np.int64)
    kd.seat0_joker_pairs(states, CHUNK, n, out)
    big, small = out.sum(axis=0)
    return int(big), int(small)
