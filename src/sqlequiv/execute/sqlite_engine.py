"""The SQLite executor: queries in the ``sqlite`` dialect run on SQLite itself, unchanged.

Text-to-SQL benchmarks (Spider, BIRD) are SQLite databases, and SQLite is not
DuckDB: a column declared TEXT may hold numbers and is compared with them as
text, ``/`` on integers truncates, ``LIKE`` ignores ASCII case, NULLs sort
first, ``avg()`` accepts text. A transpile to DuckDB changes these answers or
refuses the query, so these queries run on Python's built-in ``sqlite3``.

Tables are created with each column's SQLite *affinity* (INTEGER, REAL,
NUMERIC, TEXT or none), which is all a declared type means to SQLite, so values
are stored and compared exactly as in the original database; no constraint is
declared (the counterexample search enforces them and re-checks them in SQL).

The sandbox, for untrusted SQL:

* an authorizer that, while a query runs, allows only SELECT, reading the
  schema's tables, recursive CTEs and functions outside a deny-list
  (``load_extension``, ``fts3_tokenizer``, file readers of the shell);
  ATTACH, PRAGMA and every write are denied when the statement is compiled;
* ``SQLITE_LIMIT_ATTACHED`` 0, extension loading off, temporary storage in
  memory (a large sort never writes a file), a 10 MB limit on any string or
  blob and a process-wide heap limit;
* a progress handler that aborts the query at its deadline.

The authorizer stays installed: SQLite expires every prepared statement whenever
an authorizer is set, so setting it around each query would recompile the query
on every database. sqlequiv's own statements (creating, emptying and filling the
tables) run in a trusted mode and carry a per-connection random comment, so that
no query text can match, and reuse, a statement compiled in that mode.
"""

from __future__ import annotations

import datetime as dt
import decimal
import math
import secrets
import sqlite3
import time
import uuid
from collections.abc import Callable
from typing import Any

from sqlequiv.database import Database
from sqlequiv.errors import QueryFailed, SchemaError
from sqlequiv.execute.base import WrittenOnActivate, first_line
from sqlequiv.execute.sqlite_sandbox import harden, query_authorizer
from sqlequiv.results import ResultSet
from sqlequiv.schema.model import Column, Schema
from sqlequiv.schema.model import quote_identifier as _q

#: Virtual-machine instructions between two deadline checks.
_PROGRESS_STEPS = 2_000

_OK = sqlite3.SQLITE_OK

#: The affinity keyword each table column is created with.
_AFFINITY_TYPE = {"INTEGER": "INTEGER", "REAL": "REAL", "NUMERIC": "NUMERIC", "TEXT": "TEXT"}


class SQLiteExecutor(WrittenOnActivate):
    """The sandboxed SQLite executor (same interface as the DuckDB one).

    Example:
        >>> from sqlglot import exp
        >>> from sqlequiv.schema.model import Column, Schema, Table
        >>> ex = SQLiteExecutor(timeout=1.0)
        >>> ex.prepare(Schema((Table("t", (Column("a", exp.DataType.build("TEXT")),)),)))
        >>> ex.load(Database({"t": (("96",), ("150",))}))
        >>> ex.run("SELECT a FROM t WHERE a > 150").rows   # TEXT affinity: compared as text
        (('96',),)
    """

    #: The dialect of the SQL this executor runs.
    dialect = "sqlite"
    #: Which engine runs the queries (a verdict's ``executed["server"]``).
    server = f"SQLite {sqlite3.sqlite_version}"

    def __init__(self, *, timeout: float = 2.0) -> None:
        self.timeout = timeout
        # check_same_thread=False: the owner is one thread (see shared_executor), but the
        # grading pool may build it in one thread and use it in another.
        self._con = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        harden(self._con)
        self._tables: frozenset[str] = frozenset()
        self._policy = query_authorizer(self._tables)
        self._schema: Schema | None = None
        self._staged: dict[int, Database] = {}
        self._next = 0
        self._deadline: float | None = None
        #: Tables that may hold rows (only those are emptied before the next database).
        self._filled: set[str] = set()
        #: True only while sqlequiv's own statements run (see the module's docstring).
        self._trusted = False
        self._mark = f" -- sqlequiv {secrets.token_hex(16)}"
        #: Per table of the prepared schema: its name, its DELETE and its INSERT.
        self._writes: tuple[tuple[str, str, str], ...] = ()
        self._con.set_progress_handler(self._past_deadline, _PROGRESS_STEPS)
        self._con.set_authorizer(self._authorize)

    def _own(self, sql: str, params: Any = ()) -> sqlite3.Cursor:
        """Run one of sqlequiv's own statements, in the trusted mode."""
        return self._as_own(self._con.execute, sql, params)

    def _own_many(self, sql: str, rows: list[tuple[Any, ...]]) -> None:
        self._as_own(self._con.executemany, sql, rows)

    def _as_own(
        self, run: Callable[[str, Any], sqlite3.Cursor], sql: str, params: Any
    ) -> sqlite3.Cursor:
        self._trusted = True
        try:
            return run(sql + self._mark, params)
        finally:
            self._trusted = False

    # -- loading ------------------------------------------------------------

    def prepare(self, schema: Schema) -> None:
        """Create empty tables for ``schema`` (dropping the previous schema's)."""
        existing = [
            name
            for (name,) in self._own(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            ).fetchall()
        ]
        # The tables are gone, whatever happens next: none holds rows.
        self._schema = None
        self._filled = set()
        try:
            for name in existing:
                self._own(f"DROP TABLE {_q(name)}")
            for table in schema.tables:
                columns = ", ".join(_column_sql(c) for c in table.columns)
                self._own(f"CREATE TABLE {_q(table.name)} ({columns})")
        except sqlite3.Error as exc:
            raise SchemaError(
                "unsupported_schema", f"SQLite cannot create these tables: {first_line(exc)}"
            ) from exc
        self._schema = schema
        self._tables = frozenset(t.name.lower() for t in schema.tables)
        self._policy = query_authorizer(self._tables)
        self._staged.clear()
        # Written once here, not per database: a floor writes hundreds of tiny ones.
        self._writes = tuple(
            (
                table.name,
                f"DELETE FROM {_q(table.name)}{self._mark}",
                f"INSERT INTO {_q(table.name)} VALUES "
                f"({', '.join('?' for _ in table.columns)}){self._mark}",
            )
            for table in schema.tables
        )

    def _write(self, db: Database) -> None:
        if self._schema is None:
            raise RuntimeError("prepare() a schema before loading a database")
        filled: set[str] = set()
        execute = self._con.execute
        self._trusted = True  # sqlequiv's own statements (marked), as in _own
        try:
            execute("BEGIN" + self._mark)
            for name, delete, insert in self._writes:
                if name in self._filled:
                    execute(delete)
                rows = db.rows(name)
                if rows:
                    filled.add(name)
                    self._con.executemany(
                        insert,
                        [
                            tuple(v if type(v) in _STORED else sqlite_value(v) for v in row)
                            for row in rows
                        ],
                    )
            execute("COMMIT" + self._mark)
        except (sqlite3.Error, OverflowError) as exc:
            if self._con.in_transaction:
                execute("ROLLBACK" + self._mark)  # the tables hold what they held before
            raise QueryFailed(first_line(exc), static=False) from exc
        finally:
            self._trusted = False
        self._filled = filled

    # -- running ------------------------------------------------------------

    def run(self, sql: str) -> ResultSet:
        """Run one read-only query under the sandbox; raise :class:`QueryFailed` on failure."""
        self._deadline = time.monotonic() + self.timeout
        try:
            cursor = self._con.execute(sql)
            rows = cursor.fetchall()
            columns = tuple(d[0] for d in cursor.description or ())
        except MemoryError as exc:
            raise QueryFailed(
                "the query exceeded the memory limit", static=False, resource=True
            ) from exc
        except (sqlite3.Error, sqlite3.Warning, OverflowError, ValueError) as exc:
            raise self._failure(sql, exc) from exc
        finally:
            self._deadline = None
        return ResultSet(columns, tuple(tuple(r) for r in rows))

    def scalar(self, sql: str) -> Any:
        """Run trusted SQL returning one value (constraint checks; still under the clock,
        since a schema's CHECK expressions are not trusted either)."""
        self._deadline = time.monotonic() + self.timeout
        try:
            row = self._con.execute(sql).fetchone()
        except (sqlite3.Error, sqlite3.Warning, MemoryError) as exc:
            raise SchemaError(
                "unsupported_constraint",
                f"SQLite cannot evaluate a constraint of the schema: {first_line(exc)}",
            ) from exc
        finally:
            self._deadline = None
        return None if row is None else row[0]

    def _failure(self, sql: str, exc: BaseException) -> QueryFailed:
        message = first_line(exc)
        lower = message.lower()
        if lower == "interrupted":
            return QueryFailed(
                f"query interrupted after {self.timeout:g} s", static=False, timeout=True
            )
        if "out of memory" in lower or "too big" in lower:
            return QueryFailed(
                f"the query exceeded a resource limit: {message}", static=False, resource=True
            )
        return QueryFailed(message, static=self._fails_to_compile(sql))

    def _fails_to_compile(self, sql: str) -> bool:
        """Whether ``sql`` fails before reading any row (a static error: unknown column,
        syntax, a denied operation), as opposed to failing on this data (an integer
        overflow in ``sum``). ``EXPLAIN`` compiles the statement without running it."""
        if not isinstance(sql, str):
            return True
        try:
            self._con.execute("EXPLAIN " + sql).fetchmany(1)
        except (sqlite3.Error, sqlite3.Warning, ValueError):
            return True
        return False

    def _authorize(
        self, action: int, arg1: str | None, arg2: str | None, db: str | None, source: str | None
    ) -> int:
        # sqlequiv's own statements (CREATE, INSERT, DELETE) run trusted; queries only
        # read the schema's tables (not sqlite_master, not eponymous virtual tables).
        if self._trusted:
            return _OK
        return self._policy(action, arg1, arg2, db, source)

    def _past_deadline(self) -> int:
        deadline = self._deadline
        return 1 if deadline is not None and time.monotonic() > deadline else 0


#: Databases kept staged before old ones are dropped.


def _column_sql(column: Column) -> str:
    """``"name" AFFINITY [COLLATE ...]``: all a declared type means to SQLite, and the
    collation that changes what comparisons on the column mean."""
    text = f"{_q(column.name)} {_AFFINITY_TYPE.get(column.affinity, '')}".rstrip()
    if column.collation in _COLLATIONS:
        text += f" COLLATE {column.collation}"
    return text


#: SQLite's built-in collations a column may be created with (BINARY is the default).
_COLLATIONS = frozenset({"NOCASE", "RTRIM"})


#: Types SQLite stores as they are (not an int, which may be out of range, nor a NaN).
_STORED = frozenset({str, type(None), bytes})


def sqlite_value(value: Any) -> Any:
    """A Python value as SQLite stores it: numbers, text, blobs and NULL.

    Dates and times become ISO text, as SQLite's date functions read them;
    decimals become integers or reals, as a NUMERIC column would store them.

    Example:
        >>> sqlite_value(dt.datetime(2026, 9, 30, 14, 0))
        '2026-09-30 14:00:00'
        >>> sqlite_value(decimal.Decimal("12.50")), sqlite_value(decimal.Decimal("3"))
        (12.5, 3)
    """
    if value is None or isinstance(value, str | bytes):
        return value
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value if -(1 << 63) <= value < (1 << 63) else float(value)
    if isinstance(value, float):
        return None if math.isnan(value) else value  # SQLite stores NaN as NULL
    if isinstance(value, decimal.Decimal):
        if value.is_finite() and value == value.to_integral_value() and abs(value) < (1 << 63):
            return int(value)
        return float(value)
    if isinstance(value, dt.datetime):
        return value.isoformat(sep=" ")
    if isinstance(value, dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, uuid.UUID):
        return str(value)
    return str(value)
