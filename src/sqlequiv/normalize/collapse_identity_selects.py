"""Replace ``SELECT s.a, s.b FROM (query) AS s`` by ``query``.

Why this is sound: an outer SELECT that only lists every output column of its
single derived table, each once and in order, returns exactly that table's
rows. An outer ORDER BY on those columns and an outer LIMIT/OFFSET can move
into the inner query as ``ORDER BY <ordinal>`` when the inner query has none of
its own: sorting by the k-th output column is the same either way, and the
limit then applies to the same sorted rows. Where the names of the outer
columns matter (a nested query), the inner projections take the outer names.

At the top level the outer columns may be a permutation of the inner ones
when column order is ignored, since the two results then differ only in
column order. An inner ORDER BY is never promoted to the top level, where it
would start to matter.
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._util import (
    contains,
    is_simple_subquery,
    output_names,
    truthy_args,
    unqualified_columns_in_scope,
)

E = TypeVar("E", bound=exp.Expr)

_MAX_ROUNDS = 32


def collapse_identity_selects(expression: E, *, ignore_column_order: bool = True) -> E:
    """Remove outer SELECTs that are identity projections of one derived table.

    Example:
        >>> import sqlglot
        >>> sql = "SELECT s.a AS a FROM (SELECT DISTINCT t.a AS a FROM t AS t) AS s"
        >>> collapse_identity_selects(sqlglot.parse_one(sql)).sql()
        'SELECT DISTINCT t.a AS a FROM t AS t'
    """
    result: exp.Expr = expression
    for _ in range(_MAX_ROUNDS):
        for select in list(result.find_all(exp.Select)):
            replacement = _collapse(select, select is result, ignore_column_order)
            if replacement is None:
                continue
            if select is result:
                result = replacement
            else:
                select.replace(replacement)
            break
        else:
            break
    return result  # type: ignore[return-value]


def _collapse(outer: exp.Select, is_root: bool, ignore_column_order: bool) -> exp.Expr | None:
    if truthy_args(outer) - {"expressions", "from_", "order", "limit", "offset", "with_"}:
        return None
    from_ = outer.args.get("from_")
    if from_ is None or truthy_args(from_) != {"this"} or not is_simple_subquery(from_.this):
        return None
    subquery = from_.this
    if not is_simple_subquery(subquery):
        return None
    inner: exp.Expr = subquery.this
    alias = subquery.alias_or_name
    names = output_names(inner)
    if not names or len(set(names)) != len(names) or not all(names):
        return None

    picks: list[int] = []
    for projection in outer.expressions:
        column = projection.unalias() if isinstance(projection, exp.Alias) else projection
        if not isinstance(column, exp.Column) or column.table != alias:
            return None
        if column.name not in names:
            return None
        picks.append(names.index(column.name))
    if sorted(picks) != list(range(len(names))):
        return None

    order = outer.args.get("order")
    limit = outer.args.get("limit")
    offset = outer.args.get("offset")
    has_modifiers = bool(order or limit or offset)
    ordinals: list[tuple[exp.Ordered, int]] = []
    if picks != sorted(picks) and not (
        is_root and ignore_column_order and isinstance(inner, exp.Select) and not has_modifiers
    ):
        return None

    if has_modifiers:
        if truthy_args(inner) & {"order", "limit", "offset", "fetch"}:
            return None
        for modifier in (limit, offset):
            if modifier is not None and contains(modifier, exp.Column, exp.Query):
                return None
        for ordered in order.expressions if order is not None else []:
            key = ordered.this
            if not isinstance(key, exp.Column) or key.table != alias or key.name not in names:
                return None
            ordinals.append((ordered, names.index(key.name) + 1))
    elif is_root and inner.args.get("order"):
        return None

    if not is_root:
        wanted = [projection.alias_or_name for projection in outer.expressions]
        if len(set(wanted)) != len(wanted):
            return None
        if wanted != names:
            if not isinstance(inner, exp.Select) or unqualified_columns_in_scope(inner):
                return None
            for projection, name in zip(inner.expressions, wanted, strict=True):
                value = projection.unalias() if isinstance(projection, exp.Alias) else projection
                projection.replace(exp.Alias(this=value.copy(), alias=exp.to_identifier(name)))

    with_ = outer.args.get("with_")
    if with_ is not None and inner.args.get("with_") is not None:
        return None

    inner.pop()
    if has_modifiers:
        for ordered, ordinal in ordinals:
            ordered.set("this", exp.Literal.number(ordinal))
        inner.set("order", order)
        inner.set("limit", limit)
        inner.set("offset", offset)
    if with_ is not None:
        inner.set("with_", with_)
    return inner
