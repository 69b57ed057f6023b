"""SQLite's REAL arithmetic, written one way: the spellings text-to-SQL uses for a real ratio.

BIRD's answers write a percentage as ``CAST(x AS REAL) * 100 / n``, ``100.0 * x / n``,
``x * 100.0 / n`` or ``x * 1.0 * 100 / n``: in SQLite all compute ``x`` as a REAL times
100.0, over ``n``. This fold writes each as ``CAST(x AS REAL) * 100.0 / n``:

* ``x * 1.0`` (or ``1.0 * x``) is ``CAST(x AS REAL)`` where an arithmetic operator reads
  it (a CAST has REAL affinity, a product none: ``x * 1.0 = '1'`` compares a REAL with a
  text, ``CAST(x AS REAL) = '1'`` converts the text first);
* ``x * r`` and ``r * x``, for a REAL literal ``r``, are ``CAST(x AS REAL) * r``;
* beside an operand that is surely a REAL (a CAST to REAL, a REAL literal, or arithmetic
  on one), an INTEGER literal ``n`` of at most 2**53 is the REAL literal ``n.0``.

Why this is sound, in SQLite only (it runs for SQLite queries; in DuckDB and PostgreSQL
``1.0`` is a DECIMAL and REAL a 4-byte float). A literal with a decimal point or an
exponent is a REAL. An arithmetic operator first gives a TEXT or BLOB operand its numeric
value as ``CAST(x AS NUMERIC)`` does (its numeric prefix; 0 for none); then, when either
operand is a REAL, it converts the other to a REAL and computes in doubles. So ``x * r``
is ``double(x) * r``: the numeric value of ``x`` as a double, which is ``CAST(x AS
REAL)``, times ``r`` (doubles multiply commutatively and exactly alike either way
round); times 1.0 it is that double itself. An INTEGER literal beside a REAL converts to
the double of the same value, exactly when it is at most 2**53, which is what its REAL
spelling reads as. NULL stays NULL throughout. ``tests/test_normal_form.py`` runs each
rule through SQLite on random stored values.
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._util import reverse_preorder

E = TypeVar("E", bound=exp.Expr)

#: The type sqlglot reads SQLite's REAL as.
REAL = exp.DataType.build("REAL", dialect="sqlite")

#: Operators that compute in doubles when one operand is a REAL.
_ARITHMETIC = (exp.Mul, exp.Div, exp.Add, exp.Sub)

#: The largest integer every double between 0 and it represents exactly.
_EXACT = 2**53


def changes(tree: exp.Expr) -> bool:
    """Whether :func:`sqlite_reals` would change ``tree`` (no copy when it would not)."""
    for node in tree.find_all(*_ARITHMETIC):
        sides = (node.this, node.expression)
        if isinstance(node, exp.Mul) and any(_real_literal(s) for s in sides):
            return True
        if any(_real(a) and _integer(b) for a, b in (sides, sides[::-1])):
            return True
    return False


def sqlite_reals(tree: E) -> E:
    """Write SQLite's REAL arithmetic one way (in place; see the module docstring).

    Example:
        >>> import sqlglot
        >>> q = "SELECT 100.0 * a / b, CAST(a AS REAL) * 100 / b, a * 1.0 / c FROM t"
        >>> print(sqlite_reals(sqlglot.parse_one(q, read="sqlite")).sql("sqlite"))
        SELECT CAST(a AS REAL) * 100.0 / b, CAST(a AS REAL) * 100.0 / b, CAST(a AS REAL) / c FROM t
    """
    for node in reverse_preorder(tree):
        if not isinstance(node, _ARITHMETIC):
            continue
        for side, other in (("this", "expression"), ("expression", "this")):
            if _real(node.args[other]) and _integer(node.args[side]):
                node.set(side, exp.Literal.number(f"{node.args[side].name}.0"))
        if isinstance(node, exp.Mul):
            _real_product(node)
    return tree


def _real_product(product: exp.Mul) -> None:
    """``x * 1.0`` as ``CAST(x AS REAL)``; ``x * r`` and ``r * x`` as ``CAST(x AS REAL) *
    r``."""
    sides: tuple[tuple[exp.Expr, exp.Expr], ...] = (
        (product.expression, product.this),
        (product.this, product.expression),
    )
    for literal, other in sides:
        if not _real_literal(literal):
            continue
        value = other.copy() if _real(other) else exp.cast(other.copy(), REAL)
        if float(literal.name) == 1.0 and isinstance(product.parent, _ARITHMETIC):
            # A CAST has REAL affinity, a product none: only where an operator reads it.
            product.replace(value)
        elif float(literal.name) != 1.0:
            product.replace(exp.Mul(this=value, expression=literal.copy()))
        return


def _real_literal(node: exp.Expr) -> bool:
    if not isinstance(node, exp.Literal) or node.is_string:
        return False
    text = node.name
    return ("." in text or "e" in text.lower()) and _parses(text)


def _integer(node: exp.Expr) -> bool:
    return (
        isinstance(node, exp.Literal)
        and not node.is_string
        and node.name.isdigit()
        and int(node.name) <= _EXACT
    )


def _real(node: exp.Expr) -> bool:
    """Whether ``node`` is surely a REAL (or NULL) in SQLite."""
    if isinstance(node, exp.Paren):
        return _real(node.this)
    if isinstance(node, exp.Cast):
        return node.to == REAL
    if isinstance(node, _ARITHMETIC):
        return _real(node.this) or _real(node.expression)
    return _real_literal(node)


def _parses(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True
