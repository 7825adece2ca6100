"""How much the report's 掀牛 findings hinge on the bot: the same analyses under a second policy.

The values of 牛, 喜, K and each 亮子 (one swap on the same deal), P(刺) and the 掀 EV (overall
and per heat-map cell) are measured again under :func:`other_policy` of ``--policy`` (the
heuristic, or ``learned`` when ``--policy`` is the heuristic), on the same seeds and so the
same deals. Each finding's difference between the two policies carries a 95% CI from the two
estimates' own errors (the same deals make the estimates positively correlated, so the
interval is wider than a paired one would be). A finding *changes sign* when the two point
estimates differ in sign; it *changes sign surely* when in addition both CIs exclude 0.

Every finding is also measured under the strongest search player, :data:`SEARCH_POLICY`,
so that the report's player is checked against a player of another family too: the
whole-hand findings (P(刺), each seat's P(够), 掀 per hand) on one hand per
:data:`SEARCH_SHARE`, the values on one deal per :data:`SEARCH_VALUES_SHARE` and the 掀 EV (overall
and per heat-map cell) on one deal per :data:`SEARCH_XIAN_SHARE` of the main analyses (search is
slow: a value deal replays the hand once per pattern), with the main analyses' seeds.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from kernels.xianniu.experiments import N_PATTERNS

from ..report.formats import MIN_CASES
from ..report.section import FULL_HANDS
from .analysis import pattern_values, xian_ev
from .sim import policy_names, simulate_aggregate

BASE = "heuristic"
SEARCH_POLICY = "pimc2"  # the strongest search player (docs/guides/xianniu.md, the ladder)
SEARCH_SHARE = 250  # the search player plays one hand per this many of the main analyses
SEARCH_VALUES_SHARE = 400  # … one value deal per this many
SEARCH_XIAN_SHARE = 100  # … one 掀 EV deal per this many
# the search player's values and 掀 EV add about a minute to a report: from the full size on
# (``--full``), so that the quick report's first run stays within minutes
SEARCH_ALL_FROM = FULL_HANDS
# hands a deal of each search run plays, about (its share of the progress bar): a value deal
# is replayed once per pattern, a 掀 deal is played on twice from seat 1's answer
SEARCH_WORK = {"play": 1, "values": 1 + N_PATTERNS, "xian": 2}
# the whole-hand findings compared with the search player: (statistic, seat) in the outcomes
SEARCH_FINDINGS = (("p_ci_any_seat", None), ("p_gou", 0), ("p_gou", 1), ("p_gou", 2),
                   ("mean_xian", None))
XIAN_MIN_N = MIN_CASES  # heat-map cells with fewer positions under either policy: left out
COLS = ("value", "ci_low", "ci_high", "n")

TEXT: dict[str, tuple[str, str]] = {
    "sec_sensitivity": ("结论对策略的依赖", "How much the findings depend on the policy"),
    "intro_sensitivity": ("同样的分析（同一批牌、同样的种子）用第二种策略 {alt} 再做一遍，"
                          "与 {main} 并列：差值的 95% 置信区间由两个估计各自的误差合成"
                          "（同一批牌使两者正相关，所以区间偏宽）。点估计符号相反记为“变号”；"
                          "两个区间都不含 0 时记为“确定变号”。",
                          "The same analyses (the same deals, the same seeds) again under a "
                          "second policy, {alt}, beside {main}: the 95% CI of the difference "
                          "combines the two estimates' own errors (the same deals correlate "
                          "them, so it is wide). A finding changes sign when the two point "
                          "estimates differ in sign, and surely when both CIs exclude 0 as "
                          "well."),
    "col_finding": ("结论", "finding"),
    "col_sign": ("变号", "sign change"),
    "sign_sure": ("确定变号", "surely"),
    "sign_yes": ("变号", "yes"),
    "sign_no": ("", ""),
    "no_sign_change": ("没有结论变号。", "No finding changes sign."),
    "sign_changes": ("变号的结论：{items}。", "Findings that change sign: {items}."),
    "xian_cells": ("掀的热图：{n} 格中 {k} 格变号（{sure} 格确定变号）。",
                   "The xian heat map: {k} of {n} cells change sign ({sure} surely)."),
    "sec_xian_alt": ("掀的期望（{alt}）", "EV of xian ({alt})"),
    "step_sensitivity": ("第二种策略 {alt}", "the second policy, {alt}"),
    "step_search": ("搜索型策略 {alt} 下的结论", "the findings under the search player {alt}"),
    "sec_search_sensitivity": ("与最强的搜索型策略对照", "Against the strongest search player"),
    "intro_search": ("每条结论再用最强的搜索型策略 {alt}（另一类策略）打一遍，用同样的"
                     "种子：整局的结论（P(刺)、每家的 P(够)、每局掀的次数）、牛、喜、K、亮子的"
                     "价值和掀的期望（总的和热图每格）。搜索慢（价值实验要把每副牌按每种牌型"
                     "重打一遍），所以牌数少得多，区间也宽得多；热图只比两边各有至少 {min_n} "
                     "个局面的格。",
                     "Every finding played again by the strongest search player, {alt} (a "
                     "player of another family), with the same seeds: the whole-hand findings "
                     "(P(刺), each seat's P(够), 掀 per hand), the values of 牛, 喜, K and the "
                     "亮子, and the EV of 掀 (overall and per heat-map cell). Search is slow (a "
                     "value deal is replayed once per pattern), so it plays far fewer deals "
                     "and its intervals are far wider; the heat map compares only the cells with "
                     "at least {min_n} positions under both."),
    "search_full_only": ("这份报告的规模下只比整局的结论；价值和掀的期望在每项 {n} 局起（--full）"
                         "也由搜索型策略再打一遍（约多一分钟）。docs/guides/xianniu.md 用 2,000 副"
                         "（价值）和 10,000 副（掀）比过。",
                         "At this report's size only the whole-hand findings are compared; from "
                         "{n} hands per analysis on (--full) the values and the EV of 掀 are "
                         "played by the search player too (about a minute more). "
                         "docs/guides/xianniu.md compares them on 2,000 value deals and 10,000 "
                         "掀 deals."),
    "step_search_n": ("{play} 局、价值 {values} 副、掀 {xian} 副",
                      "{play} hands, {values} value deals, {xian} 掀 deals"),
    "p_gou_seat": ("P(够) 第 {seat} 家", "P(够) seat {seat}"),
    "mean_xian": ("每局掀的次数", "掀 per hand"),
}


def other_policy(policy: str) -> str:
    """The policy the findings are measured again under: the heuristic, or ``learned`` when
    ``policy`` is the heuristic at every seat."""
    return "learned" if set(policy_names(policy)) == {BASE} else BASE


def run_other(n: int, preset: str, policy: str, seeds: dict[str, int],
              pattern_ids: list[str]) -> dict[str, pd.DataFrame]:
    """Values, P(刺) and 掀 EV of ``preset`` under ``policy`` with the main analyses' seeds
    (``seeds``: ``values``, ``play``, ``xian``): the rows the sensitivity table compares, and
    the heat map's cells. ``pattern_ids`` name the values table's rows."""
    vals = pattern_values(n, preset, policy, seeds["values"])
    out = simulate_aggregate(n, preset, policy, seeds["play"]).tidy()
    xian = xian_ev(n, preset, policy, seeds["xian"])
    df = _findings(vals, pattern_ids, out[out["statistic"] == "p_ci_any_seat"].iloc[0],
                   xian.attrs["overall"])
    df.insert(0, "rules", preset)
    df["policy"] = policy
    xian.insert(0, "rules", preset)
    xian["policy"] = policy
    return {"sensitivity_other": df, "xian_ev_other": xian}


def _outcome_rows(outcomes: pd.DataFrame) -> pd.DataFrame:
    """The :data:`SEARCH_FINDINGS` rows (finding, value, ci_low, ci_high, n) of one preset's
    outcomes table."""
    rows = []
    for stat, seat in SEARCH_FINDINGS:
        pick = outcomes[outcomes["statistic"] == stat]
        if seat is not None:
            pick = pick[pick["seat"] == seat]
        r = pick.iloc[0]
        rows.append({"finding": stat if seat is None else f"{stat}_{seat}",
                     **{c: r[c] for c in COLS}})
    return pd.DataFrame(rows)


def search_sizes(hands: int) -> dict[str, int]:
    """Hands (``play``) and deals (``values``, ``xian``) the search player plays when the main
    analyses play ``hands``; the values and 掀 EV only from :data:`SEARCH_ALL_FROM` hands on
    (0 below)."""
    every = hands >= SEARCH_ALL_FROM
    return {"play": max(2, hands // SEARCH_SHARE),
            "values": max(2, hands // SEARCH_VALUES_SHARE) if every else 0,
            "xian": max(2, hands // SEARCH_XIAN_SHARE) if every else 0}


def search_work(sizes: dict[str, int]) -> int:
    """The progress bar's length of a search run of ``sizes``: hands, about."""
    return sum(SEARCH_WORK[k] * n for k, n in sizes.items())


def run_search(sizes: dict[str, int], preset: str, seeds: dict[str, int],
               pattern_ids: list[str],
               progress: Callable[[int], None] | None = None) -> dict[str, pd.DataFrame]:
    """Every finding of ``preset`` under :data:`SEARCH_POLICY`: the whole-hand ones on
    ``sizes["play"]`` hands, the values and 掀 EV on ``sizes["values"]`` and ``sizes["xian"]``
    deals, with ``seeds`` (``play``, ``values``, ``xian``; a size of 0 skips that run, and
    without the 掀 EV there is no ``xian_ev_search``); ``progress`` is told the hands played
    (:data:`SEARCH_WORK`)."""
    def told(kind: str) -> Callable[[int], None] | None:
        if progress is None:
            return None
        return lambda done: progress(done * SEARCH_WORK[kind])

    out = simulate_aggregate(sizes["play"], preset, SEARCH_POLICY, seeds["play"],
                             progress=told("play")).tidy()
    parts = [_outcome_rows(out)]
    got: dict[str, pd.DataFrame] = {}
    if sizes["values"]:
        vals = pattern_values(sizes["values"], preset, SEARCH_POLICY, seeds["values"],
                              progress=told("values"))
        parts.append(_value_rows(vals, pattern_ids))
    if sizes["xian"]:
        xian = xian_ev(sizes["xian"], preset, SEARCH_POLICY, seeds["xian"],
                       progress=told("xian"))
        parts.append(_overall_row(xian.attrs["overall"]))
        xian.insert(0, "rules", preset)
        xian["policy"] = SEARCH_POLICY
        got["xian_ev_search"] = xian
    df = pd.concat(parts, ignore_index=True)
    df.insert(0, "rules", preset)
    df["policy"] = SEARCH_POLICY
    return {"sensitivity_search_other": df, **got}


def search_table(tables: dict[str, pd.DataFrame], meta: dict, presets: tuple[str, ...],
                 main_policy: str) -> pd.DataFrame:
    """Every finding of every preset under ``main_policy`` and the search player (see
    :func:`compare`), plus one row per preset for the heat map (as in
    :func:`sensitivity_table`)."""
    frames = []
    o, other = tables["outcomes"], tables["sensitivity_search_other"]
    for p in presets:
        v = tables["values"][tables["values"]["rules"] == p]
        main = pd.concat([_outcome_rows(o[o["rules"] == p]), _value_rows(v, v["pattern"]),
                          _overall_row(meta[p]["xian_overall"])], ignore_index=True)
        theirs = other[other["rules"] == p]
        df = compare(main[main["finding"].isin(theirs["finding"])], theirs)
        if "xian_ev_search" in tables:  # the 掀 EV was played by the search player too
            xe, xs = tables["xian_ev"], tables["xian_ev_search"]
            df = pd.concat([df, _cells_row(xe[xe["rules"] == p], xs[xs["rules"] == p])],
                           ignore_index=True)
        df.insert(0, "rules", p)
        df["main_policy"], df["other_policy"] = main_policy, SEARCH_POLICY
        frames.append(df)
    return pd.concat(frames, ignore_index=True)


def main_rows(tables: dict[str, pd.DataFrame], meta: dict, preset: str) -> pd.DataFrame:
    """The same findings from the main analyses of ``preset``."""
    v = tables["values"][tables["values"]["rules"] == preset]
    o = tables["outcomes"]
    ci = o[(o["rules"] == preset) & (o["statistic"] == "p_ci_any_seat")].iloc[0]
    return _findings(v, v["pattern"], ci, meta[preset]["xian_overall"])


def _findings(values: pd.DataFrame, pattern_ids, ci: pd.Series, overall: dict) -> pd.DataFrame:
    """The compared findings as rows (finding, value, ci_low, ci_high, n): each pattern's
    counterfactual value, P(刺) from its outcomes row ``ci``, and the overall 掀 EV."""
    return pd.concat([_value_rows(values, pattern_ids),
                      pd.DataFrame([{"finding": "p_ci_any_seat", **{c: ci[c] for c in COLS}}]),
                      _overall_row(overall)], ignore_index=True)


def _value_rows(values: pd.DataFrame, pattern_ids) -> pd.DataFrame:
    """Each pattern's counterfactual value as a finding row (``value_<id>``)."""
    return pd.DataFrame([{"finding": f"value_{pid}", "value": r.counterfactual_diff,
                          "ci_low": r.cf_ci_low, "ci_high": r.cf_ci_high, "n": r.cf_pairs}
                         for pid, r in zip(pattern_ids, values.itertuples())])


def _overall_row(overall: dict) -> pd.DataFrame:
    """The overall 掀 EV (``xian_overall``) as a finding row."""
    return pd.DataFrame([{"finding": "xian_overall", "value": overall["value"],
                          "ci_low": overall["low"], "ci_high": overall["high"],
                          "n": overall["n"]}])


def _sure(lo, hi):
    """Whether a 95% CI excludes 0."""
    return (lo > 0) | (hi < 0)


def compare(main: pd.DataFrame, other: pd.DataFrame) -> pd.DataFrame:
    """One row per finding: both estimates, the difference main − other with its CI, and
    whether the sign changes (``sign_change``) and does so surely (``sign_sure``)."""
    m = main.set_index("finding")
    o = other.set_index("finding").loc[m.index]
    d = m["value"] - o["value"]
    half = np.hypot((m["ci_high"] - m["ci_low"]) / 2, (o["ci_high"] - o["ci_low"]) / 2)
    flips = (m["value"] * o["value"]) < 0
    sure = flips & _sure(m["ci_low"], m["ci_high"]) & _sure(o["ci_low"], o["ci_high"])
    out = pd.DataFrame({"main": m["value"], "main_ci_low": m["ci_low"],
                        "main_ci_high": m["ci_high"], "main_n": m["n"],
                        "other": o["value"], "other_ci_low": o["ci_low"],
                        "other_ci_high": o["ci_high"], "other_n": o["n"], "diff": d,
                        "diff_ci_low": d - half, "diff_ci_high": d + half,
                        "sign_change": flips, "sign_sure": sure})
    return out.reset_index()


def xian_cells(main: pd.DataFrame, other: pd.DataFrame) -> tuple[int, int, int]:
    """Heat-map cells with enough positions under both policies: how many, how many change
    sign, how many surely."""
    keys = ["sure_cards", "k_count"]
    j = main.merge(other, on=keys, suffixes=("_m", "_o"))
    j = j[(j["n_m"] >= XIAN_MIN_N) & (j["n_o"] >= XIAN_MIN_N)]
    flips = (j["diff_m"] * j["diff_o"]) < 0
    sure = flips & _sure(j["ci_low_m"], j["ci_high_m"]) & _sure(j["ci_low_o"], j["ci_high_o"])
    return len(j), int(flips.sum()), int(sure.sum())


def _cells_row(main: pd.DataFrame, other: pd.DataFrame) -> pd.DataFrame:
    """The heat map's comparison (:func:`xian_cells`) as one row (finding ``xian_cells``)."""
    n, k, sure = xian_cells(main, other)
    return pd.DataFrame([{"finding": "xian_cells", "main_n": n, "other_n": n,
                          "sign_change": k > 0, "sign_sure": sure > 0, "cells": n,
                          "cells_changed": k, "cells_sure": sure}])


def sensitivity_table(tables: dict[str, pd.DataFrame], meta: dict, presets: tuple[str, ...],
                      main_policy: str, other: str) -> pd.DataFrame:
    """Every finding of every preset under both policies (see :func:`compare`), plus one row
    per preset for the heat map (``xian_cells``: cells, sign changes, sure ones)."""
    frames = []
    for p in presets:
        df = compare(main_rows(tables, meta, p),
                     tables["sensitivity_other"][tables["sensitivity_other"]["rules"] == p])
        xe = tables["xian_ev"]
        xo = tables["xian_ev_other"]
        df = pd.concat([df, _cells_row(xe[xe["rules"] == p], xo[xo["rules"] == p])],
                       ignore_index=True)
        df.insert(0, "rules", p)
        df["main_policy"], df["other_policy"] = main_policy, other
        frames.append(df)
    return pd.concat(frames, ignore_index=True)
