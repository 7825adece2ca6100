"""``xianniu serve`` and the three ``play`` shortcuts into it: the tables, the library and
the report on one page on 127.0.0.1 (:mod:`.home`)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import click

from ..core.library_cli import LIBRARY_OPTION, table_library
from .server import serve as serve_app

REPORT = "xianniu-report"  # the report command's default folder


def tables(library: str | None, own: dict[str, Any] | None = None) -> dict[str, Any]:
    """Every registered game's table app storing its hands in ``library``; ``own`` gives
    ready-made apps for some games (a ``play`` command's, with its options)."""
    from ..games import GAMES

    out = {}
    for name, game in GAMES.items():
        if own and name in own:
            out[name] = own[name]
        else:
            out[name] = game.part("web").make_app(library=library)
    return out


def report_folder(path: str | None) -> Path | None:
    """The report folder to serve: ``path`` (it must hold report.html), else
    ``./xianniu-report`` when it does, else none."""
    folder = Path(path if path is not None else REPORT)
    if (folder / "report.html").is_file():
        return folder
    if path is not None:
        raise ValueError(f"--report {path}: no report.html there (write one with xianniu "
                         f"report --out {path})")
    return None


def _warm_in_background(apps: list[Any]) -> None:
    """Load (or compile) the tables' bots while the page is already served."""
    def warm() -> None:
        for app in apps:
            app.state.game.warmup()
    threading.Thread(target=warm, daemon=True, name="warm-tables").start()


def play_table(name: str, make_app: Any, library_path: str | None, no_library: bool,
               port: int, open_browser: bool) -> None:
    """A game's ``play``: its table (``make_app(library)``, the command's options in it,
    storing its hands in the library) in the app of ``xianniu serve``, the browser opened
    at it; with ``--no-library``, the table alone. The port is checked before the library
    is opened (a taken port makes no file)."""
    from .home import make_home
    from .server import check_port

    port = check_port(port)
    library = table_library(library_path, no_library)
    app = make_app(library)
    if library is None:
        serve_app(app, port, open_browser=open_browser, say=click.echo)
        return
    app.state.game.warmup()
    home = make_home(library, tables(library, {name: app}), report_folder(None))
    serve_app(home, port, open_browser=open_browser, say=click.echo, path=f"/{name}/")


@click.command()
@LIBRARY_OPTION
@click.option("--report", "report", default=None, metavar="FOLDER",
              help=f"The report folder to show (default: ./{REPORT} when it holds one).")
@click.option("--port", type=click.IntRange(0, 65535), default=0,
              help="Port on 127.0.0.1 (default: any free one).")
@click.option("--no-open", is_flag=True, help="Do not open the browser.")
def serve(library_path: str | None, report: str | None, port: int, no_open: bool) -> None:
    """One page on 127.0.0.1 with every game's table, the library of hands (filter, open a
    hand in the review, export) and the latest strategy report."""
    from .home import make_home

    library = table_library(library_path, False)
    assert library is not None
    folder = report_folder(report)
    apps = tables(library)
    home = make_home(library, apps, folder)
    _warm_in_background(list(apps.values()))
    serve_app(home, port, open_browser=not no_open, say=click.echo)


