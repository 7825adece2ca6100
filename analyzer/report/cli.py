"""``xianniu report``: the strategy report of every game, in one folder."""

from __future__ import annotations

import sys

import click

from ..core.cli_common import seed_option
from ..core.limits import REPORT_COST, count_option


def parse_sets(values: tuple[str, ...]) -> dict[str, dict[str, str]]:
    """``--set KEY.NAME=VALUE`` options as ``{KEY: {NAME: VALUE}}``."""
    out: dict[str, dict[str, str]] = {}
    for v in values:
        head, sep, value = v.partition("=")
        key, dot, name = head.partition(".")
        if not (sep and dot and key and name and value):
            raise click.BadParameter(f"{v!r} is not SECTION.OPTION=VALUE (e.g. "
                                     f"shengji.policy=random)", param_hint="--set")
        out.setdefault(key.strip(), {})[name.strip()] = value.strip()
    return out


@click.command()
@click.option("--rules", default=None,
              help="掀牛 rule preset (lanzhou, kanniutui), or all: both side by side "
                   "[default: all].")
@count_option("--hands", "n_hands", None, 100, REPORT_COST,  # None: see --full
              help="Hands (deals) of the largest analyses; the others play a share of it "
                   "(the ladders' rungs, the search players, 双升's whole hands; the README "
                   "says how many) [default: 100000; docs/bench.md gives its time as measured "
                   "there, warm and on a fresh install, which compiles the kernels first].")
@click.option("--full", is_flag=True,
              help="The full report: 400,000 hands for the largest analyses, the others "
                   "their share (the CIs half as wide; about four times as long).")
@click.option("--policy", default=None,
              help="掀牛 policy of every seat for hands, values and 掀 EV (net, learned, "
                   "heuristic, heuristic2, tuned, tuned2, random, or A,B,C) [default: net]; "
                   "the ladder "
                   "plays its own, and the findings are measured again under a second "
                   "policy.")
@click.option("--set", "sets", multiple=True, metavar="SECTION.OPTION=VALUE",
              help="An option of another game's section, e.g. shengji.policy=random "
                   "(repeatable).")
@seed_option("Root seed; each analysis spawns its own from it.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default="xianniu-report",
              show_default=True, help="Folder for report.md, report.html, CSVs and PNGs.")
@click.option("--lang", type=click.Choice(["zh", "en"]), default="zh", show_default=True,
              help="Chinese game terms (zh) or English (en).")
@click.option("--timings/--no-timings", default=True, show_default=True,
              help="Time the players per decision (the only figures no seed fixes).")
@click.option("--quiet", is_flag=True, help="No progress on standard error.")
def report(rules: str | None, n_hands: int | None, full: bool, policy: str | None,
           sets: tuple[str, ...], seed: int, out_dir: str, lang: str, timings: bool,
           quiet: bool) -> None:
    """Run the analyses; write report.md, a self-contained report.html, CSVs and PNGs."""
    from ..games import DEFAULT_GAME
    from .build import build_report
    from .prewarm import Prewarm
    from .section import DEFAULT_HANDS, FULL_HANDS, choose

    if full and n_hands is not None:
        raise click.UsageError("give --hands or --full, not both")
    n_hands = FULL_HANDS if full else (DEFAULT_HANDS if n_hands is None else n_hands)
    options = parse_sets(sets)
    first = options.setdefault(DEFAULT_GAME, {})
    for name, value in (("rules", rules), ("policy", policy)):
        if value is not None:
            first[name] = value
    later = [s.key for s in choose()][1:]  # the first section compiles its own, at once
    with Prewarm(later):
        res = build_report(n_hands, seed, out_dir, lang,
                           progress=None if quiet else sys.stderr,
                           timings=timings, options=options)
    click.echo(str(res.html))
