"""``xianniu warmup``: compile the kernels of one game or all, once, ahead of use.

With ``--game all`` the games compile side by side in worker processes, one per core, the
longest first (Numba compiles on one core, so one game at a time leaves the others idle);
each game's line is printed as it finishes. A game that fails is reported in one line and
the others go on; the command then ends with status 1.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

import click

from .games import GAMES, get_game

# Cold compile time, longest first (`xianniu warmup`, 2 cores: 双升 about 200 s, 掀牛 90-130,
# 顶牛 25-30): the order the games are handed to the workers.
LONGEST_FIRST = ("shengji", "xianniu", "dingniu")


def _order(names: list[str]) -> list[str]:
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    return sorted(names, key=lambda name: rank.get(name, len(rank)))


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


def compile_game(name: str) -> float:
    """Compile ``name``'s kernels (or load them from the cache); the seconds it took."""
    t = time.perf_counter()
    get_game(name).part("warmup").warmup()
    return time.perf_counter() - t


def _failure(name: str, err: BaseException) -> str:
    msg = " ".join(str(err).split()) or type(err).__name__
    return f"{name}: warmup failed: {type(err).__name__}: {msg}"


def _in_workers(names: list[str], workers: int) -> list[str]:
    """Compile ``names`` in ``workers`` processes; the failure lines (printed as they come)."""
    failed: list[str] = []
    ctx = multiprocessing.get_context("spawn")  # a fresh interpreter: no Numba state shared
    with ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
        pending: dict[Future, str] = {pool.submit(compile_game, n): n for n in names}
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for fut in done:
                name = pending.pop(fut)
                try:
                    took = fut.result()
                except Exception as err:  # noqa: BLE001 (one line per failed game)
                    failed.append(_failure(name, err))
                    click.echo(failed[-1], err=True)
                else:
                    click.echo(f"{name}: kernels ready in {took:.1f} s", err=True)
    return failed


def _in_process(names: list[str]) -> list[str]:
    failed: list[str] = []
    for name in names:
        try:
            took = compile_game(name)
        except Exception as err:  # noqa: BLE001 (one line per failed game)
            failed.append(_failure(name, err))
            click.echo(failed[-1], err=True)
        else:
            click.echo(f"{name}: kernels ready in {took:.1f} s", err=True)
    return failed


@click.command()
@click.option("--game", type=click.Choice(["all", *GAMES]), default="all", show_default=True,
              help="Whose kernels to compile (all: the games side by side, one per core).")
@click.pass_context
def warmup(ctx: click.Context, game: str) -> None:
    """Compile (or load from the cache) every kernel the commands use."""
    names = _order(list(GAMES) if game == "all" else [game])
    workers = min(_cores(), len(names))
    t = time.perf_counter()
    click.echo(f"compiling the kernels of {', '.join(names)} (once; later runs load them from "
               f"the cache)" + (f", {workers} at a time …" if workers > 1 else " …"), err=True)
    failed = _in_workers(names, workers) if workers > 1 else _in_process(names)
    if len(names) > 1:
        click.echo(f"all kernels ready in {time.perf_counter() - t:.1f} s"
                   if not failed else f"{len(failed)} of {len(names)} games failed", err=True)
    if failed:
        ctx.exit(1)
