"""What a player should take away: the report's opening findings, one line each.

Each section may offer ``findings(data, lang)``: a few :class:`Finding` objects, its most
useful results for a player, each with its estimate (value, 95% CI, n) and, where the
section measured it again under a second policy on the same seeds, that estimate too. The
report opens with all of them, in the sections' order. A finding **depends on the bot** when
the two policies disagree on its sign (both CIs exclude 0 on opposite sides: a sure sign
change; or the point estimates' signs differ) or when one estimate is more than twice the
other; the page says so beside it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from .formats import fmt_pct
from .labels import t

RATIO = 2.0  # estimates further apart than this factor: the finding depends on the bot


@dataclass(frozen=True)
class Finding:
    """One line for a player: ``text`` (the claim, in the page's language), its
    ``estimate`` ``{"value", "low", "high", "n"}`` printed by ``fmt`` (a format spec, or
    ``"%"`` for a percentage), the section part it comes from (``anchor``), and the same
    estimate under a second policy (``other``, with ``other_policy``) when measured."""

    text: str
    estimate: dict[str, float]
    anchor: str
    policy: str
    fmt: str = "+.2f"
    unit: str = ""
    other: dict[str, float] | None = None
    other_policy: str = ""

    def dependence(self) -> str | None:
        """Why the finding depends strongly on the bot (None when it does not)."""
        if self.other is None:
            return None
        a, b = self.estimate, self.other
        flipped = sign_change(a, b)
        if flipped:
            return flipped
        lo, hi = sorted((abs(a["value"]), abs(b["value"])))
        if hi > 0 and (lo == 0 or hi / lo > RATIO):
            return "ratio"
        return None


def sign_change(a: Any, b: Any) -> str | None:
    """How the estimates ``a`` and ``b`` (``value``, ``low``, ``high``) differ in sign:
    ``sure_sign`` when both CIs exclude 0 on opposite sides, ``sign`` when only the values'
    signs differ, else None."""
    if a["low"] > 0 > b["high"] or a["high"] < 0 < b["low"]:
        return "sure_sign"
    return "sign" if a["value"] * b["value"] < 0 else None


def number(e: dict[str, float], fmt: str, unit: str = "") -> str:
    """An estimate as ``value [low, high] (n = …)``; ``fmt`` "%" prints percentages.

    >>> number({"value": 0.05, "low": 0.04, "high": 0.06, "n": 1000}, "%")
    '5.00% [4.00%, 6.00%] (n = 1,000)'
    """
    def f(x: float) -> str:  # percentages to 3 significant digits, 0 as 0% (never 0.00%)
        return fmt_pct(x) if fmt == "%" else format(x, fmt)
    if any(math.isnan(e[k]) for k in ("value", "low", "high")):
        return "n/a"
    u = f" {unit}" if unit else ""
    return f"{f(e['value'])}{u} [{f(e['low'])}, {f(e['high'])}] (n = {int(e['n']):,})"


def line(f: Finding, lang: str, section_title: str) -> str:
    """The finding as one line of the report's opening list."""
    out = t("finding_line", lang, text=f.text, number=number(f.estimate, f.fmt, f.unit),
            section=section_title, policy=f.policy)
    why = f.dependence()
    if why is not None and f.other is not None:
        out += t("finding_" + why, lang, policy=f.other_policy,
                 number=number(f.other, f.fmt, f.unit))
    return out


def lines(found: list[tuple[Finding, str]], lang: str) -> list[str]:
    """Every finding as a line, with the title of the section it comes from."""
    return [line(f, lang, title) for f, title in found]


def as_rows(found: list[tuple[Finding, str]]) -> list[dict[str, Any]]:
    """The findings as table rows (the CSV beside the page)."""
    out = []
    for f, title in found:
        row = {"section": title, "finding": f.text, "policy": f.policy,
               **{k: f.estimate[k] for k in ("value", "low", "high", "n")},
               "other_policy": f.other_policy or None, "depends_on_bot": f.dependence() or ""}
        for k in ("value", "low", "high", "n"):
            row[f"other_{k}"] = None if f.other is None else f.other[k]
        out.append(row)
    return out
