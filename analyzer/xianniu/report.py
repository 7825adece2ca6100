"""兰州掀牛's section of the strategy report: what it runs, its tables and its words.

Nothing is computed here that the package's own functions do not compute: deal odds
(:mod:`.odds`), played hands (:func:`.sim.simulate_aggregate`), pattern values and 掀 EV
(:mod:`.analysis`) and duplicate tournaments (:mod:`.tournament`). Each analysis of each
preset draws its own seed from the section's root (:func:`analyzer.report.seed_sequence`
with the key ``xianniu``) through ``SeedSequence.spawn``, and :meth:`Plan.command` names the
``xianniu`` command that reproduces its numbers alone. The figures and the page are drawn
by :mod:`.plots`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ..core.stats import Z95
from ..report.progress import Advance, StepFn
from ..report.section import ReportSpec
from .analysis import banker_advantage, pattern_values, xian_ev
from .findings import findings
from .ladder import RUNGS, ladder_sizes, play_rungs, time_policies
from .odds import odds
from .report_data import (
    ANALYSES,
    COMPARE_SOURCES,
    KEY,
    ODDS_FEATURES,
    PATTERN_IDS,
    PRESET_ORDER,
    REPEATED,
    RULE_CHOICES,
    TEXT,
    Plan,
    T,
    XianniuData,
)
from .rules import get_rules
from .sensitivity import (
    other_policy,
    run_other,
    run_search,
    search_sizes,
    search_table,
    search_work,
    sensitivity_table,
)
from .sim import SEARCH, policy_names, simulate_aggregate

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from ..report.findings import Finding
    from ..report.render import Block

__all__ = ["ANALYSES", "KEY", "PRESET_ORDER", "SECTION", "TEXT", "Plan", "XianniuData",
           "compare_table", "rules_table", "run_analyses"]


def _ci_row(e: dict, **extra) -> dict:
    return {**extra, "value": e["value"], "ci_low": e["low"], "ci_high": e["high"], "n": e["n"]}


def _odds(plan: Plan, preset: str, meta: dict, advance: Advance) -> dict[str, pd.DataFrame]:
    seed = plan.seed_for("odds", preset)
    res = odds(preset, plan.n("odds"), seed)
    ex, mc = res["exact"], res["monte_carlo"]
    rows = [{"rules": preset, "feature": f, "exact": ex[f], **_ci_row(mc[f]), "seed": seed}
            for f in ODDS_FEATURES]
    rows += [{"rules": preset, "feature": f"k{k}", "exact": ex["k_count"][k],
              **_ci_row(mc["k_count"][k]), "seed": seed} for k in range(5)]
    return {"odds": pd.DataFrame(rows)}


def _play(plan: Plan, preset: str, meta: dict, advance: Advance) -> dict[str, pd.DataFrame]:
    seed = plan.seed_for("play", preset)
    agg = simulate_aggregate(plan.n("play"), preset, plan.spec.option(KEY, "policy"), seed,
                             progress=advance)
    meta["banker"] = banker_advantage(agg.summary())["banker_mean_points"]
    df = agg.tidy()
    cap = df["statistic"].str.startswith("p_captured_")
    captured = df[cap].reset_index(drop=True)
    captured.insert(0, "cards", captured.pop("statistic").str.removeprefix("p_captured_")
                    .astype(int))
    return {"outcomes": df[~cap].reset_index(drop=True), "captured": captured}


def _values(plan: Plan, preset: str, meta: dict, advance: Advance) -> dict[str, pd.DataFrame]:
    seed = plan.seed_for("values", preset)
    df = pattern_values(plan.n("values"), preset, plan.spec.option(KEY, "policy"), seed)
    k_rows = [_ci_row(e, rules=preset, k_count=k) for k, e in enumerate(df.attrs["k_count"])]
    df = df.drop(columns="pattern")
    df.insert(0, "pattern", PATTERN_IDS)
    df.insert(0, "rules", preset)
    df["policy"], df["seed"] = plan.spec.option(KEY, "policy"), seed
    k = pd.DataFrame(k_rows)
    k["policy"], k["seed"] = plan.spec.option(KEY, "policy"), seed
    return {"values": df, "k_count": k}


def _xian(plan: Plan, preset: str, meta: dict, advance: Advance) -> dict[str, pd.DataFrame]:
    seed = plan.seed_for("xian", preset)
    df = xian_ev(plan.n("xian"), preset, plan.spec.option(KEY, "policy"), seed)
    meta["xian_overall"] = df.attrs["overall"]
    meta["xian_positions"] = df.attrs["positions"]
    df.insert(0, "rules", preset)
    df["policy"], df["seed"] = plan.spec.option(KEY, "policy"), seed
    return {"xian_ev": df}


def _ladder(plan: Plan, preset: str, which: str, meta: dict,
            advance: Advance) -> dict[str, pd.DataFrame]:
    df = play_rungs(which, plan.n(which), preset, plan.seed_for(which, preset), meta,
                    progress=advance)
    return {"ladder": df} if len(df) else {}  # rungs this size does not play: no rows


def _sensitivity(plan: Plan, preset: str, meta: dict, advance: Advance) -> dict[str, pd.DataFrame]:
    seeds = {a: plan.seed_for(a, preset) for a in REPEATED}
    return run_other(plan.n("values"), preset, other_policy(plan.spec.option(KEY, "policy")), seeds,
                     PATTERN_IDS)


def _search(plan: Plan, preset: str, meta: dict, advance: Advance) -> dict[str, pd.DataFrame]:
    seeds = {"play": plan.seed_for("search", preset), "values": plan.seed_for("values", preset),
             "xian": plan.seed_for("xian", preset)}
    return run_search(plan.search_sizes, preset, seeds, PATTERN_IDS, advance)


def _timing(plan: Plan, preset: str, meta: dict, advance: Advance) -> dict[str, pd.DataFrame]:
    if not plan.spec.timings:
        return {}
    return {"timing": time_policies(plan.spec.hands, preset, plan.seed_for("timing", preset))}


RUNS: dict[str, Callable[[Plan, str, dict, Advance], dict[str, pd.DataFrame]]] = {
    "odds": _odds, "play": _play, "values": _values, "xian": _xian,
    "ladder": lambda plan, p, m, adv: _ladder(plan, p, "ladder", m, adv),
    "pimc": lambda plan, p, m, adv: _ladder(plan, p, "pimc", m, adv), "timing": _timing,
    "sensitivity": _sensitivity, "search": _search}
# the analyses that report their progress as they go (the others when they end)
LIVE = {"play": 1, "ladder": len(RUNGS["ladder"]), "pimc": len(RUNGS["pimc"]), "search": 1}
STEP_WHAT = {"odds": "sec_odds", "play": "sec_captured", "values": "sec_values",
             "xian": "sec_xian", "ladder": "sec_ladder", "pimc": "search_rungs",
             "timing": "step_timing", "sensitivity": "sec_sensitivity",
             "search": "sec_search_sensitivity"}
assert tuple(RUNS) == ANALYSES


def rules_table(presets: tuple[str, ...], lang: str) -> pd.DataFrame:
    """The preset rules that matter to the numbers, one row per rule, read from the data."""
    def yn(flag: bool) -> str:
        return T("yes" if flag else "no", lang)

    rows: list[tuple[str, Callable[[Any], str]]] = [
        ("rule_title", lambda r: f"{T(r.name, lang)} ({r.name if lang == 'zh' else r.title})"),
        ("rule_deal", lambda r: T("rule_deal_v", lang)),
        ("rule_gou", lambda r: T("rule_gou_v", lang, n=r.gou_min)),
        ("rule_ci", lambda r: T("rule_ci_v", lang, n=r.ci_min, off=r.ci_offset)),
        ("rule_xian_points", lambda r: T("rule_xian_points_v", lang, n=r.xian_points)),
        ("rule_xian_needs_target_gou", lambda r: yn(r.xian_needs_target_gou)),
        ("rule_liang_points", lambda r: T("rule_liang_points_v", lang, n=r.liang_points)),
        ("rule_bao_ci_doubles", lambda r: T("rule_bao_ci_double" if r.bao_ci_doubles
                                            else "rule_bao_ci_cover", lang)),
        ("rule_ci_unit_drops_liang", lambda r: yn(r.ci_unit_drops_liang)),
        ("rule_set_order", lambda r: T("rule_set_order_usual" if r.set_strength[1] ==
                                       r.set_strength[0] else "rule_set_order_kan", lang)),
        ("rule_no_beat_36", lambda r: yn(bool(r.set_no_beat_pairs))),
        ("rule_fish_bai", lambda r: str(max(r.fish_max_k, r.bai_max_k))),
        ("rule_k_bai", lambda r: yn(r.k_bai)),
        ("rule_xi_bao_liang", lambda r: yn(r.xi_bao_liang)),
        ("rule_qiangci", lambda r: T("rule_qiangci_must" if r.qiangci_mandatory
                                     else "rule_qiangci_may", lang)),
        ("rule_eight_pairs_colour", lambda r: yn(r.eight_pairs_by_colour)),
        ("rule_tighten", lambda r: T("rule_tighten_v", lang, n=r.tighten_min_table)),
        ("rule_tighten_holder", lambda r: yn(r.tighten_lead_holder_discards)),
        ("rule_kkk", lambda r: yn(r.kkk_k108_liang)),
    ]
    out = [{"key": key.removeprefix("rule_"), "rule": T(key, lang),
            **{p: show(get_rules(p)) for p in presets}} for key, show in rows]
    return pd.DataFrame(out)




def _metric(tables: dict[str, pd.DataFrame], meta: dict, metric: str, preset: str) -> dict:
    """One headline number of one preset: value, ci_low, ci_high and n."""
    def pick(df: pd.DataFrame, **eq) -> pd.Series:
        m = df["rules"] == preset
        for k, v in eq.items():
            m &= df[k] == v
        return df[m].iloc[0]

    if metric in ("banker_points", "xian_overall"):
        e = meta[preset]["banker" if metric == "banker_points" else "xian_overall"]
        return _ci_row(e)
    if metric.startswith("value_"):
        row = pick(tables["values"], pattern=metric.removeprefix("value_"))
        cols = ("counterfactual_diff", "cf_ci_low", "cf_ci_high", "cf_pairs")
    elif metric in ("heuristic_random", "pimc_tuned2"):
        a, b = metric.split("_")
        row = pick(tables["ladder"], a=a, b=b)
        cols = ("diff", "ci_low", "ci_high", "n_deals")
    else:
        row = pick(tables["outcomes"], statistic=metric)
        cols = ("value", "ci_low", "ci_high", "n")
    return dict(zip(("value", "ci_low", "ci_high", "n"), (row[c] for c in cols)))


def compare_table(plan: Plan, tables: dict[str, pd.DataFrame], meta: dict) -> pd.DataFrame:
    """Headline numbers of both presets side by side and their difference (kanniutui −
    lanzhou, 95% CI from two independent estimates), each with n and seed."""
    rows = []
    for metric, (analysis, unit) in COMPARE_SOURCES.items():
        if analysis in RUNGS and not plan.n(analysis):  # rungs this size does not play
            continue
        row: dict[str, Any] = {"metric": metric, "unit": unit}
        ses = []
        for p in PRESET_ORDER:
            m = _metric(tables, meta, metric, p)
            row.update({p: m["value"], f"{p}_ci_low": m["ci_low"], f"{p}_ci_high": m["ci_high"],
                        f"{p}_n": int(m["n"]), f"{p}_seed": plan.seed_for(analysis, p)})
            ses.append((m["ci_high"] - m["ci_low"]) / (2 * Z95))
        d = row["kanniutui"] - row["lanzhou"]
        half = Z95 * math.hypot(*ses)
        row.update({"diff": d, "diff_ci_low": d - half, "diff_ci_high": d + half})
        rows.append(row)
    return pd.DataFrame(rows)


def run_analyses(plan: Plan, step: StepFn) -> XianniuData:
    """Every analysis of every selected preset; ``step`` starts each one with its size (hands
    or deals; the ladders' rungs times their deals)."""
    lang = plan.spec.lang
    parts: dict[str, list[pd.DataFrame]] = {}
    meta: dict[str, dict[str, Any]] = {}
    for preset in plan.presets:
        m = meta.setdefault(preset, {})
        for a, run in RUNS.items():
            unit = "unit_hands" if a == "play" else "unit_deals"
            size = f"{plan.n(a):,} {T(unit, lang)}"
            total = plan.n(a) * LIVE.get(a, 1)
            if a == "search":
                size, total = plan.search_label(lang), search_work(plan.search_sizes)
            advance = step(T("step_run", lang, preset=T(preset, lang), what=T(STEP_WHAT[a], lang),
                             n=size), total)
            got = run(plan, preset, m, advance)
            if a not in LIVE:
                advance(total)
            for name, df in got.items():
                parts.setdefault(name, []).append(df)
    tables = {"rules": rules_table(plan.presets, lang)}
    tables.update({k: pd.concat(v, ignore_index=True) for k, v in parts.items()})
    if len(plan.presets) == len(PRESET_ORDER):
        tables["compare"] = compare_table(plan, tables, meta)
    tables["sensitivity"] = sensitivity_table(tables, meta, plan.presets, plan.spec.option(KEY, "policy"),
                                              other_policy(plan.spec.option(KEY, "policy")))
    tables["sensitivity_search"] = search_table(tables, meta, plan.presets,
                                                plan.spec.option(KEY, "policy"))
    return XianniuData(plan, tables, meta)


class XianniuSection:
    """兰州掀牛 in the report: odds, P(刺), values, 掀 EV, banker, both presets, ladder."""

    key = KEY
    labels = T
    options = {"rules": "all", "policy": "net"}
    outputs = ("rules", "odds", "outcomes", "captured", "values", "k_count", "xian_ev",
               "ladder", "compare", "banker", "timing", "sensitivity", "sensitivity_other",
               "sensitivity_search", "sensitivity_search_other",
               "xian_ev_other", "xian_ev_search")

    def title(self, lang: str) -> str:
        return T("game", lang)

    def check(self, spec: ReportSpec) -> None:
        if spec.option(KEY, "rules") not in RULE_CHOICES:
            raise ValueError(f"unknown rules {spec.option(KEY, 'rules')!r} (choose from "
                             f"{', '.join(RULE_CHOICES)})")
        if any(p in SEARCH for p in policy_names(spec.option(KEY, "policy"))):
            raise ValueError("the report's hands, values and 掀 EV play kernel policies "
                             "(net, learned, heuristic, heuristic2, random); pimc and pimc2 play "
                             "in the policy ladder")

    def plays(self, hands: int) -> dict[str, int]:
        """Hands or deals of each analysis at ``--hands`` (analyzer/report/sizes.py)."""
        h = int(hands)
        return {"odds": h, "play": h, "values": h, "xian": h, "sensitivity": h,
                **ladder_sizes(h),
                **{f"search_{k}": v for k, v in search_sizes(h).items() if v}}

    def steps(self, spec: ReportSpec) -> int:
        return len(Plan(spec).presets) * len(ANALYSES)

    def run(self, spec: ReportSpec, root: np.random.SeedSequence,
            progress: StepFn) -> XianniuData:
        return run_analyses(Plan(spec, root), progress)

    def tables(self, data: XianniuData) -> dict[str, pd.DataFrame]:
        return data.tables

    def figures(self, data: XianniuData, lang: str) -> dict[str, Figure]:
        from .plots import figures

        return figures(data, lang)

    def blocks(self, data: XianniuData, lang: str) -> list[Block]:
        from .plots import blocks

        return blocks(data, lang)

    def findings(self, data: XianniuData, lang: str) -> list[Finding]:
        return findings(data, lang)


SECTION = XianniuSection()
