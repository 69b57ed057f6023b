"""Drop the DISTINCTs and the GROUP BY that a query over at most one row does not need.

``SELECT s.x FROM (SELECT t.x FROM t LIMIT 1) AS s GROUP BY s.x`` returns the same rows
as ``SELECT s.x FROM (SELECT t.x FROM t LIMIT 1) AS s``, and ``SUM(DISTINCT s.x) ...
GROUP BY s.x`` over it is ``SUM(s.x) ... GROUP BY s.x``. Spark's optimizer writes the
second of each (RemoveRedundantAggregates, the DISTINCT of an aggregate over one row).

Why this is sound. The query's FROM is one derived table (no join, no LATERAL) that
returns at most one row: its body has ``LIMIT 0`` or ``LIMIT 1`` (``FETCH FIRST 1 ROW
ONLY``), or aggregates without GROUP BY. So the query reads at most one row, its WHERE
keeps at most that one, and:

- every group has at most one row, and a bag of at most one row has no duplicate, so the
  DISTINCT of an aggregate (of one argument) removes nothing;
- a GROUP BY, in a query that has no aggregate, HAVING, window or QUALIFY, makes one
  group of the one row, whose output is computed from that row, or no group when no row
  is read: without the GROUP BY, the query returns one output per row read, the same;
- a SELECT DISTINCT returns at most one row (one per row read, one group at most, or the
  one row of an aggregate without GROUP BY), and one row has no duplicate.

Which row a ``LIMIT 1`` without ORDER BY keeps is the engine's choice; the rewrite leaves
everything up to that choice as it is, so both queries compute their row from whichever
row is kept.
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._aggregates import aggregates
from sqlequiv.normalize._util import limit_rows, own_nodes, truthy_args

E = TypeVar("E", bound=exp.Expr)


def one_row_sources(expression: E) -> E:
    """Remove the DISTINCTs and the plain GROUP BY of queries over at most one row.

    Example:
        >>> import sqlglot
        >>> sql = ("SELECT SUM(DISTINCT s.x) FROM (SELECT t.x AS x FROM t AS t LIMIT 1) AS s "
        ...        "GROUP BY s.x")
        >>> one_row_sources(sqlglot.parse_one(sql)).sql()
        'SELECT SUM(s.x) FROM (SELECT t.x AS x FROM t AS t LIMIT 1) AS s GROUP BY s.x'
    """
    for select in list(expression.find_all(exp.Select)):
        if _over_one_row(select):
            _simplify(select)
    return expression


def _over_one_row(select: exp.Select) -> bool:
    """Whether ``select`` reads one derived table that returns at most one row."""
    from_ = select.args.get("from_")
    if from_ is None or truthy_args(select) & {"joins", "laterals", "pivots"}:
        return False
    source = from_.this
    if not isinstance(source, exp.Subquery) or truthy_args(source) - {"this", "alias"}:
        return False
    body = source.this
    rows = limit_rows(body)
    if rows is not None and rows <= 1:
        return True
    if not isinstance(body, exp.Select) or truthy_args(body) & {"group", "offset"}:
        return False  # an OFFSET could skip the aggregate's one row
    found = aggregates(body)
    return bool(found) and not own_nodes(body, exp.Window)


def _simplify(select: exp.Select) -> None:
    found = aggregates(select)
    if found is None:
        return  # an unknown function may aggregate
    for aggregate in found:
        distinct = aggregate.this if isinstance(aggregate, exp.AggFunc) else None
        if (
            isinstance(distinct, exp.Distinct)
            and len(distinct.expressions) == 1
            and not truthy_args(distinct) - {"expressions"}
        ):
            distinct.replace(distinct.expressions[0])
    distinct_rows = select.args.get("distinct")
    if isinstance(distinct_rows, exp.Distinct) and not distinct_rows.args.get("on"):
        select.set("distinct", None)
    group = select.args.get("group")
    if group is None or truthy_args(group) != {"expressions"}:
        return
    if found or truthy_args(select) & {"having", "qualify", "windows"}:
        return
    if own_nodes(select, exp.Window):
        return
    select.set("group", None)
