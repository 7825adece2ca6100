"""``xianniu shengji solve RECORD``: the open-hand value of the play position where a record
stops (:mod:`analyzer.shengji.solver`), added to the ``shengji`` group by ``register``; the
options are those of ``xianniu solve``."""

from __future__ import annotations

from typing import Any

import click

from ..core.cli_common import JSON_OPTION, emit_json
from ..core.fileio import read_json
from . import api
from .rules import DEFAULT_RULES, PRESETS


def solve_line(d: dict[str, Any]) -> str:
    """The solved value of a position (:func:`analyzer.shengji.api.solve_record`), one
    line."""
    side = ("the banker side holds" if d["winner"] == "banker"
            else "the attackers take the bank") + f", +{d['levels']} level" + (
        "s" if d["levels"] != 1 else "")
    return (f"seat {d['to_act']} to act; best {d['best_text']}; attackers' points "
            f"{d['attacker_points']} ({d['points_so_far']} so far, {d['points_to_come']:+d} "
            f"to come; minimax, all hands open); {side}; {d['positions']} positions in "
            f"{d['seconds']:.2f} s")


@click.command("solve")
@click.argument("file", metavar="FILE|-")
@click.option("--rules", "rules", type=click.Choice(sorted(PRESETS)), default=None,
              help=f"双升 preset (default: the record's; {DEFAULT_RULES} when it names none).")
@click.option("--engine", type=click.Choice(["kernel", "reference"]), default="kernel",
              show_default=True,
              help="kernel: the jit-compiled alpha-beta; reference: plain minimax over the "
                   "engine (slow: the last tricks only).")
@click.option("--max-positions", type=int, default=50_000_000, show_default=True,
              help="kernel: give up (exit 2) after searching this many positions.")
@JSON_OPTION
def solve(file: str, rules: str | None, engine: str, max_positions: int,
          as_json: bool) -> None:
    """The attackers' points and the level outcome under exact play with all four hands
    open, and the best action, at the play position where a record stops (--rules
    overrides the record's preset)."""
    res = api.solve_record(read_json(file), rules, engine, max_positions)
    if as_json:
        emit_json(res)
        return
    click.echo(solve_line(res))


def register(group: click.Group) -> None:
    """Add ``solve`` to ``group``."""
    group.add_command(solve)
