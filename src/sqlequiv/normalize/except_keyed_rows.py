"""An EXCEPT of a table's keyed rows and a join that re-reads them, as NOT EXISTS.

``SELECT id, name FROM customers WHERE plan = 'pro' EXCEPT SELECT c.id, c.name FROM
customers c JOIN orders o ON o.customer_id = c.id`` returns the rows of ``SELECT id,
name FROM customers WHERE plan = 'pro' AND NOT EXISTS (SELECT 1 FROM orders o WHERE
o.customer_id = customers.id)`` when ``id`` is a key of ``customers``: the set
difference text-to-SQL answers write for "customers who never ordered".

Why this is sound: the left side reads one table ``T`` under alias ``a`` and projects
bare columns of it, among them every column of a key (a primary key, or a UNIQUE key
whose columns are all NOT NULL), so its rows are already distinct, one per row of ``T``
that passes its WHERE, and EXCEPT's own DISTINCT changes nothing. The right side is an
inner join of several sources, one of them ``b``, a reference to ``T`` again, and
projects the same columns of ``b`` in the same order. A left row is removed exactly
when some right row equals it (NULLs compared as equal): such a right row carries the
row's key values, which are not NULL, so its ``b`` is the same row of ``T`` as the left
row's ``a``, and then all the projected columns agree. So the left row goes exactly when
the right side has a row with ``b`` bound to ``a``'s row: ``NOT EXISTS`` of the right
side's other sources, its WHERE read with ``b`` replaced by ``a`` (a correlation). When
``b`` is its only source, that is its WHERE read so not being TRUE: ``NOT COALESCE(q,
FALSE)`` (Spark's rewrite of such an EXCEPT).

Only EXCEPT (not ALL), with nothing on the set operation itself (no ORDER BY or
LIMIT), is rewritten; the left side a plain single-table SELECT (no join, DISTINCT,
GROUP BY, aggregate, window, ORDER BY or LIMIT), the right side a comma list of plain
sources with a WHERE and nothing else, no nested query, nothing volatile, and no source
of its own that would capture the alias ``a`` once it reads the left row.
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._keys import is_cte_reference, only_table, projected_column
from sqlequiv.normalize._util import (
    and_all,
    contains,
    distinct_select_sides,
    from_items,
    is_flat_inner,
    is_simple_table,
    source_alias,
    truthy_args,
)
from sqlequiv.policy import varies_between_runs
from sqlequiv.schema.model import Schema

E = TypeVar("E", bound=exp.Expr)

_LEFT = frozenset({"expressions", "from_", "where"})
_RIGHT = frozenset({"expressions", "from_", "joins", "where"})


def except_keyed_rows(expression: E, *, schema: Schema) -> E:
    """Rewrite EXCEPTs of a table's keyed rows and a join re-reading them as NOT EXISTS.

    Example:
        >>> import sqlglot
        >>> from sqlglot import exp
        >>> from sqlequiv.schema.model import Column, Schema, Table
        >>> i = exp.DataType.build("INT")
        >>> t = Table("t", (Column("id", i, nullable=False),), primary_key=("id",))
        >>> u = Table("u", (Column("t_id", i),))
        >>> e = sqlglot.parse_one("SELECT t.id FROM t AS t EXCEPT "
        ...                       "SELECT b.id FROM t AS b, u AS u WHERE u.t_id = b.id")
        >>> except_keyed_rows(e, schema=Schema((t, u))).sql()
        'SELECT t.id FROM t AS t WHERE NOT EXISTS(SELECT 1 FROM u AS u WHERE u.t_id = t.id)'
    """
    for node in list(expression.find_all(exp.Except)):
        rewritten = _anti_join(node, schema)
        if rewritten is None:
            continue
        if node is expression:
            return rewritten  # type: ignore[return-value]
        node.replace(rewritten)
    return expression


def _anti_join(node: exp.Except, schema: Schema) -> exp.Select | None:
    sides = distinct_select_sides(node)
    if sides is None:
        return None
    left, right = sides
    if truthy_args(left) - _LEFT or truthy_args(right) - _RIGHT or not is_flat_inner(right):
        return None
    source = only_table(left, schema)
    if source is None or contains(left, exp.AggFunc, exp.Window):
        return None
    a = source.alias_or_name
    columns = [projected_column(p, a) for p in left.expressions]
    if None in columns:
        return None
    if not schema.table(source.name).keyed_by(columns):
        return None
    first = right.expressions[0].unalias() if right.expressions else None
    if not isinstance(first, exp.Column):
        return None
    b = first.table
    sources = from_items(right)
    aliases = [source_alias(s) for s in sources]
    if len(sources) == 1 and right.args.get("where") is None:
        return None  # every row goes: nothing is left to filter by
    if aliases.count(b) != 1 or (a in aliases and a != b):
        return None  # (another source named a would capture the left row's columns)
    reread = sources[aliases.index(b)]
    if not isinstance(reread, exp.Table) or not is_simple_table(reread):
        return None
    if reread.args.get("db") or reread.name != source.name:
        return None
    if is_cte_reference(right, reread.name):
        return None
    if [projected_column(p, b) for p in right.expressions] != columns:
        return None
    if any(q is not right for q in right.find_all(exp.Query)) or contains(
        right, exp.AggFunc, exp.Window
    ):
        return None
    if varies_between_runs(right):
        return None
    if any(c.table not in aliases for c in right.find_all(exp.Column)):
        return None  # a correlation, which the left side's alias might capture
    return _with_not_exists(left, right, reread, a)


def _with_not_exists(left: exp.Select, right: exp.Select, reread: exp.Table, a: str) -> exp.Select:
    """``left`` filtered by NOT EXISTS of ``right`` without ``reread``, whose columns read
    ``a`` instead."""
    b = source_alias(reread)
    result = left.copy()
    where = left.args.get("where")
    if len(from_items(right)) == 1:
        # No other source: the row goes when the right WHERE holds for it.
        test = right.args["where"].this.copy()
        for column in test.find_all(exp.Column):
            column.set("table", exp.to_identifier(a))
        kept = exp.Not(this=exp.Coalesce(this=test, expressions=[exp.false()]))
        result.set("where", exp.Where(this=and_all([where.this if where else None, kept])))
        return result
    sub = right.copy()
    position = from_items(right).index(reread)
    joins = list(sub.args.get("joins") or [])
    if position == 0:
        sub.set("from_", exp.From(this=joins.pop(0).this))
    else:
        joins.pop(position - 1)
    sub.set("joins", joins or None)
    for column in sub.find_all(exp.Column):
        if column.table == b:
            column.set("table", exp.to_identifier(a))
    sub.set("expressions", [exp.Literal.number(1)])
    anti = exp.Not(this=exp.Exists(this=sub))
    result.set("where", exp.Where(this=and_all([where.this if where else None, anti])))
    return result
