"""What ``--hands`` plays: the hands or deals of every analysis of the report, per game.

``--hands`` is the size of the largest analyses; the others play a share of it (the ladders'
rungs, the search players, 双升's whole hands). The sizes come from the sections' own size
functions (each section's ``plays``), so the sentence :func:`sentence` writes (the
README's) cannot drift from them; ``tests/core/test_readme.py`` checks the README against it.
"""

from __future__ import annotations

from .section import DEFAULT_HANDS, FULL_HANDS, registered

GAME_NAMES = {"xianniu": "掀牛", "dingniu": "顶牛", "shengji": "双升"}


def plays(hands: int = DEFAULT_HANDS) -> dict[str, dict[str, int]]:
    """Hands or deals of each analysis (by name) of each registered section at ``--hands``
    (its ``plays``; the parts this size does not play, and 掀牛's timing rounds, left out:
    those time, they estimate nothing)."""
    return {s.key: {a: n for a, n in s.plays(int(hands)).items() if n} for s in registered()
            if hasattr(s, "plays")}


def sentence(hands: int = DEFAULT_HANDS, full: int = FULL_HANDS) -> str:
    """The README's sentence on what the report plays at the default size."""
    ranges = ", ".join(f"{GAME_NAMES.get(g, g)}'s {min(n.values()):,} to {max(n.values()):,}"
                       for g, n in plays(hands).items())
    return (f"`--hands` (default {hands:,}) is the size of the largest analyses and the "
            f"others play a share of it (the ladders' rungs, the search players, 双升's whole "
            f"hands): at the default the analyses play {ranges} hands or deals, each stated "
            f"with its n in the report; `--full` plays {full:,} (the CIs half as wide, about "
            f"four times as long).")
