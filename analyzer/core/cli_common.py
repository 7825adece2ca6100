"""Pieces shared by every game's command line: options with one meaning everywhere, JSON."""

from __future__ import annotations

import functools
import json
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, TextIO

import click
from click.core import ParameterSource

from .batchrun import FORMATS, RunInterrupted
from .limits import (
    Cost,
    Count,
    OutFile,
    backend_option,
    clock_text,
    count_option,
    with_yes,
)

JSON_OPTION = click.option("--json", "as_json", is_flag=True, help="Print JSON.")
ROOT_SEED = "Root seed; the same seed gives the same numbers."


def seed_option(help: str = ROOT_SEED, fresh: bool = False):
    """``--seed``, the same in every command: an integer ≥ 0, 0 by default, or with ``fresh``
    none by default (the command draws one and shows it)."""
    if fresh:
        return click.option("--seed", type=click.IntRange(min=0), default=None, help=help)
    return click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
                        help=help)


def emit_json(data: Any) -> None:
    """Print ``data`` as indented JSON, Chinese left readable."""
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


def emit(data: Any, as_json: bool, lines: Callable[[Any], list[str]]) -> None:
    """Print a command's result: ``data`` as JSON (``--json``), else its text ``lines``."""
    if as_json:
        emit_json(data)
    else:
        click.echo("\n".join(lines(data)))


def batch_options(cost: Cost, n_seats: int, policies: Mapping[str, str],
                  default_policy: str = "heuristic", default_hands: int = 100_000):
    """The options every game's ``simulate`` shares, with one meaning in every game;
    ``--policy`` and ``--policies`` accept every policy in ``policies`` (the game's);
    ``cost``: what a hand of the game's ``simulate`` costs (its batch part's ``COSTS``).
    ``--hands``, ``--out``, ``--records`` and ``--backend`` are checked before any work
    (:mod:`analyzer.core.limits`: a run over an hour needs ``--yes``)."""
    seats = ",".join("ABCD"[:n_seats])
    options = [
        count_option("--hands", "n_hands", default_hands, 1, cost,
                     show_default=True, help="Number of hands to play."),
        policy_option(policies, default_policy),
        policy_option(policies, None, "--policies", "policies",
                      f"One policy per seat, {seats} (overrides --policy)", per_seat=n_seats),
        click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
                     help="Root seed; the same seed gives the same numbers on any number of "
                          "cores or workers."),
        click.option("--out", "out_path", type=OutFile(), default=None,
                     help="Write the result here (whole or not at all) instead of standard "
                          "output; finished work is checkpointed beside it."),
        click.option("--format", "fmt", type=click.Choice(FORMATS), default=None,
                     help="Output format (default: table; --json means json)."),
        backend_option("Run the chunks here, or as tasks on a Dask cluster."),
        click.option("--scheduler", default=None, metavar="ADDRESS",
                     help="Dask scheduler address (default: a LocalCluster on this machine)."),
        click.option("--resume", is_flag=True,
                     help="Continue an interrupted run with the same arguments and --out."),
        click.option("--records", "records_path", type=OutFile(), default=None,
                     help="Also keep every hand's row in this Parquet file."),
        click.option("--quiet", is_flag=True, help="No progress bar."),
        JSON_OPTION,
    ]

    return stacked(options)


def policy_help(policies: Mapping[str, str], default: str | None = None,
                what: str = "Policy of every seat") -> str:
    """The one help text of a game's policy options: ``what``, then every policy the game
    plays with its line (``policies``: name -> what it is), and the default.

    >>> policy_help({"random": "uniform", "heuristic": "rules of thumb"}, "heuristic")
    'Policy of every seat: random (uniform), heuristic (rules of thumb) [default: heuristic].'
    """
    names = ", ".join(f"{n} ({line})" if line else n for n, line in policies.items())
    return f"{what}: {names}" + (f" [default: {default}]." if default else ".")


def policy_option(policies: Mapping[str, str], default: str | None, name: str = "--policy",
                  dest: str = "policy", what: str = "Policy of every seat",
                  per_seat: int = 0, best_of: int = 0):
    """A policy option that accepts every policy in ``policies`` (and, when ``per_seat``
    is a seat count, one name per seat ``A,B,…``; when ``best_of`` is a count, up to that
    many different names ``A,B,…``: each action valued by the best of them); the names are
    checked before any work."""
    def check(ctx, param, value):
        if value is None:
            return value
        names = [v.strip().lower() for v in str(value).split(",")]
        ok = (len(names) in (1, per_seat) if per_seat else 1 <= len(names) <= best_of
              if best_of else len(names) == 1)
        if not ok:
            more = (f" or one per seat ({per_seat})" if per_seat else
                    f" or up to {best_of} (A,B,…: the best of them)" if best_of else "")
            raise click.BadParameter(f"give one policy{more}, got {len(names)}")
        if best_of and len(set(names)) != len(names):
            raise click.BadParameter(f"give different policies, got {value!r}")
        bad = [n for n in names if n not in policies]
        if bad:
            raise click.BadParameter(f"unknown policy {bad[0]!r} (choose from "
                                     f"{', '.join(policies)})")
        return ",".join(names)

    what = what + ("; A,B,… values each action by the best of them on the same deals"
                   if best_of else "")
    return click.option(name, dest, default=default, callback=check, show_default=False,
                        help=policy_help(policies, default, what))



def responder_options(policies: Mapping[str, str], player: str, responder: str):
    """``--player`` (the player measured, in every seat but one) and ``--responder`` (the
    one seat that searches against it) of a best-response command, with their defaults."""
    def decorate(f):
        f = policy_option(policies, responder, "--responder", "responder",
                          "The one seat searching against the player")(f)
        return policy_option(policies, player, "--player", "player",
                             "The player measured, in every other seat")(f)
    return decorate

def option_with_alias(name: str, dest: str, alias: str, default: Any, **kwargs):
    """Option ``name`` that is also read under the hidden name ``alias`` (an earlier name,
    kept so that scripts using it keep working); giving both is an error.

    Works on any click version: the alias has a parameter of its own, merged before the
    command runs, rather than relying on how click settles two options of one name.
    """
    hidden = f"{dest}__alias"

    def decorate(f):
        @functools.wraps(f)
        def merged(*args, **kw):
            old = kw.pop(hidden)
            if old is not None:
                ctx = click.get_current_context()
                if ctx.get_parameter_source(dest) is not ParameterSource.DEFAULT:
                    raise click.UsageError(f"give {name} or {alias}, not both")
                kw[dest] = old
            return f(*args, **kw)

        merged = click.option(alias, hidden, hidden=True, default=None,
                              type=kwargs.get("type"))(merged)
        return click.option(name, dest, default=default, show_default=True, **kwargs)(merged)

    return decorate


def deals_option(default: int, minimum: int = 2, help: str = "Deals.",
                 hands_alias: bool = False, cost: Cost | None = None):
    """``--deals N``: the number of deals (a tournament's or a paired experiment's sample
    size). ``hands_alias`` also reads the hidden ``--hands``, the option's earlier name.
    With a ``cost`` (:class:`analyzer.core.limits.Cost`, from a game's batch part's
    ``COSTS``) a count too large for this machine is refused before any work, and the
    command takes ``--yes``."""
    if hands_alias:
        alias = option_with_alias("--deals", "n_deals", "--hands", default,
                                  type=Count(minimum, cost), help=help)
        return alias if cost is None else lambda f: alias(with_yes(f))
    return count_option("--deals", "n_deals", default, minimum, cost, show_default=True,
                        help=help)


def progress_bar(n: int, label: str = "hands", hidden: bool = False) -> LazyProgressBar:
    """Progress on standard error (standard output stays clean for CSV/JSON), drawn from
    the first unit done (:class:`LazyProgressBar`): input refused first leaves one line."""
    return LazyProgressBar(n, label, hidden)


class LazyProgressBar:
    """Progress on standard error, drawn from the first ``update`` on, so that input refused
    before any work leaves one line on standard error, not a bar above it. On a terminal a
    bar with units done, percent and time left; in a log (no terminal) no bar, whose label
    alone would stand there as a stray line, but a line ``label: done/total, elapsed,
    about left`` at most every ``interval`` seconds as units are done. ``expect(total)``
    moves the end (a query that stops at a precision, not at its cap); calling the object
    is ``update``."""

    def __init__(self, n: int, label: str = "hands", hidden: bool = False, *,
                 interval: float = 10.0, file: TextIO | None = None,
                 clock: Callable[[], float] = time.monotonic):
        self.length, self.label, self.hidden = max(1, int(n)), label, hidden
        self.file = file if file is not None else sys.stderr
        self.interval, self.clock = interval, clock
        self.pos = 0
        self._bar: Any = None
        self._tty = bool(getattr(self.file, "isatty", lambda: False)())
        self._begun: float | None = None
        self._last = 0.0

    def expect(self, total: int) -> None:
        """The work now expected in all (never below what is done)."""
        self.length = max(1, int(total), self.pos)
        if self._bar is not None:
            self._bar.length = self.length

    def done_of(self, done: int, total: int) -> None:
        """Progress as ``done`` of ``total``."""
        self.expect(total)
        self.update(done - self.pos)

    def update(self, n: int) -> None:
        if self.hidden:
            self.pos += int(n)
            return
        now = self.clock()
        if self._begun is None:
            self._begun = self._last = now
            if self._tty:
                self._bar = click.progressbar(length=self.length, label=self.label,
                                              file=self.file, show_eta=True, show_pos=True)
                self._bar.__enter__()
        self.pos += int(n)
        self.length = max(self.length, self.pos)
        if self._bar is not None:
            self._bar.length = self.length
            self._bar.update(int(n))
        elif now - self._last >= self.interval:
            self._line(now)

    __call__ = update

    def _line(self, now: float) -> None:
        spent = now - (self._begun if self._begun is not None else now)
        left = spent * (self.length - self.pos) / self.pos if self.pos else None
        click.echo(f"{self.label}: {self.pos:,}/{self.length:,}, {clock_text(spent)} spent"
                   + (f", about {clock_text(left)} left" if left is not None else ""),
                   file=self.file)
        self._last = now

    def close(self) -> None:
        if self._bar is not None:
            self._bar.__exit__(None, None, None)
            self._bar = None

    def __enter__(self) -> LazyProgressBar:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@contextmanager
def interruptible() -> Iterator[None]:
    """Around a batch run: after Ctrl-C, print the run's message (what was kept and how to
    ``--resume``) on stderr and exit with status 130. Click would otherwise turn the
    interrupt into a bare abort and the message would be lost."""
    try:
        yield
    except RunInterrupted as e:
        click.echo(f"xianniu: {e}", err=True)
        raise click.exceptions.Exit(130) from None


def stacked(options: list) -> Callable:
    """One decorator applying click ``options`` in order (the first is the first in --help)."""
    def decorate(f):
        for option in reversed(options):
            f = option(f)
        return f

    return decorate
