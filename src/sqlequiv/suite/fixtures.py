"""Named fixtures: inline rows or INSERT scripts, turned into checked databases.

A fixture's values go through DuckDB (a sandboxed scratch connection, one per thread), so
``'2026-07-01 00:00:00'`` in a TIMESTAMP column becomes the same
``datetime`` a query would see. Scripts may hold only ``INSERT ... VALUES``
statements of constants into schema tables: a suite file is data, and
nothing in it runs as code. The result must satisfy every declared
constraint, checked both in Python and in SQL, because a fixture that
refutes a candidate is a counterexample and must be a legal database.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any

import duckdb
import sqlglot
from sqlglot import exp
from sqlglot.errors import ParseError, TokenError

from sqlequiv.database import Database, sql_literal
from sqlequiv.database.constraints import python_violations, sql_violations
from sqlequiv.errors import PlainError
from sqlequiv.execute.duckdb_engine import sandboxed_connection
from sqlequiv.schema.model import Schema
from sqlequiv.schema.model import quote_identifier as _q


class FixtureError(PlainError, ValueError):
    """A fixture that cannot be built; the message names the table, row or statement."""

    SIDE = "suite"
    KIND = "invalid_fixture"


#: Nodes allowed inside a VALUES tuple: constants, signs and casts of constants.
_CONSTANT_NODES = (
    exp.Literal,
    exp.Null,
    exp.Boolean,
    exp.Neg,
    exp.Cast,
    exp.DataType,
    exp.Paren,
    exp.Tuple,
    exp.Values,
    exp.Var,
)


def rows_database(rows: object, schema: Schema) -> Database:
    """A database from inline rows: ``{table: [{column: value}, ...]}``; omitted columns are NULL.

    Example:
        >>> from sqlequiv.schema import load_schema
        >>> s = load_schema("CREATE TABLE t (a INT PRIMARY KEY, d DATE)")
        >>> rows_database({"t": [{"a": 1, "d": "2026-07-01"}]}, s).rows("t")
        ((1, datetime.date(2026, 7, 1)),)
    """
    if not isinstance(rows, Mapping):
        raise FixtureError(f"rows must map table names to lists of rows, not {_shape(rows)}")
    statements: list[str] = []
    for table_name, table_rows in rows.items():
        if not isinstance(table_name, str) or table_name.lower() not in schema:
            raise FixtureError(f"rows: unknown table {table_name!r}")
        table = schema.table(table_name)
        if not isinstance(table_rows, list):
            raise FixtureError(
                f"rows.{table_name}: expected a list of rows, not {_shape(table_rows)}"
            )
        literals = []
        for n, row in enumerate(table_rows):
            if not isinstance(row, Mapping):
                raise FixtureError(f"rows.{table_name}[{n}]: expected a mapping column -> value")
            unknown = sorted(str(c) for c in row if str(c).lower() not in table.column_names)
            if unknown:
                raise FixtureError(
                    f"rows.{table_name}[{n}]: unknown column(s) {', '.join(unknown)}"
                )
            values = {str(c).lower(): v for c, v in row.items()}
            parts = []
            for column in table.columns:
                value = values.get(column.name)
                if isinstance(value, list | dict):
                    raise FixtureError(
                        f"rows.{table_name}[{n}].{column.name}: expected a scalar, not "
                        f"{_shape(value)}"
                    )
                parts.append(sql_literal(value, column.type_sql))
            literals.append("(" + ", ".join(parts) + ")")
        if literals:
            statements.append(f'INSERT INTO "{table.name}" VALUES {", ".join(literals)}')
    return _execute(statements, schema)


def script_database(script: str, schema: Schema, dialect: str = "duckdb") -> Database:
    """A database from an INSERT script (``INSERT INTO t [(cols)] VALUES (...), ...;`` only).

    Example:
        >>> from sqlequiv.schema import load_schema
        >>> s = load_schema("CREATE TABLE t (a INT PRIMARY KEY, b VARCHAR)")
        >>> script_database("INSERT INTO t VALUES (1, 'x'), (2, NULL);", s).rows("t")
        ((1, 'x'), (2, None))
    """
    try:
        statements = [
            s
            for s in sqlglot.parse(script, read=dialect)
            if s is not None and not isinstance(s, exp.Semicolon)  # a trailing comment
        ]
    except (ParseError, TokenError) as err:
        raise FixtureError(f"sql: does not parse: {str(err).splitlines()[0]}") from err
    rendered: list[str] = []
    for n, statement in enumerate(statements, start=1):
        if not isinstance(statement, exp.Insert):
            raise FixtureError(
                f"sql: statement {n} is a {statement.key.upper()}, but a fixture script may "
                "only hold INSERT ... VALUES statements"
            )
        target = statement.this
        table = target.this if isinstance(target, exp.Schema) else target
        if not isinstance(table, exp.Table) or table.name.lower() not in schema:
            raise FixtureError(f"sql: statement {n} inserts into unknown table {table.sql()!r}")
        values = statement.expression
        if not isinstance(values, exp.Values):
            raise FixtureError(f"sql: statement {n} must insert VALUES, not a query")
        for node in values.walk():
            if not isinstance(node, _CONSTANT_NODES):
                raise FixtureError(
                    f"sql: statement {n} holds {node.sql(dialect)!r}; fixture values must be "
                    "constants"
                )
        rendered.append(statement.sql("duckdb"))
    return _execute(rendered, schema)


_SCRATCH = threading.local()


def _scratch() -> duckdb.DuckDBPyConnection:
    """This thread's scratch connection, opened once: a sandboxed connection takes DuckDB
    ~12 ms to open, and a suite builds a database per fixture (in the parent and in
    every grading worker)."""
    con: duckdb.DuckDBPyConnection | None = getattr(_SCRATCH, "con", None)
    if con is None:
        con = _SCRATCH.con = sandboxed_connection("256MB")
    return con


def _clear(con: duckdb.DuckDBPyConnection) -> None:
    """Drop every table of the scratch connection, so the next fixture starts empty; a
    connection that cannot is closed and forgotten (the next fixture opens another)."""
    try:
        names = con.execute(
            "SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main'"
        ).fetchall()
        if names:
            con.execute(";".join(f"DROP TABLE {_q(name)} CASCADE" for (name,) in names))
    except duckdb.Error:
        _SCRATCH.con = None
        con.close()


def _execute(statements: list[str], schema: Schema) -> Database:
    con = _scratch()
    try:
        con.execute(schema.ddl(constraints=False))
        for statement in statements:
            try:
                con.execute(statement)
            except duckdb.Error as err:
                raise FixtureError(f"DuckDB rejects the rows: {_first_line(err)}") from err
        db = Database(
            {
                table.name: tuple(
                    tuple(row)
                    for row in con.execute(
                        f"SELECT {', '.join(_q(c) for c in table.column_names)} "
                        f"FROM {_q(table.name)}"
                    ).fetchall()
                )
                for table in schema
            }
        )
        try:
            problems = python_violations(db, schema) or sql_violations(
                schema, lambda sql: _scalar(con, sql)
            )
        except duckdb.Error as err:
            raise FixtureError(
                f"DuckDB cannot evaluate the schema's constraints: {_first_line(err)}"
            ) from err
    finally:
        _clear(con)
    if problems:
        raise FixtureError("violates the schema's constraints: " + "; ".join(problems[:5]))
    return db


def _scalar(con: duckdb.DuckDBPyConnection, sql: str) -> Any:
    row = con.execute(sql).fetchone()
    return None if row is None else row[0]


def _first_line(err: BaseException) -> str:
    return str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__


def _shape(value: object) -> str:
    if isinstance(value, Mapping):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return "a string" if isinstance(value, str) else type(value).__name__
