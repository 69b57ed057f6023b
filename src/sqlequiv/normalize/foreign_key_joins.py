"""A join to a parent table, or an EXISTS of it, that a foreign key makes redundant.

``SELECT c.id, SUM(o.amount) FROM customers c, orders o WHERE c.id = o.customer_id
GROUP BY c.id`` returns the rows of ``SELECT o.customer_id, SUM(o.amount) FROM orders o
GROUP BY o.customer_id`` when ``orders.customer_id`` is a NOT NULL foreign key to
``customers.id``: the two ways text-to-SQL writes "the spending of each customer who
ordered". Likewise ``EXISTS (SELECT 1 FROM customers c WHERE c.id = o.customer_id)``
(what ``in_to_exists`` makes of ``o.customer_id IN (SELECT id FROM customers)``, and
``key_join_to_exists`` of a join read only by its key) is ``o.customer_id IS NOT NULL``.

Why this is sound: the foreign key ``C.f -> P.k`` says that every non-NULL ``C.f`` of a
database equals the ``k`` of some row of ``P``; ``k`` is a key of ``P`` (a foreign key
references a primary or unique key), so it equals that of exactly one row. A row of the
other sources thus meets exactly one row of ``P`` with ``P.k = C.f`` TRUE when ``C.f``
is not NULL, and none when it is: the join keeps each such row once, with ``P.k`` equal
to ``C.f``, which is all the query reads of ``P`` (each other reference to ``P.k`` is
replaced by ``C.f``), and an EXISTS with nothing but that equality is TRUE exactly
then. Only rewritten: a single-column foreign key between columns of one declared type
with no collation (an implicit cast or a collation could make ``=`` hold between values
that are not the same), of a plain schema table named once in the whole query; a join
from a comma list of plain sources (what ``flatten_inner_joins`` makes) with no LIMIT
(which rows it cuts may depend on the join's order) in which ``P`` is read by nothing
but the equality and ``P.k`` (no ``*``); an EXISTS over ``P`` alone with that equality
as its whole WHERE, and nothing else (no GROUP BY, HAVING, aggregate, LIMIT).
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._keys import named_once_table
from sqlequiv.normalize._util import (
    and_all,
    conjuncts,
    from_items,
    is_flat_inner,
    is_inside,
    is_not_null_test,
    remove_source,
    same_declared_type,
    set_where,
    source_alias,
    truthy_args,
)
from sqlequiv.schema.model import Schema
from sqlequiv.values import kind_of

E = TypeVar("E", bound=exp.Expr)


def foreign_key_joins(expression: E, *, schema: Schema) -> E:
    """Drop each join to a parent table, and each EXISTS of one, that a NOT NULL (or
    tested) foreign key makes redundant.

    Example:
        >>> import sqlglot
        >>> from sqlequiv.schema import load_schema
        >>> s = load_schema("CREATE TABLE c (id INT PRIMARY KEY); CREATE TABLE o "
        ...                 "(id INT PRIMARY KEY, cid INT NOT NULL REFERENCES c (id))")
        >>> e = sqlglot.parse_one("SELECT c.id FROM c AS c, o AS o WHERE c.id = o.cid")
        >>> for col in e.find_all(exp.Column):
        ...     col.type = exp.DataType.build("INT")
        >>> foreign_key_joins(e, schema=s).sql()
        'SELECT o.cid FROM o AS o'
    """
    for select in list(expression.find_all(exp.Select)):
        while _drop_join(select, expression, schema):
            pass
    for exists in list(expression.find_all(exp.Exists)):
        _drop_exists(exists, expression, schema)
    for select in list(expression.find_all(exp.Select)):
        _to_parent(select, expression, schema)
    return expression


def _drop_join(select: exp.Select, root: exp.Expr, schema: Schema) -> bool:
    """Drop one parent source of ``select``; whether one was."""
    if not is_flat_inner(select) or select.args.get("where") is None:
        return False
    if any(select.args.get(k) for k in ("limit", "offset", "fetch")):
        return False
    if any(not isinstance(s.parent, exp.Count) for s in select.find_all(exp.Star)):
        return False  # a * reads every source
    sources = {source_alias(s): s for s in from_items(select)}
    if len(sources) < 2 or len(sources) != len(from_items(select)):
        return False
    parts = conjuncts(select.args["where"].this)
    for part in parts:
        found = parent_equality(part, sources, select, root, schema)
        if found is None:
            continue
        parent, key, child_column, nullable = found
        alias = source_alias(parent)
        reads = [c for c in select.find_all(exp.Column) if c.table == alias]
        others = [c for c in reads if not is_inside(c, part)]
        if any(c.name != key.name for c in others):
            continue  # P is read for more than its key
        for column in others:
            column.replace(child_column.copy())
        kept = [p for p in parts if p is not part]
        if nullable:
            kept.append(exp.Not(this=exp.Is(this=child_column.copy(), expression=exp.Null())))
        remove_source(select, parent)
        set_where(select, and_all(kept))
        return True
    return False


def _to_parent(select: exp.Select, root: exp.Expr, schema: Schema) -> None:
    """``SELECT DISTINCT o.f FROM C AS o, ... WHERE w`` (or ``GROUP BY o.f`` with no
    aggregate) as ``SELECT p.k FROM P AS p WHERE EXISTS (SELECT 1 FROM C AS o, ... WHERE
    o.f = p.k AND w)``, for a foreign key ``C.f -> P.k`` and ``o.f`` not NULL (declared,
    or tested by ``w``): the distinct non-NULL values of ``o.f`` over the rows ``w`` keeps
    are the keys of the rows of ``P`` that have such a row, each once (``k`` is a key).
    The parent's form is the one the other ways of writing "the customers who ordered"
    reach (IN, EXISTS, a join)."""
    sources = from_items(select)
    if not sources or not is_flat_inner(select) or len(select.expressions) != 1:
        return
    if truthy_args(select) - {"expressions", "from_", "joins", "where", "distinct", "group"}:
        return  # HAVING, ORDER BY, LIMIT, windows, ...: left alone
    projection = select.expressions[0]
    column = projection.unalias()
    if not isinstance(column, exp.Column) or not column.table:
        return
    distinct = select.args.get("distinct")
    group = select.args.get("group")
    if distinct is not None and (distinct.args.get("on") or group is not None):
        return
    if distinct is None and not (
        group is not None
        and truthy_args(group) == {"expressions"}
        and [g.sql() for g in group.expressions] == [column.sql()]
    ):
        return
    child = next((x for x in sources if source_alias(x) == column.table), None)
    c = named_once_table(child, select, root, schema) if child is not None else None
    if child is None or c is None or column.name not in c.column_names:
        return
    where = select.args.get("where")
    if where is not None and any(isinstance(n, exp.Query) for n in where.walk()):
        # A filter with its own subqueries (DISTINCT ... WHERE NOT EXISTS, what EXCEPT
        # is matched against) keeps its shape: the prover pairs those as they are.
        return
    tested = where is not None and any(
        is_not_null_test(part, column) for part in conjuncts(where.this)
    )
    if c.column(column.name).nullable and not tested:
        return
    if c.column(column.name).collation:
        return
    for fk in c.foreign_keys:
        if fk.columns != (column.name,) or fk.ref_table not in schema:
            continue
        p = schema.table(fk.ref_table)
        key = fk.ref_columns[0]
        if not p.keyed_by([key]) or p.column(key).collation:
            continue
        if kind_of(p.column(key).type) != kind_of(c.column(column.name).type):
            continue
        if p.column(key).type.sql() != c.column(column.name).type.sql():
            continue
        alias = p.name
        if any(q.alias_or_name == alias for q in root.find_all(exp.Table, exp.Subquery)):
            return  # the parent's name is taken: no fresh alias without renaming
        key_column = exp.column(key, table=alias)
        key_column.type = column.type
        inner = exp.Select(expressions=[exp.Literal.number(1)])
        inner.set("from_", select.args["from_"].copy())
        if select.args.get("joins"):
            inner.set("joins", [j.copy() for j in select.args["joins"]])
        equality = exp.EQ(this=column.copy(), expression=key_column.copy())
        # The NULL test goes: the equality is TRUE only for a value that is not NULL.
        kept = [c for c in (conjuncts(where.this) if where is not None else [])
                if not is_not_null_test(c, column)]  # fmt: skip
        inner.set("where", exp.Where(this=and_all([equality, *kept])))
        parent_source = exp.Table(
            this=exp.to_identifier(p.name), alias=exp.TableAlias(this=exp.to_identifier(alias))
        )
        select.set("distinct", None)
        select.set("group", None)
        select.set("joins", None)
        select.set("from_", exp.From(this=parent_source))
        select.set("where", exp.Where(this=exp.Exists(this=inner)))
        replacement = key_column.copy()
        if isinstance(projection, exp.Alias):
            projection.set("this", replacement)
        else:
            projection.replace(exp.alias_(replacement, column.name))
        return


def _drop_exists(exists: exp.Exists, root: exp.Expr, schema: Schema) -> None:
    """``EXISTS (SELECT ... FROM P WHERE P.k = C.f)`` as ``C.f IS NOT NULL``."""
    sub = exists.this
    if not isinstance(sub, exp.Select) or truthy_args(sub) - {"expressions", "from_", "where"}:
        return
    if any(isinstance(n, exp.AggFunc | exp.Window) for p in sub.expressions for n in p.walk()):
        return  # SELECT COUNT(*) has a row whatever the WHERE keeps
    if sub.args.get("joins") or sub.args.get("where") is None:
        return
    parent = sub.args["from_"].this
    enclosing = exists.parent_select
    if enclosing is None:
        return
    sources = {source_alias(s): s for s in from_items(enclosing)}
    sources.setdefault(source_alias(parent), parent)
    found = parent_equality(sub.args["where"].this, sources, sub, root, schema,
                             parent_only=parent)  # fmt: skip
    if found is None:
        return
    _, _, child_column, _ = found
    exists.replace(exp.Not(this=exp.Is(this=child_column.copy(), expression=exp.Null())))


def parent_equality(
    condition: exp.Expr,
    sources: dict[str, exp.Expr],
    select: exp.Select,
    root: exp.Expr,
    schema: Schema,
    *,
    parent_only: exp.Expr | None = None,
) -> tuple[exp.Table, exp.Column, exp.Column, bool] | None:
    """``(P, P.k, C.f, C.f nullable)`` when ``condition`` is ``P.k = C.f`` (either way
    round) for a declared single-column foreign key ``C.f -> P.k`` (see the module
    docstring for the other conditions); else None."""
    if not isinstance(condition, exp.EQ):
        return None
    sides = (condition.this, condition.expression)
    if not all(isinstance(s, exp.Column) and s.table for s in sides):
        return None
    for key, other in (sides, sides[::-1]):
        parent = sources.get(key.table)
        child = sources.get(other.table)
        if parent is None or child is None or parent is child:
            continue
        if parent_only is not None and parent is not parent_only:
            continue
        p = named_once_table(parent, select, root, schema)
        c = named_once_table(child, select, root, schema)
        if p is None or c is None:
            continue
        if not same_declared_type(key, other):
            continue
        if key.name not in p.column_names or other.name not in c.column_names:
            continue
        if p.column(key.name).collation or c.column(other.name).collation:
            continue
        link = ((other.name,), p.name, (key.name,))
        declared = any((fk.columns, fk.ref_table, fk.ref_columns) == link for fk in c.foreign_keys)
        if declared and p.keyed_by([key.name]):
            assert isinstance(parent, exp.Table)
            return parent, key, other, c.column(other.name).nullable
    return None
