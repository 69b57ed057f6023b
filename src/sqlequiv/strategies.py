"""Hypothesis strategies for databases a schema allows, for your own property tests.

:func:`databases` draws small databases that satisfy every constraint the
schema declares (PRIMARY KEY, UNIQUE, NOT NULL, FOREIGN KEY and CHECK), from
the same value pools sqlequiv's own counterexample search uses: plain values, key
values, and the literals of any queries you pass (with their neighbours), so
that ``WHERE amount > 100`` meets 99, 100 and 101. :func:`tables_of` and
:func:`insert_sql` turn a drawn database into rows or an INSERT script.

Example:
    >>> import duckdb
    >>> from hypothesis import given, settings
    >>> ddl = '''CREATE TABLE t (id INT PRIMARY KEY, qty INT NOT NULL CHECK (qty > 0));'''
    >>> @settings(max_examples=20, deadline=None)
    ... @given(databases(ddl, queries=["SELECT id FROM t WHERE qty >= 10"]))
    ... def test_my_rewrite(db):
    ...     con = duckdb.connect()
    ...     con.execute(ddl)
    ...     if insert_sql(db, ddl):
    ...         con.execute(insert_sql(db, ddl))
    ...     a = con.execute("SELECT id FROM t WHERE qty >= 10 ORDER BY id").fetchall()
    ...     b = con.execute("SELECT id FROM t WHERE NOT qty < 10 ORDER BY id").fetchall()
    ...     assert a == b
    >>> test_my_rewrite()
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Sequence
from typing import Any

import duckdb
from hypothesis import HealthCheck, settings
from hypothesis.strategies import SearchStrategy
from sqlglot import exp

from sqlequiv.api import SchemaSource
from sqlequiv.database import Database, Row, insert_script, row_literal
from sqlequiv.execute.duckdb_engine import sandboxed_connection
from sqlequiv.guard import guard_query
from sqlequiv.schema import Schema, Table, load_schema
from sqlequiv.schema.model import quote_identifier as _q
from sqlequiv.search.domains import Domains, build_domains
from sqlequiv.search.draw import database_strategy
from sqlequiv.search.harvest import harvest

__all__ = ["PROFILE", "Database", "databases", "insert_sql", "register_profile", "tables_of"]

#: The name of sqlequiv's Hypothesis profile for property tests over :func:`databases`.
PROFILE = "sqlequiv"

#: The row-number column of the scratch tables CHECK constraints are evaluated on.
_ROW = "__sqlequiv_row"


def register_profile() -> None:
    """Register (never load) the Hypothesis profile :data:`PROFILE`.

    It suits tests that draw databases and run queries on them: derandomized (a CI run
    draws what the last one drew), no deadline (a draw executes CHECK constraints on
    DuckDB, whose first query in a process is slow), 60 examples. It is registered when
    this module is imported; load it with ``settings.load_profile("sqlequiv")`` or
    ``pytest --sqlequiv-profile``.

    Example:
        >>> settings.get_profile(PROFILE).derandomize
        True
    """
    settings.register_profile(
        PROFILE,
        derandomize=True,
        deadline=None,
        max_examples=60,
        database=None,
        print_blob=False,
        suppress_health_check=[HealthCheck.too_slow],
    )


register_profile()


def databases(
    schema: SchemaSource,
    *,
    max_rows: int = 4,
    queries: Sequence[str] = (),
    dialect: str = "duckdb",
) -> SearchStrategy[Database]:
    """A strategy for databases of ``schema`` with at most ``max_rows`` rows per table.

    Every drawn database satisfies the schema's PRIMARY KEY, UNIQUE, NOT NULL,
    FOREIGN KEY and CHECK constraints (CHECKs are evaluated by DuckDB, so any
    condition DuckDB accepts is honoured). Values come from small pools, so
    joins match and duplicates occur; the literals in ``queries`` (and values
    just either side of them) are added to the pools of the columns they are
    compared with. Hypothesis shrinks towards fewer rows and plainer values.

    Args:
        schema: Anything :func:`sqlequiv.load_schema` accepts: a ``Schema``,
            DDL text, a path, or a mapping.
        max_rows: The most rows drawn per table (a row that would break a key
            or a CHECK is left out, so tables may hold fewer).
        queries: SQL queries over ``schema`` whose literals seed the pools.
        dialect: The sqlglot dialect of ``queries`` (and of DDL text).

    Returns:
        A strategy of :class:`sqlequiv.database.Database` values: use
        :func:`tables_of` or :func:`insert_sql` to read or load one.

    Raises:
        SchemaError: The schema does not load.
        QueryError: One of ``queries`` does not parse or does not fit the schema.
        ValueError: ``max_rows`` is negative.

    Example:
        >>> from hypothesis import find
        >>> ddl = "CREATE TABLE t (id INT PRIMARY KEY, name VARCHAR NOT NULL)"
        >>> db = find(databases(ddl, queries=["SELECT id FROM t WHERE name = 'zoe'"]),
        ...           lambda db: any(r["name"] == "zoe" for r in tables_of(db, ddl)["t"]))
        >>> tables_of(db, ddl)
        {'t': [{'id': 0, 'name': 'zoe'}]}
    """
    if max_rows < 0:
        raise ValueError(f"max_rows={max_rows!r} must not be negative")
    if isinstance(queries, str):  # one query, not a sequence of one-character queries
        queries = (queries,)
    loaded = load_schema(schema, dialect)
    trees = [guard_query(q, loaded, dialect=dialect, side="candidate").qualified for q in queries]
    domains = build_domains(loaded, harvest(trees), max_rows)
    if not any(table.checks for table in loaded):
        return database_strategy(loaded, domains, max_rows)
    # The generator evaluates simple CHECKs in Python, skips the rest, and drops
    # (without retrying) a row that fails one. DuckDB decides them all here:
    # pool values no row could hold are removed first, so few rows are dropped.
    checks = _Checks(loaded)
    return database_strategy(loaded, checks.narrow(domains), max_rows).map(checks.enforce)


def tables_of(
    db: Database, schema: SchemaSource, *, dialect: str = "duckdb"
) -> dict[str, list[dict[str, Any]]]:
    """Every table of ``schema`` (empty ones included) as a list of ``{column: value}`` rows.

    Values are Python values as DuckDB would return them (``int``,
    ``Decimal``, ``datetime.date``, ...); NULL is ``None``.

    Example:
        >>> tables_of(Database({"t": ((1, None),)}), "CREATE TABLE t (a INT, b TEXT)")
        {'t': [{'a': 1, 'b': None}]}
    """
    loaded = load_schema(schema, dialect)
    return {
        table.name: [dict(zip(table.column_names, row, strict=True)) for row in db.rows(table.name)]
        for table in loaded
    }


def insert_sql(db: Database, schema: SchemaSource, *, dialect: str = "duckdb") -> str:
    """A DuckDB script of INSERT statements that loads ``db`` (empty when ``db`` has no rows).

    Parents are inserted before children, so the script runs against tables
    created with their constraints (``load_schema(schema).ddl()``).

    Example:
        >>> print(insert_sql(Database({"t": ((1, "it's"),)}), "CREATE TABLE t (a INT, b TEXT)"))
        INSERT INTO "t" ("a", "b") VALUES
          (CAST(1 AS INT), CAST('it''s' AS TEXT));
    """
    return insert_script(db, load_schema(schema, dialect))


class _Checks:
    """Evaluates a schema's CHECK constraints on DuckDB, on scratch tables without constraints."""

    def __init__(self, schema: Schema) -> None:
        self.schema = schema
        self.checked = [t for t in schema if t.checks]
        self._con: duckdb.DuckDBPyConnection | None = None
        self._lock = threading.Lock()

    def narrow(self, domains: Domains) -> Domains:
        """``domains`` without the values a single-column CHECK rejects."""
        columns = dict(domains.columns)
        for table in self.checked:
            for name in table.column_names:
                own = [c for c in table.checks if _columns_of(c) == {name}]
                ref = (table.name, name)
                if not own or ref not in columns:
                    continue
                pool = columns[ref]
                at = table.column_names.index(name)
                rows = tuple(
                    tuple(v if i == at else None for i in range(len(table.columns)))
                    for v in pool.values
                )
                bad = {pool.values[i] for i in self.failing(table, rows, own)}
                columns[ref] = dataclasses.replace(
                    pool,
                    values=tuple(v for v in pool.values if v not in bad),
                    interesting=tuple(v for v in pool.interesting if v not in bad),
                    exact=tuple(v for v in pool.exact if v not in bad),
                )
        return dataclasses.replace(domains, columns=columns)

    def enforce(self, db: Database) -> Database:
        """``db`` without the rows some CHECK rejects, and the rows orphaned by dropping them."""
        failing = {t.name: self.failing(t, db.rows(t.name), t.checks) for t in self.checked}
        if not any(failing.values()):
            return db
        tables = {
            name: tuple(r for i, r in enumerate(rows) if i not in failing.get(name, set()))
            for name, rows in db.tables.items()
        }
        return _without_orphans(Database(tables), self.schema)

    def failing(
        self, table: Table, rows: tuple[Row, ...], checks: Sequence[exp.Expression]
    ) -> set[int]:
        """Indexes of the rows for which one of ``checks`` is FALSE (or cannot be evaluated)."""
        if not rows:
            return set()
        types = ["INTEGER", *(c.type_sql for c in table.columns)]
        where = " OR ".join(f"NOT ({check.sql('duckdb')})" for check in checks)
        select = f"SELECT {_q(_ROW)} FROM {_q(table.name)} WHERE {where}"
        with self._lock:
            con = self._connection()
            try:
                con.execute(f"DELETE FROM {_q(table.name)}")
                values = ", ".join(row_literal((i, *row), types) for i, row in enumerate(rows))
                con.execute(f"INSERT INTO {_q(table.name)} VALUES {values}")
                return {i for (i,) in con.execute(select).fetchall()}
            except duckdb.Error:
                pass
            # Some row cannot be stored or its CHECK fails to evaluate: DuckDB would
            # reject its INSERT, so it fails; the others are judged one at a time.
            failing = set()
            for i, row in enumerate(rows):
                try:
                    con.execute(f"DELETE FROM {_q(table.name)}")
                    con.execute(
                        f"INSERT INTO {_q(table.name)} VALUES {row_literal((i, *row), types)}"
                    )
                    if con.execute(select).fetchall():
                        failing.add(i)
                except duckdb.Error:
                    failing.add(i)
            return failing

    def _connection(self) -> duckdb.DuckDBPyConnection:
        if self._con is None:
            con = sandboxed_connection()
            for table in self.checked:
                columns = ", ".join(f"{_q(c.name)} {c.type_sql}" for c in table.columns)
                con.execute(f"CREATE TABLE {_q(table.name)} ({_q(_ROW)} INTEGER, {columns})")
            self._con = con
        return self._con


def _columns_of(check: exp.Expression) -> set[str]:
    return {c.name.lower() for c in check.find_all(exp.Column)}


def _without_orphans(db: Database, schema: Schema) -> Database:
    """``db`` without the rows whose foreign key points at a row no longer there."""
    changed = True
    while changed:
        changed = False
        for table in schema:
            rows = db.rows(table.name)
            index = {c: i for i, c in enumerate(table.column_names)}
            kept = rows
            for fk in table.foreign_keys:
                parent = schema.table(fk.ref_table)
                pidx = [parent.column_names.index(c) for c in fk.ref_columns]
                source = kept if parent.name == table.name else db.rows(parent.name)
                present = {tuple(r[i] for i in pidx) for r in source}
                cidx = [index[c] for c in fk.columns]
                kept = tuple(
                    r
                    for r in kept
                    if any(r[i] is None for i in cidx) or tuple(r[i] for i in cidx) in present
                )
            if len(kept) != len(rows):
                db = db.replace(table.name, kept)
                changed = True
    return db
