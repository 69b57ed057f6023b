"""Turn inner/cross joins into a comma list of sources and move ON into WHERE.

Why this is sound: with only inner and cross joins, ``A JOIN B ON p JOIN C ON
q WHERE w`` is the cross product ``A x B x C`` filtered by ``p AND q AND w``:
an inner join's ON keeps exactly the combined rows on which it is TRUE, which
is what a WHERE conjunct does, and filters commute. The rewrite is only made
when *every* join of the FROM clause is inner or cross over plain tables or
derived tables: an outer, semi, anti, lateral, USING or NATURAL join anywhere
in the clause leaves it untouched (an ON of an outer join is not a filter).

Among inner and LEFT joins, each inner join's ON still moves to the WHERE (its join
becomes a cross join where it stands; the LEFT joins keep theirs): an inner join's ON
only reads the sources before it, and filtering the preserved side of a later LEFT
JOIN by it before the join or after gives the same rows, since every row of that side
makes its own output rows whatever it meets. A RIGHT or FULL join would pad rows that
such a filter must not see, so it leaves the clause alone. A WHERE that is TRUE goes.

A parenthesized join tree among inner joins, ``A JOIN (B CROSS JOIN C) ON p``, is
first unnested into ``A JOIN B JOIN C ON p`` (:func:`unnest_inner_join_trees`): with
inner joins only, both are the product of the three filtered by every condition.

A FROM that is a parenthesized join tree of any joins, ``FROM (A LEFT JOIN B ON p) JOIN
C ON q``, is unnested into ``FROM A LEFT JOIN B ON p JOIN C ON q``
(:func:`unnest_from_join_trees`): joins associate to the left, so the second already
joins ``C`` to the result of ``A LEFT JOIN B ON p``; each ON reads what it read before.
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._util import (
    and_all,
    is_inner_join,
    is_simple_source,
    outer_join_side,
    set_where,
    truthy_args,
)

E = TypeVar("E", bound=exp.Expr)


def flatten_inner_joins(expression: E) -> E:
    """Rewrite every all-inner FROM clause as ``FROM a, b, ... WHERE on_conditions``.

    Example:
        >>> import sqlglot
        >>> sql = "SELECT a.x FROM a AS a JOIN b AS b ON a.x = b.x WHERE a.y > 1"
        >>> flatten_inner_joins(sqlglot.parse_one(sql)).sql()
        'SELECT a.x FROM a AS a, b AS b WHERE a.y > 1 AND a.x = b.x'
    """
    for select in list(expression.find_all(exp.Select)):
        where = select.args.get("where")
        if where is not None and isinstance(where.this, exp.Boolean) and where.this.this is True:
            select.set("where", None)  # keeps every row
        joins: list[exp.Join] = list(select.args.get("joins") or [])
        from_ = select.args.get("from_")
        if not joins or from_ is None or not is_simple_source(from_.this):
            continue
        if select.args.get("laterals") or not all(
            is_inner_join(join) or _left_join(join) for join in joins
        ):
            continue
        where = select.args.get("where")
        conditions = [where.this if where is not None else None]
        conditions.extend(join.args.get("on") for join in joins if is_inner_join(join))
        select.set(
            "joins", [exp.Join(this=join.this) if is_inner_join(join) else join for join in joins]
        )
        set_where(select, and_all(conditions))
    return expression


def _left_join(join: exp.Join) -> bool:
    return outer_join_side(join) == "LEFT" and is_simple_source(join.this)


def unnest_inner_join_trees(expression: E) -> E:
    """Unnest the parenthesized join trees of a FROM clause of inner joins only.

    Example:
        >>> import sqlglot
        >>> sql = "SELECT a.x FROM a AS a JOIN (b AS b CROSS JOIN c AS c) ON a.x = c.x"
        >>> unnest_inner_join_trees(sqlglot.parse_one(sql)).sql()
        'SELECT a.x FROM a AS a, b AS b INNER JOIN c AS c ON a.x = c.x'
    """
    for select in list(expression.find_all(exp.Select)):
        joins: list[exp.Join] = list(select.args.get("joins") or [])
        from_ = select.args.get("from_")
        if not joins or from_ is None or select.args.get("laterals"):
            continue
        if not any(_join_tree(join.this) for join in joins):
            continue
        if not is_simple_source(from_.this) or not all(_inner(join) for join in joins):
            continue
        flat: list[exp.Join] = []
        for join in joins:
            tree = _join_tree(join.this)
            if tree is None:
                flat.append(join)
                continue
            table, nested = tree
            on = join.args.get("on")
            flat.append(exp.Join(this=table))
            flat.extend(nested[:-1])
            last = nested[-1].copy()
            last.set("on", and_all([last.args.get("on"), on]))
            last.set("kind", "INNER" if last.args.get("on") is not None else "CROSS")
            flat.append(last)
        select.set("joins", flat)
    return expression


def _inner(join: exp.Join) -> bool:
    tree = _join_tree(join.this)
    if tree is None:
        return is_inner_join(join)
    plain = join.copy()  # the join itself, over a plain table in place of its tree
    plain.set("this", exp.to_table("t"))
    return is_inner_join(plain)


def _join_tree(node: exp.Expr) -> tuple[exp.Table, list[exp.Join]] | None:
    """``(B, [joins])`` for an unaliased ``(B JOIN ...)`` of inner joins of plain sources."""
    if not isinstance(node, exp.Subquery) or truthy_args(node) != {"this"}:
        return None
    table = node.this
    if not isinstance(table, exp.Table) or not table.args.get("joins"):
        return None
    nested = list(table.args["joins"])
    if not all(is_inner_join(j) for j in nested):
        return None
    bare = table.copy()
    bare.set("joins", None)
    if not is_simple_source(bare):
        return None
    return bare, [j.copy() for j in nested]


def unnest_from_join_trees(expression: E) -> E:
    """Unnest a parenthesized join tree that is the first source of a FROM.

    Example:
        >>> import sqlglot
        >>> sql = "SELECT a.x FROM (a AS a LEFT JOIN b AS b ON a.x = b.x) JOIN c AS c ON TRUE"
        >>> unnest_from_join_trees(sqlglot.parse_one(sql)).sql()
        'SELECT a.x FROM a AS a LEFT JOIN b AS b ON a.x = b.x JOIN c AS c ON TRUE'
    """
    for select in list(expression.find_all(exp.Select)):
        from_ = select.args.get("from_")
        if from_ is None or select.args.get("laterals"):
            continue
        tree = from_.this
        if not isinstance(tree, exp.Subquery) or truthy_args(tree) != {"this"}:
            continue
        table = tree.this  # a table or a derived table, holding the tree's joins
        if not isinstance(table, (exp.Table, exp.Subquery)) or not table.args.get("joins"):
            continue
        nested = list(table.args["joins"])
        if any(join.args.get("using") or join.args.get("method") for join in nested):
            continue  # NATURAL or USING: the columns they merge are named by the tree
        bare = table.copy()
        bare.set("joins", None)
        if not is_simple_source(bare):
            continue
        from_.set("this", bare)
        select.set("joins", [join.copy() for join in nested] + list(select.args.get("joins") or []))
    return expression
