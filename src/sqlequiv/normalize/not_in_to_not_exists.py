"""``x NOT IN (SELECT y ...)`` as ``NOT EXISTS (... AND y = x)`` where neither is NULL.

``SELECT name FROM continents c WHERE c.id NOT IN (SELECT k.continent FROM countries k
WHERE k.continent IS NOT NULL)`` returns the same rows as ``SELECT name FROM continents
c WHERE NOT EXISTS (SELECT 1 FROM countries k WHERE k.continent = c.id)`` when ``c.id``
cannot be NULL.

Why this is sound: ``x NOT IN S`` is TRUE for an empty ``S``; otherwise FALSE when
some element of ``S`` equals ``x``, else UNKNOWN when ``x`` or an element is NULL,
else TRUE. When ``x`` is a NOT NULL column (or a primary key column) of a table joined
only by inner joins (an outer join pads a row with NULLs whatever the column says),
and every ``y`` is non-NULL (a NOT NULL or primary key column, or the subquery keeps
only ``y IS NOT NULL``), it is never UNKNOWN: it is TRUE exactly when no row of the
subquery has ``y = x``, which is ``NOT EXISTS`` of the subquery filtered by ``y = x``
(a ``y IS NOT NULL`` conjunct is then implied and dropped). Where ``x`` may be NULL but
the NOT IN is a top-level conjunct of a WHERE that also keeps only ``x IS NOT NULL``,
the two differ only on rows that WHERE drops anyway, outer join or not. Both sides are two-valued,
so the rewrite holds in any context. Only a plain single-table subquery (no join,
DISTINCT, GROUP BY, HAVING, ORDER BY or LIMIT) of one bare column is rewritten, when
``x`` and ``y`` have the same declared type (SQLite's IN and ``=`` may convert
differently across types) and the subquery does not bind ``x``'s alias again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._keys import not_null_column, only_table, schema_source
from sqlequiv.normalize._util import (
    and_all,
    conjuncts,
    in_subquery,
    is_not_null_test,
    same_declared_type,
)
from sqlequiv.schema.model import Schema

E = TypeVar("E", bound=exp.Expr)

_PLAIN = frozenset({"expressions", "from_", "where"})


def not_in_to_not_exists(expression: E, *, schema: Schema) -> E:
    """Rewrite NOT IN over a NULL-free subquery as NOT EXISTS.

    Example:
        >>> import sqlglot
        >>> from sqlglot import exp
        >>> from sqlequiv.schema.model import Column, Schema, Table
        >>> i = exp.DataType.build("INT")
        >>> s = Schema((Table("t", (Column("a", i, nullable=False),)),
        ...             Table("u", (Column("b", i, nullable=False),))))
        >>> e = sqlglot.parse_one("SELECT t.a FROM t AS t "
        ...                       "WHERE NOT t.a IN (SELECT u.b FROM u AS u)")
        >>> for c in e.find_all(exp.Column):
        ...     c.type = i
        >>> not_in_to_not_exists(e, schema=s).sql()
        'SELECT t.a FROM t AS t WHERE NOT EXISTS(SELECT u.b FROM u AS u WHERE t.a = u.b)'
    """
    for node in list(expression.find_all(exp.In)):
        negation = node.parent
        while isinstance(negation, exp.Paren):
            negation = negation.parent
        if not isinstance(negation, exp.Not):
            continue
        rewritten = _not_exists(node, schema, _where_tests_not_null(negation))
        if rewritten is not None:
            if negation is expression:
                return rewritten  # type: ignore[return-value]
            negation.replace(rewritten)
    return expression


def _not_exists(
    node: exp.In, schema: Schema, tested: Callable[[exp.Column], bool]
) -> exp.Expr | None:
    parts = in_subquery(node, _PLAIN)
    if parts is None:
        return None
    x, sub = parts
    inner = only_table(sub, schema)
    y = sub.expressions[0].unalias()
    if inner is None or not isinstance(y, exp.Column) or y.table != inner.alias_or_name:
        return None
    if not same_declared_type(x, y):
        return None
    if not tested(x):
        outer = schema_source(node, x.table, schema)
        if outer is None or not not_null_column(outer, x.name):
            return None
    inner_table = schema.table(inner.name)
    rest = conjuncts(sub.args["where"].this) if sub.args.get("where") else []
    guard = [c for c in rest if is_not_null_test(c, y)]
    if not (not_null_column(inner_table, y.name) or guard):
        return None
    kept = [c.copy() for c in rest if not is_not_null_test(c, y)]
    filtered = sub.copy()
    # x on the left, as in the IN: SQLite takes the collation of ``x IN (SELECT y)`` as
    # that of ``x = y``.
    matched = exp.EQ(this=x.copy(), expression=y.copy())
    filtered.set("where", exp.Where(this=and_all([*kept, matched])))
    return exp.Not(this=exp.Exists(this=filtered))


def _where_tests_not_null(negation: exp.Expr) -> Callable[[exp.Column], bool]:
    """Whether a column is tested ``IS NOT NULL`` by another top-level conjunct of the
    WHERE whose top-level conjunct ``negation`` is (never, when it is not one)."""
    node = negation
    while isinstance(node.parent, exp.And | exp.Paren):
        node = node.parent
    where = node.parent
    if not isinstance(where, exp.Where) or where.this is not node:
        return lambda column: False
    others = [c for c in conjuncts(where.this) if c is not negation]
    return lambda column: any(is_not_null_test(c, column) for c in others)
