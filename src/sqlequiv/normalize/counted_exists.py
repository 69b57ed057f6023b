"""A count of rows compared with zero, as EXISTS or NOT EXISTS.

``WHERE (SELECT COUNT(*) FROM orders o WHERE o.customer_id = c.id) > 0`` keeps the rows
that ``WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.id)`` keeps, and
``... = 0`` those of ``NOT EXISTS``. Text-to-SQL answers write the count; references, the
EXISTS.

Why this is sound: a SELECT of aggregates without GROUP BY (nor HAVING, window, QUALIFY,
LIMIT or OFFSET) returns exactly one row, and ``COUNT(*)`` there is the number of rows
its FROM and WHERE keep: never NULL. So ``n > 0``, ``n >= 1``, ``n <> 0`` (and the same
written the other way round) are TRUE exactly when a row is kept, and FALSE otherwise,
which is what ``EXISTS`` of the same FROM and WHERE is; ``n = 0``, ``n < 1`` and ``n <= 0``
are its negation. Neither side is ever UNKNOWN. ``COUNT`` of a non-NULL literal counts
the rows as ``COUNT(*)`` does.
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._util import COMPARISONS, MIRRORED, is_integer_literal, truthy_args

E = TypeVar("E", bound=exp.Expr)

#: ``count op k`` that is ``count > 0`` (True) or ``count = 0`` (False), count on the left.
_MEANINGS: dict[tuple[type[exp.Expr], int], bool] = {
    (exp.GT, 0): True,
    (exp.GTE, 1): True,
    (exp.NEQ, 0): True,
    (exp.EQ, 0): False,
    (exp.LT, 1): False,
    (exp.LTE, 0): False,
}


def counted_exists(expression: E) -> E:
    """Rewrite ``(SELECT COUNT(*) ...) > 0`` as EXISTS and ``... = 0`` as NOT EXISTS.

    Example:
        >>> import sqlglot
        >>> sql = ("SELECT c.id FROM c AS c WHERE "
        ...        "(SELECT COUNT(*) FROM o AS o WHERE o.cid = c.id) = 0")
        >>> counted_exists(sqlglot.parse_one(sql)).sql()
        'SELECT c.id FROM c AS c WHERE NOT EXISTS(SELECT 1 FROM o AS o WHERE o.cid = c.id)'
    """
    for comparison in list(expression.find_all(*COMPARISONS)):
        rewritten = _rewrite(comparison)
        if rewritten is not None:
            comparison.replace(rewritten)
    return expression


def _rewrite(comparison: exp.Expr) -> exp.Expr | None:
    left, right = comparison.this, comparison.expression
    kind: type[exp.Expr] = type(comparison)
    if isinstance(right, exp.Subquery) and is_integer_literal(left):
        left, right, kind = right, left, MIRRORED[kind]
    if not isinstance(left, exp.Subquery) or not is_integer_literal(right):
        return None
    exists = _MEANINGS.get((kind, int(right.to_py())))
    body = _counted(left)
    if exists is None or body is None:
        return None
    found = exp.Exists(this=body)
    return found if exists else exp.Not(this=found)


def _counted(subquery: exp.Subquery) -> exp.Select | None:
    """``SELECT 1 FROM ... WHERE ...`` for ``(SELECT COUNT(*) FROM ... WHERE ...)``."""
    body = subquery.this
    if truthy_args(subquery) != {"this"} or not isinstance(body, exp.Select):
        return None
    if truthy_args(body) - {"expressions", "from_", "joins", "where"}:
        return None
    if len(body.expressions) != 1:
        return None
    count = body.expressions[0].unalias()
    if not isinstance(count, exp.Count) or count.expressions:
        return None
    argument = count.this
    if not isinstance(argument, (exp.Star, exp.Literal)):
        return None  # a literal is never NULL (NULL is exp.Null)
    rows = body.copy()
    rows.set("expressions", [exp.Literal.number(1)])
    return rows
