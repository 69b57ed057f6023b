"""``NTH_VALUE(x, 1)`` as ``FIRST_VALUE(x)``.

Why this is sound: the standard defines ``NTH_VALUE(x, n)`` as ``x`` at the ``n``-th
row of the window frame (NULL when the frame has fewer rows) and ``FIRST_VALUE(x)`` as
``x`` at its first row (NULL for an empty frame), under the same OVER clause, so for
``n = 1`` they are one function (with IGNORE NULLS, both skip the same NULLs). Only a
call with no FROM FIRST/LAST option is rewritten.
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._util import truthy_args

E = TypeVar("E", bound=exp.Expr)


def window_synonyms(expression: E) -> E:
    """Rewrite ``NTH_VALUE(x, 1)`` as ``FIRST_VALUE(x)``.

    Example:
        >>> import sqlglot
        >>> tree = sqlglot.parse_one("SELECT NTH_VALUE(a, 1) OVER (ORDER BY b) FROM t")
        >>> window_synonyms(tree).sql()
        'SELECT FIRST_VALUE(a) OVER (ORDER BY b) FROM t'
    """
    for node in list(expression.find_all(exp.NthValue)):
        offset = node.args.get("offset")
        if truthy_args(node) == {"this", "offset"} and offset == exp.Literal.number(1):
            node.replace(exp.FirstValue(this=node.this.copy()))
    return expression
