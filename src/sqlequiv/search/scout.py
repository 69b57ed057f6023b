"""The random floor of a DuckDB pair, run on SQLite where the two engines agree.

A DuckDB statement costs about a millisecond even on an empty table, and a batch
statement three to five: DuckDB plans every statement afresh, and a batch spends
its time in the planner, not on the rows. A SQLite statement costs microseconds.
Where both queries stay in the fragment the two engines compute alike
(:func:`~sqlequiv.execute.portable.portable`) and every column they name holds values
both engines store alike (:func:`~sqlequiv.execute.portable.sqlite_stores_alike`), the
floor's databases are tried on SQLite and a find is shrunk there: the same
databases, drawn from the same stream, give the same answers.

SQLite only proposes. A find is reported once DuckDB re-executes it alone and
every constraint is re-checked there (:func:`~sqlequiv.pipeline.refute.verify`).
Where a LIMIT may tie, DuckDB's own tie analysis must also say that no tie-break
explains the difference. A find that DuckDB does not confirm, or a query SQLite
cannot run, sends the floor back to DuckDB from its start.
"""

from __future__ import annotations

from sqlequiv.errors import QueryError
from sqlequiv.execute import shared_executor
from sqlequiv.execute.portable import portable, sqlite_stores_alike
from sqlequiv.guard import on_engine
from sqlequiv.search.probe import Prober

#: The engine that stands in for DuckDB.
SCOUT_ENGINE = "sqlite"


def sqlite_scout(prober: Prober) -> Prober | None:
    """A prober that runs ``prober``'s two queries (on DuckDB) on SQLite instead, and
    counts what it sees in ``prober``'s statistics; None where SQLite may compute
    something else, or where a CHECK constraint only the engine can evaluate must
    judge each database.

    Example:
        >>> from sqlequiv.execute import shared_executor
        >>> from sqlequiv.guard import guard_query
        >>> from sqlequiv.options import Options
        >>> from sqlequiv.schema import load_schema
        >>> s = load_schema("CREATE TABLE t (a INTEGER, d DATE)")
        >>> def scout(cand, ref):
        ...     p = Prober(shared_executor(2.0), s, guard_query(cand, s),
        ...                guard_query(ref, s, side="reference"), Options())
        ...     return sqlite_scout(p)
        >>> scout("SELECT a FROM t WHERE a > 1", "SELECT a FROM t").executor.dialect
        'sqlite'
        >>> scout("SELECT a FROM t WHERE d > DATE '2020-01-01'", "SELECT a FROM t") is None
        True
    """
    if prober.executor.dialect != "duckdb" or prober.opaque_checks:
        return None
    schema = prober.schema
    queries = (prober.candidate, prober.reference)
    for query in queries:
        if not (
            query.fully_qualified
            and portable(query.qualified, schema)
            and sqlite_stores_alike(query.qualified, schema)
        ):
            return None
    try:
        # Not re-checked: a portable query holds no function but the aggregates, CASE,
        # IIF and COALESCE, so its translation holds none either (re-reading it cost a
        # millisecond a query), and SQLite's authorizer still guards what runs.
        candidate, reference = (
            on_engine(q, schema, SCOUT_ENGINE, recheck=False) for q in queries
        )
    except QueryError:
        return None
    executor = shared_executor(prober.executor.timeout, engine=SCOUT_ENGINE)
    scout = Prober(executor, schema, candidate, reference, prober.options)
    scout.stats = prober.stats
    return scout


__all__ = ["SCOUT_ENGINE", "sqlite_scout"]
