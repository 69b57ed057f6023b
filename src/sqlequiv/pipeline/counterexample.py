"""From two result sets to a reportable counterexample: compare, classify, name.

One function, :func:`difference`, used wherever a database showed the two queries'
results: the search's verification, the constant decision, and grading's named
fixtures. It claims nothing about where the database came from; the callers make
sure it is legal (every constraint re-checked) before they report it.

Example:
    >>> from sqlequiv.database import Database
    >>> from sqlequiv.guard import guard_query
    >>> from sqlequiv.options import Options
    >>> from sqlequiv.results import ResultSet
    >>> from sqlequiv.schema import load_schema
    >>> schema = load_schema("CREATE TABLE t (a INT)")
    >>> cand = guard_query("SELECT a FROM t WHERE a > 1", schema)
    >>> ref = guard_query("SELECT a FROM t WHERE a >= 1", schema)
    >>> comparison, example = difference(
    ...     Database({"t": ((1,),)}), schema, cand, ref,
    ...     ResultSet(("a",), ()), ResultSet(("a",), ((1,),)), Options())
    >>> comparison.equal, example.cause, example.missing_rows
    (False, 'filter_window', [[1]])
"""

from __future__ import annotations

from collections.abc import Callable

from sqlequiv.compare.classify import classify
from sqlequiv.compare.rows import compare_results, to_json_value
from sqlequiv.database import Database
from sqlequiv.guard import GuardedQuery
from sqlequiv.options import Options
from sqlequiv.results import Comparison, ResultSet
from sqlequiv.schema.model import Schema
from sqlequiv.search.probe import order_keys_for
from sqlequiv.verdict import Cause, Counterexample

#: A counterexample's name, given as is or chosen once its cause is known.
Name = str | Callable[[Cause], str]


def difference(
    db: Database,
    schema: Schema,
    cand: GuardedQuery,
    ref: GuardedQuery,
    cand_rows: ResultSet,
    ref_rows: ResultSet,
    options: Options,
    name: Name = "any_database",
) -> tuple[Comparison, Counterexample | None]:
    """The comparison of the two results on ``db``, and the counterexample it makes when
    they surely differ (None when they are equal, or when the column matching ran out of
    budget: an ``ambiguous`` comparison refutes nothing)."""
    comparison = compare_results(cand_rows, ref_rows, options, order_keys_for(ref, options))
    if comparison.equal or comparison.ambiguous:
        return comparison, None
    cause, detail = classify(comparison, cand_rows, ref_rows, cand.qualified, ref.qualified)
    named = name(cause) if callable(name) else name
    example = _build(db, schema, cand_rows, ref_rows, comparison, cause, detail, named)
    return comparison, example


def _build(
    db: Database,
    schema: Schema,
    cand_rows: ResultSet,
    ref_rows: ResultSet,
    comparison: Comparison,
    cause: Cause,
    detail: str,
    name: str,
) -> Counterexample:
    """The reportable form of a difference found on ``db`` (values as JSON)."""
    return Counterexample(
        tables={
            t.name: [
                {c: to_json_value(v) for c, v in zip(t.column_names, row, strict=True)}
                for row in db.rows(t.name)
            ]
            for t in schema
        },
        candidate_rows=[[to_json_value(v) for v in row] for row in cand_rows.rows],
        reference_rows=[[to_json_value(v) for v in row] for row in ref_rows.rows],
        cause=cause,
        detail=detail,
        name=name,
        candidate_columns=list(cand_rows.columns),
        reference_columns=list(ref_rows.columns),
        missing_rows=[[to_json_value(v) for v in row] for row in comparison.missing],
        extra_rows=[[to_json_value(v) for v in row] for row in comparison.extra],
    )
