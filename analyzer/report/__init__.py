"""The strategy report: every game's analyses in one Markdown and HTML document.

This package is the machinery only; each game contributes a :class:`~.section.Section` in
its own ``report`` module, found through the game registry. :func:`build_report` runs the
sections (:mod:`.section`), draws their figures (:mod:`.plots`) and writes the pages
(:mod:`.render`) with the words of :mod:`.labels` and the numbers of :mod:`.formats`.
"""

from .build import Report, build_report
from .section import (
                      DEFAULT_HANDS,
                      FULL_HANDS,
                      MIN_HANDS,
                      ReportData,
                      ReportSpec,
                      Section,
                      registered,
                      run_sections,
                      seed_sequence,
)

__all__ = ["DEFAULT_HANDS", "FULL_HANDS", "MIN_HANDS", "Report", "ReportData", "ReportSpec",
           "Section",
           "build_report", "registered", "run_sections", "seed_sequence"]
