"""Audit a benchmark's gold queries: the hazards that make an execution-match score lie.

Per gold, each hazard comes with the database that shows it (the shipped one, or one
the search found and that was replayed in the real database's own tables): a
nondeterministic answer (LIMIT through ties, ORDER BY ties, bare columns, random() or
the clock), an order the question, the gold and the evaluator disagree on, NULLs that
move across a LIMIT or empty a NOT IN, numbers stored as text, a slow or empty gold,
alternative golds that disagree; and, with predictions, runs of predictions shifted onto
their neighbours' golds. Records: :mod:`sqlequiv.goldaudit.records`.

Modules: :mod:`~.variants` (the pairs of queries a hazard is tested with),
:mod:`~.witness` (running them, replaying a searched database), :mod:`~.hazards`
(one gold), :mod:`~.rewrite` (a deterministic rewrite, checked), :mod:`~.pairing`,
:mod:`~.inputs` (the files), :mod:`~.records` (the JSONL layout, the summary),
:mod:`~.run` (a whole benchmark or suite).
"""

from sqlequiv.goldaudit.hazards import AuditSettings, GoldContext, audit_one
from sqlequiv.goldaudit.inputs import AuditItem, load_golds
from sqlequiv.goldaudit.pairing import shifted_runs
from sqlequiv.goldaudit.records import (
    DEFAULT_BLOCKING,
    HAZARD_KINDS,
    SCHEMA_VERSION,
    found_set,
    parse_kinds,
    render_summary,
    summarize,
)
from sqlequiv.goldaudit.run import AuditRun, PairingSettings, audit_benchmark, audit_suite

__all__ = [
    "DEFAULT_BLOCKING",
    "HAZARD_KINDS",
    "SCHEMA_VERSION",
    "AuditItem",
    "AuditRun",
    "AuditSettings",
    "GoldContext",
    "PairingSettings",
    "audit_benchmark",
    "audit_one",
    "audit_suite",
    "found_set",
    "load_golds",
    "parse_kinds",
    "render_summary",
    "shifted_runs",
    "summarize",
]
