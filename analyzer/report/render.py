"""The report as Markdown and as one self-contained HTML page.

Both are written from one list of blocks (headings, paragraphs, figures, tables, commands),
the report's head followed by each section's :meth:`~.section.Section.blocks`, so they say
the same thing: the Markdown links the PNG and CSV files beside it, the HTML embeds the
PNGs and the font as base64 data URIs and needs nothing else.
"""

from __future__ import annotations

import base64
import html
from dataclasses import dataclass
from typing import Any

import pandas as pd

from . import fonts
from .formats import MIN_CASES, MIN_DEALS, fmt_ahead, fmt_cell, too_few
from .labels import Labels, t

KINDS = ("h1", "h2", "p", "ul", "code", "img", "table", "csv")


@dataclass
class Block:
    """One piece of the report: ``kind`` is one of :data:`KINDS`; an ``img`` holds
    ``(figure name, alt text)``, a ``csv`` the table names, a ``table`` a DataFrame."""

    kind: str
    content: Any
    anchor: str = ""


class Page:
    """The blocks of one section in one language, with its words from ``labels``."""

    def __init__(self, labels: Labels, lang: str):
        self.labels = labels
        self.lang = lang
        self.blocks: list[Block] = []
        self.sep = "，" if lang == "zh" else ", "

    def t(self, key: str, **fields) -> str:
        return self.labels(key, self.lang, **fields)

    def add(self, kind: str, content: Any, anchor: str = "") -> None:
        assert kind in KINDS, kind
        self.blocks.append(Block(kind, content, anchor))

    def h2(self, title: str, anchor: str) -> None:
        self.add("h2", title, anchor)

    def p(self, text: str) -> None:
        self.add("p", text)

    def code(self, lines: list[str]) -> None:
        self.add("code", list(lines))

    def figure(self, name: str, alt: str) -> None:
        self.add("img", (name, alt))

    def table(self, df: pd.DataFrame, left_out: list[str] | tuple[str, ...] = (),
              not_played: list[str] | tuple[str, ...] = ()) -> None:
        """``df``, then what its floors left out (:mod:`.formats`): a line when a cell
        holds too few cases, one naming ``left_out``, the matches on too few deals to get a
        row, and one naming ``not_played``, the slow matches this size does not play
        (:func:`.formats.played_deals`)."""
        if len(df):  # a table whose every row a floor took says only that
            self.add("table", df)
        if any(too_few(v) for v in df.to_numpy().ravel()):
            self.p(self.t("few_cases", k=MIN_CASES))
        if left_out:
            self.p(self.t("few_deals", k=MIN_DEALS, rows=self.sep.join(left_out)))
        if not_played:
            self.p(self.t("not_played", k=MIN_DEALS, rows=self.sep.join(not_played)))

    def skill_table(self, rows: list[tuple[dict[str, str], Any, int]]) -> None:
        """How much skill decides, one row per match ``(leading cells, r, n)``: ``r`` holds
        the skill columns of :func:`analyzer.core.tournament.skill_columns`, on ``n``
        deals; the gap in spreads with its CI, and the hands to be ahead with the hands of
        the CI's ends."""
        if not rows:  # every match under the floor: the table above names them
            return
        self.p(self.t("skill_intro", k=MIN_DEALS))
        self.table(pd.DataFrame([{
            **lead, self.t("col_skill_share"): fmt_cell(
                r["gap_in_spreads"], r["gap_in_spreads_low"], r["gap_in_spreads_high"], n,
                "count", signed=True),
            self.t("col_hands_ahead"): fmt_ahead(r["hands_ahead"], r["hands_ahead_low"],
                                                 r["hands_ahead_high"]) + f" (n={int(n):,})"}
            for lead, r, n in rows]))

    def csv(self, *names: str) -> None:
        self.add("csv", list(names))

    def caption(self, n: str, seeds: str, seed: int, commands: list[str]) -> None:
        """Sample size, 95% CI, seeds (spawned from ``seed``) and the commands that
        reproduce the numbers above."""
        self.p(self.t("caption", n=n, seeds=seeds + self.t("seed_from", seed=seed)))
        self.p(self.t("caption_cmd"))
        self.code(commands)


def _md_cell(v: Any) -> str:
    return str(v).replace("|", "\\|").replace("\n", " ")


def to_markdown(blocks: list[Block], lang: str) -> str:
    """The report in Markdown; figures and tables are linked as ``NAME.png`` / ``NAME.csv``."""
    out: list[str] = []
    for b in blocks:
        if b.kind == "h1":
            out.append(f"# {b.content}")
            out.append("")
            out.append(f"**{t('contents', lang)}** " + " · ".join(
                f"[{x.content}](#{x.anchor})" for x in blocks if x.kind == "h2"))
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


def _html_block(b: Block, blocks: list[Block], pngs: dict[str, bytes], lang: str) -> str:
    e = html.escape
    if b.kind == "h1":
        return (f"<h1>{e(b.content)}</h1>\n<nav><b>" + e(t("contents", lang)) + "</b> "
                + " ".join(f'<a href="#{x.anchor}">{e(x.content)}</a>'
                           for x in blocks if x.kind == "h2") + "</nav>")
    if b.kind == "h2":
        return f'<h2 id="{b.anchor}">{e(b.content)}</h2>'
    if b.kind == "p":
        return f"<p>{e(b.content)}</p>"
    if b.kind == "ul":
        return "<ul>" + "".join(f"<li>{e(x)}</li>" for x in b.content) + "</ul>"
    if b.kind == "code":
        return "<pre><code>" + e("\n".join(b.content)) + "</code></pre>"
    if b.kind == "img":
        name, alt = b.content
        data_uri = base64.b64encode(pngs[name]).decode("ascii")
        return f'<img src="data:image/png;base64,{data_uri}" alt="{e(alt)}">'
    if b.kind == "csv":
        return (f'<p class="csv">{e(t("csv", lang))} '
                + ", ".join(f'<a href="{n}.csv">{n}.csv</a>' for n in b.content) + "</p>")
    return b.content.to_html(index=False, border=0, escape=True)


def to_html(blocks: list[Block], pngs: dict[str, bytes], lang: str) -> str:
    """The report as one HTML page with the PNGs and the font embedded."""
    font = base64.b64encode(fonts.FONT_FILE.read_bytes()).decode("ascii")
    face = (f'@font-face {{ font-family: "{fonts.FAMILY}"; '
            f'src: url(data:font/otf;base64,{font}) format("opentype"); }}')
    body = [_html_block(b, blocks, pngs, lang) for b in blocks]
    html_lang = "zh-Hans" if lang == "zh" else "en"
    return (f'<!DOCTYPE html>\n<html lang="{html_lang}">\n<head>\n<meta charset="utf-8">\n'
            f"<title>{html.escape(t('title', lang))}</title>\n<style>\n{face}\n{CSS}</style>\n"
            "</head>\n<body>\n" + "\n".join(body) + "\n</body>\n</html>\n")


__all__ = ["Block", "Page", "to_html", "to_markdown"]
