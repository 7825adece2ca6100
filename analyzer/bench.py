"""``xianniu bench``: a game's kernels against its reference engine, in one run."""

from __future__ import annotations

import click

from .core.cli_common import JSON_OPTION, emit_json
from .games import DEFAULT_GAME, GAMES, get_game


@click.command()
@click.option("--game", type=click.Choice(sorted(GAMES)), default=DEFAULT_GAME,
              show_default=True, help="Whose kernels to measure.")
@click.option("--rules", default=None, help="Rule preset of the game (default: the game's own).")
@click.option("--hands", "n_hands", type=click.IntRange(min=1000), default=400_000,
              show_default=True, help="Kernel hands per timed repeat.")
@click.option("--deals", "n_deals", type=click.IntRange(min=1000), default=4_000_000,
              show_default=True, help="Deals per timed repeat.")
@click.option("--reference-hands", type=click.IntRange(min=10), default=300, show_default=True,
              help="Reference-engine hands per timed repeat.")
@click.option("--repeats", type=click.IntRange(min=1), default=5, show_default=True)
@click.option("--no-cold", is_flag=True, help="Skip the cold/warm first-call measurement.")
@JSON_OPTION
def bench(game: str, rules: str | None, n_hands: int, n_deals: int, reference_hands: int,
          repeats: int, no_cold: bool, as_json: bool) -> None:
    """Deals/s and hands/s on all cores and one, against the reference engine."""
    part = get_game(game).part("bench")
    b = part.run_bench(rules, n_deals, n_hands, reference_hands, repeats, cold=not no_cold)
    if as_json:
        emit_json(b)
    else:
        click.echo(part.format_bench(b))
