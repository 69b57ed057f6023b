"""A keyed table LEFT JOINed to an aggregated derived table, as one aggregation.

``SELECT c.id, COALESCE(x.n, 0) FROM customers c LEFT JOIN (SELECT customer_id, COUNT(*)
AS n FROM orders GROUP BY customer_id) x ON x.customer_id = c.id`` is ``SELECT c.id,
COUNT(o.order_id) FROM customers c LEFT JOIN orders o ON o.customer_id = c.id GROUP BY
c.id``: the two ways to count each customer's orders, zero included.

Why this is sound. The FROM is a table ``K`` of the schema with a key, LEFT JOINed to a
derived table ``x`` that groups one table ``X`` by its keys (:mod:`._grouped`), and the
ON equates every key column of ``x`` with an expression of ``K`` (conjuncts ``x.k =
e``): a row of ``K`` meets at most one group, and it meets a group exactly when it
meets that group's rows of ``X`` under the same ON. So grouping ``K LEFT JOIN X`` (the
ON reading ``X``'s columns in place of the keys, and ``X``'s WHERE moved into it) by
``K``'s key and the columns of ``K`` the query reads gives, per row of ``K``, the rows of
its group, or one row padded with NULLs. Over it:

- ``MIN``, ``MAX``, ``SUM``... of ``x`` are those of the group, and NULL when padded,
  as ``x``'s column is;
- ``COALESCE(x.n, 0)`` for a COUNT is the COUNT over the group: of the same argument,
  or, for ``COUNT(*)``, of a primary key column of ``X`` (never NULL on a row of ``X``,
  NULL on the padded row), and 0 when padded.

``x`` may be read only so, outside its ON: not its keys, nor a COUNT without COALESCE,
nor in the WHERE. The query has no GROUP BY, aggregate, DISTINCT, window or LIMIT of its
own, and the join is its only one.
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._aggregates import aggregates
from sqlequiv.normalize._grouped import grouped_side, kept_table, renamed
from sqlequiv.normalize._util import (
    and_all,
    conjuncts,
    is_inside,
    outer_join_side,
    own_columns,
    plain_group,
    truthy_args,
)
from sqlequiv.schema.model import Schema

E = TypeVar("E", bound=exp.Expr)


def lift_left_join(expression: E, *, schema: Schema) -> E:
    """Write a keyed table LEFT JOINed to aggregated rows as one aggregation.

    Example:
        >>> import sqlglot
        >>> from sqlglot import exp
        >>> from sqlequiv.schema.model import Column, Schema, Table
        >>> i = exp.DataType.build("INT")
        >>> c = Table("c", (Column("id", i, nullable=False),), primary_key=("id",))
        >>> o = Table("o", (Column("id", i, nullable=False), Column("cid", i)),
        ...           primary_key=("id",))
        >>> e = sqlglot.parse_one("SELECT c.id, COALESCE(x.n, 0) FROM c AS c LEFT JOIN "
        ...     "(SELECT o.cid AS cid, COUNT(*) AS n FROM o AS o GROUP BY o.cid) AS x "
        ...     "ON x.cid = c.id")
        >>> lift_left_join(e, schema=Schema((c, o))).sql()
        'SELECT c.id, COUNT(x.id) FROM c AS c LEFT JOIN o AS x ON x.cid = c.id GROUP BY c.id'
    """
    for select in list(expression.find_all(exp.Select)):
        _lift(select, expression, schema)
    return expression


def _lift(select: exp.Select, root: exp.Expr, schema: Schema) -> None:
    if truthy_args(select) - {"expressions", "from_", "joins", "where", "order"}:
        return
    if aggregates(select) != []:
        return
    joins = select.args.get("joins") or []
    from_ = select.args.get("from_")
    if from_ is None or len(joins) != 1 or truthy_args(from_) != {"this"}:
        return
    join = joins[0]
    if outer_join_side(join) != "LEFT":
        return
    kept = kept_table(from_.this, select, schema)
    side = grouped_side(join.this, root)
    on = join.args.get("on")
    if kept is None or side is None or on is None or not side.aggregates:
        return
    table = side.body.args["from_"].this
    if table.name not in schema:
        return
    primary = schema.table(table.name).primary_key
    # Every key column of x pinned by an ON equality to an expression of K alone.
    pinned = set()
    for part in conjuncts(on):
        if not isinstance(part, exp.EQ):
            continue
        for mine, other in ((part.this, part.expression), (part.expression, part.this)):
            if (
                isinstance(mine, exp.Column)
                and mine.table == side.alias
                and mine.name in side.keys
                and all(c.table == kept.alias for c in other.find_all(exp.Column))
            ):
                pinned.add(mine.name)
    group_keys = plain_group(side.body) or []
    projected = {k.sql() for k in side.keys.values()}
    if pinned != set(side.keys) or any(k.sql() not in projected for k in group_keys):
        return  # a K row could meet several groups
    if any(c.table == side.alias and c.name not in side.keys for c in on.find_all(exp.Column)):
        return
    where = select.args.get("where")
    if where is not None and any(c.table == side.alias for c in where.find_all(exp.Column)):
        return
    replacements: list[tuple[exp.Expr, exp.Expr]] = []
    for column in own_columns(select, from_):
        if column.table != side.alias or is_inside(column, on):
            continue
        value = _read(column, side.aggregates.get(column.name), side.alias, primary)
        if value is None:
            return
        replacements.append(value)
    for old, new in replacements:
        old.replace(new)
    for column in list(on.find_all(exp.Column)):
        if column.table == side.alias:
            column.replace(renamed(side.keys[column.name], side.alias))
    inner_where = side.body.args.get("where")
    lifted = table.copy()
    lifted.set("alias", exp.TableAlias(this=exp.to_identifier(side.alias)))
    join.set("this", lifted)
    if inner_where is not None:
        condition = renamed(inner_where.this, side.alias)
        join.set("on", and_all([join.args.get("on"), *conjuncts(condition)]))
    group = [exp.column(name, table=kept.alias) for name in kept.keys]
    select.set("group", exp.Group(expressions=group))


def _read(
    column: exp.Column, call: exp.Expr | None, alias: str, primary: tuple[str, ...]
) -> tuple[exp.Expr, exp.Expr] | None:
    """What a read of ``x``'s column becomes: ``(node to replace, its replacement)``."""
    if call is None:
        return None  # a key column (or an unknown one)
    if not isinstance(call, exp.Count):
        return column, renamed(call, alias)
    parent = column.parent
    if not isinstance(parent, exp.Coalesce) or parent.this is not column:
        return None
    rest = parent.expressions
    if not (len(rest) == 1 and isinstance(rest[0], exp.Literal) and rest[0].to_py() == 0):
        return None
    if isinstance(call.this, exp.Star):
        if not primary:
            return None
        counted: exp.Expr = exp.Count(this=exp.column(primary[0], table=alias), big_int=True)
    else:
        counted = renamed(call, alias)
    return parent, counted
