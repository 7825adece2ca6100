"""Checked wrappers over the 双升 kernels: the rule vector, policy ids, deals and play-only
hands (``kernels.shengji``).

>>> from analyzer.shengji.rules import CLASSIC
>>> from kernels.shengji.params import P_KITTY_MULTIPLIER, KITTY_POW_SIZE
>>> int(rule_arrays(CLASSIC)[P_KITTY_MULTIPLIER]) == KITTY_POW_SIZE
True
"""

from __future__ import annotations

from dataclasses import fields

import numpy as np
from numba import njit, prange

from kernels.rng import states_from_seed
from kernels.shengji.context import new_context
from kernels.shengji.deal import DEAL_AGG_SIZE, deal, deal_chunks
from kernels.shengji.hand import N_RESULT, no_log, play_chunks, play_hand
from kernels.shengji.params import P_NT_LEVEL_JOKER_TRACTOR, param_vector

from .cards import NT, parse_level, parse_trump
from .rules import ShengjiRules, get_rules

POLICIES = {"random": 0}  # the kernels' policies: only the random one so far
CHUNK = 1024  # hands or deals per random stream
N_SEATS = 4


def rule_arrays(rules: str | ShengjiRules | None) -> np.ndarray:
    """The kernels' int64 rule vector (``kernels.shengji.params``) of a preset."""
    r = get_rules(rules)
    return param_vector({f.name: getattr(r, f.name) for f in fields(r)})


def policy_ids(policies: str) -> np.ndarray:
    """Policy id per seat from one name (every seat) or four names ``a,b,c,d``."""
    names = [p.strip().lower() for p in str(policies).split(",")]
    if len(names) == 1:
        names *= N_SEATS
    if len(names) != N_SEATS:
        raise ValueError(f"give one policy or {N_SEATS} (one per seat, a,b,c,d), "
                         f"got {len(names)}")
    for n in names:
        if n not in POLICIES:
            raise ValueError(f"unknown 双升 policy {n!r} (choose from {', '.join(POLICIES)}; "
                             f"the kernels play no other yet)")
    return np.array([POLICIES[n] for n in names], dtype=np.int64)


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
    n = check_n(n, "deals")
    lv, t, b = check_setting(level, trump, banker)
    states = states_from_seed(seed, -(-n // CHUNK))
    out = np.zeros((len(states), DEAL_AGG_SIZE), dtype=np.int64)
    deal_chunks(states, CHUNK, n, lv, t, b, rule_arrays(rules), out)
    return out.sum(axis=0)


def play_hands(n: int, rules=None, seed: int = 0, level=2, trump=0,
               banker: int = 0) -> np.ndarray:
    """Result rows (``kernels.shengji.hand.R_*``) of ``n`` play-only random hands."""
    n = check_n(n)
    lv, t, b = check_setting(level, trump, banker)
    states = states_from_seed(seed, -(-n // CHUNK))
    out = np.empty((n, N_RESULT), dtype=np.int64)
    play_chunks(states, CHUNK, n, lv, t, b, rule_arrays(rules), out)
    return out


@njit(parallel=True, cache=True)
def dealt_chunks(states, n_per_chunk, n_hands, level, trump, banker, params, deals, out):
    """``hand.play_chunks`` that also keeps each deal in ``deals[h]`` (int64[5, 2]): the
    same hands from the same streams."""
    for c in prange(states.shape[0]):
        rng = states[c].copy()
        ctx = new_context(trump, level, params[P_NT_LEVEL_JOKER_TRACTOR] != 0)
        deck = np.empty(108, dtype=np.uint8)
        log = no_log()
        for i in range(c * n_per_chunk, min((c + 1) * n_per_chunk, n_hands)):
            deal(rng, deck, deals[i])
            play_hand(deals[i], banker, ctx, params, rng, out[i], log)


@njit(cache=True)
def _seat0_joker_pairs(states, n_per_chunk, n_deals, out):
    """Per chunk: deals where seat 0 holds 對大王 and 對小王 (``out[c] = big, small``)."""
    hands = np.empty((5, 2), dtype=np.int64)
    deck = np.empty(108, dtype=np.uint8)
    for c in range(states.shape[0]):
        rng = states[c].copy()
        for _ in range(c * n_per_chunk, min((c + 1) * n_per_chunk, n_deals)):
            deal(rng, deck, hands)
            out[c, 0] += (hands[0, 1] >> 53) & 1
            out[c, 1] += (hands[0, 1] >> 52) & 1


def seat0_joker_pairs(n: int, seed: int = 0) -> tuple[int, int]:
    """Of the deals of :func:`deal_features` (same ``n`` and ``seed``): how many give seat 0
    the 大王 pair and the 小王 pair (the aggregate counts either pair only)."""
    n = check_n(n, "deals")
    states = states_from_seed(seed, -(-n // CHUNK))
    out = np.zeros((len(states), 2), dtype=np.int64)
    _seat0_joker_pairs(states, CHUNK, n, out)
    big, small = out.sum(axis=0)
    return int(big), int(small)
