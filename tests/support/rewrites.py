"""Query rewrites for the property tests: some preserve semantics, some change them.

Each takes a parsed sqlglot tree and returns a new tree, or None when the
rewrite does not apply to that query.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from sqlglot import exp

Rewrite = Callable[[exp.Expression, random.Random], exp.Expression | None]


def _selects(tree: exp.Expression) -> list[exp.Select]:
    return list(tree.find_all(exp.Select))


# -- semantics-preserving ------------------------------------------------------------


def rename_table_aliases(tree: exp.Expression, rng: random.Random) -> exp.Expression | None:
    """Give every aliased table a fresh alias, updating the columns that use it."""
    tree = tree.copy()
    changed = False
    for table in list(tree.find_all(exp.Table)):
        old = table.alias
        if not old:
            continue
        new = f"r{rng.randrange(10_000)}_{old}"
        select = table.find_ancestor(exp.Select)
        if select is None:
            continue
        # Only rename when no nested scope reuses the alias (correlation stays unambiguous).
        if sum(1 for t in tree.find_all(exp.Table) if t.alias == old) != 1:
            continue
        for column in tree.find_all(exp.Column):
            if column.table == old:
                column.set("table", exp.to_identifier(new))
        table.set("alias", exp.TableAlias(this=exp.to_identifier(new)))
        changed = True
    return tree if changed else None


def reorder_conjuncts(tree: exp.Expression, rng: random.Random) -> exp.Expression | None:
    """Shuffle the AND-ed conditions of every WHERE clause."""
    tree = tree.copy()
    changed = False
    for select in _selects(tree):
        where = select.args.get("where")
        if where is None:
            continue
        conjuncts = list(where.this.flatten()) if isinstance(where.this, exp.And) else []
        if len(conjuncts) < 2:
            continue
        rng.shuffle(conjuncts)
        select.set("where", exp.Where(this=exp.and_(*[c.copy() for c in conjuncts])))
        changed = True
    return tree if changed else None


def between_to_comparisons(tree: exp.Expression, rng: random.Random) -> exp.Expression | None:
    """``x BETWEEN a AND b`` -> ``(x >= a AND x <= b)``."""
    tree = tree.copy()
    nodes = list(tree.find_all(exp.Between))
    for node in nodes:
        low, high = node.args["low"], node.args["high"]
        node.replace(
            exp.Paren(
                this=exp.and_(
                    exp.GTE(this=node.this.copy(), expression=low.copy()),
                    exp.LTE(this=node.this.copy(), expression=high.copy()),
                )
            )
        )
    return tree if nodes else None


def wrap_in_derived_table(tree: exp.Expression, rng: random.Random) -> exp.Expression | None:
    """``q`` -> ``SELECT * FROM (q) AS w`` (not for ordered queries: order would not survive)."""
    if tree.args.get("order") or tree.find(exp.Order) or _duplicate_names(tree):
        return None
    return exp.select("*").from_(
        exp.Subquery(this=tree.copy(), alias=exp.TableAlias(this=exp.to_identifier("w")))
    )


def wrap_in_cte(tree: exp.Expression, rng: random.Random) -> exp.Expression | None:
    """``q`` -> ``WITH w AS (q) SELECT * FROM w``."""
    if (
        tree.args.get("order")
        or tree.find(exp.Order)
        or tree.args.get("with_")
        or tree.args.get("with")
    ):
        return None
    if _duplicate_names(tree):
        return None
    return exp.select("*").from_("w").with_("w", as_=tree.copy())


def swap_inner_join(tree: exp.Expression, rng: random.Random) -> exp.Expression | None:
    """``FROM a JOIN b ON p`` -> ``FROM b JOIN a ON p`` for a two-table inner join."""
    if not isinstance(tree, exp.Select):
        return None
    joins = tree.args.get("joins") or []
    source = tree.args.get("from_") or tree.args.get("from")
    if len(joins) != 1 or source is None:
        return None
    join = joins[0]
    if join.side or join.kind not in ("", "INNER") or not join.args.get("on"):
        return None
    if not isinstance(source.this, exp.Table) or not isinstance(join.this, exp.Table):
        return None
    tree = tree.copy()
    source = tree.args.get("from_") or tree.args.get("from")
    join = tree.args["joins"][0]
    left, right = source.this.copy(), join.this.copy()
    source.set("this", right)
    join.set("this", left)
    return tree


def _duplicate_names(tree: exp.Expression) -> bool:
    if not isinstance(tree, exp.Select):
        return True
    names = [s.alias_or_name for s in tree.selects]
    return len(names) != len(set(names)) or any(n in ("", "*") for n in names)


PRESERVING: dict[str, Rewrite] = {
    "rename_table_aliases": rename_table_aliases,
    "reorder_conjuncts": reorder_conjuncts,
    "between_to_comparisons": between_to_comparisons,
    "wrap_in_derived_table": wrap_in_derived_table,
    "wrap_in_cte": wrap_in_cte,
    "swap_inner_join": swap_inner_join,
}


# -- semantics-changing -------------------------------------------------------------


def drop_distinct(tree: exp.Expression, rng: random.Random) -> exp.Expression | None:
    if not isinstance(tree, exp.Select) or not tree.args.get("distinct"):
        return None
    tree = tree.copy()
    tree.set("distinct", None)
    return tree


def on_filter_to_where(tree: exp.Expression, rng: random.Random) -> exp.Expression | None:
    """Move the non-key conjuncts of a LEFT JOIN's ON clause into WHERE."""
    if not isinstance(tree, exp.Select):
        return None
    tree = tree.copy()
    for join in tree.args.get("joins") or []:
        if join.side != "LEFT" or not isinstance(join.args.get("on"), exp.And):
            continue
        conjuncts = list(join.args["on"].flatten())
        keep = [
            c
            for c in conjuncts
            if isinstance(c, exp.EQ)
            and all(isinstance(x, exp.Column) for x in (c.this, c.expression))
        ]
        move = [c for c in conjuncts if c not in keep]
        if not keep or not move:
            continue
        join.set("on", exp.and_(*[c.copy() for c in keep]))
        tree.where(exp.and_(*[c.copy() for c in move]), copy=False)
        return tree
    return None


def count_column_to_star(tree: exp.Expression, rng: random.Random) -> exp.Expression | None:
    tree = tree.copy()
    counts = [c for c in tree.find_all(exp.Count) if isinstance(c.this, exp.Column)]
    if not counts:
        return None
    counts[0].set("this", exp.Star())
    return tree


def gte_to_gt(tree: exp.Expression, rng: random.Random) -> exp.Expression | None:
    tree = tree.copy()
    nodes = list(tree.find_all(exp.GTE))
    if not nodes:
        return None
    node = nodes[0]
    node.replace(exp.GT(this=node.this.copy(), expression=node.expression.copy()))
    return tree


def inner_to_left_join(tree: exp.Expression, rng: random.Random) -> exp.Expression | None:
    tree = tree.copy()
    for join in tree.find_all(exp.Join):
        if not join.side and join.kind in ("", "INNER") and join.args.get("on"):
            join.set("kind", None)
            join.set("side", "LEFT")
            return tree
    return None


CHANGING: dict[str, Rewrite] = {
    "drop_distinct": drop_distinct,
    "on_filter_to_where": on_filter_to_where,
    "count_column_to_star": count_column_to_star,
    "gte_to_gt": gte_to_gt,
    "inner_to_left_join": inner_to_left_join,
}
