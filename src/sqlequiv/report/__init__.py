"""The HTML report of a graded run: one self-contained file, searchable failures.

Example:
    >>> from sqlequiv.report import ReportData, render_report
    >>> page = render_report(ReportData("run", {"graded": 4, "passed": 3, "pass_rate": 0.75}))
    >>> "75.0%" in page
    True
"""

from sqlequiv.report.html import ReportData, render_report, write_report

__all__ = ["ReportData", "render_report", "write_report"]
