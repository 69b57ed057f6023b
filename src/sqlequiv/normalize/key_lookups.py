"""A scalar subquery that looks a column up by a key, as a LEFT JOIN.

``SELECT o.id, (SELECT c.name FROM customers c WHERE c.id = o.customer_id) FROM orders o``
returns the same rows as ``SELECT o.id, k.name FROM orders o LEFT JOIN customers k ON
k.id = o.customer_id``; with a NOT NULL foreign key, other rules then make the LEFT JOIN
an inner join. Text-to-SQL answers write the first; the reference, the second.

Why this is sound. The subquery reads one table ``T`` and its WHERE equates every column
of a declared key of ``T`` (a primary key, or a UNIQUE key of NOT NULL columns) with an
expression that does not read ``T`` (with ``=``, between operands of one declared type,
in a schema without collations), so it returns at most one row for each row of the
query around it: that row's column, or NULL (no row). A LEFT JOIN on the same WHERE
(``T`` under a fresh name) meets each row of the query's FROM with at most that same one
row of ``T`` and keeps every row once, so the query's rows are the same, and the joined
column is that row's column, or NULL on a padded row: the subquery's value. The
subquery must select a bare column of ``T`` (an expression could be non-NULL on a padded
row), call nothing volatile, and sit in the projections or the WHERE of a SELECT that
neither groups nor aggregates (a new column is read per row, not per group), whose FROM
it joins last.
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._keys import only_table
from sqlequiv.normalize._util import (
    conjuncts,
    contains,
    fresh_name,
    own_nodes,
    pinned_column,
    read_as_value,
    truthy_args,
)
from sqlequiv.policy import is_volatile
from sqlequiv.schema.model import Schema

E = TypeVar("E", bound=exp.Expr)

def key_lookups(expression: E, *, schema: Schema) -> E:
    """Rewrite scalar subqueries that look a column up by a key as LEFT JOINs.

    Example:
        >>> import sqlglot
        >>> from sqlglot import exp
        >>> from sqlequiv.schema.model import Column, Schema, Table
        >>> i, v = exp.DataType.build("INT"), exp.DataType.build("VARCHAR")
        >>> c = Table("c", (Column("id", i, nullable=False), Column("n", v)),
        ...           primary_key=("id",))
        >>> o = Table("o", (Column("id", i), Column("cid", i)))
        >>> e = sqlglot.parse_one("SELECT o.id, (SELECT c.n FROM c AS c WHERE c.id = o.cid) "
        ...                       "FROM o AS o")
        >>> for col in e.find_all(exp.Column):
        ...     col.type = i
        >>> key_lookups(e, schema=Schema((c, o))).sql()
        'SELECT o.id, c_0.n FROM o AS o LEFT JOIN c AS c_0 ON c_0.id = o.cid'
    """
    if any(column.collation for table in schema for column in table.columns):
        return expression  # the key's uniqueness is under its own collation, not the ON's
    for select in list(expression.find_all(exp.Select)):
        if _per_row(select):
            for subquery in _scalar_subqueries(select):
                _rewrite(expression, select, subquery, schema)
    return expression


def _scalar_subqueries(select: exp.Select) -> list[exp.Subquery]:
    """The parenthesised queries of ``select``'s projections and WHERE (not nested in
    another query)."""
    found: list[exp.Subquery] = []
    stack: list[exp.Expr] = list(select.expressions)
    where = select.args.get("where")
    if where is not None:
        stack.append(where)
    while stack:
        node = stack.pop()
        if isinstance(node, exp.Subquery):
            found.append(node)
        elif not isinstance(node, exp.Query):
            stack.extend(node.iter_expressions())
    return found


def _per_row(select: exp.Select) -> bool:
    """A SELECT that reads each row of its FROM once: no GROUP BY, aggregate or window."""
    if select.args.get("from_") is None or select.args.get("laterals"):
        return False
    if truthy_args(select) & {"group", "having", "qualify", "pivots"}:
        return False
    return not own_nodes(select, exp.AggFunc) and not own_nodes(select, exp.Window)


def _rewrite(root: exp.Expr, select: exp.Select, subquery: exp.Subquery, schema: Schema) -> None:
    if not read_as_value(subquery) or truthy_args(subquery) - {"this", "alias"}:
        return
    if subquery.args.get("alias") and subquery.parent is not select:
        return  # only a projection names its subquery
    query = subquery.this
    if not isinstance(query, exp.Select) or truthy_args(query) - {"expressions", "from_", "where"}:
        return
    table = only_table(query, schema)
    where = query.args.get("where")
    if table is None or where is None or len(query.expressions) != 1:
        return
    alias = table.alias_or_name
    value = query.expressions[0].unalias()
    if not (isinstance(value, exp.Column) and value.table == alias):
        return
    if contains(query, exp.Subquery, exp.AggFunc, exp.Window) or is_volatile(query):
        return
    parts = conjuncts(where.this)
    pinned = {name for name in (pinned_column(p, alias) for p in parts) if name is not None}
    if not schema.table(table.name).keyed_by(pinned):
        return
    fresh = fresh_name(root, alias)
    source = table.copy()
    source.set("alias", exp.TableAlias(this=exp.to_identifier(fresh)))
    on = where.this.copy()
    for column in on.find_all(exp.Column):
        if column.table == alias:
            column.set("table", exp.to_identifier(fresh))
    read = value.copy()
    read.set("table", exp.to_identifier(fresh))
    select.append("joins", exp.Join(this=source, side="LEFT", on=on))
    # A projection's name is on the subquery itself: the column keeps it.
    name = subquery.alias
    subquery.replace(exp.alias_(read, name) if name else read)
