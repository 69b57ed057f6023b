"""Casts that a typed engine implies: a column's cast to its own type, a date string.

:func:`identity_casts` drops a CAST of a column to the type the schema declares it
with; :func:`explicit_date_literals` writes the cast a string literal compared with a
DATE gets implicitly.

``CAST(d.d_date AS DATE)`` over a DATE column is the column: an optimizer's canonicalizer
drops it, and a query written against a schema it did not read keeps it (TPC-DS 40).

Why this is sound: a cast to a value's own type is the identity in DuckDB, PostgreSQL
and MySQL. Not in SQLite, where a declared type is only an affinity (a DATE column
holds text, and ``CAST(x AS DATE)`` makes a number of it): the caller applies this to
the other engines only. Only a column is taken, whose type the schema declares, and
only where the cast names the very same type, parameters included, and not a text
type (a column's collation need not survive the cast).
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._util import ISO_DATE, compared_with

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
    if column.type.this == exp.DataType.Type.UNKNOWN or column.type.this in _TEXT:
        return False  # a text column's collation may not survive the cast
    return column.type.sql() == cast.to.sql()


#: Text types: a column of one may carry a collation, and whether it survives a cast to
#: the bare type is each engine's own rule (DuckDB keeps NOCASE; not every engine need).
_TEXT = exp.DataType.TEXT_TYPES



def explicit_date_literals(expression: E) -> E:
    """Write a string literal compared with a DATE as ``CAST('...' AS DATE)``.

    ``d.d_date >= '2002-03-29'`` is ``d.d_date >= CAST('2002-03-29' AS DATE)``: DuckDB
    casts a string literal to the type of what it is compared with, PostgreSQL resolves
    its untyped literal so, and MySQL converts a constant compared with a date to a date
    (an optimizer writes the cast out). Not in SQLite, where a DATE column holds text
    and is compared as text, while ``CAST('2002-03-29' AS DATE)`` is the number 2002:
    the caller applies this to the other engines only. Taken: a string that spells a
    date alone (``YYYY-MM-DD``), an operand of ``=``,
    ``<>``, ``<``, ``<=``, ``>``, ``>=`` or a bound of a BETWEEN whose other side is a
    DATE (by its annotated type).

    Example:
        >>> import sqlglot
        >>> e = sqlglot.parse_one("SELECT 1 FROM t WHERE t.d >= '2002-03-29'")
        >>> for c in e.find_all(exp.Column):
        ...     c.type = exp.DataType.build("DATE")
        >>> explicit_date_literals(e).sql()
        "SELECT 1 FROM t WHERE t.d >= CAST('2002-03-29' AS DATE)"
    """
    for literal in list(expression.find_all(exp.Literal)):
        if not is_compared_date(literal):
            continue
        cast = exp.Cast(this=literal.copy(), to=exp.DataType.build("DATE"))
        cast.type = exp.DataType.build("DATE")
        literal.replace(cast)
    return expression


def is_compared_date(literal: exp.Literal) -> bool:
    """Whether ``literal`` is a string compared with a DATE (an operand of a comparison
    or a BETWEEN bound)."""
    # A string that spells a date alone: with a time of day, MySQL would compare it as a
    # DATETIME rather than cast it to a DATE.
    if not literal.is_string or ISO_DATE.fullmatch(literal.name) is None:
        return False
    other = compared_with(literal)
    kind = other.type if other is not None else None
    return kind is not None and kind.this == exp.DataType.Type.DATE
