"""Drop a UNION ALL branch's own top-n where the UNION ALL takes fewer rows in that order.

Calcite's ``SortUnionTransposeRule`` writes ``(a UNION ALL b) ORDER BY 1 LIMIT 10`` as
``((a ORDER BY 1 LIMIT 10) UNION ALL (b ORDER BY 1 LIMIT 10)) ORDER BY 1 LIMIT 10``.
This rule writes the second back as the first.

Why this is sound. The outer query keeps the first ``n`` rows of the UNION ALL in its
order. A row among them is among the first ``n`` of its own branch in the same order
(the rows before it in its branch are before it in the UNION ALL too), so cutting a
branch to its first ``m >= n`` rows in that order removes none of them, and adds no
row. The sort keys must be every output column, so that rows that tie are equal rows
(the first ``n`` rows are one bag, whichever tied rows an engine keeps); the branch's
keys must be the outer ones, position for position, with the same direction and NULL
placement. Only UNION ALL, with LIMIT and no OFFSET on the branch and the outer query.

Spark's LimitPushDown writes ``(a UNION ALL b) LIMIT 10`` as ``((a LIMIT 10) UNION ALL (b
LIMIT 10)) LIMIT 10``, with no order anywhere; the second is written back as the first
too. There the outer query returns any ``n`` rows of the UNION ALL, whichever the engine
picks, and so does it over branches cut to any ``m >= n`` of their rows: at most ``n``
of the rows it returns come from one branch, and the cut may keep those, so each query
can return exactly the bags of rows the other can. A branch with an ORDER BY keeps its
first rows in that order, not any: it is left alone.
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._util import (
    is_integer_literal,
    leftmost_select,
    limit_rows,
    truthy_args,
)

E = TypeVar("E", bound=exp.Expr)


def union_branch_limits(expression: E) -> E:
    """Remove the redundant ORDER BY ... LIMIT of UNION ALL branches.

    Example:
        >>> import sqlglot
        >>> sql = ("(SELECT a FROM t ORDER BY 1 LIMIT 5) UNION ALL "
        ...        "(SELECT b FROM u ORDER BY 1 LIMIT 3) ORDER BY 1 LIMIT 3")
        >>> union_branch_limits(sqlglot.parse_one(sql)).sql()
        'SELECT a FROM t UNION ALL SELECT b FROM u ORDER BY 1 LIMIT 3'
    """
    for union in list(expression.find_all(exp.Union)):
        _drop_branch_limits(union)
    return expression


def _drop_branch_limits(union: exp.Union) -> None:
    if union.args.get("distinct") or union.args.get("offset"):
        return
    rows = limit_rows(union)
    if rows is None:
        return
    if union.args.get("order") is None:
        _drop_unordered_limits(union, rows)
        return
    keys = _ordinal_keys(union)
    if keys is None:
        return
    width = _width(union)
    if width is None or {k.this.to_py() for k in keys} != set(range(1, width + 1)):
        return  # rows that tie on the keys could differ elsewhere
    for branch in (union.this, union.expression):
        query = branch.this if isinstance(branch, exp.Subquery) else branch
        if not isinstance(query, exp.Select) or query.args.get("offset"):
            continue
        own = limit_rows(query)
        if own is None or own < rows or _ordinal_keys(query) != keys:
            continue
        _drop_limit(branch, query)


def _drop_unordered_limits(union: exp.Union, rows: int) -> None:
    for branch in (union.this, union.expression):
        query = branch.this if isinstance(branch, exp.Subquery) else branch
        if not isinstance(query, exp.Select) or truthy_args(query) & {"offset", "order"}:
            continue
        own = limit_rows(query)
        if own is not None and own >= rows:
            _drop_limit(branch, query)


def _drop_limit(branch: exp.Expr, query: exp.Select) -> None:
    query.set("order", None)
    query.set("limit", None)
    if isinstance(branch, exp.Subquery) and truthy_args(branch) == {"this"}:
        branch.replace(query)


def _ordinal_keys(query: exp.Expr) -> list[exp.Ordered] | None:
    order = query.args.get("order")
    if order is None or truthy_args(order) != {"expressions"}:
        return None
    keys = list(order.expressions)
    if not all(isinstance(k, exp.Ordered) and is_integer_literal(k.this) for k in keys):
        return None
    return keys


def _width(union: exp.Union) -> int | None:
    """The number of output columns of a UNION (its first branch's)."""
    first = leftmost_select(union)
    if first is None or any(isinstance(p.unalias(), exp.Star) for p in first.expressions):
        return None
    return len(first.expressions)
