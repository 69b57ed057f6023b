"""Sort the sources of every comma-joined FROM clause canonically.

Why this is sound: a FROM list of inner sources is a cross product, which is
commutative under bag semantics, and every column reference names its source
by alias, so the order of the list does not change any value. (Stars were
expanded by qualification, so no projection depends on it either.) Only
clauses in the shape ``flatten_inner_joins`` produces are touched.

The order is chosen so that it does not depend on the aliases a query
happened to use: sources sort by table name (a derived table by the alias-free
text of its body), then by a signature made of the alias-free text of every
predicate, projection and key that mentions the source, in which the source
itself reads ``_self`` and any other source of the clause reads as its current
colour; colours are refined until stable (the colour refinement of graph
isomorphism tests). Self-joins whose sources stay tied keep their order. Any
order is sound; this one makes equivalent spellings meet more often.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from sqlglot import exp
from sqlglot.optimizer.scope import Scope

from sqlequiv.normalize._util import (
    Binding,
    bind_columns,
    conjuncts,
    from_items,
    is_flat_inner,
    scopes,
    source_alias,
    sql_text,
)
from sqlequiv.normalize.normalize_in import normalize_in
from sqlequiv.normalize.orient_comparisons import orient_comparisons
from sqlequiv.normalize.sort_connectives import sort_connectives

E = TypeVar("E", bound=exp.Expr)

_OTHER = "_x"


def order_sources(expression: E) -> E:
    """Reorder comma-joined sources by table name, then by alias-free signature.

    Example:
        >>> import sqlglot
        >>> sql = "SELECT o.a, c.b FROM orders AS o, customers AS c WHERE o.k = c.k"
        >>> order_sources(sqlglot.parse_one(sql)).sql()
        'SELECT o.a, c.b FROM customers AS c, orders AS o WHERE o.k = c.k'
    """
    all_scopes = scopes(expression)
    if all_scopes is None:
        return expression
    bound = bind_columns(all_scopes)
    # A CTE reference sorts by the CTE's body, not by the name the query chose.
    cte_bodies: dict[int, exp.Expr] = {}
    for scope in all_scopes:
        for node, source in scope.selected_sources.values():
            if isinstance(source, Scope) and source.is_cte:
                cte_bodies[id(node)] = source.expression
    for scope in all_scopes:
        select = scope.expression
        if not isinstance(select, exp.Select) or not is_flat_inner(select):
            continue
        items = from_items(select)
        names = [source_alias(item) for item in items]
        if len(items) < 2 or len(set(names)) != len(names):
            continue
        if _reads_siblings(select, items, bound):
            continue  # a LATERAL-like derived table depends on the sources before it
        order = _canonical_order(select, items, names, bound, cte_bodies)
        if order == list(range(len(items))):
            continue
        select.set("from_", exp.From(this=items[order[0]]))
        select.set("joins", [exp.Join(this=items[i]) for i in order[1:]])
    return expression


def _canonical_order(
    select: exp.Select,
    items: list[exp.Expr],
    names: list[str],
    bound: dict[int, Binding],
    cte_bodies: dict[int, exp.Expr],
) -> list[int]:
    scope_id = id(select)
    base = [_base_key(item, bound, cte_bodies.get(id(item))) for item in items]
    if len(set(base)) == len(base):
        return sorted(range(len(items)), key=lambda i: base[i])

    parts = _parts(select)
    mentions = [
        {b[1] for c in part.find_all(exp.Column) if (b := bound.get(id(c))) and b[0] == scope_id}
        for part in parts
    ]
    colours = _ranks(base)
    keys: list[tuple[tuple[str, str], tuple[str, ...]]] = [(key, ()) for key in base]
    for _ in range(len(items)):
        keys = []
        for index, name in enumerate(names):
            label = _labeller(scope_id, name, names, colours)
            signature = sorted(
                _blind_text(part, bound, label)
                for part, mentioned in zip(parts, mentions, strict=True)
                if name in mentioned
            )
            keys.append((base[index], tuple(signature)))
        refined = _ranks(keys)
        if len(set(refined)) == len(set(colours)):
            break
        colours = refined
    return sorted(range(len(items)), key=lambda i: keys[i])


def _reads_siblings(select: exp.Select, items: list[exp.Expr], bound: dict[int, Binding]) -> bool:
    return any(
        bound.get(id(column), (0, ""))[0] == id(select)
        for item in items
        if isinstance(item, exp.Subquery)
        for column in item.find_all(exp.Column)
    )


def _labeller(
    scope_id: int, me: str, names: list[str], colours: list[int]
) -> Callable[[Binding], str]:
    """How a column qualifier reads in the signature of source ``me``."""

    def label(binding: Binding) -> str:
        if binding[0] != scope_id:
            return _OTHER
        if binding[1] == me:
            return "_self"
        return f"_c{colours[names.index(binding[1])]}"

    return label


def _ranks(keys: Sequence[Any]) -> list[int]:
    distinct = sorted(set(keys))
    return [distinct.index(key) for key in keys]


def _parts(select: exp.Select) -> list[exp.Expr]:
    """Every expression of ``select`` that may mention a source."""
    parts: list[exp.Expr] = [p.unalias() for p in select.expressions]
    where = select.args.get("where")
    parts.extend(conjuncts(where.this if where is not None else None))
    group = select.args.get("group")
    if group is not None:
        parts.extend(group.expressions)
    having = select.args.get("having")
    parts.extend(conjuncts(having.this if having is not None else None))
    order = select.args.get("order")
    if order is not None:
        parts.extend(order.expressions)
    qualify = select.args.get("qualify")
    parts.extend(conjuncts(qualify.this if qualify is not None else None))
    return parts


def _base_key(
    item: exp.Expr, bound: dict[int, Binding], cte_body: exp.Expr | None
) -> tuple[str, str]:
    if cte_body is not None:
        return ("Q", _blind_text(cte_body, bound, lambda _b: _OTHER))
    if isinstance(item, exp.Table):
        return ("T", ".".join(part.lower() for part in (item.catalog, item.db, item.name) if part))
    return ("Q", _blind_text(item.this, bound, lambda _b: _OTHER))


def _blind_text(node: exp.Expr, bound: dict[int, Binding], label: Callable[[Binding], str]) -> str:
    """The canonical text of ``node`` with every alias replaced by ``label``."""
    copy = node.copy()
    for original, duplicate in zip(list(node.dfs()), list(copy.dfs()), strict=True):
        if isinstance(duplicate, exp.Column) and duplicate.table:
            binding = bound.get(id(original))
            text = label(binding) if binding is not None else _OTHER
            duplicate.set("table", exp.to_identifier(text))
        elif isinstance(duplicate, exp.TableAlias) and duplicate.this is not None:
            duplicate.set("this", exp.to_identifier(_OTHER))
    wrapper = exp.Paren(this=copy)
    sort_connectives(orient_comparisons(normalize_in(wrapper)))
    return sql_text(wrapper.this)
