"""Inline CTEs: referenced once, or a few times with a deterministic body; drop unreferenced ones.

Why this is sound: a non-recursive CTE is a named query. Replacing its only
reference ``name AS a`` by the derived table ``(body) AS a`` gives the same
relation, provided the body is evaluated the same way in both places. That is
certain when the body is deterministic; when it is not (LIMIT without a total
order, window functions, volatile functions) we only inline into a position
that is evaluated once per query (the FROM of the main query or of a derived
table), never into a subquery expression that may be re-evaluated. A deterministic
body referenced in several places (four, or more if it is small) gets a copy in each: evaluated once
or once per place, it is the same bag of rows each time. A CTE that is never
referenced cannot influence the result and is removed.

Left alone: recursive WITH, nested WITH clauses (name shadowing), CTEs with a
column list, names that are also used inside earlier CTE bodies (where they
denote a base table of the same name).
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._util import is_inside, reproducible, truthy_args

E = TypeVar("E", bound=exp.Expr)

def inline_ctes(expression: E, *, copies: bool = True) -> E:
    """Inline single-reference CTEs as derived tables and drop unused ones; with
    ``copies``, a deterministic CTE read in a few places too (a copy in each).

    Example:
        >>> import sqlglot
        >>> sql = "WITH s AS (SELECT t.a AS a FROM t AS t) SELECT s.a AS a FROM s AS s"
        >>> inline_ctes(sqlglot.parse_one(sql)).sql()
        'SELECT s.a AS a FROM (SELECT t.a AS a FROM t AS t) AS s'
    """
    with_ = expression.args.get("with_")
    if not isinstance(expression, exp.Query) or not isinstance(with_, exp.With):
        return expression
    if with_.args.get("recursive") or truthy_args(with_) != {"expressions"}:
        return expression
    # A nested WITH could shadow one of our names; keep the analysis simple.
    if any(other is not with_ for other in expression.find_all(exp.With)):
        return expression

    ctes: list[exp.CTE] = list(with_.expressions)
    names = [cte.alias_or_name.lower() for cte in ctes]
    if len(set(names)) != len(names):
        return expression
    for cte in ctes:
        alias = cte.args.get("alias")
        if (
            truthy_args(cte) - {"this", "alias", "materialized"}
            or not isinstance(alias, exp.TableAlias)
            or alias.args.get("columns")
        ):
            return expression

    # Later CTEs (and the main query) may reference earlier ones, never the
    # reverse, so going backwards lets chains collapse in one pass.
    for index in reversed(range(len(ctes))):
        cte = ctes[index]
        name = names[index]
        earlier = ctes[: index + 1]
        if any(_references(body.this, name) for body in earlier):
            continue
        refs = [
            table
            for table in _references(expression, name)
            if not any(is_inside(table, other) for other in earlier)
        ]
        if not refs:
            cte.pop()
            continue
        if len(refs) > 1:
            if copies:
                _inline_copies(cte, refs)
            continue
        table = refs[0]
        if (
            table.name != cte.alias_or_name
            or truthy_args(table) - {"this", "alias"}
            or not isinstance(table.parent, exp.From | exp.Join)
        ):
            continue
        if not reproducible(cte.this) and not _evaluated_once(table):
            continue
        alias_name = table.alias or table.name
        body = cte.this
        cte.pop()
        table.replace(
            exp.Subquery(this=body, alias=exp.TableAlias(this=exp.to_identifier(alias_name)))
        )

    if not with_.expressions:
        expression.set("with_", None)
    return expression


#: A CTE read several times is inlined into at most this many places, if its body has at
#: most this many nodes (each place gets a copy), and the copies together at most
#: :data:`_MAX_ALL_COPIES` nodes: a small body (an optimizer's ``SELECT <every column>
#: FROM date_dim``, read in eight places) may be copied more often than a large one.
_MAX_COPIES = 32
_MAX_COPIED_NODES = 800
_MAX_ALL_COPIES = 3000


def _inline_copies(cte: exp.CTE, refs: list[exp.Table]) -> None:
    """Inline a CTE read in several places, a copy of its body in each, when the body is
    deterministic: evaluated once or once per place, a deterministic query is the same
    relation (the same bag of rows) each time. Left alone when a reference is not a plain
    ``name [AS alias]`` in a FROM or JOIN, or the copies would be too many or too big."""
    body = cte.this
    if len(refs) > _MAX_COPIES or not reproducible(body):
        return
    size = sum(1 for _ in body.walk())
    if size > _MAX_COPIED_NODES or size * len(refs) > max(_MAX_ALL_COPIES, 4 * size):
        return
    for table in refs:
        if (
            table.name != cte.alias_or_name
            or truthy_args(table) - {"this", "alias"}
            or not isinstance(table.parent, exp.From | exp.Join)
        ):
            return
    cte.pop()
    for table in refs:
        alias_name = table.alias or table.name
        table.replace(
            exp.Subquery(
                this=body.copy(), alias=exp.TableAlias(this=exp.to_identifier(alias_name))
            )
        )


def _references(node: exp.Expr, name: str) -> list[exp.Table]:
    # Case-insensitive on purpose: over-counting references only makes us
    # inline less, while under-counting could drop a CTE that is still used.
    return [
        table
        for table in node.find_all(exp.Table)
        if table.name.lower() == name and not table.args.get("db")
    ]


def _evaluated_once(table: exp.Table) -> bool:
    """Whether the FROM position of ``table`` is evaluated once per query.

    True when every query between ``table`` and the root is a derived table or
    a set-operation branch: never an expression subquery (which may be
    re-evaluated per row) and never the body of another CTE (which may itself
    be evaluated once per reference).
    """
    node: exp.Expr = table
    while node.parent is not None:
        parent = node.parent
        if isinstance(node, exp.Query | exp.Subquery) and not isinstance(
            parent, exp.Subquery | exp.From | exp.Join | exp.SetOperation
        ):
            return False
        node = parent
    return True
