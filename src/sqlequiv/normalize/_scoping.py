"""Which names a query reads from outside itself.

A query is *closed* when every qualified column in it names a source bound inside it: it
reads nothing of an enclosing query, so it denotes the same rows wherever it stands.
Scoping as SQL has it: a reference resolves to the innermost query that binds its
qualifier, and a derived table in a FROM clause sees the enclosing queries but not its
siblings (an implicit LATERAL reading a sibling counts as reading from outside).
"""

from __future__ import annotations

from sqlglot import exp

__all__ = ["argument_nodes", "closed"]


def closed(query: exp.Expr) -> bool:
    """Whether ``query`` reads no column of an enclosing query (nor uses LATERAL or PIVOT,
    whose scoping is not followed here).

    Example:
        >>> import sqlglot
        >>> closed(sqlglot.parse_one("SELECT u.a FROM u AS u WHERE u.b > 1"))
        True
        >>> closed(sqlglot.parse_one("SELECT u.a FROM u AS u WHERE u.b > t.b"))
        False
    """
    return _closed(query, frozenset())


def _closed(query: exp.Expr, bound: frozenset[str]) -> bool:
    """Whether every qualified column of ``query`` names a source bound inside it (a
    derived table sees the enclosing queries, not its siblings)."""
    if isinstance(query, exp.Subquery):
        return _closed(query.this, bound) and _closed_in(query, bound, {"this", "alias"})
    if isinstance(query, exp.SetOperation):
        return (
            _closed(query.this, bound)
            and _closed(query.expression, bound)
            and _closed_in(query, bound, {"this", "expression", "with_"})
        )
    if not isinstance(query, exp.Select):
        return isinstance(query, exp.Values)
    with_ = query.args.get("with_")
    if with_ is not None and not all(_closed(cte.this, bound) for cte in with_.expressions):
        return False
    from_ = query.args.get("from_")
    sources = ([from_.this] if from_ is not None else []) + [
        join.this for join in query.args.get("joins") or ()
    ]
    for source in sources:
        if isinstance(source, exp.Subquery | exp.Values):
            if not _closed(source, bound):
                return False
        elif not isinstance(source, exp.Table) or not source.alias_or_name:
            return False
    inner = bound | {source.alias_or_name.lower() for source in sources}
    if not all(_closed_in(join, inner, {"this"}) for join in query.args.get("joins") or ()):
        return False
    return _closed_in(query, inner, {"from_", "joins", "with_"})


def argument_nodes(node: exp.Expr, skip: set[str]) -> list[exp.Expr]:
    """The expression children of ``node``'s arguments, but those named in ``skip``."""
    return [
        child
        for key, value in node.args.items()
        if key not in skip
        for child in (value if isinstance(value, list) else [value])
        if isinstance(child, exp.Expr)
    ]


def _closed_in(node: exp.Expr, bound: frozenset[str], skip: set[str]) -> bool:
    stack = argument_nodes(node, skip)
    while stack:
        child = stack.pop()
        if isinstance(child, exp.Query):
            if not _closed(child, bound):
                return False
        elif isinstance(child, exp.Column) and child.table:
            if child.table.lower() not in bound:
                return False
        elif isinstance(child, exp.Lateral | exp.Pivot):
            return False
        else:
            stack.extend(child.iter_expressions())
    return True
