"""The ``review`` command of every game: its shared options, reading one record or many,
the progress bar, and the outputs (table, JSON, one self-contained HTML page).

Each game's command adds the options of its own advice (``--samples``, ``--precision``,
``--policy`` …) and hands :func:`run` its API functions; the reviewing is
:mod:`analyzer.core.review`.
"""

from __future__ import annotations

import base64
import html
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from ..report import fonts
from .cli_common import JSON_OPTION, LazyProgressBar, emit_json, stacked
from .fileio import check_out_folder, parse_json, read_text, write_atomic
from .limits import OutFile, backend_option
from .notation import from_text
from .records import read_many, refuse_json_list
from .review import (
    LABELS,
    Review,
    by_kind,
    by_seat,
    entry_text,
    many_json,
    many_lines,
    text_lines,
    thresholds_line,
)

Text = Callable[[dict[str, Any]], str]


def parse_seats(text: str | None, n_seats: int) -> list[int] | None:
    """``--seat``: None (every seat whose hand the record knows), ``all``, or seats ``0,2``.

    >>> parse_seats(None, 3), parse_seats("all", 3), parse_seats("2, 0", 4)
    (None, [0, 1, 2], [0, 2])
    """
    if text is None:
        return None
    if text.strip().lower() == "all":
        return list(range(n_seats))
    out = []
    for part in text.split(","):
        try:
            seat = int(part)
        except ValueError:
            raise ValueError(f"--seat takes a seat 0..{n_seats - 1}, seats such as 0,2, or "
                             f"all; got {text!r}") from None
        if seat not in range(n_seats):
            raise ValueError(f"no seat {seat} (seats 0..{n_seats - 1})")
        out.append(seat)
    return sorted(set(out))


def review_options(n_seats: int):
    """The options of every game's ``review``: RECORD, --seat, --seed, --backend,
    --scheduler, --html, --quiet, --json (the advice's own options are the game's)."""
    return stacked([
        click.argument("record_path", metavar="RECORD|FOLDER|FILE.jsonl|-"),
        click.option("--seat", "seat", default=None, metavar="S|all",
                     help=f"The seats reviewed: 0..{n_seats - 1}, several as 0,2, or all "
                          "(default: every seat whose hand the record knows)."),
        click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
                     help="Root seed: decision k of record i is advised with the seed of "
                          "SeedSequence child k of child i (one record: of the seed itself)."),
        backend_option("Many records: review them here, one after another, or as tasks "
                       "on a Dask cluster (the same numbers)."),
        click.option("--scheduler", default=None, metavar="ADDRESS",
                     help="Dask scheduler address (default: a LocalCluster on this machine)."),
        click.option("--html", "html_path", type=OutFile(), default=None,
                     help="Also write the review as one self-contained HTML page, worst "
                          "decisions first."),
        click.option("--quiet", is_flag=True, help="No progress bar."),
        JSON_OPTION,
    ])


def read_records(path: str, game: str, game_of: Callable[[Any], str]) -> tuple[list[Any], bool]:
    """The records at ``path`` and whether they are many: a folder of ``*.json`` records or
    a JSON-lines file (``.jsonl``) is many, anything else one record, JSON or in the text
    notation (``-``: standard input).
    ValueError if one is not a record of ``game``."""
    p = Path(path)
    many = path != "-" and (p.is_dir() or p.suffix == ".jsonl")
    if not many:
        text = read_text(path)
        refuse_json_list(text, path)
        if text.lstrip().startswith("{"):
            return [parse_json(text, path)], False
        from ..games import get_game  # a record in the text notation

        return [from_text(get_game(game), text)], False
    if not p.exists():
        raise ValueError(f"no such file or folder: {path}")
    records = read_many(p)
    if not records:
        raise ValueError(f"{path} holds no records")
    for i, rec in enumerate(records):
        try:
            found = game_of(rec)
        except ValueError as e:
            raise ValueError(f"{path}, record {i}: {e}") from None
        if found != game:
            raise ValueError(f"{path}, record {i} is a record of {found}, not of {game}")
    from ..games import get_game

    recs = get_game(game).part("records")
    for i, rec in enumerate(records):  # every record checked before any is reviewed
        try:
            recs.replay(recs.complete(rec, 0))
        except ValueError as e:
            raise ValueError(f"{path}, record {i}: {e}") from None
    return records, True


def _Bar(label: str, quiet: bool) -> LazyProgressBar:
    """Progress on standard error with the time left (a bar on a terminal, a line every ten
    seconds in a log), opened at the first progress (so input found bad before any work
    leaves its one line alone)."""
    return LazyProgressBar(1, label, hidden=quiet)


def run(game: str, path: str, seat: str | None, n_seats: int, *, seed: int, backend: str,
        scheduler: str | None, quiet: bool, as_json: bool, html_path: str | None,
        review_one: Callable[..., Review], review_many: Callable[..., list[Review]],
        game_of: Callable[[Any], str], text: Text = entry_text, **advice: Any) -> None:
    """The command: review the record (or every record) at ``path`` with the game's API
    (``review_one(record, seats, seed=, progress=, **advice)``, ``review_many(records,
    seats, seed=, backend=, scheduler=, progress=, **advice)``) and print the table or the
    JSON; ``html_path`` gets the page too."""
    seats = parse_seats(seat, n_seats)
    check_out_folder(html_path)
    records, many = read_records(path, game, game_of)
    if not many:
        if backend != "local" or scheduler:
            raise ValueError("--backend and --scheduler are for many records (a folder or "
                             "a .jsonl file)")
        bar = _Bar("decisions reviewed", quiet)
        try:
            rv = review_one(records[0], seats, seed=seed, progress=bar.done_of, **advice)
        finally:
            bar.close()
        if html_path:
            write_atomic(html_path, html_page([rv], text))
        if as_json:
            emit_json(rv.to_json())
        else:
            click.echo("\n".join(text_lines(rv, text)))
        return
    bar = _Bar("records reviewed", quiet)
    bar.done_of(0, len(records))
    count = [0]

    def one_more(n: int) -> None:
        count[0] += n
        bar.done_of(count[0], len(records))

    try:
        reviews = review_many(records, seats, seed=seed, backend=backend, scheduler=scheduler,
                              progress=one_more, **advice)
    finally:
        bar.close()
    if html_path:
        write_atomic(html_path, html_page(reviews, text, seed))
    if as_json:
        emit_json(many_json(reviews))
    else:
        click.echo("\n".join(many_lines(reviews, seed)))


# -- the page --------------------------------------------------------------------------------

CSS = """
body { font-family: "%s", "Noto Sans CJK SC", "Source Han Sans SC", "PingFang SC",
       "Microsoft YaHei", sans-serif; max-width: 1200px; margin: 2em auto; padding: 0 1em;
       color: #222; line-height: 1.45; }
h1 { font-size: 1.6em; } h2 { font-size: 1.25em; margin-top: 1.8em;
     border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; font-size: 0.9em; margin: 0.6em 0; }
th, td { border: 1px solid #ddd; padding: 0.2em 0.5em; text-align: left; vertical-align: top; }
th { background: #f3f3f3; }
td.num { font-variant-numeric: tabular-nums; text-align: right; white-space: nowrap; }
.cards { font-size: 1.1em; white-space: nowrap; }
.red { color: #c0392b; }
.blunder td { background: #fde2e0; } .mistake td { background: #fdf0dc; }
.inaccuracy td { background: #fbf8df; }
.note { color: #555; font-size: 0.9em; }
"""


def _cards(entry: dict[str, Any] | None, text: Text) -> str:
    if entry is None:
        return ""
    out = html.escape(text(entry))
    out = re.sub("([♥♦])", r'<span class="red">\1</span>', out)
    return f'<span class="cards">{out}</span>'


def _num(e: dict[str, float] | None, digits: int = 2) -> str:
    if e is None:
        return '<td class="num"></td>'
    return (f'<td class="num">{e["value"]:+.{digits}f} [{e["low"]:+.{digits}f}, '
            f'{e["high"]:+.{digits}f}] (n={e["n"]:,})</td>')


def _decisions_table(rows: list[tuple[str, dict[str, Any]]], text: Text) -> str:
    """Decisions worst first (by estimated loss); forced ones last. A row's first element
    names its hand (the column is left out when every one is empty)."""
    valued = sorted((x for x in rows if not x[1]["forced"]), key=lambda x: -x[1]["loss"]["value"])
    forced = [x for x in rows if x[1]["forced"]]
    hands = any(where for where, _ in rows)
    out = ["<table><tr>" + ("<th>hand</th>" if hands else "") + "<th>#</th><th>seat</th>"
           "<th>kind</th><th>taken</th><th>EV taken</th><th>best</th><th>EV best</th>"
           "<th>loss = best − taken</th><th title=\"the loss's lower bound made simultaneous "
           "over the actions compared: what the label reads\">surely ≥</th><th>label</th>"
           "</tr>"]
    for where, r in valued + forced:
        cls = f' class="{r["label"]}"' if r.get("label") else ""
        head = ((f'<td class="num">{where}</td>' if hands else "")
                + f'<td class="num">{r["index"]}</td><td class="num">{r["seat"]}</td>'
                f"<td>{html.escape(r['kind'])}</td><td>{_cards(r['taken'], text)}</td>")
        if r["forced"]:
            out.append(f"<tr>{head}<td></td><td>(forced)</td><td></td><td></td><td></td>"
                       "<td></td></tr>")
            continue
        best = "= taken" if r["rank"] == 1 else _cards(r["best"], text)
        surely = "—" if r["rank"] == 1 else f"{r.get('loss_low_all', 0.0):+.2f}"
        out.append(f"<tr{cls}>{head}{_num(r['taken_ev'])}<td>{best}</td>{_num(r['best_ev'])}"
                   f"{_num(r['loss'])}<td class=\"num\">{surely}</td>"
                   f"<td>{r['label'] or ''}</td></tr>")
    out.append("</table>")
    return "\n".join(out)


def _summary_table(rv: Review) -> str:
    out = ["<table><tr><th>seat</th><th>reviewed</th><th>forced</th><th>total loss</th>"
           "<th>mean loss per decision</th>" + "".join(f"<th>{x}</th>" for x in LABELS)
           + "<th>costliest</th></tr>"]
    for seat, s in rv.summary().items():
        out.append(f"<tr><td class=\"num\">{seat}</td><td class=\"num\">{s['reviewed']}</td>"
                   f"<td class=\"num\">{s['forced']}</td>{_num(s['total_loss'])}"
                   f"{_num(s['mean_loss'] if s['reviewed'] else None, 3)}"
                   + "".join(f"<td class=\"num\">{s['labels'][x]}</td>" for x in LABELS)
                   + f"<td>{', '.join(f'#{i}' for i in s['worst'])}</td></tr>")
    out.append("</table>")
    return "\n".join(out)


def svg_bars(items: list[tuple[str, dict[str, float]]], unit: str) -> str:
    """A horizontal bar per item: its mean, the 95% CI as a whisker, and n; inline SVG.

    >>> svg = svg_bars([("a", {"value": 1.0, "low": 0.5, "high": 1.5, "n": 9})], "points")
    >>> svg.startswith("<svg") and "n=9" in svg
    True
    """
    finite = [v for _, e in items for v in (e["low"], e["high"], e["value"], 0.0)
              if v == v and abs(v) != float("inf")]
    lo, hi = min(finite, default=0.0), max(finite, default=1.0)
    if hi - lo < 1e-9:
        hi = lo + 1.0
    left, width, row = 110, 420, 26
    height = row * len(items) + 34

    def x(v: float) -> float:
        v = min(max(v, lo), hi)  # an infinite CI end is drawn to the edge
        return left + (v - lo) / (hi - lo) * width

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 150}" '
           f'height="{height}" font-size="12" role="img">',
           f'<line x1="{x(0):.1f}" y1="4" x2="{x(0):.1f}" y2="{height - 26}" stroke="#999"/>']
    for i, (name, e) in enumerate(items):
        y = 8 + i * row
        v = e["value"] if e["value"] == e["value"] else 0.0
        a, b = sorted((x(0), x(v)))
        out.append(f'<text x="{left - 6}" y="{y + 13}" text-anchor="end">{html.escape(name)}'
                   f"</text>")
        out.append(f'<rect x="{a:.1f}" y="{y + 2}" width="{max(b - a, 0.5):.1f}" height="14" '
                   f'fill="#7fa7d6"/>')
        out.append(f'<line x1="{x(e["low"]):.1f}" y1="{y + 9}" x2="{x(e["high"]):.1f}" '
                   f'y2="{y + 9}" stroke="#222" stroke-width="1.5"/>')
        out.append(f'<text x="{left + width + 8}" y="{y + 13}">{e["value"]:+.2f} '
                   f'(n={e["n"]:,})</text>')
    out.append(f'<text x="{left}" y="{height - 8}">{lo:+.2f}</text>'
               f'<text x="{left + width}" y="{height - 8}" text-anchor="end">{hi:+.2f} '
               f"{html.escape(unit)}</text></svg>")
    return "\n".join(out)


def _many_tables(reviews: list[Review]) -> str:
    out = ["<table><tr><th>seat</th><th>records</th><th>reviewed</th><th>forced</th>"
           "<th>mean loss per decision</th><th>mean loss per record</th>"
           + "".join(f"<th>{x}</th>" for x in LABELS) + "</tr>"]
    for d in by_seat(reviews):
        out.append(f"<tr><td class=\"num\">{d['seat']}</td><td class=\"num\">{d['records']}"
                   f"</td><td class=\"num\">{d['reviewed']}</td><td class=\"num\">"
                   f"{d['forced']}</td>{_num(d['mean_per_decision'], 3)}"
                   f"{_num(d['mean_per_record'])}"
                   + "".join(f"<td class=\"num\">{d['labels'][x]}</td>" for x in LABELS)
                   + "</tr>")
    out.append("</table><h2>Which kind of decision cost the most</h2>")
    out.append("<table><tr><th>kind</th><th>decisions</th><th>mean loss per decision</th>"
               "<th>total</th></tr>")
    kinds = by_kind(reviews)
    for k in kinds:
        out.append(f"<tr><td>{html.escape(k['kind'])}</td><td class=\"num\">{k['decisions']}"
                   f"</td>{_num(k['mean'], 3)}<td class=\"num\">{k['total']:+.2f}</td></tr>")
    out.append("</table>")
    unit = reviews[0].unit
    out.append(f'<p class="note">Mean loss per decision ({unit}), bar, and its 95% CI, line: '
               "by kind of decision, then by seat.</p>")
    out.append(svg_bars([(k["kind"], k["mean"]) for k in kinds], unit))
    out.append(svg_bars([(f"seat {d['seat']}", d["mean_per_decision"])
                         for d in by_seat(reviews)], unit))
    return "\n".join(out)


def html_page(reviews: list[Review], text: Text = entry_text, seed: int | None = None) -> str:
    """One review (or many) as one HTML page with its font embedded: the summary, then
    every decision, worst first."""
    e = html.escape
    head = reviews[0]
    font = base64.b64encode(fonts.FONT_FILE.read_bytes()).decode("ascii")
    face = (f'@font-face {{ font-family: "{fonts.FAMILY}"; '
            f'src: url(data:font/otf;base64,{font}) format("opentype"); }}')
    if len(reviews) == 1:
        title = f"Review of a {head.game} hand ({head.rules})"
        intro = (f"seats {', '.join(map(str, head.seats))}; seed {head.seed}; {head.hidden}; "
                 f"advice {', '.join(f'{k} {v}' for k, v in head.advice_options.items())}")
        body = [f"<h2>Summary</h2>{_summary_table(head)}"]
        rows = [("", r) for r in head.rows]
    else:
        title = f"Review of {len(reviews)} {head.game} hands"
        intro = (f"seed {seed} (record i: SeedSequence(seed) child i); advice "
                 f"{', '.join(f'{k} {v}' for k, v in head.advice_options.items())}")
        body = [f"<h2>Summary per seat</h2>{_many_tables(reviews)}"]
        rows = [(f"record {i}", r) for i, rv in enumerate(reviews) for r in rv.rows]
    body.append(f"<h2>Decisions, worst first</h2>{_decisions_table(rows, text)}")
    notes = [f"EV: the acting seat's {head.unit} per hand with its 95% CI and n deals; loss: "
             f"best − taken on paired play-outs, 95% CI and n.",
             thresholds_line(head.thresholds, head.unit) + ".",
             "A forced decision (one legal action, or only equivalent ones) is not valued."]
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{e(title)}</title>\n<style>\n{face}\n{CSS % fonts.FAMILY}</style>\n"
            f"</head>\n<body>\n<h1>{e(title)}</h1>\n<p class=\"note\">{e(intro)}</p>\n"
            + "".join(f"<p class=\"note\">{e(n)}</p>\n" for n in notes)
            + "\n".join(body) + "\n</body>\n</html>\n")
