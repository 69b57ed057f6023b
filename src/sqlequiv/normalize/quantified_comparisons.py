"""Write ``x = ANY (subquery)`` as ``x IN (subquery)`` and ``x <> ALL (subquery)`` as
``NOT x IN (subquery)``.

Why this is sound: the SQL standard defines ``x IN (q)`` as ``x = ANY (q)``, and ``x
<> ALL (q)`` is ``NOT (x = ANY (q))`` in three-valued logic: both are TRUE on an empty
``q``, FALSE where some row equals ``x``, and otherwise NULL as soon as ``x`` or a row
is NULL (DuckDB, PostgreSQL and MySQL all follow it; the twelve cases of ``x`` in {1,
NULL} against ``q`` in {}, {2}, {2, NULL}, {1, NULL}, {1}, {NULL} were checked on
DuckDB). Only a quantifier over a query is rewritten: ``x = ANY (array)`` is another
function. Later rules then see one spelling (``not_in_to_not_exists`` reads ``NOT IN``).
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._util import replace_keeping_precedence, truthy_args

E = TypeVar("E", bound=exp.Expr)


def quantified_comparisons(expression: E) -> E:
    """Rewrite ``= ANY`` and ``<> ALL`` over a subquery as IN and NOT IN.

    Example:
        >>> import sqlglot
        >>> e = sqlglot.parse_one("SELECT a FROM t WHERE a <> ALL (SELECT b FROM u)")
        >>> quantified_comparisons(e).sql()
        'SELECT a FROM t WHERE NOT a IN (SELECT b FROM u)'
        >>> e = sqlglot.parse_one("SELECT a FROM t WHERE a = ANY (SELECT c FROM v)")
        >>> quantified_comparisons(e).sql()
        'SELECT a FROM t WHERE a IN (SELECT c FROM v)'
    """
    for node in list(expression.find_all(exp.EQ, exp.NEQ)):
        quantifier = node.expression
        wanted = exp.Any if isinstance(node, exp.EQ) else exp.All
        if type(quantifier) is not wanted:
            continue
        query = quantifier.this
        if isinstance(query, exp.Subquery) and truthy_args(query) == {"this"}:
            query = query.this
        if not isinstance(query, exp.Query):
            continue
        member = exp.In(this=node.this.copy(), query=exp.Subquery(this=query.copy()))
        replace_keeping_precedence(node, member if wanted is exp.Any else exp.Not(this=member))
    return expression
