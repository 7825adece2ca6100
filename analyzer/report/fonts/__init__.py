"""The CJK font shipped for the report's plots and pages (a subset of Noto Sans CJK SC).

``scripts/docs/subset_font.py`` makes it from the labels; :func:`register` hands it to matplotlib.
"""

from __future__ import annotations

from pathlib import Path

FAMILY = "Xianniu CJK"
FONT_FILE = Path(__file__).with_name("XianniuCJK-Regular.otf")
LICENSE_FILE = Path(__file__).with_name("OFL.txt")
FALLBACK = "DejaVu Sans"  # matplotlib's own font, for any sign the subset lacks


def register() -> list[str]:
    """Add the font to matplotlib's font manager (once); the font.family list to use."""
    from matplotlib import font_manager

    if not any(f.name == FAMILY for f in font_manager.fontManager.ttflist):
        font_manager.fontManager.addfont(str(FONT_FILE))
    return [FAMILY, FALLBACK]


def charmap() -> set[str]:
    """The characters the shipped font has glyphs for."""
    from matplotlib.ft2font import FT2Font

    return {chr(c) for c in FT2Font(str(FONT_FILE)).get_charmap()}
