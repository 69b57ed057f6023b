"""Reports for continuous integration: JUnit XML and GitHub workflow commands.

Every command that checks queries (``check``, ``grade``, ``spider``, ``bird``, ``diff``)
turns its verdicts or records into :class:`Case` values (:mod:`.cases`) and one of two
pure renderers turns those into text:

- :func:`render_junit`: a JUnit XML document, one ``<testcase>`` per case;
- :func:`render_github`: ``::error`` / ``::warning`` / ``::notice`` workflow commands that
  GitHub Actions shows as annotations on the query's file and line.

The rule for ``unknown`` (neither proved nor refuted) is the same in both: by default it
is reported but does not fail (JUnit ``<skipped message="unknown: ...">``, a GitHub
warning), and with ``unknown_fails`` it fails like a refuted pair (JUnit ``<failure
type="unknown">``, a GitHub error). It never passes silently.
"""

from sqlequiv.ci_output.cases import (
    Case,
    CaseStatus,
    case_from_benchmark_record,
    case_from_grade_record,
    case_from_verdict,
    cases_from_diff,
    counts,
)
from sqlequiv.ci_output.github import escape_data, escape_property, render_github
from sqlequiv.ci_output.junit import render_junit

__all__ = [
    "Case",
    "CaseStatus",
    "case_from_benchmark_record",
    "case_from_grade_record",
    "case_from_verdict",
    "cases_from_diff",
    "counts",
    "escape_data",
    "escape_property",
    "render_github",
    "render_junit",
]
