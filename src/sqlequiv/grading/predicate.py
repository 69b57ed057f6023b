"""Predicate items: the answer is a property of the rows, checked on fixtures and generated data.

The predicate (``module:function``) receives the candidate's rows as
mappings and, when it takes two parameters, the database the rows came
from; it returns True (holds), False (violated) or None (says nothing about
this database, e.g. a check written for one fixture). A predicate pass is
never a proof: it holds on every database tried.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlequiv.compare.rows import to_json_value
from sqlequiv.database import Database
from sqlequiv.database.constraints import python_violations, sql_violations
from sqlequiv.errors import QueryFailed
from sqlequiv.execute.base import Executor
from sqlequiv.guard import GuardedQuery
from sqlequiv.options import Options
from sqlequiv.results import ResultSet
from sqlequiv.schema.model import Schema
from sqlequiv.search.domains import build_domains
from sqlequiv.search.generate import RandomGenerator
from sqlequiv.search.harvest import harvest
from sqlequiv.suite.load import PredicateError, load_predicate
from sqlequiv.suite.model import Item


@dataclass(frozen=True)
class PredicateOutcome:
    """``status`` is pass, fail or unknown (the predicate never applied)."""

    status: str
    detail: str
    fixtures: dict[str, str] = field(default_factory=dict)
    summary: dict[str, Any] = field(default_factory=dict)
    counterexample: dict[str, Any] | None = None


def grade_predicate(
    item: Item,
    cand: GuardedQuery,
    fixture_results: Mapping[str, ResultSet],
    options: Options,
    engine: Executor,
    generated: int,
) -> PredicateOutcome:
    """Evaluate the item's predicate on every named fixture, then on ``generated`` databases."""
    try:
        predicate = load_predicate(item.predicate, item.base_dir)
    except PredicateError as err:
        return PredicateOutcome("unknown", f"predicate does not load: {err}")
    takes_tables = len(inspect.signature(predicate).parameters) == 2
    summary: dict[str, Any] = {
        "name": item.predicate,
        "generated": 0,
        "generated_holds": 0,
        "violated_on": None,
    }
    statuses: dict[str, str] = {}
    held = 0

    def evaluate(result: ResultSet, db: Database) -> bool | str | None:
        rows = [dict(zip(result.columns, row, strict=True)) for row in result.rows]
        try:
            value = predicate(rows, _tables(db, item.schema)) if takes_tables else predicate(rows)
        except MemoryError:
            raise  # the worker's memory limit, not a verdict on the candidate
        except Exception as err:  # the predicate's own failure on these rows
            return f"the predicate raised {type(err).__name__}: {err}"
        return None if value is None else bool(value)

    def violated(where: str, result: ResultSet, db: Database, why: str) -> PredicateOutcome:
        summary["violated_on"] = where
        example = {
            "name": where,
            "tables": _json_tables(db, item.schema),
            "candidate_columns": list(result.columns),
            "candidate_rows": [[to_json_value(v) for v in row] for row in result.rows],
            "detail": why,
        }
        return PredicateOutcome("fail", why, statuses, summary, example)

    for fixture in item.fixtures:
        result = fixture_results[fixture.name]
        value = evaluate(result, fixture.database)
        if isinstance(value, str) or value is False:
            statuses[fixture.name] = "violated"
            why = value if isinstance(value, str) else "the predicate is false"
            return violated(
                fixture.name, result, fixture.database, f"{why} on fixture {fixture.name!r}"
            )
        statuses[fixture.name] = "holds" if value else "not_applicable"
        held += bool(value)

    domains = build_domains(
        item.schema,
        harvest([cand.qualified]),
        options.max_rows,
        numeric_text=engine.dialect == "sqlite",
    )
    generator = RandomGenerator(item.schema, domains, seed=options.seed)
    for _ in range(generated):
        db = generator.draw(options.max_rows)
        if python_violations(db, item.schema):
            continue
        engine.load(db)
        if sql_violations(item.schema, engine.scalar, engine.dialect):
            continue
        try:
            result = engine.run(cand.executed_sql)
        except QueryFailed:
            continue  # a data-dependent failure says nothing about the property
        summary["generated"] += 1
        value = evaluate(result, db)
        if isinstance(value, str) or value is False:
            why = value if isinstance(value, str) else "the predicate is false"
            return violated("generated", result, db, f"{why} on a generated database")
        summary["generated_holds"] += bool(value)
        held += bool(value)
    if not held:
        return PredicateOutcome(
            "unknown", "the predicate applied to no database tried", statuses, summary
        )
    return PredicateOutcome(
        "pass", f"the predicate holds on {held} database(s) tried", statuses, summary
    )


def _tables(db: Database, schema: Schema) -> dict[str, list[dict[str, Any]]]:
    return {
        t.name: [dict(zip(t.column_names, row, strict=True)) for row in db.rows(t.name)]
        for t in schema
    }


def _json_tables(db: Database, schema: Schema) -> dict[str, list[dict[str, Any]]]:
    return {
        name: [{c: to_json_value(v) for c, v in row.items()} for row in rows]
        for name, rows in _tables(db, schema).items()
    }
