"""The report's analyses, run into tidy tables that carry their sample sizes and seeds.

Nothing is computed here that the project's own functions do not compute: deal odds
(:mod:`analyzer.odds`), played hands (:func:`analyzer.simulate.simulate_aggregate`), pattern
values and 掀 EV (:mod:`analyzer.values`) and duplicate tournaments
(:mod:`analyzer.tournament`). Each analysis of each preset draws its own seed from the one
``--seed`` through ``SeedSequence.spawn``, and :meth:`ReportSpec.analysis_command` names the
``xianniu`` command that reproduces its numbers alone.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ..cards import RANKS
from ..odds import odds
from ..report_formats import tidy_summary
from ..rules import PRESETS, get_rules
from ..simulate import policy_names, simulate_aggregate
from ..stats import Z95
from ..tournament import tournament
from ..values import PATTERN_NAMES, banker_advantage, pattern_values, xian_ev
from . import dingniu
from .labels import LANGS, t

PRESET_ORDER = ("lanzhou", "kanniutui")
RULE_CHOICES = ("all",) + PRESET_ORDER
ANALYSES = ("odds", "play", "values", "xian", "ladder", "pimc")
DEFAULT_HANDS = 400_000
MIN_HANDS = 100
PIMC_SHARE = 1000  # the pimc ladder plays one deal per this many hands (pimc is slow)
LADDERS = {"ladder": "heuristic,random", "pimc": "pimc,heuristic"}
PATTERN_IDS = ["niu", "xi", "K"] + [f"liang_{r}" for r in RANKS]
ODDS_FEATURES = ("niu", "xi", "liang", "long_feng", "eight_pairs", "fish", "bai")
assert len(PATTERN_IDS) == len(PATTERN_NAMES)
assert set(PRESET_ORDER) == set(PRESETS)


@dataclass(frozen=True)
class ReportSpec:
    """What decides a report's numbers and words: presets, size, policy, seed, language."""

    rules: str = "all"
    hands: int = DEFAULT_HANDS
    policy: str = "heuristic"
    seed: int = 0
    lang: str = "zh"

    def __post_init__(self) -> None:
        if self.rules not in RULE_CHOICES:
            raise ValueError(f"unknown rules {self.rules!r} (choose from "
                             f"{', '.join(RULE_CHOICES)})")
        if (not isinstance(self.hands, (int, np.integer)) or isinstance(self.hands, bool)
                or self.hands < MIN_HANDS):
            raise ValueError(f"the report needs at least {MIN_HANDS} hands, got {self.hands!r}")
        if not isinstance(self.seed, (int, np.integer)) or self.seed < 0:
            raise ValueError(f"the seed must be an integer of at least 0, got {self.seed!r}")
        if "pimc" in policy_names(self.policy):
            raise ValueError("the report's hands, values and 掀 EV play kernel policies "
                             "(random, heuristic); pimc plays in the policy ladder")
        if self.lang not in LANGS:
            raise ValueError(f"unknown language {self.lang!r} (choose zh or en)")

    @property
    def presets(self) -> tuple[str, ...]:
        return PRESET_ORDER if self.rules == "all" else (self.rules,)

    @property
    def pimc_deals(self) -> int:
        return max(2, int(self.hands) // PIMC_SHARE)

    def n(self, analysis: str) -> int:
        """Deals (or hands) that ``analysis`` plays."""
        return self.pimc_deals if analysis == "pimc" else int(self.hands)

    def seed_for(self, analysis: str, preset: str) -> int:
        """The seed of one analysis of one preset, spawned from ``seed``; the same whatever
        ``rules`` selects."""
        children = np.random.SeedSequence(int(self.seed)).spawn(len(ANALYSES) *
                                                                len(PRESET_ORDER))
        child = children[ANALYSES.index(analysis) * len(PRESET_ORDER)
                         + PRESET_ORDER.index(preset)]
        return int(child.generate_state(1)[0])

    def command(self) -> str:
        """The ``xianniu report`` command that writes this report again."""
        return (f"xianniu report --rules {self.rules} --hands {self.hands} --policy "
                f"{self.policy} --seed {self.seed} --lang {self.lang}")

    def analysis_command(self, what: str, preset: str) -> str:
        """The ``xianniu`` command that reproduces one analysis alone (``what``: an analysis,
        or ``banker`` for the banker's share of ``play``)."""
        a = "play" if what == "banker" else what
        n, s, p = self.n(a), self.seed_for(a, preset), self.policy
        return {
            "odds": f"xianniu odds --rules {preset} --deals {n} --seed {s}",
            "play": f"xianniu simulate --hands {n} --rules {preset} --policy {p} --seed {s} "
                    f"--format json",
            "banker": f"xianniu stats banker --hands {n} --rules {preset} --policy {p} "
                      f"--seed {s}",
            "values": f"xianniu stats values --hands {n} --rules {preset} --policy {p} "
                      f"--seed {s}",
            "xian": f"xianniu stats xian --hands {n} --rules {preset} --policy {p} --seed {s}",
            "ladder": f"xianniu tournament --policies {LADDERS['ladder']} --hands {n} "
                      f"--rules {preset} --seed {s}",
            "pimc": f"xianniu tournament --policies {LADDERS['pimc']} --hands {n} "
                    f"--rules {preset} --seed {s}",
        }[what]


@dataclass
class ReportData:
    """The tables of a report (each written as ``NAME.csv``) and what produced them."""

    spec: ReportSpec
    tables: dict[str, pd.DataFrame]
    meta: dict[str, dict[str, Any]] = field(default_factory=dict)  # per preset
    elapsed: float = 0.0


class ReportView:
    """A report's data as its figures and pages see it: the presets it ran, in order, and
    its words in its language."""

    def __init__(self, data: ReportData):
        self.d = data
        self.spec = data.spec
        self.lang = data.spec.lang
        self.presets = [p for p in PRESET_ORDER if p in data.spec.presets]

    def t(self, key: str, **kw) -> str:
        return t(key, self.lang, **kw)


def _ci_row(e: dict, **extra) -> dict:
    return {**extra, "value": e["value"], "ci_low": e["low"], "ci_high": e["high"], "n": e["n"]}


def _odds(spec: ReportSpec, preset: str) -> pd.DataFrame:
    seed = spec.seed_for("odds", preset)
    res = odds(preset, spec.n("odds"), seed)
    ex, mc = res["exact"], res["monte_carlo"]
    rows = [{"rules": preset, "feature": f, "exact": ex[f], **_ci_row(mc[f]), "seed": seed}
            for f in ODDS_FEATURES]
    rows += [{"rules": preset, "feature": f"k{k}", "exact": ex["k_count"][k],
              **_ci_row(mc["k_count"][k]), "seed": seed} for k in range(5)]
    return pd.DataFrame(rows)


def _play(spec: ReportSpec, preset: str, meta: dict) -> tuple[pd.DataFrame, pd.DataFrame]:
    seed = spec.seed_for("play", preset)
    agg = simulate_aggregate(spec.n("play"), preset, spec.policy, seed)
    meta["banker"] = banker_advantage(agg.summary())["banker_mean_points"]
    df = tidy_summary(agg)
    cap = df["statistic"].str.startswith("p_captured_")
    outcomes = df[~cap].reset_index(drop=True)
    captured = df[cap].reset_index(drop=True)
    captured.insert(0, "cards", captured.pop("statistic").str.removeprefix("p_captured_")
                    .astype(int))
    return outcomes, captured


def _values(spec: ReportSpec, preset: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    seed = spec.seed_for("values", preset)
    df = pattern_values(spec.n("values"), preset, spec.policy, seed)
    k_rows = [_ci_row(e, rules=preset, k_count=k) for k, e in enumerate(df.attrs["k_count"])]
    df = df.drop(columns="pattern")
    df.insert(0, "pattern", PATTERN_IDS)
    df.insert(0, "rules", preset)
    df["policy"], df["seed"] = spec.policy, seed
    k = pd.DataFrame(k_rows)
    k["policy"], k["seed"] = spec.policy, seed
    return df, k


def _xian(spec: ReportSpec, preset: str, meta: dict) -> pd.DataFrame:
    seed = spec.seed_for("xian", preset)
    df = xian_ev(spec.n("xian"), preset, spec.policy, seed)
    meta["xian_overall"] = df.attrs["overall"]
    meta["xian_positions"] = df.attrs["positions"]
    df.insert(0, "rules", preset)
    df["policy"], df["seed"] = spec.policy, seed
    return df


def _ladder(spec: ReportSpec, preset: str, which: str, meta: dict) -> pd.DataFrame:
    seed = spec.seed_for(which, preset)
    res = tournament(LADDERS[which], spec.n(which), preset, seed)
    if "pimc_samples" in res.meta:
        meta["pimc_samples"] = res.meta["pimc_samples"]
    df = res.differences()
    df.insert(0, "rules", preset)
    df["hands_played"], df["seed"] = res.meta["hands_played"], seed
    return df


def rules_table(presets: tuple[str, ...], lang: str) -> pd.DataFrame:
    """The preset rules that matter to the numbers, one row per rule, read from the data."""
    def yn(flag: bool) -> str:
        return t("yes" if flag else "no", lang)

    rows: list[tuple[str, Callable[[Any], str]]] = [
        ("rule_title", lambda r: f"{t(r.name, lang)} ({r.name if lang == 'zh' else r.title})"),
        ("rule_deal", lambda r: t("rule_deal_v", lang)),
        ("rule_gou", lambda r: t("rule_gou_v", lang, n=r.gou_min)),
        ("rule_ci", lambda r: t("rule_ci_v", lang, n=r.ci_min, off=r.ci_offset)),
        ("rule_xian_points", lambda r: t("rule_xian_points_v", lang, n=r.xian_points)),
        ("rule_xian_needs_target_gou", lambda r: yn(r.xian_needs_target_gou)),
        ("rule_liang_points", lambda r: t("rule_liang_points_v", lang, n=r.liang_points)),
        ("rule_bao_ci_doubles", lambda r: t("rule_bao_ci_double" if r.bao_ci_doubles
                                            else "rule_bao_ci_cover", lang)),
        ("rule_ci_unit_drops_liang", lambda r: yn(r.ci_unit_drops_liang)),
        ("rule_set_order", lambda r: t("rule_set_order_usual" if r.set_strength[1] ==
                                       r.set_strength[0] else "rule_set_order_kan", lang)),
        ("rule_no_beat_36", lambda r: yn(bool(r.set_no_beat_pairs))),
        ("rule_fish_bai", lambda r: str(max(r.fish_max_k, r.bai_max_k))),
        ("rule_k_bai", lambda r: yn(r.k_bai)),
        ("rule_xi_bao_liang", lambda r: yn(r.xi_bao_liang)),
        ("rule_qiangci", lambda r: t("rule_qiangci_must" if r.qiangci_mandatory
                                     else "rule_qiangci_may", lang)),
        ("rule_eight_pairs_colour", lambda r: yn(r.eight_pairs_by_colour)),
        ("rule_tighten", lambda r: t("rule_tighten_v", lang, n=r.tighten_min_table)),
        ("rule_tighten_holder", lambda r: yn(r.tighten_lead_holder_discards)),
        ("rule_kkk", lambda r: yn(r.kkk_k108_liang)),
    ]
    out = [{"key": key.removeprefix("rule_"), "rule": t(key, lang),
            **{p: show(get_rules(p)) for p in presets}} for key, show in rows]
    return pd.DataFrame(out)


# headline metric: (analysis it comes from, unit)
COMPARE_SOURCES = {"banker_points": ("play", "points"), "p_ci_any_seat": ("play", "probability"),
                   "p_qiangci": ("play", "probability"), "mean_xian": ("play", "count"),
                   "xian_overall": ("xian", "points"), "value_niu": ("values", "points"),
                   "value_xi": ("values", "points"), "value_K": ("values", "points"),
                   "heuristic_random": ("ladder", "points"),
                   "pimc_heuristic": ("pimc", "points")}
COMPARE_METRICS = tuple(COMPARE_SOURCES)


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
    elif metric in ("heuristic_random", "pimc_heuristic"):
        a, b = metric.split("_")
        row = pick(tables["ladder"], a=a, b=b)
        cols = ("diff", "ci_low", "ci_high", "n_deals")
    else:
        row = pick(tables["outcomes"], statistic=metric)
        cols = ("value", "ci_low", "ci_high", "n")
    return dict(zip(("value", "ci_low", "ci_high", "n"), (row[c] for c in cols)))


def compare_table(spec: ReportSpec, tables: dict[str, pd.DataFrame],
                  meta: dict) -> pd.DataFrame:
    """Headline numbers of both presets side by side and their difference (kanniutui −
    lanzhou, 95% CI from two independent estimates), each with n and seed."""
    rows = []
    for metric, (analysis, unit) in COMPARE_SOURCES.items():
        row: dict[str, Any] = {"metric": metric, "unit": unit}
        ses = []
        for p in PRESET_ORDER:
            m = _metric(tables, meta, metric, p)
            row.update({p: m["value"], f"{p}_ci_low": m["ci_low"], f"{p}_ci_high": m["ci_high"],
                        f"{p}_n": int(m["n"]), f"{p}_seed": spec.seed_for(analysis, p)})
            ses.append((m["ci_high"] - m["ci_low"]) / (2 * Z95))
        d = row["kanniutui"] - row["lanzhou"]
        half = Z95 * math.hypot(*ses)
        row.update({"diff": d, "diff_ci_low": d - half, "diff_ci_high": d + half})
        rows.append(row)
    return pd.DataFrame(rows)


def run_analyses(spec: ReportSpec,
                 step: Callable[[str], None] | None = None) -> ReportData:
    """Run every analysis of every selected preset; ``step`` hears each one as it starts."""
    t0 = time.perf_counter()
    lang = spec.lang
    parts: dict[str, list[pd.DataFrame]] = {}
    meta: dict[str, dict[str, Any]] = {}

    def add(name: str, df: pd.DataFrame) -> None:
        parts.setdefault(name, []).append(df)

    what = {"odds": "sec_odds", "play": "sec_captured", "values": "sec_values",
            "xian": "sec_xian", "ladder": "heuristic_random", "pimc": "pimc_heuristic"}
    for preset in spec.presets:
        m = meta.setdefault(preset, {})
        for a in ANALYSES:
            if step is not None:
                unit = "unit_hands" if a == "play" else "unit_deals"
                step(t("step_run", lang, preset=t(preset, lang), what=t(what[a], lang),
                       n=f"{spec.n(a):,} {t(unit, lang)}"))
            if a == "odds":
                add("odds", _odds(spec, preset))
            elif a == "play":
                outcomes, captured = _play(spec, preset, m)
                add("outcomes", outcomes)
                add("captured", captured)
            elif a == "values":
                values, k = _values(spec, preset)
                add("values", values)
                add("k_count", k)
            elif a == "xian":
                add("xian_ev", _xian(spec, preset, m))
            else:
                add("ladder", _ladder(spec, preset, a, m))
    if step is not None:
        step(t("step_dingniu", lang))
    tables = {"rules": rules_table(spec.presets, lang)}
    tables.update({k: pd.concat(v, ignore_index=True) for k, v in parts.items()})
    tables.update(dingniu.tables(spec))
    if len(spec.presets) == len(PRESET_ORDER):
        tables["compare"] = compare_table(spec, tables, meta)
    return ReportData(spec, tables, meta, time.perf_counter() - t0)
