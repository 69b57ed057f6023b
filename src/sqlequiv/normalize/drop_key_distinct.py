"""Drop DISTINCT when the projections include a key of the only table read.

``SELECT DISTINCT customer_id, name FROM customers`` returns the same rows as
``SELECT customer_id, name FROM customers``.

Why this is sound: the rows of a single table are distinct on each declared
key (a primary key, or a UNIQUE key whose columns are all NOT NULL; UNIQUE
allows repeated NULLs), and projecting every key column keeps them distinct,
so DISTINCT removes nothing. This holds on every database that satisfies the
schema's constraints, which is what a proof is relative to. Only a SELECT that
reads one base table (no join, no GROUP BY, no aggregate or window) is
considered, and the key columns must be projected as bare columns.
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._keys import only_table
from sqlequiv.normalize._util import contains, truthy_args
from sqlequiv.schema.model import Schema

E = TypeVar("E", bound=exp.Expr)

_ALLOWED = frozenset({"expressions", "from_", "where", "distinct", "order", "limit", "offset"})


def drop_key_distinct(expression: E, *, schema: Schema) -> E:
    """Remove DISTINCT from single-table SELECTs that project a whole key.

    Example:
        >>> import sqlglot
        >>> from sqlglot import exp
        >>> from sqlequiv.schema.model import Column, Schema, Table
        >>> t = Table("t", (Column("id", exp.DataType.build("INT"), nullable=False),
        ...                 Column("a", exp.DataType.build("INT"))), primary_key=("id",))
        >>> e = sqlglot.parse_one("SELECT DISTINCT t.a, t.id FROM t AS t")
        >>> drop_key_distinct(e, schema=Schema((t,))).sql()
        'SELECT t.a, t.id FROM t AS t'
    """
    for select in list(expression.find_all(exp.Select)):
        distinct = select.args.get("distinct")
        if distinct is None or truthy_args(distinct) or truthy_args(select) - _ALLOWED:
            continue
        source = only_table(select, schema)
        if source is None:
            continue
        if any(contains(p, exp.AggFunc, exp.Window) for p in select.expressions):
            continue
        alias = source.alias_or_name
        projected = {
            p.unalias().name
            for p in select.expressions
            if isinstance(p.unalias(), exp.Column) and p.unalias().table == alias
        }
        if schema.table(source.name).keyed_by(projected):
            select.set("distinct", None)
    return expression


