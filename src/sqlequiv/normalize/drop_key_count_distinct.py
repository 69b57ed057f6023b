"""Rewrite ``COUNT(DISTINCT k)`` as ``COUNT(k)`` when ``k`` is a key column of the only
table read.

``SELECT COUNT(DISTINCT email) FROM customers`` counts what
``SELECT COUNT(email) FROM customers`` counts when ``email`` is UNIQUE.

Why this is sound: the rows of one table hold distinct values of a single-column key
(a primary key, or a UNIQUE column, which may repeat only NULL). A WHERE clause keeps
some of those rows and a GROUP BY splits them, so each group's values of the key are
still distinct apart from NULLs, and ``COUNT`` skips NULLs with or without DISTINCT.
The engine that enforces UNIQUE compares values as DISTINCT does (same collation, same
numeric equality), so this holds on every database that satisfies the schema's
constraints. Only a SELECT that reads one base table (no join, no subquery in FROM)
is considered, and only a COUNT of that SELECT's own rows (not one in a subquery or
under a window).
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._keys import only_table
from sqlequiv.normalize._util import truthy_args
from sqlequiv.schema.model import Schema

E = TypeVar("E", bound=exp.Expr)


def drop_key_count_distinct(expression: E, *, schema: Schema) -> E:
    """Drop DISTINCT from COUNTs of a single-column key of the one table read.

    Example:
        >>> import sqlglot
        >>> from sqlglot import exp
        >>> from sqlequiv.schema.model import Column, Schema, Table
        >>> t = Table("t", (Column("id", exp.DataType.build("INT")),
        ...                 Column("a", exp.DataType.build("INT"))), unique=(("id",),))
        >>> e = sqlglot.parse_one("SELECT COUNT(DISTINCT t.id), COUNT(DISTINCT t.a) FROM t AS t")
        >>> drop_key_count_distinct(e, schema=Schema((t,))).sql()
        'SELECT COUNT(t.id), COUNT(DISTINCT t.a) FROM t AS t'
    """
    for count in list(expression.find_all(exp.Count)):
        distinct = count.this
        if not isinstance(distinct, exp.Distinct) or truthy_args(distinct) != {"expressions"}:
            continue
        if len(distinct.expressions) != 1 or not isinstance(distinct.expressions[0], exp.Column):
            continue
        column = distinct.expressions[0]
        select = _own_select(count)
        source = None if select is None else only_table(select, schema)
        if source is None:
            continue
        if column.table != source.alias_or_name:
            continue
        table = schema.table(source.name)
        if (column.name,) in table.keys:
            count.set("this", column)
    return expression


def _own_select(count: exp.Count) -> exp.Select | None:
    """The SELECT whose rows ``count`` counts: the nearest one above it, provided no
    window lies between (a windowed COUNT counts a frame, not the group)."""
    node = count.parent
    while node is not None and not isinstance(node, exp.Select):
        if isinstance(node, exp.Window):
            return None
        node = node.parent
    return node
