"""``xianniu record …``: game records of every game, between JSON and the text notation
(:mod:`analyzer.core.notation`, ``docs/records.md``)."""

from __future__ import annotations

import click

from .fileio import check_out_folder, parse_json, read_text, write_atomic
from .limits import OutFile
from .notation import from_text, game_of_text, to_text
from .records import dumps, refuse_json_list


@click.group(name="record")
def record() -> None:
    """Game records of every game: JSON and the text notation (docs/records.md)."""


@record.command()
@click.argument("source", metavar="FILE|-")
@click.option("--to", "to", type=click.Choice(["text", "json"]), default=None,
              help="What to write (default: text for a JSON record, JSON for a text one).")
@click.option("--out", "out_path", type=OutFile(), default=None,
              help="Write here (whole or not at all) instead of standard output.")
def convert(source: str, to: str | None, out_path: str | None) -> None:
    """Convert a game record between JSON and the text notation; every action is replayed,
    and the first impossible one is named (its index and token)."""
    from ..games import DEFAULT_GAME, game_of_record, get_game

    check_out_folder(out_path)
    text = read_text(source)
    refuse_json_list(text, source)
    if text.lstrip().startswith("{"):
        rec = parse_json(text, source)
        game = game_of_record(rec)
        recs = game.part("records")
        recs.replay(recs.complete(rec, 0))  # checked
    else:
        game = get_game(game_of_text(text, DEFAULT_GAME))
        rec = from_text(game, text)
        to = to or "json"
    out = to_text(game, rec) if (to or "text") == "text" else dumps(rec)
    if out_path:
        write_atomic(out_path, out)
    else:
        click.echo(out, nl=False)
