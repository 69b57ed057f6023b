"""Merge a derived table that computes window functions into a QUALIFY.

``SELECT r.id FROM (SELECT t.id AS id, ROW_NUMBER() OVER (ORDER BY t.v) AS rn FROM t
AS t WHERE t.v > 0) AS r WHERE r.rn <= 3`` becomes ``SELECT _m0.id AS id FROM t AS
_m0 WHERE _m0.v > 0 QUALIFY ROW_NUMBER() OVER (ORDER BY _m0.v) <= 3``: the two ways
of writing "the first rows by a ranking" that text-to-SQL answers use most, brought
to one form (``merge_derived_tables`` leaves windowed derived tables alone).

Why this is sound: the inner query is ``SELECT exprs FROM sources WHERE w`` (no
DISTINCT, GROUP BY, HAVING, ORDER BY, LIMIT, QUALIFY or aggregate outside a window),
so its rows are the combinations of its sources' rows that satisfy ``w``, and each
window in ``exprs`` is computed over exactly those combinations. A query's window
functions are computed over the rows its FROM and WHERE leave, before QUALIFY and
ORDER BY, so in the merged query they see the same rows and give each row the same
values; QUALIFY then keeps the rows the outer WHERE kept, and the outer projections
and ORDER BY read the same values. The outer query reads only the derived table and
has no grouping, aggregate, window, DISTINCT, LIMIT or subquery of its own (each
would see the filtered rows, or be a scope of its own).

A window whose value may depend on how ties are broken (``ROW_NUMBER`` without a
total order) is one value per row inside the derived table; copied into two places
of the merged query it would be computed twice, perhaps with two tie-breaks. Such a
window is merged only when the outer query reads it once; ``RANK``, ``DENSE_RANK``
and a ``ROW_NUMBER`` ordered by a whole key of the one table read (see
:func:`total_order_over`) have one value whatever the engine does, and may be read
any number of times.
"""

from __future__ import annotations

from collections import Counter
from typing import TypeVar

from sqlglot import exp
from sqlglot.optimizer.scope import Scope

from sqlequiv.normalize._keys import total_order_over
from sqlequiv.normalize._util import (
    contains,
    from_items,
    is_flat_inner,
    is_simple_subquery,
    named_projections,
    own_columns,
    rename_sources_apart,
    scopes,
    set_where,
    substitute,
    truthy_args,
)
from sqlequiv.policy import is_volatile
from sqlequiv.schema.model import Schema

E = TypeVar("E", bound=exp.Expr)

_MAX_MERGES = 64

_OUTER_ARGS = frozenset({"expressions", "from_", "where", "order"})
_INNER_ARGS = frozenset({"expressions", "from_", "joins", "where"})
_WINDOW_ARGS = frozenset({"this", "partition_by", "order", "over"})


def merge_ranked_tables(expression: E, *, schema: Schema) -> E:
    """Merge derived tables whose projections compute window functions, innermost first.

    Example:
        >>> import sqlglot
        >>> from sqlequiv.schema.model import Schema
        >>> sql = (
        ...     "SELECT r.a AS a FROM (SELECT t.a AS a, RANK() OVER (ORDER BY t.b) AS k "
        ...     "FROM t AS t) AS r WHERE r.k = 1"
        ... )
        >>> merge_ranked_tables(sqlglot.parse_one(sql), schema=Schema(())).sql()
        'SELECT _m0.a AS a FROM t AS _m0 QUALIFY RANK() OVER (ORDER BY _m0.b) = 1'
    """
    for _ in range(_MAX_MERGES):
        if not _merge_one(expression, schema):
            break
    return expression


def _merge_one(root: exp.Expr, schema: Schema) -> bool:
    all_scopes = scopes(root)
    if all_scopes is None:
        return False
    for scope in all_scopes:
        outer = scope.expression
        if not isinstance(outer, exp.Select) or truthy_args(outer) - _OUTER_ARGS:
            continue
        from_ = outer.args.get("from_")
        if from_ is None or truthy_args(from_) != {"this"}:
            continue
        subquery = from_.this
        if not isinstance(subquery, exp.Subquery) or not is_simple_subquery(subquery):
            continue
        alias = subquery.alias_or_name
        found = scope.selected_sources.get(alias)
        if found is None or not isinstance(found[1], Scope) or found[1].is_cte:
            continue
        if _try_merge(root, scope, found[1], subquery, alias, schema):
            return True
    return False


def _try_merge(
    root: exp.Expr,
    outer_scope: Scope,
    inner_scope: Scope,
    subquery: exp.Subquery,
    alias: str,
    schema: Schema,
) -> bool:
    outer = outer_scope.expression
    inner = subquery.this
    if not isinstance(outer, exp.Select) or not isinstance(inner, exp.Select):
        return False
    if truthy_args(inner) - _INNER_ARGS or not is_flat_inner(inner):
        return False
    own = own_columns(outer, subquery)
    if any(
        contains(part, exp.AggFunc, exp.Window, exp.Query)
        for part in outer.iter_expressions()
        if part is not outer.args["from_"]
    ):
        return False

    projections = named_projections(inner)
    if projections is None:
        return False
    for value in projections.values():
        if contains(value, exp.Query, exp.Star) or is_volatile(value):
            return False
        if not all(_inside_window(agg, value) for agg in value.find_all(exp.AggFunc)):
            return False
        if any(not _plain_window(w) for w in value.find_all(exp.Window)):
            return False
    if not any(contains(v, exp.Window) for v in projections.values()):
        return False  # merge_derived_tables' case

    refs = outer_scope.source_columns(alias)
    ref_ids = {id(column) for column in refs}
    if any(column.table != alias or id(column) not in ref_ids for column in own):
        return False
    reads = Counter(column.name for column in refs)
    for column in refs:
        read = projections.get(column.name)
        if read is None:
            return False
        if isinstance(column.parent, exp.Ordered) and isinstance(read, exp.Literal):
            return False  # a literal ORDER BY key would read as a position
        if reads[column.name] > 1 and not all(
            _one_value(w, inner, schema) for w in read.find_all(exp.Window)
        ):
            return False

    rename_sources_apart(root, inner_scope)
    substitute(refs, projections)

    inner_items = from_items(inner)
    subquery.replace(inner_items[0])
    outer.set("joins", [exp.Join(this=item) for item in inner_items[1:]] or None)
    kept = outer.args.get("where")
    inner_where = inner.args.get("where")
    set_where(outer, inner_where.this if inner_where is not None else None)
    outer.set("qualify", exp.Qualify(this=kept.this) if kept is not None else None)
    return True


def _inside_window(node: exp.Expr, top: exp.Expr) -> bool:
    """Whether ``node`` sits inside a window function of ``top`` (an aggregate over
    a window, not over a group)."""
    parent = node.parent
    while parent is not None and node is not top:
        if isinstance(parent, exp.Window) and node is parent.this:
            return True
        node, parent = parent, parent.parent
    return False


def _plain_window(window: exp.Window) -> bool:
    """``f(...) OVER ([PARTITION BY ...] [ORDER BY ...])``: no frame, no named window."""
    return truthy_args(window) <= _WINDOW_ARGS and isinstance(window.this, exp.Func)


def _one_value(window: exp.Window, inner: exp.Select, schema: Schema) -> bool:
    """Whether ``window`` gives each row one value whatever the tie-breaks: RANK and
    DENSE_RANK, or ROW_NUMBER in a total order of the rows."""
    function = window.this
    if isinstance(function, exp.Rank | exp.DenseRank):
        return not truthy_args(function)
    if isinstance(function, exp.RowNumber):
        return total_order_over(window, inner, schema)
    return False
