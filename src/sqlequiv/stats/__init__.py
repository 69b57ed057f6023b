"""Statistics over grading results: intervals, run statistics, paired comparisons, audits.

Pure functions over lists of record dicts (the lines of a results file),
seeded and reproducible, each result naming the method behind its numbers:

* :func:`run_statistics` -- pass rate with a Wilson interval, failures by cause, groups.
* :func:`compare_runs` -- two runs paired by (item, sample): B - A with a paired bootstrap
  interval, a sign-flip p-value and a winner only when the interval excludes 0.
* :func:`audit_sample` / :func:`audit_estimate` -- a false-fail audit stratified by cause
  and the pass rate corrected by it.
* :mod:`sqlequiv.stats.intervals` -- Wilson, bootstrap (percentile, BCa), paired bootstrap,
  sign-flip test.
* :mod:`sqlequiv.stats.text` -- plain-text renderings for the terminal.
"""

from sqlequiv.stats.audit import allocate, audit_estimate, audit_plan, audit_sample, read_labels
from sqlequiv.stats.intervals import (
    StatsError,
    bootstrap_ci,
    paired_bootstrap_diff,
    sign_flip_test,
    wilson,
)
from sqlequiv.stats.paired import compare_runs
from sqlequiv.stats.runs import run_statistics
from sqlequiv.stats.text import (
    render_audit_estimate,
    render_audit_plan,
    render_comparison,
    render_run_statistics,
)

__all__ = [
    "StatsError",
    "allocate",
    "audit_estimate",
    "audit_plan",
    "audit_sample",
    "bootstrap_ci",
    "compare_runs",
    "paired_bootstrap_diff",
    "read_labels",
    "render_audit_estimate",
    "render_audit_plan",
    "render_comparison",
    "render_run_statistics",
    "run_statistics",
    "sign_flip_test",
    "wilson",
]
