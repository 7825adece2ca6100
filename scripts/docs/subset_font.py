"""Cut the report's CJK font from Noto Sans CJK SC: only the glyphs the report's text uses.

Run after adding or changing a label of the report (``analyzer/report/labels.py`` or a
game's ``report`` module; tests/core/test_report.py fails while a label has a character the
font lacks):

    apt-get install fonts-noto-cjk       # the source font (SIL Open Font License 1.1)
    pip install fonttools                # a tool for this script only
    python scripts/docs/subset_font.py [path/to/NotoSansCJK-Regular.ttc]

It keeps every character of every label (both languages), printable ASCII and a few
typographic signs, renames the family to "Xianniu CJK" (a modified version may not carry
the Noto name) and writes ``analyzer/report/fonts/XianniuCJK-Regular.otf`` and the licence
beside it.
"""

from __future__ import annotations

import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from analyzer.report.fonts import FAMILY, FONT_FILE, LICENSE_FILE  # noqa: E402
from analyzer.report.section import all_text  # noqa: E402

SOURCE = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
SC_INDEX = 2  # the Simplified Chinese face in the collection
EXTRA = "−×±≥≤·…—–‘’“”，。：；（）、！？《》【】％♠♥♣♦°∞"
POSTSCRIPT = FAMILY.replace(" ", "") + "-Regular"
OFL_DEBIAN_COPYRIGHT = Path("/usr/share/doc/fonts-noto-cjk/copyright")


def characters() -> str:
    chars = {chr(c) for c in range(0x20, 0x7F)} | set(EXTRA)
    for s in all_text():
        chars |= set(s)
    return "".join(sorted(chars - {"\n", "\t"}))


def ofl_text() -> str:
    """The SIL Open Font License 1.1 text, from the Debian package's copyright file."""
    lines = OFL_DEBIAN_COPYRIGHT.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines[:-1])
                 if line.strip() == "License: SIL-1.1" and lines[i + 1].startswith(" "))
    out = []
    for line in lines[start + 1:]:
        if line and not line.startswith(" "):
            break
        text = line[1:]
        out.append("" if text == "." else text)
    return "\n".join(out).strip() + "\n"


def main(source: Path = SOURCE) -> None:
    font = TTFont(source, fontNumber=SC_INDEX, recalcTimestamp=False)
    copyright_ = font["name"].getDebugName(0)
    version = font["name"].getDebugName(5)
    opts = subset.Options()
    opts.layout_features = []
    opts.hinting = False
    opts.drop_tables += ["BASE", "VORG", "vhea", "vmtx", "GSUB", "GPOS", "GDEF"]
    opts.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]
    opts.notdef_outline = True
    sub = subset.Subsetter(opts)
    chars = characters()
    sub.populate(text=chars)
    sub.subset(font)
    name = font["name"]
    for nid, value in ((1, FAMILY), (2, "Regular"), (3, f"{POSTSCRIPT};subset"),
                       (4, f"{FAMILY} Regular"), (6, POSTSCRIPT)):
        name.setName(value, nid, 3, 1, 0x409)
        name.setName(value, nid, 1, 0, 0)
    name.setName(f"Subset of Noto Sans CJK SC ({version}) for the xianniu reports", 10, 3, 1,
                 0x409)
    cff = font["CFF "].cff
    cff.fontNames = [POSTSCRIPT]
    top = cff.topDictIndex[0]
    for attr, value in (("FamilyName", FAMILY), ("FullName", f"{FAMILY} Regular")):
        if hasattr(top, attr):
            setattr(top, attr, value)
    FONT_FILE.parent.mkdir(parents=True, exist_ok=True)
    font.save(FONT_FILE)
    LICENSE_FILE.write_text(
        f"{FONT_FILE.name} is a subset of Noto Sans CJK SC ({version}), renamed "
        f"\"{FAMILY}\",\nmade by scripts/docs/subset_font.py. {copyright_}\n"
        f"Noto is a trademark of Google Inc. The font is licensed under the SIL Open Font "
        f"License,\nVersion 1.1, reproduced below.\n\n" + ofl_text(), encoding="utf-8")
    print(f"{FONT_FILE}: {len(chars)} characters, {FONT_FILE.stat().st_size:,} bytes")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else SOURCE)
