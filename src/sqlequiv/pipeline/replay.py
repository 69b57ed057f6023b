"""Replaying a counterexample on other engines (``--replay-on``).

A counterexample is about the engine that ran it: ``round(2.5::float8)`` is 2 on
PostgreSQL and 3 on DuckDB, so a database that separates two queries on one engine
may not separate them on another. :func:`replay` loads the reported tables (their
JSON forms, each converted to its column's type by the engine, as
``sqlequiv fixtures`` writes them) into each other engine named, runs both queries
there and records whether their results differ. It never changes the verdict.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from sqlequiv.compare.rows import to_json_value
from sqlequiv.database import Database
from sqlequiv.errors import QueryFailed, Side, SqlequivError
from sqlequiv.execute import shared_executor
from sqlequiv.guard import guard_query
from sqlequiv.options import Options
from sqlequiv.pipeline.counterexample import difference
from sqlequiv.schema.model import Schema
from sqlequiv.verdict import Counterexample, Replay, Verdict

__all__ = ["replay"]


def replay(
    verdict: Verdict,
    candidate: str,
    reference: str,
    schema: Schema,
    dialect: str,
    options: Options,
    engines: Sequence[str],
) -> Verdict:
    """``verdict`` with its counterexample replayed on each of ``engines`` but the one
    that found it (unchanged unless it is ``not_equivalent``)."""
    example = verdict.counterexample
    if verdict.verdict != "not_equivalent" or example is None or not engines:
        return verdict
    ran_on = verdict.executed.get("engine")
    replays = {
        engine: replay_on(engine, example, candidate, reference, schema, dialect, options)
        for engine in dict.fromkeys(engines)
        if engine != ran_on
    }
    return dataclasses.replace(verdict, replays=replays)


def replay_on(
    engine: str,
    example: Counterexample,
    candidate: str,
    reference: str,
    schema: Schema,
    dialect: str,
    options: Options,
) -> Replay:
    """Whether ``example`` separates the two queries on ``engine``."""
    db = Database(
        {
            table.name: tuple(
                tuple(row.get(c) for c in table.column_names)
                for row in example.tables.get(table.name, [])
            )
            for table in schema
        }
    )
    sides: tuple[tuple[str, Side], ...] = ((candidate, "candidate"), (reference, "reference"))
    side: Side = "candidate"
    try:
        guarded = [
            guard_query(sql, schema, dialect=dialect, side=s, engine=engine,
                        max_length=options.max_query_length, max_nodes=options.max_query_nodes)
            for sql, s in sides
        ]  # fmt: skip
        executor = shared_executor(options.query_timeout, engine=engine)
        executor.prepare(schema)
        executor.load(db)
        results = []
        for query in guarded:
            side = query.side
            results.append(executor.run(query.executed_sql))
    except SqlequivError as err:
        return Replay(None, error=f"{err.side}: {err.kind}: {err.message}")
    except QueryFailed as exc:
        return Replay(None, error=f"{side}: {exc.kind}: {exc}")
    comparison, _ = difference(db, schema, guarded[0], guarded[1], results[0], results[1], options)
    rows = [[[to_json_value(v) for v in row] for row in r.rows] for r in results]
    separates = None if comparison.ambiguous else not comparison.equal
    return Replay(separates, rows[0], rows[1])
