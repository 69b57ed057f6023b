"""Rewrite ``COUNT(<non-NULL constant>)`` as ``COUNT(*)``, and the non-NULL constants
of a CASE that COUNT counts as ``1``.

Why this is sound: ``COUNT(e)`` counts the rows on which ``e`` is not NULL; a
literal number, string or TRUE/FALSE is never NULL, so it counts every row,
which is ``COUNT(*)``. ``COUNT(column)`` (which skips NULLs) and
``COUNT(DISTINCT 1)`` (which is 0 or 1) are not touched. In ``COUNT(CASE WHEN p
THEN 'x' END)`` only whether each branch is NULL counts, so a branch's non-NULL
constant can be any other (``COUNT(CASE WHEN p THEN 1 END)``: the rows where ``p``
holds, however it was written).
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

E = TypeVar("E", bound=exp.Expr)


def count_star(expression: E) -> E:
    """Replace COUNT of a non-NULL literal by ``COUNT(*)``.

    Example:
        >>> import sqlglot
        >>> e = sqlglot.parse_one("SELECT COUNT(1), COUNT(a), COUNT(DISTINCT 1) FROM t")
        >>> count_star(e).sql()
        'SELECT COUNT(*), COUNT(a), COUNT(DISTINCT 1) FROM t'
        >>> count_star(sqlglot.parse_one("SELECT COUNT(CASE WHEN a THEN 'x' END) FROM t")).sql()
        'SELECT COUNT(CASE WHEN a THEN 1 END) FROM t'
    """
    for node in list(expression.find_all(exp.Count)):
        argument = node.this
        if node.expressions:
            continue
        if isinstance(argument, exp.Literal | exp.Boolean):
            node.set("this", exp.Star())
        elif isinstance(argument, exp.Case) and argument.this is None:
            _count_ones(argument)
    return expression


def _count_ones(case: exp.Case) -> None:
    """The non-NULL constant branches of ``case`` (a searched CASE) set to ``1``."""
    branches = [branch.args.get("true") for branch in case.args.get("ifs") or []]
    given = (*branches, case.args.get("default"))
    values = [v for v in given if v is not None and not isinstance(v, exp.Null)]
    # Only when every branch is a constant of one kind: the engine then gives the CASE a
    # type without casting one branch to another's, which could fail ('x' as INTEGER).
    kinds = {(type(v), isinstance(v, exp.Literal) and v.is_string) for v in values}
    if len(kinds) != 1 or not all(isinstance(v, exp.Literal | exp.Boolean) for v in values):
        return
    for value in values:
        if not _is_one(value):
            one = exp.Literal.number(1)
            one.type = exp.DataType.build("INT")
            value.replace(one)


def _is_one(value: exp.Expr) -> bool:
    return isinstance(value, exp.Literal) and not value.is_string and value.this == "1"
