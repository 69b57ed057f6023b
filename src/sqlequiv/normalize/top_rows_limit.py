"""Write "the first n rows by a ranking" as ``ORDER BY ... LIMIT n``.

``SELECT t.a FROM t AS t QUALIFY ROW_NUMBER() OVER (ORDER BY t.v DESC, t.id) <= 3
ORDER BY t.v DESC, t.id`` becomes ``SELECT t.a FROM t AS t ORDER BY t.v DESC, t.id
LIMIT 3`` when ``id`` is a key of ``t``; so does the same query ordered by the
ROW_NUMBER itself (what a derived table's ``WHERE rn <= 3 ORDER BY rn`` is after
``merge_ranked_tables``). ``rn < n`` keeps ``n - 1`` rows and ``rn = 1`` one.

Why this is sound: the query reads one table, and the window's keys include every
column of one of its declared keys (a primary key, or a UNIQUE key of NOT NULL
columns), so no two rows tie on them and they order the rows one way only.
ROW_NUMBER numbers the rows 1, 2, ... in that order (there is no PARTITION BY), and
QUALIFY keeps those numbered at most n: the first n rows of the order, which is what
``ORDER BY keys LIMIT n`` returns, over the same rows (those the WHERE keeps; there is
no GROUP BY, aggregate, DISTINCT or other window, and no LIMIT yet). Both queries
return them in that order: the outer ORDER BY is the window's own keys, or the
ROW_NUMBER, which grows along them. NULLs among the keys sort the same way in a
window and in a query's ORDER BY, in every dialect: the key's NULL placement is part
of what is compared. A query without an ORDER BY of its own is left alone: it returns
the same rows, but in no promised order, and the rewrite would promise one.
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._keys import total_order_over
from sqlequiv.normalize._util import contains, is_integer_literal, truthy_args
from sqlequiv.schema.model import Schema

E = TypeVar("E", bound=exp.Expr)

_ALLOWED = frozenset({"expressions", "from_", "where", "qualify", "order"})


def top_rows_limit(expression: E, *, schema: Schema) -> E:
    """Rewrite QUALIFY ROW_NUMBER() <= n over a total order as ORDER BY ... LIMIT n.

    Example:
        >>> import sqlglot
        >>> from sqlglot import exp
        >>> from sqlequiv.schema.model import Column, Schema, Table
        >>> t = Table("t", (Column("id", exp.DataType.build("INT"), nullable=False),
        ...                 Column("v", exp.DataType.build("INT"))), primary_key=("id",))
        >>> e = sqlglot.parse_one(
        ...     "SELECT t.v FROM t AS t QUALIFY ROW_NUMBER() OVER (ORDER BY t.v DESC, t.id) < 4 "
        ...     "ORDER BY ROW_NUMBER() OVER (ORDER BY t.v DESC, t.id)")
        >>> top_rows_limit(e, schema=Schema((t,))).sql()
        'SELECT t.v FROM t AS t ORDER BY t.v DESC, t.id LIMIT 3'
    """
    for select in list(expression.find_all(exp.Select)):
        _rewrite(select, schema)
    return expression


def _rewrite(select: exp.Select, schema: Schema) -> None:
    qualify = select.args.get("qualify")
    order = select.args.get("order")
    if qualify is None or order is None or truthy_args(select) - _ALLOWED:
        return
    if truthy_args(order) != {"expressions"}:
        return
    found = _row_limit(qualify.this)
    if found is None:
        return
    window, rows = found
    if truthy_args(window) != {"this", "order", "over"} or not isinstance(
        window.this, exp.RowNumber
    ):
        return  # PARTITION BY, a frame or a named window: not one numbering of all rows
    if any(contains(p, exp.Window, exp.AggFunc) for p in select.expressions):
        return
    keys = window.args["order"]
    if truthy_args(keys) != {"expressions"} or not total_order_over(window, select, schema):
        return
    ordered_by = [_resolved(key, select) for key in order.expressions]
    by_keys = ordered_by == list(keys.expressions)
    by_number = (
        len(ordered_by) == 1
        and isinstance(ordered_by[0], exp.Ordered)
        and not ordered_by[0].args.get("desc")
        and ordered_by[0].this == window
    )
    if not (by_keys or by_number):
        return
    select.set("qualify", None)
    select.set("order", exp.Order(expressions=[key.copy() for key in keys.expressions]))
    select.set("limit", exp.Limit(expression=exp.Literal.number(rows)))


def _resolved(key: exp.Expr, select: exp.Select) -> exp.Expr:
    """``key`` with a bare name of an output column (``ORDER BY amount``, which the
    qualifier leaves naming the projection) replaced by that column's expression."""
    column = key.this if isinstance(key, exp.Ordered) else None
    if not isinstance(column, exp.Column) or column.table:
        return key
    named = [p.unalias() for p in select.expressions if p.alias_or_name == column.name]
    if len(named) != 1:
        return key
    resolved = key.copy()
    resolved.set("this", named[0].copy())
    return resolved


def _row_limit(condition: exp.Expr) -> tuple[exp.Window, int] | None:
    """``(window, n)`` when ``condition`` keeps the rows a window numbers 1..n
    (``w <= n``, ``w < n + 1``, ``w = 1``, or the same the other way round); else None."""
    while isinstance(condition, exp.Paren):
        condition = condition.this
    if not isinstance(condition, exp.LTE | exp.LT | exp.EQ | exp.GTE | exp.GT):
        return None
    left, right = condition.this, condition.expression
    flipped = {exp.GTE: exp.LTE, exp.GT: exp.LT}
    kind: type[exp.Expr] = type(condition)
    if isinstance(right, exp.Window) and type(condition) in flipped:
        left, right, kind = right, left, flipped[type(condition)]
    elif isinstance(right, exp.Window) and kind is exp.EQ:
        left, right = right, left
    if not isinstance(left, exp.Window) or not is_integer_literal(right):
        return None
    n = int(right.name)
    if kind is exp.LTE:
        return left, n
    if kind is exp.LT:
        return left, max(0, n - 1)
    if kind is exp.EQ and n == 1:
        return left, 1
    return None
