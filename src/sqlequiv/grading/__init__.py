"""Grading suites: one record per (item, candidate), item anomalies, parallel runs."""

from sqlequiv.grading.item import grade
from sqlequiv.grading.record import (
    RECORD_KEYS,
    STATUSES,
    Record,
    RecordJSON,
    ReferenceOutcome,
    ReferenceOutcomeJSON,
)

__all__ = [
    "RECORD_KEYS",
    "STATUSES",
    "Record",
    "RecordJSON",
    "ReferenceOutcome",
    "ReferenceOutcomeJSON",
    "grade",
]
