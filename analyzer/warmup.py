"""``xianniu warmup``: compile the kernels of one game or all, once, ahead of use."""

from __future__ import annotations

import time

import click

from .games import GAMES, get_game


@click.command()
@click.option("--game", type=click.Choice(["all", *GAMES]), default="all", show_default=True,
              help="Whose kernels to compile.")
def warmup(game: str) -> None:
    """Compile (or load from the cache) every kernel the commands use."""
    for name in GAMES if game == "all" else [game]:
        t = time.perf_counter()
        click.echo(f"{name}: compiling kernels (once; later runs load them from the cache) …",
                   err=True)
        get_game(name).part("warmup").warmup()
        click.echo(f"{name}: kernels ready in {time.perf_counter() - t:.1f} s", err=True)
