"""Drop ``x IS NOT NULL`` from the WHERE of a query that only aggregates ``x``.

``SELECT COUNT(DISTINCT o.customer_id) FROM orders o WHERE o.customer_id IS NOT NULL AND
o.amount > 5`` returns what ``SELECT COUNT(DISTINCT o.customer_id) FROM orders o WHERE
o.amount > 5`` returns; ``foreign_key_joins`` writes the first when it drops a join on a
nullable foreign key.

Why this is sound: without GROUP BY (nor HAVING, window, QUALIFY, LIMIT or OFFSET) the
query returns one row, computed by its aggregates over the rows its WHERE keeps. When
each output is ``COUNT``, ``SUM``, ``AVG``, ``MIN`` or ``MAX`` of the column ``x`` itself
(with or without DISTINCT, without FILTER), each skips the rows on which ``x`` is NULL:
keeping them or not changes no value, so the conjunct that drops them can go.
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._aggregates import NULL_SKIPPING
from sqlequiv.normalize._util import (
    and_all,
    conjuncts,
    is_not_null_test,
    set_where,
    truthy_args,
)

E = TypeVar("E", bound=exp.Expr)



def null_tests_under_aggregates(expression: E) -> E:
    """Remove the NOT NULL tests of the one column a query's aggregates read.

    Example:
        >>> import sqlglot
        >>> sql = "SELECT COUNT(DISTINCT t.a) FROM t AS t WHERE NOT t.a IS NULL AND t.b > 1"
        >>> null_tests_under_aggregates(sqlglot.parse_one(sql)).sql()
        'SELECT COUNT(DISTINCT t.a) FROM t AS t WHERE t.b > 1'
    """
    for select in list(expression.find_all(exp.Select)):
        if truthy_args(select) - {"expressions", "from_", "joins", "where"}:
            continue
        column = _aggregated_column(select)
        where = select.args.get("where")
        if column is None or where is None:
            continue
        parts = conjuncts(where.this)
        kept = [p for p in parts if not is_not_null_test(p, column)]
        if len(kept) < len(parts):
            set_where(select, and_all(kept))
    return expression


def _aggregated_column(select: exp.Select) -> exp.Column | None:
    """The column every output aggregates, if each is a NULL-skipping aggregate of it."""
    found: exp.Column | None = None
    for projection in select.expressions:
        call = projection.unalias()
        if not isinstance(call, NULL_SKIPPING) or call.expressions:
            return None
        argument = call.this
        if isinstance(argument, exp.Distinct):
            if len(argument.expressions) != 1 or truthy_args(argument) != {"expressions"}:
                return None
            argument = argument.expressions[0]
        if not isinstance(argument, exp.Column) or not argument.table:
            return None
        if found is not None and found != argument:
            return None
        found = argument
    return found
