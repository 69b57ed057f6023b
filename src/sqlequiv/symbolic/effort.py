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
    terms visited once).

    The walk reads z3's C API on the bare nodes: a Python wrapper per node (and per
    declaration) cost ~10 ms on a bounded encoding, called for every solver call. The
    nodes stay alive while ``formulas`` do, which hold them.

    Example:
        >>> x, y = z3.Ints("x y")
        >>> slow([x * 3 > y]), slow([x * y > 1]), slow([x % y == 0]), slow([x / 2 > 1])
        (False, True, True, False)
    """
    roots = [f for f in formulas if z3.is_expr(f)]
    if not roots:
        return False
    ctx = roots[0].ctx_ref()
    seen: set[int] = set()
    stack = [f.as_ast() for f in roots]
    while stack:
        node = stack.pop()
        key = z3.Z3_get_ast_id(ctx, node)
        if key in seen:
            continue
        seen.add(key)
        kind = z3.Z3_get_ast_kind(ctx, node)
        if kind == z3.Z3_QUANTIFIER_AST:
            stack.append(z3.Z3_get_quantifier_body(ctx, node))
            continue
        if kind != z3.Z3_APP_AST:
            continue
        op = z3.Z3_get_decl_kind(ctx, z3.Z3_get_app_decl(ctx, node))
        args = [z3.Z3_get_app_arg(ctx, node, i) for i in range(z3.Z3_get_app_num_args(ctx, node))]
        if op in _FLOAT_ARITHMETIC:
            return True
        if op in _NONLINEAR:
            if op == z3.Z3_OP_MUL:
                if sum(not _numeral(ctx, a) for a in args) > 1:
                    return True
            elif len(args) > 1 and not _numeral(ctx, args[1]):
                return True  # a quotient or remainder by an unknown
        stack.extend(args)
    return False


def _numeral(ctx: z3.ContextObj, node: z3.Ast) -> bool:
    return bool(
        z3.Z3_get_ast_kind(ctx, node) == z3.Z3_NUMERAL_AST or z3.Z3_is_algebraic_number(ctx, node)
    )


def units_spent() -> int:
    """z3's count of resource units spent so far in this process: the count a call's
    ``rlimit`` is measured from, so the difference around a call is what it spent."""
    stats = z3.Solver().statistics()
    keys = stats.keys()  # z3's Statistics has no ``in``
    return int(stats.get_key_value("rlimit count")) if "rlimit count" in keys else 0


class Units:
    """A budget of z3 resource units that several solver calls share.

    Example:
        >>> budget = Units(1_000_000)
        >>> solver = z3.Solver()
        >>> solver.add(z3.Int("i") > 1)
        >>> budget.check(solver, 4_000_000), 0 < budget.left < 1_000_000
        (sat, True)
        >>> Units(0).check(solver, 4_000_000) is None
        True
    """

    def __init__(self, total: int) -> None:
        self.left = total

    def check(
        self, solver: z3.Solver, limit: int, *shared: Units
    ) -> z3.CheckSatResult | None:
        """``solver.check()`` within ``limit`` units and what is left of this budget and
        of the ``shared`` ones, each charged what it spent; None (not run) when one of
        them has nothing left."""
        budgets = (self, *shared)
        room = min(limit, *(b.left for b in budgets))
        if room <= 0:
            return None
        solver.set("rlimit", room)
        before = units_spent()
        answer = solver.check()
        spent = units_spent() - before
        for budget in budgets:
            budget.left -= spent
        return answer
