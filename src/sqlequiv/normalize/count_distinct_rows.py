"""Count the rows of a ``SELECT DISTINCT e`` as ``COUNT(DISTINCT e)`` when ``e`` is never NULL.

``SELECT COUNT(*) FROM (SELECT DISTINCT o.customer_id FROM orders AS o WHERE w) AS s``
becomes ``SELECT COUNT(DISTINCT o.customer_id) FROM orders AS o WHERE w`` when
``orders.customer_id`` is NOT NULL: "how many different X" written both ways.

Why this is sound: the derived table holds one row per distinct value of ``e`` among
the rows its FROM and WHERE keep, NULL included as one value. Where ``e`` cannot be
NULL (a column declared NOT NULL or part of the primary key, of a table joined only by
inner joins, so never padded with NULLs; or a column the WHERE requires to be ``IS NOT
NULL``), that is the number of distinct non-NULL values, which ``COUNT(DISTINCT e)``
counts over the same rows. On no row both are 0, and both are BIGINT. The outer query
must be exactly ``SELECT COUNT(*) FROM (...) AS s``; the inner one a plain ``SELECT
DISTINCT column FROM ... WHERE ...`` (no GROUP BY, HAVING, window, LIMIT or ORDER BY).
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._keys import schema_table
from sqlequiv.normalize._util import (
    conjuncts,
    is_flat_inner,
    is_not_null_test,
    truthy_args,
)
from sqlequiv.schema.model import Schema

E = TypeVar("E", bound=exp.Expr)

_INNER = frozenset({"expressions", "from_", "joins", "where", "distinct"})


def count_distinct_rows(expression: E, *, schema: Schema) -> E:
    """Rewrite ``COUNT(*)`` over ``SELECT DISTINCT`` of a never-NULL column.

    Example:
        >>> import sqlglot
        >>> from sqlglot import exp
        >>> from sqlequiv.schema.model import Column, Schema, Table
        >>> t = Table("t", (Column("a", exp.DataType.build("INT"), nullable=False),))
        >>> e = sqlglot.parse_one("SELECT COUNT(*) AS n FROM (SELECT DISTINCT t.a FROM t) AS s")
        >>> count_distinct_rows(e, schema=Schema((t,))).sql()
        'SELECT COUNT(DISTINCT t.a) AS n FROM t'
    """
    for select in list(expression.find_all(exp.Select)):
        _rewrite(select, schema)
    return expression


def _rewrite(select: exp.Select, schema: Schema) -> None:
    if truthy_args(select) != {"expressions", "from_"} or len(select.expressions) != 1:
        return
    count = select.expressions[0].unalias()
    if not isinstance(count, exp.Count) or not isinstance(count.this, exp.Star):
        return
    if truthy_args(count) - {"this", "big_int"}:
        return
    from_ = select.args["from_"]
    derived = from_.this
    if truthy_args(from_) != {"this"} or not isinstance(derived, exp.Subquery):
        return
    if truthy_args(derived) - {"this", "alias"}:
        return
    inner = derived.this
    if not isinstance(inner, exp.Select):
        return
    args = truthy_args(inner)
    if args - _INNER or not {"expressions", "from_", "distinct"} <= args:
        return
    if truthy_args(inner.args["distinct"]) or len(inner.expressions) != 1:
        return
    value = inner.expressions[0].unalias()
    if not isinstance(value, exp.Column) or not is_flat_inner(inner):
        return
    if not _never_null(value, inner, schema):
        return
    counted = exp.Count(
        this=exp.Distinct(expressions=[value.copy()]), big_int=count.args.get("big_int")
    )
    projection = select.expressions[0]
    if isinstance(projection, exp.Alias):
        projection.set("this", counted)
    else:
        select.set("expressions", [counted])
    select.set("from_", inner.args["from_"].copy())
    for name in ("joins", "where"):
        part = inner.args.get(name)
        select.set(name, [j.copy() for j in part] if isinstance(part, list) else part)


def _never_null(column: exp.Column, select: exp.Select, schema: Schema) -> bool:
    """Whether ``column`` is NULL on no row that ``select``'s FROM and WHERE keep (its
    FROM is a list of plain sources, joined by inner joins only)."""
    where = select.args.get("where")
    required = conjuncts(where.this) if where is not None else []
    if any(is_not_null_test(condition, column) for condition in required):
        return True
    sources = [select.args["from_"].this, *(j.this for j in select.args.get("joins") or [])]
    for source in sources:
        if source.alias_or_name != column.table:
            continue
        table = schema_table(source, select, schema)
        if table is None:
            return False
        if column.name not in table.column_names:
            return False
        return column.name in table.primary_key or not table.column(column.name).nullable
    return False
