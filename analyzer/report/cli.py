"""``xianniu report``: the strategy report of every game, in one folder."""

from __future__ import annotations

import click


@click.command()
@click.option("--rules", default="all", show_default=True,
              help="掀牛 rule preset (lanzhou, kanniutui), or all: both side by side.")
@click.option("--hands", "n_hands", type=click.IntRange(min=100), default=400_000,
              show_default=True, help="Hands (deals) per analysis; pimc plays one per 1,000.")
@click.option("--policy", default="learned", show_default=True,
              help="Policy of every seat for hands, values and 掀 EV (learned, heuristic, "
                   "heuristic2, random, or A,B,C); the ladder plays its own, and the findings "
                   "are measured again under heuristic (learned when this is heuristic).")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="Root seed; each analysis spawns its own from it.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default="xianniu-report",
              show_default=True, help="Folder for report.md, report.html, CSVs and PNGs.")
@click.option("--lang", type=click.Choice(["zh", "en"]), default="zh", show_default=True,
              help="Chinese game terms (zh) or English (en).")
@click.option("--timings/--no-timings", default=True, show_default=True,
              help="Time the players per decision (the only figures no seed fixes).")
@click.option("--quiet", is_flag=True, help="No progress lines.")
def report(rules: str, n_hands: int, policy: str, seed: int, out_dir: str, lang: str,
           timings: bool, quiet: bool) -> None:
    """Run the analyses; write report.md, a self-contained report.html, CSVs and PNGs."""
    from . import build_report

    res = build_report(rules, n_hands, policy, seed, out_dir, lang,
                       progress=None if quiet else lambda line: click.echo(line, err=True),
                       timings=timings)
    click.echo(str(res.html))
