"""Remove a GROUP BY whose keys hold a key of the one table read: each group is one row.

``SELECT empno, COUNT(mgr), MAX(sal) FROM emp GROUP BY empno, deptno`` (``empno``
the primary key) returns ``SELECT empno, CASE WHEN mgr IS NOT NULL THEN 1 ELSE 0 END,
sal FROM emp``. Calcite's AggregateRemoveRule writes the second.

Why this is sound: no two rows of the table agree on a declared key (a primary
key, or a UNIQUE key of NOT NULL columns), so grouping by every column of one
puts each row that the WHERE keeps in a group of its own, and the result has one
row per such row, as without the GROUP BY. Over one row, each aggregate is a
function of that row:

- ``COUNT(*)`` is 1; ``COUNT(x)`` and ``COUNT(DISTINCT x)`` are 1 when ``x`` is
  not NULL and 0 otherwise (1 outright for a NOT NULL column);
- ``MIN``, ``MAX``, ``BIT_AND``, ``BIT_OR``, ``BOOL_AND``, ``BOOL_OR`` of ``x``, with
  or without DISTINCT, are ``x`` (NULL when ``x`` is), of ``x``'s own type;
- ``SUM(x)`` is ``x`` for a number ``x``, but of a wider type (DuckDB sums
  integers into a HUGEINT).

A COUNT or SUM is therefore only replaced where it is a whole output column: an
output compares by value, whereas ``SUM(x) + 1`` computed in ``x``'s narrower type
could overflow where the wide one does not. If any aggregate is elsewhere, or is
another aggregate (AVG's value is a DOUBLE, a FILTER or an ORDER BY changes it),
or the query has HAVING, windows or a QUALIFY, the query is left alone.
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._aggregates import aggregates, idempotent_argument
from sqlequiv.normalize._keys import not_null_column, only_table
from sqlequiv.normalize._util import own_nodes, truthy_args
from sqlequiv.schema.model import Schema, Table

E = TypeVar("E", bound=exp.Expr)

_NUMBERS = frozenset(exp.DataType.NUMERIC_TYPES)


def single_row_groups(expression: E, *, schema: Schema) -> E:
    """Replace the aggregates of a GROUP BY by a key with their value over one row.

    Example:
        >>> import sqlglot
        >>> from sqlglot import exp
        >>> from sqlequiv.schema.model import Column, Schema, Table
        >>> t = Table("t", (Column("id", exp.DataType.build("INT"), nullable=False),
        ...                 Column("a", exp.DataType.build("INT"))), primary_key=("id",))
        >>> e = sqlglot.parse_one("SELECT t.id, MAX(t.a), COUNT(t.a) FROM t AS t GROUP BY t.id")
        >>> single_row_groups(e, schema=Schema((t,))).sql()
        'SELECT t.id, t.a, CASE WHEN NOT t.a IS NULL THEN 1 ELSE 0 END FROM t AS t'
    """
    for select in list(expression.find_all(exp.Select)):
        group = select.args.get("group")
        if group is None or truthy_args(group) != {"expressions"}:
            continue
        if truthy_args(select) & {"having", "qualify", "windows", "distinct"}:
            continue
        source = only_table(select, schema)
        if source is None or own_nodes(select, exp.Window):
            continue
        alias = source.alias_or_name
        keys = {
            key.name
            for key in group.expressions
            if isinstance(key, exp.Column) and key.table == alias and not key.args.get("db")
        }
        table = schema.table(source.name)
        if not table.keyed_by(keys):
            continue
        replacements = _replacements(select, table, alias)
        if replacements is None:
            continue
        for aggregate, value in replacements:
            aggregate.replace(value)
        select.set("group", None)
    return expression


def _replacements(
    select: exp.Select, table: Table, alias: str
) -> list[tuple[exp.Expr, exp.Expr]] | None:
    whole = {id(p.unalias()) for p in select.expressions}
    calls = aggregates(select)
    if calls is None:
        return None
    found: list[tuple[exp.Expr, exp.Expr]] = []
    for aggregate in calls:
        value = _over_one_row(aggregate, table, alias, id(aggregate) in whole)
        if value is None:
            return None
        found.append((aggregate, value))
    return found


def _over_one_row(
    aggregate: exp.Func, table: Table, alias: str, whole: bool
) -> exp.Expr | None:
    same = idempotent_argument(aggregate)
    if same is not None:
        return same.copy()
    argument = aggregate.this
    if isinstance(argument, exp.Distinct):
        if len(argument.expressions) != 1:
            return None
        argument = argument.expressions[0]
    if not isinstance(argument, exp.Expr) or aggregate.expressions:
        return None
    if not whole:
        return None
    if isinstance(aggregate, exp.Count):
        if isinstance(argument, exp.Star) or _not_null(argument, table, alias):
            return exp.Literal.number(1)
        return exp.Case(
            ifs=[exp.If(this=_is_not_null(argument), true=exp.Literal.number(1))],
            default=exp.Literal.number(0),
        )
    numeric = argument.type is not None and argument.type.this in _NUMBERS
    if isinstance(aggregate, exp.Sum) and numeric:
        return argument.copy()
    return None


def _not_null(argument: exp.Expr, table: Table, alias: str) -> bool:
    if not isinstance(argument, exp.Column) or argument.table != alias:
        return False
    return argument.name in table.column_names and not_null_column(table, argument.name)


def _is_not_null(argument: exp.Expr) -> exp.Expr:
    return exp.Not(this=exp.Is(this=argument.copy(), expression=exp.Null()))
