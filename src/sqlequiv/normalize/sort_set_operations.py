"""Sort the branches of UNION [ALL] and INTERSECT [ALL] chains by text.

Why this is sound: union and intersection are commutative and associative,
both as sets (UNION, INTERSECT) and as bags (UNION ALL adds multiplicities,
INTERSECT ALL takes their minimum), and the engine types the output columns
with a common supertype, which does not depend on branch order. Only a chain
of one operator with one DISTINCT/ALL flag is reordered; EXCEPT, BY NAME and
mixed chains keep their order.

The output column *names* of a set operation come from its first branch, so a
chain is only reordered where names do not matter (the top level, or an IN,
EXISTS or scalar subquery), or where every branch already has the same names.
An ORDER BY on the chain must use ordinals.
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._util import (
    is_integer_literal,
    output_names,
    reverse_preorder,
    sql_text,
    truthy_args,
)

E = TypeVar("E", bound=exp.Expr)

_LINK = frozenset({"this", "expression", "distinct"})
_HEAD = _LINK | {"order", "limit", "offset", "with_"}


def sort_set_operations(expression: E) -> E:
    """Put the branches of commutative set-operation chains in text order.

    Example:
        >>> import sqlglot
        >>> sort_set_operations(sqlglot.parse_one("SELECT b FROM u UNION SELECT a FROM t")).sql()
        'SELECT a FROM t UNION SELECT b FROM u'
    """
    for node in reverse_preorder(expression):
        if not isinstance(node, exp.Union | exp.Intersect) or _is_link(node.parent, node):
            continue
        if truthy_args(node) - _HEAD or not _ordinal_order(node):
            continue
        leaves = _leaves(node, type(node), bool(node.args.get("distinct")))
        if any(isinstance(leaf, exp.SetOperation) for leaf in leaves):
            continue  # a nested chain of another kind would need parentheses
        if _names_matter(node):
            names = [output_names(leaf) for leaf in leaves]
            if any(n is None or n != names[0] for n in names):
                continue
        ordered = sorted(leaves, key=sql_text)
        if ordered == leaves:
            continue
        left = ordered[0]
        for leaf in ordered[1:-1]:
            left = type(node)(this=left, expression=leaf, distinct=node.args.get("distinct"))
        node.set("this", left)
        node.set("expression", ordered[-1])
    return expression


def _is_link(parent: exp.Expr | None, child: exp.Expr) -> bool:
    """Whether ``child`` is an inner link of the chain headed higher up."""
    return (
        isinstance(parent, type(child))
        and type(parent) is type(child)
        and bool(parent.args.get("distinct")) == bool(child.args.get("distinct"))
        and truthy_args(child) <= _LINK
    )


def _leaves(node: exp.Expr, kind: type[exp.Expr], distinct: bool) -> list[exp.Expr]:
    leaves: list[exp.Expr] = []
    for child in (node.this, node.expression):
        if (
            type(child) is kind
            and bool(child.args.get("distinct")) == distinct
            and truthy_args(child) <= _LINK
        ):
            leaves.extend(_leaves(child, kind, distinct))
        else:
            leaves.append(child)
    return leaves


def _ordinal_order(node: exp.Expr) -> bool:
    order = node.args.get("order")
    return order is None or all(is_integer_literal(o.this) for o in order.expressions)


def _names_matter(node: exp.Expr) -> bool:
    """Whether anything reads the output column names of ``node`` (conservatively)."""
    parent = node.parent
    if parent is None or isinstance(parent, exp.Exists | exp.In):
        return False
    if isinstance(parent, exp.Subquery) and truthy_args(parent) == {"this"}:
        # A parenthesized query used as a value (scalar, IN, EXISTS).
        return parent.parent is None or isinstance(
            parent.parent, exp.From | exp.Join | exp.SetOperation | exp.Subquery | exp.CTE
        )
    return True
