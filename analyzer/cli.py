"""The ``xianniu`` command line: a thin layer over :mod:`analyzer.api`.

Bad input of any kind ends with one line on stderr and exit status 2.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from . import api
from .cli_common import JSON_OPTION, emit_json
from .describe import settlement_json, settlement_lines, tournament_lines
from .fileio import read_json, write_atomic
from .rules import DEFAULT_RULES, PRESETS

RULES_OPTION = click.option("--rules", "rules", type=click.Choice(sorted(PRESETS)),
                            default=None, help=f"Rule preset (default {DEFAULT_RULES}).")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="xianniu")
def cli() -> None:
    """xianniu: Monte Carlo strategy analyzer for 兰州掀牛 (掀牛腿 / 砍牛腿)."""


@cli.command()
@click.argument("cards", nargs=-1, required=True)
@RULES_OPTION
@JSON_OPTION
def classify(cards: tuple[str, ...], rules: str | None, as_json: bool) -> None:
    """Kind, size and strength of the play CARDS make (e.g. 9s 9h, or 9s9h)."""
    info = api.classify_cards(" ".join(cards), rules)
    if as_json:
        emit_json(info)
        return
    extra = f", rank {info['rank']}" if "rank" in info else ""
    extra += f", k {info['k']}" if "k" in info else ""
    click.echo(f"{info['cards']}: {info['kind']} ({info['name_zh']}), size {info['size']}, "
               f"strength {info['strength']}{extra} [{info['rules']}]")


@cli.command()
@click.argument("top")
@click.argument("challenger")
@RULES_OPTION
def beats(top: str, challenger: str, rules: str | None) -> None:
    """Print yes or no: may CHALLENGER be played to beat TOP?"""
    click.echo("yes" if api.can_beat(top, challenger, rules) else "no")


@cli.command()
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


@cli.command()
@click.argument("file", metavar="FILE|-")
@JSON_OPTION
def replay(file: str, as_json: bool) -> None:
    """Check a game record move by move and print the hand as it went."""
    out = api.replay_record(read_json(file))
    if as_json:
        emit_json(out)
        return
    click.echo(f"rules {out['rules']}, banker seat {out['banker']}")
    for i, line in enumerate(out["log"]):
        click.echo(f"{i:4d}  {line}")
    for seat, plays in enumerate(out["captured"]):
        click.echo(f"seat {seat} captured: " + (" | ".join(plays) if plays else "nothing"))
    if out["over"]:
        st = out["settlement"]
        click.echo(f"hand over ({out['end']})")
        for p in st["payments"]:
            click.echo(f"  seat {p['payer']} pays seat {p['payee']} {p['amount']} for "
                       f"{p['reason']} ({p['reason_en']})")
        click.echo("points: " + ", ".join(f"seat {s} {v:+d}" for s, v in enumerate(st["points"])))
    else:
        click.echo(f"record stops before the end; seat {out['to_act']} is to act")


@cli.command()
@click.option("--hands", "n_hands", type=click.IntRange(min=1), default=100_000,
              show_default=True, help="Number of hands to play.")
@RULES_OPTION
@click.option("--policy", default="random", show_default=True,
              help="Policy of every seat (random, heuristic, pimc).")
@click.option("--policies", default=None, help="One policy per seat, A,B,C (overrides --policy).")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="Root seed; the same seed gives the same numbers on any number of cores.")
@click.option("--out", "out_path", type=click.Path(dir_okay=False), default=None,
              help="Write the result here (whole or not at all) instead of standard output.")
@click.option("--format", "fmt", type=click.Choice(["table", "csv", "json", "parquet"]),
              default=None, help="Output format (default: table, or json with --json).")
@click.option("--backend", type=click.Choice(["local", "dask"]), default="local",
              show_default=True, help="Run the chunks here, or as tasks on a Dask cluster.")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Dask scheduler address (default: a LocalCluster on this machine).")
@click.option("--resume", is_flag=True, help="Continue an interrupted run with the same --out.")
@click.option("--records", "records_path", type=click.Path(dir_okay=False), default=None,
              help="Also keep every hand's row in this Parquet file.")
@click.option("--engine", type=click.Choice(["kernels", "reference"]), default="kernels",
              show_default=True, help="Numba kernels, or the slow pure-Python reference engine.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@JSON_OPTION
def simulate(n_hands: int, rules: str | None, policy: str, policies: str | None, seed: int,
             out_path: str | None, fmt: str | None, backend: str, scheduler: str | None,
             resume: bool, records_path: str | None, engine: str, quiet: bool,
             as_json: bool) -> None:
    """Play hands; summarise points, 够, 刺, captured cards and 掀 per seat with 95% CIs."""
    from .report_formats import render_summary
    from .rules import get_rules

    fmt = fmt or ("json" if as_json else "table")
    if fmt == "parquet" and not out_path:
        raise click.BadParameter("parquet output needs --out", param_hint="--format")
    rules_name = get_rules(rules).name
    if engine == "reference":
        from .aggregate import Aggregate
        from .reference_sim import random_hands

        if (policies or policy) != "random" or backend != "local" or resume or records_path:
            raise click.UsageError("the reference engine plays random hands locally only, "
                                   "without --policies, --backend, --resume or --records")
        with click.progressbar(length=n_hands, label="hands", file=sys.stderr,
                               hidden=quiet or n_hands < 200) as bar:
            agg = Aggregate.from_frame(random_hands(n_hands, rules_name, seed,
                                                    progress=bar.update))
    else:
        from .runner import RunSpec, run

        spec = RunSpec(n_hands, rules_name, policies or policy, seed)
        ckpt = f"{out_path}.checkpoint.json" if out_path else None
        slow = "pimc" in (policies or policy)
        with click.progressbar(length=n_hands, label="hands", file=sys.stderr,
                               hidden=quiet or (n_hands < 500_000 and not slow)) as bar:
            agg = run(spec, backend, scheduler, ckpt, resume, records_path,
                      progress=bar.update)
    data = render_summary(agg, fmt)
    if out_path:
        write_atomic(out_path, data)
        if engine == "kernels" and ckpt:
            Path(ckpt).unlink(missing_ok=True)
    else:
        click.echo(data if isinstance(data, str) else data.decode(), nl=False)


@cli.command()
@click.option("--policies", required=True, help="Two or three policies, e.g. heuristic,random.")
@click.option("--hands", "n_deals", type=click.IntRange(min=2), default=20_000,
              show_default=True, help="Deals; each is played once per seating (6 seatings).")
@RULES_OPTION
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)
@click.option("--pimc-samples", type=click.IntRange(min=1), default=None,
              help="Hidden deals the pimc policy samples per decision (default 24).")
@click.option("--heuristic-params", "param_files", multiple=True, metavar="LABEL=FILE",
              help="Parameters for the policy heuristic:LABEL (a tuning result or JSON).")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@JSON_OPTION
def tournament(policies: str, n_deals: int, rules: str | None, seed: int,
               pimc_samples: int | None, param_files: tuple[str, ...], quiet: bool,
               as_json: bool) -> None:
    """Duplicate tournament: mean points per hand of each policy and pairwise differences."""
    from .tournament import load_heuristic_params
    from .tournament import tournament as run

    params = {}
    for item in param_files:
        label, sep, path = item.partition("=")
        if not sep or not label or not path:
            raise click.BadParameter(f"expected LABEL=FILE, got {item!r}",
                                     param_hint="--heuristic-params")
        params[f"heuristic:{label}"] = load_heuristic_params(path)
    with click.progressbar(length=n_deals, label="deals", file=sys.stderr,
                           hidden=quiet or (n_deals < 100_000 and "pimc" not in policies)) as bar:
        res = run(policies, n_deals, rules, seed, heuristic_params=params,
                  pimc_samples=pimc_samples, progress=bar.update)
    if as_json:
        emit_json(res.as_dict())
        return
    click.echo("\n".join(tournament_lines(res)))


def _decision_options(f):
    f = click.option("--quiet", is_flag=True, help="No progress bar (shown for pimc).")(f)
    f = click.option("--json", "as_json", is_flag=True, help="Print JSON.")(f)
    f = click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)(f)
    f = click.option("--max-hands", type=click.IntRange(min=100), default=200_000,
                     show_default=True, help="Stop after this many kept deals.")(f)
    f = click.option("--precision", type=click.FloatRange(min=0, min_open=True), default=0.1,
                     show_default=True, help="Stop when the 95% CI half-width of the "
                     "difference is below this (points).")(f)
    f = click.option("--policy", type=click.Choice(["heuristic", "pimc"]), default="heuristic",
                     show_default=True, help="How this seat plays on (others: heuristic).")(f)
    f = RULES_OPTION(f)
    return click.argument("hand", nargs=-1)(f)


def _decision_bar(max_hands: int, policy: str, quiet: bool):
    """Kept deals against ``--max-hands`` on stderr (the query may stop sooner, at its
    precision); shown for pimc, whose play-outs take minutes, not for the heuristic."""
    return click.progressbar(length=max_hands, label="deals (stops at the precision)",
                             file=sys.stderr, hidden=quiet or policy != "pimc")


def _print_decision(res, as_json: bool) -> None:
    d = res.as_dict()
    if as_json:
        emit_json(d)
        return
    a, b = ("掀 xian", "扣 kou") if res.question == "xian" else ("扣 kou", "lead")
    click.echo(f"{d['hand']}  seat {res.seat}, rules {res.rules}, policy {res.policy}, "
               f"seed {res.seed}")
    for name, ev, ci in ((a, res.ev_a, res.ci95_a), (b, res.ev_b, res.ci95_b)):
        click.echo(f"  {name:<8} {ev:+.3f} [{ci[0]:+.3f}, {ci[1]:+.3f}] points per hand")
    click.echo(f"  difference {res.diff:+.3f} [{res.ci95[0]:+.3f}, {res.ci95[1]:+.3f}] "
               f"(95% CI, {res.hands} deals)")
    lo, hi = res.acceptance_ci95()
    click.echo(f"  acceptance: {res.acceptance_rate:.1%} [{lo:.1%}, {hi:.1%}] of {res.dealt} "
               "deals dealt fit the position")
    def pct(e: dict) -> str:
        return f"{e['value']:.1%} [{e['low']:.1%}, {e['high']:.1%}]"

    click.echo(f"  after {a}: P(够) {pct(res.p_gou)}, my P(刺) {pct(res.p_ci_me)}, "
               f"an opponent's P(刺) {pct(res.p_ci_opponent)}")
    dist = ", ".join(f"{int(k):+d}: {v:.1%}" for k, v in d["points_distribution"].items())
    click.echo(f"  my points after {a} (n={res.hands}): {dist}")
    click.echo(f"  recommendation: {res.recommendation}")


@cli.command("should-xian")
@click.option("--seat", type=click.IntRange(1, 2), default=1, show_default=True,
              help="The answering seat (2: seat 1 has already 扣ed).")
@click.option("--record", "record_path", default=None, metavar="FILE|-",
              help="A partial game record stopping where a seat answers a later 扣 "
                   "(instead of HAND).")
@_decision_options
def should_xian(hand: tuple[str, ...], seat: int, record_path: str | None, rules: str | None,
                policy: str, precision: float, max_hands: int, seed: int,
                as_json: bool, quiet: bool) -> None:
    """The banker has 扣ed at the start: should HAND (16 cards) 掀 or 扣?"""
    from .decision import should_xian as ask
    from .decision import should_xian_record

    if record_path and hand:
        raise click.UsageError("give HAND or --record, not both")
    if not record_path and not hand:
        raise click.UsageError("give HAND (16 cards) or --record FILE")
    with _decision_bar(max_hands, policy, quiet) as bar:
        if record_path:
            res = should_xian_record(read_json(record_path), policy, precision, max_hands, seed,
                                     progress=bar.update)
        else:
            res = ask(" ".join(hand), seat, rules, policy, precision, max_hands, seed,
                      progress=bar.update)
    _print_decision(res, as_json)


@cli.command("should-kou")
@_decision_options
def should_kou(hand: tuple[str, ...], rules: str | None, policy: str, precision: float,
               max_hands: int, seed: int, as_json: bool, quiet: bool) -> None:
    """The banker holds HAND (16 cards) at its first decision: 扣 or lead?"""
    from .decision import should_kou as ask

    if not hand:
        raise click.UsageError("give HAND (16 cards)")
    with _decision_bar(max_hands, policy, quiet) as bar:
        res = ask(" ".join(hand), rules, policy, precision, max_hands, seed,
                  progress=bar.update)
    _print_decision(res, as_json)


@cli.command()
@click.argument("what", type=click.Choice(["values", "xian", "banker"]))
@click.option("--hands", "n_deals", type=click.IntRange(min=2), default=20_000, show_default=True,
              help="Deals (values: each is played once per pattern as well).")
@RULES_OPTION
@click.option("--policy", default="heuristic", show_default=True,
              help="Policy of every seat (random or heuristic), or A,B,C.")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)
@JSON_OPTION
def stats(what: str, n_deals: int, rules: str | None, policy: str, seed: int,
          as_json: bool) -> None:
    """Statistics on paired deals: values (牛 喜 K 亮子), xian (掀 EV), banker (advantage)."""
    import pandas as pd

    if what == "banker":
        from .simulate import simulate_aggregate
        from .values import banker_advantage

        res = banker_advantage(simulate_aggregate(n_deals, rules, policy, seed).summary())
        if as_json:
            emit_json(res)
        else:
            e = res["banker_mean_points"]
            click.echo(f"banker (seat 0) mean points per hand, rules {res['rules']}, policy "
                       f"{res['policy']}: {e['value']:+.4f} [{e['low']:+.4f}, {e['high']:+.4f}] "
                       f"(n={e['n']})")
        return
    from .values import pattern_values, xian_ev

    df = (pattern_values if what == "values" else xian_ev)(n_deals, rules, policy, seed)
    if as_json:
        emit_json({**{k: v for k, v in df.attrs.items()}, "rows": df.to_dict("records")})
        return
    head = ", ".join(f"{k} {v}" for k, v in df.attrs.items() if not isinstance(v, (dict, list)))
    click.echo(head + " (points per hand; 95% CIs)")
    with pd.option_context("display.width", 200, "display.max_columns", 30):
        click.echo(df.round(3).to_string(index=False))


@cli.command()
@RULES_OPTION
@click.option("--deals", "n_deals", type=click.IntRange(min=1), default=1_000_000,
              show_default=True, help="Deals for the Monte Carlo estimates.")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)
@JSON_OPTION
def odds(rules: str | None, n_deals: int, seed: int, as_json: bool) -> None:
    """Exact odds of one seat's deal (牛, 喜, 亮子, 龙凤, 八大对, 鱼, 摆, number of K)."""
    from .odds import odds as compute

    res = compute(rules, n_deals, seed)
    if as_json:
        emit_json(res)
        return
    click.echo(f"one seat's 16 cards, rules {res['rules']}: exact probability, and a Monte Carlo "
               f"estimate [95% CI] from {n_deals:,} deals (seed {seed})")
    names = {"niu": "牛 (a 9 of each colour)", "xi": "喜 (a 5 of each colour)",
             "liang": "亮子 (some rank four times)", "long_feng": "龙凤 (2+ of A 2 3 8 10 K)",
             "eight_pairs": "八大对 (eight pairs)", "fish": "鱼 (A, 2 and 3)",
             "bai": "摆 (8, 10 and K)"}
    for key, label in names.items():
        m = res["monte_carlo"][key]
        click.echo(f"  {label:<28} {res['exact'][key]:.6f}   {m['value']:.6f} "
                   f"[{m['low']:.6f}, {m['high']:.6f}]")
    for k, (e, m) in enumerate(zip(res["exact"]["k_count"], res["monte_carlo"]["k_count"])):
        click.echo(f"  {f'{k} K (天)':<28} {e:.6f}   {m['value']:.6f} [{m['low']:.6f}, "
                   f"{m['high']:.6f}]")


@cli.command()
@click.option("--rules", type=click.Choice(["all", *sorted(PRESETS)]), default="all",
              show_default=True, help="Rule preset, or all: both side by side.")
@click.option("--hands", "n_hands", type=click.IntRange(min=100), default=400_000,
              show_default=True, help="Hands (deals) per analysis; pimc plays one per 1,000.")
@click.option("--policy", default="heuristic", show_default=True,
              help="Policy of every seat for hands, values and 掀 EV (random, heuristic, or "
                   "A,B,C); the ladder plays its own.")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="Root seed; each analysis spawns its own from it.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default="xianniu-report",
              show_default=True, help="Folder for report.md, report.html, CSVs and PNGs.")
@click.option("--lang", type=click.Choice(["zh", "en"]), default="zh", show_default=True,
              help="Chinese game terms (zh) or English (en).")
@click.option("--quiet", is_flag=True, help="No progress lines.")
def report(rules: str, n_hands: int, policy: str, seed: int, out_dir: str, lang: str,
           quiet: bool) -> None:
    """Run the analyses; write report.md, a self-contained report.html, CSVs and PNGs."""
    from .report import build_report

    res = build_report(rules, n_hands, policy, seed, out_dir, lang,
                       progress=None if quiet else lambda line: click.echo(line, err=True))
    click.echo(str(res.html))


@cli.command()
@RULES_OPTION
@click.option("--hands", "n_hands", type=click.IntRange(min=1000), default=400_000,
              show_default=True, help="Kernel hands per timed repeat.")
@click.option("--deals", "n_deals", type=click.IntRange(min=1000), default=4_000_000,
              show_default=True, help="Deals per timed repeat.")
@click.option("--reference-hands", type=click.IntRange(min=10), default=300, show_default=True,
              help="Reference-engine hands per timed repeat.")
@click.option("--repeats", type=click.IntRange(min=1), default=5, show_default=True)
@click.option("--no-cold", is_flag=True, help="Skip the cold/warm first-call measurement.")
@JSON_OPTION
def bench(rules: str | None, n_hands: int, n_deals: int, reference_hands: int, repeats: int,
          no_cold: bool, as_json: bool) -> None:
    """Deals/s and hands/s on all cores and one, against the reference engine."""
    from .bench import format_bench, run_bench

    b = run_bench(rules or DEFAULT_RULES, n_deals, n_hands, reference_hands, repeats,
                  cold=not no_cold)
    if as_json:
        emit_json(b)
    else:
        click.echo(format_bench(b))


from .dingniu.cli import group as _dingniu  # noqa: E402

cli.add_command(_dingniu)


def main(argv: list[str] | None = None) -> int:
    """Entry point: run the CLI; bad input becomes one line on stderr and status 2."""
    try:
        rc = cli.main(args=argv, prog_name="xianniu", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("xianniu: aborted", err=True)
        return 130
    except click.exceptions.Exit as e:
        return e.exit_code
    except click.ClickException as e:
        msg = " ".join(e.format_message().split())
        click.echo(f"xianniu: error: {msg}", err=True)
        return 2
    except (ValueError, OSError) as e:
        msg = " ".join(str(e).split())
        click.echo(f"xianniu: error: {msg}", err=True)
        return 2
    except KeyboardInterrupt:
        click.echo("xianniu: interrupted", err=True)
        return 130
    return rc if isinstance(rc, int) else 0


if __name__ == "__main__":
    sys.exit(main())
