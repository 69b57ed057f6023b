"""Flatten AND/OR chains, drop repeated operands and sort the rest by text.

Why this is sound: in three-valued logic AND and OR are associative,
commutative and idempotent (``p AND p`` is ``p`` for TRUE, FALSE and NULL), so
a chain denotes the *set* of its operands. Duplicates are only dropped when
the operand is deterministic (no volatile function, window or subquery), since
two calls of ``random() > 0.5`` are two different tests. A TRUE operand of an AND
and a FALSE operand of an OR go too: each is its connective's identity (``TRUE AND
p`` is ``p`` for TRUE, FALSE and NULL), which is how an optimizer's ``ON TRUE AND
k = k2`` meets ``ON k = k2``.
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._util import (
    build_chain,
    flatten,
    is_deterministic,
    reverse_preorder,
    sql_text,
)

E = TypeVar("E", bound=exp.Expr)


def sort_connectives(expression: E) -> E:
    """Canonicalize every AND/OR chain.

    Example:
        >>> import sqlglot
        >>> e = sqlglot.parse_one("SELECT 1 FROM t WHERE b = 1 AND (a = 1 AND b = 1)")
        >>> sort_connectives(e).sql()
        'SELECT 1 FROM t WHERE a = 1 AND b = 1'
    """
    # Descendants first, so that an operand's text is already canonical when
    # the chain around it is sorted.
    for node in reverse_preorder(expression):
        if not isinstance(node, exp.And | exp.Or) or node.parent is None:
            continue
        kind: type[exp.Connector] = exp.And if isinstance(node, exp.And) else exp.Or
        if _continues_chain(node, kind):
            continue  # the head of the chain will handle this node
        operands = flatten(node, kind)
        unique: dict[str, exp.Expr] = {}
        keyed: list[tuple[str, exp.Expr]] = []
        identity = kind is exp.And  # TRUE for AND, FALSE for OR
        for operand in operands:
            if isinstance(operand, exp.Boolean) and operand.this is identity:
                continue
            text = sql_text(operand)
            if is_deterministic(operand):
                if text in unique:
                    continue
                unique[text] = operand
            keyed.append((text, operand))
        keyed.sort(key=lambda pair: pair[0])
        if not keyed:
            node.replace(exp.Boolean(this=identity))
            continue
        node.replace(build_chain([operand for _, operand in keyed], kind))
    return expression


def _continues_chain(node: exp.Expr, kind: type[exp.Connector]) -> bool:
    parent = node.parent
    while isinstance(parent, exp.Paren):
        parent = parent.parent
    return isinstance(parent, kind)
