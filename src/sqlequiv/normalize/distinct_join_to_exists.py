"""An inner join to a grouped derived table on all its columns, read only there, as EXISTS.

Calcite decorrelates ``t.deptno IN (SELECT deptno FROM emp WHERE sal + 1 = t.salplus)``
into a join to ``(SELECT deptno, sal + 1 AS f FROM emp GROUP BY deptno, sal + 1) AS g``
on ``t.salplus = g.f AND t.deptno = g.deptno``. This rule writes the join back as
``EXISTS (SELECT 1 FROM emp WHERE t.salplus = emp.sal + 1 AND t.deptno = emp.deptno)``,
which is what :mod:`.in_to_exists` makes of the IN.

Why this is sound: the derived table ``g`` groups by exactly the expressions it
projects, so its rows are distinct; the WHERE equates every column of ``g`` (with ``=``)
with an expression that does not read ``g``, so a row of
the other sources meets at most one row of ``g`` (a NULL meets none; the two operands
are of one type, or of one family whose conversions are injective: exact numbers,
strings, dates and timestamps). The join keeps
that row once exactly when some row of ``g`` satisfies the conditions that read ``g``,
which is when some row of ``g``'s own FROM does, those conditions reading each key's
expression in place of its column: grouping does not change what exists. ``g`` must be
read nowhere else (no output, no other condition, no ``*``), its GROUP BY keys
deterministic, and no source of its FROM named like a source the moved conditions read.
Only a comma list of plain sources (what ``flatten_inner_joins`` makes) is rewritten.
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._util import (
    and_all,
    conjuncts,
    from_items,
    is_deterministic,
    is_flat_inner,
    is_inside,
    plain_group,
    remove_source,
    same_declared_type,
    same_exact_family,
    set_where,
    sql_text,
    truthy_args,
)

E = TypeVar("E", bound=exp.Expr)


def distinct_join_to_exists(expression: E) -> E:
    """Rewrite each grouped derived table joined on all its columns as an EXISTS.

    Example:
        >>> import sqlglot
        >>> from sqlglot import exp
        >>> e = sqlglot.parse_one("SELECT t.a FROM t AS t, (SELECT u.b AS b FROM u AS u "
        ...                       "GROUP BY u.b) AS g WHERE g.b = t.a")
        >>> for col in e.find_all(exp.Column):
        ...     col.type = exp.DataType.build("INT")
        >>> distinct_join_to_exists(e).sql()
        'SELECT t.a FROM t AS t WHERE EXISTS(SELECT 1 FROM u AS u WHERE u.b = t.a)'
    """
    for select in list(expression.find_all(exp.Select)):
        while _semi_join(select):
            pass
    return expression


def _semi_join(select: exp.Select) -> bool:
    if not is_flat_inner(select) or truthy_args(select) & {"limit", "offset", "fetch"}:
        return False
    where = select.args.get("where")
    sources = from_items(select)
    if where is None or len(sources) < 2:
        return False
    if any(not isinstance(s.parent, exp.Count) for s in select.find_all(exp.Star)):
        return False
    parts = conjuncts(where.this)
    for source in sources:
        keys = _distinct_columns(source)
        if keys is None:
            continue
        alias = source.alias
        moved = [p for p in parts if any(c.table == alias for c in p.find_all(exp.Column))]
        if not moved or not all(is_deterministic(p) for p in moved):
            continue
        readers = [c for c in select.find_all(exp.Column) if c.table == alias]
        if any(not any(is_inside(c, p) or c is p for p in moved) for c in readers):
            continue  # read outside the conditions that move (or by a nested query)
        if {name for p in moved if (name := _pinned(p, alias, keys)) is not None} != set(keys):
            continue
        body = source.this
        inner_names = {s.alias_or_name for s in body.find_all(exp.Table, exp.Subquery)}
        outer_names = {c.table for p in moved for c in p.find_all(exp.Column)} - {alias}
        if inner_names & outer_names:
            continue
        _rewrite(select, source, keys, moved, [p for p in parts if not any(p is m for m in moved)])
        return True
    return False


def _distinct_columns(source: exp.Expr) -> dict[str, exp.Expr] | None:
    """The key expression of each column of a derived table that groups by exactly what
    it projects (no aggregate, HAVING, DISTINCT, window, ORDER BY or LIMIT)."""
    if not isinstance(source, exp.Subquery) or truthy_args(source) != {"this", "alias"}:
        return None
    body = source.this
    if not isinstance(body, exp.Select) or truthy_args(body) - {
        "expressions",
        "from_",
        "joins",
        "where",
        "group",
    }:
        return None
    keys = plain_group(body)
    if keys is None or not all(is_deterministic(k) for k in keys):
        return None
    texts = {sql_text(k) for k in keys}
    columns: dict[str, exp.Expr] = {}
    for projection in body.expressions:
        name, value = projection.alias_or_name, projection.unalias()
        if not name or name in columns or sql_text(value) not in texts:
            return None
        columns[name] = value
    if {sql_text(v) for v in columns.values()} != texts:
        return None
    return columns


def _pinned(condition: exp.Expr, alias: str, keys: dict[str, exp.Expr]) -> str | None:
    """The column of the derived table a conjunct ``g.c = e`` pins (``e`` not reading it)."""
    if not isinstance(condition, exp.EQ):
        return None
    for mine, other in ((condition.this, condition.expression),
                        (condition.expression, condition.this)):  # fmt: skip
        if not isinstance(mine, exp.Column) or mine.table != alias or mine.name not in keys:
            continue
        if any(c.table == alias for c in other.find_all(exp.Column)):
            continue
        value = other.unnest()  # a Paren carries no type of its own
        if same_declared_type(mine, value) or same_exact_family(mine, value):
            return mine.name
    return None


def _rewrite(
    select: exp.Select,
    source: exp.Expr,
    keys: dict[str, exp.Expr],
    moved: list[exp.Expr],
    kept: list[exp.Expr],
) -> None:
    alias = source.alias
    body = source.this.copy()
    conditions = [p.copy() for p in moved]
    for condition in conditions:
        for column in list(condition.find_all(exp.Column)):
            if column.table == alias:
                replacement = keys[column.name].copy()
                column.replace(
                    replacement if isinstance(replacement, exp.Column)
                    else exp.Paren(this=replacement)
                )  # fmt: skip
    where = body.args.get("where")
    body.set("group", None)
    body.set("expressions", [exp.Literal.number(1)])
    body.set("where", exp.Where(this=and_all([where.this if where else None, *conditions])))
    remove_source(select, source)
    set_where(select, and_all([*kept, exp.Exists(this=body)]))
