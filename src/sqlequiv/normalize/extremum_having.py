"""A HAVING on the greatest (least) value of a group as a WHERE on each row.

``SELECT customer_id FROM orders GROUP BY customer_id HAVING MAX(amount) > 100`` returns
the rows of ``SELECT customer_id FROM orders WHERE amount > 100 GROUP BY customer_id``:
"the customers with an order over 100", written with a GROUP BY or with a filter and
DISTINCT (which ``distinct_group_by`` makes of the GROUP BY left without aggregates).

Why this is sound: ``MAX(x) > c`` is TRUE for a group exactly when some row of it has
``x > c`` TRUE (MAX skips NULL, and a NULL ``x`` makes ``x > c`` UNKNOWN; a group of NULLs
only has MAX NULL and no such row), and the same for ``>=``, and for MIN with ``<`` and
``<=``. The query outputs only its grouping keys (no aggregate anywhere else, no window,
QUALIFY or DISTINCT ON), so a group it keeps makes the same row whichever of its rows are
left: filtering the rows first keeps exactly the groups with such a row, each once. ``x``
must be a column of an exact number type and ``c`` a number literal: MAX orders exact
numbers as ``>`` does, and the comparison converts the literal alike on each row and on
the aggregate (a text literal would not, in SQLite, where MAX has no affinity).
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._aggregates import aggregates
from sqlequiv.normalize._util import MIRRORED, and_all, own_nodes, set_where, truthy_args
from sqlequiv.values import kind_of

E = TypeVar("E", bound=exp.Expr)

#: ``AGG(x) op c`` that some row's ``x op c`` decides.
_DECIDED_BY_A_ROW: dict[type[exp.Expr], tuple[type[exp.Expr], ...]] = {
    exp.Max: (exp.GT, exp.GTE),
    exp.Min: (exp.LT, exp.LTE),
}
_EXACT_KINDS = frozenset({"int", "decimal"})


def extremum_having(expression: E) -> E:
    """Move ``HAVING MAX(x) > c`` (or MIN with ``<``) to the WHERE as ``x > c``.

    Example:
        >>> import sqlglot
        >>> from sqlglot import exp
        >>> e = sqlglot.parse_one("SELECT t.k FROM t AS t GROUP BY t.k HAVING MAX(t.v) >= 3")
        >>> for col in e.find_all(exp.Column):
        ...     col.type = exp.DataType.build("INT")
        >>> extremum_having(e).sql()
        'SELECT t.k FROM t AS t WHERE t.v >= 3 GROUP BY t.k'
    """
    for select in list(expression.find_all(exp.Select)):
        condition = _row_condition(select)
        if condition is not None:
            where = select.args.get("where")
            set_where(select, and_all([where.this if where is not None else None, condition]))
            select.set("having", None)
    return expression


def _row_condition(select: exp.Select) -> exp.Expr | None:
    """``x op c`` for a SELECT of grouping keys only with ``HAVING AGG(x) op c``."""
    group, having = select.args.get("group"), select.args.get("having")
    if group is None or having is None or truthy_args(group) != {"expressions"}:
        return None
    if truthy_args(select) & {"qualify", "windows"} or own_nodes(select, exp.Window):
        return None
    distinct = select.args.get("distinct")
    if distinct is not None and distinct.args.get("on"):
        return None
    comparison = having.this
    if type(comparison) not in MIRRORED:
        return None
    left, right = comparison.this, comparison.expression
    kind: type[exp.Expr] = type(comparison)
    if isinstance(right, (exp.Max, exp.Min)):
        left, right, kind = right, left, MIRRORED[kind]
    if type(left) not in _DECIDED_BY_A_ROW or kind not in _DECIDED_BY_A_ROW[type(left)]:
        return None
    found = aggregates(select)
    if found is None or len(found) != 1 or found[0] is not left:
        return None  # another aggregate would read the rows the WHERE now drops
    column = left.this
    if left.expressions or not isinstance(column, exp.Column) or column.type is None:
        return None
    if kind_of(column.type) not in _EXACT_KINDS:
        return None
    if not (isinstance(right, exp.Literal) and not right.is_string):
        return None
    return kind(this=column.copy(), expression=right.copy())
