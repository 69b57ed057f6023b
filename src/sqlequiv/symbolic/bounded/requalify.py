"""Finish qualifying a query that sqlglot left partly unresolved (NATURAL and USING joins).

The guard accepts a query whose columns sqlglot cannot resolve through a
NATURAL or USING join (DuckDB resolves them; sqlglot misses e.g. an
unqualified merged column inside an aggregate in HAVING) and marks it not
``fully_qualified``. Bounded verification needs every column bound, so this
module qualifies the parsed tree again without sqlglot's validation and then
binds the columns left over, the way DuckDB does:

* a name that exactly one FROM item of the enclosing SELECT provides is
  that item's column;
* a name that several items provide is the merged column of a NATURAL/USING
  join when the (qualifier-generated) join conditions equate every pair of
  them: ``COALESCE`` of the items' columns in FROM order, which is DuckDB's
  value for the merged column under inner and outer joins alike;
* anything else raises :class:`Unsupported`.

A name DuckDB itself finds ambiguous makes the query fail to bind, on every
database; no answer about such a query can be wrong.
"""

from __future__ import annotations

from sqlglot import exp
from sqlglot.errors import SqlglotError
from sqlglot.optimizer.annotate_types import annotate_types
from sqlglot.optimizer.qualify import qualify

from sqlequiv.guard import GuardedQuery
from sqlequiv.schema.model import Schema
from sqlequiv.symbolic.terms import Unsupported

__all__ = ["requalify"]


def requalify(query: GuardedQuery, schema: Schema) -> exp.Expr:
    """A fully qualified, type-annotated tree for ``query`` (its own tree if already so).

    Raises:
        Unsupported: a column that cannot be bound as DuckDB would bind it.
    """
    if query.fully_qualified:
        return query.qualified
    mapping: dict[str, object] = dict(schema.mapping())
    try:
        tree = qualify(
            query.parsed.copy(),
            schema=mapping,
            dialect=query.dialect,
            validate_qualify_columns=False,
            quote_identifiers=False,
            identify=False,
        )
    except SqlglotError as err:
        raise Unsupported(f"the query could not be qualified: {err}") from None
    for column in list(tree.find_all(exp.Column)):
        if not column.table and isinstance(column.this, exp.Identifier):
            _bind(column, schema)
    try:
        return annotate_types(tree, schema=mapping, dialect=query.dialect)
    except SqlglotError as err:
        raise Unsupported(f"the query could not be typed: {err}") from None


def _bind(column: exp.Column, schema: Schema) -> None:
    name = column.name.lower()
    select = column.find_ancestor(exp.Select)
    while select is not None:
        alias_named = name in {s.alias_or_name.lower() for s in select.expressions}
        providers = [alias for alias, names in _items(select, schema) if name in names]
        if alias_named:
            if providers:
                raise Unsupported(f"{name} names both an output column and a source column")
            return  # an output alias: the encoder resolves those itself
        if len(providers) == 1:
            column.set("table", exp.to_identifier(providers[0]))
            return
        if len(providers) > 1:
            if not _merged(select, providers, name):
                raise Unsupported(f"the column {name} is ambiguous")
            parts = [exp.column(name, table=alias) for alias in providers]
            column.replace(exp.Coalesce(this=parts[0], expressions=parts[1:]))
            return
        select = select.parent.find_ancestor(exp.Select) if select.parent else None
    raise Unsupported(f"the column {name} cannot be resolved")


def _items(select: exp.Select, schema: Schema) -> list[tuple[str, set[str]]]:
    """(alias, column names) of the FROM items of ``select``."""
    from_ = select.args.get("from_")
    items = [from_.this] if isinstance(from_, exp.From) else []
    items += [join.this for join in select.args.get("joins") or ()]
    out = []
    for item in items:
        alias = item.alias_or_name.lower()
        columns = item.args.get("alias")
        if isinstance(columns, exp.TableAlias) and columns.columns:
            out.append((alias, {c.name.lower() for c in columns.columns}))
        elif isinstance(item, exp.Table):
            out.append((alias, _table_columns(item, schema)))
        elif isinstance(item, exp.Subquery) and isinstance(item.this, exp.Query):
            out.append((alias, {n.lower() for n in item.this.named_selects}))
        else:
            raise Unsupported(f"{type(item).__name__} in FROM")
    return out


def _table_columns(table: exp.Table, schema: Schema) -> set[str]:
    name = table.name.lower()
    scope: exp.Expr | None = table
    while scope is not None:
        with_ = scope.args.get("with_")
        if isinstance(with_, exp.With):
            for cte in with_.expressions:
                if cte.alias_or_name.lower() == name and isinstance(cte.this, exp.Query):
                    return {n.lower() for n in cte.this.named_selects}
        scope = scope.parent
    if name in schema:
        return set(schema.table(name).column_names)
    raise Unsupported(f"the table {name}")


def _merged(select: exp.Select, providers: list[str], name: str) -> bool:
    """Whether the join conditions equate ``name`` across every pair of ``providers``."""
    linked: set[frozenset[str]] = set()
    for join in select.args.get("joins") or ():
        on = join.args.get("on")
        if on is None:
            continue
        for eq in on.find_all(exp.EQ):
            left, right = eq.this, eq.expression
            if (
                isinstance(left, exp.Column)
                and isinstance(right, exp.Column)
                and left.name.lower() == name == right.name.lower()
            ):
                linked.add(frozenset({left.table.lower(), right.table.lower()}))
    # Each later provider must be linked to an earlier one (a chain of merges).
    return all(
        any(frozenset({earlier, later}) in linked for earlier in providers[:i])
        for i, later in enumerate(providers)
        if i > 0
    )
