"""Parenthesize every operand that could be read back under a different operator.

This is the safety net behind the promise that the canonical SQL *text* is a
faithful picture of the canonical *tree*: two different trees must never
render to the same string. Rules already add parentheses when they build or
move nodes; this last pass checks the boolean and comparison layer
independently and wraps any operand that does not bind more tightly than its
operator.

Why this is sound: a parenthesis node is the identity on values, so wrapping
never changes the tree's meaning, only removes ambiguity from its rendering.
Arithmetic subtrees come from the parser (no rule builds them) and are left
as they are. Set operations nested in a way that left-associativity and the
higher precedence of INTERSECT would read differently are parenthesized too.
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._util import TIGHT, reverse_preorder, self_delimited

E = TypeVar("E", bound=exp.Expr)

_PREDICATE_PARENTS: tuple[type[exp.Expr], ...] = (
    exp.EQ,
    exp.NEQ,
    exp.GT,
    exp.GTE,
    exp.LT,
    exp.LTE,
    exp.NullSafeEQ,
    exp.NullSafeNEQ,
    exp.Is,
    exp.Like,
    exp.ILike,
    exp.In,
    exp.Between,
)


def ensure_parens(expression: E) -> E:
    """Wrap boolean and comparison operands that bind too loosely for their place.

    Example:
        >>> from sqlglot import exp
        >>> tree = exp.And(this=exp.Or(this=exp.column("a"), expression=exp.column("b")),
        ...                expression=exp.column("c"))
        >>> tree.sql()
        'a OR b AND c'
        >>> ensure_parens(exp.Not(this=tree)).sql()
        'NOT ((a OR b) AND c)'
    """
    for node in reverse_preorder(expression):
        if isinstance(node, exp.SetOperation):
            _wrap_set_operands(node)
        for child in list(node.iter_expressions()):
            if not self_delimited(child) and not _binds_tighter(child, node):
                # Detach first: building the Paren around ``child`` would
                # re-parent it before ``replace`` looks up its old parent.
                paren = exp.Paren()
                child.replace(paren)
                paren.set("this", child)
    return expression


def _wrap_set_operands(node: exp.SetOperation) -> None:
    # ``a UNION (b EXCEPT c)``: set operations associate to the left; and
    # ``(a UNION b) INTERSECT c``: INTERSECT binds more tightly than the others.
    operands = [node.args.get("expression")]
    if isinstance(node, exp.Intersect):
        operands.append(node.this)
    for operand in operands:
        if isinstance(operand, exp.SetOperation) and not (
            operand.arg_key == "this" and isinstance(operand, exp.Intersect)
        ):
            wrapper = exp.Subquery()
            operand.replace(wrapper)
            wrapper.set("this", operand)
    # ``(SELECT ... LIMIT 1) EXCEPT ...``: an operand's own ORDER BY or LIMIT is written
    # in parentheses, which read back as a parenthesised query.
    for operand in (node.this, node.args.get("expression")):
        if isinstance(operand, exp.Select) and any(
            operand.args.get(k) for k in ("order", "limit", "offset")
        ):
            wrapper = exp.Subquery()
            operand.replace(wrapper)
            wrapper.set("this", operand)


def _binds_tighter(child: exp.Expr, parent: exp.Expr) -> bool:
    """Whether ``child`` as an operand of ``parent`` reads back the same without parens."""
    if isinstance(parent, exp.Or):
        return isinstance(child, (exp.Or, exp.And, exp.Not, exp.Predicate, *TIGHT))
    if isinstance(parent, exp.And):
        return isinstance(child, (exp.And, exp.Not, exp.Predicate, *TIGHT))
    if isinstance(parent, exp.Not):
        return isinstance(child, (exp.Not, exp.Predicate, *TIGHT)) and not isinstance(
            child, exp.Connector
        )
    if isinstance(parent, _PREDICATE_PARENTS):
        if isinstance(parent, exp.In) and child.arg_key != "this":
            return True  # list items are comma-separated slots
        return isinstance(child, TIGHT)
    return True  # other contexts: slots, arithmetic from the parser
