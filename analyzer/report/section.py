"""What a game contributes to the report (a :class:`Section`) and what every section gets.

A game joins the report by a ``report`` module in its package with a module-level
``SECTION``; :func:`registered` finds them through the game registry
(:data:`analyzer.games.GAMES`), skipping a game that has none. The machinery imports no
game itself.

Seeds: a section's root is ``SeedSequence(seed, spawn_key=(crc32(key),))``
(:func:`seed_sequence`), and its analyses spawn from that root. The root depends on
``--seed`` and the section's own key only, so adding or removing a section never changes
another's numbers (Python's ``hash()`` would change between runs; CRC-32 does not).
"""

from __future__ import annotations

import time
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from ..core.checks import check_seed
from .labels import LANGS, SHARED, Labels
from .progress import StepFn

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

    from .render import Block

DEFAULT_HANDS = 100_000  # the quick report: minutes on two cores
FULL_HANDS = 400_000  # --full: the CIs half as wide
MIN_HANDS = 100


def seed_sequence(seed: int, key: str) -> np.random.SeedSequence:
    """The root of the seeds of section ``key``: a fresh SeedSequence to spawn from."""
    return np.random.SeedSequence(int(seed), spawn_key=(zlib.crc32(key.encode("utf-8")),))


class Section(Protocol):
    """One game's part of the report. ``run`` computes; the others only read its result."""

    key: str  # the game's name: the key of its seeds, unique in the report
    labels: Labels  # its words (over the shared ones), for its pages and the font
    outputs: tuple[str, ...]  # every table and figure name it may write
    options: dict[str, Any]  # its own options (rules, policy …) and their defaults

    def title(self, lang: str) -> str:
        """The section's name, as the page lists it."""

    def check(self, spec: ReportSpec) -> None:
        """ValueError when ``spec`` does not suit the section (before any work)."""

    def steps(self, spec: ReportSpec) -> int:
        """How many steps ``run`` will start with ``progress``."""

    def run(self, spec: ReportSpec, root: np.random.SeedSequence, progress: StepFn) -> Any:
        """Every analysis of the section, its seeds spawned from ``root`` (fresh);
        ``advance = progress(what, total)`` starts each step (see :mod:`.progress`)."""

    def tables(self, data: Any) -> dict[str, pd.DataFrame]:
        """The tables of ``data``, each written as ``NAME.csv``."""

    def figures(self, data: Any, lang: str) -> dict[str, Figure]:
        """The figures of ``data``, each written as ``NAME.png``."""

    def blocks(self, data: Any, lang: str) -> list[Block]:
        """The section's part of the page: headings, text, figures, tables, commands."""


def registered() -> list[Section]:
    """The section of every registered game that has one, in the registry's order."""
    from ..games import GAMES

    out = []
    for game in GAMES.values():
        try:
            module = game.part("report")
        except ModuleNotFoundError as e:
            if e.name not in (f"{game.package}.report", game.package):
                raise  # a report module that is there but broken is an error, not a skip
            continue
        section = getattr(module, "SECTION", None)
        if section is not None:
            out.append(section)
    return out


def choose(sections: Iterable[str | Section] | None = None) -> list[Section]:
    """Sections by key (or as objects); every registered one when ``sections`` is None."""
    known = {s.key: s for s in registered()}
    if sections is None:
        return list(known.values())
    out = []
    for s in sections:
        if isinstance(s, str):
            if s not in known:
                raise ValueError(f"no report section {s!r} (choose from {', '.join(known)})")
            s = known[s]
        out.append(s)
    keys = [s.key for s in out]
    if len(set(keys)) != len(keys):
        raise ValueError(f"a section appears twice: {', '.join(keys)}")
    return out


@dataclass(frozen=True)
class ReportSpec:
    """What decides a report's numbers and words: ``--hands``, ``--seed``, ``--lang``, and
    each section's own options (``options[key][name]``, the section's defaults where not
    given); ``timings`` (off: ``--no-timings``) lets a section time its players, the only
    figures a seed does not fix. Each section reads what concerns it and checks it."""

    hands: int = DEFAULT_HANDS
    seed: int = 0
    lang: str = "zh"
    timings: bool = True
    options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if (not isinstance(self.hands, (int, np.integer)) or isinstance(self.hands, bool)
                or self.hands < MIN_HANDS):
            raise ValueError(f"the report needs at least {MIN_HANDS} hands, got {self.hands!r}")
        check_seed(self.seed)
        if self.lang not in LANGS:
            raise ValueError(f"unknown language {self.lang!r} (choose zh or en)")
        known = {s.key: s for s in registered()}
        for key, given in self.options.items():
            if key not in known:
                raise ValueError(f"no report section {key!r} takes options (sections: "
                                 f"{', '.join(known)})")
            unknown = sorted(set(given) - set(known[key].options))
            if unknown:
                raise ValueError(f"the {key} section has no option {', '.join(unknown)} "
                                 f"(its options: {', '.join(known[key].options) or 'none'})")
        merged = {k: {**s.options, **self.options.get(k, {})} for k, s in known.items()}
        object.__setattr__(self, "options", merged)
        for section in known.values():
            section.check(self)

    def option(self, key: str, name: str) -> Any:
        """Option ``name`` of section ``key`` (its default if the report was not given it)."""
        return self.options[key][name]

    def command(self) -> str:
        """The ``xianniu report`` command that writes this report again: the first section's
        options by their own names (``--rules``, ``--policy``), the others' by ``--set``."""
        parts = ["xianniu report"]
        for i, (key, opts) in enumerate(self.options.items()):
            defaults = next(s.options for s in registered() if s.key == key)
            for name, value in opts.items():
                if i == 0:
                    parts.append(f"--{name} {value}")
                elif value != defaults[name]:
                    parts.append(f"--set {key}.{name}={value}")
        parts.append(f"--hands {self.hands} --seed {self.seed} --lang {self.lang}")
        return " ".join(parts) + ("" if self.timings else " --no-timings")


@dataclass
class ReportData:
    """What the sections computed: each one's data by key, and all their tables by name."""

    spec: ReportSpec
    sections: list[Section]
    results: dict[str, Any] = field(default_factory=dict)
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    elapsed: float = 0.0

    def result(self, key: str) -> Any:
        return self.results[key]


def run_sections(spec: ReportSpec, sections: list[Section],
                 progress: StepFn) -> ReportData:
    """Run each section from its own seeds; gather the tables (names must not clash)."""
    t0 = time.perf_counter()
    data = ReportData(spec, sections)
    for s in sections:
        res = s.run(spec, seed_sequence(spec.seed, s.key), progress)
        data.results[s.key] = res
        for name, df in s.tables(res).items():
            if name in data.tables:
                raise ValueError(f"two sections write the table {name!r}")
            data.tables[name] = df
    data.elapsed = time.perf_counter() - t0
    return data


def all_text() -> list[str]:
    """Every string the report can print: the machinery's and every section's labels."""
    return SHARED.strings() + [s for sec in registered() for s in sec.labels.strings()]
