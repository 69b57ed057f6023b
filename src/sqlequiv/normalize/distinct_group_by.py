"""Relate DISTINCT and GROUP BY.

Two rewrites, each applied to every SELECT:

1. ``SELECT DISTINCT ... GROUP BY k1, ..., kn`` loses its DISTINCT when every
   key ``ki`` is also a projection: each output row then carries its group's
   key values, so no two rows are equal and DISTINCT removes nothing.
2. ``SELECT e1, ..., em ... GROUP BY k1, ..., kn`` without aggregates, HAVING
   or windows, where ``{e1..em}`` and ``{k1..kn}`` are the same set of
   expressions, becomes ``SELECT DISTINCT e1, ..., em``: one row per distinct
   key tuple, and the projections determine the keys and vice versa.

Why this is sound: GROUP BY and DISTINCT use the same notion of "not
distinct" (NULLs together). Keys must be deterministic, and keys of a
floating-point type are excluded so that no question of -0.0 versus 0.0 or NaN
equality can arise between the two operators.
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._util import (
    FLOAT_TYPES,
    contains,
    is_deterministic,
    is_integer_literal,
    sql_text,
    truthy_args,
)

E = TypeVar("E", bound=exp.Expr)



def distinct_group_by(expression: E) -> E:
    """Drop redundant DISTINCT and turn aggregate-free GROUP BY into DISTINCT.

    Example:
        >>> import sqlglot
        >>> from sqlglot.optimizer.annotate_types import annotate_types
        >>> e = sqlglot.parse_one("SELECT t.a, t.b FROM t AS t GROUP BY t.b, t.a")
        >>> e = annotate_types(e, schema={"t": {"a": "INT", "b": "INT"}})
        >>> distinct_group_by(e).sql()
        'SELECT DISTINCT t.a, t.b FROM t AS t'
    """
    for select in list(expression.find_all(exp.Select)):
        group = select.args.get("group")
        if group is None or truthy_args(group) != {"expressions"}:
            continue
        keys: list[exp.Expr] = list(group.expressions)
        if not keys or not all(_plain_key(key) for key in keys):
            continue
        projections = [p.unalias() for p in select.expressions]
        key_texts = {sql_text(key) for key in keys}
        projection_texts = {sql_text(p) for p in projections}
        distinct = select.args.get("distinct")
        if distinct is not None:
            if truthy_args(distinct) == set() and key_texts <= projection_texts:
                select.set("distinct", None)
            continue
        if key_texts != projection_texts or _aggregates(select):
            continue
        order = select.args.get("order")
        if order is not None and not all(is_integer_literal(o.this) for o in order.expressions):
            continue  # under DISTINCT, ORDER BY may only use the projections
        select.set("group", None)
        select.set("distinct", exp.Distinct())
    return expression


def _plain_key(key: exp.Expr) -> bool:
    if is_integer_literal(key) or not is_deterministic(key):
        return False
    return key.type is not None and key.type.this not in FLOAT_TYPES and not key.is_type("unknown")


def _aggregates(select: exp.Select) -> bool:
    if truthy_args(select) & {"having", "qualify", "windows"}:
        return True
    return any(contains(p, exp.AggFunc, exp.Window) for p in select.expressions)
