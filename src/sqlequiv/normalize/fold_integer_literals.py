"""Fold ``+``, ``-`` and ``*`` of two integer literals: ``d_year = 1998 + 1`` is ``d_year = 1999``.

Optimizers fold constants (sqlglot's ``simplify`` writes TPC-DS's ``1998 + 1`` as
``1999``); the normalizer folds only what keeps the value and its type exactly.

Why this is sound: an integer literal that fits in 32 bits is an INTEGER in DuckDB,
SQLite, PostgreSQL and MySQL, and INTEGER ``+``, ``-``, ``*`` INTEGER is the exact
INTEGER result when it fits in 32 bits too (otherwise the operation may overflow,
widen or fail depending on the engine, and the node is left alone). Division is left
alone (``/`` is real division in DuckDB, integer division elsewhere).
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

E = TypeVar("E", bound=exp.Expr)

_LIMIT = 2**31
_OPERATIONS = {exp.Add: int.__add__, exp.Sub: int.__sub__, exp.Mul: int.__mul__}


def fold_integer_literals(expression: E) -> E:
    """Replace an operation on two 32-bit integer literals by its value.

    Example:
        >>> import sqlglot
        >>> fold_integer_literals(sqlglot.parse_one("SELECT a FROM t WHERE b = 1998 + 1")).sql()
        'SELECT a FROM t WHERE b = 1999'
    """
    for node in reversed(list(expression.find_all(exp.Add, exp.Sub, exp.Mul))):
        left, right = _integer(node.this), _integer(node.expression)
        if left is None or right is None:
            continue
        value = _OPERATIONS[type(node)](left, right)
        if -_LIMIT <= value < _LIMIT:
            folded: exp.Expr = exp.Literal.number(abs(value))
            if value < 0:  # as a parser reads -5
                folded = exp.Neg(this=folded)
            folded.type = node.type
            node.replace(folded)
    return expression


def _integer(node: exp.Expr) -> int | None:
    if isinstance(node, exp.Paren):
        return _integer(node.this)
    if isinstance(node, exp.Neg):
        value = _integer(node.this)
        return -value if value is not None else None
    if isinstance(node, exp.Literal) and node.is_int and not node.is_string:
        value = int(node.name)
        return value if -_LIMIT <= value < _LIMIT else None
    return None
