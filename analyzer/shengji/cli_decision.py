"""``xianniu shengji should-declare | bury | should-rebel | should-throw``: the decision
queries (``analyzer.shengji.decision``), added to the ``shengji`` group by ``register``."""

from __future__ import annotations

from typing import Any

import click

from ..core.cli_common import (
    JSON_OPTION,
    emit_json,
    option_with_alias,
    policy_option,
    progress_bar,
    seed_option,
)
from ..core.fileio import read_json
from ..core.stats import format_estimate
from . import api
from .actions import HAND_SIZE
from .rules import DEFAULT_RULES, PRESETS
from .sim import POLICIES, QUERY_POLICY, is_slow


def _options(f):
    f = click.option("--quiet", is_flag=True,
                     help="No progress bar (shown when a seat plays pimc or pimc2).")(f)
    f = JSON_OPTION(f)
    f = seed_option("Seed of the sampled deals and draws (numpy SeedSequence).")(f)
    f = option_with_alias("--max-deals", "max_deals", "--max-hands", 200_000,
                          type=click.IntRange(min=256),
                          help="Stop after this many sampled deals.")(f)
    f = click.option("--precision", type=click.FloatRange(min=0, min_open=True), default=0.1,
                     show_default=True, help="Stop when every 95% CI half-width of a "
                     "difference is below this (levels).")(f)
    f = policy_option(POLICIES, QUERY_POLICY, "--opponents", "opponents",
                      what="How the other three seats play on")(f)
    f = policy_option(POLICIES, QUERY_POLICY,
                      what="How the asking seat plays on (random is refused: nobody plays "
                           "on at random)")(f)
    return f


RULES = click.option("--rules", "rules", type=click.Choice(sorted(PRESETS)),
                     default=DEFAULT_RULES, show_default=True, help="双升 preset.")


def _bar(max_deals: int, policies: tuple[str, str], quiet: bool):
    return progress_bar(max_deals, "deals (stops at the precision)",
                        hidden=quiet or not is_slow(policies))


def decision_lines(res: dict[str, Any]) -> list[str]:
    """The text report of a decision query."""
    s, q = res["setting"], res["question"]
    standing = f"{s.get('standing') or 'none'}" + (
        f" (seat {s['standing_seat']})" if s.get("standing") else "")
    if q == "declare":
        known = len(s["hand"].split())
        head = (f"declare or pass: seat {res['seat']}, level {s['level']}, banker "
                f"{s['banker']}, standing {standing}" +
                (f"; {known} of its {HAND_SIZE} cards known, the other {HAND_SIZE - known} "
                 "dealt at random with the rest" if known < HAND_SIZE else ""))
    elif q == "bury":
        head = (f"bury: seat {res['seat']}, level {s['level']}, trump {s['trump']}, banker "
                f"{s['banker']}, standing {standing}")
    elif q == "rebel":
        head = (f"造反 or not: seat {res['seat']} ({s['points']} points), level {s['level']}, "
                f"banker {s['banker']}")
    else:
        head = (f"throw or the safest unit: seat {res['seat']} leads trick {s['trick']}, "
                f"level {s['level']}, trump {s['trump']}, banker {s['banker']}")
    lines = [head,
             f"rules {res['rules']}, policy {res['policy']} (others {res['opponents']}), seed "
             f"{res['seed']}, {res['samples']} sampled deals; value: levels gained by the "
             "asking team less the other team's, 95% CI"]
    ref = res["reference"]
    for o in res["options"]:
        cards = f" {o['cards']}" if o["cards"] else ""
        diff = "" if o["option"] == ref else \
            f"   vs {ref}: {format_estimate(o['diff_vs_reference'])}"
        lines.append(f"  {o['option']}{cards}: {format_estimate(o['ev'])}{diff}")
    if res["best_vs_next"] is not None:
        lines.append(f"best {res['best']} over the next best: "
                     f"{format_estimate(res['best_vs_next'])}")
    if res["question"] == "throw":
        lines.append(f"P(the throw stands) {format_estimate(res['p_stands'], signed=False)}; "
                     f"safest unit {res['safest_unit']}")
    lines.append(f"recommendation: {res['recommendation']}")
    return lines


def _print(res: dict[str, Any], as_json: bool) -> None:
    if as_json:
        emit_json(res)
    else:
        click.echo("\n".join(decision_lines(res)))


@click.command("should-declare")
@click.argument("hand", nargs=-1, required=True)
@click.option("--level", required=True, help="The hand's level L: 2–10, J, Q, K or A.")
@click.option("--seat", type=click.IntRange(0, 3), default=0, show_default=True,
              help="The asking seat.")
@click.option("--banker", type=click.IntRange(0, 3), default=0, show_default=True,
              help="The banker (the priority seat).")
@click.option("--standing", default=None,
              help="Cards of the standing declaration (default: none yet).")
@click.option("--standing-seat", type=click.IntRange(0, 3), default=None,
              help="Who showed --standing [default: the seat before the asking seat].")
@RULES
@_options
def should_declare(hand, level, seat, banker, standing, standing_seat, rules, policy,
                   opponents, precision, max_deals, seed, as_json, quiet) -> None:
    """Declare or overcall (which declaration) or pass, holding HAND (up to 25 cards
    known so far) at the seat's turn in the first declaring round?"""
    with _bar(max_deals, (policy, opponents), quiet) as bar:
        res = api.should_declare(" ".join(hand), level, seat, banker, standing,
                                 standing_seat, rules, policy, precision, max_deals,
                                 seed, progress=bar.update, opponents=opponents)
    _print(res, as_json)


@click.command("bury")
@click.argument("hand", nargs=-1, required=True, metavar="HAND33")
@click.option("--level", required=True, help="The hand's level L: 2–10, J, Q, K or A.")
@click.option("--trump", required=True, help="Trump spec: s, h, c, d (or ♠♥♣♦) or nt.")
@click.option("--seat", type=click.IntRange(0, 3), default=0, show_default=True,
              help="The seat burying.")
@click.option("--banker", type=click.IntRange(0, 3), default=None,
              help="The banker [default: --seat].")
@click.option("--standing", default=None,
              help="Cards of the standing declaration [default: the cheapest declaration "
                   "of --trump HAND33 shows; '' for none].")
@click.option("--standing-seat", type=click.IntRange(0, 3), default=None,
              help="Who showed --standing [default: --seat].")
@click.option("--candidate", "candidates", multiple=True,
              help="An 8-card bury to rank too (repeatable).")
@RULES
@_options
def bury(hand, level, trump, seat, banker, standing, standing_seat, candidates, rules,
         policy, opponents, precision, max_deals, seed, as_json, quiet) -> None:
    """Rank 8-card buries (扣底) of HAND33 (hand and kitty): the heuristic's, its
    variants and any --candidate."""
    with _bar(max_deals, (policy, opponents), quiet) as bar:
        res = api.bury(" ".join(hand), level, trump, seat, banker, standing, standing_seat,
                       candidates, rules, policy, precision, max_deals, seed,
                       progress=bar.update, opponents=opponents)
    _print(res, as_json)


@click.command("should-rebel")
@click.argument("hand", nargs=-1, required=True)
@click.option("--seat", type=click.IntRange(0, 3), default=1, show_default=True,
              help="The defender asking.")
@click.option("--banker", type=click.IntRange(0, 3), default=0, show_default=True)
@click.option("--level", default="2", show_default=True,
              help="Both teams' level: 2–10, J, Q, K or A.")
@RULES
@_options
def should_rebel(hand, seat, banker, level, rules, policy, opponents, precision, max_deals,
                 seed, as_json, quiet) -> None:
    """造反 (redeal, 抢庄局) or not, for a defender whose HAND (25 cards) holds fewer
    than 15 points?"""
    with _bar(max_deals, (policy, opponents), quiet) as bar:
        res = api.should_rebel(" ".join(hand), seat, banker, level, rules, policy,
                               precision, max_deals, seed, progress=bar.update,
                               opponents=opponents)
    _print(res, as_json)


@click.command("should-throw")
@click.option("--record", "record_path", required=True, metavar="FILE|-",
              help="A game record stopping where a seat leads a trick.")
@click.option("--cards", default=None,
              help="The throw [default: the heuristic's lead if a throw, else a whole "
                   "suit holding of two units or more, plain suits first].")
@_options
def should_throw(record_path, cards, policy, opponents, precision, max_deals, seed, as_json,
                 quiet) -> None:
    """Throw (甩牌) or lead the safest single unit at a recorded lead? With the sampled
    probability that the throw stands. The record names its rules."""
    record = read_json(record_path)
    with _bar(max_deals, (policy, opponents), quiet) as bar:
        res = api.should_throw(record, cards, policy, precision, max_deals, seed,
                               progress=bar.update, opponents=opponents)
    _print(res, as_json)


def register(group: click.Group) -> None:
    """Add the four decision commands to ``group``."""
    for command in (should_declare, bury, should_rebel, should_throw):
        group.add_command(command)
