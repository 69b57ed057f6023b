"""One DuckDB statement that runs a query on many staged databases at once.

Every staged database lives in the same data tables, told apart by a fixture id
(see :mod:`~sqlequiv.execute.duckdb_engine`). A query written against the
schema's tables becomes, for a batch of ids::

    SELECT b.fid, q.* FROM (SELECT UNNEST([1, 2, 3]) AS fid) AS b,
        LATERAL (<the query, each table t read as
                  (SELECT cols FROM data_t WHERE data_t.fid = b.fid)>) AS q

A LATERAL subquery is evaluated once per outer row, so joins, grouping,
DISTINCT, set operations, correlated subqueries, ORDER BY ... LIMIT and
aggregates over no rows all act per database, as they would on each alone;
DuckDB decorrelates it into one plan. A query costs ~0.5 ms a statement on a
tiny table; a batch of 300 databases costs a few milliseconds.

Row order: a LATERAL join keeps no order, so a query with a top-level ORDER BY
carries its sort keys out as extra columns and the outer statement sorts each
database's rows by them (rows tied on every key may come in another order
than alone, which is the engine's freedom either way).

What the rewrite cannot express (a CTE named like a table, a ``*`` left in the
output, ORDER BY keys under DISTINCT that are not output columns) gives None:
the caller then runs the databases one at a time.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import sqlglot
from sqlglot import exp
from sqlglot.errors import SqlglotError

from sqlequiv.results import output_column

#: The outer relation of batch ids and its column, named so no query can shadow them.
BATCH = "__sqlequiv_batch"
_FID = "fid"
_OUT = "__sqlequiv_q"


@dataclass(frozen=True)
class BatchQuery:
    """A query rewritten to run on a batch of staged databases.

    ``sql`` takes the list of fixture ids as its one parameter (``$1``); each
    result row is ``(fid, *columns, *hidden)`` with ``hidden`` sort keys to drop.
    """

    sql: str
    width: int
    hidden: int


def batch_query(
    sql: str, tables: Mapping[str, tuple[str, Sequence[str]]], fid_column: str
) -> BatchQuery | None:
    """Rewrite the DuckDB query ``sql`` to run per staged database, or None.

    ``tables`` maps each schema table (lower case) to its data table and columns.

    Example:
        >>> q = batch_query("SELECT COUNT(*) FROM t", {"t": ("d_t", ["a"])}, "fid")
        >>> q.width, q.hidden
        (1, 0)
        >>> "LATERAL" in q.sql
        True
    """
    try:
        tree = sqlglot.parse_one(sql, read="duckdb")
    except SqlglotError:
        return None
    if not isinstance(tree, exp.Query):
        return None
    ctes = {c.alias_or_name.lower() for c in tree.find_all(exp.CTE)}
    if ctes & set(tables):
        return None
    for table in list(tree.find_all(exp.Table)):
        name = table.this
        if not isinstance(name, exp.Identifier):
            continue
        key = name.name.lower()
        if key in ctes or key not in tables:
            continue
        if table.args.get("db") or table.args.get("catalog"):
            return None
        data, columns = tables[key]
        table.replace(_per_database(table, data, columns, fid_column))
    width = _width(tree)
    if width is None:
        return None
    ordered = _sort_keys(tree)
    if ordered is None:
        return None
    keys, hidden = ordered
    names = [f"__c{i}" for i in range(width)] + [f"__k{i}" for i in range(hidden)]
    alias = exp.TableAlias(
        this=exp.to_identifier(_OUT), columns=[exp.to_identifier(n) for n in names]
    )
    lateral = exp.Lateral(this=exp.Subquery(this=tree), alias=alias)
    ids = exp.select(exp.Unnest(expressions=[exp.Placeholder(this="1")]).as_(_FID)).subquery(BATCH)
    outer = exp.select(
        exp.column(_FID, table=BATCH), *(exp.column(n, table=_OUT) for n in names)
    ).from_(ids)
    outer.append("joins", exp.Join(this=lateral))
    order = [exp.Ordered(this=exp.column(_FID, table=BATCH), nulls_first=False)]
    for index, template in keys:
        column = f"__c{index}" if index >= 0 else f"__k{-index - 1}"
        ordered_key = template.copy()
        ordered_key.set("this", exp.column(column, table=_OUT))
        order.append(ordered_key)
    outer.set("order", exp.Order(expressions=order))
    return BatchQuery(outer.sql("duckdb"), width, hidden)


def _per_database(
    table: exp.Table, data: str, columns: Sequence[str], fid_column: str
) -> exp.Subquery:
    """``(SELECT cols FROM data WHERE data.fid = batch.fid) AS alias``."""
    select = exp.select(*(exp.column(c, quoted=True) for c in columns)).from_(
        exp.Table(this=exp.to_identifier(data, quoted=True))
    )
    select = select.where(
        exp.EQ(
            this=exp.column(fid_column, table=exp.to_identifier(data, quoted=True), quoted=True),
            expression=exp.column(_FID, table=BATCH),
        )
    )
    alias = table.args.get("alias")
    if alias is None:
        alias = exp.TableAlias(this=exp.to_identifier(table.name, quoted=True))
    return exp.Subquery(this=select, alias=alias.copy())


def _width(tree: exp.Query) -> int | None:
    """How many columns the query returns, or None if a ``*`` hides it."""
    select = tree
    while isinstance(select, exp.SetOperation):
        select = select.left
    while isinstance(select, exp.Subquery):
        select = select.this
    if not isinstance(select, exp.Select):
        return None
    if any(
        isinstance(p, exp.Star) or (isinstance(p, exp.Column) and p.is_star) for p in select.selects
    ):
        return None
    return len(select.selects)


def _sort_keys(tree: exp.Query) -> tuple[list[tuple[int, exp.Ordered]], int] | None:
    """The top-level ORDER BY as (output column index, or -1-k for hidden key k; its
    Ordered node), appending hidden key columns to a SELECT; None if not expressible."""
    order = tree.args.get("order")
    if order is None:
        return [], 0
    if isinstance(tree, exp.Select):
        selects = tree.selects
    elif isinstance(tree, exp.SetOperation):
        left = tree.left
        while isinstance(left, exp.SetOperation | exp.Subquery):
            left = left.left if isinstance(left, exp.SetOperation) else left.this
        if not isinstance(left, exp.Select):
            return None
        selects = left.selects
    else:
        return None
    keys: list[tuple[int, exp.Ordered]] = []
    hidden: list[exp.Expr] = []
    for ordered in order.expressions:
        if not isinstance(ordered, exp.Ordered):
            return None
        index = output_column(ordered.this, selects, is_select=isinstance(tree, exp.Select))
        if index is None:
            if not isinstance(tree, exp.Select) or tree.args.get("distinct"):
                return None
            hidden.append(ordered.this.copy())
            index = -len(hidden)
        keys.append((index, ordered))
    if hidden:
        assert isinstance(tree, exp.Select)
        tree.set(
            "expressions",
            [*tree.expressions, *(h.as_(f"__sqlequiv_k{i}") for i, h in enumerate(hidden))],
        )
    return keys, len(hidden)
