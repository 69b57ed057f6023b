"""Write ``CASE x WHEN v THEN r ... END`` as ``CASE WHEN x = v THEN r ... END``.

An optimizer's simplifier turns one into the other (sqlglot writes ``CASE WHEN t.c = 0``
as ``CASE t.c WHEN 0``); the canonical form keeps the searched CASE.

Why this is sound: the standard defines the simple CASE by ``x = v`` (DuckDB's parser
rewrites it so, PostgreSQL compares with ``=``, and SQLite applies the affinity and
collation of ``x = v``, with ``x`` on the left as here). A NULL ``x`` or ``v`` makes
``x = v`` UNKNOWN, which a WHEN treats as not matched, as the simple CASE does. Two
conditions: ``x`` is written once and compared several times, so it must be
deterministic; and an engine may type ``x`` with all the ``v`` together (MySQL does), so
``x`` must compare with each ``v`` alone as with all of them (``_util.compared_alike``).
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._util import (
    compared_alike,
    comparison_operand,
    is_deterministic,
    reverse_preorder,
)

E = TypeVar("E", bound=exp.Expr)


def searched_case(expression: E) -> E:
    """Rewrite each simple CASE as the searched CASE it stands for.

    Example:
        >>> import sqlglot
        >>> from sqlglot.optimizer.annotate_types import annotate_types
        >>> e = annotate_types(sqlglot.parse_one(
        ...     "SELECT CASE CAST(a AS INT) WHEN 0 THEN 'z' WHEN 1 THEN 'o' END FROM t"))
        >>> searched_case(e).sql()
        "SELECT CASE WHEN CAST(a AS INT) = 0 THEN 'z' WHEN CAST(a AS INT) = 1 THEN 'o' END FROM t"
    """
    for node in reverse_preorder(expression):
        if not isinstance(node, exp.Case) or node.args.get("this") is None:
            continue
        subject = node.this
        branches = node.args.get("ifs") or []
        if not branches or not all(isinstance(b, exp.If) for b in branches):
            continue
        values = [branch.this for branch in branches]
        if not is_deterministic(subject) or not compared_alike(subject, *values):
            continue
        for branch, value in zip(branches, values, strict=True):
            equal = exp.EQ(
                this=comparison_operand(subject.copy()), expression=comparison_operand(value)
            )
            branch.set("this", equal)
        node.set("this", None)
    return expression
