"""The root ``xianniu`` command: 掀牛's commands at the top level (the default game), one
group per other game, and the commands that span games (``report``, ``bench``, ``warmup``).

Each game's commands are imported only when used. Bad input of any kind ends with one line
on stderr and exit status 2.
"""

from __future__ import annotations

import importlib
import sys

import click

from .games import DEFAULT_GAME, GAMES

_CROSS_GAME = {"report": "analyzer.report.cli:report", "bench": "analyzer.bench:bench",
               "warmup": "analyzer.warmup:warmup", "record": "analyzer.core.record_cli:record",
               "library": "analyzer.core.library_cli:library",
               "serve": "analyzer.web.open:serve",
               "puzzles": "analyzer.core.puzzles_cli:puzzles"}


def _load(target: str) -> click.Command:
    module, name = target.split(":")
    return getattr(importlib.import_module(module), name)


class RootGroup(click.Group):
    """Resolves commands lazily: the default game's, other games' groups, cross-game ones."""

    def _default(self) -> click.Group:
        group = _load(GAMES[DEFAULT_GAME].cli)
        assert isinstance(group, click.Group)
        return group

    def list_commands(self, ctx: click.Context) -> list[str]:
        names = set(self._default().list_commands(ctx)) | set(_CROSS_GAME)
        return sorted(names | {g for g in GAMES if g != DEFAULT_GAME})

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in _CROSS_GAME:
            return _load(_CROSS_GAME[name])
        if name in GAMES and name != DEFAULT_GAME:
            return _load(GAMES[name].cli)
        return self._default().get_command(ctx, name)


@click.group("xianniu", cls=RootGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="xianniu")
def cli() -> None:
    """xianniu: Monte Carlo strategy analysis of 兰州掀牛 (the default game, commands below),
    顶牛 (xianniu dingniu …) and 郑州双升 (xianniu shengji …)."""


_ANNOUNCING: list[bool] = []


def _say_compiling(game: str) -> None:
    click.echo(f"xianniu: compiling the {game} kernels this command needs (up to a few minutes; "
               f"they are cached, so a later run of it starts at once, and another command "
               f"may compile kernels of its own; `xianniu warmup` compiles them all ahead)",
               err=True)


def main(argv: list[str] | None = None) -> int:
    """Entry point: run the CLI; bad input becomes one line on stderr and status 2."""
    from kernels.cache import announce_compiles

    if not _ANNOUNCING:
        announce_compiles(_say_compiling)
        _ANNOUNCING.append(True)
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
    except KeyboardInterrupt as e:
        click.echo(f"xianniu: {str(e) or 'interrupted'}", err=True)
        return 130
    return rc if isinstance(rc, int) else 0


if __name__ == "__main__":
    sys.exit(main())
