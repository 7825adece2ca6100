"""How 郑州双升's report section shows its data: its figures and its part of the page.

Everything here reads the tables :func:`.report.section_tables` made; nothing is computed
but layout. Figures come from :func:`analyzer.report.plots.new_figure`, so each states n,
the 95% CI, the seed and the command that regenerates it.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from ..core.stats import proportion_ci
from ..report import plots
from ..report.formats import MIN_DEALS, enough_deals, fmt_cell, fmt_n, fmt_pct
from ..report.render import Block, Page
from .analysis import PATTERNS
from .cards import level_name
from .report_data import (
    BY_LEVEL,
    GLOSSARY,
    KOU_PARTS,
    LADDERS,
    ODDS_LEVEL,
    RULE_NAMES,
    SEARCH_SHARE,
    STUDY_SAMPLES,
    ShengjiData,
    T,
    command,
    not_played,
    parts,
    policy_of,
    sizes,
)
from .rules import get_rules

COLORS = {"zhengzhou": plots.BLUE, "classic": plots.RED}
POINT_BIN = 10  # the points histogram's bin width
POINT_TOP = 250  # its last bin holds this many points or more
ODDS_FEATURES = ("declare_any", "declare_suited", "joker_pair", "big_joker_pair",
                 "small_joker_pair", "rebel")


def _pick(df: pd.DataFrame, **eq) -> pd.DataFrame:
    sel = np.ones(len(df), dtype=bool)
    for k, v in eq.items():
        sel &= (df[k] == v).to_numpy()
    return df[sel]


def _one(df: pd.DataFrame, **eq) -> pd.Series:
    rows = _pick(df, **eq)
    assert len(rows) == 1, (eq, len(rows))
    return rows.iloc[0]


def _ci(row, unit: str = "points", signed: bool = False, pre: str = "") -> str:
    """``value [low, high] (n)`` of a table row (columns ``value``, ``ci_low``,
    ``ci_high`` after the prefix ``pre``, and ``n``)."""
    v, lo, hi = (float(row[f"{pre}{c}"]) for c in ("value", "ci_low", "ci_high"))
    return fmt_cell(v, lo, hi, int(row["n"]), unit, signed)


def change_label(code: int, lang: str) -> str:
    """The label of a level-change code (banker side +k, 0 the bank changes, −k)."""
    if code > 0:
        return T("sj_banker_plus", lang, k=code)
    return T("sj_take", lang) if code == 0 else T("sj_att_plus", lang, k=-code)


def _bars(ax, x, groups) -> None:
    """Side-by-side bars with 95% CI error bars: ``groups`` of (values, low, high, colour,
    label)."""
    offs, width = plots.offsets(len(groups))
    for off, (v, lo, hi, color, label) in zip(offs, groups):
        v, lo, hi = (np.asarray(a, dtype=float) for a in (v, lo, hi))
        ax.bar(x + off, v, width=width, color=color, label=label,
               yerr=[np.maximum(v - lo, 0), np.maximum(hi - v, 0)], capsize=2)


def outcomes_figure(data: ShengjiData, lang: str) -> Figure:
    """The attackers' points histogram and the level changes, both presets."""
    n = sizes(data.spec.hands)["outcomes"]
    fig, (a1, a2) = plots.new_figure(data.spec, T("sj_h_dist", lang),
                                     f"{fmt_n(n, T('unit_hands', lang))} × 2", ncols=2,
                                     width=11)
    pts = data.tables["shengji_points"]
    edges = np.arange(0, POINT_TOP + POINT_BIN, POINT_BIN)
    for name in RULE_NAMES:
        d = _pick(pts, rules=name)
        p = np.clip(d["points"].to_numpy(), 0, POINT_TOP)
        share = np.bincount(np.searchsorted(edges, p, side="right") - 1,
                            weights=d["value"].to_numpy(), minlength=len(edges))
        a1.step(edges, share[:len(edges)], where="post", color=COLORS[name], label=name)
    turn = get_rules().turnover_at
    a1.axvline(turn, color="0.4", lw=0.8, ls="--", label=T("sj_threshold", lang, turn=turn))
    a1.set_xlabel(f"{T('sj_points_axis', lang)} ({T('sj_bins', lang, w=POINT_BIN, top=POINT_TOP)})")
    a1.set_ylabel(T("sj_share", lang))
    a1.set_title(T("sj_dist_title", lang), fontsize=10)
    a1.legend(frameon=False, fontsize=8)
    lv = data.tables["shengji_levels"]
    codes = sorted(set(lv["code"]), reverse=True)
    x = np.arange(len(codes))
    groups = []
    for name in RULE_NAMES:
        d = _pick(lv, rules=name).set_index("code").reindex(codes)[["value", "ci_low", "ci_high"]]
        d = d.fillna(0.0)
        groups.append((d["value"], d["ci_low"], d["ci_high"], COLORS[name], name))
    _bars(a2, x, groups)
    a2.set_xticks(x, [change_label(c, lang) for c in codes], fontsize=7, rotation=45,
                  ha="right")
    a2.set_ylabel(T("sj_share", lang))
    a2.set_title(T("sj_change_title", lang), fontsize=10)
    a2.legend(frameon=False, fontsize=8)
    return fig


def banker_figure(data: ShengjiData, lang: str) -> Figure:
    """P(banker side holds) by level, all hands (solid) and NT hands (dashed), per preset."""
    n = sizes(data.spec.hands)["banker"]
    fig, (ax,) = plots.new_figure(data.spec, T("sj_by_level_title", lang),
                                  f"{fmt_n(n, T('unit_deals', lang))} × {len(BY_LEVEL)} × 2",
                                  width=8, height=4.4)
    b = data.tables["shengji_banker"]
    x = np.arange(len(BY_LEVEL))
    for name in RULE_NAMES:
        for kind, ls, dx in (("all", "-", -0.05), ("nt", "--", 0.05)):
            d = _pick(b, rules=name, trump=kind, statistic="p_banker_holds").sort_values("level")
            v = d["value"].to_numpy()
            ax.errorbar(x + dx, v, yerr=[v - d["ci_low"], d["ci_high"] - v], color=COLORS[name],
                        ls=ls, marker="o", ms=3, capsize=2,
                        label=f"{name} · {T('sj_kind_' + kind, lang)}")
    ax.set_xticks(x, [f"L = {level_name(lv)}" for lv in BY_LEVEL])
    ax.set_ylabel(T("sj_p_hold", lang))
    ax.legend(frameon=False, fontsize=8)
    return fig


def values_figure(data: ShengjiData, lang: str) -> Figure:
    """The counterfactual values in levels and in points, both presets (all seats)."""
    n = sizes(data.spec.hands)["values"]
    fig, axes = plots.new_figure(data.spec, T("sj_h_values", lang),
                                 f"{fmt_n(n, T('unit_deals', lang))} × 2", ncols=2, width=11)
    v = _pick(data.tables["shengji_values"], role="all")
    x = np.arange(len(PATTERNS))
    for ax, key, title in ((axes[0], "levels", "sj_values_title"),
                           (axes[1], "points", "sj_values_pts_title")):
        groups = []
        for name in RULE_NAMES:
            d = _pick(v, rules=name).set_index("pattern").reindex(list(PATTERNS))
            groups.append((d[f"{key}_value"].fillna(0), d[f"{key}_ci_low"].fillna(0),
                           d[f"{key}_ci_high"].fillna(0), COLORS[name], name))
        _bars(ax, x, groups)
        ax.axhline(0, color="0.3", lw=0.6)
        ax.set_xticks(x, [T(f"pat_{p}", lang) for p in PATTERNS], fontsize=8)
        ax.set_title(T(title, lang), fontsize=10)
        ax.legend(frameon=False, fontsize=8)
    return fig


def bury_label(rule: str, lang: str) -> str:
    """A bury rule's name (``study.RULES``: "no voids", "voids of ≤ k cards", ", points
    allowed", "points first") in ``lang``."""
    base, _, extra = rule.partition(", ")
    if base == "points first":
        out = T("bury_points_first", lang)
    elif base == "no voids":
        out = T("bury_no_voids", lang)
    else:
        out = T("bury_voids", lang, k=base.removeprefix("voids of ≤ ").split(" ")[0])
    return out + (T("bury_points_allowed", lang) if extra else "")


def _span(lo: int, hi: int, lang: str) -> str:
    if lo == 0 and hi == 99:
        return T("sj_trumps_all", lang)
    return f"≥ {lo}" if hi == 99 else (f"≤ {hi}" if lo == 0 else f"{lo}–{hi}")


def decisions_figure(data: ShengjiData, lang: str) -> Figure:
    """Left: the heuristic's bury less each variant's; right: declaring the longest trump
    less passing by trump length, seats 0 and 1; both presets, levels per hand."""
    n = sizes(data.spec.hands)
    fig, (a1, a2) = plots.new_figure(
        data.spec, T("sj_decisions_title", lang),
        f"{fmt_n(n['bury'], T('unit_hands', lang))} / {fmt_n(n['declare'], T('unit_hands', lang))}"
        f" × {STUDY_SAMPLES} × 2", ncols=2, width=12, height=5.2)
    b = _pick(data.tables["shengji_bury"], statistic="diff")
    rules = list(dict.fromkeys(b["rule"]))
    y = np.arange(len(rules))
    offs, h = plots.offsets(len(RULE_NAMES))
    for off, name in zip(offs, RULE_NAMES):
        d = _pick(b, rules=name).set_index("rule").reindex(rules)
        v = d["value"].to_numpy(dtype=float)
        a1.barh(y + off, v, height=h, color=COLORS[name], label=name,
                xerr=[np.maximum(v - d["ci_low"], 0), np.maximum(d["ci_high"] - v, 0)],
                capsize=2)
    a1.axvline(0, color="0.3", lw=0.6)
    a1.set_yticks(y, [bury_label(r, lang) for r in rules], fontsize=7)
    a1.invert_yaxis()
    a1.set_title(T("sj_bury_panel", lang), fontsize=10)
    a1.legend(frameon=False, fontsize=8)
    dc = data.tables["shengji_declare"]
    cells = [(seat, lo, hi) for seat, lo, hi in dict.fromkeys(
        zip(dc["seat"], dc["trump_min"], dc["trump_max"]))]
    x = np.arange(len(cells))
    groups = []
    for name in RULE_NAMES:
        d = _pick(dc, rules=name).set_index(["seat", "trump_min", "trump_max"]).reindex(cells)
        groups.append((d["value"].fillna(0), d["ci_low"].fillna(0), d["ci_high"].fillna(0),
                       COLORS[name], name))
    _bars(a2, x, groups)
    a2.axhline(0, color="0.3", lw=0.6)
    a2.set_xticks(x, [f"{T('sj_seat', lang)} {seat} · {_span(lo, hi, lang)}"
                      for seat, lo, hi in cells], fontsize=7, rotation=45, ha="right")
    a2.set_xlabel(T("sj_trumps", lang))
    a2.set_title(T("sj_declare_panel", lang), fontsize=10)
    a2.legend(frameon=False, fontsize=8)
    return fig


def figures(data: ShengjiData, lang: str) -> dict[str, Figure]:
    return {"shengji_outcomes": outcomes_figure(data, lang),
            "shengji_banker": banker_figure(data, lang),
            "shengji_values": values_figure(data, lang),
            "shengji_decisions": decisions_figure(data, lang)}


def _odds_table(page: Page, df: pd.DataFrame) -> None:
    t, rows = page.t, []
    for feature in [*ODDS_FEATURES, "mean_points", "mean_trump_s", "mean_trump_nt"]:
        row: dict[str, str] = {t("sj_feature"): _feature_label(feature, page.lang)}
        for name in RULE_NAMES:
            r = _one(df, rules=name, feature=feature)
            unit = "count" if feature.startswith("mean") else "probability"
            exact = f"{r['exact']:.3f}" if unit == "count" else fmt_pct(r["exact"])
            row[f"{name} · {t('sj_exact')}"] = exact
            row[f"{name} · {t('sj_mc')}"] = _ci(r, unit)
        rows.append(row)
    page.table(pd.DataFrame(rows))


def _feature_label(feature: str, lang: str) -> str:
    if feature == "mean_points":
        return T("sj_mean_points", lang)
    if feature.startswith("mean_trump_"):
        trump = feature.removeprefix("mean_trump_")
        return T("sj_mean_trump", lang, trump=T("sj_kind_nt", lang) if trump == "nt" else "♠")
    return T(f"feat_{feature}", lang)


KOU_STATS = (("p_kou_di", "p", "sj_p_kou", "probability"),
             ("points_added_per_hand", "points_added", "sj_kou_pts", "points"),
             ("banker_levels_lost_per_hand", "banker_levels_lost", "sj_kou_lv", "count"),
             ("p_bank_lost_to_kou_di", "p_bank_lost", "sj_kou_bank", "probability"))


def _match(policies: str) -> str:
    """A ladder part's match, ``a − b``."""
    return " − ".join(policies.split(","))


def _kou_tables(page: Page, df: pd.DataFrame, unplayed: list[str]) -> None:
    """The 抠底 tables; ``unplayed``: the policies whose 抠底 this size does not play."""
    t = page.t
    cols, left_out = [], []
    for name in RULE_NAMES:
        for pol in dict.fromkeys(_pick(df, rules=name)["policy"]):
            n = int(_one(df, rules=name, policy=pol, statistic="p_kou_di", multiplier=0)["n"])
            if enough_deals(n):
                cols.append((name, pol))
            else:  # a slow player's few hands
                left_out.append(f"{name} · {pol} (n={n:,})")
    page.table(pd.DataFrame([
        {t("sj_stat"): t(label), **{f"{name} · {pol}": _ci(_one(
            df, rules=name, policy=pol, statistic=key, multiplier=0), unit)
            for name, pol in cols}}
        for key, _, label, unit in KOU_STATS]), left_out,
        [f"{name} · {pol}" for name in RULE_NAMES for pol in unplayed])
    rows = []
    for name, pol in cols:
        d = _pick(df, rules=name, policy=pol)
        for m in sorted(set(d["multiplier"]) - {0}):
            row = {t("sj_rules"): name, t("sj_policy"): pol, t("sj_mult"): f"×{m}"}
            for _, key, label, unit in KOU_STATS:
                head = t(label) if key == "p" else t(label) + t("sj_given")
                row[head] = _ci(_one(d, statistic=key, multiplier=m), unit)
            rows.append(row)
    page.table(pd.DataFrame(rows))


def _levels_table(page: Page, df: pd.DataFrame) -> None:
    codes = sorted(set(df["code"]), reverse=True)
    rows = []
    for c in codes:
        row = {page.t("sj_level_change"): change_label(c, page.lang)}
        for name in RULE_NAMES:
            d = _pick(df, rules=name, code=c)
            if len(d):
                row[name] = _ci(d.iloc[0], "probability")
            else:  # never seen: 0 of the preset's hands, with its Wilson interval
                e = proportion_ci(0, int(_pick(df, rules=name)["n"].iloc[0]))
                row[name] = _ci({"value": e.value, "ci_low": e.low, "ci_high": e.high,
                                 "n": e.n}, "probability")
        rows.append(row)
    page.table(pd.DataFrame(rows))


def _banker_table(page: Page, df: pd.DataFrame) -> None:
    t, rows = page.t, []
    for lv in sorted(set(df["level"])):
        for kind in ("all", "suit", "nt"):
            row = {t("sj_level"): level_name(lv), t("sj_kind"): t(f"sj_kind_{kind}")}
            for name in RULE_NAMES:
                d = _pick(df, rules=name, level=lv, trump=kind)
                row[f"{name} · {t('sj_p_hold')}"] = _ci(_one(d, statistic="p_banker_holds"),
                                                        "probability")
                row[f"{name} · {t('sj_swing')}"] = _ci(_one(d, statistic="banker_swing"),
                                                       "count", True)
                if kind == "nt":
                    row[f"{name} · {t('sj_kind')}"] = t("sj_kind_nt") + " " + _ci(
                        _one(d, statistic="p_nt"), "probability")
                else:
                    row[f"{name} · {t('sj_kind')}"] = ""
            rows.append(row)
    page.table(pd.DataFrame(rows))


def _values_table(page: Page, df: pd.DataFrame) -> None:
    t, rows = page.t, []
    for p in PATTERNS:
        for role in ("all", "banker_team", "defenders"):
            row = {t("sj_pattern"): t(f"pat_{p}"), t("sj_role"): t(f"sj_role_{role}")}
            for name in RULE_NAMES:
                r = _one(df, rules=name, pattern=p, role=role)
                row[f"{name} · {t('sj_val_lv')}"] = _ci(r, "count", True, "levels_")
                row[f"{name} · {t('sj_val_pts')}"] = _ci(r, "points", True, "points_")
            rows.append(row)
    page.table(pd.DataFrame(rows))


def _rules_table(page: Page, df: pd.DataFrame) -> None:
    t, rows = page.t, []
    stats = (("p_banker_holds", "sj_p_hold", "probability"), ("banker_swing", "sj_swing", "count"),
             ("attacker_points", "sj_att_pts", "points"))
    for sw in ("bajiwo", "rebel"):
        for name in RULE_NAMES:
            d = _pick(df, rules=name, switch=sw)
            row = {t("sj_switch"): t(f"sw_{sw}"), t("sj_rules"): name,
                   t("sj_acted"): _ci(_one(d, arm="on", statistic="p_acted"), "probability"),
                   t("sj_changed"): _ci(_one(d, arm="on", statistic="p_changed"),
                                        "probability")}
            for key, label, unit in stats:
                for arm in ("on", "off", "diff"):  # a difference of P shows as signed %
                    row[f"{t(label)} · {t('sj_' + arm)}"] = _ci(
                        _one(d, arm=arm, statistic=key), unit, arm == "diff")
            rows.append(row)
    page.table(pd.DataFrame(rows))


def _ladder_table(page: Page, df: pd.DataFrame, unplayed: list[str]) -> None:
    """The ladder and its skill table; ``unplayed``: the matches this size does not play."""
    t, rows, left_out = page.t, [], []
    for name in RULE_NAMES:
        for pols in LADDERS.values():
            a, b = pols.split(",")
            if _match(pols) in unplayed:
                continue
            d = _pick(df, rules=name, a=a, b=b)
            if not enough_deals(_one(d, statistic="levels")["n"]):
                left_out.append(f"{name} · {a} − {b}")
                continue
            rows.append({t("sj_rules"): name, t("col_match"): f"{a} − {b}",
                         t("sj_lv_diff"): _ci(_one(d, statistic="levels"), "count", True),
                         t("sj_pt_diff"): _ci(_one(d, statistic="attacker_points"), "points",
                                              True)})
    page.table(pd.DataFrame(rows), left_out,
               [f"{name} · {m}" for name in RULE_NAMES for m in unplayed])
    page.skill_table([({t("sj_rules"): name, t("col_match"): f"{a} − {b}"}, r, r["n"])
                      for name in RULE_NAMES for a, b in (p.split(",") for p in LADDERS.values())
                      if _match(f"{a},{b}") not in unplayed
                      for r in [_one(df, rules=name, a=a, b=b, statistic="levels")]
                      if enough_deals(r["n"])])


def _bury_table(page: Page, df: pd.DataFrame) -> None:
    t, rows = page.t, []
    row = {t("sj_bury_rule"): t("sj_bury_best")}
    for name in RULE_NAMES:
        row[f"{name} · {t('sj_bury_diff')}"] = _ci(
            _one(df, rules=name, statistic="p_heuristic_best"), "probability")
        row[f"{name} · {t('sj_bury_same')}"] = ""
    rows.append(row)
    for rule in dict.fromkeys(_pick(df, statistic="diff")["rule"]):
        row = {t("sj_bury_rule"): bury_label(rule, page.lang)}
        for name in RULE_NAMES:
            d = _pick(df, rules=name, rule=rule)
            row[f"{name} · {t('sj_bury_diff')}"] = _ci(_one(d, statistic="diff"), "count",
                                                       True)
            row[f"{name} · {t('sj_bury_same')}"] = _ci(_one(d, statistic="p_same"),
                                                       "probability")
        rows.append(row)
    page.table(pd.DataFrame(rows))


def _declare_table(page: Page, df: pd.DataFrame) -> None:
    t, rows = page.t, []
    for seat, lo, hi in dict.fromkeys(zip(df["seat"], df["trump_min"], df["trump_max"])):
        row = {t("sj_seat"): t(f"sj_seat{seat}"), t("sj_trumps"): _span(lo, hi, page.lang)}
        for name in RULE_NAMES:
            d = _pick(df, rules=name, seat=seat, trump_min=lo, trump_max=hi)
            row[f"{name} · {t('sj_declare_diff')}"] = (_ci(d.iloc[0], "count", True)
                                                        if len(d) else "—")
        rows.append(row)
    page.table(pd.DataFrame(rows))


def _caption(page: Page, data: ShengjiData, part_list: tuple[str, ...], n: str) -> None:
    """Sample, 95% CI, the parts' seeds and their commands (both presets)."""
    s = data.seeds
    page.caption(page.t("sj_per_preset", n=n), " / ".join(str(s[p]) for p in part_list),
                 data.spec.seed, [command(p, r, data.spec, s) for r in RULE_NAMES
                                  for p in part_list])


def blocks(data: ShengjiData, lang: str) -> list[Block]:
    """The section's part of the page: every table of both presets, each part with its n,
    95% CI, seed and the commands that reproduce it."""
    page = Page(T, lang)
    t, n, tb, spec = page.t, sizes(data.spec.hands), data.tables, data.spec
    hands, deals = t("unit_hands"), t("unit_deals")
    page.h2(t("sec_shengji"), "shengji")
    page.p(t("intro_shengji", policy=policy_of(spec)))
    page.p(t("glossary"))
    page.add("ul", [t(k) for k in GLOSSARY])
    page.p(t("sj_h_odds", level=ODDS_LEVEL) + t("sj_colon") + t("sj_odds_text"))
    _odds_table(page, tb["shengji_odds"])
    _caption(page, data, ("odds",), fmt_n(n["odds"], deals))
    kou = tuple(p for p in ("outcomes", *KOU_PARTS) if p in parts(spec))
    page.h2(t("sj_h_kou"), "shengji-kou-di")
    page.p(t("sj_kou_text"))
    _kou_tables(page, tb["shengji_kou_di"], [KOU_PARTS[p] for p in not_played(spec)
                                             if p in KOU_PARTS])
    _caption(page, data, kou, " / ".join(fmt_n(n[p], hands) for p in kou))
    page.h2(t("sj_h_dist"), "shengji-points")
    page.figure("shengji_outcomes", t("sj_h_dist"))
    _levels_table(page, tb["shengji_levels"])
    _caption(page, data, ("outcomes",), fmt_n(n["outcomes"], hands))
    page.h2(t("sj_h_banker"), "shengji-banker")
    page.p(t("sj_banker_text"))
    page.figure("shengji_banker", t("sj_h_banker"))
    _banker_table(page, tb["shengji_banker"])
    _caption(page, data, ("banker",), f"{fmt_n(n['banker'], deals)} × {len(BY_LEVEL)}")
    page.h2(t("sj_h_values"), "shengji-values")
    page.p(t("sj_values_text"))
    page.figure("shengji_values", t("sj_h_values"))
    _values_table(page, tb["shengji_values"])
    _caption(page, data, ("values",), fmt_n(n["values"], deals))
    page.h2(t("sj_h_rules"), "shengji-rules")
    page.p(t("sj_rules_text"))
    _rules_table(page, tb["shengji_rule_effect"])
    _caption(page, data, ("rule_effect",), f"{fmt_n(n['rule_effect'], deals)} × 2 × 2")
    page.h2(t("sj_h_ladder"), "shengji-ladder")
    _ladder_table(page, tb["shengji_ladder"], [_match(LADDERS[p]) for p in not_played(spec)
                                               if p in LADDERS])
    page.p(t("sj_ladder_text", k=MIN_DEALS, hands=f"{MIN_DEALS * SEARCH_SHARE:,}"))
    played = tuple(p for p in LADDERS if p in parts(spec))
    _caption(page, data, played, " / ".join(fmt_n(n[p], deals) for p in played))
    page.h2(t("sj_h_bury"), "shengji-bury")
    page.p(t("sj_bury_text", k=STUDY_SAMPLES))
    page.figure("shengji_decisions", t("sj_decisions_title"))
    _bury_table(page, tb["shengji_bury"])
    _caption(page, data, ("bury",), fmt_n(n["bury"], hands))
    page.h2(t("sj_h_declare"), "shengji-declare")
    page.p(t("sj_declare_text", k=STUDY_SAMPLES))
    _declare_table(page, tb["shengji_declare"])
    _caption(page, data, ("declare",), fmt_n(n["declare"], hands))
    page.p(t("sj_decision_note"))
    page.csv(*tb)
    return page.blocks
