"""Drop the output columns of a derived table that its query never reads.

``SELECT s.zip FROM (SELECT SUBSTRING(a.zip, 1, 5) AS zip, COUNT(*) AS n FROM address a
GROUP BY a.zip HAVING COUNT(*) > 10) AS s`` reads ``zip`` only; without ``n`` the outer
SELECT lists every column of its derived table and ``collapse_identity_selects`` removes
it. An optimizer's projection pushdown writes the derived table without the column, and
a person often writes it with one.

Why this is sound: a SELECT makes one output row per row (or group) of its FROM, WHERE
and GROUP BY, whatever it projects, so without a projection it has the same rows with
one column fewer, and a query that never reads that column cannot tell. A UNION ALL
keeps every row of each branch, so the same column goes from each of them (its columns
are its branches' by position, named by the first). Left alone: a DISTINCT (the columns
decide which rows are equal), another set operation (UNION removes duplicates), an
aggregate without GROUP BY (dropping the only aggregate would turn one row into one per
input row), a GROUP BY ALL or an ordinal in GROUP BY or ORDER BY (positions would
shift), a name the SELECT itself reads back (``ORDER BY n``), and any derived table read
through a star, USING or NATURAL join. A column counts as read wherever its qualifier
appears in the enclosing query, nested subqueries included: reading too much only keeps
a column. At least the first column is kept (a SELECT lists one).
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._util import (
    is_inside,
    is_simple_subquery,
    truthy_args,
    union_all_selects,
    unqualified_columns_in_scope,
)

E = TypeVar("E", bound=exp.Expr)


def prune_derived_columns(expression: E) -> E:
    """Remove the projections of derived tables that nothing reads.

    Example:
        >>> import sqlglot
        >>> sql = ("SELECT s.a AS a FROM (SELECT t.a AS a, COUNT(*) AS n FROM t AS t "
        ...        "GROUP BY t.a) AS s")
        >>> prune_derived_columns(sqlglot.parse_one(sql)).sql()
        'SELECT s.a AS a FROM (SELECT t.a AS a FROM t AS t GROUP BY t.a) AS s'
    """
    for subquery in list(expression.find_all(exp.Subquery)):
        outer = subquery.parent.parent if subquery.parent is not None else None
        if not isinstance(subquery.parent, exp.From | exp.Join) or not isinstance(
            outer, exp.Select
        ):
            continue
        if not is_simple_subquery(subquery):
            continue
        branches = union_all_selects(subquery.this)
        if branches is not None:
            _prune(subquery, branches, outer)
    return expression


def _prune(subquery: exp.Subquery, branches: list[exp.Select], outer: exp.Select) -> None:
    inner = branches[0]  # names the columns
    width = len(inner.expressions)
    if width < 2 or not all(len(b.expressions) == width and _prunable(b) for b in branches):
        return
    if any(join.args.get("using") or join.args.get("method") for join in _joins(outer)):
        return  # USING / NATURAL read columns by name
    if any(isinstance(p, exp.Star) for p in outer.expressions):
        return
    alias = subquery.alias_or_name.lower()
    read: set[str] = set()
    for column in outer.find_all(exp.Column):
        if column.table.lower() != alias or is_inside(column, subquery):
            continue
        if isinstance(column.this, exp.Star):
            return
        read.add(column.name.lower())
    names = [projection.alias_or_name.lower() for projection in inner.expressions]
    if len(set(names)) != len(names) or not all(names):
        return
    kept = [i for i, name in enumerate(names) if name in read] or [0]
    if len(kept) == len(names):
        return
    for branch in branches:
        branch.set("expressions", [branch.expressions[i] for i in kept])


def _prunable(inner: exp.Select) -> bool:
    if inner.args.get("distinct") is not None or unqualified_columns_in_scope(inner):
        return False
    if truthy_args(inner) - {"expressions", "from_", "joins", "where", "group", "having"}:
        return False
    group = inner.args.get("group")
    if group is None:
        return not any(
            isinstance(node, exp.AggFunc) or _unknown_call(node)
            for projection in inner.expressions
            for node in projection.walk()
        )
    if truthy_args(group) - {"expressions"}:
        return False  # GROUP BY ALL, ROLLUP, CUBE, GROUPING SETS
    return not any(
        isinstance(key, exp.Literal) and key.is_int for key in group.expressions
    )


def _unknown_call(node: exp.Expr) -> bool:
    """A call sqlglot does not know, which may be an aggregate."""
    return isinstance(node, exp.Anonymous | exp.AnonymousAggFunc)


def _joins(select: exp.Select) -> list[exp.Join]:
    return list(select.args.get("joins") or ())

