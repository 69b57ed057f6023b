"""The count of the parents that have a matching child, over the children's foreign key.

``SELECT COUNT(*) FROM customers c WHERE EXISTS (SELECT 1 FROM orders o WHERE
o.customer_id = c.id AND o.status = 'paid')`` is ``SELECT COUNT(DISTINCT o.customer_id)
FROM orders o WHERE o.status = 'paid'`` when ``orders.customer_id`` is a foreign key to
``customers.id``. "How many customers have a paid order" is written both ways (a join
with COUNT(DISTINCT c.id) becomes the second once ``foreign_key_joins`` drops the
parent). The list of those parents' keys is left to the rules that write DISTINCT
child keys as the parents with an EXISTS (the other way round, which this rule would
undo).

Why this is sound: the query reads one parent table ``P`` and keeps the rows of ``P``
for which some row of the child ``C`` has ``C.f = P.k`` and passes the rest of the
EXISTS's WHERE (which reads nothing of ``P``). ``k`` is a key of ``P``, so the rows kept
are as many as their distinct ``k`` values, which are the values of ``C.f`` over the
children that pass (``=`` holds only between non-NULL values of one declared type,
without collation), each present in ``P`` by the foreign key ``C.f -> P.k``. So the
count of the parents is ``COUNT(DISTINCT C.f)`` over those children (NULLs not
counted). Only a SELECT whose whole WHERE is that EXISTS, whose output is one
``COUNT(*)``, ``COUNT(P.k)`` or ``COUNT(DISTINCT P.k)``, with no
GROUP BY, HAVING, ORDER BY or LIMIT, over ``P`` alone, and an EXISTS over ``C`` alone
without aggregate (``SELECT COUNT(*)`` has a row whatever its WHERE keeps).
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._util import and_all, conjuncts, is_inside, source_alias, truthy_args
from sqlequiv.normalize.foreign_key_joins import parent_equality
from sqlequiv.schema.model import Schema

E = TypeVar("E", bound=exp.Expr)


def parent_key_semijoins(expression: E, *, schema: Schema) -> E:
    """Write a count of the parents that have a matching child over the children.

    Example:
        >>> import sqlglot
        >>> from sqlequiv.schema import load_schema
        >>> s = load_schema("CREATE TABLE c (id INT PRIMARY KEY); CREATE TABLE o "
        ...                 "(id INT, cid INT REFERENCES c (id), v INT)")
        >>> e = sqlglot.parse_one("SELECT COUNT(*) FROM c AS c WHERE EXISTS "
        ...                       "(SELECT 1 FROM o AS o WHERE o.cid = c.id AND o.v > 1)")
        >>> for col in e.find_all(exp.Column):
        ...     col.type = exp.DataType.build("INT")
        >>> parent_key_semijoins(e, schema=s).sql()
        'SELECT COUNT(DISTINCT o.cid) FROM o AS o WHERE o.v > 1'
    """
    for select in list(expression.find_all(exp.Select)):
        _rewrite(select, expression, schema)
    return expression


def _rewrite(select: exp.Select, root: exp.Expr, schema: Schema) -> None:
    if truthy_args(select) - {"expressions", "from_", "where", "distinct"}:
        return
    distinct = select.args.get("distinct")
    where = select.args.get("where")
    if (distinct is not None and distinct.args.get("on")) or where is None:
        return
    exists, parent = where.this, select.args["from_"].this
    if not isinstance(exists, exp.Exists) or not isinstance(parent, exp.Table):
        return
    sub = exists.this
    if not isinstance(sub, exp.Select) or truthy_args(sub) - {"expressions", "from_", "where"}:
        return
    if any(isinstance(n, exp.AggFunc | exp.Window) for p in sub.expressions for n in p.walk()):
        return
    child = sub.args["from_"].this
    if sub.args.get("where") is None or not isinstance(child, exp.Table):
        return
    sources: dict[str, exp.Expr] = {source_alias(parent): parent, source_alias(child): child}
    parts = conjuncts(sub.args["where"].this)
    linked = [
        (part, parent_equality(part, sources, sub, root, schema, parent_only=parent))
        for part in parts
    ]
    equality, found = next(((p, f) for p, f in linked if f is not None), (None, None))
    if equality is None or found is None:
        return
    _, key, foreign, _ = found
    rest = [p for p in parts if p is not equality]
    mine = source_alias(parent)
    outputs = _outputs(select, key)
    if outputs is None:
        return
    if any(
        column.table == mine
        and not is_inside(column, equality)
        and not any(column is read or is_inside(column, read) for read in outputs)
        for column in select.find_all(exp.Column)
    ):
        return  # P is read elsewhere
    conditions = [p.copy() for p in rest]
    value = exp.Count(this=exp.Distinct(expressions=[foreign.copy()]), big_int=True)
    name = select.expressions[0].alias
    # The SELECT changes in place: it may be the root of the tree.
    select.set("expressions", [exp.alias_(value, name) if name else value])
    select.set("from_", exp.From(this=child.copy()))
    condition = and_all(conditions)
    select.set("where", exp.Where(this=condition) if condition is not None else None)
    select.set("distinct", None)


def _outputs(select: exp.Select, key: exp.Column) -> list[exp.Expr] | None:
    """The projections that read ``P`` when the one output counts the parents (``[]``
    for ``COUNT(*)``); None for anything else."""
    if len(select.expressions) != 1:
        return None
    projection = select.expressions[0]
    value = projection.unalias()
    if not isinstance(value, exp.Count) or value.expressions:
        return None
    argument = value.this
    if isinstance(argument, exp.Distinct) and len(argument.expressions) == 1:
        argument = argument.expressions[0]
    if isinstance(argument, exp.Star):
        return []
    if isinstance(argument, exp.Column) and (argument.table, argument.name) == (
        key.table,
        key.name,
    ):
        return [projection]
    return None
