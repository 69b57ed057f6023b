"""An INTERSECT of two filters of one table on a key, as one filter.

``SELECT code FROM airports WHERE p INTERSECT SELECT code FROM airports WHERE q``
returns the same rows as ``SELECT DISTINCT code FROM airports WHERE p AND q`` when
``code`` is a key of ``airports``.

Why this is sound: INTERSECT returns each distinct row ``r`` (NULLs compared as
equal) that the left side returns for some row ``t1`` (``p(t1)`` TRUE) and the right
side for some row ``t2`` (``q(t2)`` TRUE). Both sides project the same columns of the
same table under the same alias, among them every column of a key (a primary key, or
a UNIQUE key whose columns are all NOT NULL): the key values in ``r`` are not NULL, so
``t1`` and ``t2`` agree on the key and are one row ``t``, with ``p(t)`` and ``q(t)`` TRUE,
that is ``p AND q`` TRUE. Conversely a row for which ``p AND q`` is TRUE is returned by
both sides. DISTINCT keeps the set semantics (``drop_key_distinct`` then removes it).
The conditions are read with the same alias bound to the same row, so correlated
subqueries in them mean what they meant. This holds on every database that satisfies
the schema's constraints. Only INTERSECT (not ALL), with nothing on the set
operation itself (no ORDER BY or LIMIT), of two plain single-table SELECTs (no join,
DISTINCT, GROUP BY, aggregate, window, ORDER BY or LIMIT), whose projections are the
same bare columns in the same order and whose conditions call nothing that varies
between runs, is rewritten.
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._keys import only_table, projected_column
from sqlequiv.normalize._util import contains, distinct_select_sides, truthy_args
from sqlequiv.policy import varies_between_runs
from sqlequiv.schema.model import Schema

E = TypeVar("E", bound=exp.Expr)

_SIDE = frozenset({"expressions", "from_", "where"})


def intersect_same_table(expression: E, *, schema: Schema) -> E:
    """Rewrite INTERSECTs of two key-projecting filters of one table as one filter.

    Example:
        >>> import sqlglot
        >>> from sqlglot import exp
        >>> from sqlequiv.schema.model import Column, Schema, Table
        >>> t = Table("t", (Column("id", exp.DataType.build("INT"), nullable=False),
        ...                 Column("a", exp.DataType.build("INT"))), primary_key=("id",))
        >>> e = sqlglot.parse_one("SELECT t.id FROM t AS t WHERE t.a > 1 "
        ...                       "INTERSECT SELECT t.id FROM t AS t WHERE t.a < 5")
        >>> intersect_same_table(e, schema=Schema((t,))).sql()
        'SELECT DISTINCT t.id FROM t AS t WHERE t.a > 1 AND t.a < 5'
    """
    for node in list(expression.find_all(exp.Intersect)):
        merged = _merged(node, schema)
        if merged is None:
            continue
        if node is expression:
            return merged  # type: ignore[return-value]
        node.replace(merged)
    return expression


def _merged(node: exp.Intersect, schema: Schema) -> exp.Select | None:
    sides = distinct_select_sides(node)
    if sides is None:
        return None
    left, right = sides
    if truthy_args(left) - _SIDE or truthy_args(right) - _SIDE:
        return None
    source, other = only_table(left, schema), only_table(right, schema)
    if source is None or other is None or source.name != other.name:
        return None
    alias = source.alias_or_name
    if other.alias_or_name != alias:
        return None
    columns = [projected_column(p, alias) for p in left.expressions]
    if None in columns or columns != [projected_column(p, alias) for p in right.expressions]:
        return None
    if not schema.table(source.name).keyed_by(columns):
        return None
    conditions = [s.args["where"].this for s in (left, right) if s.args.get("where")]
    if any(varies_between_runs(c) or contains(c, exp.AggFunc, exp.Window) for c in conditions):
        return None
    merged = left.copy()
    merged.set("distinct", exp.Distinct())
    if conditions:
        # (sqlglot parenthesizes an OR operand of the AND.)
        where = exp.and_(*(c.copy() for c in conditions), copy=False)
        merged.set("where", exp.Where(this=where))
    return merged


