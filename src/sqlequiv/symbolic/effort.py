"""How much work z3 may spend on one call: its resource limit, by what the call holds.

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
    }
)


def rlimit_for(formulas: Iterable[z3.ExprRef], limit: int) -> int:
    """``limit``, or its :data:`FLOAT_SHARE` part if the formulas do floating-point
    arithmetic.

    Example:
        >>> x = z3.FP("x", z3.Float64())
        >>> rlimit_for([z3.fpDiv(z3.RNE(), x, x) > x], 1600), rlimit_for([z3.Int("i") > 1], 1600)
        (25, 1600)
    """
    return limit // FLOAT_SHARE if floating(formulas) else limit


def floating(formulas: Iterable[z3.ExprRef]) -> bool:
    """Whether any of ``formulas`` does floating-point arithmetic (shared terms visited
    once)."""
    seen: set[int] = set()
    stack = [f for f in formulas if z3.is_expr(f)]
    while stack:
        node = stack.pop()
        key = node.get_id()
        if key in seen:
            continue
        seen.add(key)
        if z3.is_app(node):
            if node.decl().kind() in _FLOAT_ARITHMETIC:
                return True
            stack.extend(node.children())
        elif z3.is_quantifier(node):
            stack.append(node.body())
    return False
