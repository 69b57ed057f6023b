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

from sqlequiv.normalize._util import remap_ordinals, sql_text

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
    if not remap_ordinals(expression, order):
        return expression  # an ordinal we do not understand: leave the query alone
    expression.set("expressions", [projections[i] for i in order])
    return expression
