"""An inner join to a table on its key, read only by the WHERE, as an EXISTS.

``SELECT o.id FROM orders o, customers c WHERE c.id = o.customer_id AND c.plan = 'pro'``
returns the rows of ``SELECT o.id FROM orders o WHERE EXISTS (SELECT 1 FROM customers c
WHERE c.id = o.customer_id AND c.plan = 'pro')``: the two ways text-to-SQL answers
write "the orders of pro customers" (the second is also what ``in_to_exists`` makes of
``o.customer_id IN (SELECT id FROM customers WHERE plan = 'pro')``).

Why this is sound: ``c.id`` is a key of ``customers`` (a primary key, or a UNIQUE
column: its NULLs never equal anything), so a row of the other sources meets at most
one row of ``c`` with ``c.id = o.customer_id`` TRUE, and keeps it exactly when the
conditions on ``c`` hold for it. Every such row of the join is therefore one row of the
other sources, once, and since nothing outside those conditions reads ``c`` (no output
column, grouping, ordering or other condition; no ``*``), the join's rows are the rows of
the other sources for which such a ``c`` row EXISTS. The conditions that read ``c``
move into the EXISTS whole; the others stay. Only a comma list of plain sources (what
``flatten_inner_joins`` makes) is rewritten, when the key and the column it is equated
with have the same declared type (an implicit cast could make two keys equal one
value), the conditions that move are deterministic, and no other source or subquery
is named like ``c``.
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._keys import schema_table
from sqlequiv.normalize._util import (
    and_all,
    conjuncts,
    from_items,
    is_deterministic,
    is_flat_inner,
    is_inside,
    remove_source,
    same_declared_type,
    set_where,
    source_alias,
)
from sqlequiv.schema.model import Schema

E = TypeVar("E", bound=exp.Expr)


def key_join_to_exists(expression: E, *, schema: Schema) -> E:
    """Rewrite each source joined on its key and read only by WHERE conjuncts as an EXISTS.

    Example:
        >>> import sqlglot
        >>> from sqlglot import exp
        >>> from sqlequiv.schema.model import Column, Schema, Table
        >>> i = exp.DataType.build("INT")
        >>> c = Table("c", (Column("id", i, nullable=False), Column("p", i)),
        ...           primary_key=("id",))
        >>> o = Table("o", (Column("id", i), Column("cid", i)))
        >>> e = sqlglot.parse_one("SELECT o.id FROM o AS o, c AS c "
        ...                       "WHERE c.id = o.cid AND c.p = 1")
        >>> for col in e.find_all(exp.Column):
        ...     col.type = i
        >>> key_join_to_exists(e, schema=Schema((c, o))).sql()
        'SELECT o.id FROM o AS o WHERE EXISTS(SELECT 1 FROM c AS c WHERE c.id = o.cid AND c.p = 1)'
    """
    for select in list(expression.find_all(exp.Select)):
        while _semi_join(select, schema):
            pass
    return expression


def _semi_join(select: exp.Select, schema: Schema) -> bool:
    """Turn one source of ``select`` into an EXISTS; whether one was."""
    if not is_flat_inner(select):
        return False
    where = select.args.get("where")
    sources = from_items(select)
    if where is None or len(sources) < 2:
        return False
    if any(not isinstance(s.parent, exp.Count) for s in select.find_all(exp.Star)):
        return False  # a * reads every source
    if any(select.args.get(k) for k in ("limit", "offset", "fetch")):
        return False  # which rows are cut may depend on the join's row order
    aliases = [source_alias(s) for s in sources]
    # The sources that are tables of the schema, by the one name each is read by.
    tables: dict[str, exp.Table] = {}
    for s in sources:
        if not isinstance(s, exp.Table) or schema_table(s, select, schema) is None:
            continue
        if aliases.count(source_alias(s)) == 1:
            tables[source_alias(s)] = s
    parts = conjuncts(where.this)
    # By table name, not FROM order: which of two candidate tables becomes the EXISTS must
    # not depend on how a query happens to order its FROM (a join reordering).
    for a, source in sorted(tables.items(), key=lambda item: item[1].name.lower()):
        if sum(1 for q in select.find_all(exp.Table, exp.Subquery) if q.alias_or_name == a) != 1:
            continue  # another scope binds the name too: a column a.x might be its
        moved = [p for p in parts if any(c.table == a for c in p.find_all(exp.Column))]
        if not any(_key_equality(p, a, tables, schema) for p in moved):
            continue
        if not all(is_deterministic(p) for p in moved):
            continue
        if any(
            c.table == a and not any(c is p or is_inside(c, p) for p in moved)
            for c in select.find_all(exp.Column)
        ):
            continue  # read outside the conditions that move
        _rewrite(select, source, moved, [p for p in parts if not any(p is m for m in moved)])
        return True
    return False


def _key_equality(
    condition: exp.Expr, a: str, tables: dict[str, exp.Table], schema: Schema
) -> bool:
    """Whether ``condition`` is ``a.k = b.x`` (either way round) with ``k`` a key of
    ``a``'s table, ``b`` another table of ``tables``, both of one declared type and
    neither under a collation (SQLite's ``=`` takes one operand's collation, and a key
    unique under one collation may not be under another)."""
    if not isinstance(condition, exp.EQ):
        return False
    sides = (condition.this, condition.expression)
    if not all(isinstance(s, exp.Column) for s in sides):
        return False
    for key, other in (sides, sides[::-1]):
        if key.table != a or other.table == a or other.table not in tables:
            continue
        if not same_declared_type(key, other):
            continue
        mine = schema.table(tables[a].name)
        theirs = schema.table(tables[other.table].name)
        columns = ((mine, key.name), (theirs, other.name))
        if any(name not in table.column_names for table, name in columns):
            continue
        if any(table.column(name).collation for table, name in columns):
            continue
        if mine.keyed_by([key.name]):
            return True
    return False


def _rewrite(
    select: exp.Select, source: exp.Expr, moved: list[exp.Expr], kept: list[exp.Expr]
) -> None:
    """Drop ``source`` from ``select``'s FROM and filter by EXISTS of it with ``moved``.

    The conditions move as they are, not copied: the subqueries in them are still
    the ones :func:`key_join_to_exists` has yet to visit."""
    condition = and_all(moved)
    sub = exp.Select(expressions=[exp.Literal.number(1)])
    sub.set("from_", exp.From(this=source.copy()))
    sub.set("where", exp.Where(this=condition))
    remove_source(select, source)
    set_where(select, and_all([*kept, exp.Exists(this=sub)]))
