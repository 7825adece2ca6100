"""``xianniu dingniu …``: the 顶牛 commands. Bad input raises ValueError, which the main
entry point turns into one line on stderr and exit status 2."""

from __future__ import annotations


import click

from ..cli_common import JSON_OPTION, emit_json
from ..describe import tournament_lines
from ..fileio import read_json
from ..stats import Estimate
from .rules import PRESETS

RULES_OPTION = click.option("--rules", "rules", type=click.Choice(sorted(PRESETS)),
                            default=None, help="顶牛 preset (default standard).")
SEED_OPTION = click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
                           help="Root seed (streams spawned from SeedSequence(seed)).")


def _est(d: dict[str, float], digits: int = 3, signed: bool = True) -> str:
    e = Estimate(**d)
    f = f"{{:{'+' if signed else ''}.{digits}f}}"
    return f"{f.format(e.value)} [{f.format(e.low)}, {f.format(e.high)}] (n={e.n})"


@click.group(name="dingniu")
def group() -> None:
    """顶牛 (Chinese dominoes, 4 players, 24 tiles): see docs/dingniu.md."""


@group.command()
@click.option("--hands", "n", type=click.IntRange(min=2), default=100_000, show_default=True)
@click.option("--policy", default="random", show_default=True,
              help="random or heuristic, or one per seat: a,b,c,d.")
@SEED_OPTION
@RULES_OPTION
@JSON_OPTION
def simulate(n: int, policy: str, seed: int, rules: str | None, as_json: bool) -> None:
    """Mean points, P(win) and 扣 count per seat; P(算帐) and its success rate."""
    from .analysis import simulate as run

    res = run(n, policy, seed, rules)
    if as_json:
        emit_json(res)
        return
    click.echo(f"{res['hands']} hands, policy {policy}, rules {res['rules']}, seed {seed} "
               "(95% CIs)")
    for s in res["seats"]:
        click.echo(f"  seat {s['seat']} {s['name']}: points {_est(s['points'])}  "
                   f"P(win) {_est(s['p_win'], 4, False)}  count {_est(s['count'], 2, False)}")
    click.echo(f"  P(算帐) {_est(res['p_suan'], 4, False)}")
    click.echo(f"  P(算帐 succeeds | 算帐) {_est(res['p_suan_success'], 4, False)}")


@group.command()
@click.option("--deals", "n", type=click.IntRange(min=1), default=200_000, show_default=True)
@SEED_OPTION
@RULES_OPTION
@JSON_OPTION
def odds(n: int, seed: int, rules: str | None, as_json: bool) -> None:
    """Odds of features of the 头牌's hand: exact by counting, and Monte Carlo with CI."""
    from .analysis import odds as run

    res = run(n, seed, rules)
    if as_json:
        emit_json(res)
        return
    click.echo(f"头牌's hand ({res['distinct_hands']} distinct hands); exact, then Monte "
               f"Carlo over {n} deals (seed {seed}, 95% CI)")
    for row in res["features"]:
        click.echo(f"  {row['feature']:<34} {row['exact']:.6f}   "
                   f"{_est(row['monte_carlo'], 6, False)}")


@group.command()
@click.option("--policies", default="heuristic,random", show_default=True,
              help="Two policies, A,B.")
@click.option("--deals", "n", type=click.IntRange(min=2), default=20_000, show_default=True,
              help="Deals; each is played under the 14 seatings with both policies.")
@SEED_OPTION
@RULES_OPTION
@JSON_OPTION
def tournament(policies: str, n: int, seed: int, rules: str | None, as_json: bool) -> None:
    """Duplicate tournament of two policies: mean points per hand and A − B with 95% CI."""
    from .analysis import tournament as run

    res = run(policies, n, seed, rules)
    if as_json:
        emit_json(res.as_dict())
        return
    click.echo("\n".join(tournament_lines(res)))


@group.command(name="best-play")
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
def best_play(file: str | None, hand: str | None, history: str | None, samples: int,
              solve_samples: int | None, seed: int, rules: str | None, as_json: bool) -> None:
    """Rank my legal plays by mean points (heuristic play-outs on sampled deals, 95% CI)."""
    from .analysis import best_play as run

    if (file is None) == (hand is None):
        raise ValueError("give a position file (or -) or --hand with --history, not both")
    if file is not None:
        if history is not None:
            raise ValueError("--history goes with --hand, not with a position file")
        pos = read_json(file)
    else:
        pos = {"hand": hand, "history": history or ""}
    res = run(pos, samples, seed, solve_samples, rules)
    if as_json:
        emit_json(res)
        return
    click.echo(f"{res['position']}")
    click.echo(f"{res['samples']} hidden deals (seed {seed}); every seat then plays the "
               "heuristic; points of my seat, 95% CI")
    for row in res["actions"]:
        line = f"  {row['action']:<12} PIMC {_est(row['pimc'])}"
        if "open_hands" in row:
            line += f"   open hands {_est(row['open_hands'])}"
        if "behind_best" in row:
            line += f"   behind best {_est(row['behind_best'])}"
        click.echo(line)
    oh = res.get("open_hands")
    if oh:
        click.echo(f"open hands (max-n, {oh['samples']} deals, {oh['seconds_per_deal']:.2f} s "
                   f"per deal): best per deal {_est(oh['clairvoyant'])}; one action for all "
                   f"({oh['best_single_action']}) {_est(oh['best_single_action_value'])}; "
                   f"cost of hidden information {_est(oh['cost_of_hidden_information'])}")


@group.command()
@click.argument("file", metavar="FILE|-")
@JSON_OPTION
def replay(file: str, as_json: bool) -> None:
    """Check a 顶牛 game record move by move and print the result."""
    from .records import replay as run

    st = run(read_json(file))
    if as_json:
        emit_json({"log": st.describe(), "over": st.is_terminal(), "end": st.end_reason,
               "totals": st.totals() if st.is_terminal() else None,
               "points": st.returns() if st.is_terminal() else None,
               "to_act": st.current_player()})
        return
    for i, line in enumerate(st.describe()):
        click.echo(f"{i:3d}  {line}")
    if st.is_terminal():
        how = f"算帐 by seat {st.suan_seat}" if st.suan_seat >= 0 else "all tiles out"
        click.echo(f"hand over ({how}); counts {st.totals()}; points "
                   + ", ".join(f"seat {s} {v:+d}" for s, v in enumerate(st.returns())))
    else:
        click.echo(f"record stops before the end; seat {st.current_player()} is to act")


@group.command()
@click.argument("file", metavar="FILE|-")
@JSON_OPTION
def solve(file: str, as_json: bool) -> None:
    """Max-n values with all hands open of a record's position (its deal and actions)."""
    import time

    from .records import replay as run
    from .solver import solve as run_solver
    from .tiles import format_action

    st = run(read_json(file))
    t0 = time.perf_counter()
    sol = run_solver(st)
    secs = time.perf_counter() - t0
    out = {"values": list(sol.values), "best": format_action(sol.action),
           "to_act": st.current_player(), "positions": sol.positions, "seconds": secs}
    if as_json:
        emit_json(out)
        return
    click.echo(f"seat {out['to_act']} to act; best {out['best']}; values (max-n, open hands) "
               + ", ".join(f"seat {s} {v:+d}" for s, v in enumerate(sol.values))
               + f"; {sol.positions} positions in {secs:.2f} s")
