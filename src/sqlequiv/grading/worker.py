"""What a grading worker does, whatever runs it (this process, a local process, a Ray actor).

A worker builds the suite once from its :class:`SuiteDocument` (so it has
its own parsed schemas and fixtures) and then uses one DuckDB connection for
every task it handles. A task is either grading one (item, candidate) pair or
auditing one item; the answer is plain JSON-ready data, so it crosses
process and machine boundaries unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, cast

from sqlequiv._version import __version__
from sqlequiv.errors import InvalidOption
from sqlequiv.execute import shared_executor
from sqlequiv.grading.anomalies import audit_item
from sqlequiv.grading.item import FAIL_ON, grade
from sqlequiv.grading.record import Record
from sqlequiv.options import Options
from sqlequiv.policy.catalogues import ENGINES
from sqlequiv.suite.load import SuiteDocument, build_suite
from sqlequiv.suite.model import Suite


@dataclass(frozen=True)
class Task:
    """One unit of work: ``grade`` a candidate, or ``audit`` an item."""

    kind: Literal["grade", "audit"]
    item_id: str
    sample: int | str = 0
    sql: str = ""
    meta: dict[str, Any] = field(default_factory=dict)
    #: 1, or 2 for a rerun's retry of a pair whose worker crashed or timed out.
    attempt: int = 1

    @property
    def key(self) -> tuple[str, str]:
        return (self.item_id, str(self.sample))


@dataclass(frozen=True)
class Settings:
    """How to grade: check options, strictness, predicate effort, the per-task wall clock
    and the memory a worker process may take.

    Example:
        >>> Settings(memory_limit_mb=-1)
        Traceback (most recent call last):
        ...
        sqlequiv.errors.InvalidOption: options: ... memory_limit_mb=-1 must not be negative
    """

    options: Options = field(default_factory=Options)
    strict: bool = False
    #: Which refutations fail a candidate, by how realistic their counterexample is (an
    #: item with ``data:``): ``any`` (every refutation, the default), ``realistic`` (not
    #: one that only an edge case shows) or ``on_data`` (only a difference on the data).
    fail_on: str = "any"
    predicate_databases: int = 30
    #: A task still running after this many seconds is killed and recorded as an error.
    task_timeout: float = 120.0
    #: Address space, in MiB, a local worker process may take on top of what it holds
    #: once started (Linux; 0: no limit). DuckDB's memory_limit covers its buffers, not
    #: every allocation, nor z3's or Python's: past this, an allocation fails (a
    #: ``resource_limit`` or ``internal_error`` record) or the worker dies (a
    #: ``worker_crashed`` record), and only that task is lost. Measured on top of the
    #: footprint because an idle worker already reserves 1.3 GiB of mostly unbacked
    #: address space on a 2-core machine (thread stacks and malloc arenas, which grow
    #: with the number of cores), while grading adds some 100 MiB.
    memory_limit_mb: int = 4096
    #: Where every item's queries run (``--engine``); None: each item's dialect decides.
    engine: str | None = None

    def __post_init__(self) -> None:
        if self.engine is not None and self.engine not in ENGINES:
            raise InvalidOption(f"engine={self.engine!r} must be one of {', '.join(ENGINES)}")
        limit = self.memory_limit_mb
        if isinstance(limit, bool) or not isinstance(limit, int):
            raise InvalidOption(f"memory_limit_mb={limit!r} must be a whole number")
        if limit < 0:
            raise InvalidOption(f"memory_limit_mb={limit!r} must not be negative")
        if self.fail_on not in FAIL_ON:
            raise InvalidOption(f"fail_on={self.fail_on!r} must be one of {', '.join(FAIL_ON)}")


class Worker:
    """Handles tasks against one suite.

    Example:
        >>> doc = SuiteDocument({"items": [{
        ...     "id": "q1", "question": "?", "reference_kind": "query",
        ...     "schema": "CREATE TABLE t (a INT)",
        ...     "accepted_references": [{"name": "r", "sql": "SELECT a FROM t"}]}]})
        >>> Worker(doc, Settings()).handle(Task("grade", "q1", 0, "SELECT t.a FROM t"))["status"]
        'pass'
    """

    def __init__(self, document: SuiteDocument, settings: Settings) -> None:
        self.suite: Suite = build_suite(document)
        self.settings = settings

    def warm_up(self) -> None:
        """Open what every task will use (the engine of each dialect of the suite, z3), so
        that a worker's footprint is measured with them before its memory is limited."""
        for dialect in sorted({item.dialect for item in self.suite.items}):
            shared_executor(
                self.settings.options.query_timeout, dialect, engine=self.settings.engine
            )
        if self.settings.options.symbolic:
            import z3  # noqa: F401  (the symbolic layer loads it on the first pair)

    def handle(self, task: Task) -> dict[str, Any]:
        """The record (``grade``) or ``{"anomalies": [...]}`` (``audit``) for ``task``."""
        item = self.suite.item(task.item_id)
        engine = shared_executor(
            self.settings.options.query_timeout, item.dialect, engine=self.settings.engine
        )
        if task.kind == "audit":
            return {"anomalies": audit_item(item, self.settings.options, executor=engine)}
        record = grade(
            item,
            task.sql,
            self.settings.options,
            sample=task.sample,
            candidate_meta=task.meta,
            strict=self.settings.strict,
            fail_on=self.settings.fail_on,
            predicate_databases=self.settings.predicate_databases,
            executor=engine,
        )
        return _payload(record)


def _payload(record: Record) -> dict[str, Any]:
    """A record as the pipe carries it: one untyped dict, whether a record or an audit's."""
    return cast("dict[str, Any]", record.to_dict())


def failed_result(suite: Suite, task: Task, kind: str, message: str) -> dict[str, Any]:
    """The result of a task whose worker died or ran out of time (written by the parent)."""
    item = suite.item(task.item_id)
    if task.kind == "audit":
        anomaly = {
            "item_id": task.item_id,
            "kind": "audit_failed",
            "severity": "warning",
            "reference": None,
            "detail": f"{kind}: {message}",
            "counterexample": None,
        }
        return {"anomalies": [anomaly]}
    return _payload(
        Record(
            item_id=task.item_id,
            sample=task.sample,
            reference_kind=item.reference_kind,
            status="error",
            error={
                "side": "candidate",
                "kind": kind,
                "message": message,
                "line": None,
                "col": None,
            },
            candidate_sql=task.sql,
            candidate_meta=dict(task.meta),
            item_meta=dict(item.meta),
            sqlequiv_version=__version__,
        )
    )
