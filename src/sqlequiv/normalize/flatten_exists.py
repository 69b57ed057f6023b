"""EXISTS inside EXISTS as one EXISTS over a join.

``EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.id AND EXISTS (SELECT 1 FROM
order_items i WHERE i.order_id = o.order_id AND i.product_id = 7))`` holds exactly when
``EXISTS (SELECT 1 FROM orders o, order_items i WHERE o.customer_id = c.id AND
i.order_id = o.order_id AND i.product_id = 7)`` does: "the customers who bought product
7" written with IN inside IN (which ``in_to_exists`` makes nested EXISTS), with a join
inside EXISTS, or with the join's other table made an EXISTS by ``key_join_to_exists``.
Whichever table a spelling nests inside the other, the flat form is one and the same.

Why this is sound: an EXISTS only asks whether its query has a row. The outer query has
one exactly when some row of its sources makes every conjunct of its WHERE TRUE, the
inner EXISTS included, which is TRUE exactly when some row of the inner sources makes
the inner conjuncts TRUE for it; that is, when some row of all the sources together
makes all the conjuncts TRUE (existential quantifiers nest, and a conjunction is TRUE
only when each conjunct is). Only rewritten: an EXISTS that is a top-level conjunct of
the WHERE of a query that is itself directly under EXISTS, both queries a comma list of
plain sources (what ``flatten_inner_joins`` makes) with only a WHERE besides (no GROUP
BY, HAVING, aggregate, DISTINCT ON, LIMIT), no source named like another, and their
conditions deterministic.
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._util import (
    and_all,
    conjuncts,
    from_items,
    is_deterministic,
    is_flat_inner,
    set_where,
    source_alias,
    truthy_args,
)

E = TypeVar("E", bound=exp.Expr)


def flatten_exists(expression: E) -> E:
    """Merge each EXISTS conjunct of a query under EXISTS into it, until none is left.

    Example:
        >>> import sqlglot
        >>> e = sqlglot.parse_one("SELECT c.id FROM c AS c WHERE EXISTS (SELECT 1 FROM o AS o "
        ...                       "WHERE o.cid = c.id AND EXISTS (SELECT 1 FROM i AS i "
        ...                       "WHERE i.oid = o.id AND i.p = 7))")
        >>> print(flatten_exists(e).sql(pretty=True))
        SELECT
          c.id
        FROM c AS c
        WHERE
          EXISTS(
            SELECT
              1
            FROM o AS o, i AS i
            WHERE
              o.cid = c.id AND i.oid = o.id AND i.p = 7
          )
    """
    changed = True
    while changed:
        changed = False
        for exists in list(expression.find_all(exp.Exists)):
            if _merge_one(exists):
                changed = True
                break
    return expression


def _plain(select: exp.Expr) -> bool:
    """A comma list of plain sources with at most a WHERE besides, and no aggregate."""
    if not isinstance(select, exp.Select) or not is_flat_inner(select):
        return False
    if truthy_args(select) - {"expressions", "from_", "joins", "where"}:
        return False
    return not any(
        isinstance(n, exp.AggFunc | exp.Window) for p in select.expressions for n in p.walk()
    )


def _merge_one(exists: exp.Exists) -> bool:
    outer = exists.this
    if not _plain(outer) or outer.args.get("where") is None:
        return False
    parts = conjuncts(outer.args["where"].this)
    for part in parts:
        if not isinstance(part, exp.Exists) or not _plain(part.this):
            continue
        inner = part.this
        inner_where = inner.args.get("where")
        names = [source_alias(s) for s in (*from_items(outer), *from_items(inner))]
        if len(set(names)) != len(names):
            continue  # two sources of one name: the inner one hides the outer
        inner_parts = conjuncts(inner_where.this) if inner_where is not None else []
        others = [p for p in parts if p is not part]
        if not all(is_deterministic(p) for p in (*others, *inner_parts)):
            continue
        joins = list(outer.args.get("joins") or [])
        for source in from_items(inner):
            joins.append(exp.Join(this=source.copy()))
        outer.set("joins", joins)
        set_where(outer, and_all([*others, *(p.copy() for p in inner_parts)]))
        return True
    return False
