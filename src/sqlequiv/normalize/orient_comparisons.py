"""Orient comparisons canonically: ``5 < x`` becomes ``x > 5``; ``b = a`` becomes ``a = b``.

Why this is sound: ``a < b`` and ``b > a`` are the same test (and both NULL when
either side is NULL); ``=``, ``<>`` and ``IS [NOT] DISTINCT FROM`` are
symmetric. Implicit casts to a common type do not depend on operand order. The
operand that is not a constant goes left; among equals, the smaller text.
Comparisons with ``ANY``/``ALL`` keep their shape (the quantifier must stay on
the right).
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._util import MIRRORED, contains, reverse_preorder, sql_text
from sqlequiv.policy import is_volatile

E = TypeVar("E", bound=exp.Expr)

def orient_comparisons(expression: E) -> E:
    """Put the non-constant (then the textually smaller) operand on the left.

    Example:
        >>> import sqlglot
        >>> e = sqlglot.parse_one("SELECT 1 FROM t WHERE 5 < t.x AND t.b = t.a")
        >>> orient_comparisons(e).sql()
        'SELECT 1 FROM t WHERE t.x > 5 AND t.a = t.b'
    """
    for node in reverse_preorder(expression):
        mirrored = MIRRORED.get(type(node))
        if mirrored is None:
            continue
        left, right = node.this, node.expression
        if contains(left, exp.Any, exp.All) or contains(right, exp.Any, exp.All):
            continue
        if _key(right) < _key(left):
            if mirrored is type(node):
                node.set("this", right)
                node.set("expression", left)
            else:
                node.replace(mirrored(this=right, expression=left))
    return expression


def _key(node: exp.Expr) -> tuple[bool, str]:
    # Only a value that is the same on every row counts as a constant; an
    # aggregate such as COUNT(*) has no column but is not one.
    constant = not contains(
        node, exp.Column, exp.Query, exp.AggFunc, exp.Window, exp.Star
    ) and not is_volatile(node)
    return (constant, sql_text(node))
