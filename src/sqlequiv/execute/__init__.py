"""The engines queries run on, each sandboxed for untrusted SQL, behind one interface.

* :mod:`~sqlequiv.execute.base`: the :class:`Executor` interface the core calls;
* :mod:`~sqlequiv.execute.duckdb_engine`: DuckDB, for every dialect but ``sqlite``;
* :mod:`~sqlequiv.execute.sqlite_engine`: SQLite itself, for ``sqlite`` queries unchanged;
* :mod:`~sqlequiv.execute.postgres_engine`: a real PostgreSQL, for ``postgres`` queries
  (the server: :mod:`~sqlequiv.execute.postgres_server`; psycopg is imported only there).
"""

from __future__ import annotations

import threading

from sqlequiv.errors import QueryFailed
from sqlequiv.execute.base import Executor
from sqlequiv.execute.duckdb_engine import DuckDBExecutor, sandboxed_connection
from sqlequiv.execute.sqlite_engine import SQLiteExecutor
from sqlequiv.policy.catalogues import engine_for

__all__ = [
    "DuckDBExecutor",
    "Executor",
    "QueryFailed",
    "SQLiteExecutor",
    "engine_for",
    "sandboxed_connection",
    "shared_executor",
]

_local = threading.local()


def shared_executor(
    timeout: float, dialect: str = "duckdb", *, engine: str | None = None
) -> Executor:
    """The calling thread's reused executor for ``engine`` (created on first use), by
    default the engine of ``dialect``: SQLite for ``sqlite``, PostgreSQL for ``postgres``,
    DuckDB for every other dialect.

    Raises:
        EngineUnavailable: the PostgreSQL driver or server is missing.
    """
    engine = engine or engine_for(dialect)
    executors: dict[str, Executor] = _local.__dict__.setdefault("executors", {})
    executor = executors.get(engine)
    if executor is None:
        if engine == "sqlite":
            executor = SQLiteExecutor(timeout=timeout)
        elif engine == "postgres":
            from sqlequiv.execute.postgres_engine import PostgresExecutor

            executor = PostgresExecutor(timeout=timeout)
        else:
            executor = DuckDBExecutor(timeout=timeout)
        executors[engine] = executor
    executor.timeout = timeout
    return executor
