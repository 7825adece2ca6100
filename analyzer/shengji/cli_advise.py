"""``xianniu shengji advise RECORD`` and ``xianniu shengji review RECORD`` (the advice of
:mod:`analyzer.shengji.advise`; the review of :mod:`analyzer.core.review_cli`, as in every
game), added to the ``shengji`` group by ``register``."""

from __future__ import annotations

import click

from ..core.cli_common import JSON_OPTION, emit_json, policy_option, progress_bar, seed_option
from ..core.fileio import read_json
from ..core.review_cli import review_options
from .actions import N_SEATS
from .sim import POLICIES, QUERY_POLICY

DEFAULT_POLICY = QUERY_POLICY  # advise.DEFAULT_POLICY (that module loads the kernels)


def _advice_options(f):
    f = JSON_OPTION(f)
    f = click.option("--quiet", is_flag=True, help="No progress bar.")(f)
    f = seed_option("Root seed of the sampled deals (numpy SeedSequence).")(f)
    return _advice_options_no_common(f)


def _advice_options_no_common(f):
    """The options of the advice itself (review adds its own --seed, --quiet, --json)."""
    f = policy_option(POLICIES, DEFAULT_POLICY, "--opponents", "opponents",
                      what="How the other three seats play on")(f)
    f = policy_option(POLICIES, DEFAULT_POLICY,
                      what="How the seat to act plays on in the play-outs")(f)
    f = click.option("--precision", type=click.FloatRange(min=0, min_open=True), default=0.1,
                     show_default=True, help="Stop when every action still racing is within "
                     "this of the leader (95% CI half-width of the paired gap, levels).")(f)
    f = click.option("--samples", type=click.IntRange(min=2), default=None,
                     help="Deals at most (default 20,000).")(f)
    return f


@click.command("advise")
@click.argument("record_path", metavar="RECORD|-")
@click.option("--at", "at", type=click.IntRange(min=0), default=None,
              help="Advise at action N of the record (its first N actions played) "
                   "[default: where the record stops].")
@click.option("--candidate", "candidates", multiple=True,
              help="Cards of a play or bury to value besides the listing (repeatable).")
@_advice_options
def advise(record_path: str, at: int | None, candidates: tuple[str, ...], samples: int | None,
           precision: float, policy: str, opponents: str, seed: int, quiet: bool,
           as_json: bool) -> None:
    """Every legal action where a 双升 record stops (declare or pass, the buries proposed,
    each lead and throw, each follow), ranked by the acting team's expected level change
    on paired play-outs of hidden deals that fit the public record."""
    from .advise import DEFAULT_SAMPLES, advice_lines, cut
    from .advise import advise as run

    record = read_json(record_path)
    if at is not None:
        record = cut(record, at)
    with progress_bar(samples or DEFAULT_SAMPLES, "deals (stops at the precision)",
                      hidden=quiet or "pimc" not in (policy, opponents)) as bar:
        res = run(record, samples=samples, precision=precision, policy=policy,
                  opponents=opponents, seed=seed, candidates=candidates,
                  progress=lambda done, total: bar.update(done - bar.pos))
    data = res.to_json()
    if as_json:
        emit_json(data)
        return
    click.echo("\n".join(advice_lines(data)))


@click.command("review")
@review_options(N_SEATS)
@_advice_options_no_common
def review(record_path: str, seat: str | None, seed: int, backend: str, scheduler: str | None,
           html_path: str | None, quiet: bool, as_json: bool, samples: int | None,
           precision: float, policy: str, opponents: str) -> None:
    """Every decision of a 双升 record beside the advised one: the loss (best − taken) in
    levels with its 95% CI and n, labelled by size, and a summary per seat; RECORD may be a
    folder of records or a .jsonl file (per-seat and per-kind summary)."""
    from ..core.review_cli import run
    from ..games import game_of_record
    from . import api

    run("shengji", record_path, seat, N_SEATS, seed=seed, backend=backend,
        scheduler=scheduler, quiet=quiet, as_json=as_json, html_path=html_path,
        review_one=api.review, review_many=api.review_many,
        game_of=lambda r: game_of_record(r).name, samples=samples, precision=precision,
        policy=policy, opponents=opponents)


def register(group: click.Group) -> None:
    """Add ``advise`` and ``review`` to ``group``."""
    for command in (advise, review):
        group.add_command(command)
