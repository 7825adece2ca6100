"""``xianniu library …``: the player's library of hands (:mod:`analyzer.core.library`,
``docs/library.md``)."""

from __future__ import annotations

import click

from .cli_common import JSON_OPTION, LazyProgressBar, emit_json
from .fileio import check_out_folder
from .library import Filter, Library, default_path, parse_when
from .limits import backend_option

LIBRARY_OPTION = click.option(
    "--library", "library_path", default=None, metavar="PATH",
    help="The library file (default: $XIANNIU_LIBRARY, else library.sqlite in the user's "
         "data folder).")


def _filter_options(f):
    for option in reversed([
        click.option("--game", default=None, help="Only hands of this game."),
        click.option("--preset", "--rules", "preset", default=None,
                     help="Only hands under this rule preset."),
        click.option("--tag", default=None, help="Only hands with this tag."),
        click.option("--since", default=None, metavar="DATE",
                     help="Only hands played on or after DATE (2026-12-07)."),
        click.option("--until", default=None, metavar="DATE",
                     help="Only hands played on or before DATE (the whole day)."),
    ]):
        f = option(f)
    return f


def _filter(game: str | None, preset: str | None, tag: str | None, since: str | None,
            until: str | None) -> Filter:
    if game is not None:
        from ..games import get_game

        get_game(game)  # an unknown game is refused by name
    end = None
    if until is not None:
        end = parse_when(until, "--until")
        if "T" not in until:  # a date: to its last second
            end = end[:10] + "T23:59:59Z"
    return Filter(game=game, preset=preset, tag=tag,
                  since=parse_when(since, "--since") if since else None, until=end)


def _open(path: str | None, create: bool = True) -> Library:
    return Library(path, create=create)


@click.group(name="library")
def library() -> None:
    """The player's library of hands: every hand played at a table, and records imported
    (docs/library.md)."""


@library.command()
@click.argument("sources", nargs=-1, required=True, metavar="RECORD|FOLDER|FILE.jsonl...")
@click.option("--seat", type=click.IntRange(min=0), default=None,
              help="The player's seat in these hands (default: the only hand a record marks "
                   "known, else not set).")
@click.option("--played", default=None, metavar="DATE",
              help="When the hands were played (default: now).")
@click.option("--tag", "tags", multiple=True, help="A tag for every hand (repeatable).")
@click.option("--quiet", is_flag=True, help="No progress.")
@LIBRARY_OPTION
@JSON_OPTION
def add(sources: tuple[str, ...], seat: int | None, played: str | None, tags: tuple[str, ...],
        quiet: bool, library_path: str | None, as_json: bool) -> None:
    """Import records of any game: JSON (.json), JSON lines (.jsonl), the text notation, or
    folders of them. A hand already in the library is recognised, not stored twice; a
    record that is not a whole legal hand is refused with its reason (status 2), the
    others are kept."""
    from .library import check_tag
    from .library_import import import_records, read_sources

    when = parse_when(played, "--played") if played else None
    tags = tuple(check_tag(t) for t in tags)
    items = read_sources(sources)
    with _open(library_path) as lib, \
            LazyProgressBar(len(items), "records", hidden=quiet or len(items) < 200) as bar:
        report = import_records(lib, items, seat=seat, played=when, tags=tags, progress=bar)
        where = lib.path
    if as_json:
        emit_json({"library": str(where), **report.as_dict()})
    else:
        click.echo(f"{where}: {report.added:,} added, {report.duplicates:,} already there, "
                   f"{len(report.refused):,} refused")
    for place, why in report.refused:
        click.echo(f"xianniu: refused {place}: {why}", err=True)
    if report.refused:
        raise click.exceptions.Exit(2)


@library.command(name="list")
@_filter_options
@click.option("--limit", type=click.IntRange(min=1), default=None, help="At most this many.")
@LIBRARY_OPTION
@JSON_OPTION
def list_(game, preset, tag, since, until, limit, library_path, as_json) -> None:
    """The hands in the library, in the order they were played."""
    which = _filter(game, preset, tag, since, until)
    with _open(library_path) as lib:
        hands = lib.hands(which, limit)
    if as_json:
        emit_json([h.as_dict() for h in hands])
        return
    if not hands:
        click.echo("no hands")
        return
    click.echo(f"{'id':>6}  {'played':<20} {'game':<8} {'rules':<10} {'seat':>4} "
               f"{'result':>6}  tags")
    for h in hands:
        seat = "-" if h.seat is None else str(h.seat)
        result = "-" if h.result is None else f"{h.result:+d}"
        click.echo(f"{h.id:>6}  {h.played:<20} {h.game:<8} {h.preset:<10} {seat:>4} "
                   f"{result:>6}  {', '.join(h.tags)}")


@library.command()
@click.argument("hand_id", type=int)
@click.option("--text", "as_text", is_flag=True, help="In the text notation, not JSON.")
@LIBRARY_OPTION
def show(hand_id: int, as_text: bool, library_path: str | None) -> None:
    """One stored hand's record."""
    from .records import dumps

    with _open(library_path, create=False) as lib:
        record = lib.record(hand_id)
    if as_text:
        from ..games import game_of_record
        from .notation import to_text

        click.echo(to_text(game_of_record(record), record), nl=False)
    else:
        click.echo(dumps(record), nl=False)


@library.command()
@click.argument("hand_ids", nargs=-1, type=int, required=True)
@click.option("--tag", "tags", multiple=True, required=True, help="The tag (repeatable).")
@click.option("--remove", is_flag=True, help="Take the tags away instead.")
@LIBRARY_OPTION
def tag(hand_ids: tuple[int, ...], tags: tuple[str, ...], remove: bool,
        library_path: str | None) -> None:
    """Tag hands (or untag them with --remove)."""
    with _open(library_path, create=False) as lib:
        lib.tag(hand_ids, tags, remove=remove)
    click.echo(f"{'untagged' if remove else 'tagged'} {len(hand_ids)} hand(s)")


@library.command()
@click.argument("hand_ids", nargs=-1, type=int, required=True)
@click.option("--seat", type=click.IntRange(min=0), required=True,
              help="The player's seat in these hands.")
@LIBRARY_OPTION
def seat(hand_ids: tuple[int, ...], seat: int, library_path: str | None) -> None:
    """Say which seat was yours in hands stored without one (the split needs it)."""
    with _open(library_path, create=False) as lib:
        lib.set_seat(hand_ids, seat)
    click.echo(f"seat {seat} for {len(hand_ids)} hand(s)")


@library.command()
@click.argument("hand_ids", nargs=-1, type=int, required=True)
@LIBRARY_OPTION
def remove(hand_ids: tuple[int, ...], library_path: str | None) -> None:
    """Delete hands from the library."""
    with _open(library_path, create=False) as lib:
        n = lib.remove(hand_ids)
    click.echo(f"removed {n} hand(s)")


@library.command()
@click.argument("out", metavar="FILE.jsonl|FOLDER")
@_filter_options
@LIBRARY_OPTION
def export(out, game, preset, tag, since, until, library_path) -> None:
    """Write the hands' records: one JSON-lines file, or one .json a hand into a folder."""
    from .library_import import export as write

    if out.endswith(".jsonl"):
        check_out_folder(out)
    which = _filter(game, preset, tag, since, until)
    with _open(library_path, create=False) as lib:
        n = write(lib, out, which)
    click.echo(f"wrote {n:,} record(s) to {out}")


@library.command()
@_filter_options
@click.option("--samples", type=click.IntRange(min=32), default=None,
              help="Redealt hands the deal's value is estimated on (default 256).")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="Root seed: a hand's split is seeded by it and the hand itself.")
@click.option("--each", is_flag=True, help="A line per hand too, not only the summary.")
@backend_option("Split the hands here, one after another, or as tasks on a Dask cluster "
                "(the same numbers).")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Dask scheduler address (default: a LocalCluster on this machine).")
@click.option("--quiet", is_flag=True, help="No progress.")
@LIBRARY_OPTION
@JSON_OPTION
def split(game, preset, tag, since, until, samples, seed, each, backend, scheduler, quiet,
          library_path, as_json) -> None:
    """Luck and skill: each hand's result for the player's seat split into the deal, the
    decisions and the lie of the cards (docs/library.md), kept in the library; the mean of
    each per game, the decisions' losses by kind, and the trend by week, with 95% CIs."""
    from .luck import DEFAULT_SAMPLES, split_library
    from .luck_text import split_json, split_lines

    which = _filter(game, preset, tag, since, until)
    with _open(library_path) as lib, LazyProgressBar(1, "hands", hidden=quiet) as bar:
        pairs, left = split_library(lib, which, seed=seed,
                                    deal_samples=samples or DEFAULT_SAMPLES, progress=bar,
                                    backend=backend, scheduler=scheduler)
    if as_json:
        emit_json(split_json(pairs, left, seed))
        return
    click.echo("\n".join(split_lines(pairs, left, each)))


@library.command()
@LIBRARY_OPTION
@JSON_OPTION
def info(library_path: str | None, as_json: bool) -> None:
    """Where the library is, its schema version, and its hands by game."""
    path = library_path or str(default_path())
    with _open(library_path) as lib:
        schema, hands = lib.schema_version, lib.counts()
    if as_json:
        emit_json({"library": path, "schema": schema, "hands": hands})
        return
    counts = ", ".join(f"{g} {n:,}" for g, n in hands.items()) or "no hands"
    click.echo(f"{path} (schema {schema}): {counts}")


def table_library_option(f):
    """``--library PATH`` and ``--no-library`` of every game's ``play``."""
    f = click.option("--no-library", is_flag=True,
                     help="Do not store the hands played in the library.")(f)
    return LIBRARY_OPTION(f)


def table_library(path: str | None, off: bool) -> str | None:
    """The library a table stores its hands in (None with ``--no-library``), opened once
    here so that a file that cannot be a library is refused before the table starts."""
    if off:
        return None
    with _open(path) as lib:
        return str(lib.path)
