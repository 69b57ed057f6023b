"""Canonical IN lists: sorted, without duplicates; ``x IN (v)`` becomes ``x = v``.

Why this is sound: ``x IN (a, b, ...)`` means ``x = a OR x = b OR ...``; OR is
commutative and idempotent in three-valued logic, so the order of the list and
repeated (deterministic) items do not matter, and a one-item list is that one
equality. The equality is only written when both sides have types of one
family that convert exactly (IN types its list together, ``=`` pairwise), and
never for row values (row comparison with NULL fields is engine-specific).
Subquery INs are left alone.
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._util import (
    comparison_operand,
    is_deterministic,
    reverse_preorder,
    same_exact_family,
    sql_text,
    truthy_args,
)

E = TypeVar("E", bound=exp.Expr)


def normalize_in(expression: E) -> E:
    """Sort and deduplicate IN lists and turn one-item lists into equalities.

    Example:
        >>> import sqlglot
        >>> from sqlglot.optimizer.annotate_types import annotate_types
        >>> e = sqlglot.parse_one("SELECT 1 FROM t AS t WHERE t.a IN (3, 1, 3) AND t.b IN (2)")
        >>> e = annotate_types(e, schema={"t": {"a": "INT", "b": "INT"}})
        >>> normalize_in(e).sql()
        'SELECT 1 FROM t AS t WHERE t.a IN (1, 3) AND t.b = 2'
    """
    for node in reverse_preorder(expression):
        if not isinstance(node, exp.In) or truthy_args(node) != {"this", "expressions"}:
            continue
        items: list[exp.Expr] = list(node.expressions)
        if not all(is_deterministic(item) for item in items):
            continue
        unique: dict[str, exp.Expr] = {}
        for item in items:
            unique.setdefault(sql_text(item), item)
        ordered = [unique[key] for key in sorted(unique)]
        if (
            len(ordered) == 1
            and not isinstance(ordered[0], exp.Tuple)
            and same_exact_family(node.this, ordered[0])
        ):
            equality = exp.EQ(
                this=comparison_operand(node.this), expression=comparison_operand(ordered[0])
            )
            node.replace(equality)
        else:
            node.set("expressions", ordered)
    return expression
