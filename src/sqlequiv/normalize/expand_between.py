"""Rewrite ``x BETWEEN a AND b`` as ``x >= a AND x <= b``.

Why this is sound: the SQL standard defines BETWEEN as exactly that
conjunction, in three-valued logic too (a NULL bound gives NULL or FALSE the
same way in both forms). ``NOT BETWEEN`` is the negation of the same
conjunction, handled by ``push_not`` afterwards. Two conditions keep the
rewrite honest: ``x`` is evaluated twice afterwards, so it must be
deterministic; and the engine types the three operands together for BETWEEN
but pairwise for the comparisons, so the subject must compare with each bound
alone as with both together (``_util.compared_alike``): one family in which every
implicit conversion is exact (integers and decimals; one float type; strings;
dates and timestamps without time zone), a DOUBLE against numbers (compared as
DOUBLE either way), or a date against string literals that spell a date.
SYMMETRIC is left alone.
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._util import (
    compared_alike,
    comparison_operand,
    is_deterministic,
    reverse_preorder,
)

E = TypeVar("E", bound=exp.Expr)


def expand_between(expression: E) -> E:
    """Replace BETWEEN by the two comparisons it stands for.

    Example:
        >>> import sqlglot
        >>> from sqlglot.optimizer.annotate_types import annotate_types
        >>> e = annotate_types(sqlglot.parse_one("SELECT 1 FROM t WHERE 2 BETWEEN 1 AND 3"))
        >>> expand_between(e).sql()
        'SELECT 1 FROM t WHERE (2 >= 1 AND 2 <= 3)'
    """
    for node in reverse_preorder(expression):
        if not isinstance(node, exp.Between) or node.args.get("symmetric"):
            continue
        subject, low, high = node.this, node.args["low"], node.args["high"]
        if not is_deterministic(subject) or not compared_alike(subject, low, high):
            continue
        expanded = exp.And(
            this=exp.GTE(
                this=comparison_operand(subject.copy()), expression=comparison_operand(low)
            ),
            expression=exp.LTE(
                this=comparison_operand(subject), expression=comparison_operand(high)
            ),
        )
        # Parenthesized so that a surrounding NOT or OR keeps its scope.
        node.replace(exp.Paren(this=expanded))
    return expression
