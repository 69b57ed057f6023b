"""Move HAVING conjuncts that only test grouping columns into WHERE.

``SELECT plan, COUNT(*) FROM customers GROUP BY plan HAVING plan = 'x'`` and
``... WHERE plan = 'x' GROUP BY plan`` are the same query.

Why this is sound: a conjunct that reads nothing but grouping columns (each
column it mentions is itself a GROUP BY key) has one value per group, the same
on every row of the group. Filtering rows by it before grouping therefore
removes exactly the groups it would reject afterwards and leaves the other
groups' rows, hence their aggregates, untouched. Conjuncts with aggregates,
windows, subqueries or volatile functions stay in HAVING, and so does every
conjunct of a query without GROUP BY (one implicit group, even over no rows)
or with ROLLUP / CUBE / GROUPING SETS / GROUP BY ALL.
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._util import (
    and_all,
    conjuncts,
    contains,
    is_deterministic,
    set_where,
    sql_text,
    truthy_args,
)

E = TypeVar("E", bound=exp.Expr)


def having_to_where(expression: E) -> E:
    """Move grouping-column-only HAVING conjuncts to WHERE.

    Example:
        >>> import sqlglot
        >>> sql = "SELECT t.a, COUNT(*) FROM t GROUP BY t.a HAVING t.a > 1 AND COUNT(*) > 2"
        >>> having_to_where(sqlglot.parse_one(sql)).sql()
        'SELECT t.a, COUNT(*) FROM t WHERE t.a > 1 GROUP BY t.a HAVING COUNT(*) > 2'
    """
    for select in list(expression.find_all(exp.Select)):
        group = select.args.get("group")
        having = select.args.get("having")
        if group is None or having is None or truthy_args(group) != {"expressions"}:
            continue
        keys = {sql_text(key) for key in group.expressions if isinstance(key, exp.Column)}
        moved: list[exp.Expr] = []
        kept: list[exp.Expr] = []
        for conjunct in conjuncts(having.this):
            columns = list(conjunct.find_all(exp.Column))
            if (
                columns
                and all(sql_text(column) in keys for column in columns)
                and is_deterministic(conjunct)
                and not contains(conjunct, exp.AggFunc)
            ):
                moved.append(conjunct)
            else:
                kept.append(conjunct)
        if not moved:
            continue
        where = select.args.get("where")
        set_where(select, and_all([where.this if where is not None else None, *moved]))
        remaining = and_all(kept)
        select.set("having", exp.Having(this=remaining) if remaining is not None else None)
    return expression
