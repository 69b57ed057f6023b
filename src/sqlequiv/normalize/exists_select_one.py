"""Write the projection of an EXISTS subquery as ``SELECT 1``.

Why this is sound: ``EXISTS (q)`` only asks whether ``q`` returns a row, and
the projection list does not change how many rows a SELECT returns, with
three exceptions that are left alone: an aggregate without GROUP BY (which
makes one row out of none), a set-returning function (which multiplies rows)
and a window or volatile function (kept for simplicity). DISTINCT does not
change whether the result is empty either, so it is dropped. The subquery
must not have ORDER BY, LIMIT or OFFSET, which could refer to the projections
or change the row count.

A plain GROUP BY without HAVING goes too: it makes a group, and so a row, exactly where
there is a row (ROLLUP, CUBE, GROUPING SETS and ``GROUP BY ()`` are kept: their grand
total is a row over none).
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._util import contains, plain_group, truthy_args
from sqlequiv.policy import is_volatile

E = TypeVar("E", bound=exp.Expr)

_ALLOWED = frozenset({"expressions", "from_", "joins", "where", "group", "having", "distinct"})


def exists_select_one(expression: E) -> E:
    """Replace the projections of plain EXISTS subqueries by the constant 1.

    Example:
        >>> import sqlglot
        >>> e = sqlglot.parse_one("SELECT 1 FROM t WHERE EXISTS (SELECT DISTINCT u.a, u.b FROM u)")
        >>> exists_select_one(e).sql()
        'SELECT 1 FROM t WHERE EXISTS(SELECT 1 FROM u)'
    """
    for node in list(expression.find_all(exp.Exists)):
        query = node.this
        if not isinstance(query, exp.Select) or truthy_args(query) - _ALLOWED:
            continue
        distinct = query.args.get("distinct")
        if distinct is not None and truthy_args(distinct):
            continue  # DISTINCT ON
        projections = query.expressions
        if any(
            contains(p, exp.AggFunc, exp.Window, exp.UDTF, exp.GenerateSeries, exp.Query)
            or is_volatile(p)
            for p in projections
        ):
            continue
        query.set("distinct", None)
        query.set("expressions", [exp.Literal.number(1)])
        if query.args.get("having") is None and plain_group(query) is not None:
            query.set("group", None)
    return expression
