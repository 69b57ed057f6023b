"""What the rules that read the schema's keys share: the one table a SELECT reads, whether
a name there may be a CTE, a projection's bare column, and whether a window's ORDER BY
is a total order over a table's rows.

The rules that read keys import these from here rather than from one another (each
rule is one module that only ``normalize/__init__`` lists).
"""

from __future__ import annotations

from sqlglot import exp

from sqlequiv.normalize._util import from_items, is_inner_join, is_simple_table, truthy_args
from sqlequiv.schema.model import Schema, Table


def only_table(select: exp.Select, schema: Schema) -> exp.Table | None:
    """The one table of ``schema`` that ``select`` reads (its FROM, with no join), or
    None: a derived table, a CTE of that name, or more than one source."""
    from_ = select.args.get("from_")
    if from_ is None or truthy_args(from_) != {"this"}:
        return None
    if select.args.get("joins") or select.args.get("laterals"):
        return None
    source = from_.this
    return source if schema_table(source, select, schema) is not None else None


def schema_table(source: exp.Expr, select: exp.Select, schema: Schema) -> Table | None:
    """The table of ``schema`` that ``source`` (a source of ``select``) reads: a plain,
    unqualified table reference naming a schema table, not a CTE of that name."""
    if not isinstance(source, exp.Table) or not is_simple_table(source) or source.args.get("db"):
        return None
    if source.name not in schema or is_cte_reference(select, source.name):
        return None
    return schema.table(source.name)


def is_cte_reference(select: exp.Select, name: str) -> bool:
    """Whether ``name`` in ``select``'s FROM could denote a CTE rather than the table."""
    node: exp.Expr | None = select
    while node is not None:
        with_ = node.args.get("with_")
        if isinstance(with_, exp.With) and any(
            cte.alias_or_name.lower() == name.lower() for cte in with_.expressions
        ):
            return True
        node = node.parent
    return False


def projected_column(projection: exp.Expr, alias: str) -> str | None:
    """The column name of a bare column of ``alias`` (aliased or not), else None."""
    column = projection.unalias()
    if isinstance(column, exp.Column) and column.table == alias and not column.args.get("db"):
        return column.name
    return None


def total_order_over(window: exp.Window, select: exp.Select, schema: Schema) -> bool:
    """Whether ``window``'s ORDER BY puts the rows of ``select`` in one order whatever
    the engine: ``select`` reads one table of ``schema`` (FROM it alone) and the keys
    include, as bare columns of that table, every column of one of its declared keys
    (a primary key, or a UNIQUE key of NOT NULL columns): no two rows tie on them.
    """
    table = only_table(select, schema)
    if table is None:
        return False
    order = window.args.get("order")
    if order is None:
        return False
    alias = table.alias_or_name
    keyed = {
        key.this.name
        for key in order.expressions
        if isinstance(key, exp.Ordered)
        and isinstance(key.this, exp.Column)
        and key.this.table == alias
    }
    return schema.table(table.name).keyed_by(keyed)


def named_once_table(
    source: exp.Expr, select: exp.Select, root: exp.Expr, schema: Schema
) -> Table | None:
    """The schema table ``source`` (a source of ``select``) reads, when it is a plain
    table of the schema (not a CTE of that name) whose alias names no other source
    anywhere in ``root``: a column ``alias.x`` anywhere in the query is then its."""
    table = schema_table(source, select, schema)
    if table is None:
        return None
    alias = source.alias_or_name
    named = [q for q in root.find_all(exp.Table, exp.Subquery) if q.alias_or_name == alias]
    return table if len(named) == 1 else None


def schema_source(node: exp.Expr, alias: str, schema: Schema) -> Table | None:
    """The schema table that ``alias`` names in the nearest SELECT around ``node`` that
    has a source of that name; None if that source is not a plain schema table, or an
    outer join of that SELECT may pad its rows with NULLs."""
    select = node.find_ancestor(exp.Select)
    while select is not None:
        for source in from_items(select):
            if source.alias_or_name == alias:
                table = schema_table(source, select, schema)
                if table is None:
                    return None
                if not all(is_inner_join(j) for j in select.args.get("joins") or []):
                    return None  # an outer join may pad the row with NULLs, NOT NULL or not
                return table
        select = select.find_ancestor(exp.Select)
    return None


def not_null_column(table: Table, column: str) -> bool:
    """Whether ``column`` of ``table`` is declared NOT NULL (or is in its primary key)."""
    return column in table.primary_key or not table.column(column).nullable
