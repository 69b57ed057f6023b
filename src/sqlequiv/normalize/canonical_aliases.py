"""Give every table alias, CTE name and internal column alias a canonical name.

- Table aliases: the sources of a SELECT are named ``t<k>``, ``t<k+1>``, ... in
  FROM order, where ``k`` counts the sources of all enclosing SELECTs. A
  nested query therefore never reuses a name it can see (no capture of a
  correlated reference), while sibling subqueries get the same names whatever
  order they appear in.
- CTE names: ``cte0``, ``cte1``, ... in definition order (a different prefix is
  chosen if a table of the query already has such a name).
- Output columns of derived tables and CTEs: ``c0``, ``c1``, ... by position,
  and every reference to them is renamed with them.
- Output aliases of the top-level query and of expression subqueries (IN,
  EXISTS, scalar) are dropped: nothing refers to them by name, and the result
  comparison ignores column names.

Why this is sound: each renaming is a bijection applied to a declaration and
to every reference bound to it (bindings come from sqlglot's scope analysis,
computed before anything changes), so every reference still denotes the same
source or column. The rule does nothing at all if some qualified column has no
binding, or if the query uses a construct whose name resolution it does not
model (LATERAL, UNNEST, PIVOT, table functions, USING/NATURAL joins, nested or
recursive WITH, UNION BY NAME, derived-table column lists, a parenthesized
query with its own ORDER BY or LIMIT), and it leaves a
query's aliases alone when that query still has an unqualified reference to an
output alias.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from sqlglot import exp
from sqlglot.optimizer.scope import Scope

from sqlequiv.normalize._util import (
    all_qualified_columns_bound,
    bind_columns,
    from_items,
    is_simple_source,
    output_names,
    scopes,
    set_operation_leaves,
    truthy_args,
    unqualified_columns_in_scope,
)

E = TypeVar("E", bound=exp.Expr)

_UNSUPPORTED: tuple[type[exp.Expr], ...] = (
    exp.Lateral,
    exp.Unnest,
    exp.Pivot,
    exp.TableFromRows,
    exp.UDTF,
)


class _BailError(Exception):
    """Raised while planning when the query is outside what this rule models."""


def canonical_aliases(expression: E) -> E:
    """Rename table aliases, CTEs and internal column aliases canonically.

    Example:
        >>> import sqlglot
        >>> from sqlglot.optimizer.qualify import qualify
        >>> e = sqlglot.parse_one("SELECT c.a AS x FROM t AS c")
        >>> e = qualify(e, schema={"t": {"a": "int"}}, quote_identifiers=False)
        >>> canonical_aliases(e).sql()
        'SELECT t0.a FROM t AS t0'
    """
    if not isinstance(expression, exp.Query) or not _supported(expression):
        return expression
    all_scopes = scopes(expression)
    if all_scopes is None:
        return expression
    bound = bind_columns(all_scopes)
    if not all_qualified_columns_bound(expression, bound):
        return expression
    try:
        actions = _plan(expression, all_scopes)
    except _BailError:
        return expression
    for action in actions:
        action()
    return expression


def _supported(root: exp.Expr) -> bool:
    with_ = root.args.get("with_")
    for node in root.walk():
        if isinstance(node, _UNSUPPORTED):
            return False
        if isinstance(node, exp.With) and (node is not with_ or node.args.get("recursive")):
            return False
        if isinstance(node, exp.SetOperation) and node.args.get("by_name"):
            return False
        if isinstance(node, exp.TableAlias) and node.args.get("columns"):
            return False
        if isinstance(node, exp.Subquery) and truthy_args(node) - {"this", "alias"}:
            return False  # ``(query) ORDER BY name``: a reference we do not track
        if isinstance(node, exp.Column) and (node.args.get("db") or node.args.get("catalog")):
            return False
        if isinstance(node, exp.Select):
            if truthy_args(node) & {"laterals", "pivots", "connect", "match"}:
                return False
            if not all(is_simple_source(item) for item in from_items(node)):
                return False
            for join in node.args.get("joins") or []:
                if join.args.get("using") or join.args.get("method"):
                    return False
    return True


def _fresh_prefix(preferred: str, taken: set[str], count: int) -> str:
    prefix = preferred
    while any(f"{prefix}{i}" in taken for i in range(count)):
        prefix = "_" + prefix
    return prefix


def _plan(root: exp.Query, all_scopes: list[Scope]) -> list[Callable[[], None]]:
    actions: list[Callable[[], None]] = []
    scope_of = {id(scope.expression): scope for scope in all_scopes}

    # CTE names.
    with_ = root.args.get("with_")
    ctes: list[exp.CTE] = list(with_.expressions) if with_ is not None else []
    table_names = {table.name.lower() for table in root.find_all(exp.Table)}
    cte_prefix = _fresh_prefix("cte", table_names, len(ctes))
    cte_names = {id(cte.this): f"{cte_prefix}{i}" for i, cte in enumerate(ctes)}
    cte_refs = 0
    for scope in all_scopes:
        for node, source in scope.selected_sources.values():
            if isinstance(source, Scope) and source.is_cte:
                new_name = cte_names.get(id(source.expression))
                if new_name is None or not isinstance(node, exp.Table):
                    raise _BailError
                actions.append(_setter(node, "this", new_name))
                cte_refs += 1
    old_cte_names = {cte.alias_or_name.lower() for cte in ctes}
    if sum(1 for t in root.find_all(exp.Table) if t.name.lower() in old_cte_names) != cte_refs:
        raise _BailError  # a reference the scope analysis did not resolve
    for cte in ctes:
        alias = cte.args["alias"]
        actions.append(_setter(alias, "this", cte_names[id(cte.this)]))

    # Table aliases.
    for scope in all_scopes:
        select = scope.expression
        if not isinstance(select, exp.Select):
            continue
        base = _enclosing_source_count(select)
        items = from_items(select)
        if len(items) != len(scope.selected_sources):
            raise _BailError
        for index, item in enumerate(items):
            name = item.alias_or_name
            if name not in scope.selected_sources:
                raise _BailError
            new_name = f"t{base + index}"
            actions.append(_alias_setter(item, new_name))
            for column in scope.source_columns(name):
                actions.append(_setter(column, "table", new_name))

    # Output columns of derived tables and CTEs; output aliases elsewhere.
    derived: set[int] = set()
    for scope in all_scopes:
        for name, (_node, source) in scope.selected_sources.items():
            if not isinstance(source, Scope):
                continue
            derived.add(id(source.expression))
            mapping = _column_mapping(source.expression)
            if mapping is None:
                continue
            for column in scope.source_columns(name):
                new_name = mapping.get(column.name)
                if new_name is None:
                    raise _BailError
                actions.append(_setter(column, "this", new_name))
    for cte in ctes:
        derived.add(id(cte.this))
    for query_id in derived:
        derived_scope = scope_of.get(query_id)
        if derived_scope is None:
            raise _BailError
        actions.extend(_rename_outputs(derived_scope.expression))
    for scope in all_scopes:
        query = scope.expression
        if id(query) in derived or _is_branch(query):
            continue
        actions.extend(_drop_outputs(query))
    return actions


def _is_branch(query: exp.Expr) -> bool:
    """A SELECT that is an operand of a set operation (handled with its root)."""
    parent = query.parent
    while isinstance(parent, exp.Subquery) and truthy_args(parent) == {"this"}:
        parent = parent.parent
    return isinstance(parent, exp.SetOperation)


def _enclosing_source_count(select: exp.Select) -> int:
    count = 0
    node = select.parent
    while node is not None and not isinstance(node, exp.CTE):
        if isinstance(node, exp.Select):
            count += len(from_items(node))
        node = node.parent
    return count


def _column_mapping(query: exp.Expr) -> dict[str, str] | None:
    names = output_names(query)
    if names is None or len(set(names)) != len(names) or not all(names):
        return None
    if not _outputs_renamable(query):
        return None
    return {name: f"c{i}" for i, name in enumerate(names)}


def _outputs_renamable(query: exp.Expr) -> bool:
    if isinstance(query, exp.SetOperation) and unqualified_columns_in_scope(query):
        return False
    for leaf in set_operation_leaves(query):
        if not isinstance(leaf, exp.Select) or unqualified_columns_in_scope(leaf):
            return False
    return True


def _rename_outputs(query: exp.Expr) -> list[Callable[[], None]]:
    if _column_mapping(query) is None:
        return []
    actions: list[Callable[[], None]] = []
    for leaf in set_operation_leaves(query):
        assert isinstance(leaf, exp.Select)
        for index, projection in enumerate(leaf.expressions):
            actions.append(_aliaser(projection, f"c{index}"))
    return actions


def _drop_outputs(query: exp.Expr) -> list[Callable[[], None]]:
    if not _outputs_renamable(query):
        return []
    actions: list[Callable[[], None]] = []
    for leaf in set_operation_leaves(query):
        assert isinstance(leaf, exp.Select)
        for projection in leaf.expressions:
            if isinstance(projection, exp.Alias):
                actions.append(_unaliaser(projection))
            elif isinstance(projection, exp.Subquery) and projection.args.get("alias"):
                actions.append(_setter_none(projection, "alias"))
    return actions


def _setter(node: exp.Expr, key: str, name: str) -> Callable[[], None]:
    def apply() -> None:
        node.set(key, exp.to_identifier(name))

    return apply


def _setter_none(node: exp.Expr, key: str) -> Callable[[], None]:
    def apply() -> None:
        node.set(key, None)

    return apply


def _alias_setter(item: exp.Expr, name: str) -> Callable[[], None]:
    def apply() -> None:
        item.set("alias", exp.TableAlias(this=exp.to_identifier(name)))

    return apply


def _aliaser(projection: exp.Expr, name: str) -> Callable[[], None]:
    def apply() -> None:
        if isinstance(projection, exp.Alias):
            projection.set("alias", exp.to_identifier(name))
            return
        if isinstance(projection, exp.Subquery):
            projection.set("alias", exp.TableAlias(this=exp.to_identifier(name)))
            return
        alias = exp.Alias(alias=exp.to_identifier(name))
        projection.replace(alias)
        alias.set("this", projection)

    return apply


def _unaliaser(projection: exp.Alias) -> Callable[[], None]:
    def apply() -> None:
        projection.replace(projection.this)

    return apply
