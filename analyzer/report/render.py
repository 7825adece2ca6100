"""The report as Markdown and as one self-contained HTML page.

Both are written from one list of blocks (headings, paragraphs, figures, tables, commands),
so they say the same thing: the Markdown links the PNG and CSV files beside it, the HTML
embeds the PNGs and the font as base64 data URIs and needs nothing else.
"""

from __future__ import annotations

import base64
import functools
import html
import math
from dataclasses import dataclass
from typing import Any

import pandas as pd

from .. import __version__
from . import dingniu, fonts
from .data import (COMPARE_METRICS, ODDS_FEATURES, PATTERN_IDS, PRESET_ORDER, ReportData,
                   ReportView)
from .labels import t
from .plots import XIAN_MIN_N, feature_label, figure_names, pattern_label


@dataclass
class Block:
    """One piece of the report: kind is h1, h2, p, ul, code, img, table or csv."""

    kind: str
    content: Any
    anchor: str = ""


def _finite(f):
    """``f``, with a dash for NaN and infinities."""
    @functools.wraps(f)
    def g(v: float) -> str:
        return "—" if not math.isfinite(v) else f(v)
    return g


@_finite
def fmt_points(v: float) -> str:
    """Points per hand, signed, with a true minus sign: ``+1.342``, ``−0.027``."""
    return f"{v:+.3f}".replace("-", "−")


@_finite
def fmt_pct(v: float) -> str:
    """A probability in percent to 3 significant digits: ``30.5%``, ``0.0436%``."""
    if v == 0:
        return "0%"
    if abs(v) >= 0.9995:
        return f"{100 * v:.1f}%"
    return f"{100 * v:#.3g}%".replace(".%", "%").replace("-", "−")


def fmt_ci(v: float, lo: float, hi: float, unit: str = "points",
           signed: bool = False) -> str:
    """``value [low, high]`` in the unit's format (points, probability or count);
    ``signed`` marks a difference."""
    if unit == "points":
        f = fmt_points
    elif unit == "probability":
        f = _finite(lambda x: ("+" if signed and x >= 0 else "") + fmt_pct(x))
    else:
        f = _finite(lambda x: (f"{x:+.3f}" if signed else f"{x:.3f}").replace("-", "−"))
    return f"{f(v)} [{f(lo)}, {f(hi)}]"


class _Writer(ReportView):
    """Builds the blocks of one report."""

    def __init__(self, data: ReportData):
        super().__init__(data)
        self.blocks: list[Block] = []
        self.sep = "，" if self.lang == "zh" else ", "

    def add(self, kind: str, content: Any, anchor: str = "") -> None:
        self.blocks.append(Block(kind, content, anchor))

    def caption(self, analyses: list[str], commands: list[str], unit: str) -> None:
        """Sample size, CI, seeds and the commands of a section."""
        parts = []
        analyses = list(dict.fromkeys(analyses))
        for a in analyses:
            n = f"{self.spec.n(a):,} {self.t(unit if a != 'pimc' else 'unit_deals')}"
            parts.append(n + (" (pimc)" if a == "pimc" else ""))
        n = " / ".join(parts)
        if len(self.presets) > 1:
            n = self.t("per_preset", n=n)
        seeds = self.sep.join(
            f"{self.t(p)} {'/'.join(str(self.spec.seed_for(a, p)) for a in analyses)}"
            for p in self.presets)
        seeds += self.t("seed_from", seed=self.spec.seed)
        self.add("p", self.t("caption", n=n, seeds=seeds))
        self.add("p", self.t("caption_cmd"))
        self.add("code", [self.spec.analysis_command(c, p) for p in self.presets for c in commands])

    def figure(self, name: str, title_key: str) -> None:
        self.add("img", (name, self.t(title_key)))

    def csv(self, *names: str) -> None:
        self.add("csv", list(names))

    def table(self, df: pd.DataFrame) -> None:
        self.add("table", df)

    # sections

    def head(self) -> None:
        s = self.spec
        self.add("h1", self.t("title"))
        self.add("p", self.t("generated", version=__version__))
        rules = self.sep.join(self.t(p) + (f" ({p})" if self.t(p) != p else "")
                              for p in self.presets)
        self.add("p", self.t("settings", rules=rules, hands=f"{s.hands:,}",
                             pimc=f"{s.pimc_deals:,}", policy=s.policy, seed=s.seed))
        self.add("p", self.t("regenerate"))
        self.add("code", [s.command()])
        self.add("p", self.t("seeds_note"))
        if len(self.presets) == 1:
            self.add("p", self.t("only_one_preset"))

    def rules(self) -> None:
        self.add("h2", self.t("sec_rules"), "rules")
        self.add("p", self.t("intro_rules"))
        df = self.d.tables["rules"]
        show = df[["rule", *self.presets]].rename(columns={"rule": self.t("col_rule"),
                                                            **{p: self.t(p) for p in
                                                               self.presets}})
        self.table(show)
        self.add("p", self.t("glossary"))
        self.add("ul", [self.t(k) for k in ("g_xian", "g_kou", "g_gou", "g_ci", "g_niu", "g_xi",
                                            "g_liang", "g_banker", "g_k")])
        self.csv("rules")

    def odds(self) -> None:
        self.add("h2", self.t("sec_odds"), "odds")
        self.add("p", self.t("intro_odds"))
        self.figure("odds", "sec_odds")
        self.caption(["odds"], ["odds"], "unit_deals")
        df = self.d.tables["odds"]
        rows = []
        for f in list(ODDS_FEATURES) + [f"k{k}" for k in range(5)]:
            row = {self.t("col_feature"): feature_label(f, self.lang)}
            for p in self.presets:
                r = df[(df["rules"] == p) & (df["feature"] == f)].iloc[0]
                prefix = f"{self.t(p)} · " if len(self.presets) > 1 else ""
                row[prefix + self.t("col_exact")] = fmt_pct(r["exact"])
                row[prefix + self.t("col_mc")] = fmt_ci(r["value"], r["ci_low"], r["ci_high"],
                                                        "probability")
            rows.append(row)
        self.table(pd.DataFrame(rows))
        self.csv("odds")

    def _by_preset(self, rows: list[tuple[str, dict[str, str]]], first: str) -> pd.DataFrame:
        return pd.DataFrame([{first: label, **{self.t(p): v[p] for p in self.presets}}
                             for label, v in rows])

    def captured(self) -> None:
        self.add("h2", self.t("sec_captured"), "captured")
        self.add("p", self.t("intro_captured"))
        self.figure("captured", "sec_captured")
        self.caption(["play"], ["play"], "unit_hands")
        df = self.d.tables["outcomes"]
        rows = []
        stats = [("p_ci_any_seat", None, "probability"), ("p_qiangci", None, "probability"),
                 ("mean_xian", None, "count")]
        stats += [(s, seat, "probability") for s in ("p_ci", "p_gou") for seat in range(3)]
        for stat, seat, unit in stats:
            label = self.t(stat) + ("" if seat is None else f" · {self.t(f'seat{seat}')}")
            vals = {}
            for p in self.presets:
                m = (df["rules"] == p) & (df["statistic"] == stat)
                m &= df["seat"].isna() if seat is None else df["seat"] == seat
                r = df[m].iloc[0]
                vals[p] = fmt_ci(r["value"], r["ci_low"], r["ci_high"], unit)
            rows.append((label, vals))
        self.table(self._by_preset(rows, self.t("col_statistic")))
        self.csv("outcomes", "captured")

    def values(self) -> None:
        self.add("h2", self.t("sec_values"), "values")
        self.add("p", self.t("intro_values"))
        self.figure("values", "sec_values")
        self.caption(["values"], ["values"], "unit_deals")
        df = self.d.tables["values"]
        rows = []
        for pid in PATTERN_IDS:
            row = {self.t("col_feature"): pattern_label(pid, self.lang)}
            for p in self.presets:
                r = df[(df["rules"] == p) & (df["pattern"] == pid)].iloc[0]
                prefix = f"{self.t(p)} · " if len(self.presets) > 1 else ""
                row[prefix + self.t("col_cf")] = (
                    fmt_ci(r["counterfactual_diff"], r["cf_ci_low"], r["cf_ci_high"])
                    + f" (n={int(r['cf_pairs']):,})")
                row[prefix + self.t("col_obs")] = fmt_ci(r["observed_diff"], r["obs_ci_low"],
                                                         r["obs_ci_high"])
            rows.append(row)
        self.table(pd.DataFrame(rows))
        self.csv("values")
        self.add("p", self.t("intro_kcount"))
        self.figure("k_count", "sec_kcount")
        self.caption(["values"], ["values"], "unit_deals")
        k = self.d.tables["k_count"]
        rows2 = []
        for kc in range(5):
            vals = {}
            for p in self.presets:
                r = k[(k["rules"] == p) & (k["k_count"] == kc)].iloc[0]
                vals[p] = fmt_ci(r["value"], r["ci_low"], r["ci_high"]) + f" (n={int(r['n']):,})"
            rows2.append((self.t("k_count", k=kc), vals))
        self.table(self._by_preset(rows2, self.t("n_k")))
        self.csv("k_count")

    def xian(self) -> None:
        self.add("h2", self.t("sec_xian"), "xian")
        self.add("p", self.t("intro_xian", min_n=XIAN_MIN_N))
        self.figure("xian_ev", "sec_xian")
        self.caption(["xian"], ["xian"], "unit_deals")
        rows = []
        vals = {}
        for p in self.presets:
            e = self.d.meta[p]["xian_overall"]
            vals[p] = (fmt_ci(e["value"], e["low"], e["high"])
                       + f" (n={e['n']:,} {self.t('unit_positions')})")
        rows.append((self.t("xian_overall"), vals))
        self.table(self._by_preset(rows, self.t("col_statistic")))
        self.csv("xian_ev")

    def banker(self) -> None:
        self.add("h2", self.t("sec_banker"), "banker")
        self.add("p", self.t("intro_banker"))
        self.figure("banker", "sec_banker")
        self.caption(["play"], ["banker"], "unit_hands")
        df = self.d.tables["outcomes"]
        rows = []
        for seat in range(3):
            vals = {}
            for p in self.presets:
                r = df[(df["rules"] == p) & (df["statistic"] == "mean_points")
                       & (df["seat"] == seat)].iloc[0]
                vals[p] = fmt_ci(r["value"], r["ci_low"], r["ci_high"])
            rows.append((self.t(f"seat{seat}"), vals))
        self.table(self._by_preset(rows, self.t("col_seat")))
        self.csv("outcomes")

    def compare(self) -> None:
        self.add("h2", self.t("sec_compare"), "compare")
        if "compare" not in self.d.tables:
            self.add("p", self.t("only_one_preset"))
            return
        self.add("p", self.t("intro_compare"))
        self.figure("compare", "sec_compare")
        self.add("p", self.t("compare_caption", seed=self.spec.seed))
        self.add("code", [self.spec.command()])
        df = self.d.tables["compare"].set_index("metric")
        rows = []
        for metric in COMPARE_METRICS:
            r = df.loc[metric]
            row = {self.t("col_metric"): self.t(metric)}
            for p in PRESET_ORDER:
                row[self.t(p)] = (fmt_ci(r[p], r[f"{p}_ci_low"], r[f"{p}_ci_high"], r["unit"])
                                  + f" (n={int(r[f'{p}_n']):,})")
            row[self.t("diff_presets")] = fmt_ci(r["diff"], r["diff_ci_low"], r["diff_ci_high"],
                                                 r["unit"], signed=True)
            rows.append(row)
        self.table(pd.DataFrame(rows))
        self.csv("compare")

    def ladder(self) -> None:
        self.add("h2", self.t("sec_ladder"), "ladder")
        samples = next((m["pimc_samples"] for m in self.d.meta.values() if "pimc_samples" in m),
                       "?")
        self.add("p", self.t("intro_ladder", samples=samples))
        self.figure("ladder", "sec_ladder")
        self.caption(["ladder", "pimc"], ["ladder", "pimc"], "unit_deals")
        df = self.d.tables["ladder"]
        rows = []
        for a, b in (("heuristic", "random"), ("pimc", "heuristic")):
            vals = {}
            for p in self.presets:
                r = df[(df["rules"] == p) & (df["a"] == a) & (df["b"] == b)].iloc[0]
                vals[p] = (fmt_ci(r["diff"], r["ci_low"], r["ci_high"])
                           + f" (n={int(r['n_deals']):,} {self.t('unit_deals')})")
            rows.append((f"{a} − {b}", vals))
        self.table(self._by_preset(rows, self.t("col_match")))
        self.csv("ladder")

    def build(self) -> list[Block]:
        self.head()
        for section in (self.rules, self.odds, self.captured, self.values, self.xian,
                        self.banker, self.compare, self.ladder):
            section()
        dingniu.section(self)
        return self.blocks


def blocks(data: ReportData) -> list[Block]:
    """The report as a list of blocks."""
    names = set(figure_names(data))
    out = _Writer(data).build()
    assert {b.content[0] for b in out if b.kind == "img"} == names
    return out


def _md_cell(v: Any) -> str:
    return str(v).replace("|", "\\|").replace("\n", " ")


def to_markdown(data: ReportData) -> str:
    """The report in Markdown; figures and tables are linked as ``NAME.png`` / ``NAME.csv``."""
    lang = data.spec.lang
    bl = blocks(data)
    out: list[str] = []
    for b in bl:
        if b.kind == "h1":
            out.append(f"# {b.content}")
            out.append("")
            out.append(f"**{t('contents', lang)}** " + " · ".join(
                f"[{x.content}](#{x.anchor})" for x in bl if x.kind == "h2"))
        elif b.kind == "h2":
            out.append(f'<a id="{b.anchor}"></a>')
            out.append("")
            out.append(f"## {b.content}")
        elif b.kind == "p":
            out.append(b.content)
        elif b.kind == "ul":
            out.append("\n".join(f"- {x}" for x in b.content))
        elif b.kind == "code":
            out.append("```sh\n" + "\n".join(b.content) + "\n```")
        elif b.kind == "img":
            name, alt = b.content
            out.append(f"![{alt}]({name}.png)")
        elif b.kind == "csv":
            out.append(f"{t('csv', lang)} " + ", ".join(f"[{n}.csv]({n}.csv)"
                                                        for n in b.content))
        elif b.kind == "table":
            df = b.content
            out.append("| " + " | ".join(_md_cell(c) for c in df.columns) + " |")
            out.append("|" + "---|" * len(df.columns))
            for row in df.itertuples(index=False):
                out.append("| " + " | ".join(_md_cell(v) for v in row) + " |")
        out.append("")
    return "\n".join(out)


CSS = """
body { font-family: "Xianniu CJK", "Noto Sans CJK SC", "Source Han Sans SC", "PingFang SC",
       "Microsoft YaHei", sans-serif; max-width: 1120px; margin: 2em auto; padding: 0 1em;
       color: #222; line-height: 1.5; }
h1 { font-size: 1.8em; margin-bottom: 0.3em; }
h2 { font-size: 1.35em; margin-top: 2em; border-bottom: 1px solid #ccc; padding-bottom: .2em; }
img { max-width: 100%; height: auto; display: block; margin: 0.8em 0; }
table { border-collapse: collapse; font-size: 0.88em; margin: 0.8em 0; }
th, td { border: 1px solid #ddd; padding: 0.25em 0.6em; text-align: left; }
th { background: #f3f3f3; }
td { font-variant-numeric: tabular-nums; }
pre, code { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; }
pre { background: #f6f6f6; padding: 0.6em 0.8em; overflow-x: auto; font-size: 0.85em; }
nav a { margin-right: 0.8em; }
.csv { color: #555; font-size: 0.9em; }
"""


def to_html(data: ReportData, pngs: dict[str, bytes]) -> str:
    """The report as one HTML page with the PNGs and the font embedded."""
    lang = data.spec.lang
    bl = blocks(data)
    font = base64.b64encode(fonts.FONT_FILE.read_bytes()).decode("ascii")
    face = (f'@font-face {{ font-family: "{fonts.FAMILY}"; '
            f'src: url(data:font/otf;base64,{font}) format("opentype"); }}')
    e = html.escape
    body: list[str] = []
    for b in bl:
        if b.kind == "h1":
            body.append(f"<h1>{e(b.content)}</h1>")
            body.append("<nav><b>" + e(t("contents", lang)) + "</b> " + " ".join(
                f'<a href="#{x.anchor}">{e(x.content)}</a>' for x in bl if x.kind == "h2")
                + "</nav>")
        elif b.kind == "h2":
            body.append(f'<h2 id="{b.anchor}">{e(b.content)}</h2>')
        elif b.kind == "p":
            body.append(f"<p>{e(b.content)}</p>")
        elif b.kind == "ul":
            body.append("<ul>" + "".join(f"<li>{e(x)}</li>" for x in b.content) + "</ul>")
        elif b.kind == "code":
            body.append("<pre><code>" + e("\n".join(b.content)) + "</code></pre>")
        elif b.kind == "img":
            name, alt = b.content
            data_uri = base64.b64encode(pngs[name]).decode("ascii")
            body.append(f'<img src="data:image/png;base64,{data_uri}" alt="{e(alt)}">')
        elif b.kind == "csv":
            body.append(f'<p class="csv">{e(t("csv", lang))} '
                        + ", ".join(f'<a href="{n}.csv">{n}.csv</a>' for n in b.content)
                        + "</p>")
        elif b.kind == "table":
            body.append(b.content.to_html(index=False, border=0, escape=True))
    html_lang = "zh-Hans" if lang == "zh" else "en"
    return (f'<!DOCTYPE html>\n<html lang="{html_lang}">\n<head>\n<meta charset="utf-8">\n'
            f"<title>{e(t('title', lang))}</title>\n<style>\n{face}\n{CSS}</style>\n</head>\n"
            "<body>\n" + "\n".join(body) + "\n</body>\n</html>\n")


__all__ = ["Block", "blocks", "fmt_ci", "to_html", "to_markdown"]
