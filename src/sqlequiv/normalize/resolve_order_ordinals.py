"""Write ORDER BY keys that name an output column as ordinals.

``SELECT t.a AS x FROM t ORDER BY x`` and ``... ORDER BY t.a`` both become
``... ORDER BY 1``.

Why this is sound: after qualification an unqualified ORDER BY column is a
reference to an output alias, i.e. to the value of that projection, which is
what the ordinal denotes. A key that is textually the same expression as a
projection has the same value on every row when it is deterministic (no
volatile function, window or subquery), so it may also become that ordinal.
Ordinals survive the dropping of output aliases and the sorting of top-level
columns (which remaps them). Of projections that are the same deterministic
expression, an ordinal names the first (they have one value on every row), and a
name several of them share names that value. ASC/DESC and NULLS FIRST/LAST are kept. Only the
ORDER BY of a SELECT or set operation is touched, never one inside a window
or an aggregate.
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._util import (
    is_deterministic,
    output_names,
    sql_text,
)

E = TypeVar("E", bound=exp.Expr)


def resolve_order_ordinals(expression: E) -> E:
    """Replace ORDER BY alias references and repeated projections by ordinals.

    Example:
        >>> import sqlglot
        >>> sql = "SELECT t.a AS x, t.b AS y FROM t AS t ORDER BY y DESC, t.a"
        >>> resolve_order_ordinals(sqlglot.parse_one(sql)).sql()
        'SELECT t.a AS x, t.b AS y FROM t AS t ORDER BY 2 DESC, 1'
    """
    for query in list(expression.find_all(exp.Select, exp.SetOperation)):
        order = query.args.get("order")
        if not isinstance(order, exp.Order):
            continue
        names = output_names(query)
        if names is None:
            continue
        texts: list[str | None] = []
        if isinstance(query, exp.Select):
            texts = [
                sql_text(p.unalias()) if is_deterministic(p.unalias()) else None
                for p in query.expressions
            ]
        for ordered in order.expressions:
            key = ordered.this
            position = _position(key, names, texts)
            if position is not None and texts and texts[position] is not None:
                position = texts.index(texts[position])  # the first of equal projections
            if position is not None:
                ordered.set("this", exp.Literal.number(position + 1))
    return expression


def _position(key: exp.Expr, names: list[str], texts: list[str | None]) -> int | None:
    if isinstance(key, exp.Literal) and key.is_int and not key.is_string:
        position = int(key.name) - 1
        return position if 0 <= position < len(names) else None
    if isinstance(key, exp.Column) and not key.table:
        if names.count(key.name) == 1:
            return names.index(key.name)
        same = {texts[i] for i, n in enumerate(names) if n == key.name} if texts else {None}
        if len(same) == 1 and None not in same:  # one name for copies of one expression
            return names.index(key.name)
        return None
    if isinstance(key, exp.Column | exp.Func | exp.Binary | exp.Unary) and is_deterministic(key):
        text = sql_text(key)
        if text in texts:
            return texts.index(text)
    return None
