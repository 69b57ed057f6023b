"""Rename a source that shadows a name of an enclosing query.

``SELECT item.id FROM item AS item WHERE item.code IN (SELECT item.code FROM item AS item
WHERE item.color = 'red')`` binds ``item`` twice: inside the subquery the name means the
inner source. That is how a query written without aliases reads once qualified (TPC-DS
writes ``i_item_id IN (SELECT i_item_id FROM item ...)`` inside a query over ``item``),
and it stops every rule that moves a condition across the two scopes (``in_to_exists``
would write ``item.code = item.code``, which the inner source captures). With the inner
source called ``item_0`` the query says the same, and those rules apply.

Why this is sound: this is a renaming of bound names (alpha-conversion). The inner
source's alias and exactly the column references that resolve to it get the new name,
one no identifier of the statement spells: a reference resolves to the innermost query
that binds its qualifier, and a derived table in a FROM clause sees the enclosing queries
but not its siblings. DuckDB lets a derived table read a sibling (an implicit LATERAL);
where a reference inside a derived table could mean a sibling, the query is left alone,
as it is with LATERAL, PIVOT or a WITH below the top level. Names stay as they are where
nothing is shadowed; the final names are chosen later by ``canonical_aliases``.
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._scoping import argument_nodes
from sqlequiv.normalize._util import fresh_name

E = TypeVar("E", bound=exp.Expr)

#: What a name bound by a query means to its own derived tables: a sibling, which only an
#: implicit LATERAL reads. A reference that resolves to it leaves the query alone.
_SIBLING = "\0sibling"


class _LeaveAlone(Exception):
    """A shape whose scoping this rule does not decide."""


def unshadow_aliases(expression: E) -> E:
    """Give each source alias that shadows an enclosing query's a fresh name.

    Example:
        >>> import sqlglot
        >>> e = sqlglot.parse_one("SELECT t.a FROM t AS t WHERE t.a IN "
        ...                       "(SELECT t.b FROM t AS t WHERE t.c = 1)")
        >>> unshadow_aliases(e).sql()
        'SELECT t.a FROM t AS t WHERE t.a IN (SELECT t_0.b FROM t AS t_0 WHERE t_0.c = 1)'
    """
    if not isinstance(expression, exp.Query):
        return expression
    if any(True for _ in expression.find_all(exp.Lateral, exp.Pivot)):
        return expression
    if any(with_ is not expression.args.get("with_") for with_ in expression.find_all(exp.With)):
        return expression
    work = expression.copy()
    try:
        _query(work, {}, work)
    except _LeaveAlone:
        return expression
    return work


def _query(query: exp.Expr, env: dict[str, str], root: exp.Expr) -> None:
    """Rename within ``query``, where ``env`` maps each visible name to its new name."""
    if isinstance(query, exp.Subquery):
        _query(query.this, env, root)
        _expressions(query, env, root, skip={"this", "alias"})
    elif isinstance(query, exp.SetOperation):
        _query(query.this, env, root)
        _query(query.expression, env, root)
        _expressions(query, env, root, skip={"this", "expression", "with_"})
    elif isinstance(query, exp.Select):
        _select(query, env, root)
    elif isinstance(query, exp.Values):
        _expressions(query, env, root, skip={"alias"})
    else:
        raise _LeaveAlone
    with_ = query.args.get("with_")
    if with_ is not None:
        for cte in with_.expressions:  # a CTE sees only what the statement sees
            _query(cte.this, env, root)


def _select(select: exp.Select, env: dict[str, str], root: exp.Expr) -> None:
    sources = _sources(select)
    own = {source.alias_or_name.lower() for source in sources}
    # Derived tables see the enclosing queries; a sibling only through an implicit LATERAL.
    derived_env = {**env, **dict.fromkeys(own, _SIBLING)}
    for source in sources:
        if isinstance(source, exp.Subquery | exp.Values):
            _query(source, derived_env, root)
        elif not isinstance(source, exp.Table):
            raise _LeaveAlone
    inner = dict(env)
    for source in sources:
        name = source.alias_or_name.lower()
        new = name
        if env.get(name, _SIBLING) != _SIBLING:  # shadows an enclosing query's source
            new = fresh_name(root, name)
            _set_alias(source, new)
        inner[name] = new
    for join in select.args.get("joins") or ():
        _expressions(join, inner, root, skip={"this"})
    _expressions(select, inner, root, skip={"from_", "joins", "with_"})


def _sources(select: exp.Select) -> list[exp.Expr]:
    found = []
    from_ = select.args.get("from_")
    if from_ is not None:
        found.append(from_.this)
    found.extend(join.this for join in select.args.get("joins") or ())
    if any(not source.alias_or_name for source in found):
        raise _LeaveAlone  # an unnamed source: nothing to resolve against
    return found


def _set_alias(source: exp.Expr, name: str) -> None:
    alias = source.args.get("alias")
    if isinstance(alias, exp.TableAlias):
        alias.set("this", exp.to_identifier(name))
    else:
        source.set("alias", exp.TableAlias(this=exp.to_identifier(name)))


def _expressions(node: exp.Expr, env: dict[str, str], root: exp.Expr, skip: set[str]) -> None:
    """Rename the column references in ``node``'s arguments but ``skip``; a query met on
    the way is renamed in its own scope."""
    stack = argument_nodes(node, skip)
    while stack:
        child = stack.pop()
        if isinstance(child, exp.Query):
            _query(child, env, root)
        elif isinstance(child, exp.Column) and child.table:
            new = env.get(child.table.lower())
            if new == _SIBLING:
                raise _LeaveAlone
            if new is not None and new != child.table.lower():
                child.set("table", exp.to_identifier(new))
        else:
            stack.extend(child.iter_expressions())
