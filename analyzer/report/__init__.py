"""The strategy report: every analysis of the project in one Markdown and HTML document.

:func:`build_report` runs the analyses (:mod:`.data`), draws the figures (:mod:`.plots`)
and writes the pages (:mod:`.render`) with the words of :mod:`.labels`.
"""

from .build import Report, build_report
from .data import DEFAULT_HANDS, MIN_HANDS, RULE_CHOICES, ReportData, ReportSpec, run_analyses

__all__ = ["DEFAULT_HANDS", "MIN_HANDS", "RULE_CHOICES", "Report", "ReportData", "ReportSpec",
           "build_report", "run_analyses"]
