"""An INTERSECT that an optimizer wrote by counting, read back as INTERSECT.

Calcite (``IntersectToAggregateRule``) writes ``q1 INTERSECT q2 INTERSECT q3`` as::

    SELECT a, b FROM (SELECT a, b, COUNT(*) AS f FROM ... GROUP BY a, b
                      UNION ALL ... UNION ALL ...) AS t
    GROUP BY a, b HAVING COUNT(*) = 3

This rule writes that back as the INTERSECT of the branches.

Why this is sound. Each branch returns distinct rows on its first ``n`` columns (it
groups by exactly them, or is DISTINCT on exactly them), so a row of values occurs at
most once per branch in the UNION ALL, and the group of that row (GROUP BY puts NULLs
together, as INTERSECT compares them) has as many rows as branches that return it.
``COUNT(*) = m``, with ``m`` the number of branches, keeps the rows that every branch
returns, once each: their INTERSECT. The query must select exactly the grouped columns,
in the UNION's order, and nothing else (no WHERE, DISTINCT, ORDER BY or LIMIT); the
branches' other columns are read by nothing. The INTERSECT takes the query's output
names from its first branch, so that branch is given them. A branch's own GROUP BY
goes when it has no HAVING and no aggregate is left: INTERSECT returns distinct rows
whatever its operands' duplicates.
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._util import contains, plain_group, truthy_args, union_all_selects

E = TypeVar("E", bound=exp.Expr)


def counted_intersect(expression: E) -> E:
    """Rewrite each INTERSECT spelled as a count over a UNION ALL of distinct branches.

    Example:
        >>> import sqlglot
        >>> q = ("SELECT t.a FROM (SELECT s.a, COUNT(*) AS f FROM s GROUP BY s.a UNION ALL "
        ...      "SELECT r.a, COUNT(*) AS f FROM r GROUP BY r.a) AS t GROUP BY t.a "
        ...      "HAVING COUNT(*) = 2")
        >>> counted_intersect(sqlglot.parse_one(q)).sql()
        'SELECT s.a AS a FROM s INTERSECT SELECT r.a FROM r'
    """
    for select in reversed(list(expression.find_all(exp.Select))):
        found = _intersect(select)
        if found is None:
            continue
        if select is expression:
            return found  # type: ignore[return-value]
        select.replace(found)
    return expression


def _intersect(select: exp.Select) -> exp.Expr | None:
    if truthy_args(select) != {"expressions", "from_", "group", "having"}:
        return None
    source = select.args["from_"].this
    if not isinstance(source, exp.Subquery) or not isinstance(source.this, exp.Union):
        return None
    if truthy_args(source) - {"this", "alias"}:
        return None
    branches = union_all_selects(source.this, parenthesised=True)
    if branches is None:
        return None
    alias = source.alias_or_name
    width = len(select.expressions)
    names = [p.alias_or_name for p in branches[0].expressions]
    # The query selects the UNION's first ``width`` columns, in order, and groups by them.
    for projection, name in zip(select.expressions, names, strict=False):
        column = projection.unalias()
        if not (isinstance(column, exp.Column) and column.table == alias and column.name == name):
            return None
    keys = plain_group(select)
    if keys is None or len(keys) != width or width > len(names):
        return None
    key_names = set()
    for key in keys:
        if not (isinstance(key, exp.Column) and key.table == alias):
            return None
        key_names.add(key.name)
    if key_names != set(names[:width]):
        return None
    if not _counts_to(select.args["having"].this, len(branches)):
        return None
    kept = [_distinct_prefix(branch, width) for branch in branches]
    if any(branch is None for branch in kept):
        return None
    first = kept[0]
    assert first is not None
    for projection, outer in zip(first.expressions, select.expressions, strict=True):
        projection.replace(exp.alias_(projection.unalias(), outer.alias_or_name))
    result: exp.Expr = first
    for branch in kept[1:]:
        result = exp.Intersect(this=result, expression=branch, distinct=True)
    return result


def _counts_to(condition: exp.Expr, branches: int) -> bool:
    """``COUNT(*) = branches``, either way round."""
    if not isinstance(condition, exp.EQ):
        return False
    wanted = exp.Literal.number(branches)
    for count, number in ((condition.this, condition.expression),
                          (condition.expression, condition.this)):  # fmt: skip
        if number == wanted and isinstance(count, exp.Count) and isinstance(count.this, exp.Star):
            return not count.expressions
    return False


def _distinct_prefix(branch: exp.Select, width: int) -> exp.Select | None:
    """A copy of ``branch`` keeping its first ``width`` columns, when its rows are distinct
    on them; without its GROUP BY when nothing needs it any more."""
    if truthy_args(branch) - {"expressions", "from_", "where", "joins", "group", "having",
                              "distinct"}:  # fmt: skip
        return None
    prefix = [p.unalias() for p in branch.expressions[:width]]
    if len(prefix) != width or any(contains(p, exp.AggFunc, exp.Window) for p in prefix):
        return None
    distinct = branch.args.get("distinct")
    keys = plain_group(branch)
    if distinct is not None:
        if truthy_args(distinct) or keys is not None or len(branch.expressions) != width:
            return None
    elif keys is None or {k.sql() for k in keys} != {p.sql() for p in prefix}:
        return None
    kept = branch.copy()
    kept.set("expressions", [p.copy() for p in branch.expressions[:width]])
    if kept.args.get("having") is None and not contains(kept, exp.AggFunc):
        kept.set("group", None)
        kept.set("distinct", None)
    return kept
