"""The user's own database, read once: a snapshot of its rows for the schema's tables.

A grader's first question about a refutation is "could this happen on our data?".
:func:`read_data` opens the database the user names (``--data``: a SQLite file, a
DuckDB file, or a PostgreSQL URL, whose current schema is read) **read-only**, reads up
to ``max_rows`` rows of each table of the schema with fixed SQL of sqlequiv's own
(``SELECT <columns> FROM <table> LIMIT n``) and counts every table's rows. Nothing a
query under check contains ever runs against the user's database: the queries run on
sqlequiv's own sandboxed engines, over the snapshot's rows (:meth:`Snapshot.database`).

A snapshot is cached per file (its path, size and modification time; a server's URL once
per process) and schema, so a suite that checks many pairs against one database reads it
once.
"""

from __future__ import annotations

import os
import sqlite3
import urllib.parse
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb

from sqlequiv.database import Database, Row
from sqlequiv.errors import SchemaError
from sqlequiv.execute.sqlite_sandbox import harden
from sqlequiv.schema.model import Schema, quote_identifier
from sqlequiv.schema.sqlite_file import is_sqlite_file

__all__ = ["DEFAULT_MAX_ROWS", "Snapshot", "read_data"]

#: Rows read per table. A table with more is sampled (its first rows in storage order):
#: the facts mined from it say so, and the queries are not run on it as "the data".
DEFAULT_MAX_ROWS = 2_000


@dataclass(frozen=True)
class Snapshot:
    """The rows read from the user's database, per table of the schema.

    Example:
        >>> s = Snapshot("x.sqlite", {"t": ((1,), (2,))}, {"t": 2})
        >>> s.complete, s.database().size
        (True, 2)
    """

    #: Where the rows come from (a path).
    origin: str
    #: Rows read per schema table, in the schema's column order.
    rows: Mapping[str, tuple[Row, ...]]
    #: How many rows each table holds in the data.
    counts: Mapping[str, int]

    @property
    def complete(self) -> bool:
        """Whether every row of every table was read: the snapshot *is* the data."""
        return all(len(self.rows[t]) == n for t, n in self.counts.items())

    def database(self) -> Database:
        """The rows read, as a database the engines load."""
        return Database({t: rows for t, rows in self.rows.items()})

    @property
    def size(self) -> int:
        """Rows in the data, every table together."""
        return sum(self.counts.values())


_CACHE: dict[tuple[Any, ...], Snapshot] = {}


def read_data(
    source: str | os.PathLike[str], schema: Schema, *, max_rows: int = DEFAULT_MAX_ROWS
) -> Snapshot:
    """Read up to ``max_rows`` rows of every table of ``schema`` from ``source``.

    Raises:
        SchemaError: ``file_not_found``, ``unreadable_database`` (not a SQLite or DuckDB
            file, or unreadable), ``unknown_table`` / ``unknown_column`` (the data lacks
            a table or column of the schema, named in the message).
    """
    if max_rows < 1:
        raise ValueError(f"max_rows={max_rows!r} must be at least 1")
    shape = tuple((t.name, t.column_names) for t in schema)
    if isinstance(source, str) and source.startswith(POSTGRES_URLS):
        # A server's data has no modification time to key on: read once per process.
        key_url = (source, max_rows, shape)
        cached = _CACHE.get(key_url)
        if cached is None:
            rows, counts = _read_postgres(source, schema, max_rows)
            cached = _CACHE[key_url] = Snapshot(_masked(source), rows, counts)
        return cached
    file = Path(source)
    if not file.exists():
        raise SchemaError("file_not_found", f"--data: no such file: {file}")
    if not file.is_file():
        raise SchemaError("unreadable_database", f"--data: {file} is not a file")
    stat = file.stat()
    key = (str(file.resolve()), stat.st_size, stat.st_mtime_ns, max_rows, shape)
    cached = _CACHE.get(key)
    if cached is not None:
        return cached
    reader = _read_sqlite if is_sqlite_file(file) else _read_duckdb
    rows, counts = reader(file, schema, max_rows)
    snapshot = Snapshot(str(file), rows, counts)
    if len(_CACHE) > 16:
        _CACHE.clear()
    _CACHE[key] = snapshot
    return snapshot


def _read_sqlite(
    file: Path, schema: Schema, max_rows: int
) -> tuple[dict[str, tuple[Row, ...]], dict[str, int]]:
    # immutable=1: no lock, no journal; mode=ro refuses writes; query_only for good measure.
    uri = f"file:{urllib.parse.quote(str(file.resolve()))}?mode=ro&immutable=1"
    try:
        con = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
    except sqlite3.Error as err:
        raise SchemaError("unreadable_database", f"--data: {file}: {_first_line(err)}") from err
    try:
        harden(con)
        con.execute("PRAGMA query_only = ON")
        con.text_factory = lambda data: data.decode("utf-8", "replace")
        return _read_tables(
            con, file, schema, max_rows,
            tables_sql="SELECT name FROM sqlite_master WHERE type = 'table'",
            columns_sql="SELECT name FROM pragma_table_xinfo(?)",
        )  # fmt: skip
    except sqlite3.Error as err:
        raise SchemaError("unreadable_database", f"--data: {file}: {_first_line(err)}") from err
    finally:
        con.close()


def _read_duckdb(
    file: Path, schema: Schema, max_rows: int
) -> tuple[dict[str, tuple[Row, ...]], dict[str, int]]:
    config: dict[str, str | bool | int | float | list[str]] = {
        "enable_external_access": False,
        "autoload_known_extensions": False,
        "autoinstall_known_extensions": False,
    }
    try:
        con = duckdb.connect(str(file), read_only=True, config=config)
    except duckdb.Error as err:
        raise SchemaError(
            "unreadable_database",
            f"--data: {file} is neither a SQLite nor a DuckDB database: {_first_line(err)}",
        ) from err
    try:
        return _read_tables(
            con, file, schema, max_rows,
            tables_sql="SELECT table_name FROM duckdb_tables()",
            columns_sql="SELECT column_name FROM duckdb_columns() WHERE table_name = ?",
        )  # fmt: skip
    except duckdb.Error as err:
        raise SchemaError("unreadable_database", f"--data: {file}: {_first_line(err)}") from err
    finally:
        con.close()


#: How a PostgreSQL server is named as ``--data``.
POSTGRES_URLS = ("postgresql://", "postgres://")


def _read_postgres(
    url: str, schema: Schema, max_rows: int
) -> tuple[dict[str, tuple[Row, ...]], dict[str, int]]:
    """The tables of the URL's current schema, read in a read-only session with a
    statement timeout (only sqlequiv's fixed SQL runs there)."""
    from sqlequiv.execute.postgres_server import import_psycopg

    psycopg = import_psycopg()
    shown = _masked(url)
    try:
        con = psycopg.connect(url, autocommit=True, connect_timeout=10)
    except psycopg.Error as err:
        raise SchemaError("unreadable_database", f"--data: {shown}: {_first_line(err)}") from err
    try:
        con.execute("SET default_transaction_read_only = on")
        con.execute("SET statement_timeout = '60s'")
        return _read_tables(
            con, shown, schema, max_rows,
            tables_sql="SELECT table_name FROM information_schema.tables "
            "WHERE table_schema = current_schema()",
            columns_sql="SELECT column_name FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND table_name = %s",
        )  # fmt: skip
    except psycopg.Error as err:
        raise SchemaError("unreadable_database", f"--data: {shown}: {_first_line(err)}") from err
    finally:
        con.close()


def _masked(url: str) -> str:
    """The URL without its password, for messages and ``Snapshot.origin``."""
    parts = urllib.parse.urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
    return urllib.parse.urlunsplit(parts._replace(netloc=netloc))


def _read_tables(
    con: Any, file: Path | str, schema: Schema, max_rows: int, *, tables_sql: str,
    columns_sql: str,
) -> tuple[dict[str, tuple[Row, ...]], dict[str, int]]:
    """Every schema table's first ``max_rows`` rows and its row count, through ``con``
    (an SQLite or a DuckDB connection: both take the same calls), with fixed SQL only."""
    names = {str(n).lower(): str(n) for (n,) in con.execute(tables_sql).fetchall()}
    rows: dict[str, tuple[Row, ...]] = {}
    counts: dict[str, int] = {}
    for table in schema:
        actual = names.get(table.name)
        if actual is None:
            raise SchemaError("unknown_table", f"--data: {file} has no table {table.name!r}")
        present = {str(n).lower(): str(n) for (n,) in con.execute(columns_sql, [actual]).fetchall()}
        columns = [_column(present, c, table.name, file) for c in table.column_names]
        source = quote_identifier(actual)
        read = con.execute(f"SELECT {', '.join(columns)} FROM {source} LIMIT {int(max_rows)}")
        rows[table.name] = tuple(tuple(r) for r in read.fetchall())
        counted = con.execute(f"SELECT COUNT(*) FROM {source}").fetchone()
        counts[table.name] = int(counted[0]) if counted else 0
    return rows, counts


def _column(present: Mapping[str, str], name: str, table: str, file: Path | str) -> str:
    actual = present.get(name.lower())
    if actual is None:
        raise SchemaError(
            "unknown_column", f"--data: {file}: table {table!r} has no column {name!r}"
        )
    return quote_identifier(actual)


def _first_line(err: Exception) -> str:
    text = str(err).strip()
    return text.splitlines()[0] if text else type(err).__name__
