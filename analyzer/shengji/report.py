"""郑州双升's section of the strategy report: what it runs and its tables.

Nothing is computed here that the package's own functions do not compute: the exact deal
odds (:mod:`.odds`), the statistics of whole hands (:mod:`.analysis`) and the team duplicate
tournaments (:mod:`.tournament`) and the bury and declaring decision queries over random
hands (:mod:`.study`). Both presets run every part, side by side, from the same
part seeds, so they are compared on the same deals. Each part's seed spawns from the
section's root (:func:`analyzer.report.seed_sequence` with the key ``shengji``), and
:func:`commands` names the ``xianniu shengji`` commands that reproduce each part alone. The
figures are drawn by :mod:`.plots`; what both read is :mod:`.report_data`'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ..core.tournament import skill_columns, whole_counts
from ..report.findings import Finding
from ..report.progress import StepFn, silent
from ..report.section import ReportSpec
from .findings import findings
from .report_data import (
    BY_LEVEL,
    FIGURES,
    HAND_PARTS,
    KERNEL_POLICIES,
    KEY,
    KOU_PARTS,
    KOU_SEARCH_SHARE,
    LADDERS,
    ODDS_LEVEL,
    PART_WHAT,
    PARTS,
    QUICK,
    RULE_NAMES,
    SEARCH_SHARE,
    STUDIES,
    STUDY_SAMPLES,
    TABLES,
    TEXT,
    ShengjiData,
    T,
    command,
    commands,
    not_played,
    parts,
    policy_of,
    seeds,
    sizes,
)
from .rules import get_rules
from .sim import QUERY_POLICY, SLOW_POLICIES

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from ..report.render import Block

__all__ = ["BY_LEVEL", "FIGURES", "KEY", "KOU_SEARCH_SHARE", "LADDERS", "ODDS_LEVEL", "PARTS",
           "QUICK", "RULE_NAMES", "SEARCH_SHARE", "SECTION", "STUDIES", "STUDY_SAMPLES", "TABLES",
           "TEXT", "ShengjiData", "ShengjiSection", "T", "command", "commands", "not_played",
           "parts", "policy_of", "section_tables", "seeds", "sizes"]


def _est(e: dict, **extra) -> dict[str, Any]:
    """A flat row: ``extra``, then value, CI and n of the estimate ``e``."""
    return {**extra, "value": e["value"], "ci_low": e["low"], "ci_high": e["high"],
            "n": e["n"]}


def _odds_rows(r, n: int, seed: int) -> list[dict[str, Any]]:
    from .odds import odds_table

    d = odds_table(r, ODDS_LEVEL, None, n, seed)
    rows = [{"feature": f["feature"], "exact": f["exact"],
             **_est(f["monte_carlo"])} for f in d["features"]]
    pts = d["points"]["mean"]
    rows.append({"feature": "mean_points", "exact": pts["exact"], **_est(pts["monte_carlo"])})
    for b in d["trump_length"]:
        m = b["mean"]
        rows.append({"feature": f"mean_trump_{b['trump']}", "exact": m["exact"],
                     **_est(m["monte_carlo"])})
    return rows


def _outcome_rows(d: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """The 抠底, points and level-change rows of one preset's :func:`analysis.outcomes`."""
    kou = [_est(d[k], statistic=k, multiplier=0) for k in
           ("p_kou_di", "points_added_per_hand", "banker_levels_lost_per_hand",
            "p_bank_lost_to_kou_di")]
    for b in d["by_multiplier"]:
        kou += [_est(b[k], statistic=k, multiplier=b["multiplier"])
                for k in ("p", "points_added", "banker_levels_lost", "p_bank_lost")]
    pts = [_est(e, points=e["points"]) for e in d["attacker_points_distribution"]]
    lv = [_est(e, code=e["code"], label=e["label"]) for e in d["level_change"]]
    return {"shengji_kou_di": kou, "shengji_points": pts, "shengji_levels": lv}


def _side_rows(side: dict[str, Any], **extra) -> list[dict[str, Any]]:
    rows = []
    for kind in ("all", "suit", "nt"):
        for stat in ("p_banker_holds", "banker_swing", "attacker_points"):
            rows.append(_est(side[kind][stat], **extra, trump=kind, statistic=stat))
    rows.append(_est(side["p_nt"], **extra, trump="nt", statistic="p_nt"))
    return rows


def _preset_rows(name: str, spec: ReportSpec, s: dict[str, int],
                 step: StepFn = silent) -> dict[str, list[dict]]:
    """Every table's rows of one preset, each stamped with the preset and its part's seed;
    ``step`` starts each part with its size."""
    from . import analysis, study
    from .tournament import tournament, tournament_dict

    r, n, pol = get_rules(name), sizes(spec.hands), policy_of(spec)
    out: dict[str, list[dict]] = {t: [] for t in TABLES}

    def add(table: str, part: str, rows: list[dict]) -> None:
        out[table] += [{"rules": name, **row, "seed": s[part]} for row in rows]

    done: list = []

    def go(part: str) -> None:
        """Part ``part`` starts: the last one is done."""
        while done:
            done.pop()()
        unit = T("unit_hands" if part in HAND_PARTS else "unit_deals", spec.lang)
        advance = step(T("step_part", spec.lang, preset=name, what=T(PART_WHAT[part], spec.lang),
                         n=f"{n[part]:,} {unit}"), n[part])
        done.append(lambda: advance(n[part]))

    go("odds")
    add("shengji_odds", "odds", _odds_rows(r, n["odds"], s["odds"]))
    go("outcomes")
    for table, rows in _outcome_rows(analysis.outcomes(n["outcomes"], r, pol,
                                                       s["outcomes"])).items():
        add(table, "outcomes", [{"policy": pol, **row} for row in rows])
    for part, kou_pol in KOU_PARTS.items():
        # the heuristic almost never buries a point card: 抠底 under random and net seats too
        if part in parts(spec):
            go(part)
            add("shengji_kou_di", part, [{"policy": kou_pol, **row} for row in _outcome_rows(
                analysis.outcomes(n[part], r, kou_pol, s[part]))["shengji_kou_di"]])
    go("banker")
    add("shengji_banker", "banker", [row for b in analysis.banker_by_level(
        n["banker"], r, pol, s["banker"], BY_LEVEL)["by_level"]
        for row in _side_rows(b, level=b["level"])])
    go("values")
    add("shengji_values", "values", [
        {"pattern": v["pattern"], "role": v["role"], "share_made": v["share_made"],
         **{f"{k}_{c}": v[k][x] for k in ("levels", "points")
            for c, x in (("value", "value"), ("ci_low", "low"), ("ci_high", "high"))},
         "n": v["pairs"]} for v in analysis.values(n["values"], r, pol, s["values"])["rows"]])
    go("rule_effect")
    eff = analysis.rule_effect(n["rule_effect"], r, pol, s["rule_effect"])
    add("shengji_rule_effect", "rule_effect", [
        _est(e, switch=sw["switch"], preset_value=sw["preset_value"], arm=arm, statistic=stat)
        for sw in eff["switches"]
        for arm, stats in (("on", sw["on"]), ("off", sw["off"]), ("diff", sw["diff"]))
        for stat, e in stats.items()] + [
        _est(sw[k], switch=sw["switch"], preset_value=sw["preset_value"], arm="on",
             statistic=k) for sw in eff["switches"] for k in ("p_acted", "p_changed")])
    for part, pols in LADDERS.items():
        if part not in parts(spec):  # a search player's rung this size does not play
            continue
        go(part)
        d = tournament_dict(*tournament(pols, n[part], r, s[part]))
        add("shengji_ladder", part, [
            {**_est(row[k], a=row["a"], b=row["b"], statistic=k),
             **(skill_columns(row.get("skill")) if k == "levels" else {})}
            for row in d["differences"] for k in ("levels", "attacker_points")])
    go("bury")
    add("shengji_bury", "bury", _bury_rows(study.bury_study(n["bury"], r, s["bury"],
                                                              STUDY_SAMPLES)))
    go("declare")
    add("shengji_declare", "declare", [
        _est(row["diff"], seat=row["seat"], trump_min=row["trump_min"],
             trump_max=row["trump_max"])
        for row in study.declare_study(n["declare"], r, s["declare"], STUDY_SAMPLES)["rows"]])
    while done:
        done.pop()()
    return out


def _bury_rows(d: dict[str, Any]) -> list[dict[str, Any]]:
    rows = [_est(d["p_heuristic_best"], rule="", statistic="p_heuristic_best")]
    for row in d["rows"]:
        rows += [_est(row["diff"], rule=row["rule"], statistic="diff"),
                 _est(row["p_same"], rule=row["rule"], statistic="p_same")]
    return rows


def section_tables(spec: ReportSpec, s: dict[str, int],
                   step: StepFn = silent) -> dict[str, pd.DataFrame]:
    """The section's tables from the part seeds ``s``, both presets, every row with its n,
    95% CI and seed; ``step`` starts each part of each preset."""
    rows: dict[str, list[dict]] = {t: [] for t in TABLES}
    for name in RULE_NAMES:
        for table, rs in _preset_rows(name, spec, s, step).items():
            rows[table] += rs
    return {t: whole_counts(pd.DataFrame(rs)) for t, rs in rows.items()}


class ShengjiSection:
    """郑州双升 in the report, both presets side by side: exact odds, 抠底, points and level
    changes, the banker side by level and trump kind, counterfactual values, 扒鸡窝 and 造反
    on and off, the policy ladder, and the bury and declaring studies."""

    key = KEY
    labels = T
    options = {"policy": QUERY_POLICY}  # the strongest fast player (net)
    outputs = (*TABLES, *FIGURES)

    def title(self, lang: str) -> str:
        return T("sec_shengji", lang)

    def check(self, spec: ReportSpec) -> None:
        p = policy_of(spec)
        if p not in KERNEL_POLICIES:
            why = (": its play-outs are too slow for thousands of hands"
                   if p in SLOW_POLICIES else "")
            raise ValueError(f"the 双升 section plays one kernel policy at every seat "
                             f"({', '.join(KERNEL_POLICIES)}), not {p!r}{why}")

    def plays(self, hands: int) -> dict[str, int]:
        """Hands or deals of each analysis at ``--hands`` (analyzer/report/sizes.py)."""
        return dict(sizes(hands))

    def steps(self, spec: ReportSpec) -> int:
        return len(RULE_NAMES) * len(parts(spec))

    def run(self, spec: ReportSpec, root: np.random.SeedSequence,
            progress: StepFn) -> ShengjiData:
        s = seeds(spec, root)
        return ShengjiData(spec, s, section_tables(spec, s, progress))

    def tables(self, data: ShengjiData) -> dict[str, pd.DataFrame]:
        return data.tables

    def figures(self, data: ShengjiData, lang: str) -> dict[str, Figure]:
        from .plots import figures

        return figures(data, lang)

    def findings(self, data: ShengjiData, lang: str) -> list[Finding]:
        return findings(data, lang)

    def blocks(self, data: ShengjiData, lang: str) -> list[Block]:
        from .plots import blocks

        return blocks(data, lang)


SECTION = ShengjiSection()
