"""The record of grading one (item, candidate): a fixed set of keys, nulls included.

A record on disk has every key whether its value is known or not, so "not
measured" (null) and "absent" never collapse: a reader can tell a pass that
was never proved (``proved: false``) from a record with no pass at all
(``proved: null``). ``reference_kind`` travels with every record so a record
whose ``matched_reference`` is null says why.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypedDict, cast

Status = Literal["pass", "fail", "unknown", "error", "anomaly"]
STATUSES: tuple[Status, ...] = ("pass", "fail", "unknown", "error", "anomaly")

#: Version of the record layout; bumped when a key changes meaning.
RECORD_VERSION = 1


class ReferenceOutcomeJSON(TypedDict, total=False):
    """One entry of a record's ``references`` as JSON (:meth:`ReferenceOutcome.to_dict`).

    ``total=False`` because a reader takes lines written by older versions
    and by hand, which may lack keys; every reader keeps its own default.
    """

    name: str
    verdict: str
    method: str | None
    cause: str | None
    detail: str | None
    fixture: str | None
    counterexample: dict[str, Any] | None
    evidence: dict[str, Any]


class RecordJSON(TypedDict, total=False):
    """A record as one line of a results file holds it (:meth:`Record.to_dict`).

    The writer fills every key; the type is ``total=False`` because the
    readers (``sqlequiv stats``, the report, resuming) take files written
    before a key existed, and partial records in tests and doctests, and each
    keeps the default its ``.get`` gives today. Declaring the keys here, next
    to the writer, lets mypy check the names and value types a reader uses.
    """

    record_version: int
    item_id: str
    sample: int | str
    reference_kind: str
    status: Status
    passed: bool | None
    proved: bool | None
    matched_reference: str | None
    method: str | None
    cause: str | None
    detail: str | None
    counterexample: dict[str, Any] | None
    references: list[ReferenceOutcomeJSON]
    fixtures: dict[str, str]
    predicate: dict[str, Any] | None
    error: dict[str, Any] | None
    anomaly: dict[str, Any] | None
    candidate_sql: str | None
    candidate_meta: dict[str, Any]
    item_meta: dict[str, Any]
    timings: dict[str, float]
    sqlequiv_version: str | None
    duplicate_of: int | str | None
    attempts: int


def as_record(record: Mapping[str, Any]) -> RecordJSON:
    """``record`` seen as a :class:`RecordJSON`: no copy and no check.

    The one place a mapping of unknown shape (a parsed line, a caller's dict)
    becomes a typed record: the public readers keep taking any mapping, as
    they always have, and type the fields they read from here on. Values are
    not validated, so a reader stays as defensive about them as before.
    """
    return cast(RecordJSON, record)


def pair_key(record: Mapping[str, Any]) -> tuple[str, str]:
    """What identifies a pair: ``(item_id, sample)`` as strings (as a results file does).

    Example:
        >>> pair_key({"item_id": "q-1", "sample": 0})
        ('q-1', '0')
    """
    return (str(record.get("item_id")), str(record.get("sample")))


#: Error kinds that say the worker, not the candidate, failed: a rerun grades such a pair
#: once more (an out-of-memory kill or a loaded machine need not happen twice).
RETRIED_KINDS = ("worker_crashed", "timeout")


def repeated_pairs(
    records: Iterable[Mapping[str, Any]],
    key: Callable[[Mapping[str, Any]], Hashable] = pair_key,
) -> Counter[Hashable]:
    """The keys that come back other than as the retry of a crash or timeout, and how often.

    A results file holds a pair twice only when its first attempt ended in one
    of :data:`RETRIED_KINDS`; any other repeat (two runs' files concatenated)
    means :func:`latest_records` would hide a record, so a reader that must not
    (a paired comparison) refuses it.

    Example:
        >>> crash = {"item_id": "q", "sample": 0, "status": "error",
        ...          "error": {"kind": "worker_crashed"}}
        >>> ok = {"item_id": "q", "sample": 0, "status": "pass"}
        >>> repeated_pairs([crash, ok]), repeated_pairs([ok, ok])
        (Counter(), Counter({('q', '0'): 1}))
    """
    last: dict[Hashable, Mapping[str, Any]] = {}
    repeats: Counter[Hashable] = Counter()
    for record in records:
        name = key(record)
        earlier = last.get(name)
        if earlier is not None:
            error = earlier.get("error") or {}
            kind = error.get("kind") if isinstance(error, Mapping) else None
            if earlier.get("status") != "error" or kind not in RETRIED_KINDS:
                repeats[name] += 1
        last[name] = record
    return repeats


def latest_records(
    records: Iterable[Mapping[str, Any]],
    key: Callable[[Mapping[str, Any]], Hashable] = pair_key,
) -> list[dict[str, Any]]:
    """One record per ``key`` (a pair, by default): the last line of a pair wins.

    A retried pair has two lines (the first attempt's error, then the retry's
    record); every reader of a results file (resuming, ``stats``, ``compare``,
    the audit, the summary, the report, the benchmark runner with its own key)
    goes through here so that none counts a pair twice. Pairs keep the order of
    their first line.

    Example:
        >>> rows = [{"item_id": "q", "sample": 0, "status": "error"},
        ...         {"item_id": "r", "sample": 0, "status": "pass"},
        ...         {"item_id": "q", "sample": 0, "status": "pass", "attempts": 2}]
        >>> [(r["item_id"], r["status"]) for r in latest_records(rows)]
        [('q', 'pass'), ('r', 'pass')]
    """
    by_key: dict[Hashable, dict[str, Any]] = {}
    for record in records:
        by_key[key(record)] = dict(record)
    return list(by_key.values())


@dataclass(frozen=True)
class ReferenceOutcome:
    """How the candidate fared against one accepted reference."""

    name: str
    #: equivalent | not_equivalent | unknown | error | not_checked
    verdict: str
    method: str | None = None
    cause: str | None = None
    detail: str | None = None
    #: The named fixture that refuted the candidate, or None (a generated database did).
    fixture: str | None = None
    counterexample: dict[str, Any] | None = None
    evidence: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> ReferenceOutcomeJSON:
        return {
            "name": self.name,
            "verdict": self.verdict,
            "method": self.method,
            "cause": self.cause,
            "detail": self.detail,
            "fixture": self.fixture,
            "counterexample": self.counterexample,
            "evidence": self.evidence,
        }


@dataclass(frozen=True)
class Record:
    """The grade of one candidate for one item.

    ``status`` is ``pass`` (``proved`` says whether a proof or only the absence
    of a counterexample stands behind it), ``fail`` (a verified counterexample
    or a violated predicate refutes every accepted answer), ``unknown``,
    ``error`` (the candidate is not a read-only query that executes) or
    ``anomaly`` (the item itself is broken: the candidate is neither passed
    nor failed).

    Example:
        >>> r = Record("q-1", 0, "query", "anomaly", anomaly={"kind": "missing_reference"})
        >>> d = r.to_dict()
        >>> d["passed"], d["proved"], d["matched_reference"], d["anomaly"]["kind"]
        (None, None, None, 'missing_reference')
    """

    item_id: str
    sample: int | str
    reference_kind: str
    status: Status
    proved: bool | None = None
    matched_reference: str | None = None
    method: str | None = None
    cause: str | None = None
    detail: str | None = None
    counterexample: dict[str, Any] | None = None
    references: tuple[ReferenceOutcome, ...] = ()
    fixtures: dict[str, str] = field(default_factory=dict)
    predicate: dict[str, Any] | None = None
    error: dict[str, Any] | None = None
    anomaly: dict[str, Any] | None = None
    candidate_sql: str | None = None
    candidate_meta: dict[str, Any] = field(default_factory=dict)
    item_meta: dict[str, Any] = field(default_factory=dict)
    timings: dict[str, float] = field(default_factory=dict)
    sqlequiv_version: str | None = None
    #: The sample whose identical SQL was graded for this one (graded once, recorded twice).
    duplicate_of: int | str | None = None
    #: How many times the pair was graded: 2 when a rerun retried a worker crash or a
    #: timeout (the machine, not the candidate, may have been at fault), never more.
    attempts: int = 1

    @property
    def passed(self) -> bool | None:
        """True for a pass, False for a fail, unknown or error; None for an anomaly."""
        if self.status == "anomaly":
            return None
        return self.status == "pass"

    @property
    def key(self) -> tuple[str, str]:
        """What identifies the pair in a results file (resuming skips it)."""
        return (self.item_id, str(self.sample))

    def to_dict(self) -> RecordJSON:
        """Every key, always; nulls are written, never dropped."""
        return {
            "record_version": RECORD_VERSION,
            "item_id": self.item_id,
            "sample": self.sample,
            "reference_kind": self.reference_kind,
            "status": self.status,
            "passed": self.passed,
            "proved": self.proved,
            "matched_reference": self.matched_reference,
            "method": self.method,
            "cause": self.cause,
            "detail": self.detail,
            "counterexample": self.counterexample,
            "references": [r.to_dict() for r in self.references],
            "fixtures": self.fixtures,
            "predicate": self.predicate,
            "error": self.error,
            "anomaly": self.anomaly,
            "candidate_sql": self.candidate_sql,
            "candidate_meta": self.candidate_meta,
            "item_meta": self.item_meta,
            "timings": self.timings,
            "sqlequiv_version": self.sqlequiv_version,
            "duplicate_of": self.duplicate_of,
            "attempts": self.attempts,
        }

    def to_json(self) -> str:
        """One line of a results file."""
        return json.dumps(self.to_dict(), sort_keys=False, allow_nan=False, default=str)


#: The keys of every record on disk, in order.
RECORD_KEYS: tuple[str, ...] = tuple(Record("", 0, "query", "error").to_dict())
