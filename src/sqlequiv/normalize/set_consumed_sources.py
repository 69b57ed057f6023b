"""Drop the DISTINCT of a derived table whose rows are only read as a set.

``SELECT t.a FROM (SELECT DISTINCT x.a, x.b FROM x) AS t LEFT JOIN y ON ... GROUP BY t.a``
returns the same rows as the same query over ``(SELECT x.a, x.b FROM x)``: the
outer query keeps one row per group, whatever the multiplicity of the rows it
groups. The same holds of a derived table written ``SELECT k FROM x GROUP BY k``
(no aggregate). Calcite's aggregate-through-join rules write such inner
GROUP BYs; removing them lets the derived table merge into the outer query.

Why this is sound. Call a query *set-consuming* when its result depends only
on which rows its sources contain, not how often:

- a SELECT with DISTINCT, GROUP BY, or aggregates, none of whose own
  aggregates counts (only MIN, MAX, BOOL_AND/OR, BIT_AND/OR and aggregates of
  DISTINCT arguments), with no window, QUALIFY, LIMIT or OFFSET. Joins of any
  kind (inner, outer, semi, anti, cross) produce, from sources with the same
  rows, results with the same rows: a row is unmatched on one side exactly when
  it is unmatched whatever the multiplicities. WHERE and ON keep or drop each
  row alike, GROUP BY forms the same groups, each group holds the same rows and
  so has the same MIN, MAX, ... and HAVING; and one row per group (or DISTINCT)
  is output.
- a plain SELECT (none of the above, and nothing that counts) whose own result
  is read as a set: a derived table of a set-consuming SELECT, the body of an
  EXISTS or an ``IN (subquery)``, or an operand of UNION, INTERSECT or EXCEPT
  without ALL (or of a UNION ALL read as a set).

Such a SELECT also loses an outer join's padded side that it reads nowhere but in the
ON: ``A LEFT JOIN B ON p`` has every row of ``A`` at least once (see
``_drop_unread_padded_side``).

A derived table of a set-consuming SELECT that only removes duplicates (DISTINCT
over its projections, or GROUP BY whose keys are all it projects, without
aggregates, HAVING, windows, ORDER BY or LIMIT) then has the same rows with or
without its DISTINCT. Keys must be deterministic and not floating-point, so
that no -0.0/0.0 or NaN choice of a representative can arise, and every column
a projection reads must be a key (SQLite lets a GROUP BY project any column and
picks one row's).
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._aggregates import aggregates, idempotent_argument
from sqlequiv.normalize._util import (
    FLOAT_TYPES,
    contains,
    from_items,
    is_deterministic,
    is_inside,
    outer_join_side,
    own_nodes,
    sql_text,
    truthy_args,
)

E = TypeVar("E", bound=exp.Expr)

#: Aggregates that are idempotent over DISTINCT arguments.
_OF_DISTINCT = (exp.Count, exp.Sum, exp.Avg)


#: The arguments a duplicate-removing derived table may have.
_DEDUP_ARGS = frozenset({"expressions", "from_", "joins", "where", "group", "distinct"})


def set_consumed_sources(expression: E) -> E:
    """Remove duplicate elimination from derived tables read only as sets.

    Example:
        >>> import sqlglot
        >>> from sqlglot.optimizer.annotate_types import annotate_types
        >>> e = sqlglot.parse_one(
        ...     "SELECT DISTINCT t.a FROM (SELECT x.a FROM x AS x GROUP BY x.a) AS t")
        >>> e = annotate_types(e, schema={"x": {"a": "INT"}})
        >>> set_consumed_sources(e).sql()
        'SELECT DISTINCT t.a FROM (SELECT x.a FROM x AS x) AS t'
    """
    for select in list(expression.find_all(exp.Select)):
        if not _reads_sources_as_sets(select):
            continue
        _drop_unread_padded_side(select)
        for source in from_items(select):
            if isinstance(source, exp.Subquery) and isinstance(source.this, exp.Select):
                _drop_duplicate_removal(source.this)
    return expression


def _drop_unread_padded_side(select: exp.Select) -> None:
    """``A LEFT JOIN B ON p`` read as a set, ``B`` read nowhere but in ``p``, is ``A``: each
    row of ``A`` is in the join at least once (matched or padded), with the same values
    of ``A``'s columns. Likewise ``B RIGHT JOIN A``. Only a FROM of exactly two sources."""
    joins = select.args.get("joins") or []
    from_ = select.args.get("from_")
    if from_ is None or len(joins) != 1 or truthy_args(from_) != {"this"}:
        return
    join = joins[0]
    side = outer_join_side(join)
    if side not in ("LEFT", "RIGHT"):
        return
    padded = join.this if side == "LEFT" else from_.this
    name = padded.alias_or_name
    if not name or any(isinstance(s, exp.Star) for s in select.expressions):
        return
    on = join.args.get("on")
    for column in select.find_all(exp.Column):
        in_on = on is not None and is_inside(column, on)
        if column.table == name and not in_on and not is_inside(column, padded):
            return  # read outside the ON (or by a nested query)
    if sum(1 for n in select.find_all(exp.Table, exp.Subquery) if n.alias_or_name == name) != 1:
        return
    if side == "LEFT":
        select.set("joins", None)
    else:
        from_.set("this", join.this)
        select.set("joins", None)


def _reads_sources_as_sets(select: exp.Select) -> bool:
    """Whether ``select``'s result depends only on the rows of its sources, not their counts."""
    if _counts(select):
        return False
    if select.args.get("distinct") is not None or select.args.get("group") is not None:
        return True
    if aggregates(select):
        return True
    return _read_as_set(select)


def _counts(select: exp.Select) -> bool:
    """Whether ``select`` has anything that sees how often a row occurs."""
    if truthy_args(select) & {"limit", "offset", "qualify", "windows", "sample"}:
        return True
    distinct = select.args.get("distinct")
    if distinct is not None and truthy_args(distinct):
        return True  # DISTINCT ON picks a row per key
    if own_nodes(select, exp.Window):
        return True
    found = aggregates(select)
    return found is None or not all(_idempotent(agg) for agg in found)


def _idempotent(agg: exp.Func) -> bool:
    if idempotent_argument(agg) is not None:
        return True
    return isinstance(agg, _OF_DISTINCT) and isinstance(agg.this, exp.Distinct)


def _read_as_set(query: exp.Expr) -> bool:
    """Whether the consumer of ``query``'s result only reads which rows it has."""
    parent = query.parent
    if isinstance(parent, exp.Exists):
        return True
    if isinstance(parent, exp.Subquery):
        grand = parent.parent
        if isinstance(grand, exp.In) and grand.args.get("query") is parent:
            return True
        if isinstance(grand, exp.From | exp.Join) and isinstance(grand.parent, exp.Select):
            return _reads_sources_as_sets(grand.parent)
        if truthy_args(parent) <= {"this"}:
            return _read_as_set(parent)  # a parenthesized operand
        return False
    if isinstance(parent, exp.SetOperation) and not truthy_args(parent) - {
        "this",
        "expression",
        "distinct",
    }:
        if parent.args.get("distinct"):
            return True
        return isinstance(parent, exp.Union) and _read_as_set(parent)
    return False


def _drop_duplicate_removal(select: exp.Select) -> None:
    if truthy_args(select) - _DEDUP_ARGS:
        return
    if aggregates(select) != [] or own_nodes(select, exp.Window):
        return
    projections = [p.unalias() for p in select.expressions]
    if any(isinstance(p, exp.Star) or contains(p, exp.Star) for p in projections):
        return
    distinct = select.args.get("distinct")
    group = select.args.get("group")
    if distinct is not None:
        if truthy_args(distinct) or group is not None:
            return
        if all(_plain_key(p) for p in projections):
            select.set("distinct", None)
        return
    if group is None or truthy_args(group) != {"expressions"} or not group.expressions:
        return
    keys = list(group.expressions)
    if not all(_plain_key(key) for key in keys):
        return
    key_texts = {sql_text(key) for key in keys}
    for projection in projections:
        if sql_text(projection) in key_texts:
            continue
        if not all(sql_text(c) in key_texts for c in projection.find_all(exp.Column)):
            return
        if not is_deterministic(projection):
            return
    select.set("group", None)


def _plain_key(key: exp.Expr) -> bool:
    if not is_deterministic(key) or isinstance(key, exp.Literal):
        return False
    return key.type is not None and key.type.this not in FLOAT_TYPES and not key.is_type("unknown")
