"""How 兰州掀牛's report section shows its data: its figures and its part of the page.

Everything here reads the tables :func:`.report.run_analyses` made; nothing is computed but
layout. Figures come from :func:`analyzer.report.plots.new_figure`, so each states n, the
95% CI, the seed and the command that regenerates it.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from matplotlib.colors import TwoSlopeNorm
from matplotlib.figure import Figure

from ..report import plots
from ..report.formats import MIN_DEALS, enough_deals, fmt_cell, fmt_ci, fmt_n, fmt_pct, minus
from ..report.render import Block, Page
from .ladder import MATCHES, PIMC_SHARE, RUNGS
from .report_data import (
    COMPARE_METRICS,
    COMPARE_SOURCES,
    GLOSSARY,
    ODDS_FEATURES,
    PATTERN_IDS,
    PRESET_ORDER,
    T,
    XianniuData,
)
from .sensitivity import SEARCH_ALL_FROM, XIAN_MIN_N

COLORS = {"lanzhou": plots.BLUE, "kanniutui": plots.RED}
SEAT_COLORS = (plots.DARK, plots.GREEN, plots.ORANGE)
ODDS_ROWS = list(ODDS_FEATURES) + [f"k{k}" for k in range(5)]
MISS_RATE = 0.05  # a 95% CI misses its true value this often


def _us(v: float) -> str:
    """Microseconds with three significant digits, and a thousands separator above 1,000."""
    return f"{v:,.0f}" if v >= 100 else f"{v:.3g}"


def pattern_label(pid: str, lang: str) -> str:
    """The label of a pattern id of the values table (``niu``, ``xi``, ``K``, ``liang_R``)."""
    if pid.startswith("liang_"):
        return T("liang", lang, rank=pid.removeprefix("liang_"))
    return T(pid, lang)


def feature_label(feature: str, lang: str) -> str:
    """The label of a deal feature of the odds table (``niu`` ... ``bai``, ``k0``-``k4``)."""
    if feature.startswith("k") and feature[1:].isdigit():
        return T("k_count", lang, k=int(feature[1:]))
    return T("liang_any" if feature == "liang" else feature, lang)


def odds_misses(df: pd.DataFrame) -> tuple[int, int]:
    """How many exact values of the odds table lie outside their 95% CI, and of how many."""
    out = (df["exact"] < df["ci_low"]) | (df["exact"] > df["ci_high"])
    return int(out.sum()), len(df)


def misses_by_chance(rows: int, rate: float = MISS_RATE) -> tuple[float, int, int]:
    """How many of ``rows`` intervals miss by chance when each misses with probability
    ``rate`` independently: the mean and the central 95% range of Binomial(rows, rate)."""
    cdf, low, high = 0.0, None, rows
    for k in range(rows + 1):
        cdf += math.comb(rows, k) * rate ** k * (1 - rate) ** (rows - k)
        if low is None and cdf > 0.025:
            low = k
        if cdf >= 0.975:
            high = k
            break
    return rows * rate, int(low or 0), high


class _View:
    """The section's data as its figures and page see it, in one language."""

    def __init__(self, data: XianniuData, lang: str):
        self.d, self.plan, self.spec, self.lang = data, data.plan, data.spec, lang
        self.presets = list(data.plan.presets)
        self.slots, self.width = plots.offsets(len(self.presets))

    def t(self, key: str, **kw) -> str:
        return T(key, self.lang, **kw)

    def n(self, analysis: str, unit: str) -> str:
        return fmt_n(self.plan.n(analysis), self.t(unit))

    def figure(self, key: str, n: str, ncols: int | None = None, **kw):
        return plots.new_figure(self.spec, self.t(key), n, ncols=ncols or len(self.presets),
                                **kw)

    def legend_presets(self, ax) -> None:
        if len(self.presets) > 1:
            ax.legend(frameon=False, fontsize=9)

    def played_matches(self) -> list[tuple[str, str]]:
        """The ladder's matches this size played (the search rungs only on enough deals)."""
        df = self.d.tables["ladder"]
        return [m for m in MATCHES if ((df["a"] == m[0]) & (df["b"] == m[1])).any()]

    def rows(self, table: str, preset: str, **eq) -> pd.DataFrame:
        df = self.d.tables[table]
        m = df["rules"] == preset
        for k, v in eq.items():
            m &= df[k] == v
        return df[m]


class _Figures(_View):
    def odds(self) -> Figure:
        df = self.d.tables["odds"]
        fig, (a1, a2) = self.figure("sec_odds", self.n("odds", "unit_deals"), ncols=2,
                                    width=10.5, gridspec_kw={"width_ratios": [3, 2]})
        for ax, feats, log in ((a1, ODDS_FEATURES, True),
                               (a2, [f"k{k}" for k in range(5)], False)):
            y = np.arange(len(feats))
            for i, p in enumerate(self.presets):
                sub = df[df["rules"] == p].set_index("feature").loc[list(feats)]
                pos = y + self.slots[i]
                ax.barh(pos, sub["exact"], height=self.width, color=COLORS[p], alpha=0.75,
                        label=f"{self.t(p)} · {self.t('exact_bar')}")
                err = np.vstack([sub["value"] - sub["ci_low"], sub["ci_high"] - sub["value"]])
                ax.errorbar(sub["value"], pos, xerr=err, fmt="o", ms=3, color="black",
                            elinewidth=1, label=self.t("mc_dot") if i == 0 else None)
            ax.set_yticks(y, [feature_label(f, self.lang) for f in feats])
            ax.invert_yaxis()
            if log:
                ax.set_xscale("log")
            ax.set_xlabel(self.t("odds_log" if log else "probability"))
        a1.legend(frameon=False, fontsize=8, loc="center right")
        return fig

    def captured(self) -> Figure:
        fig, axes = self.figure("sec_captured", self.n("play", "unit_hands"), sharey=True)
        floor = 0.5 / self.plan.n("play")  # below one hand in n: a share of 0
        for ax, p in zip(axes, self.presets):
            for seat in range(3):
                s = self.rows("captured", p, seat=seat).sort_values("cards")
                ax.plot(s["cards"], s["value"].where(s["value"] > 0), "o-", ms=3,
                        color=SEAT_COLORS[seat], label=self.t(f"seat{seat}"))
                ax.fill_between(s["cards"], s["ci_low"].clip(lower=floor), s["ci_high"],
                                color=SEAT_COLORS[seat], alpha=0.15, lw=0)
            ax.set_yscale("log")
            ax.set_ylim(bottom=floor)
            ci = self.rows("outcomes", p, statistic="p_ci_any_seat").iloc[0]
            ax.axvspan(5.5, 10.5, color=plots.GREEN, alpha=0.07)
            ax.axvspan(10.5, 16.5, color=plots.RED, alpha=0.09)
            for x, key in ((8, "rule_gou"), (13.5, "rule_ci")):
                ax.text(x, 0.97, self.t(key), transform=ax.get_xaxis_transform(),
                        ha="center", va="top", fontsize=10)
            ax.set_title(f"{self.t(p)} · {self.t('p_ci_any_seat')} = "
                         f"{fmt_ci(ci['value'], ci['ci_low'], ci['ci_high'], 'probability')}",
                         fontsize=10)
            ax.set_xlabel(self.t("captured_cards"))
            ax.set_xticks(range(0, 17, 2))
        axes[0].set_ylabel(self.t("share_of_hands"))
        axes[0].legend(frameon=False, fontsize=8, loc="lower left")
        return fig

    def values(self) -> Figure:
        fig, (ax,) = self.figure("sec_values", self.n("values", "unit_deals"), ncols=1,
                                 height=6.0)
        y = np.arange(len(PATTERN_IDS))
        for i, p in enumerate(self.presets):
            sub = self.rows("values", p).set_index("pattern").loc[PATTERN_IDS]
            err = np.vstack([sub["counterfactual_diff"] - sub["cf_ci_low"],
                             sub["cf_ci_high"] - sub["counterfactual_diff"]])
            ax.barh(y + self.slots[i], sub["counterfactual_diff"], height=self.width, xerr=err,
                    color=COLORS[p], alpha=0.85, error_kw={"elinewidth": 1}, label=self.t(p))
        ax.axvline(0, color="0.3", lw=0.8)
        ax.set_yticks(y, [pattern_label(pid, self.lang) for pid in PATTERN_IDS])
        ax.invert_yaxis()
        ax.set_xlabel(f"{self.t('col_cf')} · {self.t('value_pts')}")
        self.legend_presets(ax)
        return fig

    def k_count(self) -> Figure:
        fig, (ax,) = self.figure("sec_kcount", self.n("values", "unit_deals"), ncols=1,
                                 width=8, height=4.2)
        for i, p in enumerate(self.presets):
            s = self.rows("k_count", p).sort_values("k_count")
            x = s["k_count"] + (i - (len(self.presets) - 1) / 2) * 0.08
            ax.errorbar(x, s["value"], yerr=[s["value"] - s["ci_low"], s["ci_high"] - s["value"]],
                        fmt="o-", ms=4, capsize=3, color=COLORS[p], label=self.t(p))
        ax.axhline(0, color="0.3", lw=0.8)
        ax.set_xticks(range(5))
        ax.set_xlabel(self.t("n_k"))
        ax.set_ylabel(self.t("points"))
        self.legend_presets(ax)
        return fig

    def xian_ev(self) -> Figure:
        return self._heat("xian_ev", "sec_xian")

    def xian_ev_other(self) -> Figure:
        return self._heat("xian_ev_other", "sec_xian_alt")

    def _heat(self, table: str, title: str) -> Figure:
        """掀 − 扣 by sure cards and K, one heat map per preset, from ``table``."""
        sure = [str(i) for i in range(8)] + ["8+"]
        policy = self.d.tables[table]["policy"].iloc[0]
        fig, axes = plots.new_figure(self.spec, self.t(title, alt=policy),
                                     self.n("xian", "unit_deals"), ncols=len(self.presets),
                                     height=5.6)
        grids = {}
        for p in self.presets:
            g = np.full((len(sure), 5), np.nan)
            h = np.full((len(sure), 5), np.nan)
            for row in self.rows(table, p).itertuples():
                if row.n >= XIAN_MIN_N:
                    g[sure.index(row.sure_cards), row.k_count] = row.diff
                    h[sure.index(row.sure_cards), row.k_count] = (row.ci_high - row.ci_low) / 2
            grids[p] = g, h
        lim = max([np.nanmax(np.abs(g)) for g, _ in grids.values() if np.isfinite(g).any()],
                  default=1.0)
        norm = TwoSlopeNorm(0.0, -lim, lim)
        im = None
        for ax, p in zip(axes, self.presets):
            g, h = grids[p]
            im = ax.imshow(g, cmap="RdYlGn", norm=norm, origin="lower", aspect="auto")
            for (r, c), v in np.ndenumerate(g):
                if np.isfinite(v):
                    ax.text(c, r, minus(f"{v:+.2f}\n±{h[r, c]:.2f}"), ha="center",
                            va="center", fontsize=7)
            ax.set_xticks(range(5))
            ax.set_yticks(range(len(sure)), sure)
            ax.set_xlabel(self.t("n_k"))
            ax.set_title(self.t(p), fontsize=11)
        axes[0].set_ylabel(self.t("sure_cards"))
        assert im is not None  # one image a preset, and there is at least one preset
        fig.colorbar(im, ax=list(axes), label=self.t("xian_minus_kou_pts"), shrink=0.9)
        return fig

    def banker(self) -> Figure:
        fig, (ax,) = self.figure("sec_banker", self.n("play", "unit_hands"), ncols=1, width=8,
                                 height=4.2)
        x = np.arange(3)
        for i, p in enumerate(self.presets):
            s = self.rows("outcomes", p, statistic="mean_points").sort_values("seat")
            pos = x + self.slots[i]
            ax.bar(pos, s["value"], width=self.width, color=COLORS[p], alpha=0.85,
                   label=self.t(p), yerr=[s["value"] - s["ci_low"], s["ci_high"] - s["value"]],
                   capsize=3)
            for xx, (_, r) in zip(pos, s.iterrows()):
                up = r["value"] >= 0
                ax.annotate(minus(f"{r['value']:+.3f}"), (xx, r["ci_high" if up else "ci_low"]),
                            textcoords="offset points", xytext=(0, 3 if up else -3),
                            ha="center", va="bottom" if up else "top", fontsize=8)
        ax.axhline(0, color="0.3", lw=0.8)
        ax.margins(y=0.12)
        ax.set_xticks(x, [self.t(f"seat{s}") for s in range(3)])
        ax.set_ylabel(self.t("points"))
        self.legend_presets(ax)
        return fig

    def compare(self) -> Figure:
        df = self.d.tables["compare"].set_index("metric")
        n = self.n('play', 'unit_hands') + (f" / {self.n('pimc', 'unit_deals')} (pimc)"
                                            if self.plan.n("pimc") else "")
        fig, axes = self.figure("sec_compare", n, ncols=5, nrows=2, width=11, height=5.6)
        for ax in axes[len(df):]:  # metrics of rungs this size does not play
            ax.axis("off")
        for ax, metric in zip(axes, [m for m in COMPARE_METRICS if m in df.index]):
            row = df.loc[metric]
            f = 100.0 if row["unit"] == "probability" else 1.0
            vals = np.array([row[p] for p in PRESET_ORDER]) * f
            lo = np.array([row[f"{p}_ci_low"] for p in PRESET_ORDER]) * f
            hi = np.array([row[f"{p}_ci_high"] for p in PRESET_ORDER]) * f
            ax.bar(range(2), vals, color=[COLORS[p] for p in PRESET_ORDER], alpha=0.85,
                   yerr=[vals - lo, hi - vals], capsize=3)
            ax.axhline(0, color="0.3", lw=0.6)
            ax.set_xticks(range(2), [self.t(p) for p in PRESET_ORDER], fontsize=8)
            unit = " (%)" if row["unit"] == "probability" else ""
            ax.set_title(self.t(metric) + unit, fontsize=9)
            ax.tick_params(axis="y", labelsize=8)
        return fig

    def ladder(self) -> Figure:
        n = f"{self.plan.n('ladder'):,}" + (f" / {self.n('pimc', 'unit_deals')}"
                                             if self.plan.n("pimc") else "")
        fig, (ax,) = self.figure("sec_ladder", n, ncols=1, width=9, height=4.4)
        matches = self.played_matches()
        x = np.arange(len(matches))
        sizes: list[set[int]] = [set() for _ in matches]  # deals per rung, over the presets
        for i, p in enumerate(self.presets):
            s = self.rows("ladder", p).set_index(["a", "b"]).loc[matches]
            pos = x + self.slots[i]
            ax.bar(pos, s["diff"], width=self.width, color=COLORS[p], alpha=0.85,
                   label=self.t(p), yerr=[s["diff"] - s["ci_low"], s["ci_high"] - s["diff"]],
                   capsize=3)
            for k, (xx, (_, r)) in enumerate(zip(pos, s.iterrows())):
                sizes[k].add(int(r["n_deals"]))
                ax.annotate(minus(f"{r['diff']:+.2f}"), (xx, r["ci_high"]),
                            textcoords="offset points", xytext=(0, 3), ha="center", fontsize=7)
        ax.axhline(0, color="0.3", lw=0.8)
        # n once per rung, under its name: beside every bar the labels would overlap
        ax.set_xticks(x, [f"{a} −\n{b}\nn={' / '.join(f'{v:,}' for v in sorted(n_))}"
                          for (a, b), n_ in zip(matches, sizes)], fontsize=8)
        ax.set_ylabel(self.t("edge_pts"))
        ax.margins(y=0.2)
        self.legend_presets(ax)
        return fig


FIGURES = ("odds", "captured", "values", "k_count", "xian_ev", "xian_ev_other", "banker",
           "compare", "ladder")


def figures(data: XianniuData, lang: str) -> dict[str, Figure]:
    """The section's figures by name (``compare`` only with both presets)."""
    f = _Figures(data, lang)
    return {name: getattr(f, name)() for name in FIGURES
            if name != "compare" or "compare" in data.tables}


class _Writer(_View):
    """Writes the section's blocks."""

    def __init__(self, data: XianniuData, lang: str):
        super().__init__(data, lang)
        self.page = Page(T, lang)
        self.add = self.page.add

    def caption(self, analyses: list[str], commands: list[str], unit: str,
                search_n: str | None = None) -> None:
        """Sample size, CI, seeds and the commands of a part (``search_n``: the sizes of the
        search player's runs, in place of ``search``'s hands)."""
        parts = []
        for a in dict.fromkeys(analyses):
            if a == "search" and search_n is not None:
                parts.append(search_n)
                continue
            deals = a in ("pimc", "values", "xian")
            parts.append(self.n(a, "unit_deals" if deals else unit)
                         + (" (pimc)" if a == "pimc" else ""))
        n = " / ".join(parts)
        if len(self.presets) > 1:
            n = self.t("per_preset", n=n)
        seeds = self.page.sep.join(
            f"{self.t(p)} {'/'.join(str(self.plan.seed_for(a, p)) for a in analyses)}"
            for p in self.presets)
        self.page.caption(n, seeds, self.spec.seed,
                          [cmd for p in self.presets for c in commands
                           for cmd in self.plan.commands(c, p)])

    def start(self, key: str, anchor: str, intro: str, figure: str | None = None) -> None:
        self.page.h2(self.t(key), anchor)
        self.page.p(intro)
        if figure is not None:
            self.page.figure(figure, self.t(key))

    def by_preset(self, rows: list[tuple[str, dict[str, str]]], first: str,
                  left_out: list[str] | tuple[str, ...] = (),
                  not_played: list[str] | tuple[str, ...] = ()) -> None:
        self.page.table(pd.DataFrame([{first: label, **{self.t(p): v[p] for p in self.presets}}
                                      for label, v in rows]), left_out, not_played)

    def prefix(self, p: str) -> str:
        return f"{self.t(p)} · " if len(self.presets) > 1 else ""

    def rules(self) -> None:
        self.start("sec_rules", "rules", self.t("intro_rules"))
        rules = self.page.sep.join(self.t(p) + (f" ({p})" if self.t(p) != p else "")
                                   for p in self.presets)
        self.page.p(self.t("settings", rules=rules, hands=f"{self.spec.hands:,}",
                           pimc=(self.t("pimc_deals", n=f"{self.plan.pimc_deals:,}")
                                 if self.plan.pimc_deals else
                                 self.t("pimc_not_played", k=MIN_DEALS, share=f"{PIMC_SHARE:,}")),
                           policy=self.spec.option("xianniu", "policy"),
                           seed=self.spec.seed))
        if len(self.presets) == 1:
            self.page.p(self.t("only_one_preset"))
        df = self.d.tables["rules"]
        self.page.table(df[["rule", *self.presets]].rename(
            columns={"rule": self.t("col_rule"), **{p: self.t(p) for p in self.presets}}))
        self.page.p(self.t("glossary"))
        self.add("ul", [self.t(k) for k in GLOSSARY])
        self.page.csv("rules")

    def odds(self) -> None:
        self.start("sec_odds", "odds", self.t("intro_odds"), "odds")
        self.caption(["odds"], ["odds"], "unit_deals")
        rows = []
        for f in ODDS_ROWS:
            row = {self.t("col_feature"): feature_label(f, self.lang)}
            for p in self.presets:
                r = self.rows("odds", p, feature=f).iloc[0]
                row[self.prefix(p) + self.t("col_exact")] = fmt_pct(r["exact"])
                row[self.prefix(p) + self.t("col_mc")] = fmt_ci(r["value"], r["ci_low"],
                                                                r["ci_high"], "probability")
            rows.append(row)
        self.page.table(pd.DataFrame(rows))
        misses, n = odds_misses(self.d.tables["odds"])
        expected, low, high = misses_by_chance(n)
        self.page.p(self.t("odds_misses", rows=n, misses=misses, expected=f"{expected:.1f}",
                           low=low, high=high))
        self.page.csv("odds")

    def captured(self) -> None:
        self.start("sec_captured", "captured", self.t("intro_captured"), "captured")
        self.caption(["play"], ["play"], "unit_hands")
        stats: list[tuple[str, int | None, str]] = [
            ("p_ci_any_seat", None, "probability"), ("p_qiangci", None, "probability"),
            ("mean_xian", None, "count")]
        stats += [(s, seat, "probability") for s in ("p_ci", "p_gou") for seat in range(3)]
        rows = []
        for stat, seat, unit in stats:
            label = self.t(stat) + ("" if seat is None else f" · {self.t(f'seat{seat}')}")
            vals = {}
            for p in self.presets:
                df = self.rows("outcomes", p, statistic=stat)
                r = df[df["seat"].isna() if seat is None else df["seat"] == seat].iloc[0]
                vals[p] = fmt_ci(r["value"], r["ci_low"], r["ci_high"], unit)
            rows.append((label, vals))
        self.by_preset(rows, self.t("col_statistic"))
        self.page.csv("outcomes", "captured")

    def values(self) -> None:
        self.start("sec_values", "values", self.t("intro_values"), "values")
        self.caption(["values"], ["values"], "unit_deals")
        rows = []
        for pid in PATTERN_IDS:
            row = {self.t("col_feature"): pattern_label(pid, self.lang)}
            for p in self.presets:
                r = self.rows("values", p, pattern=pid).iloc[0]
                row[self.prefix(p) + self.t("col_cf")] = fmt_cell(
                    r["counterfactual_diff"], r["cf_ci_low"], r["cf_ci_high"], r["cf_pairs"])
                row[self.prefix(p) + self.t("col_obs")] = fmt_ci(
                    r["observed_diff"], r["obs_ci_low"], r["obs_ci_high"])
            rows.append(row)
        self.page.table(pd.DataFrame(rows))
        self.page.csv("values")
        self.page.p(self.t("intro_kcount"))
        self.page.figure("k_count", self.t("sec_kcount"))
        self.caption(["values"], ["values"], "unit_deals")
        rows2 = []
        for kc in range(5):
            vals = {}
            for p in self.presets:
                r = self.rows("k_count", p, k_count=kc).iloc[0]
                vals[p] = fmt_cell(r["value"], r["ci_low"], r["ci_high"], r["n"])
            rows2.append((self.t("k_count", k=kc), vals))
        self.by_preset(rows2, self.t("n_k"))
        self.page.csv("k_count")

    def xian(self) -> None:
        self.start("sec_xian", "xian", self.t("intro_xian", min_n=XIAN_MIN_N), "xian_ev")
        self.caption(["xian"], ["xian"], "unit_deals")
        vals = {}
        for p in self.presets:
            e = self.d.meta[p]["xian_overall"]
            vals[p] = fmt_cell(e["value"], e["low"], e["high"], e["n"],
                               what=self.t("unit_positions"))
        self.by_preset([(self.t("xian_overall"), vals)], self.t("col_statistic"))
        self.page.csv("xian_ev")

    def banker(self) -> None:
        self.start("sec_banker", "banker", self.t("intro_banker"), "banker")
        self.caption(["play"], ["banker"], "unit_hands")
        rows = []
        for seat in range(3):
            vals = {}
            for p in self.presets:
                r = self.rows("outcomes", p, statistic="mean_points", seat=seat).iloc[0]
                vals[p] = fmt_ci(r["value"], r["ci_low"], r["ci_high"])
            rows.append((self.t(f"seat{seat}"), vals))
        self.by_preset(rows, self.t("col_seat"))
        self.page.csv("outcomes")

    def compare(self) -> None:
        if "compare" not in self.d.tables:
            self.page.h2(self.t("sec_compare"), "compare")
            self.page.p(self.t("only_one_preset"))
            return
        self.start("sec_compare", "compare", self.t("intro_compare"), "compare")
        self.page.p(self.t("compare_caption", seed=self.spec.seed))
        self.page.code([self.spec.command()])
        df = self.d.tables["compare"].set_index("metric")
        rows, left_out, not_played = [], [], []
        for metric in COMPARE_METRICS:
            if metric not in df.index:  # from rungs this size does not play
                not_played.append(self.t(metric))
                continue
            r = df.loc[metric]
            if COMPARE_SOURCES[metric][0] in RUNGS and not all(
                    enough_deals(r[f"{p}_n"]) for p in PRESET_ORDER):  # a match, too short
                left_out.append(self.t(metric))
                continue
            row = {self.t("col_metric"): self.t(metric)}
            for p in PRESET_ORDER:
                row[self.t(p)] = fmt_cell(r[p], r[f"{p}_ci_low"], r[f"{p}_ci_high"],
                                          r[f"{p}_n"], r["unit"])
            row[self.t("diff_presets")] = fmt_ci(r["diff"], r["diff_ci_low"], r["diff_ci_high"],
                                                 r["unit"], signed=True)
            rows.append(row)
        self.page.table(pd.DataFrame(rows), left_out, not_played)
        self.page.csv("compare")

    def sensitivity(self) -> None:
        df = self.d.tables["sensitivity"]
        main, other = df["main_policy"].iloc[0], df["other_policy"].iloc[0]
        self.start("sec_sensitivity", "sensitivity",
                   self.t("intro_sensitivity", main=main, alt=other))
        self.caption(["values", "play", "xian"], ["sensitivity"], "unit_deals")
        self.comparison(df, main, other)
        self.page.figure("xian_ev_other", self.t("sec_xian_alt", alt=other))
        self.page.csv("sensitivity", "sensitivity_other", "xian_ev_other")
        self.search_sensitivity()

    def search_sensitivity(self) -> None:
        """Every finding against the strongest search player."""
        df = self.d.tables["sensitivity_search"]
        main, other = df["main_policy"].iloc[0], df["other_policy"].iloc[0]
        self.start("sec_search_sensitivity", "sensitivity_search",
                   self.t("intro_search", alt=other, min_n=XIAN_MIN_N))
        self.caption(["play", "values", "xian", "search"], ["play", "values", "xian", "search"],
                     "unit_hands", search_n=self.plan.search_label(self.lang))
        if not self.plan.search_sizes["values"]:
            self.page.p(self.t("search_full_only", n=f"{SEARCH_ALL_FROM:,}"))
        self.comparison(df, main, other)
        self.page.csv("sensitivity_search", "sensitivity_search_other",
                      *(["xian_ev_search"] if "xian_ev_search" in self.d.tables else []))

    def comparison(self, df: pd.DataFrame, main: str, other: str) -> None:
        """A sensitivity table (each finding under both policies, the difference and its sign
        change), the line naming the findings that change sign and the heat map's line."""
        rows, changed = [], []
        for r in df[df["finding"] != "xian_cells"].itertuples():
            unit = "probability" if r.finding.startswith("p_") else "points"
            label = self.finding_label(r.finding)
            sign = self.t("sign_sure" if r.sign_sure else "sign_yes" if r.sign_change
                          else "sign_no")
            if r.sign_change:
                changed.append(f"{self.prefix(r.rules)}{label}"
                               + (f" ({self.t('sign_sure')})" if r.sign_sure else ""))
            rows.append({self.t("col_rule"): self.t(r.rules), self.t("col_finding"): label,
                         main: fmt_cell(r.main, r.main_ci_low, r.main_ci_high, r.main_n, unit),
                         other: fmt_cell(r.other, r.other_ci_low, r.other_ci_high, r.other_n,
                                         unit),
                         f"{main} − {other}": fmt_ci(r.diff, r.diff_ci_low, r.diff_ci_high,
                                                     unit, signed=True),
                         self.t("col_sign"): sign})
        self.page.table(pd.DataFrame(rows))
        self.page.p(self.t("sign_changes", items=self.page.sep.join(changed)) if changed
                    else self.t("no_sign_change"))
        for r in df[df["finding"] == "xian_cells"].itertuples():
            self.page.p(self.prefix(r.rules) + self.t("xian_cells", n=int(r.cells),
                                                      k=int(r.cells_changed),
                                                      sure=int(r.cells_sure)))

    def finding_label(self, finding: str) -> str:
        if finding.startswith("value_"):
            return pattern_label(finding.removeprefix("value_"), self.lang)
        if finding.startswith("p_gou_"):
            return self.t("p_gou_seat", seat=finding.removeprefix("p_gou_"))
        return self.t(finding)

    def ladder(self) -> None:
        samples = next((m["pimc_samples"] for m in self.d.meta.values() if "pimc_samples" in m),
                       "?")
        self.start("sec_ladder", "ladder", self.t("intro_ladder", samples=samples), "ladder")
        parts = ["ladder", "pimc"] if self.plan.n("pimc") else ["ladder"]
        self.caption(parts, parts, "unit_deals")
        played = self.played_matches()
        rows, left_out = [], []
        for a, b in played:
            found = [self.rows("ladder", p, a=a, b=b).iloc[0] for p in self.presets]
            if not all(enough_deals(r["n_deals"]) for r in found):
                left_out.append(f"{a} − {b}")
                continue
            rows.append((f"{a} − {b}", {p: fmt_cell(r["diff"], r["ci_low"], r["ci_high"],
                                                     r["n_deals"], what=self.t("unit_deals"))
                                        for p, r in zip(self.presets, found)}))
        self.by_preset(rows, self.t("col_match"), left_out,
                       [f"{a} − {b}" for a, b in MATCHES if (a, b) not in played])
        self.page.skill_table([
            ({self.t("col_rule"): self.t(p), self.t("col_match"): f"{a} − {b}"}, r,
             r["n_deals"])
            for p in self.presets for a, b in played
            for r in [self.rows("ladder", p, a=a, b=b).iloc[0]] if enough_deals(r["n_deals"])])
        self.page.csv("ladder")
        self.timing()

    def timing(self) -> None:
        title = self.t("sec_timing") + (": " if self.lang == "en" else "：")
        if "timing" not in self.d.tables:
            self.page.p(title + self.t("timing_off"))
            return
        df = self.d.tables["timing"]
        self.page.p(title + self.t("intro_timing", rounds=int(df["rounds"].iloc[0])))
        self.page.code([cmd for p in self.presets for cmd in self.plan.commands("timing", p)])
        rows = []
        for policy in dict.fromkeys(df["policy"]):
            row = {self.t("col_policy"): policy}
            for p in self.presets:
                r = df[(df["rules"] == p) & (df["policy"] == policy)].iloc[0]
                us = [1e3 * r[c] for c in ("ms_per_decision", "ms_low", "ms_high")]
                row[self.prefix(p) + self.t("col_us")] = (
                    f"{_us(us[0])} [{_us(us[1])}, {_us(us[2])}] "
                    f"(n={int(r['decisions']):,}, {int(r['hands']):,} "
                    f"{self.t('unit_hands')})")
            rows.append(row)
        self.page.table(pd.DataFrame(rows))
        self.page.csv("timing")


def blocks(data: XianniuData, lang: str) -> list[Block]:
    """The section's part of the page, from the rules summary to the policy ladder."""
    w = _Writer(data, lang)
    for part in (w.rules, w.odds, w.captured, w.values, w.xian, w.banker, w.compare,
                 w.sensitivity, w.ladder):
        part()
    return w.page.blocks
