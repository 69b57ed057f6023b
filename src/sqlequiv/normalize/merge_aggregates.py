"""Merge an aggregate over a derived table's aggregates into one aggregation.

``SELECT t.d, SUM(t.s), MAX(t.m) FROM (SELECT deptno AS d, job AS j, SUM(sal) AS s,
MAX(sal) AS m FROM emp GROUP BY deptno, job) AS t GROUP BY t.d`` is
``SELECT deptno, SUM(sal), MAX(sal) FROM emp GROUP BY deptno``. The derived table
loses its GROUP BY and each aggregate becomes its argument (``SELECT deptno AS d,
job AS j, sal AS s, sal AS m FROM emp``); the outer aggregates then read the rows
themselves. The derived table may be a UNION ALL of such SELECTs, each rewritten
alike (Calcite pushes an aggregate below a UNION ALL so). Calcite's
AggregateMergeRule and AggregateUnionTransposeRule write the nested forms.

Why this is sound: the outer query reads the derived table's key columns only
outside its aggregates (in its own GROUP BY, WHERE and outputs), and its
aggregate columns only as the argument of an outer aggregate. Each group of the
outer query gathers whole inner groups (its keys are among theirs, or it has
none), so over the rows of an outer group:

- ``SUM`` of inner ``SUM``\\ s is the ``SUM`` of the rows (of an exact numeric type:
  floating-point addition is not associative), NULL exactly when every row's value is;
  ``MIN``/``MAX``/``BOOL_AND``/``BOOL_OR``/``BIT_AND``/``BIT_OR`` of their own kind alike;
- ``SUM`` of inner ``COUNT``\\ s is the ``COUNT`` of the rows, when the outer group
  holds at least one inner group: always under a plain GROUP BY, and when the
  derived table has no GROUP BY (it is then one row per SELECT, even over no row).
  Otherwise (no outer GROUP BY, or ROLLUP, CUBE, GROUPING SETS) the sum over no
  group is NULL where the count is 0, so only ``COALESCE(SUM(c), 0)`` is rewritten.
  ``COUNT(*)`` becomes the column ``1`` and is counted by ``COUNT``.

A derived table that only groups (no aggregate), by one column ``k`` and the columns
the outer query groups by, has for each outer group the distinct values of ``k``: the
outer ``SUM``/``COUNT``/``AVG`` of ``k`` are those of ``DISTINCT k`` over the rows
themselves, the idempotent aggregates are unchanged (Calcite's rewrite of
``COUNT(DISTINCT x)`` as a COUNT over a GROUP BY). Keys of a floating-point type are
left alone: -0.0 and 0.0 would be one group but which one is kept is not said.

Anything else leaves the query alone: an outer aggregate with DISTINCT or
FILTER, or of another pair of kinds (``MIN`` of ``SUM``\\ s, ``COUNT`` of
groups); an inner one with DISTINCT or FILTER; a derived table with HAVING,
windows, DISTINCT, ORDER BY or LIMIT, or some SELECTs grouped and others not.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._aggregates import EXACT_NUMBERS, aggregates, idempotent_argument
from sqlequiv.normalize._util import (
    FLOAT_TYPES,
    is_deterministic,
    is_simple_subquery,
    own_columns,
    own_nodes,
    plain_group,
    sql_text,
    truthy_args,
    union_all_selects,
)

E = TypeVar("E", bound=exp.Expr)

#: Aggregates that merge with an inner aggregate of their own kind.
_SAME_KIND = (
    exp.Sum,
    exp.Min,
    exp.Max,
    exp.LogicalAnd,
    exp.LogicalOr,
    exp.BitwiseAndAgg,
    exp.BitwiseOrAgg,
)
#: Aggregates that count each value as often as it occurs; over distinct values, DISTINCT.
_OF_DISTINCT = (exp.Sum, exp.Count, exp.Avg)
_BRANCH_ARGS = frozenset({"expressions", "from_", "joins", "where", "group"})


@dataclass(frozen=True)
class _Shape:
    """What each output column of the derived table is, in every SELECT of it."""

    kinds: tuple[type[exp.Expr] | None, ...]  # the aggregate's class, None for a key
    names: tuple[str, ...]
    grouped: bool
    stars: tuple[str, ...]  # the columns that are COUNT(*) in every SELECT


def merge_aggregates(expression: E) -> E:
    """Merge an aggregate over aggregates into one aggregation.

    Example:
        >>> import sqlglot
        >>> from sqlglot.optimizer.annotate_types import annotate_types
        >>> e = sqlglot.parse_one(
        ...     "SELECT t.d, SUM(t.c) FROM (SELECT x.d AS d, COUNT(*) AS c "
        ...     "FROM x AS x GROUP BY x.d, x.j) AS t GROUP BY t.d")
        >>> e = annotate_types(e, schema={"x": {"d": "INT", "j": "INT"}})
        >>> merge_aggregates(e).sql()  # COUNT(*) counts the rows; c is 1 on each
        'SELECT t.d, COUNT(*) FROM (SELECT x.d AS d, 1 AS c FROM x AS x) AS t GROUP BY t.d'
    """
    for select in list(expression.find_all(exp.Select)):
        _merge(select)
    return expression


def _merge(select: exp.Select) -> None:
    from_ = select.args.get("from_")
    if from_ is None or truthy_args(from_) != {"this"} or not is_simple_subquery(from_.this):
        return
    if truthy_args(select) - {"expressions", "from_", "where", "group", "having", "order"}:
        return
    source = from_.this
    branches = union_all_selects(source.this)
    if not branches or own_nodes(select, exp.Window):
        return
    shape = _shape(branches)
    if shape is None:
        return
    if len(branches) == 1 and shape.grouped and not any(shape.kinds):
        plan = _distinct_plan(select, source.alias, branches[0])
    else:
        plan = _outer_plan(select, source.alias, shape)
    if plan is None:
        return
    for branch in branches:
        _ungroup(branch)
    for old, new in plan:
        old.replace(new)


def _shape(branches: list[exp.Select]) -> _Shape | None:
    shapes = [_branch_shape(b) for b in branches]
    first = shapes[0]
    if first is None or len(set(first.names)) != len(first.names):
        return None
    stars = set(first.names)
    for shape in shapes:
        if shape is None or (shape.kinds, shape.grouped) != (first.kinds, first.grouped):
            return None
        # a position that is COUNT(*) in one SELECT and COUNT(x) in another is neither
        stars &= {first.names[shape.names.index(n)] for n in shape.stars}
    return _Shape(first.kinds, first.names, first.grouped, tuple(sorted(stars)))


def _branch_shape(branch: exp.Select) -> _Shape | None:
    if truthy_args(branch) - _BRANCH_ARGS or own_nodes(branch, exp.Window):
        return None
    if aggregates(branch) is None:
        return None
    group = branch.args.get("group")
    plain = plain_group(branch)
    if group is not None and plain is None:
        return None
    keys = {sql_text(k) for k in plain or []}
    kinds: list[type[exp.Expr] | None] = []
    for projection in branch.expressions:
        value = projection.unalias()
        kind = _inner_kind(value)
        if kind is not None and isinstance(projection, exp.Alias):
            kinds.append(kind)
        elif group is not None and sql_text(value) in keys and is_deterministic(value):
            kinds.append(None)
        else:
            return None
    names = tuple(p.alias_or_name for p in branch.expressions)
    stars = tuple(
        name
        for name, p in zip(names, branch.expressions, strict=True)
        if isinstance(p.unalias(), exp.Count) and isinstance(p.unalias().this, exp.Star)
    )
    return _Shape(tuple(kinds), names, group is not None, stars)


def _inner_kind(value: exp.Expr) -> type[exp.Expr] | None:
    if isinstance(value, exp.Count):
        if value.expressions or isinstance(value.this, exp.Distinct):
            return None
        return exp.Count
    if isinstance(value, _SAME_KIND) and not value.expressions:
        argument = value.this
        if isinstance(argument, exp.Distinct) or not isinstance(argument, exp.Expr):
            return None
        if isinstance(value, exp.Sum) and not _exact(argument):
            return None
        return type(value)
    return None


def _exact(node: exp.Expr) -> bool:
    return node.type is not None and node.type.this in EXACT_NUMBERS


def _outer_plan(
    select: exp.Select, alias: str, shape: _Shape
) -> list[tuple[exp.Expr, exp.Expr]] | None:
    """The outer aggregates to replace, and by what; None if the query does not qualify."""
    kind_of = dict(zip(shape.names, shape.kinds, strict=True))
    star = set(shape.stars)
    group = select.args.get("group")
    plain = plain_group(select) is not None
    if not shape.grouped and group is not None:
        return None  # one row per SELECT, which a GROUP BY of the rows would not keep
    calls = aggregates(select)
    if not calls:
        return None
    plan: list[tuple[exp.Expr, exp.Expr]] = []
    read: set[int] = set()
    for call in calls:
        if not isinstance(call, _SAME_KIND) or call.expressions:
            return None
        column = call.this
        if not isinstance(column, exp.Column) or column.table != alias:
            return None
        inner = kind_of.get(column.name)
        if inner is None or isinstance(call.parent, exp.Filter):
            return None
        read.add(id(column))
        if inner is type(call):
            continue
        if not (isinstance(call, exp.Sum) and inner is exp.Count):
            return None
        argument = exp.Star() if column.name in star else column.copy()
        count = exp.Count(this=argument, big_int=True)  # as DuckDB's parser builds it
        parent = call.parent
        if isinstance(parent, exp.Coalesce) and _zero_default(parent):
            plan.append((parent, count))
        elif plain or not shape.grouped:
            plan.append((call, count))
        else:
            return None
    for column in own_columns(select, select.args["from_"]):
        if column.table == alias and id(column) not in read:
            if column.name not in kind_of or kind_of[column.name] is not None:
                return None  # an aggregate column outside an aggregate, or unknown
            if any(isinstance(a, exp.AggFunc) for a in _ancestors(column, select)):
                return None  # a key inside an outer aggregate counts inner groups
    return plan


def _distinct_plan(
    select: exp.Select, alias: str, branch: exp.Select
) -> list[tuple[exp.Expr, exp.Expr]] | None:
    """Aggregates of one column ``k`` of a derived table that only groups, by ``k`` and the
    outer GROUP BY's columns: each outer group's rows are its distinct values of ``k``,
    so ``SUM``/``COUNT``/``AVG`` of them are of DISTINCT ``k``, and the idempotent ones are
    what they are."""
    outer_keys = plain_group(select)
    if select.args.get("group") is not None and outer_keys is None:
        return None
    grouped = set()
    for key in outer_keys or []:
        if not isinstance(key, exp.Column) or key.table != alias:
            return None
        grouped.add(key.name)
    calls = aggregates(select)
    if not calls:
        return None
    names = {p.alias_or_name for p in branch.expressions}
    counted: set[str] = set()
    plan: list[tuple[exp.Expr, exp.Expr]] = []
    read: set[int] = set()
    for call in calls:
        column = idempotent_argument(call)
        if column is None and isinstance(call, _OF_DISTINCT) and not call.expressions:
            argument = call.this
            if isinstance(argument, exp.Distinct):
                column = argument.expressions[0] if len(argument.expressions) == 1 else None
            else:
                column = argument
                plan.append((argument, exp.Distinct(expressions=[argument.copy()])))
        if not isinstance(column, exp.Column) or column.table != alias:
            return None
        if isinstance(call.parent, exp.Filter) or column.name in grouped:
            return None
        counted.add(column.name)
        read.add(id(column))
    if len(counted) != 1 or names != grouped | counted:
        return None  # the derived table's rows are not the distinct values of one column
    keys = {key.sql() for key in plain_group(branch) or []}
    if keys != {p.unalias().sql() for p in branch.expressions}:
        return None  # a GROUP BY key it does not project repeats the values
    for projection in branch.expressions:
        value = projection.unalias()
        if value.type is None or value.type.this in FLOAT_TYPES:
            return None  # GROUP BY and DISTINCT pick a representative of -0.0 and 0.0
    for column in own_columns(select, select.args["from_"]):
        if column.table == alias and id(column) not in read and column.name not in grouped:
            return None
    return plan


def _zero_default(coalesce: exp.Coalesce) -> bool:
    rest = coalesce.expressions
    return len(rest) == 1 and isinstance(rest[0], exp.Literal) and rest[0].to_py() == 0


def _ancestors(node: exp.Expr, stop: exp.Expr) -> list[exp.Expr]:
    found = []
    parent = node.parent
    while parent is not None and parent is not stop:
        found.append(parent)
        parent = parent.parent
    return found


def _ungroup(branch: exp.Select) -> None:
    """Each aggregate of ``branch`` becomes its argument (``COUNT(*)``: 1); no GROUP BY."""
    for projection in branch.expressions:
        value = projection.unalias()
        if isinstance(value, exp.Count) and isinstance(value.this, exp.Star):
            value.replace(exp.Literal.number(1))
        elif isinstance(value, exp.AggFunc):
            value.replace(value.this)
    branch.set("group", None)
