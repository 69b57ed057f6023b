"""Calcite's ``SINGLE_VALUE`` aggregate, read as a scalar subquery, as the plain scalar subquery.

Calcite decorrelates ``(SELECT x FROM s WHERE p)`` into a one-row derived table
``(SELECT SINGLE_VALUE(x) FROM s WHERE p)``, which the guard translates to
``CASE WHEN COUNT(x IS NULL) > 1 THEN ERROR('...') ELSE MIN(x) END``, and
``scalar_derived_tables`` reads back as a scalar subquery. This rule writes
``(SELECT CASE WHEN COUNT(...) > 1 THEN ERROR('...') ELSE MIN(x) END FROM s WHERE p)``
as ``(SELECT x FROM s WHERE p)``.

Why this is sound. Both are scalar subqueries over the same rows of ``s`` (the
aggregate one has no GROUP BY, HAVING, DISTINCT, LIMIT or OFFSET). Over no row the
aggregate query returns one row in which ``COUNT`` is 0 and ``MIN(x)`` is NULL, and the
plain one returns no row, which a scalar subquery reads as NULL. Over one row both are
that row's ``x``. Over two or more both raise an error (the count is that of the rows:
``COUNT(*)``, or ``COUNT`` of an ``IS NULL`` test, never NULL). Only a scalar subquery is
rewritten: under IN, EXISTS, ANY/ALL or in a FROM, the plain query would return its rows
where the aggregate one fails. ``x`` must not itself aggregate nor call a window
function, and must read columns of the subquery's own sources only: SQL reads an
aggregate of the enclosing query's columns at that query's level.
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._util import contains, from_items, read_as_value, truthy_args

E = TypeVar("E", bound=exp.Expr)

#: The clauses the aggregate query may have: others change which rows it reads or returns.
_PLAIN = frozenset({"expressions", "from_", "where", "joins"})

def single_value_subqueries(expression: E) -> E:
    """Write each scalar ``SINGLE_VALUE`` subquery as the plain scalar subquery.

    Example:
        >>> import sqlglot
        >>> sql = ("SELECT (SELECT CASE WHEN COUNT(*) > 1 THEN ERROR('two') "
        ...        "ELSE MIN(s.x) END FROM s AS s WHERE s.y = 1) FROM t AS t")
        >>> single_value_subqueries(sqlglot.parse_one(sql)).sql()
        'SELECT (SELECT s.x FROM s AS s WHERE s.y = 1) FROM t AS t'
    """
    for subquery in list(expression.find_all(exp.Subquery)):
        value = _single_value(subquery)
        if value is not None:
            subquery.this.set("expressions", [value.copy()])
    return expression


def _single_value(subquery: exp.Subquery) -> exp.Expr | None:
    """The ``x`` of a scalar ``(SELECT <SINGLE_VALUE(x)> FROM ...)``, or None."""
    query = subquery.this
    if not isinstance(query, exp.Select) or not read_as_value(subquery):
        return None
    if truthy_args(query) - _PLAIN or not query.args.get("from_"):
        return None
    if len(query.expressions) != 1:
        return None
    case = query.expressions[0].unalias()
    if not isinstance(case, exp.Case) or case.this is not None or len(case.args["ifs"]) != 1:
        return None
    branch = case.args["ifs"][0]
    least = case.args.get("default")
    if not (isinstance(least, exp.Min) and isinstance(least.this, exp.Expr)):
        return None
    value = least.this
    if contains(value, exp.AggFunc) or contains(value, exp.Window):
        return None
    # An aggregate of the enclosing query's columns alone belongs to that query (SQL's
    # rule): x must read a source of its own.
    own = {source.alias_or_name for source in from_items(query)}
    columns = list(value.find_all(exp.Column))
    if not columns or any(column.table not in own for column in columns):
        return None
    if not (_raises(branch.args.get("true")) and _several_rows(branch.this, value)):
        return None
    return value


def _raises(node: object) -> bool:
    """``ERROR('<message>')``: DuckDB's function that raises."""
    return (
        isinstance(node, exp.Anonymous)
        and node.name.lower() == "error"
        and len(node.expressions) == 1
        and isinstance(node.expressions[0], exp.Literal)
        and node.expressions[0].is_string
    )


def _several_rows(test: object, value: exp.Expr) -> bool:
    """``COUNT(*) > 1``, or ``COUNT(<value> IS NULL) > 1``: more than one row."""
    if not isinstance(test, exp.GT) or test.expression != exp.Literal.number(1):
        return False
    count = test.this
    if not isinstance(count, exp.Count) or count.expressions:
        return False
    counted = count.this
    if isinstance(counted, exp.Star):
        return True
    return isinstance(counted, exp.Is) and isinstance(counted.expression, exp.Null) and (
        counted.this == value
    )
