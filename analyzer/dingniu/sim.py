"""Checked wrappers over the 顶牛 kernels: rule arrays, policies, state conversion and
batch runs, and :data:`POLICIES`, every policy the game plays."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from kernels.dingniu import game as kd
from kernels.dingniu import pimc as kp
from kernels.dingniu import policies as kpol
from kernels.dingniu.verbs import Rules as KernelRules
from kernels.rng import states_from_seed

from ..core.drive import play_rows, seatings_of
from ..core.game import KernelBridge
from ..core.seats import seat_policy_names
from .engine import SUAN, State, lay
from .rules import N_KINDS, N_SEATS, DingniuRules, get_rules
from .tiles import KOU

# Every policy 顶牛 plays, with its help line (analyzer.core.cli_common.policy_help).
POLICIES = {
    "random": "a uniformly random legal action",
    "heuristic": "rules of thumb with the default weights",
    "tuned": "the heuristic with the weights tuned for the preset",
    "pimc": "hidden deals drawn from the seat's view, each action played out "
            "(tournaments and the table)",
}
POLICY_IDS = {"random": kpol.RANDOM, "heuristic": kpol.HEURISTIC, "tuned": kpol.HEURISTIC,
              "pimc": kp.PIMC}
BATCH_POLICIES = ("random", "heuristic", "tuned")  # pimc plays in tournaments only
CHUNK = 1024
TUNED_FILE = Path(__file__).with_name("tuned.json")

Policies = tuple[np.ndarray, np.ndarray]  # (ids, hps): the kernels' policies bundle


def rule_arrays(r: DingniuRules) -> KernelRules:
    """The kernels' rules bundle of a preset: (tiles[13, 5], params[N_PARAMS]) in the
    layout of ``kernels.dingniu.game``."""
    tiles = np.array([[a, b, a + b, c, int(a == b)] for (a, b), c in zip(r.ends, r.counts)],
                     dtype=np.int64)
    params = np.zeros(kd.N_PARAMS, dtype=np.int64)
    params[kd.P_WIN] = r.win_points
    params[kd.P_L1:kd.P_L3 + 1] = r.loss_points
    params[kd.P_FACTOR] = r.suan_factor
    params[kd.P_NO_DRAG] = int(r.lead_no_drag)
    params[kd.P_SUAN] = int(r.suan_zhang)
    params[kd.P_PAIR_MASK] = sum(1 << k for k in r.lead_pair_kinds)
    params[kd.P_LOCK_VALUE] = int(r.lock_scope == "value")
    params[kd.P_DEAD_MASK] = r.dead_smash_mask
    params[kd.P_DOUBLES] = int(r.closing_doubles)
    params[kd.P_COUNT_HAND] = int(r.count_others_hand)
    params[kd.P_TOU_PLAYABLE] = int(r.tou_exempt == "playable_hand")
    return KernelRules(tiles, params)


def policy_ids(policies: str | list[str], known=BATCH_POLICIES) -> np.ndarray:
    """Policy ids per seat from ``"heuristic"`` (all seats) or four names ``a,b,c,d``."""
    names = seat_policy_names(policies, N_SEATS, known)
    return np.array([POLICY_IDS[n] for n in names], dtype=np.int64)


def policy_arrays(policies: str | list[str], rules: str | DingniuRules | None = None,
                  known=BATCH_POLICIES) -> Policies:
    """The kernels' ``policies`` bundle (ids, hps) of one policy for every seat or one per
    seat (``known``: the names accepted)."""
    return policy_ids(policies, known), heuristic_matrix(policies=policies, rules=rules)


def tuned_vector(rules: str | DingniuRules | None = None) -> np.ndarray:
    """The tuned heuristic weights of a preset (``tuned.json``, written by
    ``scripts/train/dingniu_tune.py``); the defaults for a preset not tuned."""
    data = json.loads(TUNED_FILE.read_text())  # package data: missing means a broken install
    got = data.get(get_rules(rules).name)
    vec = np.array(got["weights"] if got else kpol.HEURISTIC_DEFAULTS, dtype=np.float64)
    if vec.shape != (kpol.N_HEURISTIC,):
        raise ValueError(f"{TUNED_FILE.name}: {kpol.N_HEURISTIC} weights per preset")
    return vec


def policy_vector(name: str, rules: str | DingniuRules | None = None,
                  pimc_samples: int | None = None, pimc_leaf: int | None = None) -> np.ndarray:
    """A seat's parameter vector (``kernels.dingniu.pimc.N_VECTOR``): the heuristic's
    weights (tuned for ``tuned`` and ``pimc``, whose play-outs use them), then pimc's
    samples and exact-search leaf size."""
    heur = tuned_vector(rules) if name in ("tuned", "pimc") else kpol.HEURISTIC_DEFAULTS
    pimc = kp.PIMC_DEFAULTS.copy()
    if pimc_samples is not None:
        pimc[0] = pimc_samples
    if pimc_leaf is not None:
        pimc[1] = pimc_leaf
    return np.concatenate([heur, pimc])


def heuristic_matrix(n_rows: int = N_SEATS, policies: str | list[str] | None = None,
                     rules: str | DingniuRules | None = None) -> np.ndarray:
    """Per-seat vectors: the default heuristic's, or each seat's from ``policies``."""
    if policies is None:
        return np.tile(policy_vector("heuristic"), (n_rows, 1))
    names = seat_policy_names(policies, N_SEATS, POLICY_IDS)
    return np.stack([policy_vector(n, rules) for n in names])


def state_array(st: State) -> np.ndarray:
    """The kernels' state array of the engine state ``st``."""
    s = np.zeros(kd.STATE_LEN, dtype=np.int64)
    for seat in range(N_SEATS):
        s[kd.S_HAND + seat * N_KINDS:kd.S_HAND + (seat + 1) * N_KINDS] = st.hands[seat]
        s[kd.S_LEFT + seat] = sum(st.hands[seat])
        s[kd.S_NKOU + seat] = sum(st.kou[seat])
    s[kd.S_KOU:kd.S_KOU + N_SEATS] = st.kou_pips()
    for seat in range(N_SEATS):
        s[kd.S_KOUK + seat * N_KINDS:kd.S_KOUK + (seat + 1) * N_KINDS] = st.kou[seat]
    ends: tuple[int, int] | None = None
    nk = [0] * N_SEATS  # the public 扣 masks, from the history
    for seat, a in st.history:
        if a % 8 == KOU:
            assert ends is not None  # a 扣 comes after the lead
            s[kd.S_VOID + seat] |= (1 << ends[0]) | (1 << ends[1])
            s[kd.S_KMASK + seat * 6 + nk[seat]] = s[kd.S_VOID + seat]
            nk[seat] += 1
        else:
            ends = lay(st.rules, ends, a // 8, a % 8)
    s[kd.S_LAID:kd.S_LAID + N_KINDS] = st.laid
    if st.ends is not None:
        s[kd.S_E0], s[kd.S_E1] = st.ends
    s[kd.S_TURN] = st.turn
    s[kd.S_OVER] = 0 if not st.over else 2 if st.end_reason == SUAN else 1
    s[kd.S_SUAN] = st.suan_seat
    s[kd.S_MOVES] = len(st.history)
    return s


def deal_row(st: State) -> np.ndarray:
    """The kernels' deal row of an engine hand: tile counts ``[seat * 13 + kind]``."""
    return np.array(st.dealt, dtype=np.int64).reshape(-1)


# the engine's actions are the kernels' codes (kind * 8 + slot); returns are the points
BRIDGE = KernelBridge(rules=lambda preset: rule_arrays(get_rules(preset)), deal_row=deal_row,
                      action=lambda st, a: int(a),
                      returns=lambda row: [int(x) for x in row[kd.R_PTS:kd.R_PTS + N_SEATS]])


def _check_n(n: int, what: str = "hands") -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"the number of {what} must be a positive integer, got {n!r}")
    return int(n)


def play_hands(n: int, policies: str | list[str] = "random", seed: int = 0,
               rules: str | DingniuRules | None = None) -> np.ndarray:
    """Result rows (``kernels.dingniu.game.R_*``) of ``n`` hands dealt and played in the kernels."""
    n = _check_n(n)
    return play_rows(rule_arrays(get_rules(rules)), seatings_of(policy_arrays(policies, rules)),
                     states_from_seed(seed, -(-n // CHUNK)), CHUNK, n)[:, 0]


def logged_hands(n: int, policies: str | list[str] = "random", seed: int = 0,
                 rules: str | DingniuRules | None = None,
                 arrays: tuple[np.ndarray, np.ndarray] | None = None):
    """Deals, result rows, action logs, legal-set masks and move counts of ``n`` hands.

    ``arrays`` replaces the rule arrays given to the kernels (to show a check catches it).
    """
    n = _check_n(n)
    kr = KernelRules(*arrays) if arrays is not None else rule_arrays(get_rules(rules))
    chunk = 256
    return logged_rows(kr, policy_arrays(policies, rules), states_from_seed(seed, -(-n // chunk)),
                       chunk, n)


def logged_rows(rules: KernelRules, policies: Policies, streams: np.ndarray, chunk: int, n: int):
    """Deals ``[n, 4, 13]``, result rows, action logs, legal-set masks and move counts of
    ``n`` hands played by the play driver from ``streams`` (the same hands it plays
    without a log)."""
    deals = rules.deal_rows(n)
    log = rules.log_rows(n)
    out = play_rows(rules, seatings_of(policies), streams, chunk, n, deals=deals,
                    source="kept", log=log)[:, 0]
    return (deals.reshape(n, N_SEATS, N_KINDS), out, *log)
