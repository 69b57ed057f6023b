"""Move the one condition every aggregate of a LEFT JOIN's columns filters by into its ON.

``SELECT c.id, COUNT(CASE WHEN o.placed_at >= '2026-07-01' THEN o.id END) FROM customers
c LEFT JOIN orders o ON o.customer_id = c.id GROUP BY c.id`` (which is how
:mod:`.filter_to_case` writes ``COUNT(o.id) FILTER (WHERE ...)``) counts what ``SELECT
c.id, COUNT(o.id) FROM customers c LEFT JOIN orders o ON o.customer_id = c.id AND
o.placed_at >= '2026-07-01' GROUP BY c.id`` counts: the two ways text-to-SQL answers
keep a zero count for a customer without a matching order.

Why this is sound. Write the query as ``L LEFT JOIN B b ON c``, the LEFT JOIN of ``b``
being the last join of its FROM clause, and let ``p`` be the condition of every
aggregate's CASE. Both forms give each row of ``L`` (the join of the earlier sources)
the same number of output rows before WHERE, at least one: its matches, or a row padded
with NULLs for ``b``. They differ only in which ``b`` rows a row of ``L`` is paired
with: those where ``c`` is true, or those where ``c AND p`` is true, padding the row
when none is. So nothing that reads only ``L`` can tell them apart: the WHERE, the
GROUP BY and the groups it forms (each row of ``L`` contributes to the same group in
both forms), and every expression outside the aggregates. The rule requires that ``b``
is read nowhere else. Each aggregate is SUM, AVG, MIN, MAX or COUNT (no DISTINCT, no
FILTER, no window) of ``CASE WHEN p THEN b.x END`` and becomes the same aggregate of
``b.x``. These aggregates skip NULLs, so each sees the non-NULL ``b.x`` of the pairs
where ``c`` and ``p`` are true in both forms: the CASE is ``b.x`` exactly there among
the pairs of ``c``, and NULL on the pairs where ``p`` is not true and on a padded row
(whose ``b.x`` is NULL whatever ``p`` says). The added rows of padding in the ON form
hold a NULL ``b.x`` too. An empty group, or no group at all, gives the same NULL (or
0 for COUNT) in both.

Left alone: a condition with a subquery, a window or a volatile call, or one that reads
a column of an enclosing query (an ON condition cannot always be correlated); a CASE of
anything but one branch of a bare ``b`` column (``COUNT(CASE WHEN p THEN 1 END)``
counts the padded row once ``p`` moves); aggregates with different conditions; ``b``
read outside them (a column, a nested query); windows, QUALIFY, LIMIT and grouping
sets, which the argument above does not cover.
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._aggregates import NULL_SKIPPING
from sqlequiv.normalize._util import (
    and_all,
    from_items,
    is_deterministic,
    is_simple_table,
    one_branch_case,
    outer_join_side,
    own_nodes,
    source_alias,
    sql_text,
    truthy_args,
)

E = TypeVar("E", bound=exp.Expr)

#: The clauses the argument covers.
_CLAUSES = frozenset({"expressions", "from_", "joins", "where", "group", "having", "order"})


def case_into_left_join(expression: E) -> E:
    """Move the shared CASE condition of a LEFT JOIN's aggregates into its ON clause.

    Example:
        >>> import sqlglot
        >>> e = sqlglot.parse_one(
        ...     "SELECT c.id, COUNT(CASE WHEN o.x > 1 THEN o.id END), "
        ...     "SUM(CASE WHEN o.x > 1 THEN o.y END) FROM c AS c "
        ...     "LEFT JOIN o AS o ON o.cid = c.id GROUP BY c.id")
        >>> rewritten = case_into_left_join(e)
        >>> [s.sql() for s in rewritten.selects], rewritten.args["joins"][0].sql()
        (['c.id', 'COUNT(o.id)', 'SUM(o.y)'], 'LEFT JOIN o AS o ON o.cid = c.id AND o.x > 1')
    """
    for select in list(expression.find_all(exp.Select)):
        _move(select)
    return expression


def _move(select: exp.Select) -> None:
    joins = select.args.get("joins") or []
    if not joins or truthy_args(select) - _CLAUSES:
        return
    group = select.args.get("group")
    if group is not None and truthy_args(group) != {"expressions"}:
        return  # ROLLUP, CUBE, GROUPING SETS
    last = joins[-1]
    if not _plain_left_join(last):
        return
    b = source_alias(last.this)
    if sum(source_alias(s) == b for s in from_items(select)) != 1:
        return
    aggregates = own_nodes(select, exp.AggFunc)
    if not aggregates:
        return
    condition: exp.Expr | None = None
    arguments: list[exp.Column] = []
    for aggregate in aggregates:
        found = _case_of(aggregate, b)
        if found is None:
            return
        p, column = found
        if condition is not None and sql_text(condition) != sql_text(p):
            return
        condition = condition if condition is not None else p
        arguments.append(column)
    assert condition is not None
    if not _local(condition, select):
        return
    # ``b`` may be read only by the aggregates' CASEs and its own ON clause.
    allowed = {id(c) for a in aggregates for c in a.find_all(exp.Column)}
    allowed |= {id(c) for c in last.find_all(exp.Column)}
    if any(c.table == b and id(c) not in allowed for c in select.find_all(exp.Column)):
        return
    for aggregate, column in zip(aggregates, arguments, strict=True):
        aggregate.set("this", column.copy())
    last.set("on", and_all([last.args["on"], condition.copy()]))


def _plain_left_join(join: exp.Join) -> bool:
    """``LEFT [OUTER] JOIN table AS b ON condition``, nothing more."""
    return (
        outer_join_side(join) == "LEFT"
        and bool(join.args.get("on"))
        and is_simple_table(join.this)
    )


def _case_of(aggregate: exp.AggFunc, b: str) -> tuple[exp.Expr, exp.Column] | None:
    """``(p, b.x)`` for ``AGG(CASE WHEN p THEN b.x END)``, else None."""
    if type(aggregate) not in NULL_SKIPPING or truthy_args(aggregate) - {"this", "big_int"}:
        return None
    if isinstance(aggregate.parent, exp.Filter | exp.Window):
        return None
    case = one_branch_case(aggregate.this)
    if case is None or case[2] is not None:
        return None
    condition, column, _ = case
    if not isinstance(column, exp.Column) or column.table != b:
        return None
    return condition, column


def _local(condition: exp.Expr, select: exp.Select) -> bool:
    """Whether ``condition`` is deterministic, has no aggregate and reads only sources
    of ``select`` itself."""
    if not is_deterministic(condition) or any(condition.find_all(exp.AggFunc)):
        return False
    names = {source_alias(s) for s in from_items(select)}
    return all(c.table in names for c in condition.find_all(exp.Column))
