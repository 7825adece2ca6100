"""Fast simulation: the Python face of the kernels.

``simulate`` checks its arguments, draws one random stream per chunk from
``SeedSequence(seed)`` and sets up the shared play driver (:mod:`kernels.drivers`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numba
import numpy as np
import pandas as pd

from kernels import drivers
from kernels.rng import states_from_seed
from kernels.xianniu import batch as kb
from kernels.xianniu import game as kg
from kernels.xianniu import tables as kt
from kernels.xianniu.batch import deal_many, play_logged
from kernels.xianniu.hand import pimc_flag
from kernels.xianniu.policies import (
    LEARNED_W,
    N_HEURISTIC,
    NET_W,
    PIMC_BUDGET,
    PIMC_ROLLOUT,
    PIMC_SAMPLES,
    POLICY_DEFAULTS,
    POLICY_HEURISTIC2,
    POLICY_LEARNED,
    POLICY_NAMES,
    POLICY_NET,
    POLICY_PIMC,
)
from kernels.xianniu.verbs import Rules as KernelRules
from kernels.xianniu.views import MAX_TRIES_PER_DEAL

from ..core.batches import chunk_batches
from ..core.drive import play_rows, seatings_of
from ..core.game import KernelBridge
from ..core.seats import seat_policy_names
from .cards import N_SEATS, format_cards
from .engine import ACTION_KINDS, Action
from .learned import learned_weights
from .net import policy_row as net_row
from .records import FORMAT as RECORD_FORMAT
from .records import GAME as RECORD_GAME
from .records import VERSION as RECORD_VERSION
from .records import make_record
from .result import Result
from .rules import Rules, get_rules
from .tuned import TUNED, tuned_vector

# Every policy 掀牛 plays, with its line of help (analyzer.core.cli_common.policy_help).
POLICIES: dict[str, str] = {
    "random": "uniform among the legal actions",
    "heuristic": "rules of thumb, weighted",
    "heuristic2": "the heuristic, keeping 牛/喜 points and cashing sure plays before 扣",
    "learned": "a linear scorer distilled from pimc's action values",
    "net": "an action-value network trained by self-play (deep Monte Carlo)",
    "tuned": "the heuristic on the preset's tuned weights",
    "tuned2": "heuristic2 on the preset's tuned weights",
    "pimc": "search: heuristic play-outs on sampled hidden deals",
    "pimc2": "pimc with heuristic2 play-outs, 512 a decision",
    "pimc-net": "pimc with net's play-outs, 128 a decision",
}
SEARCH = frozenset({"pimc", "pimc2", "pimc-net"})  # minutes where the others take seconds
POLICY_IDS = {name: i for i, name in enumerate(POLICY_NAMES)}  # name -> the kernels' id
# pimc variants: the kernel's pimc with other parameters (entry index: value)
PIMC_VARIANTS = {"pimc2": {PIMC_ROLLOUT: POLICY_HEURISTIC2, PIMC_BUDGET: 512},
                 "pimc-net": {PIMC_ROLLOUT: POLICY_NET, PIMC_BUDGET: 128}}
POLICY_IDS.update(dict.fromkeys(PIMC_VARIANTS, POLICY_PIMC))
POLICY_IDS.update({name: POLICY_IDS[base] for name, base in TUNED.items()})
assert set(POLICY_IDS) == set(POLICIES)
CHUNK_SIZE = 2048  # hands per chunk and per random stream; fixed so results ignore threads

RESULT_COLUMNS = ["banker", "captured0", "captured1", "captured2", "points0", "points1", "points2",
                  "ci_seat", "xian_count", "actions", "end", "niu0", "niu1", "niu2", "xi0", "xi1",
                  "xi2", "liang0", "liang1", "liang2", "qiangci_seat"]
assert len(RESULT_COLUMNS) == kg.N_RESULT


def policy_names(policies: str | list[str] | tuple[str, ...]) -> list[str]:
    """Three policy names from one name, ``A,B,C`` or a sequence; ValueError if unknown."""
    return seat_policy_names(policies, N_SEATS, POLICIES)


def seat_row(name: str, rules: str | Rules | None = None) -> np.ndarray:
    """The parameter row a kernel reads for one seat of the policy ``name`` (a key of
    :data:`POLICIES`): the defaults, a pimc variant's entries, the tuned weights of
    ``rules``, the shipped scorer and network where the policy (or its play-outs) reads
    them."""
    row = POLICY_DEFAULTS.copy()
    for k, v in PIMC_VARIANTS.get(name, {}).items():
        row[k] = v
    if name in TUNED:
        row[:N_HEURISTIC] = tuned_vector(rules)
    if POLICY_IDS[name] == POLICY_LEARNED:
        row[LEARNED_W:NET_W] = learned_weights()  # the shipped scorer
    if POLICY_IDS[name] == POLICY_NET or row[PIMC_ROLLOUT] == POLICY_NET:
        row[LEARNED_W:] = net_row()[LEARNED_W:]  # the shipped network and scorer
    return row


def policy_arrays(policies: str | list[str] | tuple[str, ...] = "random",
                  heuristic: np.ndarray | None = None,
                  pimc_samples: int | None = None,
                  rules: str | Rules | None = None,
                  pimc_budget: int | Sequence[int | None] | None = None
                  ) -> tuple[np.ndarray, np.ndarray]:
    """What a kernel reads for the three seats' policies: ``(ids, parameters)``.

    ``heuristic`` replaces the heuristic's default parameters (one vector for all seats, or
    one row per seat); ``pimc_samples`` sets the hidden deals pimc samples per decision,
    ``pimc_budget`` the play-outs per decision of every pimc seat, or one value per seat
    (None keeps that seat's own; pimc2 plays 512);
    ``tuned`` and ``tuned2`` play the tuned weights of ``rules``.
    """
    names = policy_names(policies)
    ids = np.array([POLICY_IDS[n] for n in names], dtype=np.int64)
    params = np.array([seat_row(n, rules) for n in names])
    if heuristic is not None:
        h = np.asarray(heuristic, dtype=np.float64)
        if h.shape not in ((N_HEURISTIC,), (N_SEATS, N_HEURISTIC)):
            raise ValueError(f"heuristic parameters need {N_HEURISTIC} values per seat")
        params[:, :N_HEURISTIC] = h
    if pimc_samples is not None:
        if pimc_samples < 1:
            raise ValueError(f"pimc needs at least 1 sample per decision, got {pimc_samples}")
        params[:, PIMC_SAMPLES] = pimc_samples
    if pimc_budget is not None:
        budgets = ([pimc_budget] * N_SEATS if isinstance(pimc_budget, int)
                   else list(pimc_budget))
        if len(budgets) != N_SEATS:
            raise ValueError(f"give one pimc budget or {N_SEATS}, got {len(budgets)}")
        for s, budget in enumerate(budgets):
            if budget is None:
                continue
            if budget < 1:
                raise ValueError(f"pimc needs at least 1 play-out per decision, got {budget}")
            if ids[s] == POLICY_PIMC:
                params[s, PIMC_BUDGET] = budget
    return ids, np.ascontiguousarray(params)


def rule_arrays(rules: Rules) -> KernelRules:
    """The arrays a kernel reads for a preset: ``(params, set_beats, beaters)``."""
    return KernelRules(_rule_params(rules), np.ascontiguousarray(rules.set_beats, dtype=np.uint8),
                       _beaters_table(rules))


def deal_row(st) -> np.ndarray:
    """The kernels' deal row of an engine hand: the three dealt masks and the banker."""
    return np.array([*st.dealt, st.banker], dtype=np.int64)


def action_code(st, a: Action) -> int:
    """The kernels' code of an engine action: its cards, its kind's index above bit 48."""
    return a.cards | ACTION_KINDS.index(a.kind) << 48


BRIDGE = KernelBridge(rules=lambda preset: rule_arrays(get_rules(preset)), deal_row=deal_row,
                      action=action_code,
                      returns=lambda row: [int(x) for x in row[kg.R_PTS0:kg.R_PTS0 + N_SEATS]])


def driver_policies(policies: tuple[np.ndarray, np.ndarray]) -> tuple:
    """The play driver's policies bundle: ``(ids, parameters)`` and the pimc flag (True
    when a seat searches, else None: the search is then not compiled in)."""
    return (*policies, pimc_flag(policies[0]))


def paired_playouts(rk: KernelRules, policies: tuple[np.ndarray, np.ndarray], view, seat: int,
                    options: np.ndarray, out: np.ndarray, streams: np.ndarray, chunk_size: int,
                    n_samples: int | None = None, max_tries: int = MAX_TRIES_PER_DEAL):
    """The paired driver (:func:`kernels.drivers.paired`) on positions drawn to fit
    ``view`` (:mod:`kernels.xianniu.views`), ``chunk_size`` samples from each stream: the
    queries, advice and the 掀 experiment. Compiled with the search whatever ``policies``
    play (a seat without it never enters it), so that they all share one compilation."""
    return drivers.paired(rk, (*policies, True), view, seat, options, out, streams=streams,
                          n_samples=n_samples, max_tries=max_tries, chunk_size=chunk_size)


def play_hands(streams: np.ndarray, chunk_size: int, n_hands: int, rules: KernelRules,
               policies: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """Result rows ``[n_hands, N_RESULT]`` of hands dealt and played by the play driver,
    chunk ``c`` from ``streams[c]``."""
    return play_rows(rules, seatings_of(driver_policies(policies)), streams, chunk_size,
                     n_hands)[:, 0]


def aggregate(rows: np.ndarray, gou_min: int, ci_min: int) -> np.ndarray:
    """The mergeable aggregate (``kernels.xianniu.batch.AGG_*``) of result rows."""
    agg = np.zeros(kb.AGG_SIZE, dtype=np.int64)
    pts = rows[:, kg.R_PTS0:kg.R_PTS0 + N_SEATS]
    cap = rows[:, kg.R_CAP0:kg.R_CAP0 + N_SEATS]
    xian = rows[:, kg.R_XIAN]
    agg[kb.AGG_N] = len(rows)
    agg[kb.AGG_PTS:kb.AGG_PTS + N_SEATS] = pts.sum(axis=0)
    agg[kb.AGG_PTS_SQ:kb.AGG_PTS_SQ + N_SEATS] = (pts * pts).sum(axis=0)
    agg[kb.AGG_GOU:kb.AGG_GOU + N_SEATS] = (cap >= gou_min).sum(axis=0)
    agg[kb.AGG_CI:kb.AGG_CI + N_SEATS] = (cap >= ci_min).sum(axis=0)
    for s in range(N_SEATS):  # a seat captures at most 16 cards: the table's cap
        agg[kb.AGG_CAP_HIST + 17 * s:kb.AGG_CAP_HIST + 17 * (s + 1)] = \
            np.bincount(cap[:, s], minlength=17)
    agg[kb.AGG_XIAN] = xian.sum()
    agg[kb.AGG_XIAN_SQ] = (xian * xian).sum()
    agg[kb.AGG_END:kb.AGG_END + 3] = np.bincount(rows[:, kg.R_END], minlength=3)
    agg[kb.AGG_QIANGCI] = (rows[:, kg.R_QIANGCI_SEAT] >= 0).sum()
    return agg


def _rule_params(rules: Rules) -> np.ndarray:
    """The int64 parameter vector of a preset (indices ``kernels.xianniu.tables.P_*``)."""
    p = np.zeros(kt.N_PARAMS, dtype=np.int64)
    for index, value in (
            (kt.P_FISH_MAX, rules.fish_max_k), (kt.P_BAI_MAX, rules.bai_max_k),
            (kt.P_K_BAI, rules.k_bai), (kt.P_XI_BAO_LIANG, rules.xi_bao_liang),
            (kt.P_QIANGCI_MANDATORY, rules.qiangci_mandatory),
            (kt.P_EIGHT_PAIRS_BY_COLOUR, rules.eight_pairs_by_colour),
            (kt.P_TIGHTEN_MIN, rules.tighten_min_table),
            (kt.P_TIGHTEN_LH, rules.tighten_lead_holder_discards),
            (kt.P_CI_DROPS_LIANG, rules.ci_unit_drops_liang),
            (kt.P_BAO_DOUBLES, rules.bao_ci_doubles),
            (kt.P_XIAN_NEEDS_GOU, rules.xian_needs_target_gou),
            (kt.P_KKK_K108, rules.kkk_k108_liang), (kt.P_TABLE_CAP, rules.table_cap),
            (kt.P_GOU, rules.gou_min), (kt.P_CI, rules.ci_min),
            (kt.P_CI_OFFSET, rules.ci_offset), (kt.P_XIAN_POINTS, rules.xian_points),
            (kt.P_LIANG_POINTS, rules.liang_points)):
        p[index] = value
    return p


def _beaters_table(rules: Rules) -> np.ndarray:
    """``int64[4, 12]``: for a set of (size, rank), the ranks whose sets of that size beat it,
    as a 48-bit mask with bit ``4 * r + 3`` set for each beating rank ``r``."""
    out = np.zeros((4, 12), dtype=np.int64)
    for size in range(4):
        for top in range(12):
            for r in range(12):
                if rules.set_beats[size, r, top]:
                    out[size, top] |= 1 << (4 * r + 3)
    return out


def _prepare(n_hands: int, rules: str | Rules | None, policies: str, chunk_size: int):
    """Check a run's arguments; the rules, the kernels' arrays and the number of chunks."""
    if not isinstance(n_hands, (int, np.integer)) or n_hands < 1:
        raise ValueError(f"the number of hands must be a positive integer, got {n_hands!r}")
    if chunk_size < 1:
        raise ValueError("chunk_size must be positive")
    r = get_rules(rules)
    return r, rule_arrays(r), policy_arrays(policies, rules=r), -(-int(n_hands) // chunk_size)


def simulate(n_hands: int, rules: str | Rules | None = None, policies: str = "random",
             seed: int = 0, chunk_size: int = CHUNK_SIZE) -> pd.DataFrame:
    """Deal and play ``n_hands`` hands in the kernels; one row per hand.

    The same ``seed`` gives the same rows whatever the number of threads.
    """
    r, rk, pol, n_chunks = _prepare(n_hands, rules, policies, chunk_size)
    states = states_from_seed(seed, n_chunks)
    out = play_hands(states, chunk_size, int(n_hands), rk, pol)
    df = pd.DataFrame(out, columns=RESULT_COLUMNS)
    df.insert(0, "hand", np.arange(int(n_hands)))
    df["end"] = pd.Categorical.from_codes(df["end"].to_numpy(), categories=list(kg.END_NAMES))
    df.attrs.update(rules=r.name, policy=_policy_label(policies), seed=seed, hands=int(n_hands),
                    engine="kernels", chunk_size=chunk_size)
    return df


ACTIONS_PER_HAND = 48  # room a chunk keeps per hand for actions (hands average 13-40)


def recorded_rows(states: np.ndarray, chunk_size: int, n_hands: int, rules: Rules,
                  policies: str) -> pd.DataFrame:
    """Per-hand rows of ``n_hands`` hands, chunk ``c`` drawn from ``states[c]``: the result
    columns, the deal (``dealt0`` … ``dealt2``, card strings) and ``record``, the hand as a
    game record in JSON (what ``xianniu replay`` reads).

    The hands, and so the results, are those :func:`play_hands` plays from the same
    streams.
    """
    rk, pol = rule_arrays(rules), policy_arrays(policies, rules=rules)
    out = np.empty((n_hands, kg.N_RESULT), dtype=np.int64)
    deals = np.empty((n_hands, N_SEATS), dtype=np.int64)
    actions = np.empty((len(states), chunk_size * ACTIONS_PER_HAND), dtype=np.int64)
    used = np.empty(len(states), dtype=np.int64)
    kb.recorded_chunks(states, chunk_size, n_hands, rk, pol, (out, deals, actions, used))
    logs = [actions[c, :used[c]] for c in range(len(states))]
    for c in map(int, np.flatnonzero(used < 0)):
        # a chunk of unusually long hands: play it again alone, with room for any hand
        a, b = c * chunk_size, min((c + 1) * chunk_size, n_hands)
        room = np.empty((1, (b - a) * kg.MAX_LOG), dtype=np.int64)
        n_used = np.empty(1, dtype=np.int64)
        kb.recorded_chunks(states[c:c + 1], chunk_size, b - a, rk, pol,
                           (out[a:b], deals[a:b], room, n_used))
        logs[c] = room[0, :n_used[0]]
    df = pd.DataFrame(out, columns=RESULT_COLUMNS)
    df["end"] = pd.Categorical.from_codes(df["end"].to_numpy(), categories=list(kg.END_NAMES))
    dealt = [[cards_text(m) for m in deals[:, s].tolist()] for s in range(N_SEATS)]
    for s in range(N_SEATS):
        df[f"dealt{s}"] = dealt[s]
    df["record"] = _record_texts(rules.name, list(zip(*dealt)), out[:, kg.R_ACTIONS], logs,
                                 chunk_size)
    return df


# The text of each rank's cards for each subset of its four suits (bits ♠♥♣♦).
_RANK_TEXT = [[format_cards([4 * r + s for s in range(4) if nib >> s & 1]) for nib in range(16)]
              for r in range(12)]


def cards_text(mask: int) -> str:
    """``format_cards(mask)`` for a mask, by table (fast enough for every hand of a run)."""
    return " ".join(_RANK_TEXT[r][nib] for r in range(12) if (nib := mask >> (4 * r) & 15))


def _record_texts(rules: str, dealt: list[tuple[str, ...]], n_actions: np.ndarray,
                  logs: list[np.ndarray], chunk_size: int) -> list[str]:
    """Each hand's game record as compact JSON, from the packed logs of its chunk.

    The JSON is put together from pieces: an action's entry depends on its packed value
    alone, and the same values recur across hands, so each is encoded once.
    """
    def dumps(x) -> str:
        return json.dumps(x, ensure_ascii=False, separators=(",", ":"))

    head = dumps({"format": RECORD_FORMAT, "version": RECORD_VERSION, "game": RECORD_GAME,
                  "rules": rules, "banker": 0})[:-1]
    entries: dict[int, str] = {}

    def entry(packed: int) -> str:
        mask = packed & ((1 << kb.PACK_TYPE_SHIFT) - 1)
        e = {"seat": packed >> kb.PACK_SEAT_SHIFT,
             "action": ACTION_KINDS[(packed >> kb.PACK_TYPE_SHIFT) & 0xFF]}
        if mask:
            e["cards"] = cards_text(mask)
        return entries.setdefault(packed, dumps(e))

    texts = []
    for c, log in enumerate(logs):
        packed = log.tolist()
        pos = 0
        for h in range(c * chunk_size, min((c + 1) * chunk_size, len(dealt))):
            n = int(n_actions[h])
            acts = ",".join(entries.get(p) or entry(p) for p in packed[pos:pos + n])
            pos += n
            texts.append(f'{head},"hands":{dumps(dealt[h])},"actions":[{acts}]}}')
    return texts


def simulate_aggregate(n_hands: int, rules: str | Rules | None = None,
                       policies: str = "random", seed: int = 0, chunk_size: int = CHUNK_SIZE,
                       progress: Callable[[int], None] | None = None) -> Result:
    """Deal and play ``n_hands`` hands in the kernels, keeping only mergeable counts and sums.

    Equal to ``Result.from_frame(simulate(...))`` for the same arguments; ``progress`` is
    called with the number of hands finished after each batch of chunks.
    """
    r, rk, pol, n_chunks = _prepare(n_hands, rules, policies, chunk_size)
    n_hands = int(n_hands)
    states = states_from_seed(seed, n_chunks)
    out = np.zeros(kb.AGG_SIZE, dtype=np.int64)
    for a, b, lo, hi in chunk_batches(n_hands, chunk_size, max(1, 8 * numba.get_num_threads())):
        out += aggregate(play_hands(states[a:b], chunk_size, hi - lo, rk, pol), r.gou_min,
                         r.ci_min)
        if progress is not None:
            progress(hi - lo)
    meta = {"rules": r.name, "policy": _policy_label(policies), "seed": seed, "hands": n_hands,
                "engine": "kernels", "chunk_size": chunk_size}
    return Result(out, meta)


def _policy_label(policies: str | list[str] | tuple[str, ...]) -> str:
    names = policy_names(policies)
    return names[0] if len(set(names)) == 1 else ",".join(names)


def deal_hands(n_deals: int, seed: int = 0) -> np.ndarray:
    """``n_deals`` uniform deals from one stream: ``uint64[n, 3]`` hand masks."""
    out = np.empty((n_deals, N_SEATS), dtype=np.int64)
    deal_many(states_from_seed(seed, 1)[0], n_deals, out)
    return out.astype(np.uint64)


@dataclass
class LoggedHand:
    """A kernel hand with its full log: actions, every legal set, the result row."""

    hands: tuple[int, ...]
    actions: list[tuple[int, Action]]
    legal: list[set[Action]]
    result: np.ndarray


def logged_hands(n_hands: int, rules: str | Rules | None = None, policies: str = "random",
                 seed: int = 0, deals: np.ndarray | None = None,
                 pimc_samples: int | None = None) -> list[LoggedHand]:
    """Play kernel hands one by one, keeping every action and legal set.

    Deals are drawn from the seed unless ``deals`` (``[n_hands, 3]`` masks) are given.
    """
    r = get_rules(rules)
    pol = policy_arrays(policies, pimc_samples=pimc_samples, rules=r)
    rk = rule_arrays(r)
    ss = np.random.SeedSequence(seed)
    deal_state, play_state = states_from_seed(ss, 2)
    if deals is None:
        deals = np.empty((n_hands, N_SEATS), dtype=np.int64)
        deal_many(deal_state, n_hands, deals)
    else:
        deals = np.asarray(deals, dtype=np.int64)
        n_hands = len(deals)
    log = np.empty((kg.MAX_LOG, 3), dtype=np.int64)
    legal = np.empty((kg.MAX_LOG * 128, 2), dtype=np.int64)
    legal_off = np.empty(kg.MAX_LOG + 1, dtype=np.int64)
    out = []
    for h in range(n_hands):
        res = np.empty(kg.N_RESULT, dtype=np.int64)
        n = play_logged(deals[h], 0, rk, pol, play_state, (log, legal, legal_off), res)
        acts = [(int(log[i, 0]), Action(ACTION_KINDS[log[i, 1]], int(log[i, 2]))) for i in range(n)]
        sets = [{Action(ACTION_KINDS[legal[j, 0]], int(legal[j, 1]))
                 for j in range(legal_off[i], legal_off[i + 1])} for i in range(n)]
        out.append(LoggedHand(tuple(int(x) for x in deals[h]), acts, sets, res))
    return out


def hand_records(n_hands: int, rules: str | Rules | None = None, policies: str = "random",
                 seed: int = 0) -> list[dict]:
    """Kernel hands as game records (the JSON form ``xianniu replay`` reads)."""
    r = get_rules(rules)
    return [make_record(r.name, 0, lh.hands, lh.actions)
            for lh in logged_hands(n_hands, r, policies, seed)]
