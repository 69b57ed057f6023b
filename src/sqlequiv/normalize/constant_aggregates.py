"""``MAX(c)`` of a value the group's rows cannot change is ``c``, where every group has a row.

sqlglot's decorrelation writes TPC-H 11's ``HAVING SUM(...) > (SELECT SUM(...) * 0.0001
FROM ...)`` as ``HAVING SUM(...) > MAX((SELECT ...))``: an uncorrelated scalar subquery
under an aggregate, so that the HAVING reads only aggregates.

Why this is sound: under a plain GROUP BY (no ROLLUP, CUBE, GROUPING SETS or ``GROUP BY
()``, whose grand total may be a group of no row) every group has at least one row. A
literal, or a scalar subquery that reads no column of an enclosing query (``_scoping.
closed``) and has no LIMIT, window or volatile function, has one value ``c`` on every
row, so MIN, MAX and ANY_VALUE over the group's rows are ``c`` (NULL when ``c`` is NULL:
they skip NULLs, and a group of NULLs gives NULL). SUM and AVG of the NULL literal are
NULL likewise (Calcite's aggregate pushdown writes ``SUM(NULL)``). A FILTER or an OVER
clause is left alone (a FILTER may leave no row; a window is no group).

Each SELECT first reads its derived tables' constant columns as those constants
(:mod:`.constant_columns`), innermost SELECT first, so that an aggregate of such a
column is one of a literal.
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._scoping import closed
from sqlequiv.normalize._util import contains, own_nodes, plain_group
from sqlequiv.normalize.constant_columns import read_constant_columns
from sqlequiv.policy import is_volatile

E = TypeVar("E", bound=exp.Expr)

_PICKS = (exp.Max, exp.Min, exp.AnyValue)

#: Aggregates that skip NULLs and are NULL over NULLs only.
_NULL_OF_NULLS = (exp.Max, exp.Min, exp.AnyValue, exp.Sum, exp.Avg)


def constant_aggregates(expression: E) -> E:
    """Replace MIN/MAX/ANY_VALUE of a row-independent value by it, under a plain GROUP BY.

    Example:
        >>> import sqlglot
        >>> sql = ("SELECT t.a FROM t AS t GROUP BY t.a "
        ...        "HAVING SUM(t.b) > MAX((SELECT SUM(u.b) FROM u AS u))")
        >>> constant_aggregates(sqlglot.parse_one(sql)).sql()
        'SELECT t.a FROM t AS t GROUP BY t.a HAVING SUM(t.b) > (SELECT SUM(u.b) FROM u AS u)'
    """
    # Innermost first: a branch's SUM(NULL) is NULL before the query around reads it.
    for select in reversed(list(expression.find_all(exp.Select))):
        read_constant_columns(select)
        if plain_group(select) is None:
            continue
        for call in own_nodes(select, exp.AggFunc):
            if call.expressions or isinstance(call.parent, exp.Filter | exp.Window):
                continue
            value = call.this
            if isinstance(call, _NULL_OF_NULLS) and isinstance(value, exp.Null):
                call.replace(exp.Null())
            elif isinstance(call, _PICKS) and _row_independent(value):
                call.replace(value)
    return expression


def _row_independent(value: exp.Expr) -> bool:
    """A literal, or a parenthesized scalar subquery closed and deterministic."""
    if isinstance(value, exp.Literal):
        return True
    if not isinstance(value, exp.Subquery) or not isinstance(value.this, exp.Query):
        return False
    query = value.this
    if is_volatile(query) or contains(query, exp.Limit, exp.Offset, exp.Fetch, exp.Window):
        return False
    return closed(query)
