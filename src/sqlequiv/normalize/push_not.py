"""Push NOT inwards: through AND/OR (De Morgan), into comparisons, and off NOT.

Why this is sound in three-valued logic:
- ``NOT NOT p`` is ``p`` (NOT maps TRUE/FALSE/NULL to FALSE/TRUE/NULL).
- De Morgan's laws hold in Kleene's logic: ``NOT (p AND q)`` is
  ``NOT p OR NOT q`` and ``NOT (p OR q)`` is ``NOT p AND NOT q``.
- ``NOT (a < b)`` is ``a >= b`` (and likewise for the other comparisons): both
  are NULL when an operand is NULL, and otherwise the order is total (DuckDB
  orders NaN above every number and equal to itself). ``IS [NOT] DISTINCT
  FROM`` is two-valued and its two forms are each other's negation.
- ``NOT (x LIKE p)`` is ``x NOT LIKE p`` by definition (ILIKE likewise).

Comparisons against ``ANY``/``ALL`` subqueries are left alone: the negation of
``x > ANY (S)`` is ``x <= ALL (S)``, not ``x <= ANY (S)``.
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._util import reverse_preorder, truthy_args

E = TypeVar("E", bound=exp.Expr)

_NEGATED: dict[type[exp.Expr], type[exp.Expr]] = {
    exp.EQ: exp.NEQ,
    exp.NEQ: exp.EQ,
    exp.GT: exp.LTE,
    exp.GTE: exp.LT,
    exp.LT: exp.GTE,
    exp.LTE: exp.GT,
    exp.NullSafeEQ: exp.NullSafeNEQ,
    exp.NullSafeNEQ: exp.NullSafeEQ,
}


def push_not(expression: E) -> E:
    """Rewrite every NOT into negation normal form where that is exact.

    Example:
        >>> import sqlglot
        >>> push_not(sqlglot.parse_one("SELECT 1 FROM t WHERE NOT (a = 1 AND NOT b > 2)")).sql()
        'SELECT 1 FROM t WHERE (a <> 1 OR b > 2)'
    """
    # Descendants first: an inner NOT is already in normal form when the
    # outer one distributes over it.
    for node in reverse_preorder(expression):
        if isinstance(node, exp.Not) and node.parent is not None:
            negated = negate(node.this)
            if negated is not None:
                node.replace(negated)
    return expression


def negate(node: exp.Expr) -> exp.Expr | None:
    """The negation of ``node`` without a leading NOT, or ``None`` if there is none."""
    inner = node.unnest()
    if isinstance(inner, exp.Not):
        negated: exp.Expr = inner.this
        return negated
    flipped = _NEGATED.get(type(inner))
    if flipped is not None:
        left, right = inner.this, inner.expression
        if isinstance(left, exp.Any | exp.All) or isinstance(right, exp.Any | exp.All):
            return None
        return flipped(this=left, expression=right)
    if isinstance(inner, exp.Like | exp.ILike) and truthy_args(inner) <= {
        "this",
        "expression",
        "negate",
    }:
        # ``x NOT LIKE p`` is defined as ``NOT (x LIKE p)``.
        inner.set("negate", None if inner.args.get("negate") else True)
        return inner
    if isinstance(inner, exp.And | exp.Or):
        dual: type[exp.Connector] = exp.Or if isinstance(inner, exp.And) else exp.And
        left_neg = negate(inner.this) or exp.Not(this=_wrap_not_operand(inner.this))
        right_neg = negate(inner.expression) or exp.Not(this=_wrap_not_operand(inner.expression))
        return exp.Paren(this=dual(this=_wrap(left_neg), expression=_wrap(right_neg)))
    return None


def _wrap_not_operand(node: exp.Expr) -> exp.Expr:
    return exp.Paren(this=node) if isinstance(node, exp.Connector) else node


def _wrap(node: exp.Expr) -> exp.Expr:
    return exp.Paren(this=node) if isinstance(node, exp.Connector) else node
