"""How the batch runner plays and counts 双升 hands (see :class:`analyzer.core.runner.RunSpec`).

Two modes, chosen by the spec's option ``play_only`` (:data:`OPTIONS`; ``RunSpec.options``):

- **whole hands** (the default, ``kernels.shengji.game``): a normal hand with team levels
  2 and 2 and seat 0 as the banker going in; 造反 (redeal), declaring / overcalling / 加固,
  下台, the random kitty-card trump, the bury, 扒鸡窝, the play, 抠底, the level change and
  the next banker, each seat on its policy (``--policy`` / ``--policies``; random by
  default, or heuristic). The banker, L and T are outcomes.
- **play-only** (``kernels.shengji.hand``): bidding and the bury are not simulated; level 2,
  trump ♠, banker seat 0, and the 8 dealt cards are the kitty; every seat plays random.

A task keeps integer sums only (layout ``A_*``, one layout for both modes); they add across
tasks exactly. The counts layout and the statistics are :mod:`.result`'s.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from kernels.shengji import batch as kb
from kernels.shengji import game as kw
from kernels.shengji import hand as kh
from kernels.shengji.game import N_WHOLE
from kernels.shengji.planes import cards_of

from ..core.limits import Cost
from .cards import context, format_cards
from .result import (
    A_ATTACKER_GAIN,
    A_BAD_TOTAL,
    A_BAJIWO,
    A_BAJIWO_SWAPS,
    A_BAJIWO_SWAPS_SQ,
    A_BANKER_GAIN,
    A_BANKER_TRICK,
    A_FAILED,
    A_GRAB,
    A_HIST,
    A_HOLD,
    A_KITTY,
    A_KITTY_SQ,
    A_KOU,
    A_KOU_PTS,
    A_KOU_PTS_SQ,
    A_N,
    A_PTS,
    A_PTS_SQ,
    A_RANDOM_TRUMP,
    A_REBEL,
    A_SEAT,
    A_STEPDOWN,
    A_TEAM,
    A_THROWS,
    A_TRICK,
    A_TRICK_SQ,
    A_TRUMP,
    AGG_SIZE,
    ATTACKER_GAINS,
    BANKER,
    BANKER_GAINS,
    HIST_BINS,
    LEVEL,
    LEVELS,
    SE_BANKS,
    SE_HOLDS,
    SE_LAST_BURIER,
    SE_PTS,
    SE_PTS_SQ,
    SE_REBEL,
    SE_TAKER,
    SEAT_SIZE,
    START_BANKER,
    TEAM_SIZE,
    TM_ATTACK_PTS,
    TM_ATTACK_PTS_SQ,
    TM_BANKS,
    TM_GAIN,
    TM_GAIN_SQ,
    TM_HOLDS,
    TM_WINS,
    TOTAL_POINTS,
    TRUMP,
    Result,
)
from .rules import ShengjiRules, get_rules
from .sim import CHUNK, kernel_rules, policy_ids, rule_arrays, seat_policies, whole_hand_rows

CHUNK_SIZE = CHUNK
# What a unit of each command costs at the most (analyzer.core.limits): docs/bench.md's
# fastest policy on 2 threads, halved and rounded up (play-only hands about 120 k/s, deals
# 0.92 M/s); a tournament's deal is played once per seating (2) and keeps [deals, 2, 26]
# and [deals, 2] rows. Re-derive them when a command's arrays change.
COSTS = {"simulate": Cost("hands", 70_000), "tournament": Cost("deals", 35_000, 520),
         "odds": Cost("deals", 600_000)}
OPTIONS = {"play_only": False}  # RunSpec.options of a 双升 run: play-only hands instead


def _play_only(spec) -> bool:
    return bool(spec.options.get("play_only", False))


def check(spec) -> None:
    """Refuse unknown rules, policies or options."""
    get_rules(spec.rules)
    if not isinstance(spec.options.get("play_only"), bool):
        raise ValueError(f"the play_only option is true or false, got "
                         f"{spec.options.get('play_only')!r}")
    if _play_only(spec) and policy_ids(spec.policies).any():
        raise ValueError("play-only hands are played by the random policy only; drop "
                         "--play-only to play whole hands with other policies")


def meta(spec) -> dict:
    """The rules, the policy and the mode of a run."""
    names = sorted({n.strip().lower() for n in spec.policies.split(",")})
    return {"rules": get_rules(spec.rules).name, "policy": ",".join(names),
            "mode": "play-only" if _play_only(spec) else "whole"}


def level_changes(points: np.ndarray, r: ShengjiRules) -> tuple[np.ndarray, np.ndarray]:
    """``(banker_gain, attacker_gain)`` per hand from the attackers' points (§6.2, as
    ``scoring.level_result``): one of them is -1, the other the levels gained."""
    p, step, turn = points, r.level_step, r.turnover_at
    hold = p < turn
    banker = np.where(p <= 0, (turn - 1) // step + 2, (turn - p - 1) // step + 1)
    gain = (p - turn) // step
    if r.attacker_gain_cap is not None:
        gain = np.minimum(gain, r.attacker_gain_cap)
    return np.where(hold, banker, -1), np.where(hold, -1, gain)


def counts_of(res: np.ndarray, r: ShengjiRules) -> np.ndarray:
    """The counts vector of play result rows (``kernels.shengji.hand.R_*``)."""
    c = np.zeros(AGG_SIZE, dtype=np.int64)
    pts, trick = res[:, kh.R_ATTACKER_POINTS], res[:, kh.R_TRICK_POINTS]
    kitty = res[:, kh.R_KITTY_POINTS]
    kou = res[:, kh.R_MULTIPLIER] > 0
    added = kitty * res[:, kh.R_MULTIPLIER]
    c[A_N] = len(res)
    c[A_PTS], c[A_PTS_SQ] = pts.sum(), (pts * pts).sum()
    c[A_TRICK], c[A_TRICK_SQ] = trick.sum(), (trick * trick).sum()
    c[A_BANKER_TRICK] = res[:, kh.R_BANKER_TRICK_POINTS].sum()
    c[A_KITTY], c[A_KITTY_SQ] = kitty.sum(), (kitty * kitty).sum()
    c[A_KOU], c[A_KOU_PTS], c[A_KOU_PTS_SQ] = kou.sum(), added.sum(), (added * added).sum()
    c[A_HOLD] = (pts < r.turnover_at).sum()
    c[A_THROWS], c[A_FAILED] = res[:, kh.R_THROWS].sum(), res[:, kh.R_FAILED_THROWS].sum()
    c[A_BAD_TOTAL] = (trick + res[:, kh.R_BANKER_TRICK_POINTS] + kitty != TOTAL_POINTS).sum()
    bins = np.clip(np.floor_divide(pts, 5), -1, HIST_BINS - 2) + 1
    c[A_HIST:A_HIST + HIST_BINS] = np.bincount(bins, minlength=HIST_BINS)
    bg, ag = level_changes(pts, r)
    c[A_BANKER_GAIN:A_BANKER_GAIN + BANKER_GAINS] = np.bincount(
        np.clip(bg[bg > 0], 1, BANKER_GAINS) - 1, minlength=BANKER_GAINS)
    c[A_ATTACKER_GAIN:A_ATTACKER_GAIN + ATTACKER_GAINS] = np.bincount(
        np.clip(ag[ag >= 0], 0, ATTACKER_GAINS - 1), minlength=ATTACKER_GAINS)
    return c


def whole_counts_of(res: np.ndarray, r: ShengjiRules) -> np.ndarray:
    """The counts vector of whole-hand result rows (``kernels.shengji.game.W_*``)."""
    c = counts_of(res[:, kw.W_PLAY:kw.W_PLAY + kh.N_RESULT], r)
    swaps = res[:, kw.W_BAJIWO]
    c[A_REBEL] = (res[:, kw.W_REBEL] >= 0).sum()
    c[A_STEPDOWN] = res[:, kw.W_STEPPED_DOWN].sum()
    c[A_RANDOM_TRUMP] = res[:, kw.W_RANDOM_TRUMP].sum()
    c[A_BAJIWO], c[A_BAJIWO_SWAPS], c[A_BAJIWO_SWAPS_SQ] = ((swaps > 0).sum(), swaps.sum(),
                                                            (swaps * swaps).sum())
    c[A_GRAB] = res[:, kw.W_GRAB].sum()
    c[A_TRUMP:A_TRUMP + 5] = np.bincount(res[:, kw.W_TRUMP], minlength=5)
    pts = res[:, kw.W_PLAY + kh.R_ATTACKER_POINTS]
    banker, holds = res[:, kw.W_BANKER], res[:, kw.W_BANKER_HOLDS] == 1
    for team in (0, 1):
        b = A_TEAM + TEAM_SIZE * team
        banks = banker % 2 == team
        gain = np.where(res[:, kw.W_WINNER_TEAM] == team, res[:, kw.W_GAIN], 0)
        c[b + TM_BANKS], c[b + TM_HOLDS] = banks.sum(), (banks & holds).sum()
        c[b + TM_WINS] = (res[:, kw.W_WINNER_TEAM] == team).sum()
        c[b + TM_GAIN], c[b + TM_GAIN_SQ] = gain.sum(), (gain * gain).sum()
        c[b + TM_ATTACK_PTS] = pts[~banks].sum()
        c[b + TM_ATTACK_PTS_SQ] = (pts[~banks] ** 2).sum()
    for seat in range(4):
        b = A_SEAT + SEAT_SIZE * seat
        banks = banker == seat
        c[b + SE_BANKS], c[b + SE_HOLDS] = banks.sum(), (banks & holds).sum()
        c[b + SE_PTS], c[b + SE_PTS_SQ] = pts[banks].sum(), (pts[banks] ** 2).sum()
        c[b + SE_REBEL] = (res[:, kw.W_REBEL] == seat).sum()
        c[b + SE_TAKER] = (res[:, kw.W_KITTY_TAKER] == seat).sum()
        c[b + SE_LAST_BURIER] = (res[:, kw.W_LAST_BURIER] == seat).sum()
    return c


def _whole(spec, states: np.ndarray, n: int, with_deals: bool):
    params = rule_arrays(spec.rules)
    levels = np.array(LEVELS, dtype=np.int64)
    pol, hp = seat_policies(spec.policies, spec.rules)
    if not with_deals:
        return None, whole_hand_rows(kernel_rules(spec.rules, levels, START_BANKER), (pol, hp),
                                states, spec.chunk_size, n)
    res = np.empty((n, N_WHOLE), dtype=np.int64)
    deals = np.empty((n, 2, 5, 2), dtype=np.int64)
    kb.whole_dealt_chunks(states, spec.chunk_size, n, (levels, START_BANKER), params, deals,
                          res, (pol, hp))
    return deals, res


def _play(spec, states: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    deals = np.empty((n, 5, 2), dtype=np.int64)
    res = np.empty((n, kh.N_RESULT), dtype=np.int64)
    kb.dealt_chunks(states, spec.chunk_size, n, (LEVEL, TRUMP, BANKER),
                    rule_arrays(spec.rules), deals, res)
    return deals, res


def task_counts(spec, states: np.ndarray, n: int) -> np.ndarray:
    """Counts of ``n`` hands (whole or play-only) from one stream per chunk."""
    r = get_rules(spec.rules)
    if not _play_only(spec):
        return whole_counts_of(_whole(spec, states, n, False)[1], r)
    res = np.empty((n, kh.N_RESULT), dtype=np.int64)
    kb.play_chunks(states, spec.chunk_size, n, (LEVEL, TRUMP, BANKER), rule_arrays(r), res)
    return counts_of(res, r)


def _play_columns(res: np.ndarray, r: ShengjiRules) -> dict:
    bg, ag = level_changes(res[:, kh.R_ATTACKER_POINTS], r)
    return {"attacker_points": res[:, kh.R_ATTACKER_POINTS],
            "trick_points": res[:, kh.R_TRICK_POINTS],
            "banker_trick_points": res[:, kh.R_BANKER_TRICK_POINTS],
            "kitty_points": res[:, kh.R_KITTY_POINTS], "multiplier": res[:, kh.R_MULTIPLIER],
            "tricks": res[:, kh.R_TRICKS], "throws": res[:, kh.R_THROWS],
            "failed_throws": res[:, kh.R_FAILED_THROWS],
            "last_winner": res[:, kh.R_LAST_WINNER],
            "banker_holds": res[:, kh.R_ATTACKER_POINTS] < r.turnover_at,
            "banker_gain": bg, "attacker_gain": ag}


WHOLE_COLUMNS = {"banker": kw.W_BANKER, "level": kw.W_LEVEL, "trump": kw.W_TRUMP,
                 "random_trump": kw.W_RANDOM_TRUMP, "rebel": kw.W_REBEL,
                 "stepped_down": kw.W_STEPPED_DOWN, "kitty_taker": kw.W_KITTY_TAKER,
                 "bajiwo_swaps": kw.W_BAJIWO, "last_burier": kw.W_LAST_BURIER,
                 "declarations": kw.W_DECLARATIONS, "winner_team": kw.W_WINNER_TEAM,
                 "levels_gained": kw.W_GAIN, "next_banker": kw.W_NEXT_BANKER,
                 "level0_after": kw.W_LEVEL0_AFTER, "level1_after": kw.W_LEVEL1_AFTER}


def _deal_text(cols: dict, deals: np.ndarray, ctx) -> None:
    for s, name in enumerate(["dealt0", "dealt1", "dealt2", "dealt3", "kitty"]):
        cols[name] = [format_cards(cards_of(int(o), int(t)), ctx)
                      for o, t in deals[:, s].tolist()]


def task_rows(spec, states: np.ndarray, n: int) -> tuple[np.ndarray, pd.DataFrame]:
    """Counts and per-hand rows: the result columns, the level change and the deal played
    as card text (``dealt0`` … ``dealt3``, ``kitty``: after a 造反 the redeal); the same
    hands :func:`task_counts` plays."""
    r = get_rules(spec.rules)
    if _play_only(spec):
        deals, res = _play(spec, states, n)
        cols = _play_columns(res, r)
        _deal_text(cols, deals, context(LEVEL, TRUMP, r.nt_level_joker_tractor))
        return counts_of(res, r), pd.DataFrame(cols)
    deals, res = _whole(spec, states, n, True)
    cols = {k: res[:, i] for k, i in WHOLE_COLUMNS.items()}
    cols.update(_play_columns(res[:, kw.W_PLAY:kw.W_PLAY + kh.N_RESULT], r))
    played = np.where((res[:, kw.W_REBEL] >= 0)[:, None, None], deals[:, 1], deals[:, 0])
    _deal_text(cols, played, None)
    return whole_counts_of(res, r), pd.DataFrame(cols)


def result(counts: np.ndarray, meta: dict) -> Result:
    """The run's result."""
    return Result(counts, meta)
