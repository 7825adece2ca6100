"""The page's CJK web font: a subset of Noto Sans CJK SC with the page's characters only.

The page loads it with ``@font-face`` from ``/static``, so Chinese renders on a machine
with no CJK font and no network. After changing a word of the page (:mod:`.i18n` or a
game's ``web_strings``), cut the font again (needs ``apt-get install fonts-noto-cjk``)::

    python -m analyzer.web.fonts

The tests fail while the page has a character the font lacks.
"""

from __future__ import annotations

import importlib
from pathlib import Path

FAMILY = "Xianniu Web"
FONT_FILE = Path(__file__).resolve().parent / "static" / "XianniuWeb-Regular.otf"
LICENSE_FILE = FONT_FILE.with_name("OFL.txt")
SOURCE = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
SC_INDEX = 2  # the Simplified Chinese face in the collection
EXTRA = "−×±≥≤·…—–‘’“”，。：；（）、！？《》【】％♠♥♣♦°✓▶◀→←"


def game_strings() -> dict[str, dict[str, dict[str, str]]]:
    """Each registered game's web words, for the games that have a table."""
    from ..games import GAMES

    out = {}
    for name, game in GAMES.items():
        try:
            module = importlib.import_module(f"{game.package}.web_strings")
        except ModuleNotFoundError:
            continue
        out[name] = module.STRINGS
    return out


def page_text() -> str:
    """Every character the page may show: the words of every game's table, both languages,
    printable ASCII, and the signs of :data:`EXTRA`."""
    from .home import WORDS
    from .i18n import merged

    chars = {chr(c) for c in range(0x20, 0x7F)} | set(EXTRA)
    from ..games import GAMES

    for words in WORDS.values():  # the home page of xianniu serve, and its tables' titles
        for text in words.values():
            chars |= set(text)
    for game in GAMES.values():
        chars |= set(game.title)
    for strings in game_strings().values():
        for words in merged(strings).values():
            for text in words.values():
                chars |= set(text)
    return "".join(sorted(chars - {"\n", "\t"}))


def charmap(path: Path = FONT_FILE) -> set[str]:
    """The characters the font at ``path`` has glyphs for."""
    from fontTools.ttLib import TTFont

    return {chr(c) for c in TTFont(path, lazy=True).getBestCmap()}


def main(source: Path = SOURCE) -> None:
    """Cut the web font from ``source`` and write it with its licence beside it."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    font = TTFont(source, fontNumber=SC_INDEX, recalcTimestamp=False)
    opts = subset.Options()
    opts.layout_features = []
    opts.hinting = False
    opts.drop_tables += ["BASE", "VORG", "vhea", "vmtx", "GSUB", "GPOS", "GDEF"]
    opts.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]
    opts.notdef_outline = True
    sub = subset.Subsetter(opts)
    sub.populate(text=page_text())
    sub.subset(font)
    post = FAMILY.replace(" ", "") + "-Regular"
    name = font["name"]
    for nid, value in ((1, FAMILY), (2, "Regular"), (3, f"{post};subset"),
                       (4, f"{FAMILY} Regular"), (6, post)):
        name.setName(value, nid, 3, 1, 0x409)
        name.setName(value, nid, 1, 0, 0)
    cff = font["CFF "].cff
    cff.fontNames = [post]
    top = cff.topDictIndex[0]
    for attr, value in (("FamilyName", FAMILY), ("FullName", f"{FAMILY} Regular")):
        if hasattr(top, attr):
            setattr(top, attr, value)
    tmp = FONT_FILE.with_suffix(".tmp")
    font.save(tmp)
    tmp.replace(FONT_FILE)
    # the licence and copyright of the report's font, which comes from the same source
    report_licence = Path(__file__).resolve().parents[1] / "report" / "fonts" / "OFL.txt"
    text = report_licence.read_text(encoding="utf-8")
    for a, b in (("XianniuCJK-Regular.otf", FONT_FILE.name), ('"Xianniu CJK"', f'"{FAMILY}"'),
                 ("scripts/docs/subset_font.py", "python -m analyzer.web.fonts")):
        text = text.replace(a, b)
    LICENSE_FILE.write_text(text, encoding="utf-8")

if __name__ == "__main__":
    main()
