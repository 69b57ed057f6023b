"""A DISTINCT over a join that projects one table's key as that table with an EXISTS.

``SELECT DISTINCT c.id, c.name FROM customers c, orders o WHERE o.customer_id = c.id AND
o.amount > 100`` returns the rows of ``SELECT c.id, c.name FROM customers c WHERE EXISTS
(SELECT 1 FROM orders o WHERE o.customer_id = c.id AND o.amount > 100)``: "the customers
with a big order" written with a join and DISTINCT, and with IN or EXISTS.

Why this is sound: the DISTINCT keeps one row per distinct projected tuple of the join's
rows that the WHERE keeps. Every projected value reads only ``c``, and the projection
holds a key of ``c`` whose columns are declared NOT NULL, so two rows of ``c`` never
give one tuple: the result is one row per row of ``c`` that some combination of the
other sources' rows joins with (every conjunct TRUE), which is exactly what the EXISTS
keeps (its conjuncts are those that read the other sources; the ones that read only
``c`` stay outside). Only rewritten: a plain DISTINCT (or a GROUP BY of exactly the
projections, with no aggregate), a comma list of plain sources (what
``flatten_inner_joins`` makes) with no HAVING, ORDER BY, LIMIT or window, deterministic
conditions and projections, and ``c`` a table of the schema named once in the query.
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._keys import named_once_table
from sqlequiv.normalize._util import (
    and_all,
    conjuncts,
    from_items,
    is_deterministic,
    is_flat_inner,
    set_where,
    source_alias,
    truthy_args,
)
from sqlequiv.policy import is_volatile
from sqlequiv.schema.model import Schema

E = TypeVar("E", bound=exp.Expr)


def distinct_key_semijoin(expression: E, *, schema: Schema) -> E:
    """Rewrite each DISTINCT join that projects a NOT NULL key of one table.

    Example:
        >>> import sqlglot
        >>> from sqlequiv.schema import load_schema
        >>> s = load_schema("CREATE TABLE c (id INT PRIMARY KEY, n TEXT); "
        ...                 "CREATE TABLE o (id INT PRIMARY KEY, cid INT)")
        >>> e = sqlglot.parse_one("SELECT DISTINCT c.id, c.n FROM c AS c, o AS o "
        ...                       "WHERE o.cid = c.id")
        >>> distinct_key_semijoin(e, schema=s).sql()
        'SELECT c.id, c.n FROM c AS c WHERE EXISTS(SELECT 1 FROM o AS o WHERE o.cid = c.id)'
    """
    for select in list(expression.find_all(exp.Select)):
        _rewrite(select, expression, schema)
    return expression


def _rewrite(select: exp.Select, root: exp.Expr, schema: Schema) -> None:
    if not is_flat_inner(select) or len(from_items(select)) < 2:
        return
    if truthy_args(select) - {"expressions", "from_", "joins", "where", "distinct", "group"}:
        return
    distinct = select.args.get("distinct")
    group = select.args.get("group")
    projections = [p.unalias() for p in select.expressions]
    if distinct is not None:
        if truthy_args(distinct) or group is not None:
            return
    elif group is None or truthy_args(group) != {"expressions"} or sorted(
        g.sql() for g in group.expressions
    ) != sorted(p.sql() for p in projections):
        return
    if any(isinstance(n, exp.AggFunc | exp.Window | exp.Star) for p in projections
           for n in p.walk()):  # fmt: skip
        return
    if not all(is_deterministic(p) for p in projections):
        return
    read = {c.table for p in projections for c in p.find_all(exp.Column)}
    if len(read) != 1 or "" in read:
        return
    alias = next(iter(read))
    sources = from_items(select)
    kept_source = next((s for s in sources if source_alias(s) == alias), None)
    table = named_once_table(kept_source, select, root, schema) if kept_source else None
    if kept_source is None or table is None:
        return
    projected = {p.name for p in projections if isinstance(p, exp.Column)}
    if not any(
        set(key) <= projected and all(not table.column(k).nullable for k in key)
        for key in table.distinct_keys
    ):
        return
    where = select.args.get("where")
    parts = conjuncts(where.this) if where is not None else []
    if not all(_stable(p) for p in parts):
        return
    others = [s for s in sources if s is not kept_source]
    other_names = {source_alias(s) for s in others}
    moved = [p for p in parts if {c.table for c in p.find_all(exp.Column)} & other_names]
    kept = [p for p in parts if not any(p is m for m in moved)]
    inner = exp.Select(expressions=[exp.Literal.number(1)])
    inner.set("from_", exp.From(this=others[0].copy()))
    if len(others) > 1:
        inner.set("joins", [exp.Join(this=s.copy()) for s in others[1:]])
    if moved:
        inner.set("where", exp.Where(this=and_all([m.copy() for m in moved])))
    select.set("distinct", None)
    select.set("group", None)
    select.set("joins", None)
    select.set("from_", exp.From(this=kept_source.copy()))
    set_where(select, and_all([*kept, exp.Exists(this=inner)]))


def _stable(condition: exp.Expr) -> bool:
    """A condition whose value on a row is one: no volatile function, window, or subquery
    that cuts rows with LIMIT or OFFSET (an EXISTS or IN subquery is a plain set test)."""
    if is_volatile(condition):
        return False
    return not any(
        isinstance(n, exp.Window)
        or (isinstance(n, exp.Select) and any(n.args.get(k) for k in ("limit", "offset", "fetch")))
        for n in condition.walk()
    )
