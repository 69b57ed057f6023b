"""A concrete database: rows per table, in schema column order.

The counterexample search generates these, the executor loads them, the shrinker
minimises them and the verdict reports them. They are plain immutable values.
"""

from __future__ import annotations

import datetime as dt
import decimal
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlequiv.schema.model import Schema, Table, quote_identifier

Row = tuple[Any, ...]


@dataclass(frozen=True)
class Database:
    """Rows per table name; tables not listed are empty.

    Example:
        >>> db = Database({"t": ((1, "a"),)})
        >>> db.rows("t"), db.rows("u"), db.size
        (((1, 'a'),), (), 1)
    """

    tables: Mapping[str, tuple[Row, ...]]

    def rows(self, table: str) -> tuple[Row, ...]:
        return self.tables.get(table, ())

    @property
    def size(self) -> int:
        """Total number of rows."""
        return sum(len(rows) for rows in self.tables.values())

    @property
    def filled(self) -> frozenset[str]:
        """The names of the tables that have rows."""
        return frozenset(t for t, rows in self.tables.items() if rows)

    def replace(self, table: str, rows: tuple[Row, ...]) -> Database:
        """A copy with ``table`` holding ``rows``."""
        return Database({**self.tables, table: rows})

    def merge(self, other: Database) -> Database:
        """Both databases' rows, table by table (rows of ``other`` already present are skipped).

        The result may break a key; callers check constraints before using it.
        """
        tables = dict(self.tables)
        for name, rows in other.tables.items():
            mine = tables.get(name, ())
            tables[name] = mine + tuple(r for r in rows if r not in mine)
        return Database(tables)

    def key(self) -> tuple[tuple[str, tuple[Row, ...]], ...]:
        """A hashable identity, used to skip databases already tried."""
        return tuple(sorted((t, r) for t, r in self.tables.items() if r))


def sql_literal(value: Any, type_sql: str) -> str:
    """Render ``value`` as a DuckDB literal of the column type ``type_sql``.

    Strings are escaped by doubling quotes; every non-NULL value is cast, so
    the literal means the same thing whatever its Python type.

    Example:
        >>> sql_literal("it's", "VARCHAR")
        "CAST('it''s' AS VARCHAR)"
        >>> sql_literal(None, "INT")
        'NULL'
    """
    text = literal_text(value)
    if text is None:
        return "NULL"
    # Numbers stay numeric literals (a float's text is its repr); -0.0 is a string, since
    # DuckDB reads the number -0.0 as +0.0.
    negative_zero = isinstance(value, float) and value == 0 and math.copysign(1.0, value) < 0
    finite = isinstance(value, float) and math.isfinite(value) and not negative_zero
    if isinstance(value, bool | int) or finite:
        return f"CAST({text} AS {type_sql})"
    return "CAST('" + text.replace("'", "''") + f"' AS {type_sql})"


def literal_text(value: Any) -> str | None:
    """The text DuckDB casts to a column's type to store ``value`` (None for NULL).

    ``CAST(text AS type)`` of this text is what :func:`sql_literal` writes, and what a
    batch insert that binds the texts as parameters computes.

    Example:
        >>> literal_text(float("-inf")), literal_text(-0.0), literal_text(None)
        ('-Infinity', '-0.0', None)
    """
    if value is None:
        return None
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        if value == 0 and math.copysign(1.0, value) < 0:
            return "-0.0"  # DuckDB reads the number -0.0 as +0.0, the string keeps the sign
        return repr(value)
    if isinstance(value, decimal.Decimal):
        return str(value)
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, bytes):
        return "".join(f"\\x{b:02x}" for b in value)
    return str(value)


def insert_script(db: Database, schema: Schema) -> str:
    """INSERT statements that load ``db`` into tables created by ``schema.ddl()``.

    Parents come before children, so the script also runs against tables that
    enforce their foreign keys.
    """
    statements = []
    for table in schema.topological():
        rows = db.rows(table.name)
        if rows:
            statements.append(_insert(table, rows))
    return "\n".join(f"{s};" for s in statements)


def row_literal(row: Sequence[Any], types: Sequence[str]) -> str:
    """A parenthesized tuple of typed literals, e.g. ``(CAST(1 AS INT), NULL)``."""
    return "(" + ", ".join(sql_literal(v, t) for v, t in zip(row, types, strict=True)) + ")"


def _insert(table: Table, rows: tuple[Row, ...]) -> str:
    types = [c.type_sql for c in table.columns]
    values = ",\n  ".join(row_literal(row, types) for row in rows)
    # Names come from the schema, which may come from the same untrusted source as the
    # queries: quote them (embedded quotes doubled) so that the script stays data.
    columns = ", ".join(quote_identifier(c.name) for c in table.columns)
    return f"INSERT INTO {quote_identifier(table.name)} ({columns}) VALUES\n  {values}"
