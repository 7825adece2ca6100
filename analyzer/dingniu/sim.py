"""Checked wrappers over the 顶牛 kernels: rule arrays, state conversion and batch runs."""

from __future__ import annotations

import numpy as np

from kernels.dingniu import game as kd
from kernels.rng import states_from_seed

from .engine import SUAN, State
from ..core.seats import seat_policy_names
from .rules import N_KINDS, N_SEATS, DingniuRules, get_rules

POLICIES = {"random": kd.RANDOM, "heuristic": kd.HEURISTIC}
CHUNK = 1024


def rule_arrays(r: DingniuRules) -> tuple[np.ndarray, np.ndarray]:
    """(tiles[13, 5], params[8]) of a preset, in the kernels' layout."""
    tiles = np.array([[a, b, a + b, c, int(a == b)] for (a, b), c in zip(r.ends, r.counts)],
                     dtype=np.int64)
    params = np.zeros(kd.N_PARAMS, dtype=np.int64)
    params[kd.P_WIN] = r.win_points
    params[kd.P_L1:kd.P_L3 + 1] = r.loss_points
    params[kd.P_FACTOR] = r.suan_factor
    params[kd.P_NO_DRAG] = int(r.lead_no_drag)
    params[kd.P_SUAN] = int(r.suan_zhang)
    params[kd.P_PAIR_MASK] = sum(1 << k for k in r.lead_pair_kinds)
    return tiles, params


def policy_ids(policies: str | list[str]) -> np.ndarray:
    """Policy ids per seat from ``"heuristic"`` (all seats) or four names ``a,b,c,d``."""
    names = seat_policy_names(policies, N_SEATS, POLICIES)
    return np.array([POLICIES[n] for n in names], dtype=np.int64)


def heuristic_matrix(n_rows: int = N_SEATS) -> np.ndarray:
    return np.tile(kd.HEURISTIC_DEFAULTS, (n_rows, 1))


def state_array(st: State) -> np.ndarray:
    """The kernels' state array of the engine state ``st``."""
    s = np.zeros(kd.STATE_LEN, dtype=np.int64)
    for seat in range(N_SEATS):
        s[kd.S_HAND + seat * N_KINDS:kd.S_HAND + (seat + 1) * N_KINDS] = st.hands[seat]
        s[kd.S_LEFT + seat] = sum(st.hands[seat])
        s[kd.S_NKOU + seat] = sum(st.kou[seat])
    s[kd.S_KOU:kd.S_KOU + N_SEATS] = st.kou_pips()
    s[kd.S_LAID:kd.S_LAID + N_KINDS] = st.laid
    if st.ends is not None:
        s[kd.S_E0], s[kd.S_E1] = st.ends
    s[kd.S_TURN] = st.turn
    s[kd.S_OVER] = 0 if not st.over else 2 if st.end_reason == SUAN else 1
    s[kd.S_SUAN] = st.suan_seat
    s[kd.S_MOVES] = len(st.history)
    return s


def _check_n(n: int, what: str = "hands") -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"the number of {what} must be a positive integer, got {n!r}")
    return int(n)


def play_hands(n: int, policies: str | list[str] = "random", seed: int = 0,
               rules: str | DingniuRules | None = None) -> np.ndarray:
    """Result rows (``kernels.dingniu.game.R_*``) of ``n`` hands dealt and played in the kernels."""
    n = _check_n(n)
    tiles, params = rule_arrays(get_rules(rules))
    n_chunks = -(-n // CHUNK)
    out = np.empty((n, kd.N_RESULT), dtype=np.int64)
    kd.play_chunks(states_from_seed(seed, n_chunks), CHUNK, n, tiles, params,
                   policy_ids(policies), heuristic_matrix(), out)
    return out


def logged_hands(n: int, policies: str | list[str] = "random", seed: int = 0,
                 rules: str | DingniuRules | None = None,
                 arrays: tuple[np.ndarray, np.ndarray] | None = None):
    """Deals, result rows, action logs, legal-set masks and move counts of ``n`` hands.

    ``arrays`` replaces the rule arrays given to the kernels (to show a check catches it).
    """
    n = _check_n(n)
    tiles, params = arrays if arrays is not None else rule_arrays(get_rules(rules))
    chunk = 256
    n_chunks = -(-n // chunk)
    deals = np.zeros((n, N_SEATS, N_KINDS), dtype=np.int64)
    out = np.empty((n, kd.N_RESULT), dtype=np.int64)
    acts = np.zeros((n, kd.MAX_MOVES, 2), dtype=np.int64)
    masks = np.zeros((n, kd.MAX_MOVES, 2), dtype=np.uint64)
    moves = np.zeros(n, dtype=np.int64)
    kd.logged_chunks(states_from_seed(seed, n_chunks), chunk, n, tiles, params,
                     policy_ids(policies), heuristic_matrix(), deals, out, acts, masks, moves)
    return deals, out, acts, masks, moves
