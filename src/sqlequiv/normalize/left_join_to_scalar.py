"""A LEFT JOIN to per-key aggregates, read only for them, as correlated scalar subqueries.

Decorrelation (sqlglot's ``unnest_subqueries``, Calcite's) writes ``l.q < (SELECT 0.2 *
AVG(x.q) FROM lineitem x WHERE x.pk = p.pk)`` as ``part p LEFT JOIN (SELECT 0.2 *
AVG(x.q) AS v, x.pk AS k FROM lineitem x GROUP BY x.pk) u ON u.k = p.pk ... WHERE l.q <
u.v``. This rule writes the second back as the first.

Why this is sound. The derived table ``u`` groups one table ``X`` (or one derived table,
under the conditions below for a nested query), or the inner or cross join of several
(TPC-H's query 2 decorrelated: ``partsupp, supplier, nation, region``; only in
:func:`left_join_to_scalar_over_joins`, which runs after ``key_join_to_exists`` has made
EXISTS of the joins it can, as it does in a correlated subquery), by exactly the keys
the ON equates (conjuncts ``u.k = e``, ``e`` not reading ``u``, of one declared type),
so a row of the other sources meets at most one group: the LEFT JOIN keeps each such
row once. On it, ``u.v`` is the value of ``v`` over the group of rows of ``X`` whose keys
equal those ``e`` (and that pass ``u``'s WHERE), or NULL when there is none. The scalar
subquery ``(SELECT v FROM X WHERE <u's WHERE> AND k = e)`` computes ``v`` over exactly
those rows, as one aggregate row, which is NULL over no row provided ``v`` is: ``v``
is built of SUM, AVG, MIN or MAX (NULL over no row; not COUNT, which is 0) with
constants and arithmetic, which is NULL when an operand is. ``u`` must be read nowhere
else (not its keys, nor in a nested query). A query nested in ``u`` (an EXISTS in its
WHERE) moves with it when ``u`` reads nothing from outside itself and calls nothing
volatile: it then means the same in the scalar subquery. The join may be anywhere in
the FROM: it
keeps each row before it once, and a read of ``u.v`` in a later ON becomes the same
subquery. Each source of ``u`` takes a fresh name in each subquery, so that the outer
columns are not captured; the joins keep their ON, renamed alike.
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._scoping import closed
from sqlequiv.normalize._util import (
    and_all,
    conjuncts,
    fresh_name,
    is_deterministic,
    is_inner_join,
    is_inside,
    is_simple_subquery,
    is_simple_table,
    outer_join_side,
    plain_group,
    same_declared_type,
    truthy_args,
)
from sqlequiv.policy import is_volatile

E = TypeVar("E", bound=exp.Expr)

#: What an aggregate value may be built of: NULL over no row, NULL when an operand is.
_STRICT = (exp.Add, exp.Sub, exp.Mul, exp.Div, exp.Paren, exp.Neg, exp.Literal)
_NULL_OVER_NO_ROW = (exp.Sum, exp.Avg, exp.Min, exp.Max)


def left_join_to_scalar(expression: E) -> E:
    """Write a LEFT JOIN to grouped aggregates, read only for them, as scalar subqueries.

    Example:
        >>> import sqlglot
        >>> from sqlglot import exp
        >>> e = sqlglot.parse_one("SELECT p.a FROM p AS p LEFT JOIN (SELECT MAX(x.v) AS m, "
        ...     "x.k AS k FROM x AS x GROUP BY x.k) AS u ON u.k = p.a WHERE p.b < u.m")
        >>> for col in e.find_all(exp.Column):
        ...     col.type = exp.DataType.build("INT")
        >>> left_join_to_scalar(e).sql()
        'SELECT p.a FROM p AS p WHERE p.b < (SELECT MAX(x_0.v) FROM x AS x_0 WHERE x_0.k = p.a)'
    """
    for select in list(expression.find_all(exp.Select)):
        _rewrite(expression, select, joins=False)
    return expression


def left_join_to_scalar_over_joins(expression: E) -> E:
    """:func:`left_join_to_scalar`, also for per-key aggregates over a join of sources.

    Example:
        >>> import sqlglot
        >>> from sqlglot import exp
        >>> e = sqlglot.parse_one("SELECT p.a FROM p AS p LEFT JOIN (SELECT MAX(x.v) AS m, "
        ...     "x.k AS k FROM x AS x, y AS y WHERE y.k = x.k GROUP BY x.k) AS u "
        ...     "ON u.k = p.a WHERE p.b < u.m")
        >>> for col in e.find_all(exp.Column):
        ...     col.type = exp.DataType.build("INT")
        >>> left_join_to_scalar_over_joins(e).sql().split(" WHERE ", 1)[1]
        'p.b < (SELECT MAX(x_0.v) FROM x AS x_0, y AS y_0 WHERE y_0.k = x_0.k AND x_0.k = p.a)'
    """
    for select in list(expression.find_all(exp.Select)):
        _rewrite(expression, select, joins=True)
    return expression


def _rewrite(root: exp.Expr, select: exp.Select, *, joins: bool) -> None:
    for join in reversed(list(select.args.get("joins") or [])):
        _rewrite_join(root, select, join, joins=joins)


def _rewrite_join(root: exp.Expr, select: exp.Select, join: exp.Join, *, joins: bool) -> None:
    if outer_join_side(join) != "LEFT":
        return
    source, on = join.this, join.args.get("on")
    if not isinstance(source, exp.Subquery) or on is None or truthy_args(source) != {
        "this",
        "alias",
    }:
        return
    body, alias = source.this, source.alias
    if not isinstance(body, exp.Select) or truthy_args(body) - {
        "expressions",
        "from_",
        "joins",
        "where",
        "group",
    }:
        return
    keys = plain_group(body)
    tables = _sources(body)
    if keys is None or tables is None or (len(tables) > 1 and not joins):
        return
    inners = [table.alias_or_name for table in tables]
    if len(set(inners)) != len(inners) or any(
        n.alias_or_name in inners and not any(n is t for t in tables)
        for n in body.find_all(exp.Table, exp.Subquery)
    ):
        return
    if any(isinstance(n, exp.Query) for n in body.walk() if n is not body) and not (
        closed(body) and not is_volatile(body)
    ):
        return  # a nested query may move only if it reads nothing from outside ``u``
    values: dict[str, exp.Expr] = {}
    key_of: dict[str, exp.Expr] = {}
    for projection in body.expressions:
        name, value = projection.alias_or_name, projection.unalias()
        if not name or name in values or name in key_of:
            return
        if any(value == k for k in keys):
            key_of[name] = value
        elif _strict_aggregate(value):
            values[name] = value
        else:
            return
    pinned = _pinned(on, alias, key_of)
    if pinned is None or {k.sql() for k in keys} - {key_of[n].sql() for n in pinned}:
        return  # every group key must be pinned by the ON
    reads = [c for c in select.find_all(exp.Column) if c.table == alias]
    outside = [c for c in reads if not is_inside(c, on)]
    if not outside or any(c.name not in values for c in outside):
        return
    if any(c.find_ancestor(exp.Select) is not select for c in outside):
        return  # read by a nested query
    select.set("joins", [j for j in select.args.get("joins") or [] if j is not join] or None)
    for column in outside:
        renames = {inner: fresh_name(root, inner) for inner in inners}
        column.replace(_scalar(body, values[column.name], pinned, key_of, renames))


def _sources(body: exp.Select) -> list[exp.Expr] | None:
    """The FROM source of ``body`` and those it inner- or cross-joins, each a plain table
    or derived table; None for anything else (an outer join, USING, NATURAL, LATERAL)."""
    from_ = body.args.get("from_")
    if from_ is None:
        return None
    tables = [from_.this]
    for join in body.args.get("joins") or []:
        if not is_inner_join(join) or truthy_args(join) - {"this", "on", "kind"}:
            return None
        tables.append(join.this)
    if not all(is_simple_table(t) or is_simple_subquery(t) for t in tables):
        return None
    return tables


def _strict_aggregate(value: exp.Expr) -> bool:
    found = False
    for node in value.walk():
        if isinstance(node, _NULL_OVER_NO_ROW):
            found = True
            if isinstance(node.this, exp.Distinct) or node.expressions:
                return False
        elif isinstance(node, exp.Column):
            if not isinstance(node.find_ancestor(*_NULL_OVER_NO_ROW), _NULL_OVER_NO_ROW):
                return False  # a bare column outside the aggregates
        elif not isinstance(node, (*_STRICT, exp.Identifier)):
            return False
    return found and is_deterministic(value)


def _pinned(
    on: exp.Expr, alias: str, key_of: dict[str, exp.Expr]
) -> dict[str, exp.Expr] | None:
    """Each key column of ``u`` the ON equates with an outer expression; None when the ON
    has another conjunct."""
    pinned: dict[str, exp.Expr] = {}
    for part in conjuncts(on):
        if not isinstance(part, exp.EQ):
            return None
        for mine, other in ((part.this, part.expression), (part.expression, part.this)):
            if (
                isinstance(mine, exp.Column)
                and mine.table == alias
                and mine.name in key_of
                and not any(c.table == alias for c in other.find_all(exp.Column))
                and is_deterministic(other)
                and same_declared_type(mine, other.unnest())
            ):
                pinned[mine.name] = other
                break
        else:
            return None
    return pinned


def _scalar(
    body: exp.Select,
    value: exp.Expr,
    pinned: dict[str, exp.Expr],
    key_of: dict[str, exp.Expr],
    renames: dict[str, str],
) -> exp.Expr:
    """``(SELECT value FROM X AS fresh ... WHERE <body's WHERE> AND k = e ...)``, each
    source of the body and its columns renamed by ``renames`` (the outer expressions
    ``e`` keep theirs)."""

    def own(node: exp.Expr) -> exp.Expr:
        copy = node.copy()
        for column in copy.find_all(exp.Column):
            if column.table in renames:
                column.set("table", exp.to_identifier(renames[column.table]))
        return copy

    def renamed(table: exp.Expr) -> exp.Expr:
        copy = own(table)
        copy.set("alias", exp.TableAlias(this=exp.to_identifier(renames[table.alias_or_name])))
        return copy

    where = body.args.get("where")
    conditions = []
    if where is not None and not (isinstance(where.this, exp.Boolean) and where.this.this):
        conditions.append(own(where.this))
    for name, other in pinned.items():
        conditions.append(exp.EQ(this=own(key_of[name]), expression=other.copy()))
    sub = exp.select(own(value)).from_(renamed(body.args["from_"].this))
    joins = []
    for join in body.args.get("joins") or []:
        copy = own(join)
        copy.set("this", renamed(join.this))
        joins.append(copy)
    if joins:
        sub.set("joins", joins)
    if conditions:
        sub.set("where", exp.Where(this=and_all(conditions)))
    return exp.Subquery(this=sub)
