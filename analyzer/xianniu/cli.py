"""The 掀牛 commands: a thin layer over :mod:`analyzer.xianniu.api`.

The root command (:mod:`analyzer.cli`) shows them at the top level, 掀牛 being the default
game. Bad input of any kind ends with one line on stderr and exit status 2.
"""

from __future__ import annotations

import click

from ..core.batchrun import output_format
from ..core.cli_common import (
    JSON_OPTION,
    LazyProgressBar,
    batch_options,
    deals_option,
    emit,
    emit_json,
    interruptible,
    option_with_alias,
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
from ..core.tournament import tournament_lines
from . import api
from .batch import COSTS
from .cards import N_SEATS
from .defaults import ADVICE_OPPONENTS, ADVICE_POLICY, DECISION_BUDGET, DECISION_POLICY
from .describe import (
    classify_line,
    decision_lines,
    odds_lines,
    replay_lines,
    settlement_json,
    settlement_lines,
    solve_line,
    stats_lines,
)
from .rules import DEFAULT_RULES, PRESETS
from .sim import POLICIES, SEARCH

RULES_OPTION = click.option("--rules", "rules", type=click.Choice(sorted(PRESETS)),
                            default=None, help=f"Rule preset (default {DEFAULT_RULES}).")
PER_SEAT = "One policy per seat, A,B,C (overrides --policy)"


class EngineChoice(click.Choice):
    """``kernel`` or ``reference``; ``kernels``, the earlier spelling, is read as ``kernel``
    and not shown."""

    def __init__(self) -> None:
        super().__init__(["kernel", "reference"])

    def convert(self, value, param, ctx):
        return super().convert("kernel" if value == "kernels" else value, param, ctx)


def _engine_option(help: str):
    return click.option("--engine", type=EngineChoice(), default="kernel", show_default=True,
                        help=help)


SEED_OPTION = seed_option("Root seed; the same seed gives the same numbers.")


@click.group("xianniu", context_settings={"help_option_names": ["-h", "--help"]})
def group() -> None:
    """兰州掀牛 (掀牛腿 / 砍牛腿), three players: the default game, also at the top level."""


@group.command()
@click.argument("cards", nargs=-1, required=True)
@RULES_OPTION
@JSON_OPTION
def classify(cards: tuple[str, ...], rules: str | None, as_json: bool) -> None:
    """Kind, size and strength of the play CARDS make (e.g. 9s 9h, or 9s9h)."""
    info = api.classify_cards(" ".join(cards), rules)
    if as_json:
        emit_json(info)
        return
    click.echo(classify_line(info))


@group.command()
@click.argument("top")
@click.argument("challenger")
@RULES_OPTION
@JSON_OPTION
def beats(top: str, challenger: str, rules: str | None, as_json: bool) -> None:
    """May CHALLENGER be played to beat TOP? Prints yes or no, then the reason."""
    res = api.beat_check(top, challenger, rules)
    if as_json:
        emit_json(res)
        return
    click.echo(f"{'yes' if res['beats'] else 'no'}\n{res['reason']}")


@group.command()
@click.argument("file", metavar="FILE|-")
@RULES_OPTION
@JSON_OPTION
def score(file: str, rules: str | None, as_json: bool) -> None:
    """Settle a finished hand: {"rules", "captured": [[play, ...] x3], "xian": [[x, t], ...]}."""
    st = api.score_hand(read_json(file), rules)
    if as_json:
        emit_json(settlement_json(st))
        return
    click.echo("\n".join(settlement_lines(st)))


@group.command()
@click.argument("file", metavar="FILE|-")
@JSON_OPTION
def replay(file: str, as_json: bool) -> None:
    """Check a game record move by move and print the hand as it went."""
    out = api.replay_record(read_json(file))
    if as_json:
        emit_json(out)
        return
    click.echo("\n".join(replay_lines(out)))


@group.command()
@click.argument("file", metavar="FILE|-")
@RULES_OPTION
@_engine_option("kernel: the jit-compiled solver; reference: the pure-Python one (slow).")
@click.option("--max-positions", type=int, default=50_000_000, show_default=True,
              help="kernel: give up (exit 2) after searching this many positions.")
@JSON_OPTION
def solve(file: str, rules: str | None, engine: str, max_positions: int,
          as_json: bool) -> None:
    """Max-n values with all hands open, and the best action, at a record's position (its
    deal and actions; --rules overrides the record's preset)."""
    res = api.solve_record(read_json(file), rules, engine, max_positions)
    if as_json:
        emit_json(res)
        return
    click.echo(solve_line(res))


@group.command()
@batch_options(COSTS["simulate"], 3, POLICIES)
@RULES_OPTION
@_engine_option("kernel: the Numba kernels; reference: the slow pure-Python engine (random "
                "play only).")
def simulate(n_hands: int, rules: str | None, policy: str, policies: str | None, seed: int,
             out_path: str | None, fmt: str | None, backend: str, scheduler: str | None,
             resume: bool, records_path: str | None, engine: str, quiet: bool,
             as_json: bool) -> None:
    """Play hands; summarise points, 够, 刺, captured cards and 掀 per seat with 95% CIs."""
    fmt = output_format(fmt, as_json)
    slow = engine == "reference" or bool(set((policies or policy).split(",")) & SEARCH)
    with interruptible(), progress_bar(n_hands, hidden=quiet or (n_hands < 500_000
                                                                  and not slow)) as bar:
        data = api.simulate(n_hands, rules, policies or policy, seed, out_path, fmt, backend,
                            scheduler, resume, records_path, engine, progress=bar.update)
    if not out_path:
        click.echo(data if isinstance(data, str) else data.decode(), nl=False)


@group.command()
@click.option("--policies", default="heuristic,random", show_default=True,
              help=policy_help(POLICIES, None, "The two or three policies compared, e.g. "
                                               "heuristic,random") +
              " heuristic:LABEL plays the heuristic on --heuristic-params LABEL.")
@deals_option(20_000, help="Deals; each is played once per seating (6 seatings).",
              hands_alias=True, cost=COSTS["tournament"])
@RULES_OPTION
@SEED_OPTION
@click.option("--pimc-samples", type=click.IntRange(min=1), default=None,
              help="Hidden deals pimc (and, at least, pimc2 and pimc-net) samples per decision "
                   "(default 24).")
@click.option("--heuristic-params", "param_files", multiple=True, metavar="LABEL=FILE",
              help="Parameters for the policy heuristic:LABEL (a tuning result or JSON).")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@JSON_OPTION
def tournament(policies: str, n_deals: int, rules: str | None, seed: int,
               pimc_samples: int | None, param_files: tuple[str, ...], quiet: bool,
               as_json: bool) -> None:
    """Duplicate tournament: mean points per hand of each policy and pairwise differences."""
    with progress_bar(n_deals, "deals", hidden=quiet or (n_deals < 100_000
                                                         and not SEARCH & set(
                                                             policies.split(",")))) as bar:
        res = api.tournament(policies, n_deals, rules, seed, pimc_samples, param_files,
                             progress=bar.update)
    emit(res, as_json, tournament_lines)


def _decision_options(f):
    f = click.option("--quiet", is_flag=True, help="No progress bar (shown for pimc).")(f)
    f = JSON_OPTION(f)
    f = SEED_OPTION(f)
    f = option_with_alias("--max-deals", "max_deals", "--max-hands", 200_000,
                          type=click.IntRange(min=100),
                          help="Stop after this many kept deals.")(f)
    f = click.option("--precision", type=click.FloatRange(min=0, min_open=True), default=0.1,
                     show_default=True, help="Stop when the 95% CI half-width of the "
                     "difference is below this (points).")(f)
    f = policy_option(POLICIES, ADVICE_OPPONENTS, "--opponents", "opponents",
                      what="How the other two seats play on")(f)
    f = click.option("--budget", type=click.IntRange(min=1), default=DECISION_BUDGET,
                     show_default=True, help="Play-outs per decision of this seat's pimc or "
                     "pimc2 play-on (the other seats' keep their own).")(f)
    f = policy_option(POLICIES, DECISION_POLICY, what="How this seat plays on",
                      best_of=3)(f)
    f = RULES_OPTION(f)
    return click.argument("hand", nargs=-1)(f)


def _decision_bar(max_deals: int, policy: str, opponents: str, quiet: bool):
    """Kept deals on stderr, against the number the query is expected to stop at (from the
    precision reached so far; ``--max-deals`` at most); shown for pimc, whose play-outs
    take minutes, not for the heuristic."""
    return LazyProgressBar(max_deals, "deals kept",
                           hidden=quiet or not {*policy.split(","), opponents} & set(SEARCH))


def _print_decision(res: dict, as_json: bool) -> None:
    if as_json:
        emit_json(res)
        return
    click.echo("\n".join(decision_lines(res)))


@group.command("should-xian")
@click.option("--seat", type=click.IntRange(1, 2), default=1, show_default=True,
              help="The answering seat (2: seat 1 has already 扣ed).")
@click.option("--record", "record_path", default=None, metavar="FILE|-",
              help="A partial game record stopping where a seat answers a later 扣 "
                   "(instead of HAND).")
@_decision_options
def should_xian(hand: tuple[str, ...], seat: int, record_path: str | None, rules: str | None,
                policy: str, budget: int, opponents: str, precision: float, max_deals: int,
                seed: int, as_json: bool, quiet: bool) -> None:
    """The banker has 扣ed at the start: should HAND (16 cards) 掀 or 扣?"""
    record = read_json(record_path) if record_path else None
    with _decision_bar(max_deals, policy, opponents, quiet) as bar:
        res = api.should_xian(" ".join(hand), seat, rules, policy, precision, max_deals, seed,
                              record, progress=bar, opponents=opponents,
                              budget=budget)
    _print_decision(res, as_json)


@group.command("should-kou")
@_decision_options
def should_kou(hand: tuple[str, ...], rules: str | None, policy: str, budget: int,
               opponents: str, precision: float, max_deals: int, seed: int, as_json: bool,
               quiet: bool) -> None:
    """The banker holds HAND (16 cards) at its first decision: 扣 or lead?"""
    with _decision_bar(max_deals, policy, opponents, quiet) as bar:
        res = api.should_kou(" ".join(hand), rules, policy, precision, max_deals, seed,
                             progress=bar, opponents=opponents, budget=budget)
    _print_decision(res, as_json)


# The options of the advice on one decision (advise, and review at every decision).
ADVICE_OPTIONS = stacked([
    click.option("--samples", type=click.IntRange(min=2), default=None,
                 help="Deals at most (default 20,000)."),
    click.option("--precision", type=click.FloatRange(min=0, min_open=True), default=0.1,
                 show_default=True, help="Stop when every action still racing is within "
                 "this of the leader (95% CI half-width of the paired gap, points)."),
    policy_option(POLICIES, ADVICE_POLICY,
                  what="How the seat to act plays on in the play-outs"),
    policy_option(POLICIES, ADVICE_OPPONENTS, "--opponents", "opponents",
                  what="How the other two seats play on"),
])


@group.command()
@click.argument("record_path", metavar="RECORD|-")
@ADVICE_OPTIONS
@SEED_OPTION
@click.option("--quiet", is_flag=True, help="No progress bar (shown for pimc).")
@JSON_OPTION
def advise(record_path: str, samples: int | None, precision: float, policy: str,
           opponents: str, seed: int, quiet: bool, as_json: bool) -> None:
    """Every legal action where a game record stops, ranked by the acting seat's expected
    points (paired play-outs on hidden deals that fit the public record)."""
    from .advise import DEFAULT_SAMPLES, advice_lines

    record = read_json(record_path)
    with progress_bar(samples or DEFAULT_SAMPLES, "deals (stops at the precision)",
                      hidden=quiet or not {policy, opponents} & set(SEARCH)) as bar:
        res = api.advise(record, samples=samples, precision=precision, policy=policy,
                         seed=seed, progress=lambda done, total: bar.update(done - bar.pos),
                         opponents=opponents)
    data = res.to_json()
    if as_json:
        emit_json(data)
        return
    click.echo("\n".join(advice_lines(data)))


@group.command()
@review_options(N_SEATS)
@ADVICE_OPTIONS
def review(record_path: str, seat: str | None, seed: int, backend: str, scheduler: str | None,
           html_path: str | None, quiet: bool, as_json: bool, samples: int | None,
           precision: float, policy: str, opponents: str) -> None:
    """Review a played hand: each decision of the seats beside the advised one (advise at
    every decision), the points lost with 95% CIs, labelled; RECORD may be a folder of
    records or a .jsonl file (per-seat and per-kind summary)."""
    from ..core.review_cli import run
    from ..games import game_of_record
    from .advise import entry_label

    run("xianniu", record_path, seat, N_SEATS, seed=seed, backend=backend,
        scheduler=scheduler, quiet=quiet, as_json=as_json, html_path=html_path,
        review_one=api.review, review_many=api.review_many,
        game_of=lambda r: game_of_record(r).name, text=entry_label, samples=samples,
        precision=precision,
        policy=policy, opponents=opponents)


@group.command()
@click.argument("what", type=click.Choice(api.STATS))
@deals_option(20_000, help="Deals (values: each is played once per pattern as well).",
              hands_alias=True)
@RULES_OPTION
@policy_option(POLICIES, "heuristic")
@policy_option(POLICIES, None, "--policies", "policies", PER_SEAT,
               per_seat=3)
@SEED_OPTION
@click.option("--quiet", is_flag=True, help="No progress bar (shown for pimc).")
@JSON_OPTION
def stats(what: str, n_deals: int, rules: str | None, policy: str, policies: str | None,
          seed: int, quiet: bool, as_json: bool) -> None:
    """Statistics on paired deals: values (牛 喜 K 亮子), xian (掀 EV), banker (advantage)."""
    chosen = policies or policy
    with LazyProgressBar(n_deals, "deals",
                         hidden=quiet or not SEARCH & set(chosen.split(","))) as bar:
        res = api.stats(what, n_deals, rules, chosen, seed, progress=bar.update)
    if as_json:
        emit_json(res)
        return
    click.echo("\n".join(stats_lines(res)))


@group.command()
@RULES_OPTION
@deals_option(1_000_000, minimum=1, help="Deals for the Monte Carlo estimates.",
              cost=COSTS["odds"])
@SEED_OPTION
@JSON_OPTION
def odds(rules: str | None, n_deals: int, seed: int, as_json: bool) -> None:
    """Exact odds of one seat's deal (牛, 喜, 亮子, 龙凤, 八大对, 鱼, 摆, number of K)."""
    res = api.odds(rules, n_deals, seed)
    if as_json:
        emit_json(res)
        return
    click.echo("\n".join(odds_lines(res)))


@group.command()
@RULES_OPTION
@policy_option(POLICIES, ADVICE_OPPONENTS, "--opponents", "opponents", "The policy of both bots")
@seed_option("Seed of the first hand (default: a fresh seed, shown on the page).", fresh=True)
@click.option("--port", type=click.IntRange(0, 65535), default=0,
              help="Port on 127.0.0.1 (default: any free one).")
@click.option("--no-open", is_flag=True, help="Do not open the browser.")
@table_library_option
def play(rules: str | None, opponents: str, seed: int | None, port: int, no_open: bool,
         library_path: str | None, no_library: bool) -> None:
    """Play a hand against two bots in the browser, with advice, review and records (served
    on 127.0.0.1 only, no network needed)."""
    from ..web.open import play_table
    from .web import make_app

    play_table("xianniu", lambda library: make_app(rules, opponents, seed, library=library),
               library_path, no_library, port, open_browser=not no_open)


@group.command("best-response")
@responder_options(POLICIES, ADVICE_OPPONENTS, "pimc-net")
@deals_option(1_000, help="Deals; each is played with the player in every seat, then with "
                          "the responder alone in each seat (4 seatings).")
@RULES_OPTION
@SEED_OPTION
@click.option("--pimc-samples", type=click.IntRange(min=1), default=None,
              help="Play-outs a pimc responder plays per decision (default: its own).")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@JSON_OPTION
def best_response(player: str, responder: str, n_deals: int, rules: str | None, seed: int,
                  pimc_samples: int | None, quiet: bool, as_json: bool) -> None:
    """How exploitable a player is, from below: one searching seat against it in the
    others, less the player in that seat on the same deals (docs/policies.md)."""
    with progress_bar(n_deals, "deals", hidden=quiet) as bar:
        res = api.best_response(n_deals, rules, seed, player, responder, pimc_samples,
                                progress=bar.update)
    emit(res, as_json, best_response_lines)
