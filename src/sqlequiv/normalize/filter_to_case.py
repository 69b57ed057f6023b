"""Rewrite ``AGG(x) FILTER (WHERE p)`` as ``AGG(CASE WHEN p THEN x END)`` for the
aggregates that skip NULLs.

Why this is sound: FILTER feeds the aggregate the rows on which ``p`` is TRUE. The
CASE is ``x`` on exactly those rows and NULL on the others (``p`` FALSE or NULL), and
SUM, AVG, MIN, MAX and COUNT(x) skip NULL inputs, so they see the same values: the
same result, an empty input included (NULL for SUM, AVG, MIN and MAX, 0 for COUNT).
With DISTINCT, the distinct non-NULL values are the same too. ``COUNT(*)`` counts
rows, not values, and becomes ``COUNT(CASE WHEN p THEN 1 END)``, which counts the rows
on which ``p`` is TRUE. Aggregates that keep NULLs (ARRAY_AGG, LIST, FIRST, ...) are
left alone, as is a FILTER on a bare boolean column (the prover matches that shape
itself) and anything the rule does not recognise.
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._aggregates import NULL_SKIPPING
from sqlequiv.normalize._util import reverse_preorder

E = TypeVar("E", bound=exp.Expr)

#: The aggregates that skip NULL inputs, whose FILTER is a CASE on their argument.


def filter_to_case(expression: E) -> E:
    """Replace FILTER on a NULL-skipping aggregate by a CASE on its argument.

    Example:
        >>> import sqlglot
        >>> e = sqlglot.parse_one(
        ...     "SELECT AVG(x) FILTER (WHERE x > 0), COUNT(*) FILTER (WHERE y = 1), "
        ...     "LIST(x) FILTER (WHERE y) FROM t", read="duckdb")
        >>> for column in filter_to_case(e).selects:
        ...     print(column.sql("duckdb"))
        AVG(CASE WHEN x > 0 THEN x END)
        COUNT(CASE WHEN y = 1 THEN 1 END)
        ARRAY_AGG(x) FILTER(WHERE y)
    """
    for node in reverse_preorder(expression):
        if not isinstance(node, exp.Filter):
            continue
        aggregate, where = node.this, node.expression
        if type(aggregate) not in NULL_SKIPPING or not isinstance(where, exp.Where):
            continue
        if aggregate.expressions:  # MIN(x, n) and the like: not one value per row
            continue
        condition = where.this
        if isinstance(condition, exp.Column):
            # A FILTER on a boolean column is the shape the prover reads GROUPING SETS
            # rewrites by (Calcite's ``COUNT(x) FILTER (WHERE $g_1)``): left to it.
            continue
        argument = aggregate.this
        counts_rows = argument is None or isinstance(argument, exp.Star)
        if isinstance(aggregate, exp.Count) and counts_rows:
            one = exp.Literal.number(1)
            one.type = exp.DataType.build("INT")
            aggregate.set("this", _when(condition, one))
        elif isinstance(argument, exp.Distinct):
            if len(argument.expressions) != 1:
                continue
            argument.set("expressions", [_when(condition, argument.expressions[0])])
        elif isinstance(argument, exp.Expr):
            aggregate.set("this", _when(condition, argument))
        else:
            continue
        node.replace(aggregate)
    return expression


def _when(condition: exp.Expr, value: exp.Expr) -> exp.Case:
    case = exp.Case(ifs=[exp.If(this=condition.copy(), true=value.copy())])
    case.type = value.type  # the CASE has its one branch's type (ELSE NULL takes any)
    return case
