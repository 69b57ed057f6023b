"""Sort the top-level projections by text (when column order is ignored).

Why this is sound: the comparison this normal form serves ignores column order
(``Options.ignore_column_order``), so a permutation of the output columns is
the same answer. ORDER BY and GROUP BY ordinals are remapped to the new
positions, so they keep naming the same columns. Only a top-level SELECT is
sorted: the branches of a set operation must stay aligned, and the columns of
nested queries are referenced by position or name. A SELECT whose ORDER BY or
GROUP BY uses positions in any other way (DuckDB's ``ORDER BY ALL`` sorts by the
columns from left to right) is left alone.
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._util import contains, is_integer_literal, sql_text

E = TypeVar("E", bound=exp.Expr)


def sort_projections(expression: E, *, ignore_column_order: bool = True) -> E:
    """Sort the projections of a top-level SELECT and remap ordinals.

    Example:
        >>> import sqlglot
        >>> sort_projections(sqlglot.parse_one("SELECT t.b, t.a FROM t ORDER BY 2")).sql()
        'SELECT t.a, t.b FROM t ORDER BY 1'
    """
    if not ignore_column_order or not isinstance(expression, exp.Select):
        return expression
    distinct = expression.args.get("distinct")
    if distinct is not None and distinct.args.get("on"):
        return expression
    projections: list[exp.Expr] = list(expression.expressions)
    order = sorted(range(len(projections)), key=lambda i: sql_text(projections[i]))
    if order == list(range(len(projections))):
        return expression
    new_position = {old + 1: new + 1 for new, old in enumerate(order)}
    clauses = []
    if (group := expression.args.get("group")) is not None:
        clauses.extend(group.expressions)
    if (sort := expression.args.get("order")) is not None:
        clauses.extend(ordered.this for ordered in sort.expressions)
    for item in clauses:
        if is_integer_literal(item):
            if int(item.name) not in new_position:
                return expression  # not an ordinal we understand; leave the query alone
        elif not _position_independent(item):
            return expression
    for item in clauses:
        if is_integer_literal(item):
            item.replace(exp.Literal.number(new_position[int(item.name)]))
    expression.set("expressions", [projections[i] for i in order])
    return expression


def _position_independent(key: exp.Expr) -> bool:
    """Whether a GROUP BY / ORDER BY key names its value without using positions.

    ``ORDER BY ALL`` (DuckDB) sorts by every column from left to right, and
    other bare words or constants may be read positionally by some engine, so
    only keys that read a column (qualified, or an output alias) or compute an
    aggregate or window value are accepted.
    """
    if isinstance(key, exp.Column):
        return bool(key.table) or key.name.lower() != "all"
    return contains(key, exp.Column, exp.AggFunc, exp.Window) and not isinstance(
        key, exp.Var | exp.Literal
    )
