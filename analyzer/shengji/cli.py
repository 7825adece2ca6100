"""``xianniu shengji …``: the 郑州双升 rule commands. Each parses its options, calls one
function of ``analyzer.shengji.api`` and prints the result; bad input raises ValueError,
which the main entry point turns into one line on stderr and exit status 2."""

from __future__ import annotations

import functools
import unicodedata
from typing import Any

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
from ..core.limits import count_option
from . import api
from .batch import COSTS
from .rules import DEFAULT_RULES, PRESETS, get_rules, with_changes
from .sim import POLICIES, QUERY_POLICY, is_slow

CARDS_HELP = "Cards such as 'As 10h Td ♠K♠K 5d5d 大王 小王 BJ LJ'."
RULES_OPTION = click.option("--rules", "rules", type=click.Choice(sorted(PRESETS)),
                            default=DEFAULT_RULES, show_default=True, help="双升 preset.")


def rules_with_changes(f):
    """``--rules`` and the repeatable ``--rule PARAM=VALUE`` (one rule parameter changed on
    top of the preset, docs/rules/shengji.md §8), given to the command as one rules value."""
    @functools.wraps(f)
    def command(*args, rule_changes: tuple[str, ...] = (), **kwargs):
        kwargs["rules"] = with_changes(kwargs["rules"], rule_changes)
        return f(*args, **kwargs)
    option = click.option("--rule", "rule_changes", multiple=True, metavar="PARAM=VALUE",
                          help="Change one rule parameter of the preset, e.g. "
                               "kitty_multiplier=times_size (repeatable).")
    return RULES_OPTION(option(command))

LEVEL_OPTION = click.option("--level", required=True,
                            help="Level (级) of the hand: 2–10, J, Q, K or A.")
SIMULATE_POLICY = "random"  # the policy simulate plays by default
TRUMP_OPTION = click.option("--trump", required=True,
                            help="Trump spec: s, h, c, d (or ♠♥♣♦) or nt (无主).")
SUITS = {"s": "♠", "h": "♥", "c": "♣", "d": "♦", "trump": "主 (trump)", "mixed": "mixed suits"}


@click.group(name="shengji")
def group() -> None:
    """郑州双升 (升级 / 拖拉机; 4 players, 108 cards): rule queries, deal odds, game replays
    and batch runs of whole hands."""


@group.command()
@batch_options(COSTS["simulate"], 4, POLICIES, SIMULATE_POLICY)
@RULES_OPTION
@click.option("--play-only", "play_only", is_flag=True,
              help="Play-only hands instead: no bidding or bury (level 2, trump ♠, banker "
                   "seat 0, the dealt kitty).")
def simulate(n_hands: int, rules: str, policy: str, policies: str | None, seed: int,
             out_path: str | None, fmt: str | None, backend: str, scheduler: str | None,
             resume: bool, records_path: str | None, quiet: bool, as_json: bool,
             play_only: bool) -> None:
    """Whole hands from the deal (造反, declaring, 下台, bury, 扒鸡窝, play; team levels 2 and
    2, seat 0 banker going in), every seat random unless --policy or --policies says
    otherwise: attackers' points, P(banker side holds), 抠底, level changes, P(造反), P(下台),
    P(random trump), per team and per seat, with 95% CIs. Play-only hands are random
    only."""
    with interruptible(), progress_bar(n_hands, hidden=quiet or n_hands < 500_000) as bar:
        data = api.simulate(n_hands, rules, policies or policy, seed, out_path,
                            output_format(fmt, as_json), backend, scheduler, resume,
                            records_path, progress=bar.update, play_only=play_only)
    if not out_path:
        click.echo(data if isinstance(data, str) else data.decode(), nl=False)


def _units(units: list[dict[str, Any]]) -> str:
    names = {"single": "single (单牌)", "pair": "pair (对子)"}
    return " · ".join(
        f"{names.get(u['kind'], 'tractor (拖拉机) of ' + str(u['pairs']) + ' pairs')} "
        f"{u['cards']}" for u in units)


@group.command()
@click.argument("cards", nargs=-1, required=True)
@LEVEL_OPTION
@TRUMP_OPTION
@rules_with_changes
@JSON_OPTION
def classify(cards: tuple[str, ...], level: str, trump: str, rules: str, as_json: bool) -> None:
    """Effective suit (门) and canonical units of CARDS (one string or several arguments)."""
    res = api.classify(" ".join(cards), level, trump, rules)
    if as_json:
        emit_json(res)
        return
    click.echo(f"{SUITS[res['suit']]}: {_units(res['units'])}")


@group.command()
@LEVEL_OPTION
@TRUMP_OPTION
@click.option("--lead", required=True, help="The lead (the trick's format). " + CARDS_HELP)
@click.option("--hand", required=True, help="The follower's whole hand, PLAY included.")
@click.option("--play", required=True,
              help="The follow; cards not in HAND are bad input (exit 2), not an illegal play.")
@rules_with_changes
@JSON_OPTION
def legal(level: str, trump: str, lead: str, hand: str, play: str, rules: str,
          as_json: bool) -> None:
    """May a player holding HAND follow LEAD with PLAY (follow duty, §5.3)?"""
    res = api.legal(lead, hand, play, level, trump, rules)
    if as_json:
        emit_json(res)
        return
    click.echo(f"{'legal' if res['legal'] else 'illegal'}: {res['reason']}")


@group.command()
@LEVEL_OPTION
@TRUMP_OPTION
@click.option("--plays", required=True,
              help="Four plays in play order, the lead first: 'P0 | P1 | P2 | P3'.")
@rules_with_changes
@JSON_OPTION
def winner(level: str, trump: str, plays: str, rules: str, as_json: bool) -> None:
    """Which of the four plays wins the trick (毙, 盖毙), and its points."""
    res = api.winner(plays, level, trump, rules)
    if as_json:
        emit_json(res)
        return
    click.echo(f"play {res['winner']} wins the trick; {res['points']} points in it")


def _and(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


# what a failed throw leads instead, by the rule throw_fail_play (docs/rules/shengji.md §5.2)
_FAIL_PLAY = {"largest_failed_shape": "the lowest beaten unit of the largest beaten shape",
              "smallest_card": "the throw's smallest card",
              "first_failed_unit": "the smallest unit that the first hand to beat one beats"}


@group.command()
@LEVEL_OPTION
@TRUMP_OPTION
@click.option("--cards", required=True, help="The throw (甩牌). " + CARDS_HELP)
@click.option("--others", required=True,
              help="The three other hands in play order from the thrower's 下家: 'H1 | H2 | H3'.")
@rules_with_changes
@JSON_OPTION
def throw(level: str, trump: str, cards: str, others: str, rules: str, as_json: bool) -> None:
    """Does a throw stand against the other hands, and what is actually led?"""
    res = api.throw(cards, others, level, trump, rules)
    if as_json:
        emit_json(res)
        return
    if res["stands"]:
        click.echo(f"the throw stands; led: {res['played']}")
        return
    by_seat: dict[str, list[str]] = {}
    for b in res["beaten"]:
        by_seat.setdefault(b["seat"], []).append(f"{b['beaten_by']} over the {b['kind']} "
                                                 f"{b['unit']}")
    why = "; ".join(f"{seat} holds {_and(over)}" for seat, over in by_seat.items())
    click.echo(f"the throw fails: {why}; led instead: {res['played']} "
               f"({_FAIL_PLAY[get_rules(rules).throw_fail_play]}, rule throw_fail_play)")


@group.command()
@LEVEL_OPTION
@click.option("--standing", default="", show_default=True,
              help="The standing declaration; empty: nothing declared yet.")
@click.option("--new", "new", required=True,
              help="The new declaration's cards (with --same-player the whole reinforced one).")
@click.option("--same-player", is_flag=True, help="The standing declarer shows NEW (加固).")
@rules_with_changes
@JSON_OPTION
def overcall(level: str, standing: str, new: str, same_player: bool, rules: str,
             as_json: bool) -> None:
    """May NEW be declared over STANDING (亮主, 反主, 加固)?"""
    res = api.overcall(standing, new, level, same_player, rules)
    if as_json:
        emit_json(res)
        return
    click.echo("valid" if res["valid"] else f"not valid: {res['reason']}")


@group.command()
@LEVEL_OPTION
@TRUMP_OPTION
@click.option("--points", "points_before", type=int, required=True,
              help="The attackers' points from tricks, before 抠底.")
@click.option("--kitty", required=True, help="The final kitty (底牌); its point cards suffice.")
@click.option("--last-trick", default=None,
              help="The last trick's winning play (it decides the 抠底 multiplier).")
@click.option("--last-by", type=click.Choice(api.SIDES), default=None,
              help="Who took the last trick [default: attackers with --last-trick, "
                   "else banker].")
@rules_with_changes
@JSON_OPTION
def score(level: str, trump: str, points_before: int, kitty: str, last_trick: str | None,
          last_by: str | None, rules: str, as_json: bool) -> None:
    """Score a hand: 抠底 multiplier, the attackers' points, who wins, levels gained."""
    res = api.score(points_before, kitty, level, trump, last_trick, last_by, rules)
    if as_json:
        emit_json(res)
        return
    kou = f"抠底 ×{res['multiplier']}" if res["multiplier"] else "no 抠底"
    side = ("the banker side keeps the bank" if res["winner"] == "banker"
            else "the attackers take the bank")
    click.echo(f"{kou}; attackers' points {res['attacker_points']}: {side}, "
               f"+{res['levels']} level{'s' if res['levels'] != 1 else ''}")


def _pct(p: float) -> str:
    """A probability as a percentage, four decimals (the exact values' six as a fraction),
    right-aligned so that the columns line up."""
    return f"{100 * p:8.4f}%"


def _mc(row: dict[str, Any]) -> str:
    if "monte_carlo" not in row:
        return ""
    e = row["monte_carlo"]
    mark = "  *" if row.get("outside_ci") else ""
    return f"   {_pct(e['value'])} [{_pct(e['low']).strip()}, {_pct(e['high']).strip()}]{mark}"


def _width(text: str) -> int:
    """Terminal columns: CJK characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _echo_rows(rows: list[dict[str, Any]], key: str, width: int) -> None:
    shown = [r for r in rows if r["exact"] >= 1e-6]
    for r in shown:
        click.echo(f"  {r[key]:>{width}}  {_pct(r['exact'])}{_mc(r)}")
    if len(shown) < len(rows):
        click.echo(f"  ({len(rows) - len(shown)} rows below 0.0001% not shown; all are in "
                   f"--json)")


@group.command()
@click.option("--level", default="2", show_default=True,
              help="Level (级) of the hand: 2–10, J, Q, K or A.")
@click.option("--trump", default=None,
              help="Trump spec for the trump length [default: ♠, every suit alike]; NT is "
                   "always shown too.")
@count_option("--deals", "deals", 200_000, 0, COSTS["odds"], show_default=True,
              help="Monte Carlo deals beside the exact values (0: exact only).")
@seed_option("Seed of the deals (numpy SeedSequence).")
@rules_with_changes
@JSON_OPTION
def odds(level: str, trump: str | None, deals: int, seed: int, rules: str,
         as_json: bool) -> None:
    """Deal odds for one player's 25 cards: exact by counting, Monte Carlo with 95% CI."""
    res = api.odds(level, trump, deals, seed, rules)
    if as_json:
        emit_json(res)
        return
    mc = (f"; Monte Carlo over {deals:,} deals, seed {seed}, 95% Wilson CI (* marks an exact "
          f"value outside its CI: about 1 in 20 is, by chance)" if deals else "")
    click.echo(f"one player's 25 cards, level {level}, rules {res['rules']}: chances in %, "
               f"exact{mc}")
    width = max(_width(row["label"]) for row in res["features"])
    for row in res["features"]:
        pad = " " * (width - _width(row["label"]))
        click.echo(f"  {row['label']}{pad}  {_pct(row['exact'])}{_mc(row)}")
    pts = res["points"]
    click.echo(f"point total (mean {pts['mean']['exact']:.4f}):")
    _echo_rows(pts["rows"], "points", 3)
    for block in res["trump_length"]:
        click.echo(f"trump length, trump {block['trump']} ({block['trump_cards']} 主 cards; "
                   f"mean {block['mean']['exact']:.4f}):")
        _echo_rows(block["rows"], "length", 3)
    if "check" in res:
        c = res["check"]
        click.echo(f"{c['outside_ci']} of {c['rows']} exact values outside their 95% CI "
                   f"(marked *); chance predicts {c['expected_outside']}")


@group.command()
@click.argument("file", metavar="FILE|-")
@JSON_OPTION
def replay(file: str, as_json: bool) -> None:
    """Check a 双升 game record action by action; name the first illegal one."""
    out = api.replay(read_json(file))
    if as_json:
        emit_json(out)
        return
    click.echo("\n".join(out["lines"]))
    if out["finished"]:
        r = out["result"]
        side = "the banker side" if r["winner"] == "banker" else "the attackers"
        click.echo(f"result: attackers' points {r['attacker_points']} (抠底 ×"
                   f"{r['kitty_multiplier']}), {side} win; levels {r['levels']}, "
                   f"next banker seat {r['next_banker']}")
    else:
        click.echo(f"record stops in the {out['phase']} phase; seat {out['to_act']} is to act")



# a search seat's budget, the progress bar and --json: the options of every command whose
# seats may search
SEARCH_OUTPUT_OPTIONS = stacked([
    click.option("--pimc-samples", type=click.IntRange(min=1), default=None,
                 help="Hidden deals a pimc seat samples per decision (default: its policy's "
                      "own, pimc 16 and pimc2 128)."),
    click.option("--quiet", is_flag=True, help="No progress bar."),
    JSON_OPTION,
])

@group.command()
@click.option("--policies", default="heuristic,random", show_default=True,
              help=policy_help(POLICIES, None, "Two policies A,B, A on one team and B on "
                               "the other"))
@deals_option(20_000, help="Deals; each is played twice, the teams swapped.",
              cost=COSTS["tournament"])
@rules_with_changes
@seed_option("Seed of the deals and draws (numpy SeedSequence).")
@SEARCH_OUTPUT_OPTIONS
def tournament(policies: str, n_deals: int, rules: str, seed: int, pimc_samples: int | None,
               quiet: bool, as_json: bool) -> None:
    """Team duplicate tournament: A on one team, B on the other, each deal again with the
    teams swapped; levels and attackers' points per deal, A − B with 95% CIs."""
    from .tournament import policy_pair, tournament_lines

    slow = is_slow(policy_pair(policies))  # the names checked before the bar
    with progress_bar(n_deals, "deals", hidden=quiet or (n_deals < 50_000 and not slow)) as bar:
        res = api.tournament(policies, n_deals, rules, seed, pimc_samples,
                             progress=bar.update)
    emit(res, as_json, tournament_lines)


_BOT_POLICIES = {name: POLICIES[name] for name in ("net", "tuned", "heuristic", "random")}


@group.command()
@RULES_OPTION
@policy_option(_BOT_POLICIES, QUERY_POLICY, name="--opponents", dest="opponents",
               what="The policy of the three bots (your partner too)")
@seed_option("Seed of the session's hands (default: a fresh seed, shown on the page).", fresh=True)
@click.option("--port", type=click.IntRange(0, 65535), default=0,
              help="Port on 127.0.0.1 (default: any free one).")
@click.option("--no-open", is_flag=True, help="Do not open the browser.")
@table_library_option
def play(rules: str, opponents: str, seed: int | None, port: int, no_open: bool,
         library_path: str | None, no_library: bool) -> None:
    """Play hands with a bot partner against two bots in the browser, from the deal to the
    settlement, with advice (advise), review and records (served on 127.0.0.1 only, no
    network needed)."""
    from ..web.open import play_table
    from .web import make_app

    play_table("shengji", lambda library: make_app(rules, opponents, seed, library=library),
               library_path, no_library, port, open_browser=not no_open)


# ``settle``: the command's earlier name, kept hidden for scripts that use it
group.add_command(click.Command("settle", params=score.params, callback=score.callback,
                                help=score.help, hidden=True))

from .cli_analysis import stats  # noqa: E402  (xianniu shengji stats …)

group.add_command(stats)

from .cli_decision import register  # noqa: E402  (should-declare, bury, should-rebel, should-throw)

register(group)

from .cli_advise import register as register_advise  # noqa: E402  (advise, review)

register_advise(group)

from .cli_solve import register as register_solve  # noqa: E402  (solve)

register_solve(group)


@group.command("best-response")
@responder_options(POLICIES, QUERY_POLICY, "pimc2")
@deals_option(1_000, help="Deals (whole hands, team levels 2 and 2, seat 0 banker going "
                          "in); each is played with the player in every seat, then with the "
                          "responder alone in each seat (5 seatings).")
@rules_with_changes
@seed_option("Seed of the deals and draws (numpy SeedSequence).")
@SEARCH_OUTPUT_OPTIONS
def best_response(player: str, responder: str, n_deals: int, rules: str, seed: int,
                  pimc_samples: int | None, quiet: bool, as_json: bool) -> None:
    """How exploitable a player is, from below: one searching seat against it (its partner
    and both opponents the player), less the player in that seat on the same deals, in
    levels of the seat's team a hand (docs/policies.md)."""
    with progress_bar(n_deals, "deals", hidden=quiet) as bar:
        res = api.best_response(n_deals, rules, seed, player, responder, pimc_samples,
                                progress=bar.update)
    emit(res, as_json, best_response_lines)
