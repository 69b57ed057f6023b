"""Merge simple derived tables into the query that selects from them.

``SELECT s.a FROM (SELECT t.a AS a FROM t AS t WHERE t.a > 1) AS s`` becomes
``SELECT _m0.a AS a FROM t AS _m0 WHERE _m0.a > 1`` (the inner sources get
fresh names; ``canonical_aliases`` names them properly later).

Why this is sound: when the inner query is a plain select-project-join
(``SELECT exprs FROM sources WHERE w``; no DISTINCT, GROUP BY, HAVING,
aggregate, window, ORDER BY, LIMIT/OFFSET, set-returning or volatile
function), each of its rows is one combination of its sources' rows that
satisfies ``w``, carrying the values of ``exprs``. Joining that relation with
the outer sources is therefore the same as joining the inner sources directly
and filtering by ``w``, and every outer reference ``s.a`` is the value of the
projection ``a`` on that combination. The expressions are deterministic, so a
projection copied into several places still has one value per row.

The outer FROM must be either a comma list of inner sources (any position), or
start with the derived table followed by inner and LEFT joins while the inner
query has a single source: filtering ``F`` by ``w`` before ``F LEFT JOIN S``
or after it gives the same rows, because ``w`` only reads ``F``, whose rows
every LEFT join preserves. Among inner and LEFT joins the derived table may also
stand later, cross-joined (its ON already moved to the WHERE, see
``flatten_inner_joins``): ``X CROSS JOIN (... WHERE w)`` is ``w`` over ``X CROSS
JOIN ...``, and that filter commutes with every later inner or LEFT join as before.
A derived table that is the outer query's only source may have outer joins of its
own: its FROM replaces it whole, and its WHERE filters the same joined rows there.

A derived table on the null-supplying side of an outer join is merged only when it
selects plain columns of one table with a WHERE ``w``: ``F LEFT JOIN (SELECT T.c AS c
FROM T WHERE w) AS s ON p`` is ``F LEFT JOIN T ON p AND w``. A row of ``F`` meets the
same rows of ``T`` either way (those where ``w`` and ``p`` are both TRUE), and where it
meets none, a plain column is NULL whether it comes from the padded derived table or the
padded table (what an optimizer's predicate pushdown writes, TPC-H 13). Any other
projection stays where it is: ``SELECT 1 AS one`` from a derived table that did not
match must stay NULL (sqlglot's ``merge_subqueries`` gets this wrong, which is why it is
not used).
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp
from sqlglot.optimizer.scope import Scope

from sqlequiv.normalize._util import (
    and_all,
    contains,
    from_items,
    is_flat_inner,
    is_inner_join,
    is_simple_source,
    is_simple_subquery,
    named_projections,
    outer_join_side,
    own_columns,
    rename_sources_apart,
    scopes,
    set_where,
    substitute,
    truthy_args,
)
from sqlequiv.policy import is_volatile

E = TypeVar("E", bound=exp.Expr)

_MAX_MERGES = 64

# Outer SELECT arguments under which substituting a projection for a column is
# not plainly an expression rewrite (or that we do not model).
_OUTER_BLOCKERS = frozenset(
    {
        "laterals",
        "pivots",
        "connect",
        "match",
        "prewhere",
        "sample",
        "into",
        "kind",
        "operation_modifiers",
        "settings",
        "format",
        "options",
        "for_",
        "locks",
        "distribute",
        "sort",
        "cluster",
        "exclude",
    }
)

_SET_RETURNING: tuple[type[exp.Expr], ...] = (exp.UDTF, exp.GenerateSeries, exp.ExplodeOuter)


def merge_derived_tables(expression: E) -> E:
    """Merge plain derived tables into their outer query, innermost first.

    Example:
        >>> import sqlglot
        >>> sql = (
        ...     "SELECT s.a AS a FROM (SELECT t.a AS a FROM t AS t WHERE t.a > 1) AS s "
        ...     "WHERE s.a < 5"
        ... )
        >>> merge_derived_tables(sqlglot.parse_one(sql)).sql()
        'SELECT _m0.a AS a FROM t AS _m0 WHERE _m0.a < 5 AND _m0.a > 1'
    """
    for _ in range(_MAX_MERGES):
        if not _merge_one(expression):
            break
    return expression


def _merge_one(root: exp.Expr) -> bool:
    all_scopes = scopes(root)
    if all_scopes is None:
        return False
    for scope in all_scopes:
        if not isinstance(scope.expression, exp.Select):
            continue
        for alias, (node, source) in scope.selected_sources.items():
            if not isinstance(source, Scope) or source.is_cte:
                continue
            subquery = node.parent
            if (
                isinstance(subquery, exp.Subquery)
                and is_simple_subquery(subquery)
                and subquery.alias_or_name == alias
                and _try_merge(root, scope, source, subquery, alias)
            ):
                return True
    return False


def _is_left_join(join: exp.Join) -> bool:
    return outer_join_side(join) == "LEFT" and is_simple_source(join.this)


def _plain_join(join: exp.Join) -> bool:
    """An inner, cross or plain outer join (ON or none) of a plain source."""
    return is_inner_join(join) or (
        outer_join_side(join) is not None and is_simple_source(join.this)
    )


def _is_cross_join(join: exp.Join) -> bool:
    return is_inner_join(join) and join.args.get("on") is None


def _try_merge(
    root: exp.Expr, outer_scope: Scope, inner_scope: Scope, subquery: exp.Subquery, alias: str
) -> bool:
    outer = outer_scope.expression
    inner = subquery.this
    if not isinstance(outer, exp.Select) or not isinstance(inner, exp.Select):
        return False
    if truthy_args(outer) & _OUTER_BLOCKERS:
        return False
    group = outer.args.get("group")
    if group is not None and truthy_args(group) - {"expressions"}:
        return False  # GROUP BY ALL / ROLLUP infer or position keys

    items = from_items(outer)
    position = next((i for i, item in enumerate(items) if item is subquery), None)
    if position is None:
        return False
    joins: list[exp.Join] = list(outer.args.get("joins") or [])
    if position > 0 and outer_join_side(joins[position - 1]) == "LEFT":
        return _merge_padded(root, outer_scope, inner_scope, subquery, alias)
    inner_and_left = all(is_inner_join(j) or _is_left_join(j) for j in joins)
    if is_flat_inner(outer):
        single_source_only = False
    elif position == 0 and inner_and_left:
        single_source_only = True
    elif position > 0 and inner_and_left and _is_cross_join(joins[position - 1]):
        single_source_only = False
    else:
        return False

    if truthy_args(inner) - {"expressions", "from_", "joins", "where"}:
        return False
    # The derived table alone in the outer FROM: its own FROM, outer joins and all, takes
    # its place, and its WHERE still filters the rows of all its joins.
    sole = position == 0 and not joins
    if inner.args.get("from_") is None:
        return False  # nothing to put in its place
    if sole:
        if not all(_plain_join(j) for j in inner.args.get("joins") or ()):
            return False
    elif not is_flat_inner(inner) or (single_source_only and inner.args.get("joins")):
        return False

    projections = named_projections(inner)
    if projections is None:
        return False
    for value in projections.values():
        if contains(value, exp.AggFunc, exp.Window, exp.Query, exp.Star, *_SET_RETURNING):
            return False
        if is_volatile(value):
            return False

    # A derived table that reads the outer query's own sources (DuckDB allows
    # implicit LATERAL) is not a plain relation.
    outer_names = set(outer_scope.selected_sources)
    if any(column.table in outer_names for column in inner_scope.external_columns):
        return False

    refs = outer_scope.source_columns(alias)
    ref_ids = {id(column) for column in refs}
    for column in own_columns(outer, subquery):
        if column.table == alias and id(column) not in ref_ids:
            return False
    for column in refs:
        if column.name not in projections:
            return False
        value = projections[column.name]
        # A column-free value in GROUP BY / ORDER BY would read as a position.
        if isinstance(column.parent, exp.Group | exp.Ordered) and not contains(value, exp.Column):
            return False

    rename_sources_apart(root, inner_scope)

    substitute(refs, projections)

    inner_items = from_items(inner)
    subquery.replace(inner_items[0])
    if sole:
        outer.set("joins", list(inner.args.get("joins") or ()) or None)
    else:
        joins[position:position] = [exp.Join(this=item) for item in inner_items[1:]]
        outer.set("joins", joins or None)

    outer_where = outer.args.get("where")
    inner_where = inner.args.get("where")
    set_where(
        outer,
        and_all(
            [
                outer_where.this if outer_where is not None else None,
                inner_where.this if inner_where is not None else None,
            ]
        ),
    )
    return True


def _merge_padded(
    root: exp.Expr, outer_scope: Scope, inner_scope: Scope, subquery: exp.Subquery, alias: str
) -> bool:
    """Merge ``(SELECT T.c AS c ... FROM T WHERE w) AS s`` on the padded side of a LEFT JOIN
    into that join: ``T`` takes its place and ``w`` joins the ON (see the module)."""
    outer, inner, join = outer_scope.expression, subquery.this, subquery.parent
    if not isinstance(outer, exp.Select) or not isinstance(inner, exp.Select):
        return False
    if not isinstance(join, exp.Join) or truthy_args(inner) - {"expressions", "from_", "where"}:
        return False
    table = inner.args["from_"].this
    if not isinstance(table, exp.Table) or not is_simple_source(table):
        return False
    projections = named_projections(inner)
    if projections is None or not all(isinstance(v, exp.Column) for v in projections.values()):
        return False  # only a plain column is NULL on a padded row wherever it comes from
    where = inner.args.get("where")
    if where is not None and (is_volatile(where) or contains(where, exp.Query)):
        return False
    if inner_scope.external_columns:
        return False  # correlated (or an implicit LATERAL): not a plain relation
    refs = outer_scope.source_columns(alias)
    ref_ids = {id(column) for column in refs}
    for column in own_columns(outer, subquery):
        if column.table == alias and id(column) not in ref_ids:
            return False
    if any(column.name not in projections for column in refs):
        return False
    rename_sources_apart(root, inner_scope)
    substitute(refs, projections)
    on = join.args.get("on")
    subquery.replace(table)
    join.set("on", and_all([on, where.this if where is not None else None]))
    return True
