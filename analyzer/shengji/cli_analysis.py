"""``xianniu shengji stats …``: the statistics of :mod:`analyzer.shengji.analysis` as
commands, and their text. Bad input raises ValueError (one line on stderr, exit status 2)."""

from __future__ import annotations

import functools
from typing import Any

import click

from ..core.cli_common import (
    JSON_OPTION,
    deals_option,
    emit_json,
    policy_option,
    progress_bar,
    seed_option,
    stacked,
)
from ..core.stats import format_estimate
from .rules import DEFAULT_RULES, PRESETS
from .sim import POLICIES, is_slow, seat_names

PCT: dict[str, Any] = {"percent": True}  # format_estimate keywords
SWITCHES = ("bajiwo", "rebel")  # analysis.SWITCHES, without importing the kernels here


def _seat_policies(f):
    """``--policies A,B,C,D`` (one per seat), given to ``f`` as its ``policy`` in place of
    ``--policy``'s."""
    @functools.wraps(f)
    def merged(*args, policies: str | None = None, **kwargs):
        if policies is not None:
            kwargs["policy"] = policies
        return f(*args, **kwargs)

    return policy_option(POLICIES, None, "--policies", "policies",
                         "One policy per seat A,B,C,D (overrides --policy)", per_seat=4)(merged)


def _common(default_deals: int, help: str):
    """The options every ``stats`` command shares, named as in every game's statistics;
    pimc is refused (one line): its play-outs are too slow for these batches."""
    options = [
        deals_option(default_deals, help=help, hands_alias=True),
        click.option("--rules", "rules", type=click.Choice(sorted(PRESETS)),
                     default=DEFAULT_RULES, show_default=True, help="双升 preset."),
        policy_option(POLICIES, "heuristic", per_seat=4),
        _seat_policies,
        seed_option("Root seed (numpy SeedSequence); the same seed gives the same "
                          "numbers on any number of threads."),
        JSON_OPTION,
    ]

    return stacked(options)


def _n(e: dict) -> str:
    return format_estimate(e, 3, True)


def _pct(e: dict) -> str:
    return format_estimate(e, **PCT)


def head_line(d: dict[str, Any], what: str) -> str:
    return (f"{what}: {d['deals']:,} deals of whole 双升 hands, rules {d['rules']}, policy "
            f"{d['policy']}, seed {d['seed']}; team levels {d['levels'][0]} and "
            f"{d['levels'][1]} unless stated, seat {d['start_banker']} banker going in; 95% CIs")


def _side_lines(s: dict[str, Any], indent: str = "    ") -> list[str]:
    return [f"{indent}P(banker side holds) {_pct(s['p_banker_holds'])}",
            f"{indent}banker side's level swing per hand {_n(s['banker_swing'])}",
            f"{indent}attackers' points {_n(s['attacker_points'])}"]


def outcomes_lines(d: dict[str, Any]) -> list[str]:
    lines = [head_line(d, "抠底, points and level changes"),
             f"  P(抠底: the attackers take the last trick) {_pct(d['p_kou_di'])}",
             f"  points 抠底 adds per hand {_n(d['points_added_per_hand'])}",
             f"  banker side's levels lost to 抠底 per hand {_n(d['banker_levels_lost_per_hand'])}",
             f"  P(the bank changes hands because of 抠底) {_pct(d['p_bank_lost_to_kou_di'])}",
             "  by multiplier: P(×m); points added; banker levels lost; P(bank lost) given ×m"]
    for b in d["by_multiplier"]:
        lines.append(f"    ×{b['multiplier']:<3} {_pct(b['p'])}; {_n(b['points_added'])}; "
                     f"{_n(b['banker_levels_lost'])}; {_pct(b['p_bank_lost'])}")
    lines.append(f"  attackers' points {_n(d['attacker_points'])}; by value (P ≥ 0.5%; all "
                 "in --json):")
    for e in d["attacker_points_distribution"]:
        if e["value"] >= 0.005:
            lines.append(f"    {e['points']:>4}  {_pct(e)}")
    lines.append("  level change:")
    for e in d["level_change"]:
        lines.append(f"    {e['label']:<32} {_pct(e)}")
    lines.append("  banker side by trump kind:")
    for kind, label in (("all", "all hands"), ("suit", "suit trump"), ("nt", "无主 (NT)")):
        lines.append(f"   {label}" + (f" ({_pct(d['banker_side']['p_nt'])} of hands)"
                                      if kind == "nt" else ""))
        lines += _side_lines(d["banker_side"][kind])
    return lines


def banker_lines(d: dict[str, Any]) -> list[str]:
    lines = [head_line(d, "Banker side by level (both teams at L; the same deals at each L)")]
    for row in d["by_level"]:
        lines.append(f"  L = {row['level']}: 无主 in {_pct(row['p_nt'])} of hands")
        for kind, label in (("all", "all"), ("suit", "suit"), ("nt", "无主")):
            s = row[kind]
            lines.append(f"    {label:<4} P(holds) {_pct(s['p_banker_holds'])}; swing "
                         f"{_n(s['banker_swing'])}")
    return lines


def values_lines(d: dict[str, Any]) -> list[str]:
    lines = [head_line(d, "Counterfactual values (one swap, the same deal and stream)"),
             "  the seat's team, with − without: levels per hand; net attacker points per "
             "hand (n = swapped deals)"]
    for r in d["rows"]:
        lines.append(f"  {r['label']:<48} {r['role']:<11} {_n(r['levels'])}; "
                     f"{_n(r['points'])}")
    return lines


def rule_effect_lines(d: dict[str, Any]) -> list[str]:
    lines = [head_line(d, "Rule on and off on the same deals")]
    for s in d["switches"]:
        lines.append(f"  {s['parameter']} (preset: {s['preset_value']}); acted in "
                     f"{_pct(s['p_acted'])} of hands, changed {_pct(s['p_changed'])}")
        for key in ("on", "off"):
            lines.append(f"   {key}")
            lines += _side_lines(s[key])
        df = s["diff"]
        lines.append(f"   on − off, paired: P(holds) {_n(df['p_banker_holds'])}; swing "
                     f"{_n(df['banker_swing'])}; attackers' points {_n(df['attacker_points'])}")
    return lines


def _study_head(d: dict[str, Any], what: str) -> str:
    return (f"{what}: {d['hands']:,} random hands, {d['deals_per_hand']} deals each, rules "
            f"{d['rules']}, heuristic seats, level {d['level']}, seed {d['seed']}; 95% CIs "
            "across hands (n = hands)")


def bury_lines(d: dict[str, Any]) -> list[str]:
    lines = [_study_head(d, "The heuristic's bury against its variants (the banker's 33 "
                            "cards)"),
             f"  the heuristic's bury is at least as good as every variant on "
             f"{_pct(d['p_heuristic_best'])} of hands",
             "  heuristic − variant, banker side's levels per hand; share of hands where both "
             "bury the same 8"]
    for r in d["rows"]:
        lines.append(f"    {r['rule']:<38} {_n(r['diff'])}; same {_pct(r['p_same'])}")
    return lines


def declare_lines(d: dict[str, Any]) -> list[str]:
    lines = [_study_head(d, "Declaring the longest trump less passing (first declaring "
                            "round)"),
             "  the seat's team's levels per hand, by the declared trump's length"]
    for r in d["rows"]:
        who = "seat 0 (banker going in)" if r["seat"] == 0 else "seat 1 (attacker)"
        span = "all" if r["trump_max"] == 99 and r["trump_min"] == 0 else \
            (f"≥ {r['trump_min']}" if r["trump_max"] == 99 else
             f"{r['trump_min']}–{r['trump_max']}")
        lines.append(f"    {who:<26} trumps {span:<6} {_n(r['diff'])}")
    return lines


LINES = {"outcomes": outcomes_lines, "banker": banker_lines, "values": values_lines,
         "rule-effect": rule_effect_lines, "bury": bury_lines, "declare": declare_lines}


def _show(res: dict[str, Any], as_json: bool) -> None:
    if as_json:
        emit_json(res)
        return
    click.echo("\n".join(LINES[res["analysis"].replace("_", "-")](res)))


@click.group()
def stats() -> None:
    """Statistics of whole hands (heuristic seats by default), every number with n and a
    95% CI: outcomes (抠底, points, level changes), banker (by level and trump kind), values
    (joker pair, level card, trump by one swap), rule-effect (扒鸡窝, 造反 on and off), bury
    (the heuristic's bury against its variants) and declare (declaring against passing)."""


@stats.command()
@_common(20_000, "Whole hands (deals).")
@click.option("--quiet", is_flag=True, help="No progress bar (shown with pimc or pimc2 seats).")
def outcomes(n_deals: int, rules: str, policy: str, seed: int, as_json: bool,
             quiet: bool) -> None:
    """P(抠底) and its value by multiplier; attackers' points and level changes; the
    banker side by trump kind (suit or 无主); pimc and pimc2 seats play at most 2,000."""
    from . import analysis

    analysis.check_policy(policy, rules, slow_hands=n_deals)  # before the bar
    with progress_bar(n_deals, "hands", hidden=quiet or not is_slow(seat_names(policy))) as bar:
        d = analysis.outcomes(n_deals, rules, policy, seed, progress=bar.update)
    _show(d, as_json)


@stats.command()
@_common(20_000, "Deals, played at every level.")
@click.option("--levels", default="2,5,10,K,A", show_default=True,
              help="Levels L, comma-separated (both teams at L).")
def banker(n_deals: int, rules: str, policy: str, seed: int, as_json: bool,
           levels: str) -> None:
    """The banker side's advantage by level and trump kind, on the same deals."""
    from . import analysis

    lv = [x.strip() for x in levels.split(",") if x.strip()]
    _show(analysis.banker_by_level(n_deals, rules, policy, seed, lv), as_json)


@stats.command()
@_common(5_000, "Deals (each is played once more per pattern).")
def values(n_deals: int, rules: str, policy: str, seed: int, as_json: bool) -> None:
    """What 对大王, 对小王, one more level card and one more trump are worth, by one swap
    on the same deal."""
    from . import analysis

    _show(analysis.values(n_deals, rules, policy, seed), as_json)


@stats.command("rule-effect")
@_common(20_000, "Deals, each played with the rule on and off.")
@click.option("--switch", "switches", type=click.Choice(SWITCHES),
              multiple=True, help="Only these rules (default: bajiwo and rebel).")
def rule_effect(n_deals: int, rules: str, policy: str, seed: int, as_json: bool,
                switches: tuple[str, ...]) -> None:
    """How much 扒鸡窝 and 造反 change outcomes: the same deals with the rule on and off."""
    from . import analysis

    _show(analysis.rule_effect(n_deals, rules, policy, seed,
                               switches or SWITCHES), as_json)


def _study(default_hands: int):
    options = [
        click.option("--hands", "n_hands", type=click.IntRange(min=1), default=default_hands,
                     show_default=True, help="Random hands asked."),
        click.option("--samples", type=click.IntRange(min=32), default=64, show_default=True,
                     help="Deals per hand (a multiple of 32), every option on each."),
        click.option("--rules", "rules", type=click.Choice(sorted(PRESETS)),
                     default=DEFAULT_RULES, show_default=True, help="双升 preset."),
        seed_option("Root seed (numpy SeedSequence): one child per hand."),
        JSON_OPTION,
    ]

    return stacked(options)


@stats.command("bury")
@_study(200)
def bury_study(n_hands: int, samples: int, rules: str, seed: int, as_json: bool) -> None:
    """The heuristic's bury against the buries of its variants over random banker hands
    (33 cards, level 2, trump its longest suit): heuristic − variant in levels."""
    from .study import bury_study as run

    _show(run(n_hands, rules, seed, samples), as_json)


@stats.command("declare")
@_study(400)
def declare_study(n_hands: int, samples: int, rules: str, seed: int, as_json: bool) -> None:
    """Declaring the longest trump against passing over random hands that can declare
    (seat 0, the banker going in, and seat 1, an attacker), by trump length."""
    from .study import declare_study as run

    _show(run(n_hands, rules, seed, samples), as_json)
