"""``x IN (SELECT y ...)`` as ``EXISTS (... AND x = y)`` where it is a conjunct of a WHERE.

``SELECT o.id FROM orders o WHERE o.customer_id IN (SELECT c.id FROM customers c WHERE
c.plan = 'pro')`` returns the rows of ``SELECT o.id FROM orders o WHERE EXISTS (SELECT 1
FROM customers c WHERE c.plan = 'pro' AND o.customer_id = c.id)``: the two ways
text-to-SQL answers write a semi-join.

Why this is sound: ``x IN S`` is TRUE exactly when some row of ``S`` has ``x = y``
TRUE (it is FALSE or UNKNOWN otherwise), and the subquery's rows with ``x = y`` TRUE
are the rows of the subquery whose WHERE also holds ``x = y``, so ``EXISTS`` of that
subquery is TRUE exactly then too (it is never UNKNOWN). The two differ only where the
IN is UNKNOWN and the EXISTS FALSE, which a WHERE cannot tell apart when the IN is one
of its top-level conjuncts: the row is dropped either way. So only such a conjunct is
rewritten (not one under NOT or OR, in a projection or an ON clause). The subquery must
be a SELECT of one bare column (no aggregate, window, QUALIFY, ORDER BY or LIMIT, where
a new WHERE conjunct would change the rows; a DISTINCT goes, since EXISTS does not
count); it may GROUP BY (plain keys) and have a HAVING when that column is one of the
group keys: ``x = y`` then keeps whole groups, whose aggregates are unchanged. ``x``
must be a column the subquery does not bind again, and ``x`` and ``y`` of the same
declared type (SQLite's IN and ``=`` may convert values
differently across types); ``x`` stays on the left of ``=``, as in the IN.
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._util import (
    and_all,
    conjuncts,
    in_subquery,
    plain_group,
    same_declared_type,
    sql_text,
    truthy_args,
)

E = TypeVar("E", bound=exp.Expr)

_PLAIN = frozenset({"expressions", "from_", "joins", "where", "distinct", "group", "having"})


def in_to_exists(expression: E) -> E:
    """Rewrite each ``x IN (subquery)`` conjunct of a WHERE as an EXISTS.

    Example:
        >>> import sqlglot
        >>> from sqlglot import exp
        >>> e = sqlglot.parse_one("SELECT t.a FROM t AS t "
        ...                       "WHERE t.a IN (SELECT u.b FROM u AS u WHERE u.c > 1)")
        >>> for c in e.find_all(exp.Column):
        ...     c.type = exp.DataType.build("INT")
        >>> in_to_exists(e).sql()
        'SELECT t.a FROM t AS t WHERE EXISTS(SELECT u.b FROM u AS u WHERE u.c > 1 AND t.a = u.b)'
    """
    # Innermost first (find_all walks breadth first): an outer IN copies its subquery
    # into the EXISTS, and an IN inside it must already be rewritten by then.
    for where in reversed(list(expression.find_all(exp.Where))):
        if not isinstance(where.parent, exp.Select):
            continue
        for conjunct in conjuncts(where.this):
            if isinstance(conjunct, exp.In):
                rewritten = _exists(conjunct)
                if rewritten is not None:
                    conjunct.replace(rewritten)
    return expression


def _exists(node: exp.In) -> exp.Expr | None:
    parts = in_subquery(node, _PLAIN)
    if parts is None:
        return None
    x, sub = parts
    distinct = sub.args.get("distinct")
    if distinct is not None and truthy_args(distinct):
        return None  # DISTINCT ON
    y = sub.expressions[0].unalias()
    if not isinstance(y, exp.Column) or not same_declared_type(x, y):
        return None
    if sub.args.get("group") is not None or sub.args.get("having") is not None:
        keys = plain_group(sub)
        if keys is None or sql_text(y) not in {sql_text(k) for k in keys}:
            return None  # y must be a group key: x = y then picks out whole groups
    filtered = sub.copy()
    filtered.set("distinct", None)
    where = filtered.args.get("where")
    matched = exp.EQ(this=x.copy(), expression=y.copy())
    filtered.set("where", exp.Where(this=and_all([where.this if where else None, matched])))
    return exp.Exists(this=filtered)
