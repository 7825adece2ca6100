"""Statistics of whole 双升 hands: 抠底 (kitty capture) and what it is worth, the attackers'
points and level changes, the banker side's advantage by level and trump kind, what a joker
pair, a level card (级牌) or one more trump is worth, and what 扒鸡窝 and 造反 change.

Every hand is a whole hand from the deal (``kernels.shengji.game``): team levels L and L
(2 and 2 unless given), seat 0 the banker going in, every seat on ``policy`` (the heuristic
by default). Comparisons are paired on the same deals from the same streams (common random
numbers): the levels of :func:`banker_by_level` play the same deals, the rule switches of
:func:`rule_effect` play each deal with the rule on and off, and :func:`values` plays each
deal again after one swap. Every estimate is ``{"value", "low", "high", "n"}`` with a 95% CI
(Wilson for proportions, normal for means); the streams come from
``SeedSequence(seed)``, so any thread count gives the same numbers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numba
import numpy as np

from kernels.rng import states_from_seed
from kernels.shengji import game as kw
from kernels.shengji import hand as kh
from kernels.shengji import stats as ks

from ..core.batches import chunk_batches
from ..core.checks import check_seed
from ..core.drive import play_rows, seatings_of
from ..core.stats import mean_ci, mean_ci_from_sums, proportion_ci
from .cards import parse_level
from .rules import ShengjiRules, get_rules
from .sim import (
    CHUNK,
    SLOW_CHUNK,
    SLOW_MAX,
    check_n,
    driver_policies,
    is_slow,
    kernel_rules,
    rule_arrays,
    seat_names,
    seat_policies,
    whole_hand_rows,
)

LEVELS = (2, 2)  # team levels going in
START_BANKER = 0
BY_LEVEL = (2, 5, 10, 13, 14)  # the levels of banker_by_level: 2, the point ranks, A
PATTERNS = ("big_joker_pair", "small_joker_pair", "level_card", "trump")
PATTERN_LABELS = {"big_joker_pair": "对大王 (big joker pair)",
                  "small_joker_pair": "对小王 (small joker pair)",
                  "level_card": "one more level card (级牌)",
                  "trump": "one more trump (主), T-suit below the level cards"}
SWITCHES = {"bajiwo": "bajiwo_enabled", "rebel": "rebel_enabled"}  # 扒鸡窝, 造反
VALUE_CHUNK = 256  # deals per stream in values (each plays up to five hands)
assert len(PATTERNS) == ks.N_PATTERNS


def _e(est) -> dict[str, Any]:
    return est.as_dict()


def _p(k, n) -> dict[str, Any]:
    return proportion_ci(int(k), int(n)).as_dict()


def check_policy(policy: str, rules=None, slow_hands: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Policy ids and parameter rows per seat from ``policy`` (one name or four
    ``a,b,c,d``; ``tuned`` plays ``rules``' tuned row). pimc and pimc2 take seconds a hand:
    a statistic plays them only where it passes ``slow_hands`` (the hands it would play)
    and that is at most ``SLOW_MAX``."""
    pol, hp = seat_policies(policy, rules)
    if is_slow(seat_names(policy)) and not 0 < slow_hands <= SLOW_MAX:
        what = (f"with pimc or pimc2 seats at most {SLOW_MAX:,} hands, not {slow_hands:,}"
                if slow_hands else "random, heuristic, tuned or net seats, not pimc or pimc2")
        raise ValueError(f"this 双升 statistic plays {what}: their sampled play-outs take "
                         f"seconds a hand (the tournament plays them against another policy)")
    return pol, hp


def _head(analysis: str, r: ShengjiRules, policy: str, seed: int, n: int, **more) -> dict:
    return {"game": "shengji", "analysis": analysis, "rules": r.name, "policy": policy,
            "seed": seed, "deals": n, "levels": list(LEVELS), "start_banker": START_BANKER,
            **more}


def whole_rows(n: int, rules=None, policy: str = "heuristic", seed: int = 0,
               levels=LEVELS, progress: Callable[[int], None] | None = None) -> np.ndarray:
    """Result rows (``game.W_*``) of ``n`` whole hands on ``policy`` with team ``levels``,
    seat 0 the banker going in; one stream per chunk of hands (a 造反 redeal or a random
    draw shifts the later deals of its chunk: :func:`paired_rows` pairs deal by deal)."""
    n = check_n(n, "deals")
    pol, hp = check_policy(policy, rules, slow_hands=n)
    lv = np.array([parse_level(v) if isinstance(v, str) else v for v in levels], np.int64)
    if lv.shape != (2,) or not np.all((lv >= 2) & (lv <= 14)):
        raise ValueError(f"levels are two team levels 2..14 (A), got {levels!r}")
    chunk = SLOW_CHUNK if is_slow(seat_names(policy)) else CHUNK
    n_chunks = -(-n // chunk)
    states = states_from_seed(check_seed(seed), n_chunks)
    out = np.empty((n, kw.N_WHOLE), dtype=np.int64)
    kr = kernel_rules(rules, lv, START_BANKER)
    # with ``progress``, a few streams a thread at a time, ``progress(k)`` after k hands
    step = n_chunks if progress is None else 4 * numba.get_num_threads()
    for a, z, lo, hi in chunk_batches(n, chunk, step):
        out[lo:hi] = whole_hand_rows(kr, (pol, hp), states[a:z], chunk, hi - lo)
        if progress is not None:
            progress(hi - lo)
    return out


def paired_rows(n: int, variants, policy: str = "heuristic", seed: int = 0) -> np.ndarray:
    """Rows ``[deal, variant]`` (``game.W_*``) of ``n`` deals, each played once per
    variant ``(rules, levels)`` from the same stream after the deal: a difference between
    variants is the rule's or level's alone. Each variant is one run of the play driver on
    the same chunk streams (the same deals, and each hand's own stream spawned after its
    deal)."""
    n = check_n(n, "deals")
    pol, hp = check_policy(policy, variants[0][0])
    lv = np.array([[parse_level(v) if isinstance(v, str) else v for v in levels]
                   for _, levels in variants], dtype=np.int64)
    if lv.ndim != 2 or lv.shape[1] != 2 or not np.all((lv >= 2) & (lv <= 14)):
        raise ValueError(f"levels are two team levels 2..14 (A), got "
                         f"{[v[1] for v in variants]!r}")
    states = states_from_seed(check_seed(seed), -(-n // CHUNK))
    seatings = seatings_of(driver_policies(pol, hp))
    out = np.empty((n, len(variants), kw.N_WHOLE), dtype=np.int64)
    for k, (r, _) in enumerate(variants):
        out[:, k] = play_rows(kernel_rules(r, lv[k], START_BANKER), seatings, states, CHUNK, n,
                              paired=True)[:, 0]
    return out


def banker_swing(rows: np.ndarray) -> np.ndarray:
    """Per row: levels the banker side gained, or minus the levels the attackers gained (0
    when the attackers only take the bank)."""
    return np.where(rows[:, kw.W_BANKER_HOLDS] == 1, rows[:, kw.W_GAIN], -rows[:, kw.W_GAIN])


def _swing_label(code: int) -> str:
    if code > 0:
        return f"banker +{code}"
    return "attackers take the bank" if code == 0 else f"attackers take the bank +{-code}"


def kou_di(rows: np.ndarray, r: ShengjiRules) -> dict[str, Any]:
    """P(抠底), and by multiplier: how often, the points it added, and what it changed in
    levels (the banker side's swing as played less without the added points) and in the
    bank (P(the bank changed hands because of it))."""
    n = len(rows)
    play = rows[:, kw.W_PLAY:]
    mult = play[:, kh.R_MULTIPLIER]
    bonus = play[:, kh.R_KITTY_POINTS] * mult
    sw = np.empty((n, 4), dtype=np.int64)
    ks.kou_di_swing(rows, rule_arrays(r), sw)
    level_cost = sw[:, 0] - sw[:, 1]
    lost_bank = (sw[:, 3] == 1) & (sw[:, 2] == 0)
    by = []
    for m in sorted(set(mult[mult > 0].tolist())):
        sel = mult == m
        by.append({"multiplier": int(m), "p": _p(sel.sum(), n),
                   "points_added": _e(mean_ci(bonus[sel])),
                   "banker_levels_lost": _e(mean_ci(-level_cost[sel])),
                   "p_bank_lost": _p((lost_bank & sel).sum(), sel.sum())})
    return {"p_kou_di": _p((mult > 0).sum(), n),
            "points_added_per_hand": _e(mean_ci(bonus)),
            "banker_levels_lost_per_hand": _e(mean_ci(-level_cost)),
            "p_bank_lost_to_kou_di": _p(lost_bank.sum(), n),
            "by_multiplier": by}


def distributions(rows: np.ndarray) -> dict[str, Any]:
    """The attackers' points (after 抠底) value by value, and the level changes."""
    n = len(rows)
    pts = rows[:, kw.W_PLAY + kh.R_ATTACKER_POINTS]
    sw = banker_swing(rows)
    values, counts = np.unique(pts, return_counts=True)
    codes, ccounts = np.unique(sw, return_counts=True)
    order = np.argsort(-codes)
    return {"attacker_points": _e(mean_ci(pts)),
            "attacker_points_distribution": [{"points": int(v), **_p(c, n)}
                                             for v, c in zip(values, counts)],
            "level_change": [{"code": int(codes[i]), "label": _swing_label(int(codes[i])),
                              **_p(ccounts[i], n)} for i in order]}


def _side(rows: np.ndarray) -> dict[str, Any]:
    """The banker side's P(holds), level swing and the attackers' points, over ``rows``."""
    return {"p_banker_holds": _p(rows[:, kw.W_BANKER_HOLDS].sum(), len(rows)),
            "banker_swing": _e(mean_ci(banker_swing(rows))),
            "attacker_points": _e(mean_ci(rows[:, kw.W_PLAY + kh.R_ATTACKER_POINTS]))}


def by_trump_kind(rows: np.ndarray) -> dict[str, Any]:
    """:func:`_side` over all hands, suit-trump hands and 无主 (NT) hands, with the share of
    NT hands."""
    nt = rows[:, kw.W_TRUMP] == 4
    return {"all": _side(rows), "suit": _side(rows[~nt]), "nt": _side(rows[nt]),
            "p_nt": _p(nt.sum(), len(rows))}


def outcomes(n_deals: int = 20_000, rules=None, policy: str = "heuristic", seed: int = 0,
             progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """``xianniu shengji stats outcomes``: 抠底 by multiplier, the attackers' points and
    level-change distributions, and the banker side by trump kind, on ``n_deals`` whole
    hands (``progress`` as for :func:`whole_rows`)."""
    r = get_rules(rules)
    rows = whole_rows(n_deals, r, policy, seed, progress=progress)
    return {**_head("outcomes", r, policy, int(seed), len(rows)), **kou_di(rows, r),
            **distributions(rows), "banker_side": by_trump_kind(rows)}


def banker_by_level(n_deals: int = 20_000, rules=None, policy: str = "heuristic",
                    seed: int = 0, levels=BY_LEVEL) -> dict[str, Any]:
    """``xianniu shengji stats banker``: the banker side's advantage at each level L (both
    teams at L), over all hands and by trump kind (suit or 无主); every level plays the same
    ``n_deals`` deals."""
    r = get_rules(rules)
    lvls = [parse_level(v) if isinstance(v, str) else v for v in levels]
    if not lvls:
        raise ValueError("give at least one level")
    rows = paired_rows(n_deals, [(r, (lv, lv)) for lv in lvls], policy, seed)
    out = [{"level": int(lv), **by_trump_kind(rows[:, k])} for k, lv in enumerate(lvls)]
    return {**_head("banker", r, policy, int(seed), int(n_deals)), "by_level": out}


def values(n_deals: int = 5_000, rules=None, policy: str = "heuristic",
           seed: int = 0) -> dict[str, Any]:
    """``xianniu shengji stats values``: per deal, each pattern (对大王, 对小王, one more
    level card, one more trump) made or broken in a random seat's hand by one swap and the
    hand played again from the same stream; the seat's team's level swing and net attacker
    points, with − without, overall and by the team's role going in."""
    n = check_n(n_deals, "deals")
    r = get_rules(rules)
    pol, hp = check_policy(policy, r)
    n_chunks = -(-n // VALUE_CHUNK)
    out = np.zeros((n_chunks, ks.N_PATTERNS, 2, ks.CF_SIZE), dtype=np.int64)
    ks.values_chunks(states_from_seed(check_seed(seed), n_chunks), VALUE_CHUNK, n,
                     (np.array(LEVELS, dtype=np.int64), START_BANKER), rule_arrays(r), out,
                     (pol, hp))
    return {**_head("values", r, policy, int(seed), n), "rows": value_rows(out.sum(axis=0))}


def value_rows(cf: np.ndarray) -> list[dict[str, Any]]:
    """The rows of :func:`values` from the summed counts ``cf[pattern, role]``."""
    rows = []
    for p, name in enumerate(PATTERNS):
        for role, sel in (("all", slice(None)), ("banker_team", 0), ("defenders", 1)):
            c = cf[p, sel].reshape(-1, ks.CF_SIZE).sum(axis=0)
            n = int(c[ks.CF_N])
            rows.append({"pattern": name, "label": PATTERN_LABELS[name], "role": role,
                         "pairs": n,
                         "share_made": float(c[ks.CF_MADE] / n) if n else float("nan"),
                         "levels": _e(mean_ci_from_sums(float(c[ks.CF_LV]),
                                                        float(c[ks.CF_LV_SQ]), n)),
                         "points": _e(mean_ci_from_sums(float(c[ks.CF_PT]),
                                                        float(c[ks.CF_PT_SQ]), n))})
    return rows


def rule_effect(n_deals: int = 20_000, rules=None, policy: str = "heuristic", seed: int = 0,
                switches=tuple(SWITCHES)) -> dict[str, Any]:
    """``xianniu shengji stats rule-effect``: each switch (``bajiwo`` 扒鸡窝, ``rebel`` 造反)
    off and on, the rest of the preset as it is, on the same deals and streams: the banker
    side's P(holds), level swing and the attackers' points, and the paired difference on −
    off; how often the rule acted, and the share of deals whose hand changed at all."""
    r = get_rules(rules)
    out = []
    for name in switches:
        if name not in SWITCHES:
            raise ValueError(f"unknown rule switch {name!r} (choose {', '.join(SWITCHES)})")
        field = SWITCHES[name]
        rows = paired_rows(n_deals, [(r.with_(**{field: v}), LEVELS) for v in (True, False)],
                           policy, seed)
        on, off = rows[:, 0], rows[:, 1]
        acted = on[:, kw.W_BAJIWO] > 0 if name == "bajiwo" else on[:, kw.W_REBEL] >= 0
        hold = on[:, kw.W_BANKER_HOLDS] - off[:, kw.W_BANKER_HOLDS]
        pts = on[:, kw.W_PLAY + kh.R_ATTACKER_POINTS] - off[:, kw.W_PLAY + kh.R_ATTACKER_POINTS]
        out.append({"switch": name, "parameter": field, "preset_value": getattr(r, field),
                    "on": _side(on), "off": _side(off),
                    "diff": {"p_banker_holds": _e(mean_ci(hold)),
                             "banker_swing": _e(mean_ci(banker_swing(on) - banker_swing(off))),
                             "attacker_points": _e(mean_ci(pts))},
                    "p_acted": _p(acted.sum(), len(on)),
                    "p_changed": _p(np.any(on != off, axis=1).sum(), len(on))})
    return {**_head("rule_effect", r, policy, int(seed), int(n_deals)), "switches": out}


STATS = {"outcomes": outcomes, "banker": banker_by_level, "values": values,
         "rule-effect": rule_effect}
