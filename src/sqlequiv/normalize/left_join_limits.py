"""Move a query's LIMIT below LEFT JOINs that meet at most one row, onto what they pad.

``SELECT * FROM emp AS e LEFT JOIN dept AS d ON e.deptno = d.deptno ORDER BY e.sal
LIMIT 10`` (``d.deptno`` a key) returns the same rows as ``SELECT * FROM (SELECT ...
FROM emp AS e ORDER BY e.sal LIMIT 10) AS e LEFT JOIN dept AS d ON e.deptno = d.deptno
ORDER BY e.sal``. Calcite's SortJoinTransposeRule and Spark's LimitPushDown write the
limit below the join (and keep it above as well, which this rule then drops).

Why this is sound. Each LEFT JOIN's ON equates every column of a declared key of its
table (a primary key, or a UNIQUE key of NOT NULL columns) with an expression that does
not read that table, between operands of one declared type, in a schema without
collations (a key is unique under its own collation, not the ON's): it meets at most one row
for each row it extends, and pads the row when it meets none. So every row of the FROM's
first source ``L`` makes exactly one row of the join, and the query (which has no WHERE,
GROUP BY, aggregate, window, DISTINCT or subquery, and calls nothing volatile) outputs
one row per row of ``L``, computed from that row alone. Its ORDER BY reads only ``L``'s
columns, so ordering the join's rows is ordering ``L``'s rows by the same keys, with the
same ties, and its first ``n`` rows are the rows made from the first ``n`` rows of ``L``
in that order: the query over ``L``'s own ``ORDER BY ... LIMIT n``, ordered as before.
Without an ORDER BY, both keep the rows made from whichever ``n`` rows of ``L`` the
engine picks. When ``L`` already returns at most ``m <= n`` rows (its own LIMIT), the
query makes at most ``m`` rows and its LIMIT removes none: it is dropped.
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._keys import schema_table
from sqlequiv.normalize._util import (
    conjuncts,
    contains,
    fresh_name,
    limit_rows,
    outer_join_side,
    output_names,
    own_nodes,
    pinned_column,
    truthy_args,
)
from sqlequiv.policy import is_volatile
from sqlequiv.schema.model import Schema

E = TypeVar("E", bound=exp.Expr)

_ALLOWED = frozenset({"expressions", "from_", "joins", "order", "limit"})


def left_join_limits(expression: E, *, schema: Schema) -> E:
    """Move the LIMIT of a query over key-matched LEFT JOINs onto its first source.

    Example:
        >>> import sqlglot
        >>> from sqlglot import exp
        >>> from sqlequiv.schema.model import Column, Schema, Table
        >>> i = exp.DataType.build("INT")
        >>> d = Table("d", (Column("id", i, nullable=False),), primary_key=("id",))
        >>> e = Table("e", (Column("id", i), Column("d", i)))
        >>> q = sqlglot.parse_one("SELECT e.id, x.id FROM e AS e LEFT JOIN d AS x "
        ...                       "ON x.id = e.d ORDER BY e.id LIMIT 3")
        >>> for col in q.find_all(exp.Column):
        ...     col.type = i
        >>> left_join_limits(q, schema=Schema((d, e))).sql()[:85]
        'SELECT e.id, x.id FROM (SELECT e_0.id AS id, e_0.d AS d FROM e AS e_0 ORDER BY e_0.id'
    """
    if any(column.collation for table in schema for column in table.columns):
        return expression
    for select in list(expression.find_all(exp.Select)):
        rows = limit_rows(select)
        if rows is None or not _per_first_row(select, schema):
            continue
        first = select.args["from_"].this
        if isinstance(first, exp.Subquery):
            own = limit_rows(first.this)
            if own is not None and own <= rows:
                select.set("limit", None)
                continue
        pushed = _limited(expression, select, first, schema)
        if pushed is not None:
            first.replace(pushed)
            select.set("limit", None)
    return expression


def _per_first_row(select: exp.Select, schema: Schema) -> bool:
    """Whether ``select`` outputs one row per row of its first source, computed from it,
    and orders by that source's columns only."""
    if truthy_args(select) - _ALLOWED or select.args.get("distinct"):
        return False
    from_ = select.args.get("from_")
    joins = select.args.get("joins") or []
    if from_ is None or not joins or not isinstance(from_.this, (exp.Table, exp.Subquery)):
        return False
    first = from_.this
    alias = first.alias
    if not alias or (isinstance(first, exp.Table) and first.args.get("joins")):
        return False
    if isinstance(first, exp.Table) and schema_table(first, select, schema) is None:
        return False
    if any(not _meets_at_most_one(select, join, schema) for join in joins):
        return False
    outputs = [*select.expressions, *_order_keys(select)]
    for node in outputs:
        if contains(node, exp.Subquery, exp.Window, exp.AggFunc, exp.Star) or is_volatile(node):
            return False
    if own_nodes(select, exp.AggFunc):
        return False
    if own_nodes(select, exp.Window):
        return False
    for key in _order_keys(select):
        if key.is_int or any(column.table != alias for column in key.find_all(exp.Column)):
            return False
    return True


def _order_keys(select: exp.Select) -> list[exp.Expr]:
    order = select.args.get("order")
    if order is None:
        return []
    return [key.this if isinstance(key, exp.Ordered) else key for key in order.expressions]


def _meets_at_most_one(select: exp.Select, join: exp.Join, schema: Schema) -> bool:
    """A LEFT JOIN of a schema table whose ON pins a declared key of it."""
    table = join.this
    on = join.args.get("on")
    if outer_join_side(join) != "LEFT" or truthy_args(join) - {"this", "on", "side", "kind"}:
        return False
    if not isinstance(table, exp.Table) or on is None or table.args.get("joins"):
        return False
    if not table.alias or schema_table(table, select, schema) is None:
        return False
    alias = table.alias
    pinned = {name for name in (pinned_column(p, alias) for p in conjuncts(on)) if name}
    return schema.table(table.name).keyed_by(pinned)


def _limited(
    root: exp.Expr, select: exp.Select, first: exp.Table | exp.Subquery, schema: Schema
) -> exp.Subquery | None:
    """``(SELECT <first's columns> FROM first ORDER BY <select's keys> LIMIT n) AS alias``."""
    alias = first.alias
    inner_alias = fresh_name(root, alias)
    if isinstance(first, exp.Table):
        table = schema.table(first.name)
        columns: list[tuple[str, exp.DataType | None]] = [(c.name, c.type) for c in table.columns]
    else:
        names = output_names(first.this)
        if names is None or len(set(names)) != len(names):
            return None
        types: list[exp.DataType | None] = [p.type for p in first.this.expressions]
        if len(types) != len(names):
            return None
        columns = list(zip(names, types, strict=True))
    source = first.copy()
    source.set("alias", exp.TableAlias(this=exp.to_identifier(inner_alias)))
    projections = []
    for name, datatype in columns:
        column = exp.column(name, table=inner_alias)
        if datatype is not None:
            column.type = datatype
        projections.append(exp.alias_(column, name))
    body = exp.Select(expressions=projections, from_=exp.From(this=source))
    order = select.args.get("order")
    if order is not None:
        inner_order = order.copy()
        for column in inner_order.find_all(exp.Column):
            column.set("table", exp.to_identifier(inner_alias))
        body.set("order", inner_order)
    body.set("limit", select.args["limit"].copy())
    return exp.Subquery(this=body, alias=exp.TableAlias(this=exp.to_identifier(alias)))
