"""Write an explicit ``ASC`` as the default direction it is.

``ORDER BY a ASC`` and ``ORDER BY a`` sort alike, in a query, a window or an
ordered aggregate, and so do ``ORDER BY a ASC NULLS LAST`` and ``ORDER BY a NULLS
LAST``: ascending is every dialect's default direction. The NULL placement is a
separate argument of the key, which this rule leaves as it is (it was made
explicit when the query was read, in its own dialect).
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

E = TypeVar("E", bound=exp.Expr)


def ascending(expression: E) -> E:
    """Drop every explicit ``ASC``.

    Example:
        >>> import sqlglot
        >>> ascending(sqlglot.parse_one("SELECT a FROM t ORDER BY a ASC, b DESC")).sql()
        'SELECT a FROM t ORDER BY a, b DESC'
    """
    for key in expression.find_all(exp.Ordered):
        if key.args.get("desc") is False:
            key.set("desc", None)
    return expression
