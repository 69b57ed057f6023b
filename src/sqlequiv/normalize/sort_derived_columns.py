"""Sort the columns of a derived table by text, renaming every reference with them.

``SELECT t0.c1 FROM (SELECT t1.b AS c0, t1.a AS c1 FROM t AS t1 LIMIT 3) AS t0`` becomes
``SELECT t0.c0 FROM (SELECT t1.a AS c0, t1.b AS c1 FROM t AS t1 LIMIT 3) AS t0``. A
derived table that is not merged into its query (it has a LIMIT, a DISTINCT, a GROUP BY)
lists its columns in the order its author wrote them; an optimizer writes them in the
order of the table's declaration.

Why this is sound: the derived table's columns are read by name only. The query around
it qualifies every column (no unqualified name, no star, no USING or NATURAL join), the
derived table has no column list, and its alias is declared once in the whole query, so
every column qualified with that alias reads this table. Its SELECT is one SELECT (the
branches of a set operation are matched by position), reads none of its own output
names (no unqualified column), and numbers its columns only in a GROUP BY or ORDER BY
ordinal, which is renumbered with them (as ``sort_projections`` does). Permuting the
projections and giving each reference the new name of its expression changes no value
and no row; the names stay ``c0``, ``c1``, ... by position, as ``canonical_aliases`` gave
them.
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._util import (
    is_inside,
    is_simple_subquery,
    remap_ordinals,
    sql_text,
    truthy_args,
    unqualified_columns_in_scope,
)

E = TypeVar("E", bound=exp.Expr)


def sort_derived_columns(expression: E) -> E:
    """Sort each derived table's projections by text and rename the references.

    Example:
        >>> import sqlglot
        >>> sql = ("SELECT t0.c1 FROM (SELECT t1.b AS c0, t1.a AS c1 FROM t AS t1 "
        ...        "ORDER BY 2 LIMIT 3) AS t0")
        >>> sort_derived_columns(sqlglot.parse_one(sql)).sql()
        'SELECT t0.c0 FROM (SELECT t1.a AS c0, t1.b AS c1 FROM t AS t1 ORDER BY 1 LIMIT 3) AS t0'
    """
    declared: dict[str, int] = {}
    for source in expression.find_all(exp.Table, exp.Subquery):
        if source.alias:
            declared[source.alias] = declared.get(source.alias, 0) + 1
    for subquery in list(expression.find_all(exp.Subquery)):
        outer = subquery.parent.parent if subquery.parent is not None else None
        if not isinstance(subquery.parent, (exp.From, exp.Join)) or not isinstance(
            outer, exp.Select
        ):
            continue
        if not subquery.alias or declared.get(subquery.alias) != 1:
            continue
        if not _by_name_only(outer, subquery):
            continue
        _sort(outer, subquery)
    return expression


def _by_name_only(outer: exp.Select, subquery: exp.Subquery) -> bool:
    """Whether ``outer`` reads ``subquery``'s columns by qualified name only."""
    if not is_simple_subquery(subquery) or subquery.args["alias"].columns:
        return False
    if unqualified_columns_in_scope(outer) or any(
        join.args.get("using") or join.args.get("method") for join in outer.args.get("joins") or []
    ):
        return False
    return not any(  # a star reads every column, in order (COUNT(*) reads none)
        isinstance(p.unalias(), exp.Star)
        or (isinstance(p.unalias(), exp.Column) and isinstance(p.unalias().this, exp.Star))
        for p in outer.expressions
    )


def _sort(outer: exp.Select, subquery: exp.Subquery) -> None:
    body = subquery.this
    if not isinstance(body, exp.Select) or unqualified_columns_in_scope(body):
        return
    distinct = body.args.get("distinct")
    if distinct is not None and distinct.args.get("on"):
        return
    projections = list(body.expressions)
    if not projections or not all(isinstance(p, exp.Alias) for p in projections):
        return
    names = [p.alias for p in projections]
    if len(set(names)) != len(names):
        return
    order = sorted(range(len(projections)), key=lambda i: sql_text(projections[i].this))
    if order == list(range(len(projections))):
        return
    renamed = {names[old]: names[new] for new, old in enumerate(order)}
    references = [
        column
        for column in outer.find_all(exp.Column)
        if column.table == subquery.alias and not is_inside(column, subquery)
    ]
    group = body.args.get("group")
    if group is not None and truthy_args(group) != {"expressions"}:
        return  # GROUP BY ALL, ROLLUP, ...
    if not remap_ordinals(body, order):
        return
    body.set(
        "expressions",
        [exp.alias_(projections[old].this, names[new]) for new, old in enumerate(order)],
    )
    for column in references:
        column.set("this", exp.to_identifier(renamed[column.name]))
