"""A one-row aggregate in a FROM list as scalar subqueries where its columns are read.

``SELECT e.name FROM employees e, (SELECT AVG(salary) AS s FROM employees) a
WHERE e.salary > a.s`` returns the same rows as ``SELECT e.name FROM employees e
WHERE e.salary > (SELECT AVG(salary) FROM employees)`` (a CTE read once is such a
derived table after ``inline_ctes``).

Why this is sound: a query whose projections are all aggregates (no GROUP BY, no
HAVING, no LIMIT or OFFSET) returns exactly one row, even from no rows. A cross
product with one row keeps every combination of the other sources once and adds
that row's values, so dropping the derived table and reading each of its columns as
the scalar subquery that computes it gives the same rows. Only a derived table that
reads nothing outside itself (no correlation, no lateral join) and calls nothing that
varies between runs is rewritten, in a FROM clause that is a comma list of plain
sources (as ``flatten_inner_joins`` leaves an all-inner one) with another source
besides it; every reference to it must be a column it projects, and its alias must
not be bound again inside the query (where a reference would mean another source).

The same holds for such a derived table joined ``LEFT JOIN ... ON TRUE`` (Calcite's
decorrelation of a scalar subquery): every row on the left meets the one row, so the
LEFT JOIN pads nothing and is that cross product. There, and for a cross join among
LEFT JOINs, the other joins may be inner or LEFT joins (which keep every row before
them, so the one row's values stay what they were); a RIGHT or FULL join would pad the
derived table's columns with NULL, so none may be in the query.

Inside a parenthesised join tree (``a LEFT JOIN (d LEFT JOIN (SELECT ...) t ON TRUE) ON
a.x < t.v``), such a derived table goes when its columns are read in that join only:
wherever the tree has a row it is a row of the tree without it, with the one row's
values, and where the tree has none (an outer join pads it) nothing reads them.

:func:`constant_rows`: a ``(VALUES (TRUE)) AS t(i)`` in such a place (Calcite's way to
add a constant column) is one row too: its columns are read as their constants.
"""

from __future__ import annotations

from typing import TypeGuard, TypeVar

from sqlglot import exp

from sqlequiv.normalize._util import (
    contains,
    is_flat_inner,
    is_inner_or_left_join,
    is_inside,
    reproducible,
    truthy_args,
)
from sqlequiv.policy import varies_between_runs

E = TypeVar("E", bound=exp.Expr)

_ONE_ROW = frozenset({"expressions", "from_", "where", "joins"})


def scalar_derived_tables(expression: E) -> E:
    """Replace one-row aggregate derived tables of comma FROM lists by scalar subqueries.

    Example:
        >>> import sqlglot
        >>> sql = ("SELECT e.n FROM e AS e, (SELECT AVG(e2.s) AS m FROM e AS e2) AS a "
        ...        "WHERE e.s > a.m")
        >>> scalar_derived_tables(sqlglot.parse_one(sql)).sql()
        'SELECT e.n FROM e AS e WHERE e.s > (SELECT AVG(e2.s) FROM e AS e2)'
    """
    for select in list(expression.find_all(exp.Select)):
        while select.args.get("joins"):
            sources = _neutral_sources(select)
            source = next((s for s in sources if _one_row(s) and _inline(select, s)), None)
            if source is None:
                break
            _drop(select, source)
        for join in select.args.get("joins") or []:
            _from_join_tree(select, join)
    return expression


def _from_join_tree(select: exp.Select, join: exp.Join) -> None:
    """Drop the one-row derived tables cross-joined (or LEFT JOINed ON TRUE) inside the
    parenthesised join tree that ``join`` brings in, when their columns are read in that
    join only: where the tree's rows are, each is a row of the tree without them, with
    their values."""
    tree = join.this
    if not isinstance(tree, exp.Subquery) or truthy_args(tree) != {"this"}:
        return
    table = tree.this
    if not isinstance(table, exp.Table) or not table.args.get("joins"):
        return
    joins = [join, *table.args["joins"]]
    if not all(is_inner_or_left_join(j) for j in joins):
        return
    for inner in list(table.args["joins"]):
        source = inner.this
        if not (_cross(inner) and _one_row(source)):
            continue
        alias = source.alias_or_name
        reads = [c for c in select.find_all(exp.Column) if c.table == alias]
        if not all(is_inside(c, join) for c in reads) or not _inline(select, source):
            continue
        table.set("joins", [j for j in table.args["joins"] if j is not inner] or None)
    if not table.args.get("joins"):
        tree.replace(table)


def constant_rows(expression: E) -> E:
    """Read the columns of a one-row ``VALUES`` of constants as those constants.

    Example:
        >>> import sqlglot
        >>> sql = "SELECT s.a, v.i FROM s AS s, (VALUES (TRUE)) AS v(i) GROUP BY s.a, v.i"
        >>> constant_rows(sqlglot.parse_one(sql)).sql()
        'SELECT s.a, TRUE FROM s AS s GROUP BY s.a, TRUE'
    """
    for select in list(expression.find_all(exp.Select)):
        while select.args.get("joins"):
            for source in _neutral_sources(select):
                values = _constant_row(source)
                if values is not None and _substitute(select, source, values):
                    _drop(select, source)
                    break
            else:
                break
    return expression


def _constant_row(source: exp.Expr) -> dict[str, exp.Expr] | None:
    """The columns of ``(VALUES (c1, ...)) AS t(n1, ...)``, one row of constants, by name."""
    if not isinstance(source, exp.Values) or len(source.expressions) != 1:
        return None
    row = source.expressions[0]
    alias = source.args.get("alias")
    if not isinstance(row, exp.Tuple) or alias is None or not alias.name:
        return None
    names = [column.name for column in alias.columns]
    if len(names) != len(row.expressions) or len(set(names)) != len(names):
        return None
    if not all(isinstance(v, exp.Boolean | exp.Null | exp.Literal) for v in row.expressions):
        return None
    return dict(zip(names, row.expressions, strict=True))


def _substitute(select: exp.Select, source: exp.Expr, values: dict[str, exp.Expr]) -> bool:
    """Replace every read of ``source``'s columns in ``select`` by its constant."""
    alias = source.alias_or_name
    if any(n is not source and n.alias_or_name == alias
           for n in select.find_all(exp.Table, exp.Subquery, exp.Values)):  # fmt: skip
        return False
    reads = [column for column in select.find_all(exp.Column) if column.table == alias]
    if any(column.name not in values or column.args.get("db") for column in reads):
        return False
    for column in reads:
        column.replace(values[column.name].copy())
    return True


def _neutral_sources(select: exp.Select) -> list[exp.Expr]:
    """The sources of ``select`` a one-row derived table may be dropped from: every
    source of a comma list of plain sources; else, when every join is an inner or LEFT
    join, the joined sources that a cross join or ``LEFT JOIN ... ON TRUE`` brings in."""
    joins: list[exp.Join] = select.args["joins"]
    if is_flat_inner(select):
        return [select.args["from_"].this, *(j.this for j in joins)]
    if select.args.get("laterals") or select.args.get("pivots"):
        return []
    if not all(is_inner_or_left_join(join) for join in joins):
        return []
    return [join.this for join in joins if _cross(join)]


def _cross(join: exp.Join) -> bool:
    """Whether ``join`` keeps every combination: no condition, or ``ON TRUE``."""
    on = join.args.get("on")
    return on is None or (isinstance(on, exp.Boolean) and on.this is True)


def _one_row(source: exp.Expr) -> TypeGuard[exp.Subquery]:
    """Whether ``source`` is ``(SELECT aggregates ...) AS alias``: one row, uncorrelated."""
    if not isinstance(source, exp.Subquery) or not isinstance(source.this, exp.Select):
        return False
    inner = source.this
    if truthy_args(inner) - _ONE_ROW or not inner.expressions:
        return False
    for projection in inner.expressions:
        if not isinstance(projection, exp.Alias) or contains(projection, exp.Window):
            return False
        if not contains(projection, exp.AggFunc) or any(
            column.find_ancestor(exp.AggFunc) is None for column in projection.find_all(exp.Column)
        ):
            return False  # a bare column (DuckDB refuses it) or a non-aggregate
    if varies_between_runs(inner):
        return False
    bound = {
        node.alias_or_name for node in inner.find_all(exp.Table, exp.Subquery) if node is not inner
    }
    return all(column.table in bound for column in inner.find_all(exp.Column))


def _inline(select: exp.Select, source: exp.Subquery) -> bool:
    """Replace every column of ``source`` read in ``select`` by its scalar subquery; False
    (nothing changed) if a reference is not one of its columns or its alias is bound
    again."""
    alias = source.alias_or_name
    inner = source.this
    rebound = [
        node
        for node in select.find_all(exp.Table, exp.Subquery)
        if node is not source and node.alias_or_name == alias
    ]
    if rebound:
        return False
    computed = {p.alias: p.this for p in inner.expressions}
    reads = [
        column
        for column in select.find_all(exp.Column)
        if column.table == alias and not is_inside(column, source)
    ]
    if any(column.name not in computed or column.args.get("db") for column in reads):
        return False
    if len(reads) > 1 and not reproducible(inner):
        return False  # each copy runs on its own: an arbitrary pick could differ between them
    for column in reads:
        scalar = inner.copy()
        scalar.set("expressions", [computed[column.name].copy()])
        column.replace(exp.Subquery(this=scalar))
    return True


def _drop(select: exp.Select, source: exp.Expr) -> None:
    """Remove ``source`` from the comma FROM list of ``select`` (it has another source)."""
    joins = list(select.args.get("joins") or [])
    if select.args["from_"].this is source:
        first = joins.pop(0)
        select.set("from_", exp.From(this=first.this))
    else:
        joins = [j for j in joins if j.this is not source]
    select.set("joins", joins or None)
