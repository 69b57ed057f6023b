"""Distinct keys with per-key aggregates read by correlated subqueries, as a GROUP BY.

``SELECT DISTINCT o.customer_id, (SELECT MAX(p.amount) FROM orders p WHERE p.customer_id
= o.customer_id) FROM orders o`` returns the same rows as ``SELECT customer_id,
MAX(amount) FROM orders GROUP BY customer_id`` when ``customer_id`` is NOT NULL: the
"for each customer, the largest order" that a text-to-SQL answer writes with a
correlated subquery.

Why this is sound. The query reads one table ``T`` with no WHERE and projects columns
``K`` of it and scalar subqueries; each subquery reads ``T`` again with a WHERE that
equates each column of ``K`` with the outer row's (and nothing else), and computes
aggregates (COUNT, SUM, AVG, MIN, MAX) of its own columns. The columns of ``K`` are
declared NOT NULL, so for an outer row whose ``K`` values are ``v`` the subquery
aggregates exactly the rows of ``T`` whose ``K`` equals ``v``: the group of ``v`` (in a
schema without collations, ``=`` and grouping agree). Each output row is then a function
of ``v``, so DISTINCT keeps one row per distinct ``v`` of ``T``: the rows of ``GROUP BY
K`` with the aggregates over each group. A NULL key would differ (the subquery matches
no row where GROUP BY makes a group of NULLs): hence NOT NULL.
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._keys import not_null_column, only_table
from sqlequiv.normalize._util import (
    ORDER_INSENSITIVE_AGGREGATES,
    conjuncts,
    contains,
    truthy_args,
)
from sqlequiv.schema.model import Schema

E = TypeVar("E", bound=exp.Expr)

def distinct_key_aggregates(expression: E, *, schema: Schema) -> E:
    """Rewrite DISTINCT keys with correlated per-key aggregates as a GROUP BY.

    Example:
        >>> import sqlglot
        >>> from sqlglot import exp
        >>> from sqlequiv.schema.model import Column, Schema, Table
        >>> i = exp.DataType.build("INT")
        >>> o = Table("o", (Column("k", i, nullable=False), Column("a", i)))
        >>> e = sqlglot.parse_one("SELECT DISTINCT o.k, (SELECT MAX(p.a) FROM o AS p "
        ...                       "WHERE p.k = o.k) AS m FROM o AS o")
        >>> distinct_key_aggregates(e, schema=Schema((o,))).sql()
        'SELECT o.k, MAX(o.a) AS m FROM o AS o GROUP BY o.k'
    """
    if any(column.collation for table in schema for column in table.columns):
        return expression
    for select in list(expression.find_all(exp.Select)):
        _rewrite(select, schema)
    return expression


def _rewrite(select: exp.Select, schema: Schema) -> None:
    distinct = select.args.get("distinct")
    if distinct is None or truthy_args(distinct):
        return  # not DISTINCT, or DISTINCT ON
    if truthy_args(select) - {"expressions", "from_", "distinct"}:
        return
    table = only_table(select, schema)
    if table is None:
        return
    alias = table.alias_or_name
    declared = schema.table(table.name)
    keys: list[str] = []
    lookups: list[tuple[exp.Expr, exp.Select]] = []
    for projection in select.expressions:
        value = projection.unalias()
        if isinstance(value, exp.Column) and value.table == alias:
            if value.name not in declared.column_names or not not_null_column(declared, value.name):
                return
            keys.append(value.name)
        elif isinstance(value, exp.Subquery) and isinstance(value.this, exp.Select):
            lookups.append((value, value.this))
        else:
            return
    if not keys or not lookups:
        return
    aggregates = [_per_key(query, table.name, alias, set(keys), schema) for _, query in lookups]
    if any(a is None for a in aggregates):
        return
    for (subquery, _), aggregate in zip(lookups, aggregates, strict=True):
        assert aggregate is not None
        subquery.replace(aggregate)
    select.set("distinct", None)
    select.set("group", exp.Group(expressions=[exp.column(k, table=alias) for k in keys]))


def _per_key(
    query: exp.Select, name: str, outer: str, keys: set[str], schema: Schema
) -> exp.Expr | None:
    """The subquery's aggregate expression read over the outer table, when it aggregates
    ``name`` filtered by exactly the outer row's ``keys``."""
    if truthy_args(query) - {"expressions", "from_", "where"} or len(query.expressions) != 1:
        return None
    table = only_table(query, schema)
    where = query.args.get("where")
    if table is None or table.name != name or where is None:
        return None
    inner = table.alias_or_name
    if inner == outer:
        return None
    pinned: set[str] = set()
    for part in conjuncts(where.this):
        key = _pinned_key(part, inner, outer)
        if key is None or key in pinned:
            return None
        pinned.add(key)
    if pinned != keys:
        return None
    value = query.expressions[0].unalias()
    if contains(value, exp.Subquery, exp.Window) or not contains(value, exp.AggFunc):
        return None
    for node in value.find_all(exp.AggFunc):
        if isinstance(node.parent, exp.Filter):
            return None
        if not isinstance(node, ORDER_INSENSITIVE_AGGREGATES):
            return None
    columns = list(value.find_all(exp.Column))
    if any(c.table != inner or c.find_ancestor(exp.AggFunc) is None for c in columns):
        return None  # an outer column, or one outside an aggregate
    moved: exp.Expr = value.copy()
    for column in moved.find_all(exp.Column):
        column.set("table", exp.to_identifier(outer))
    return moved


def _pinned_key(condition: exp.Expr, inner: str, outer: str) -> str | None:
    """``k`` for ``inner.k = outer.k`` (either way round)."""
    if not isinstance(condition, exp.EQ):
        return None
    left, right = condition.this, condition.expression
    if not (isinstance(left, exp.Column) and isinstance(right, exp.Column)):
        return None
    if left.name != right.name or {left.table, right.table} != {inner, outer}:
        return None
    return left.name
