"""Rewrite ``COUNT(<non-NULL constant>)`` as ``COUNT(*)``.

Why this is sound: ``COUNT(e)`` counts the rows on which ``e`` is not NULL; a
literal number, string or TRUE/FALSE is never NULL, so it counts every row,
which is ``COUNT(*)``. ``COUNT(column)`` (which skips NULLs) and
``COUNT(DISTINCT 1)`` (which is 0 or 1) are not touched.
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

E = TypeVar("E", bound=exp.Expr)


def count_star(expression: E) -> E:
    """Replace COUNT of a non-NULL literal by ``COUNT(*)``.

    Example:
        >>> import sqlglot
        >>> e = sqlglot.parse_one("SELECT COUNT(1), COUNT(a), COUNT(DISTINCT 1) FROM t")
        >>> count_star(e).sql()
        'SELECT COUNT(*), COUNT(a), COUNT(DISTINCT 1) FROM t'
    """
    for node in list(expression.find_all(exp.Count)):
        argument = node.this
        if isinstance(argument, exp.Literal | exp.Boolean) and not node.expressions:
            node.set("this", exp.Star())
    return expression
