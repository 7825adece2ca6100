"""The report's figures, drawn from its tables with matplotlib's object API (no pyplot).

Figures are :class:`matplotlib.figure.Figure` objects that no global registry keeps, drawn
with the Agg renderer, so nothing is left open. Every figure's footer states its sample size,
that intervals are 95% CIs, the seed and the command that regenerates it.
"""

from __future__ import annotations

import io
from collections.abc import Callable

import matplotlib
import numpy as np
from matplotlib.colors import TwoSlopeNorm
from matplotlib.figure import Figure

from .. import __version__
from . import dingniu, fonts
from .data import (COMPARE_METRICS, ODDS_FEATURES, PATTERN_IDS, PRESET_ORDER, ReportData,
                   ReportView)
from .labels import t

DPI = 100
XIAN_MIN_N = 30  # heat-map cells with fewer positions stay blank
COLORS = {"lanzhou": "#2f6db3", "kanniutui": "#c8453a"}
SEAT_COLORS = ("#333333", "#4c9a2a", "#d08a1f")


def pattern_label(pid: str, lang: str) -> str:
    """The label of a pattern id of the values table (``niu``, ``xi``, ``K``, ``liang_R``)."""
    if pid.startswith("liang_"):
        return t("liang", lang, rank=pid.removeprefix("liang_"))
    return t(pid, lang)


def feature_label(feature: str, lang: str) -> str:
    """The label of a deal feature of the odds table (``niu`` ... ``bai``, ``k0``-``k4``)."""
    if feature.startswith("k") and feature[1:].isdigit():
        return t("k_count", lang, k=int(feature[1:]))
    return t("liang_any" if feature == "liang" else feature, lang)


def _n(n: int, unit: str, lang: str) -> str:
    return f"{n:,} {t(unit, lang)}"


class _Plotter(ReportView):
    """Draws the figures of one report in its language."""

    def figure(self, key: str, n: str, width: float = 10.0, height: float = 4.8,
               ncols: int | None = None, nrows: int = 1, **kw) -> tuple[Figure, np.ndarray]:
        fig = Figure(figsize=(width, height), layout="constrained")
        fig.get_layout_engine().set(rect=(0, 0.075, 1, 0.925))
        ncols = ncols or len(self.presets)
        axes = np.atleast_1d(fig.subplots(nrows, ncols, squeeze=False, **kw)).ravel()
        fig.suptitle(self.t(key), fontsize=13)
        fig.text(0.01, 0.038, self.t("footer", n=n, seed=self.spec.seed), fontsize=7.5,
                 color="0.3")
        fig.text(0.01, 0.01, self.spec.command(), fontsize=7.5, color="0.3",
                 family="DejaVu Sans Mono")
        return fig, axes

    def legend_presets(self, ax) -> None:
        if len(self.presets) > 1:
            ax.legend(frameon=False, fontsize=9)

    def odds(self) -> Figure:
        df = self.d.tables["odds"]
        fig, (a1, a2) = self.figure("sec_odds", _n(self.spec.n("odds"), "unit_deals",
                                                   self.lang), ncols=2, width=10.5,
                                    gridspec_kw={"width_ratios": [3, 2]})
        width = 0.8 / len(self.presets)
        for ax, feats, log in ((a1, ODDS_FEATURES, True),
                               (a2, [f"k{k}" for k in range(5)], False)):
            y = np.arange(len(feats))
            for i, p in enumerate(self.presets):
                sub = df[df["rules"] == p].set_index("feature").loc[list(feats)]
                pos = y + (i - (len(self.presets) - 1) / 2) * width
                ax.barh(pos, sub["exact"], height=width, color=COLORS[p], alpha=0.75,
                        label=f"{self.t(p)} · {self.t('exact_bar')}")
                err = np.vstack([sub["value"] - sub["ci_low"], sub["ci_high"] - sub["value"]])
                ax.errorbar(sub["value"], pos, xerr=err, fmt="o", ms=3, color="black",
                            elinewidth=1, label=self.t("mc_dot") if i == 0 else None)
            ax.set_yticks(y, [feature_label(f, self.lang) for f in feats])
            ax.invert_yaxis()
            if log:
                ax.set_xscale("log")
                ax.set_xlabel(self.t("odds_log"))
            else:
                ax.set_xlabel(self.t("probability"))
        a1.legend(frameon=False, fontsize=8, loc="center right")
        return fig

    def captured(self) -> Figure:
        df = self.d.tables["captured"]
        out = self.d.tables["outcomes"]
        fig, axes = self.figure("sec_captured", _n(self.spec.n("play"), "unit_hands",
                                                   self.lang), sharey=True)
        for ax, p in zip(axes, self.presets):
            floor = 0.5 / self.spec.n("play")  # below one hand in n: a share of 0
            for seat in range(3):
                s = df[(df["rules"] == p) & (df["seat"] == seat)].sort_values("cards")
                ax.plot(s["cards"], s["value"].where(s["value"] > 0), "o-", ms=3,
                        color=SEAT_COLORS[seat], label=self.t(f"seat{seat}"))
                ax.fill_between(s["cards"], s["ci_low"].clip(lower=floor), s["ci_high"],
                                color=SEAT_COLORS[seat], alpha=0.15, lw=0)
            ax.set_yscale("log")
            ax.set_ylim(bottom=floor)
            gou = out[(out["rules"] == p)]
            ci = gou[gou["statistic"] == "p_ci_any_seat"].iloc[0]
            ax.axvspan(5.5, 10.5, color="#4c9a2a", alpha=0.07)
            ax.axvspan(10.5, 16.5, color="#c8453a", alpha=0.09)
            ax.text(8, 0.97, self.t("rule_gou"), transform=ax.get_xaxis_transform(),
                    ha="center", va="top", fontsize=10)
            ax.text(13.5, 0.97, self.t("rule_ci"), transform=ax.get_xaxis_transform(),
                    ha="center", va="top", fontsize=10)
            ax.set_title(f"{self.t(p)} · {self.t('p_ci_any_seat')} = {ci['value']:.2%} "
                         f"[{ci['ci_low']:.2%}, {ci['ci_high']:.2%}]", fontsize=10)
            ax.set_xlabel(self.t("captured_cards"))
            ax.set_xticks(range(0, 17, 2))
        axes[0].set_ylabel(self.t("share_of_hands"))
        axes[0].legend(frameon=False, fontsize=8, loc="lower left")
        return fig

    def values(self) -> Figure:
        df = self.d.tables["values"]
        fig, (ax,) = self.figure("sec_values", _n(self.spec.n("values"), "unit_deals",
                                                  self.lang), ncols=1, height=6.0)
        y = np.arange(len(PATTERN_IDS))
        width = 0.8 / len(self.presets)
        for i, p in enumerate(self.presets):
            sub = df[df["rules"] == p].set_index("pattern").loc[PATTERN_IDS]
            pos = y + (i - (len(self.presets) - 1) / 2) * width
            err = np.vstack([sub["counterfactual_diff"] - sub["cf_ci_low"],
                             sub["cf_ci_high"] - sub["counterfactual_diff"]])
            ax.barh(pos, sub["counterfactual_diff"], height=width, xerr=err, color=COLORS[p],
                    alpha=0.85, error_kw={"elinewidth": 1}, label=self.t(p))
        ax.axvline(0, color="0.3", lw=0.8)
        ax.set_yticks(y, [pattern_label(pid, self.lang) for pid in PATTERN_IDS])
        ax.invert_yaxis()
        ax.set_xlabel(f"{self.t('col_cf')} · {self.t('value_pts')}")
        self.legend_presets(ax)
        return fig

    def k_count(self) -> Figure:
        df = self.d.tables["k_count"]
        fig, (ax,) = self.figure("sec_kcount", _n(self.spec.n("values"), "unit_deals",
                                                          self.lang), ncols=1, width=8,
                                 height=4.2)
        for i, p in enumerate(self.presets):
            s = df[df["rules"] == p].sort_values("k_count")
            x = s["k_count"] + (i - (len(self.presets) - 1) / 2) * 0.08
            ax.errorbar(x, s["value"], yerr=[s["value"] - s["ci_low"], s["ci_high"] - s["value"]],
                        fmt="o-", ms=4, capsize=3, color=COLORS[p], label=self.t(p))
        ax.axhline(0, color="0.3", lw=0.8)
        ax.set_xticks(range(5))
        ax.set_xlabel(self.t("n_k"))
        ax.set_ylabel(self.t("points"))
        self.legend_presets(ax)
        return fig

    def xian(self) -> Figure:
        df = self.d.tables["xian_ev"]
        sure = [str(i) for i in range(8)] + ["8+"]
        fig, axes = self.figure("sec_xian", _n(self.spec.n("xian"), "unit_deals", self.lang),
                                height=5.6)
        grids = {}
        for p in self.presets:
            g = np.full((len(sure), 5), np.nan)
            h = np.full((len(sure), 5), np.nan)
            for row in df[df["rules"] == p].itertuples():
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
                    text = f"{v:+.2f}\n±{h[r, c]:.2f}".replace("-", "−")
                    ax.text(c, r, text, ha="center", va="center", fontsize=7)
            ax.set_xticks(range(5))
            ax.set_yticks(range(len(sure)), sure)
            ax.set_xlabel(self.t("n_k"))
            ax.set_title(self.t(p), fontsize=11)
        axes[0].set_ylabel(self.t("sure_cards"))
        fig.colorbar(im, ax=list(axes), label=self.t("xian_minus_kou_pts"), shrink=0.9)
        return fig

    def banker(self) -> Figure:
        df = self.d.tables["outcomes"]
        fig, (ax,) = self.figure("sec_banker", _n(self.spec.n("play"), "unit_hands", self.lang),
                                 ncols=1, width=8, height=4.2)
        x = np.arange(3)
        width = 0.8 / len(self.presets)
        for i, p in enumerate(self.presets):
            s = df[(df["rules"] == p) & (df["statistic"] == "mean_points")].sort_values("seat")
            pos = x + (i - (len(self.presets) - 1) / 2) * width
            ax.bar(pos, s["value"], width=width, color=COLORS[p], alpha=0.85, label=self.t(p),
                   yerr=[s["value"] - s["ci_low"], s["ci_high"] - s["value"]], capsize=3)
            for xx, (_, r) in zip(pos, s.iterrows()):
                up = r["value"] >= 0
                ax.annotate(f"{r['value']:+.3f}".replace("-", "−"),
                            (xx, r["ci_high"] if up else r["ci_low"]), textcoords="offset points",
                            xytext=(0, 3 if up else -3), ha="center",
                            va="bottom" if up else "top", fontsize=8)
        ax.axhline(0, color="0.3", lw=0.8)
        ax.margins(y=0.12)
        ax.set_xticks(x, [self.t(f"seat{s}") for s in range(3)])
        ax.set_ylabel(self.t("points"))
        self.legend_presets(ax)
        return fig

    def compare(self) -> Figure:
        df = self.d.tables["compare"].set_index("metric")
        n = (f"{self.spec.n('play'):,} {self.t('unit_hands')} / "
             f"{self.spec.n('pimc'):,} {self.t('unit_deals')} (pimc)")
        fig, axes = self.figure("sec_compare", n, ncols=5, nrows=2, width=11, height=5.6)
        for ax, metric in zip(axes, COMPARE_METRICS):
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
        df = self.d.tables["ladder"]
        n = (f"{self.spec.n('ladder'):,} / {self.spec.n('pimc'):,} {self.t('unit_deals')}")
        fig, (ax,) = self.figure("sec_ladder", n, ncols=1, width=8, height=4.2)
        matches = [("heuristic", "random"), ("pimc", "heuristic")]
        x = np.arange(len(matches))
        width = 0.8 / len(self.presets)
        for i, p in enumerate(self.presets):
            s = df[df["rules"] == p].set_index(["a", "b"]).loc[matches]
            pos = x + (i - (len(self.presets) - 1) / 2) * width
            ax.bar(pos, s["diff"], width=width, color=COLORS[p], alpha=0.85, label=self.t(p),
                   yerr=[s["diff"] - s["ci_low"], s["ci_high"] - s["diff"]], capsize=3)
            for xx, (_, r) in zip(pos, s.iterrows()):
                ax.annotate(f"{r['diff']:+.2f}\nn={int(r['n_deals']):,}".replace("-", "−"),
                            (xx, r["ci_high"]),
                            textcoords="offset points", xytext=(0, 3), ha="center", fontsize=7)
        ax.axhline(0, color="0.3", lw=0.8)
        ax.set_xticks(x, [f"{a} − {b}" for a, b in matches])
        ax.set_ylabel(self.t("edge_pts"))
        ax.margins(y=0.2)
        self.legend_presets(ax)
        return fig


FIGURES: dict[str, Callable[[_Plotter], Figure]] = {
    "odds": _Plotter.odds, "captured": _Plotter.captured, "values": _Plotter.values,
    "k_count": _Plotter.k_count, "xian_ev": _Plotter.xian, "banker": _Plotter.banker,
    "compare": _Plotter.compare, "ladder": _Plotter.ladder, "dingniu": dingniu.figure,
}


def figure_names(data: ReportData) -> list[str]:
    """The figures this report has (``compare`` only with both presets)."""
    return [k for k in FIGURES if k != "compare" or "compare" in data.tables]


def compact_png(data: bytes, text: dict[str, str] | None = None) -> bytes:
    """The PNG with a 256-colour palette (a third of the size, no visible change) and
    ``text`` as PNG text chunks."""
    from PIL import Image, PngImagePlugin

    info = PngImagePlugin.PngInfo()
    for k, v in (text or {}).items():
        info.add_itxt(k, v)
    with Image.open(io.BytesIO(data)) as im:
        pal = im.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT)
    buf = io.BytesIO()
    pal.save(buf, format="png", optimize=True, pnginfo=info)
    return buf.getvalue()


def render_pngs(data: ReportData) -> dict[str, bytes]:
    """Every figure of the report as PNG bytes, keyed by name."""
    family = fonts.register()
    plotter = _Plotter(data)
    out = {}
    with matplotlib.rc_context({"font.family": family, "axes.unicode_minus": True,
                                "axes.spines.top": False, "axes.spines.right": False,
                                "savefig.dpi": DPI}):
        for name in figure_names(data):
            fig = FIGURES[name](plotter)
            buf = io.BytesIO()
            fig.savefig(buf, format="png", dpi=DPI)
            out[name] = compact_png(buf.getvalue(), {
                "Software": f"xianniu {__version__}", "Description": data.spec.command()})
    return out


__all__ = ["DPI", "FIGURES", "compact_png", "feature_label", "figure_names", "pattern_label",
           "render_pngs"]
