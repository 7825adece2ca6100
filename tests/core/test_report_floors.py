"""The report's floors (analyzer/report/formats.py): a cell on fewer than 30 cases shows only
its n, a match on fewer than 200 deals gets no row, and the page says so under the table."""

from __future__ import annotations

import pandas as pd

from analyzer.report.formats import (
    MIN_CASES,
    MIN_DEALS,
    enough_deals,
    fmt_cell,
    played_deals,
    too_few,
)
from analyzer.report.labels import SHARED
from analyzer.report.render import Page, to_markdown


def test_a_cell_under_the_floor_shows_only_its_n():
    assert fmt_cell(0.25, 0.1, 0.4, MIN_CASES) == "+0.250 [+0.100, +0.400] (n=30)"
    assert fmt_cell(0.25, 0.1, 0.4, MIN_CASES - 1) == "— (n=29)"
    assert fmt_cell(0.5, 0.4, 0.6, 1234, "probability", what="hands") == (
        "50.0% [40.0%, 60.0%] (n=1,234 hands)")
    assert fmt_cell(2.0, 1.0, 3.0, 3, what="deals") == "— (n=3 deals)"
    assert too_few("— (n=3 deals)") and not too_few("—") and not too_few("+0.1 (n=3)")
    assert not too_few(None)


def test_a_match_needs_its_deals():
    assert enough_deals(MIN_DEALS) and not enough_deals(MIN_DEALS - 1)
    # a slow match is played only where it gets a row
    assert played_deals(MIN_DEALS) == MIN_DEALS and played_deals(MIN_DEALS - 1) == 0


def _notes(page: Page) -> list[str]:
    return [b.content for b in page.blocks if b.kind == "p"]


def test_the_page_says_what_its_floors_left_out():
    for lang in ("zh", "en"):
        page = Page(SHARED, lang)
        page.table(pd.DataFrame({"a": [fmt_cell(1, 0, 2, 500)]}))
        assert _notes(page) == []  # nothing left out: nothing said
        page.table(pd.DataFrame({"a": [fmt_cell(1, 0, 2, 500), fmt_cell(1, 0, 2, 12)]}),
                   ["pimc − net", "pimc2 − net"])
        few, short = _notes(page)
        assert str(MIN_CASES) in few and "— (n=…)" in few
        assert str(MIN_DEALS) in short and "pimc − net" in short and "pimc2 − net" in short
        md = to_markdown(page.blocks, lang)
        assert md.index("— (n=12)") < md.index(few) < md.index(short)
        page.table(pd.DataFrame({"a": [fmt_cell(1, 0, 2, 500)]}), not_played=["pimc − net"])
        (unplayed,) = _notes(page)[2:]
        assert str(MIN_DEALS) in unplayed and "pimc − net" in unplayed
        assert "--hands" in unplayed and unplayed not in (few, short)
