"""``xianniu dingniu …``: the 顶牛 commands, a thin layer over :mod:`analyzer.dingniu.api`.
Bad input raises ValueError, which the main entry point turns into one line on stderr and
exit status 2."""

from __future__ import annotations

import click

from ..core.batchrun import output_format
from ..core.cli_common import (
    JSON_OPTION,
    batch_options,
    deals_option,
    emit,
    emit_json,
    interruptible,
    policy_help,
    policy_option,
    progress_bar,
    responder_options,
    seed_option,
    stacked,
)
from ..core.exploit import best_response_lines
from ..core.fileio import read_json
from ..core.library_cli import table_library_option
from ..core.review_cli import review_options
from . import api
from .batch import COSTS
from .describe import advise_lines, odds_lines, replay_lines, solve_line, tournament_lines
from .rules import ALIASES, N_SEATS, PRESETS
from .sim import POLICIES

RULES_OPTION = click.option("--rules", "rules",
                            type=click.Choice(sorted([*PRESETS, *ALIASES]), case_sensitive=False),
                            default=None, help="顶牛 preset: seed (default; former name "
                            "standard) or navpil (docs/rules/dingniu.md).")
SEED_OPTION = seed_option("Root seed (streams spawned from SeedSequence(seed)).")
# a pimc seat's budget, in every command that seats pimc
PIMC_OPTIONS = stacked([
    click.option("--pimc-samples", type=click.IntRange(min=1), default=None,
                 help="Hidden deals pimc samples per decision (default 24)."),
    click.option("--pimc-leaf", type=click.IntRange(min=0, max=16), default=None,
                 help="pimc searches exactly (max-n) with at most this many tiles left in "
                      "hand (default 10)."),
])


@click.group(name="dingniu")
def group() -> None:
    """顶牛 (Chinese dominoes, 4 players, 24 tiles): see docs/rules/dingniu.md."""


def _hidden_alias(cmd: click.Command, name: str) -> None:
    """``cmd`` also under its former ``name``, hidden from --help (scripts may use it)."""
    group.add_command(click.Command(name, params=cmd.params, callback=cmd.callback,
                                    help=f"Former name of {cmd.name}.", hidden=True))


@group.command()
@batch_options(COSTS["simulate"], 4, POLICIES)
@RULES_OPTION
def simulate(n_hands: int, rules: str | None, policy: str, policies: str | None, seed: int,
             out_path: str | None, fmt: str | None, backend: str, scheduler: str | None,
             resume: bool, records_path: str | None, quiet: bool, as_json: bool) -> None:
    """Mean points, P(win) and 扣 count per seat; P(算帐) and its success rate."""
    with interruptible(), progress_bar(n_hands, hidden=quiet or n_hands < 2_000_000) as bar:
        data = api.simulate(n_hands, rules, policies or policy, seed, out_path,
                            output_format(fmt, as_json), backend, scheduler, resume,
                            records_path, progress=bar.update)
    if not out_path:
        click.echo(data if isinstance(data, str) else data.decode(), nl=False)


@group.command()
@deals_option(200_000, minimum=1, help="Deals for the Monte Carlo estimates.",
              cost=COSTS["odds"])
@SEED_OPTION
@RULES_OPTION
@JSON_OPTION
def odds(n_deals: int, seed: int, rules: str | None, as_json: bool) -> None:
    """Odds of features of the 头牌's hand: exact by counting, and Monte Carlo with CI."""
    res = api.odds(n_deals, seed, rules)
    if as_json:
        emit_json(res)
        return
    click.echo("\n".join(odds_lines(res)))


@group.command()
@click.option("--policies", default="heuristic,random",
              help=policy_help(POLICIES, "heuristic,random", "The two policies compared, "
                               "A,B"))
@deals_option(20_000, help="Deals; each is played under the 14 seatings with both "
                          "policies.", cost=COSTS["tournament"])
@PIMC_OPTIONS
@SEED_OPTION
@RULES_OPTION
@JSON_OPTION
def tournament(policies: str, n_deals: int, pimc_samples: int | None, pimc_leaf: int | None,
               seed: int, rules: str | None, as_json: bool) -> None:
    """Duplicate tournament of two policies: mean points per hand and A − B with 95% CI."""
    res = api.tournament(policies, n_deals, seed, rules, pimc_samples, pimc_leaf)
    emit(res, as_json, tournament_lines)


@group.command()
@click.argument("file", metavar="[FILE|-]", required=False)
@click.option("--hand", default=None, help="My tiles now, e.g. '大天 红十 一三'.")
@click.option("--history", default=None,
              help="Public moves: 'lead 大五; 虎头 on 5; kou; 扣 地幺' (my 扣 name a tile).")
@click.option("--samples", type=click.IntRange(min=2, max=100_000), default=400,
              show_default=True, help="Hidden deals sampled.")
@click.option("--solve-samples", type=click.IntRange(min=0), default=None,
              help="Deals also solved with open hands (default 16; 0 at the lead).")
@SEED_OPTION
@RULES_OPTION
@JSON_OPTION
def advise(file: str | None, hand: str | None, history: str | None, samples: int,
           solve_samples: int | None, seed: int, rules: str | None, as_json: bool) -> None:
    """Rank my legal plays by mean points (heuristic play-outs on sampled deals, 95% CI);
    the first line recommends one."""
    res = api.advise(None, hand, history, samples, seed, solve_samples, rules, file=file)
    if as_json:
        emit_json(res)
        return
    click.echo("\n".join(advise_lines(res)))


_hidden_alias(advise, "best-play")


@group.command()
@review_options(N_SEATS)
@click.option("--samples", type=click.IntRange(min=2, max=100_000), default=400,
              show_default=True, help="Hidden deals sampled at each decision.")
def review(record_path: str, seat: str | None, seed: int, backend: str, scheduler: str | None,
           html_path: str | None, quiet: bool, as_json: bool, samples: int) -> None:
    """Review a played hand: each decision of the seats beside the advised one (advise on
    the position the seat saw), the points lost with 95% CIs, labelled; RECORD may be a
    folder of records or a .jsonl file (per-seat and per-kind summary)."""
    from ..core.review_cli import run
    from ..games import game_of_record

    run("dingniu", record_path, seat, N_SEATS, seed=seed, backend=backend,
        scheduler=scheduler, quiet=quiet, as_json=as_json, html_path=html_path,
        review_one=api.review, review_many=api.review_many,
        game_of=lambda r: game_of_record(r).name, samples=samples)


@group.command()
@click.argument("file", metavar="FILE|-")
@RULES_OPTION
@JSON_OPTION
def replay(file: str, rules: str | None, as_json: bool) -> None:
    """Check a 顶牛 game record move by move and print the result (--rules overrides the
    record's preset)."""
    res = api.replay_record(read_json(file), rules)
    if as_json:
        emit_json(res)
        return
    click.echo("\n".join(replay_lines(res)))


@group.command()
@click.argument("file", metavar="FILE|-")
@RULES_OPTION
@JSON_OPTION
def solve(file: str, rules: str | None, as_json: bool) -> None:
    """Max-n values with all hands open of a record's position (its deal and actions;
    --rules overrides the record's preset)."""
    res = api.solve_record(read_json(file), rules)
    if as_json:
        emit_json(res)
        return
    click.echo(solve_line(res))


@group.command()
@RULES_OPTION
@policy_option(POLICIES, "heuristic", name="--opponents", dest="opponents",
               what="The policy of the three bots")
@seed_option("Seed of the first hand (default: a fresh seed, shown on the page).", fresh=True)
@click.option("--port", type=click.IntRange(0, 65535), default=0,
              help="Port on 127.0.0.1 (default: any free one).")
@click.option("--no-open", is_flag=True, help="Do not open the browser.")
@table_library_option
def play(rules: str | None, opponents: str, seed: int | None, port: int, no_open: bool,
         library_path: str | None, no_library: bool) -> None:
    """Play a hand against three bots in the browser, with advice (advise), review and
    records (served on 127.0.0.1 only, no network needed)."""
    from ..web.open import play_table
    from .web import make_app

    play_table("dingniu", lambda library: make_app(rules, opponents, seed, library=library),
               library_path, no_library, port, open_browser=not no_open)


@group.command("best-response")
@responder_options(POLICIES, "heuristic", "pimc")
@deals_option(2_000, help="Deals; each is played with the player in every seat, then with "
                          "the responder alone in each seat (5 seatings).")
@PIMC_OPTIONS
@SEED_OPTION
@RULES_OPTION
@JSON_OPTION
def best_response(player: str, responder: str, n_deals: int, pimc_samples: int | None,
                  pimc_leaf: int | None, seed: int, rules: str | None, as_json: bool) -> None:
    """How exploitable a player is, from below: one searching seat against it in the
    others, less the player in that seat on the same deals (docs/policies.md). A pimc
    responder plays its play-outs with the player's weights."""
    res = api.best_response(n_deals, seed, rules, player, responder, pimc_samples, pimc_leaf)
    emit(res, as_json, best_response_lines)
