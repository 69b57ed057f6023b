"""Item anomalies: what is wrong with an item itself, found once per item, before grading.

``blocking`` anomalies (no reference runs) make every record of the item an
``anomaly``; ``warning`` anomalies leave grading as it is but say that its
result rests on something doubtful:

- ``missing_reference`` / ``reference_error``: an accepted reference is empty,
  does not parse, is not read-only or does not execute;
- ``references_disagree``: two accepted references return different rows on
  a (verified) database — either the question admits both, or one is wrong;
- ``nondeterministic_reference``: a LIMIT or OFFSET without ORDER BY, or one
  that cuts through ties of its ORDER BY (shown by a database on which two
  tie-breaks of the same query return different rows);
- ``empty_on_all_fixtures``: every reference returns no row on every named
  fixture, so the fixtures pin nothing.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import sqlglot
from sqlglot import exp

from sqlequiv.api import check
from sqlequiv.errors import SqlequivError
from sqlequiv.execute import shared_executor
from sqlequiv.execute.base import Executor
from sqlequiv.grading.item import RunnableReference, reference_report
from sqlequiv.options import Options
from sqlequiv.search.ties import tie_broken
from sqlequiv.suite.model import Item
from sqlequiv.verdict import Verdict


def audit_item(
    item: Item, options: Options | None = None, *, executor: Executor | None = None
) -> list[dict[str, Any]]:
    """Every anomaly of ``item``, each ``{item_id, kind, severity, reference, detail,
    counterexample}``.

    Example:
        >>> from sqlequiv.suite import build_suite, SuiteDocument
        >>> suite = build_suite(SuiteDocument({"items": [{
        ...     "id": "q1", "question": "Any two ids?", "reference_kind": "query",
        ...     "schema": "CREATE TABLE t (id INT, v INT)",
        ...     "accepted_references": [
        ...         {"name": "top", "sql": "SELECT id FROM t ORDER BY v LIMIT 2"}]}]}))
        >>> [(a["kind"], a["severity"]) for a in audit_item(suite.item("q1"))]
        [('nondeterministic_reference', 'warning')]
    """
    options = options or Options()
    engine = executor or shared_executor(options.query_timeout, item.dialect)
    found: list[dict[str, Any]] = []

    def add(kind: str, severity: str, detail: str, reference: str | None = None,
            counterexample: dict[str, Any] | None = None) -> None:  # fmt: skip
        found.append(
            {
                "item_id": item.id,
                "kind": kind,
                "severity": severity,
                "reference": reference,
                "detail": detail,
                "counterexample": counterexample,
            }
        )

    if item.reference_kind == "predicate" and not item.references:
        return found
    try:
        engine.prepare(item.schema)
    except SqlequivError as err:
        add("schema_error", "blocking", err.message)
        return found
    report = reference_report(item, engine)
    blocking = report.anomaly
    if blocking is not None and item.reference_kind == "query":
        add(blocking["kind"], "blocking", blocking["detail"])
        return found
    for name, why in report.broken.items():
        kind = "missing_reference" if why == "missing SQL" else "reference_error"
        add(kind, "warning", f"reference {name!r} cannot be used: {why}", name)
    runnable = report.runnable
    for ref in runnable:
        nondeterminism = _nondeterminism(item, ref, options, engine)
        if nondeterminism is not None:
            add("nondeterministic_reference", "warning", nondeterminism[0], ref.reference.name,
                nondeterminism[1])  # fmt: skip
    if runnable:
        first = runnable[0]
        for other in runnable[1:]:
            verdict = _check_with_data(
                other.reference.sql, first.reference.sql, item, options, engine
            )
            if verdict.verdict == "not_equivalent" and verdict.counterexample is not None:
                add(
                    "references_disagree",
                    "warning",
                    f"references {other.reference.name!r} and {first.reference.name!r} differ: "
                    f"{verdict.counterexample.detail}",
                    other.reference.name,
                    verdict.counterexample.to_dict(),
                )
    if (
        item.fixtures
        and runnable
        and all(not ref.results[f.name].rows for ref in runnable for f in item.fixtures)
    ):
        add(
            "empty_on_all_fixtures",
            "warning",
            "every reference returns no row on every named fixture: the fixtures pin nothing",
        )
    return found


def _nondeterminism(
    item: Item, ref: RunnableReference, options: Options, engine: Executor
) -> tuple[str, dict[str, Any] | None] | None:
    """Why ``ref``'s rows depend on the engine's choice among ties, or None."""
    try:
        tree = sqlglot.parse_one(ref.reference.sql, read=item.dialect)
    except sqlglot.errors.SqlglotError:
        return None
    if not isinstance(tree, exp.Query) or not (tree.args.get("limit") or tree.args.get("offset")):
        return None
    order = tree.args.get("order")
    if order is None:
        return ("LIMIT/OFFSET without ORDER BY: which rows come back is the engine's choice", None)
    width = len(ref.results["(empty database)"].columns)

    def variant(descending: bool) -> str:
        return tie_broken(tree, width, descending=descending, dialect=item.dialect)

    verdict = _check_with_data(
        variant(False), variant(True), item, dataclasses.replace(options, check_order=False),
        engine,
    )  # fmt: skip
    if verdict.verdict != "not_equivalent" or verdict.counterexample is None:
        return None
    return (
        "LIMIT cuts through ties of the ORDER BY: two tie-breaks return different rows on the "
        "counterexample database",
        verdict.counterexample.to_dict(),
    )


def _check_with_data(
    candidate: str, reference: str, item: Item, options: Options, engine: Executor
) -> Verdict:
    """``check`` against the item's data (its counterexample then has a realism), or
    without it when the data cannot serve (it cannot be read, or does not match the
    schema): an anomaly is still looked for, untiered."""
    verdict = check(candidate, reference, item.schema, item.dialect, options,
                    executor=engine, data=item.data)  # fmt: skip
    if verdict.verdict == "error" and item.data is not None:
        verdict = check(candidate, reference, item.schema, item.dialect, options,
                        executor=engine)  # fmt: skip
    return verdict
