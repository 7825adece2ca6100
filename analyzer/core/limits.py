"""What a command may be asked to do, checked before any work starts.

Every count a long command takes (``--hands``, ``--deals``) is read by :class:`Count`, which
also takes ``10**6``, ``1e6`` and ``1_000_000``, and refuses, with the reason on one line:

- a count whose per-deal arrays would take over half this machine's memory without
  ``--yes``, or over 80% of it at all,
- a count that would take longer than :data:`BOUND_SECONDS` without ``--yes``, or longer
  than :data:`CEILING_SECONDS` at all.

The time is estimated from the most :class:`Cost` says a core gets through a second, at
the fastest policy (``docs/bench.md``, rounded up), so the estimate is a lower bound: what is
refused would surely take longer, and a slow policy takes longer still. ``--backend dask``
is refused when dask is not installed; output files are checked by :class:`OutFile`.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

import click

from .fileio import check_out_folder

BOUND_SECONDS = 3_600  # longer runs need --yes: an hour is what a user would start unasked
CEILING_SECONDS = 366 * 86_400  # no run longer than a year here is started, even with --yes
# a run's arrays may take half the memory, 80% with --yes: never all of it, since what else
# runs on the machine would be killed with it
HELD_SHARE, HELD_YES = 0.5, 0.8
_YES = "limits.yes"  # where --yes is kept on the click context


@dataclass(frozen=True)
class Cost:
    """What one unit of a count costs: ``rate`` units a second on one core at the most,
    ``held`` bytes kept in memory per unit until the run ends (its per-deal arrays)."""

    unit: str
    rate: float
    held: int = 0


# Each game's batch part declares the costs of its commands (``COSTS``: ``simulate``,
# ``tournament``, ``odds``) from docs/bench.md's figures; the report's is the core's own: it
# plays every analysis at --hands, and a warm quick report (100,000) takes 88 s on two
# cores, about 570 hands per analysis a core-second, rounded up to 1,000.
REPORT_COST = Cost("hands per analysis", 1_000)


def cores() -> int:
    """The cores the kernels run on (Numba's threads)."""
    env = os.environ.get("NUMBA_NUM_THREADS", "")
    if env.isdigit() and int(env) > 0:
        return int(env)
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def physical_memory() -> int | None:
    """This machine's memory in bytes (None where the system does not say)."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return None


def clock_text(seconds: float) -> str:
    """``seconds`` as ``mm:ss`` (``h:mm:ss`` from an hour on).

    >>> clock_text(7), clock_text(754.4), clock_text(3725)
    ('00:07', '12:34', '1:02:05')
    """
    s = max(0, int(round(seconds)))
    h, s = divmod(s, 3600)
    m, s = divmod(s, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m:02d}:{s:02d}"


def duration(seconds: float) -> str:
    """``seconds`` as a person says it.

    >>> duration(42), duration(5400), duration(3.6e6), duration(4.6e12), duration(1e300)
    ('42 seconds', '1.5 hours', '42 days', '146,000 years', 'a million years')
    """
    if seconds >= 1e6 * 365 * 86_400:
        return "a million years"
    for size, name in ((365 * 86_400, "years"), (86_400, "days"), (3_600, "hours"),
                       (60, "minutes")):
        if seconds >= size:
            value = seconds / size
            text = f"{value:,.1f}" if value < 10 else f"{float(f'{value:.3g}'):,.0f}"
            return f"{text.removesuffix('.0')} {name if text != '1' else name[:-1]}"
    return f"{seconds:.0f} seconds"


def size(n_bytes: float) -> str:
    """``n_bytes`` in binary units.

    >>> size(416e12), size(23.4 * 2**30), size(10**400)
    ('378 TiB', '23 GiB', 'over a million TiB')
    """
    if n_bytes >= 1e6 * 1024**4:
        return "over a million TiB"
    for power, name in ((4, "TiB"), (3, "GiB"), (2, "MiB"), (1, "KiB")):
        if n_bytes >= 1024 ** power:
            return f"{n_bytes / 1024 ** power:,.0f} {name}"
    return f"{n_bytes:.0f} bytes"


def check_count(n: int, option: str, cost: Cost, yes: bool = False) -> None:
    """ValueError, with the reason and the largest count allowed, if ``n`` units of ``cost``
    would not fit in memory or would take too long (see the module's docstring)."""
    rate = cost.rate * cores()
    what = f"{option} {n:,}"
    ram = physical_memory()
    if cost.held and ram is not None:
        room = int(ram * (HELD_YES if yes else HELD_SHARE))
        if n * cost.held > room:
            most = (f"give at most {room // cost.held:,}" if yes else
                    f"give at most {room // cost.held:,} (half of it; --yes allows up to "
                    f"{int(ram * HELD_YES) // cost.held:,})")
            raise ValueError(f"{what} would keep {size(n * cost.held)} in memory "
                             f"({cost.held:,} bytes per {_singular(cost.unit)}) and this "
                             f"machine has {size(ram)}: {most}")
    seconds = n / rate if n < 10**300 else float("inf")  # a float holds up to about 1e308
    here = f"{rate:,.0f} {cost.unit} a second at the most on {cores()} cores"
    if seconds > CEILING_SECONDS:
        raise ValueError(f"{what} would take at least {duration(seconds)} here ({here}); no "
                         f"run longer than a year is started: give at most "
                         f"{int(CEILING_SECONDS * rate):,}")
    if seconds > BOUND_SECONDS and not yes:
        raise ValueError(f"{what} would take at least {duration(seconds)} here ({here}): "
                         f"give at most {int(BOUND_SECONDS * rate):,} (an hour), or add --yes "
                         f"to start it anyway")


def _singular(unit: str) -> str:
    return unit.split()[0].removesuffix("s") + (" " + unit.split(None, 1)[1]
                                                if " " in unit else "")


_SEPARATED = re.compile(r"\d{1,3}(?:([_,])\d{3})?(?:\1\d{3})*")


def parse_count(text: str) -> int:
    """A whole number as a person may type it: ``1000000``, ``1_000_000``, ``1,000,000``,
    ``1e6`` or ``10**6``; ValueError saying what is accepted.

    >>> parse_count("1_000_000"), parse_count("2.5e3"), parse_count("10**12")
    (1000000, 2500, 1000000000000)
    """
    t = text.strip()
    try:
        if t.lstrip("+-").isdigit():
            return int(t)
        if _SEPARATED.fullmatch(t):
            return int(t.replace("_", "").replace(",", ""))
        base, power, exponent = t.partition("**")
        if power and base.strip().isdigit() and exponent.strip().isdigit() \
                and len(exponent.strip()) <= 3:
            return int(base) ** int(exponent)
        mantissa, e, exp = t.lower().partition("e")
        if e and exp.lstrip("+").isdigit() and len(exp) <= 3:
            digits, _, fraction = mantissa.partition(".")
            fraction = fraction.rstrip("0")
            if digits.isdigit() and (not fraction or fraction.isdigit()) \
                    and len(fraction) <= int(exp):
                return int(digits + fraction) * 10 ** (int(exp) - len(fraction))
    except ValueError:
        pass
    raise ValueError(f"{text!r} is not a whole number (write it as 1000000, 1_000_000, 1e6 "
                     f"or 10**6)")


class Count(click.IntRange):
    """A count at least ``minimum``, read by :func:`parse_count` and, when ``cost`` is
    given, checked by :func:`check_count` (``--yes`` lifts the bounds it may lift)."""

    def __init__(self, minimum: int, cost: Cost | None = None):
        super().__init__(min=minimum)
        self.cost = cost

    def convert(self, value, param, ctx):
        if isinstance(value, str):
            try:
                value = parse_count(value)
            except ValueError as e:
                self.fail(str(e), param, ctx)
        n = super().convert(value, param, ctx)
        if self.cost is not None:
            option = param.opts[0] if param is not None and param.opts else "the count"
            try:
                check_count(n, option, self.cost, bool(ctx is not None and ctx.meta.get(_YES)))
            except ValueError as e:
                raise click.UsageError(str(e), ctx) from None
        return n


def _remember_yes(ctx: click.Context, param: click.Parameter, value: bool) -> bool:
    ctx.meta[_YES] = value
    return value


YES_OPTION = click.option(
    "--yes", is_flag=True, is_eager=True, expose_value=False, callback=_remember_yes,
    help="Start a run estimated at over an hour (or holding over half this machine's "
         "memory); without it such a run is refused, with the time it would take.")


def with_yes(f):
    """``f`` with the ``--yes`` option, once however many counts it takes."""
    if any(p.name == "yes" for p in getattr(f, "__click_params__", [])):
        return f
    return YES_OPTION(f)


def count_option(name: str, dest: str, default: int | None, minimum: int, cost: Cost | None,
                 help: str, **kwargs):
    """A count option of type :class:`Count`; with a ``cost``, the command also takes
    ``--yes``."""
    option = click.option(name, dest, type=Count(minimum, cost), default=default,
                          help=help, **kwargs)
    return (lambda f: option(with_yes(f))) if cost is not None else option  # --yes below it


def has_dask() -> bool:
    """Whether dask.distributed can be imported here (imported only for ``--backend dask``,
    whose run needs it anyway)."""
    try:
        import dask.distributed  # noqa: F401
    except ImportError:
        return False
    return True


DASK_MISSING = ("--backend dask needs dask.distributed, which is not installed here: run "
                "pip install \".[dask]\" in the xianniu folder (or pip install "
                "\"dask[distributed]\")")


def _check_backend(ctx: click.Context, param: click.Parameter, value: str) -> str:
    if value == "dask" and not has_dask():
        raise click.UsageError(DASK_MISSING, ctx)
    return value


def backend_option(help: str):
    """``--backend local|dask``, refused at once when dask is not installed."""
    return click.option("--backend", type=click.Choice(["local", "dask"]), default="local",
                        show_default=True, callback=_check_backend, help=help)


class OutFile(click.Path):
    """A file a command writes: its folder must exist and accept files, checked before any
    work (:func:`analyzer.core.fileio.check_out_folder`)."""

    def __init__(self) -> None:
        super().__init__(dir_okay=False)

    def convert(self, value, param, ctx):
        path = super().convert(value, param, ctx)
        option = param.opts[0] if param is not None and param.opts else "the output"
        try:
            check_out_folder(os.fsdecode(path), option)
        except ValueError as e:
            raise click.UsageError(str(e), ctx) from None
        return path
