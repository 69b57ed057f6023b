"""The PostgreSQL executor: queries in the ``postgres`` dialect run on a real PostgreSQL.

DuckDB is not PostgreSQL: ``round(2.5::float8)`` is 2 on PostgreSQL (half to
even, the C library's rint) and 3 on DuckDB; ``int / int`` truncates; NULLs sort
first in a descending order; ``char(n)`` ignores trailing spaces. Graders of
PostgreSQL benchmarks need PostgreSQL's answers, so the queries run on one:
a private server this process starts (:mod:`~sqlequiv.execute.postgres_server`)
or one the user names with a URL.

Each executor works in a schema of its own (``sqlequiv_<pid>_<n>``), whose tables
carry the schema's column types and no constraint (the search enforces them and
re-checks them in SQL). Two connections: the *owner*'s creates the tables and
writes each database in one round trip (``DELETE`` and multi-row ``INSERT``s in one
transaction); the *query* connection runs the untrusted SQL.

The sandbox, for untrusted SQL (the guard's refusals are the first wall, this the
second): on a private server queries run as ``sqlequiv_query``, a login role that
is not a superuser, cannot create databases or roles, may only connect to the one
database, use the check's schema and SELECT its tables (nothing on ``public``, no
temporary tables), runs every transaction read-only, and whose
``statement_timeout`` is the executor's timeout, with ``temp_file_limit``,
``work_mem``, ``idle_in_transaction_session_timeout`` and a connection limit;
``set_config``, ``current_setting`` and the server-signalling functions are
revoked from it. The superuser-only functions (``pg_read_file``, ``pg_ls_dir``,
``lo_import``, ``lo_export``, ``COPY ... PROGRAM``, ``COPY ... TO`` a file) fail for
it, and no extension can be created. A client-side watchdog cancels a query that
outlives the timeout by a second, whatever the session's settings say.

On a server named by a URL, queries run as the URL's user on a second
connection whose transactions are read-only and whose statement timeout is set;
give that URL a role with no more rights than the check needs.
"""

from __future__ import annotations

import atexit
import contextlib
import datetime as dt
import decimal
import itertools
import math
import os
import uuid
from typing import Any

from sqlequiv.database import Database
from sqlequiv.errors import QueryFailed, SchemaError
from sqlequiv.execute.base import Watchdog, WrittenOnActivate, first_line
from sqlequiv.execute.postgres_server import (
    OWNER,
    QUERY_ROLE,
    URL_VARIABLE,
    EngineUnavailable,
    import_psycopg,
    private_server,
)
from sqlequiv.results import ResultSet
from sqlequiv.schema.model import Schema
from sqlequiv.schema.model import quote_identifier as _q

#: SQLSTATE classes and codes whose cause is the query text, not the data: syntax
#: errors, undefined tables, columns and functions, type mismatches, missing
#: privileges (class 42), features not supported (0A), a write in a read-only
#: transaction (25006).
_STATIC_CLASSES = ("42", "0A")
_STATIC_CODES = frozenset({"25006", "2BP01"})
#: Limits of ours: insufficient resources (53), program limits (54), a cancelled query.
_RESOURCE_CLASSES = ("53", "54")
_CANCELED = "57014"

_counter = itertools.count(1)


class PostgresExecutor(WrittenOnActivate):
    """The sandboxed PostgreSQL executor (same interface as the DuckDB one).

    Example:
        >>> from sqlglot import exp
        >>> from sqlequiv.schema.model import Column, Schema, Table
        >>> ex = PostgresExecutor(timeout=1.0)
        >>> ex.prepare(Schema((Table("t", (Column("x", exp.DataType.build("DOUBLE")),)),)))
        >>> ex.load(Database({"t": ((2.5,), (3.5,))}))
        >>> ex.run("SELECT round(x) FROM t ORDER BY x").rows   # half to even, unlike DuckDB
        ((2.0,), (4.0,))
    """

    #: The dialect of the SQL this executor runs.
    dialect = "postgres"

    def __init__(self, *, timeout: float = 2.0, url: str | None = None) -> None:
        psycopg = import_psycopg()
        self._psycopg = psycopg
        self.timeout = timeout
        self.url = url if url is not None else (os.environ.get(URL_VARIABLE) or None)
        try:
            if self.url is None:
                server = private_server()
                owner_info, query_info = server.conninfo(OWNER), server.conninfo(QUERY_ROLE)
                self.startup_seconds = server.startup_seconds
            else:
                owner_info = query_info = self.url
                self.startup_seconds = 0.0
            self._owner = psycopg.connect(owner_info, autocommit=True, connect_timeout=10)
            self._query = psycopg.connect(query_info, autocommit=True, connect_timeout=10)
        except psycopg.Error as exc:
            where = "the server of --postgres-url" if self.url else "the private PostgreSQL server"
            raise EngineUnavailable(f"cannot connect to {where}: {first_line(exc)}") from exc
        #: Which server runs the queries (a verdict's ``executed["server"]``).
        self.server: str = (
            server.description
            if self.url is None
            else f"PostgreSQL {self._owner.info.parameter_status('server_version')}, "
            "the server of --postgres-url"
        )
        self._query.execute("SET default_transaction_read_only = on")
        # Text compares byte by byte only under the C collation (a private server's);
        # the prover's text comparisons mean that (see pipeline/prove.py).
        collation = self._owner.execute(
            "SELECT datcollate FROM pg_database WHERE datname = current_database()"
        ).fetchone()
        self.bytewise_text = collation is not None and collation[0] in ("C", "POSIX")
        self._schema_name = f"sqlequiv_{os.getpid()}_{next(_counter)}"
        self._owner.execute(f"CREATE SCHEMA {_q(self._schema_name)}")
        if self.url is None:
            self._owner.execute(f"GRANT USAGE ON SCHEMA {_q(self._schema_name)} TO {QUERY_ROLE}")
        self._query.execute(f"SET search_path = {_q(self._schema_name)}")
        self._watchdog = Watchdog(self._cancel)
        self._session_timeout: float | None = None
        self._schema: Schema | None = None
        self._ddl: str | None = None
        self._staged: dict[int, Database] = {}
        self._next = 0
        self._active: Database | None = None
        if self.url is not None:
            # A private server goes away with its directory; a user's keeps what we leave.
            atexit.register(self.close)

    def close(self) -> None:
        """Drop this executor's schema and close both connections."""
        if self._owner.closed:
            return
        with contextlib.suppress(self._psycopg.Error):
            self._owner.execute(f"DROP SCHEMA IF EXISTS {_q(self._schema_name)} CASCADE")
        self._query.close()
        self._owner.close()

    # -- loading ------------------------------------------------------------

    def prepare(self, schema: Schema) -> None:
        """Create empty tables for ``schema`` (dropping the previous schema's)."""
        statements = []
        for table in schema.tables:
            columns = ", ".join(f"{_q(c.name)} {_pg_type(c.type)}" for c in table.columns)
            statements.append(f"CREATE TABLE {_q(table.name)} ({columns})")
        ddl = ";\n".join(statements)
        if ddl == self._ddl:
            self.load(Database({}))
            return
        name = _q(self._schema_name)
        script = [f"DROP SCHEMA IF EXISTS {name} CASCADE", f"CREATE SCHEMA {name}"]
        script.append(f"SET search_path = {name}")
        script += statements
        if self.url is None:
            script.append(f"GRANT USAGE ON SCHEMA {name} TO {QUERY_ROLE}")
            script.append(f"GRANT SELECT ON ALL TABLES IN SCHEMA {name} TO {QUERY_ROLE}")
        self._ddl = None
        try:
            self._owner.execute(";\n".join(["BEGIN", *script, "COMMIT"]))
        except self._psycopg.Error as exc:
            self._rollback()
            raise SchemaError(
                "unsupported_schema", f"PostgreSQL cannot create these tables: {first_line(exc)}"
            ) from exc
        self._ddl = ddl
        self._schema = schema
        self._staged.clear()
        self._active = Database({})

    def _write(self, db: Database) -> None:
        if self._schema is None:
            raise RuntimeError("prepare() a schema before loading a database")
        if db is self._active:
            return
        statements = ["BEGIN"]
        for table in self._schema.tables:
            statements.append(f"DELETE FROM {_q(table.name)}")
        for table in self._schema.topological():
            rows = db.rows(table.name)
            if rows:
                values = ", ".join(
                    "(" + ", ".join(pg_literal(v) for v in row) + ")" for row in rows
                )
                statements.append(f"INSERT INTO {_q(table.name)} VALUES {values}")
        statements.append("COMMIT")
        self._active = None
        try:
            self._owner.execute(";\n".join(statements))
        except self._psycopg.Error as exc:
            self._rollback()
            raise QueryFailed(first_line(exc), static=False) from exc
        self._active = db

    def _rollback(self) -> None:
        with contextlib.suppress(self._psycopg.Error):
            self._owner.execute("ROLLBACK")

    # -- running ------------------------------------------------------------

    def run(self, sql: str) -> ResultSet:
        """Run one query as the sandboxed role; raise :class:`QueryFailed` on failure."""
        psycopg = self._psycopg
        try:
            self._set_timeout()
            self._watchdog.arm(self.timeout + 1.0)
            try:
                # Binary results need the extended protocol, which runs one statement:
                # "SELECT 1; SET ..." is refused by the server, not only by the guard.
                cursor = self._query.cursor(binary=True).execute(sql)
                if cursor.description is None:
                    # Not a query (a SET the guard would have refused): undo what it did
                    # to the session and refuse it, as a statement that is not read-only.
                    self._restore_session()
                    raise QueryFailed("the statement is not a query", static=True)
                rows = cursor.fetchall()
                columns = tuple(d.name for d in cursor.description)
            finally:
                self._watchdog.disarm()
        except psycopg.Error as exc:
            raise self._failure(exc) from exc
        except (ValueError, OverflowError, decimal.InvalidOperation) as exc:
            # A value Python cannot hold (a date past year 9999, 'infinity').
            message = f"a result value cannot be read: {first_line(exc)}"
            raise QueryFailed(message, static=False) from exc
        return ResultSet(columns, tuple(tuple(r) for r in rows))

    def scalar(self, sql: str) -> Any:
        """Run trusted SQL returning one value (constraint checks; as the query role,
        since a schema's CHECK expressions are not trusted either)."""
        try:
            self._set_timeout()
            row = self._query.cursor(binary=True).execute(sql).fetchone()
        except self._psycopg.Error as exc:
            raise SchemaError(
                "unsupported_constraint",
                f"PostgreSQL cannot evaluate a constraint of the schema: {first_line(exc)}",
            ) from exc
        return None if row is None else row[0]

    def _set_timeout(self) -> None:
        if self._session_timeout != self.timeout:
            millis = max(1, int(self.timeout * 1000))
            self._query.execute(f"SET statement_timeout = {millis}")
            self._session_timeout = self.timeout

    def _cancel(self) -> None:
        cancel = getattr(self._query, "cancel_safe", None) or self._query.cancel
        cancel()

    def _failure(self, exc: BaseException) -> QueryFailed:
        message = first_line(exc)
        state = getattr(exc, "sqlstate", None) or ""
        if self._query.closed or self._query.broken:
            self._reconnect()
            return QueryFailed(f"the PostgreSQL connection failed: {message}", static=False)
        if state == _CANCELED:
            return QueryFailed(
                f"query interrupted after {self.timeout:g} s", static=False, timeout=True
            )
        if state.startswith(_RESOURCE_CLASSES):
            return QueryFailed(
                f"the query exceeded a resource limit: {message}", static=False, resource=True
            )
        static = state.startswith(_STATIC_CLASSES) or state in _STATIC_CODES
        return QueryFailed(message, static=static)

    def _restore_session(self) -> None:
        self._query.execute("RESET ALL")
        self._query.execute("SET default_transaction_read_only = on")
        self._query.execute(f"SET search_path = {_q(self._schema_name)}")
        self._session_timeout = None

    def _reconnect(self) -> None:
        info = self._query.info
        conninfo = self.url or (
            f"host={info.host} port={info.port} dbname={info.dbname} user={info.user}"
        )
        self._query = self._psycopg.connect(conninfo, autocommit=True, connect_timeout=10)
        self._query.execute("SET default_transaction_read_only = on")
        self._query.execute(f"SET search_path = {_q(self._schema_name)}")
        self._session_timeout = None


def _pg_type(dtype: Any) -> str:
    """A column type as PostgreSQL spells it (sqlglot's translation)."""
    return str(dtype.sql("postgres"))


def pg_literal(value: Any) -> str:
    """``value`` as an untyped PostgreSQL literal, which an INSERT converts to its
    column's type (so a float keeps every digit, a timestamp its microseconds).

    Example:
        >>> pg_literal("it's"), pg_literal(None), pg_literal(float("nan")), pg_literal(b"\\x01")
        ("'it''s'", 'NULL', "'NaN'", "'\\\\x01'")
    """
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int):
        return f"'{value}'"
    if isinstance(value, float):
        if math.isnan(value):
            return "'NaN'"
        if math.isinf(value):
            return "'Infinity'" if value > 0 else "'-Infinity'"
        return f"'{value!r}'"
    if isinstance(value, decimal.Decimal):
        return f"'{value}'"
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return f"'{value.isoformat()}'"
    if isinstance(value, dt.timedelta):
        return f"'{value.total_seconds()!r} seconds'"
    if isinstance(value, bytes):
        return "'\\x" + value.hex() + "'"
    if isinstance(value, uuid.UUID):
        return f"'{value}'"
    return "'" + str(value).replace("'", "''") + "'"
