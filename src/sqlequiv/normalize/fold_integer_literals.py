"""Fold ``+``, ``-`` and ``*`` of two integer literals: ``d_year = 1998 + 1`` is ``d_year = 1999``.

Optimizers fold constants (sqlglot's ``simplify`` writes TPC-DS's ``1998 + 1`` as
``1999``); the normalizer folds only what keeps the value and its type exactly.

Why this is sound: an integer literal that fits in 32 bits is an INTEGER in DuckDB,
SQLite, PostgreSQL and MySQL, and INTEGER ``+``, ``-``, ``*`` INTEGER is the exact
INTEGER result when it fits in 32 bits too (otherwise the operation may overflow,
widen or fail depending on the engine, and the node is left alone). Division is left
alone (``/`` is real division in DuckDB, integer division elsewhere).

:func:`fold_decimal_comparands` folds decimal literals too (TPC-H's ``l_discount
BETWEEN 0.06 - 0.01 AND 0.06 + 0.01``), but only where a decimal literal is exact: not
for SQLite, which reads ``0.06`` as a REAL (``0.06 + 0.01`` is not the REAL ``0.07``).
The caller decides; see that function.
"""

from __future__ import annotations

from decimal import Decimal
from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._util import compared_with

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


def fold_string_literals(expression: E) -> E:
    """Replace ``'a' || 'b'`` (two string literals) by ``'ab'``.

    Why this is sound: ``||`` of two non-NULL strings is their concatenation, a string,
    in every engine that reads ``||`` as concatenation (sqlglot reads MySQL's ``||`` as
    OR, which is not this node), and a string literal is a string of the same type.

    Example:
        >>> import sqlglot
        >>> fold_string_literals(sqlglot.parse_one("SELECT 'ZOUROS' || ',' || 'ZHOU'")).sql()
        "SELECT 'ZOUROS,ZHOU'"
    """
    for node in reversed(list(expression.find_all(exp.DPipe))):
        left, right = node.this, node.expression  # (``safe`` is about NULLs: none here)
        if all(isinstance(s, exp.Literal) and s.is_string for s in (left, right)):
            folded = exp.Literal.string(left.name + right.name)
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


_NUMERIC = exp.DataType.NUMERIC_TYPES
_DECIMAL_OPERATIONS = {exp.Add: Decimal.__add__, exp.Sub: Decimal.__sub__, exp.Mul: Decimal.__mul__}


def fold_decimal_comparands(expression: E) -> E:
    """Replace ``+``, ``-`` or ``*`` of two numeric literals, one of them a decimal, by its
    value where it is compared with a number (an operand of a comparison, or a bound of a
    BETWEEN): ``d <= 0.06 + 0.01`` is ``d <= 0.07``.

    For engines whose decimal literals are exact (DuckDB, PostgreSQL and MySQL read them
    as DECIMAL or NUMERIC): the sum, difference or product of two exact decimals is
    exact, and written with the scale the engine gives it (the larger scale for ``+``
    and ``-``, their sum for ``*``) it is the same number. Only the result's precision
    may differ, which a comparison with a number does not see: it compares values, as
    exact decimals or, against a float, after one rounding of the same value. Anywhere
    else (an output column, a string comparison) the type would show, so it is left.

    Example:
        >>> import sqlglot
        >>> from sqlglot.optimizer.annotate_types import annotate_types
        >>> e = annotate_types(sqlglot.parse_one(
        ...     "SELECT 1 FROM t WHERE CAST(d AS DECIMAL(15, 2)) <= 0.06 + 0.01"))
        >>> fold_decimal_comparands(e).sql()
        'SELECT 1 FROM t WHERE CAST(d AS DECIMAL(15, 2)) <= 0.07'
    """
    for node in reversed(list(expression.find_all(exp.Add, exp.Sub, exp.Mul))):
        operand: exp.Expr = node
        while isinstance(operand.parent, exp.Paren):
            operand = operand.parent
        other = compared_with(operand)
        if other is None or other.type is None or other.type.this not in _NUMERIC:
            continue
        left, right = _decimal(node.this), _decimal(node.expression)
        if left is None or right is None or (left[1] == 0 and right[1] == 0):
            continue  # integers are fold_integer_literals' (which keeps their type)
        scale = left[1] + right[1] if isinstance(node, exp.Mul) else max(left[1], right[1])
        value = _DECIMAL_OPERATIONS[type(node)](left[0], right[0])
        text = f"{abs(value):.{scale}f}"
        folded: exp.Expr = exp.Literal.number(text)
        if value < 0:
            folded = exp.Neg(this=folded)
        folded.type = node.type
        node.replace(folded)
    return expression


def _decimal(node: exp.Expr) -> tuple[Decimal, int] | None:
    """The value of a numeric literal written without exponent, and its scale."""
    if isinstance(node, exp.Paren):
        return _decimal(node.this)
    if isinstance(node, exp.Neg):
        inner = _decimal(node.this)
        return (-inner[0], inner[1]) if inner is not None else None
    if not isinstance(node, exp.Literal) or node.is_string:
        return None
    text = node.name
    digits = text.replace(".", "", 1)
    if not digits.isdigit() or len(digits) > 18:
        return None
    scale = len(text) - text.index(".") - 1 if "." in text else 0
    return Decimal(text), scale
