"""Drop a CAST of a column to the type the schema declares it with.

``CAST(d.d_date AS DATE)`` over a DATE column is the column: an optimizer's canonicalizer
drops it, and a query written against a schema it did not read keeps it (TPC-DS 40).

Why this is sound: a cast to a value's own type is the identity in DuckDB, PostgreSQL
and MySQL. Not in SQLite, where a declared type is only an affinity (a DATE column
holds text, and ``CAST(x AS DATE)`` makes a number of it): the caller applies this to
the other engines only. Only a column is taken, whose type the schema declares, and
only where the cast names the very same type, parameters included.
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

E = TypeVar("E", bound=exp.Expr)


def identity_casts(expression: E) -> E:
    """Replace ``CAST(column AS <its declared type>)`` by the column.

    Example:
        >>> import sqlglot
        >>> e = sqlglot.parse_one("SELECT CAST(t.d AS DATE), CAST(t.d AS TIMESTAMP) FROM t")
        >>> for c in e.find_all(exp.Column):
        ...     c.type = exp.DataType.build("DATE")
        >>> identity_casts(e).sql()
        'SELECT t.d, CAST(t.d AS TIMESTAMP) FROM t'
    """
    for cast in list(expression.find_all(exp.Cast)):
        if is_identity_cast(cast):
            cast.replace(cast.this)
    return expression


def is_identity_cast(cast: exp.Expr) -> bool:
    """Whether ``cast`` is a plain CAST of a typed column to that very type."""
    column = cast.this
    if type(cast) is not exp.Cast or {k for k, v in cast.args.items() if v} - {"this", "to"}:
        return False  # a FORMAT, TRY or DEFAULT changes what the cast does
    if not isinstance(column, exp.Column) or column.type is None:
        return False
    if column.type.this == exp.DataType.Type.UNKNOWN:
        return False
    return column.type.sql() == cast.to.sql()
