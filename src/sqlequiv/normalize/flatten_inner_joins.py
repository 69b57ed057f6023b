"""Turn inner/cross joins into a comma list of sources and move ON into WHERE.

Why this is sound: with only inner and cross joins, ``A JOIN B ON p JOIN C ON
q WHERE w`` is the cross product ``A x B x C`` filtered by ``p AND q AND w``:
an inner join's ON keeps exactly the combined rows on which it is TRUE, which
is what a WHERE conjunct does, and filters commute. The rewrite is only made
when *every* join of the FROM clause is inner or cross over plain tables or
derived tables: an outer, semi, anti, lateral, USING or NATURAL join anywhere
in the clause leaves it untouched (an ON of an outer join is not a filter).
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._util import and_all, is_inner_join, is_simple_source, set_where

E = TypeVar("E", bound=exp.Expr)


def flatten_inner_joins(expression: E) -> E:
    """Rewrite every all-inner FROM clause as ``FROM a, b, ... WHERE on_conditions``.

    Example:
        >>> import sqlglot
        >>> sql = "SELECT a.x FROM a AS a JOIN b AS b ON a.x = b.x WHERE a.y > 1"
        >>> flatten_inner_joins(sqlglot.parse_one(sql)).sql()
        'SELECT a.x FROM a AS a, b AS b WHERE a.y > 1 AND a.x = b.x'
    """
    for select in list(expression.find_all(exp.Select)):
        joins: list[exp.Join] = list(select.args.get("joins") or [])
        from_ = select.args.get("from_")
        if not joins or from_ is None or not is_simple_source(from_.this):
            continue
        if select.args.get("laterals") or not all(is_inner_join(join) for join in joins):
            continue
        where = select.args.get("where")
        conditions = [where.this if where is not None else None]
        conditions.extend(join.args.get("on") for join in joins)
        select.set("joins", [exp.Join(this=join.this) for join in joins])
        set_where(select, and_all(conditions))
    return expression
