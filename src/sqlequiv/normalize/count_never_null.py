"""``COUNT(...) IS NULL`` is FALSE, also through a derived table's column.

Calcite tests ``w_count IS NULL`` on ``COUNT(empno) OVER (...) AS w_count`` and
prunes the query to an empty one; :mod:`.empty_relations` then reads the FALSE.

Why this is sound: COUNT, as an aggregate or as a window, counts rows and is 0
over none: it is never NULL. A column of a derived table that projects a COUNT
is never NULL either, provided the derived table is not on the padded side of
an outer join: only inner joins (or none) may join the SELECT's sources.
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._util import from_items, own_nodes, truthy_args

E = TypeVar("E", bound=exp.Expr)


def count_never_null(expression: E) -> E:
    """Replace ``x IS NULL`` by FALSE where ``x`` is a COUNT.

    Example:
        >>> import sqlglot
        >>> e = sqlglot.parse_one(
        ...     "SELECT t.n FROM (SELECT COUNT(*) OVER () AS n FROM a AS a) AS t WHERE t.n IS NULL")
        >>> count_never_null(e).sql()
        'SELECT t.n FROM (SELECT COUNT(*) OVER () AS n FROM a AS a) AS t WHERE FALSE'
    """
    for select in list(expression.find_all(exp.Select)):
        for test in own_nodes(select, exp.Is):
            if isinstance(test.expression, exp.Null) and _a_count(test.this, select):
                test.replace(exp.false())
    return expression


def _a_count(node: exp.Expr, select: exp.Select) -> bool:
    if isinstance(node, exp.Window):
        node = node.this
    if isinstance(node, exp.Count):
        return True
    if not isinstance(node, exp.Column) or not node.table:
        return False
    if any((j.args.get("side") or "") for j in select.args.get("joins") or []):
        return False
    for source in from_items(select):
        if not isinstance(source, exp.Subquery) or source.alias != node.table:
            continue
        inner = source.this
        if not isinstance(inner, exp.Select) or truthy_args(source) != {"this", "alias"}:
            return False
        named = [p.unalias() for p in inner.expressions if p.alias_or_name == node.name]
        if len(named) != 1:
            return False
        defined = named[0].this if isinstance(named[0], exp.Window) else named[0]
        return isinstance(defined, exp.Count)
    return False
