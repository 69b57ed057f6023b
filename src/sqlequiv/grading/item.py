"""Grade one candidate for one suite item: ``grade(item, candidate) -> Record``.

The order is cheap to expensive, and soundness decides every step:

1. the item's references must run (else the record is an ``anomaly``: a
   broken item neither passes nor fails anyone);
2. the candidate must be a read-only query that executes on every named
   fixture (else ``error``);
3. each named fixture is compared with each reference: a fixture is a legal
   database (checked when the suite loaded), so a difference on it refutes;
4. the references no fixture refuted go through the check's own stages
   (:func:`sqlequiv.api.check_guarded`) in order, until one is proved equivalent:
   with the queries as guarded here and their results on the empty database, so
   nothing is guarded or executed twice.

The candidate passes when it is proved equivalent to one accepted reference
(``proved: true``), or when no reference is proved, at least one is neither
proved nor refuted and every fixture matched it (``proved: false``, an
*unrefuted* pass; ``strict`` makes that ``unknown``). It fails only when every
usable reference is refuted by a verified counterexample.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlequiv._version import __version__
from sqlequiv.api import check_guarded
from sqlequiv.data.source import read_data
from sqlequiv.database import Database
from sqlequiv.errors import QueryFailed, SqlequivError
from sqlequiv.execute import shared_executor
from sqlequiv.execute.base import Executor
from sqlequiv.grading.predicate import grade_predicate
from sqlequiv.grading.record import Record, ReferenceOutcome
from sqlequiv.guard import GuardedQuery, guard_query
from sqlequiv.options import Options
from sqlequiv.pipeline import PROVING_STAGES, STAGES, Stage
from sqlequiv.pipeline.counterexample import difference
from sqlequiv.results import ResultSet
from sqlequiv.suite.model import Fixture, Item, Reference

EMPTY = Fixture("(empty database)", Database({}))


@dataclass(frozen=True)
class RunnableReference:
    """A reference that parsed, passed the guard and ran on every fixture."""

    reference: Reference
    query: GuardedQuery
    results: Mapping[str, ResultSet]


@dataclass(frozen=True)
class ReferenceReport:
    """Which references of an item run, and why the others do not."""

    runnable: tuple[RunnableReference, ...]
    #: reference name -> why it cannot be used (missing SQL, parse error, execution error).
    broken: Mapping[str, str]

    @property
    def anomaly(self) -> dict[str, Any] | None:
        """The item-level anomaly that blocks grading, or None."""
        if self.runnable:
            return None
        if not self.broken:
            return {"kind": "missing_reference", "detail": "the item declares no reference query"}
        if all(why == "missing SQL" for why in self.broken.values()):
            return {"kind": "missing_reference", "detail": "every accepted reference is empty"}
        detail = "; ".join(f"{name}: {why}" for name, why in self.broken.items())
        return {"kind": "reference_error", "detail": f"no accepted reference runs ({detail})"}


def grade(
    item: Item,
    candidate: str,
    options: Options | None = None,
    *,
    sample: int | str = 0,
    candidate_meta: Mapping[str, Any] | None = None,
    strict: bool = False,
    fail_on: str = "any",
    predicate_databases: int = 30,
    executor: Executor | None = None,
) -> Record:
    """Grade ``candidate`` for ``item``; never raises for bad SQL.

    Example:
        >>> from sqlequiv.suite import build_suite, SuiteDocument
        >>> suite = build_suite(SuiteDocument({"items": [{
        ...     "id": "q1", "question": "Ids above 1?", "reference_kind": "query",
        ...     "schema": "CREATE TABLE t (id INT PRIMARY KEY)",
        ...     "accepted_references": [{"name": "gt", "sql": "SELECT id FROM t WHERE id > 1"}]}]}))
        >>> r = grade(suite.item("q1"), "SELECT id FROM t WHERE NOT id <= 1")
        >>> r.status, r.proved, r.matched_reference
        ('pass', True, 'gt')
        >>> r = grade(suite.item("q1"), "SELECT id FROM t WHERE id >= 1")
        >>> r.status, r.cause
        ('fail', 'filter_window')
    """
    options = options or Options()
    start = time.perf_counter()
    base: dict[str, Any] = {
        "item_id": item.id,
        "sample": sample,
        "reference_kind": item.reference_kind,
        "candidate_sql": candidate,
        "candidate_meta": dict(candidate_meta or {}),
        "item_meta": dict(item.meta),
        "sqlequiv_version": __version__,
    }

    def done(status: str, **fields: Any) -> Record:
        timings = {"total_ms": round((time.perf_counter() - start) * 1000, 3)}
        record: Record = Record(status=status, timings=timings, **base, **fields)  # type: ignore[arg-type]
        return record

    engine = executor or shared_executor(options.query_timeout, item.dialect)
    try:
        engine.prepare(item.schema)
    except SqlequivError as err:  # a schema DuckDB cannot create: the item is broken
        return done("anomaly", anomaly={"kind": "schema_error", "detail": err.message})
    if item.reference_kind == "query":
        report = reference_report(item, engine)
        if report.anomaly is not None:
            return done("anomaly", anomaly=report.anomaly)
    try:
        cand = guard_query(
            candidate,
            item.schema,
            dialect=item.dialect,
            side="candidate",
            engine=engine.dialect,
            max_length=options.max_query_length,
            max_nodes=options.max_query_nodes,
            lower_case_table_names=options.mysql_lower_case_table_names,
            only_full_group_by=options.mysql_only_full_group_by,
        )
    except SqlequivError as err:
        return done("error", error=_error(err.kind, err.message, err.line, err.col))
    ran = run_on_fixtures(cand, item, engine)
    if isinstance(ran, QueryFailed):
        return done("error", error=_error(ran.kind, str(ran)))
    if item.reference_kind == "predicate":
        outcome = grade_predicate(item, cand, ran, options, engine, predicate_databases)
        return done(
            outcome.status,
            proved=False if outcome.status == "pass" else None,
            method="predicate",
            detail=outcome.detail,
            counterexample=outcome.counterexample,
            fixtures=outcome.fixtures,
            predicate=outcome.summary,
        )
    return _grade_query(
        item, candidate, cand, ran, report, options, engine, strict, done, fail_on
    )


def _grade_query(
    item: Item,
    candidate: str,
    cand: GuardedQuery,
    cand_results: Mapping[str, ResultSet],
    report: ReferenceReport,
    options: Options,
    engine: Executor,
    strict: bool,
    done: Callable[..., Record],
    fail_on: str = "any",
) -> Record:
    outcomes: dict[str, ReferenceOutcome] = {
        name: ReferenceOutcome(name, "error", detail=why) for name, why in report.broken.items()
    }
    fixture_status: dict[str, str] = {}
    to_check: list[RunnableReference] = []
    for ref in report.runnable:
        refuted = _refuting_fixture(item, cand, cand_results, ref, options)
        for fixture in item.fixtures:
            fixture_status.setdefault(fixture.name, "match")
        if refuted is not None:
            outcomes[ref.reference.name] = refuted
            if refuted.fixture is not None:
                fixture_status[refuted.fixture] = "differ"
        else:
            to_check.append(ref)
    proof_only = dataclasses.replace(
        options, max_fixtures=0, floor_databases=0, time_budget=0.0, max_bound=0,
        bounded_time_budget=0.0,
    )  # fmt: skip
    proved: ReferenceOutcome | None = None
    if len(to_check) > 1:
        # A proof against any reference passes the candidate, whatever the others say
        # (the item audit compares the references with each other): try the proofs
        # first, so that a proof against the second reference does not wait for a full
        # search against the first.
        for ref in to_check:
            outcome = _check_reference(
                cand, cand_results, ref, item, proof_only, engine, PROVING_STAGES
            )
            if isinstance(outcome, dict):
                return done("error", error=outcome)
            if outcome.verdict == "equivalent":
                outcomes[ref.reference.name] = proved = outcome
                break
    effort = options
    for ref in to_check if proved is None else ():
        outcome = _check_reference(cand, cand_results, ref, item, effort, engine)
        if isinstance(outcome, dict):
            return done("error", error=outcome)
        if outcome.verdict == "unknown":
            # The pass is unrefuted now; what is left to gain is a proof against another
            # reference, and a search the last one survived would not refute this one.
            effort = proof_only
        outcomes[ref.reference.name] = outcome
        if outcome.verdict == "equivalent":
            proved = outcome
            break
    ordered = tuple(
        outcomes.get(r.name, ReferenceOutcome(r.name, "not_checked")) for r in item.references
    )
    common = {"references": ordered, "fixtures": fixture_status}
    if proved is not None:
        return done(
            "pass", proved=True, matched_reference=proved.name, method=proved.method, **common
        )
    unrefuted = [o for o in ordered if o.verdict == "unknown"]
    if unrefuted:
        if strict:
            return done("unknown", detail="not proved and not refuted (strict grading)", **common)
        return done(
            "pass",
            proved=False,
            matched_reference=unrefuted[0].name,
            method="unrefuted",
            detail="no counterexample found and every fixture matches; not proved",
            **common,
        )
    refutations = [o for o in ordered if o.verdict == "not_equivalent"]
    waived = [o for o in refutations if not _fails(o, fail_on)]
    if refutations and len(refutations) == len(report.runnable) and waived:
        # Every reference is refuted, but only by counterexamples less realistic than
        # --fail-on asks: the candidate is not failed for them (nor proved).
        tiers = sorted({str((o.counterexample or {}).get("realism")) for o in waived})
        return done(
            "pass",
            proved=False,
            matched_reference=waived[0].name,
            method="unrefuted",
            detail=f"refuted only by {', '.join(tiers)} counterexamples, which "
            f"--fail-on {fail_on} does not fail",
            counterexample=waived[0].counterexample,
            **common,
        )
    if refutations and len(refutations) == len(report.runnable):
        first = refutations[0]
        return done(
            "fail",
            method=first.method,
            cause=first.cause,
            detail=first.detail,
            counterexample=first.counterexample,
            **common,
        )
    return done("unknown", detail="a reference failed on a generated database", **common)


def _check_reference(
    cand: GuardedQuery,
    cand_results: Mapping[str, ResultSet],
    ref: RunnableReference,
    item: Item,
    effort: Options,
    engine: Executor,
    stages: tuple[Stage, ...] = STAGES,
) -> ReferenceOutcome | dict[str, Any]:
    """The candidate checked against one reference, or the candidate's own error record."""
    verdict = check_guarded(
        cand,
        ref.query,
        item.schema,
        effort,
        executor=engine,
        empty_results=(cand_results[EMPTY.name], ref.results[EMPTY.name]),
        stages=stages,
        # Read once per process and file (cached), sorted against for every candidate.
        data=read_data(item.data, item.schema) if item.data is not None else None,
    )
    if verdict.verdict == "error" and verdict.error is not None:
        e = verdict.error
        if e.side == "candidate":
            return _error(e.kind, e.message, e.line, e.col)
        return ReferenceOutcome(ref.reference.name, "error", detail=e.message)
    ce = verdict.counterexample
    return ReferenceOutcome(
        ref.reference.name,
        verdict.verdict,
        method=verdict.method,
        cause=ce.cause if ce else None,
        detail=ce.detail if ce else None,
        counterexample=ce.to_dict() if ce else None,
        evidence=verdict.evidence.to_dict(),
    )


#: The --fail-on thresholds, least realistic first.
FAIL_ON = ("any", "realistic", "on_data")
#: How realistic each tier is (a counterexample not sorted against data always fails).
_TIER_RANK = {"edge": 0, "realistic": 1, "on_data": 2}


def _fails(outcome: ReferenceOutcome, fail_on: str) -> bool:
    """Whether a refutation fails the candidate under ``--fail-on``: a named fixture's, or
    one not sorted against data, always does."""
    realism = (outcome.counterexample or {}).get("realism")
    if fail_on == "any" or realism is None or outcome.fixture is not None:
        return True
    return _TIER_RANK.get(str(realism), 0) >= FAIL_ON.index(fail_on)


def _refuting_fixture(
    item: Item,
    cand: GuardedQuery,
    cand_results: Mapping[str, ResultSet],
    ref: RunnableReference,
    options: Options,
) -> ReferenceOutcome | None:
    for fixture in item.fixtures:
        cand_rows, ref_rows = cand_results[fixture.name], ref.results[fixture.name]
        _, example = difference(
            fixture.database, item.schema, cand, ref.query, cand_rows, ref_rows, options,
            fixture.name,
        )  # fmt: skip
        if example is None:
            continue
        return ReferenceOutcome(
            ref.reference.name,
            "not_equivalent",
            method="fixture",
            cause=example.cause,
            detail=example.detail,
            fixture=fixture.name,
            counterexample=example.to_dict(),
        )
    return None


def run_on_fixtures(
    query: GuardedQuery, item: Item, engine: Executor
) -> dict[str, ResultSet] | QueryFailed:
    """The query's result on the empty database and on every named fixture, or why it failed."""
    engine.prepare(item.schema)
    results: dict[str, ResultSet] = {}
    for fixture in (EMPTY, *item.fixtures):
        engine.load(fixture.database)
        try:
            results[fixture.name] = engine.run(query.executed_sql)
        except QueryFailed as exc:
            where = "" if fixture is EMPTY else f" on fixture {fixture.name!r}"
            failed = QueryFailed(
                f"{exc}{where}", static=exc.static, timeout=exc.timeout, resource=exc.resource
            )
            failed.side = exc.side
            return failed
    return results


#: Reference reports per item, so that grading many candidates of one item runs
#: its references once. Keyed by identity; the item is kept alive with its report.
_REPORTS: dict[int, tuple[Item, ReferenceReport]] = {}
_MAX_REPORTS = 1024


def reference_report(item: Item, engine: Executor) -> ReferenceReport:
    """Run every accepted reference of ``item`` on the empty database and each fixture."""
    cached = _REPORTS.get(id(item))
    if cached is not None and cached[0] is item:
        return cached[1]
    runnable: list[RunnableReference] = []
    broken: dict[str, str] = {}
    for ref in item.references:
        if not ref.sql.strip():
            broken[ref.name] = "missing SQL"
            continue
        try:
            query = guard_query(
                ref.sql, item.schema, dialect=item.dialect, side="reference", engine=engine.dialect
            )
        except SqlequivError as err:
            broken[ref.name] = f"{err.kind}: {err.message}"
            continue
        ran = run_on_fixtures(query, item, engine)
        if isinstance(ran, QueryFailed):
            broken[ref.name] = f"{ran.kind}: {ran}"
            continue
        runnable.append(RunnableReference(ref, query, ran))
    report = ReferenceReport(tuple(runnable), broken)
    if len(_REPORTS) >= _MAX_REPORTS:
        _REPORTS.clear()
    _REPORTS[id(item)] = (item, report)
    return report


def _error(
    kind: str, message: str, line: int | None = None, col: int | None = None
) -> dict[str, Any]:
    return {"side": "candidate", "kind": kind, "message": message, "line": line, "col": col}
