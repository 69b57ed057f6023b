"""Drop the ORDER BY keys that the WHERE fixes to a constant.

``SELECT deptno, sal, COUNT(*) FROM emp WHERE deptno = 10 GROUP BY deptno, sal ORDER BY
deptno, sal DESC`` sorts as ``... ORDER BY sal DESC``: every row has ``deptno = 10``.

Why this is sound: a top-level conjunct ``x = c`` of the WHERE (``x`` a column, ``c`` a
number or string literal) keeps only rows on which ``x`` equals ``c``, so any two rows
the ORDER BY sees compare equal on ``x`` (as the sort compares them), and a key on
which all rows tie decides nothing. The key must be that column, or an output name of
it. The last key of an ORDER BY under a LIMIT or OFFSET is kept, so that the query
keeps its shape (the rows it cuts are a choice among ties either way).
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._util import conjuncts, sql_text, truthy_args

E = TypeVar("E", bound=exp.Expr)


def constant_order_keys(expression: E) -> E:
    """Remove ORDER BY keys fixed by an equality to a literal in the WHERE.

    Example:
        >>> import sqlglot
        >>> e = sqlglot.parse_one("SELECT t.a, t.b FROM t AS t WHERE t.a = 1 ORDER BY t.a, t.b")
        >>> constant_order_keys(e).sql()
        'SELECT t.a, t.b FROM t AS t WHERE t.a = 1 ORDER BY t.b'
    """
    for select in list(expression.find_all(exp.Select)):
        order, where = select.args.get("order"), select.args.get("where")
        if not isinstance(order, exp.Order) or where is None:
            continue
        fixed = {sql_text(column) for column in _fixed_columns(where.this)}
        if not fixed:
            continue
        named = {p.alias: p.unalias() for p in select.expressions if isinstance(p, exp.Alias)}
        kept = []
        for ordered in order.expressions:
            key = ordered.this
            if isinstance(key, exp.Column) and not key.table and key.name in named:
                key = named[key.name]
            if not (isinstance(key, exp.Column) and key.table and sql_text(key) in fixed):
                kept.append(ordered)
        if len(kept) == len(order.expressions):
            continue
        if not kept and truthy_args(select) & {"limit", "offset", "fetch"}:
            kept = order.expressions[-1:]
        if kept:
            order.set("expressions", kept)
        else:
            select.set("order", None)
    return expression


def _fixed_columns(condition: exp.Expr) -> list[exp.Column]:
    found = []
    for part in conjuncts(condition):
        if not isinstance(part, exp.EQ):
            continue
        for column, value in ((part.this, part.expression), (part.expression, part.this)):
            if isinstance(column, exp.Column) and column.table and isinstance(value, exp.Literal):
                found.append(column)
    return found
