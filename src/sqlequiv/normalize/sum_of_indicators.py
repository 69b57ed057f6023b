"""Count with COUNT what a grouped query counts with ``SUM(CASE ... THEN 1 ELSE 0 END)``.

In a query with GROUP BY, ``SUM(CASE WHEN p THEN 1 ELSE 0 END)`` becomes ``COUNT(CASE
WHEN p THEN 1 END)``, ``SUM(CASE WHEN p THEN 0 ELSE 1 END)`` becomes ``COUNT(CASE WHEN p
THEN NULL ELSE 1 END)``, and ``SUM(CASE WHEN e IS NULL THEN 0 ELSE 1 END)`` becomes
``COUNT(e)``: the same count, written the three ways text-to-SQL answers write it.

Why this is sound: every group of a GROUP BY (by expressions; not ROLLUP, CUBE or
GROUPING SETS, which add a group over no row when the input is empty) has at least one
row, so the SUM of a 0 or a 1 per row is never NULL: it is the number of rows whose
value is 1. ``CASE WHEN p THEN 1 ELSE 0 END`` is 1 exactly where ``p`` is true (not
false or NULL), which is where ``CASE WHEN p THEN 1 END`` is not NULL, and ``COUNT``
counts the rows where its argument is not NULL; with the branches swapped it is 1 where
``p`` is not true. ``e IS NULL`` is never NULL itself, so it is not true exactly where
``e`` is not NULL, the rows ``COUNT(e)`` counts. The count is the same integer (SUM
gives a wider integer type than COUNT, and the results compare by value); only a SUM
that is itself an output column is rewritten, so that no arithmetic or comparison meets
the narrower type. A SUM with DISTINCT, a FILTER, or over a window (whose frame may hold
no row) is left alone, as is any SUM of a query without GROUP BY (over no row, SUM is
NULL and COUNT 0).
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._util import one_branch_case, truthy_args

E = TypeVar("E", bound=exp.Expr)


def sum_of_indicators(expression: E) -> E:
    """Rewrite grouped SUMs of 0/1 CASE expressions as COUNTs.

    Example:
        >>> import sqlglot
        >>> e = sqlglot.parse_one(
        ...     "SELECT g, SUM(CASE WHEN x > 1 THEN 1 ELSE 0 END), "
        ...     "SUM(CASE WHEN y IS NULL THEN 0 ELSE 1 END) FROM t GROUP BY g")
        >>> sum_of_indicators(e).sql()
        'SELECT g, COUNT(CASE WHEN x > 1 THEN 1 END), COUNT(y) FROM t GROUP BY g'
    """
    for node in list(expression.find_all(exp.Sum)):
        rewritten = _count(node)
        if rewritten is not None:
            node.replace(rewritten)
    return expression


def _count(node: exp.Sum) -> exp.Expr | None:
    # (``big_int``: as DuckDB's parser makes every COUNT, so the form reads back as itself.)
    if truthy_args(node) != {"this"} or not _grouped(node):
        return None
    case = one_branch_case(node.this)
    if case is None:
        return None
    condition, then_value, default = case
    # (Without ELSE, ``_bit(None)`` is None: a SUM of 1 or NULL is left alone.)
    then, otherwise = _bit(then_value), _bit(default)
    if (then, otherwise) == (1, 0):
        counted = exp.Case(ifs=[exp.If(this=condition.copy(), true=exp.Literal.number(1))])
        return exp.Count(this=counted, big_int=True)
    if (then, otherwise) == (0, 1):
        test = condition.unnest()
        if isinstance(test, exp.Is) and isinstance(test.expression, exp.Null):
            return exp.Count(this=test.this.copy(), big_int=True)
        counted = exp.Case(
            ifs=[exp.If(this=condition.copy(), true=exp.Null())], default=exp.Literal.number(1)
        )
        return exp.Count(this=counted, big_int=True)
    return None


def _bit(node: exp.Expr | None) -> int | None:
    """0 or 1 for the integer literal ``0`` or ``1``; else None."""
    if isinstance(node, exp.Literal) and not node.is_string and node.this in ("0", "1"):
        return int(node.this)
    return None


def _grouped(node: exp.Sum) -> bool:
    """Whether ``node`` is a column of a query that groups by expressions: a projection
    of its own (so that no arithmetic meets the narrower type of COUNT), not a window."""
    item: exp.Expr = node.parent if isinstance(node.parent, exp.Alias) else node
    select = item.parent
    if not isinstance(select, exp.Select) or not any(p is item for p in select.expressions):
        return False
    group = select.args.get("group")
    return group is not None and truthy_args(group) == {"expressions"}
