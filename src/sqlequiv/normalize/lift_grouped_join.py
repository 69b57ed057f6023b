"""A join of aggregated derived tables as one aggregation over the join.

Calcite pushes an aggregate below a join (AggregateJoinTransposeRule): ``SELECT
e.job, SUM(e.sal), COUNT(*) FROM emp e JOIN dept d ON e.job = d.name GROUP BY e.job,
d.name`` becomes ``SELECT t1.job, t1.s * t2.c, t1.n * t2.c FROM (SELECT job, SUM(sal)
AS s, COUNT(*) AS n FROM emp GROUP BY job) t1 JOIN (SELECT name, COUNT(*) AS c FROM
dept GROUP BY name) t2 ON t1.job = t2.name``. This rule writes the second back as the
first, so both meet.

Why this is sound. The query joins two derived tables ``t1``, ``t2`` (an inner join;
no GROUP BY, aggregate, DISTINCT, window, ORDER BY or LIMIT of its own). A *lifted*
side is ``SELECT K, aggregates FROM X WHERE w GROUP BY K`` over one table ``X``: its
rows are the groups of ``X``'s rows by ``K``. A *kept* side groups by every column it
projects: its rows are distinct. The ON and the WHERE read a lifted side's key
columns only, so whether two rows of the join meet depends on their groups alone.

- Both sides lifted: the joined pairs of groups ``(g1, g2)`` are the groups, by
  ``K1`` and ``K2``, of ``X1 JOIN X2`` under the same conditions (and the two WHEREs):
  a group of that join holds ``|g1| * |g2|`` rows, each row of ``g1`` ``|g2|`` times.
  So ``MIN``/``MAX``/``BOOL_AND``/``BOOL_OR``/``BIT_AND``/``BIT_OR`` over it are those of
  ``g1``, and ``t1.s * t2.c``, where ``s`` is ``SUM(e)`` or ``COUNT(e)`` of ``g1`` and
  ``c`` is ``COUNT(*)`` of ``g2``, is ``SUM(e)``/``COUNT(e)`` over the group (``SUM`` of
  an exact numeric type: the product of a sum by a count is a sum exactly only there).
- One side lifted, the other kept: each group of ``X1 JOIN t2`` by ``K1`` and all of
  ``t2``'s columns is ``g1`` with one row of ``t2``, so every aggregate of ``g1`` is
  that aggregate over the group. A kept side may also be a table of the schema with a
  key (a primary key, or a UNIQUE key of NOT NULL columns): its rows are distinct, and
  the groups are by that key and every column of the table the query reads.

A query that aggregates (without GROUP BY) over such a join is first split: the join,
with each aggregate's argument as a column, becomes a derived table that is lifted,
and the aggregates read it (:mod:`.merge_aggregates` may then merge the two levels:
``COALESCE(SUM(t1.c * t2.c), 0)`` over two grouped counts is ``COUNT(*)`` of the join).

Any other read of a SUM or COUNT column (alone, in a condition, multiplied by
something else) leaves the query alone, as does a side over more than one table or
with nested queries, HAVING, DISTINCT or grouping sets. Each lifted table takes its
derived table's name, which no other source of the query has.
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._aggregates import IDEMPOTENT, aggregates
from sqlequiv.normalize._grouped import Side, grouped_side, kept_table, lifted_call, renamed
from sqlequiv.normalize._util import (
    and_all,
    conjuncts,
    fresh_name,
    is_inside,
    own_columns,
    plain_group,
    sql_text,
    truthy_args,
)
from sqlequiv.schema.model import Schema

E = TypeVar("E", bound=exp.Expr)


def lift_grouped_join(expression: E, *, schema: Schema) -> E:
    """Write a join of aggregated derived tables as one aggregation over the join.

    Example:
        >>> import sqlglot
        >>> from sqlglot.optimizer.annotate_types import annotate_types
        >>> e = sqlglot.parse_one(
        ...     "SELECT t1.k, t1.s * t2.c FROM (SELECT x.k AS k, SUM(x.v) AS s FROM x AS x "
        ...     "GROUP BY x.k) AS t1 JOIN (SELECT y.k AS k, COUNT(*) AS c FROM y AS y "
        ...     "GROUP BY y.k) AS t2 ON t1.k = t2.k")
        >>> e = annotate_types(e, schema={"x": {"k": "INT", "v": "INT"}, "y": {"k": "INT"}})
        >>> lift_grouped_join(e, schema=Schema(())).sql()
        'SELECT t1.k, SUM(t1.v) FROM x AS t1 JOIN y AS t2 ON t1.k = t2.k GROUP BY t1.k, t2.k'
    """
    for select in list(expression.find_all(exp.Select)):
        _lift(select, expression, schema)
    return expression


def _lift(select: exp.Select, root: exp.Expr, schema: Schema) -> bool:
    """Lift the derived tables ``select`` joins; whether it did."""
    if truthy_args(select) - {"expressions", "from_", "joins", "where"}:
        return False
    calls = aggregates(select)
    if calls:
        return _lift_below(select, calls, root, schema)
    if select.args.get("distinct") or calls is None:
        return False
    joins = select.args.get("joins") or []
    from_ = select.args.get("from_")
    if from_ is None or len(joins) != 1 or truthy_args(from_) != {"this"}:
        return False
    join = joins[0]
    if truthy_args(join) - {"this", "on", "kind"} or (join.args.get("kind") or "").upper() not in (
        "",
        "INNER",
    ):
        return False
    first = grouped_side(from_.this, root) or kept_table(from_.this, select, schema)
    second = grouped_side(join.this, root) or kept_table(join.this, select, schema)
    if first is None or second is None:
        return False
    plan = _plan(select, join, first, second, lift_second=True)
    if plan is None and second.key_only:
        plan = _plan(select, join, first, second, lift_second=False)
    if plan is None and first.key_only:
        plan = _plan(select, join, second, first, lift_second=False)
    if plan is None:
        return False
    replacements, lifted, group = plan
    for old, new in replacements:
        old.replace(new)
    for side in lifted:
        _into_table(select, side)
    select.set("group", exp.Group(expressions=group))
    return True


def _lift_below(
    select: exp.Select, calls: list[exp.Func], root: exp.Expr, schema: Schema
) -> bool:
    """An aggregate (without GROUP BY) over the join: the join, its aggregates' arguments
    as columns, goes into a derived table that is lifted, which the outer aggregates then
    read (and :mod:`.merge_aggregates` merges). Splitting a query so is exact: the derived
    table has the join's rows, each aggregate reads its argument's value on each."""
    if select.args.get("distinct"):
        return False
    if not all(
        isinstance(c, exp.AggFunc) and isinstance(c.this, exp.Expr) and not c.expressions
        and not isinstance(c.this, exp.Distinct | exp.Star) and not isinstance(c.parent, exp.Filter)
        for c in calls
    ):  # fmt: skip
        return False
    inside = {id(c) for call in calls for c in call.find_all(exp.Column)}
    from_ = select.args["from_"]
    if any(id(c) not in inside for c in own_columns(select, from_) if not _in_from(c, select)):
        return False  # a column outside the aggregates
    alias = fresh_name(root, "_lift")
    names = [f"a{n}" for n in range(len(calls))]
    inner = exp.Select(
        expressions=[exp.alias_(c.this.copy(), n) for c, n in zip(calls, names, strict=True)]
    )
    for arg in ("from_", "joins", "where"):
        if select.args.get(arg) is not None:
            inner.set(arg, select.args[arg].copy())
    if not _lift(inner, root, schema):
        return False
    for call, name in zip(calls, names, strict=True):
        call.set("this", exp.column(name, table=alias))
    select.set("joins", None)
    select.set("where", None)
    select.set("from_", exp.From(this=exp.Subquery(this=inner, alias=exp.TableAlias(
        this=exp.to_identifier(alias)))))  # fmt: skip
    return True


def _in_from(column: exp.Column, select: exp.Select) -> bool:
    """Whether ``column`` is in ``select``'s joins or WHERE (which move into the derived
    table with the join)."""
    node: exp.Expr | None = column
    while node is not None and node is not select:
        if isinstance(node, exp.Join | exp.Where):
            return True
        node = node.parent
    return False


def _plan(
    select: exp.Select, join: exp.Join, first: Side, second: Side, *, lift_second: bool
) -> tuple[list[tuple[exp.Expr, exp.Expr]], list[Side], list[exp.Expr]] | None:
    """The replacements, the sides lifted into tables and the GROUP BY, or None."""
    if not first.liftable or (lift_second and not second.liftable):
        return None
    if not first.aggregates and not (lift_second and second.aggregates):
        return None  # nothing to lift: another rule's business
    lifted = [first, second] if lift_second else [first]
    sides = {side.alias: side for side in lifted}
    replacements: list[tuple[exp.Expr, exp.Expr]] = []
    done: set[int] = set()
    # (The ON is the select's own; the derived tables' bodies are other scopes.)
    columns = [c for c in own_columns(select, select.args["from_"]) if c.table in sides]
    # Products of a SUM or COUNT by the other side's COUNT(*).
    for column in columns:
        if id(column) in done or not isinstance(column.parent, exp.Mul):
            continue
        product = column.parent
        pair = _product(product, sides)
        if pair is None:
            continue
        (mine, other) = pair
        done.update({id(mine), id(other)})
        replacements.append((product, lifted_call(sides[mine.table], mine.name)))
    for column in columns:
        if id(column) in done:
            continue
        side = sides[column.table]
        if column.name in side.keys:
            replacements.append((column, renamed(side.keys[column.name], side.alias)))
            continue
        call = side.aggregates.get(column.name)
        if call is None:
            return None
        if not (isinstance(call, IDEMPOTENT) or not lift_second):
            return None  # a SUM or COUNT read alone, multiplied by the other group's size
        if _in_condition(column, select, join):
            return None
        replacements.append((column, lifted_call(side, column.name)))
    # The conditions read the lifted sides' keys only.
    for condition in (join.args.get("on"), select.args.get("where")):
        for c in condition.find_all(exp.Column) if condition is not None else []:
            if c.table in sides and c.name not in sides[c.table].keys:
                return None
    group: list[exp.Expr] = []
    for side in lifted:
        group += [renamed(k, side.alias) for k in side.keys.values()]
        group += [renamed(k, side.alias) for k in plain_group(side.body) or []
                  if sql_text(k) not in {sql_text(v) for v in side.keys.values()}]  # fmt: skip
    if not lift_second:
        group += [exp.column(name, table=second.alias) for name in second.keys]
    return replacements, lifted, group


def _product(product: exp.Mul, sides: dict[str, Side]) -> tuple[exp.Column, exp.Column] | None:
    """``(x, y)`` when ``product`` is ``x * y`` (either way round), ``x`` a SUM or COUNT of
    one lifted side and ``y`` the COUNT(*) of the other."""
    left, right = product.this, product.expression
    for mine, other in ((left, right), (right, left)):
        if not isinstance(mine, exp.Column) or not isinstance(other, exp.Column):
            continue
        if mine.table not in sides or other.table not in sides or mine.table == other.table:
            continue
        call = sides[mine.table].aggregates.get(mine.name)
        if call is None or isinstance(call, IDEMPOTENT):
            continue
        if other.name in sides[other.table].counts_rows:
            return mine, other
    return None


def _in_condition(column: exp.Column, select: exp.Select, join: exp.Join) -> bool:
    where = select.args.get("where")
    conditions = (join.args.get("on"), where)
    return any(node is not None and is_inside(column, node) for node in conditions)


def _into_table(select: exp.Select, side: Side) -> None:
    """Put the side's table in place of its derived table, named as it was, with its WHERE."""
    body = side.body
    table = body.args["from_"].this.copy()
    table.set("alias", exp.TableAlias(this=exp.to_identifier(side.alias)))
    where = body.args.get("where")
    source = select.args["from_"].this
    holder = select.args["from_"] if source.alias == side.alias else select.args["joins"][0]
    holder.set("this", table)
    if where is not None:
        condition = renamed(where.this, side.alias)
        current = select.args.get("where")
        merged = and_all([current.this if current else None, *conjuncts(condition)])
        select.set("where", exp.Where(this=merged) if merged is not None else None)
