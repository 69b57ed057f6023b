"""How much work z3 may spend on one call: its resource limit, by what the call holds.

(Nonlinear arithmetic, a product or quotient of two unknowns, counts as floating-point
arithmetic here: z3 spends its units on it as slowly, and proofs of it are as rare.)

z3's ``rlimit`` counts work, not time, so a verdict does not depend on how loaded the
machine is. One unit is cheap in most theories, but floating-point arithmetic is
bit-blasted: ``fpDiv`` over a DOUBLE spends the default limit in about six seconds,
for a proof that rarely exists (``d / 60 < 5`` against ``d < 300`` needs every bit of
the quotient). A call with floating-point arithmetic therefore gets a small part of
the limit.
"""

from __future__ import annotations

from collections.abc import Iterable

import z3

#: The share of the limit a call with floating-point arithmetic gets.
FLOAT_SHARE = 64

_FLOAT_ARITHMETIC = frozenset(
    {
        z3.Z3_OP_FPA_ADD,
        z3.Z3_OP_FPA_SUB,
        z3.Z3_OP_FPA_MUL,
        z3.Z3_OP_FPA_DIV,
        z3.Z3_OP_FPA_REM,
        z3.Z3_OP_FPA_FMA,
        z3.Z3_OP_FPA_SQRT,
        z3.Z3_OP_FPA_TO_FP,
    }
)


#: Operations that are nonlinear unless an operand is a number (``SUM(x) / COUNT(x)``):
#: z3's nonlinear arithmetic spends units as slowly as bit-blasting does.
_NONLINEAR = frozenset(
    {z3.Z3_OP_MUL, z3.Z3_OP_DIV, z3.Z3_OP_IDIV, z3.Z3_OP_MOD, z3.Z3_OP_REM, z3.Z3_OP_POWER}
)


def _nonlinear(node: z3.ExprRef) -> bool:
    """Whether more than one operand of a product or quotient is not a number."""
    if node.decl().kind() in (z3.Z3_OP_DIV, z3.Z3_OP_IDIV, z3.Z3_OP_MOD, z3.Z3_OP_REM):
        return not _numeral(node.arg(1))
    return sum(not _numeral(c) for c in node.children()) > 1


def _numeral(node: z3.ExprRef) -> bool:
    return bool(z3.is_int_value(node) or z3.is_rational_value(node) or z3.is_algebraic_value(node))


def rlimit_for(formulas: Iterable[z3.ExprRef], limit: int) -> int:
    """``limit``, or its :data:`FLOAT_SHARE` part if the formulas do floating-point or
    nonlinear arithmetic (:func:`slow`).

    Example:
        >>> x = z3.FP("x", z3.Float64())
        >>> rlimit_for([z3.fpDiv(z3.RNE(), x, x) > x], 1600), rlimit_for([z3.Int("i") > 1], 1600)
        (25, 1600)
    """
    return limit // FLOAT_SHARE if slow(formulas) else limit


def slow(formulas: Iterable[z3.ExprRef]) -> bool:
    """Whether any of ``formulas`` does floating-point or nonlinear arithmetic (shared
    terms visited once)."""
    seen: set[int] = set()
    stack = [f for f in formulas if z3.is_expr(f)]
    while stack:
        node = stack.pop()
        key = node.get_id()
        if key in seen:
            continue
        seen.add(key)
        if z3.is_app(node):
            kind = node.decl().kind()
            if kind in _FLOAT_ARITHMETIC or (kind in _NONLINEAR and _nonlinear(node)):
                return True
            stack.extend(node.children())
        elif z3.is_quantifier(node):
            stack.append(node.body())
    return False


def units_spent() -> int:
    """z3's count of resource units spent so far in this process: the count a call's
    ``rlimit`` is measured from, so the difference around a call is what it spent."""
    stats = z3.Solver().statistics()
    keys = stats.keys()  # z3's Statistics has no ``in``
    return int(stats.get_key_value("rlimit count")) if "rlimit count" in keys else 0
