"""What the rules that lift aggregated derived tables share: a derived table read as a
grouping of one table (a *side*), a keyed table kept as it is, and a side's expressions
read under the side's own name.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlglot import exp

from sqlequiv.normalize._aggregates import EXACT_NUMBERS, IDEMPOTENT, aggregates
from sqlequiv.normalize._keys import schema_table
from sqlequiv.normalize._util import (
    is_simple_table,
    own_columns,
    plain_group,
    sql_text,
    truthy_args,
)
from sqlequiv.schema.model import Schema


@dataclass
class Side:
    """A derived table of the join, read as a grouping of one table."""

    alias: str
    body: exp.Select
    keys: dict[str, exp.Expr]  # output name -> key expression
    aggregates: dict[str, exp.Expr]  # output name -> aggregate call
    counts_rows: set[str]  # output names that are COUNT(*)
    liftable: bool = True  # False for a table of the schema, which can only be kept

    @property
    def key_only(self) -> bool:
        """Whether the side's rows are distinct on what it projects: no aggregate, and (for
        a derived table) every GROUP BY key projected. Only such a side may be kept."""
        if self.aggregates:
            return False
        if not self.liftable:
            return True  # a keyed table of the schema
        grouped = {key.sql() for key in plain_group(self.body) or []}
        return grouped <= {key.sql() for key in self.keys.values()}


def grouped_side(source: exp.Expr, root: exp.Expr) -> Side | None:
    if not isinstance(source, exp.Subquery) or truthy_args(source) != {"this", "alias"}:
        return None
    body, alias = source.this, source.alias
    if not isinstance(body, exp.Select) or not alias:
        return None
    if truthy_args(body) - {"expressions", "from_", "where", "group"}:
        return None
    keys_list, body_from = plain_group(body), body.args.get("from_")
    if keys_list is None or body_from is None or truthy_args(body_from) != {"this"}:
        return None
    if not is_simple_table(body_from.this):
        return None
    if any(isinstance(n, exp.Query) for n in body.walk() if n is not body):
        return None
    if sum(1 for n in root.find_all(exp.Table, exp.Subquery) if n.alias_or_name == alias) != 1:
        return None
    key_texts = {sql_text(k) for k in keys_list}
    keys: dict[str, exp.Expr] = {}
    calls: dict[str, exp.Expr] = {}
    rows: set[str] = set()
    for projection in body.expressions:
        name, value = projection.alias_or_name, projection.unalias()
        if not name or name in keys or name in calls:
            return None
        if sql_text(value) in key_texts:
            keys[name] = value
        elif isinstance(projection, exp.Alias) and liftable(value):
            calls[name] = value
            if isinstance(value, exp.Count) and isinstance(value.this, exp.Star):
                rows.add(name)
        else:
            return None
    if calls and aggregates(body) is None:
        return None
    return Side(alias, body, keys, calls, rows)


def kept_table(source: exp.Expr, select: exp.Select, schema: Schema) -> Side | None:
    """A plain table of the schema with a key, as a kept side: its rows are distinct, and
    it groups by its key and every column of it the query reads."""
    table = schema_table(source, select, schema)
    if table is None or not table.distinct_keys:
        return None
    alias = source.alias_or_name
    read = [c.name for c in own_columns(select, source) if c.table == alias]
    names = list(dict.fromkeys([*table.distinct_keys[0], *read]))
    if any(n not in table.column_names for n in names):
        return None
    keys: dict[str, exp.Expr] = {n: exp.column(n, table=alias) for n in names}
    return Side(alias, exp.Select(), keys, {}, set(), liftable=False)


def liftable(value: exp.Expr) -> bool:
    if isinstance(value, exp.Count):
        return not value.expressions and not isinstance(value.this, exp.Distinct)
    if isinstance(value, (exp.Sum, *IDEMPOTENT)) and not value.expressions:
        argument = value.this
        if isinstance(argument, exp.Distinct) or not isinstance(argument, exp.Expr):
            return False
        if isinstance(value, exp.Sum):
            return argument.type is not None and argument.type.this in EXACT_NUMBERS
        return True
    return False


def lifted_call(side: Side, name: str) -> exp.Expr:
    return renamed(side.aggregates[name], side.alias)


def renamed(node: exp.Expr, alias: str) -> exp.Expr:
    """``node`` (of a side's body) reading the body's table under the side's alias."""
    copy = node.copy()
    for column in copy.find_all(exp.Column):
        column.set("table", exp.to_identifier(alias))
    if isinstance(copy, exp.Column):
        return copy
    return exp.Paren(this=copy) if isinstance(copy, exp.Binary) else copy
