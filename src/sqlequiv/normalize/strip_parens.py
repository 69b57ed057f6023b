"""Remove parentheses that cannot change how an expression is read.

Why this is sound: parentheses only group. One can go when its content is a
single token or a self-delimited group (a column, a literal, a function call,
a subquery), when it sits in a slot that is not an operator operand (a WHERE
body, a projection, a function argument), or when the operator around it binds
more loosely than the operator inside (a comparison under AND, OR or NOT; an
AND under AND; an AND or OR under OR). The tree does not change meaning; only
its rendering does, and the rendering of the remaining tree is unambiguous.

The parentheses around a set operation's operand go too when the operand is a plain
SELECT, without ORDER BY, LIMIT, OFFSET or WITH of its own
(:func:`strip_set_operand_parens`): ``(SELECT a FROM t) UNION ALL (SELECT b FROM u)
LIMIT 3`` is ``SELECT a FROM t UNION ALL SELECT b FROM u LIMIT 3``, whose LIMIT binds to
the UNION all the same.
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._util import (
    COMPARISONS,
    SLOT_PARENTS,
    TIGHT,
    reverse_preorder,
    self_delimited,
    truthy_args,
)

E = TypeVar("E", bound=exp.Expr)

#: Operators that bind more tightly than NOT, AND and OR.
_PREDICATES: tuple[type[exp.Expr], ...] = (
    exp.EQ,
    exp.NEQ,
    exp.GT,
    exp.GTE,
    exp.LT,
    exp.LTE,
    exp.NullSafeEQ,
    exp.NullSafeNEQ,
    exp.Is,
    exp.In,
    exp.Like,
    exp.ILike,
    exp.Between,
    exp.Exists,
)


def strip_parens(expression: E) -> E:
    """Remove redundant parentheses.

    Example:
        >>> import sqlglot
        >>> strip_parens(sqlglot.parse_one("SELECT (a) FROM t WHERE (a = 1) AND ((b) > 2)")).sql()
        'SELECT a FROM t WHERE a = 1 AND b > 2'
    """
    for node in reverse_preorder(expression):
        if isinstance(node, exp.Paren) and node.parent is not None and _removable(node):
            node.replace(node.this)
    return expression


def _removable(paren: exp.Paren) -> bool:
    child = paren.this
    parent = paren.parent
    if self_delimited(child):
        return True
    if isinstance(parent, exp.Join):
        return paren.arg_key == "on"
    if isinstance(parent, exp.Select):
        return paren.arg_key == "expressions"
    if isinstance(parent, SLOT_PARENTS) and not isinstance(parent, exp.Paren):
        return True
    if isinstance(parent, (*COMPARISONS, exp.NullSafeEQ, exp.NullSafeNEQ)):
        return isinstance(child, TIGHT)
    if isinstance(parent, exp.Not):
        return isinstance(child, _PREDICATES)
    if isinstance(parent, exp.And):
        return isinstance(child, (*_PREDICATES, exp.Not, exp.And))
    if isinstance(parent, exp.Or):
        return isinstance(child, (*_PREDICATES, exp.Not, exp.And, exp.Or))
    return False


def strip_set_operand_parens(expression: E) -> E:
    """Remove the parentheses around the plain SELECT operands of set operations.

    Example:
        >>> import sqlglot
        >>> sql = "(SELECT a FROM t) UNION ALL (SELECT b FROM u LIMIT 1) LIMIT 3"
        >>> strip_set_operand_parens(sqlglot.parse_one(sql)).sql()
        'SELECT a FROM t UNION ALL (SELECT b FROM u LIMIT 1) LIMIT 3'
    """
    for operation in list(expression.find_all(exp.SetOperation)):
        for operand in (operation.this, operation.expression):
            if not isinstance(operand, exp.Subquery) or truthy_args(operand) != {"this"}:
                continue
            query = operand.this
            if not isinstance(query, exp.Select):
                continue
            if truthy_args(query) & {"order", "limit", "offset", "with_"}:
                continue
            operand.replace(query)
    return expression
