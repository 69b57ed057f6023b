"""AVG's final division, kept where z3 can decide it.

DuckDB computes ``AVG(x)`` of integers and decimals as
``double(sum) / (double(count) * 10**scale)``, each step rounded to nearest
even (checked on DuckDB 2.0: AVG of BIGINTs near 2**62 rounds the sum first).
Written as z3 terms, that converts an integer term to a float, and z3 returns
``unknown`` on almost every formula mixing integer terms and float
conversions, even tiny ones. So the division is encoded in one of two ways:

``exact`` (the default)
    An uninterpreted function ``avg(sum, count)`` per input type. DuckDB's
    division is one interpretation of it, so an UNSAT answer holds for the
    real AVG too: it is *sound*. Equal sums and counts still give equal
    averages (congruence), which is what most equivalences need. A SAT model
    may give the function values DuckDB would not compute; :meth:`Averages.refute`
    finds those and returns the true values as lemmas for a new solve
    (counterexample-guided refinement).

``approximate``
    The average as a DECIMAL with six more fractional digits than the input,
    truncated: linear integer arithmetic, easy for z3, so it finds models
    where the refinement does not converge. It is not DuckDB's value, so an
    encoding that uses it never supports an UNSAT claim; its models are
    re-executed like any other.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Literal

import z3

from sqlequiv.symbolic.terms import SymValue, Unsupported
from sqlequiv.symbolic.terms.domain import model_value
from sqlequiv.symbolic.terms.formulas import equal, select

__all__ = ["APPROXIMATE_DIGITS", "Averages"]

#: Extra fractional digits of the approximate average.
APPROXIMATE_DIGITS = 6

Mode = Literal["exact", "approximate"]


@dataclass(frozen=True)
class _Application:
    """One use of the abstract division: its arguments, result and input type."""

    total: z3.ExprRef
    count: z3.ArithRef
    result: z3.ExprRef
    scale: int
    floating: bool


@dataclass
class Averages:
    """Builds AVG results in one mode and remembers the abstract divisions it made."""

    mode: Mode = "exact"
    applications: list[_Application] = field(default_factory=list)
    _functions: dict[str, z3.FuncDeclRef] = field(default_factory=dict)

    @property
    def approximate(self) -> bool:
        return self.mode == "approximate"

    def divide(
        self, total: SymValue, count: z3.ArithRef, members: int, none: z3.BoolRef
    ) -> SymValue:
        """AVG from the SUM term ``total`` of the non-NULL inputs and their ``count``.

        ``members`` bounds the count (the approximation divides case by case).
        """
        if total.kind == "float":
            return self._abstract(total, count, none, floating=True)
        if total.kind not in ("int", "decimal"):
            raise Unsupported(f"AVG of a {total.kind} value")
        if self.mode == "exact":
            return self._abstract(total, count, none, floating=False)
        scaled = total.value * (10**APPROXIMATE_DIGITS)
        quotient: z3.ArithRef = z3.IntVal(0)
        for n in range(members, 0, -1):
            quotient = select(count == n, scaled / n, quotient)
        scale = total.scale + APPROXIMATE_DIGITS
        return SymValue("decimal", quotient, none, scale, precision=38)

    def _abstract(
        self, total: SymValue, count: z3.ArithRef, none: z3.BoolRef, *, floating: bool
    ) -> SymValue:
        double = z3.Float64()
        if floating:
            value = total.value
            if total.bits != 64:
                value = z3.fpFPToFP(z3.RNE(), value, double)
            name, domain = "avg#double", double
        else:
            value, name, domain = total.value, f"avg#scale{total.scale}", z3.IntSort()
        function = self._functions.get(name)
        if function is None:
            function = z3.Function(name, domain, z3.IntSort(), double)
            self._functions[name] = function
        result = function(value, count)
        self.applications.append(_Application(value, count, result, total.scale, floating))
        return SymValue("float", result, none, bits=64)

    def refute(self, model: z3.ModelRef) -> list[z3.BoolRef]:
        """Lemmas fixing the abstract divisions whose model value is not DuckDB's.

        Each lemma states the true value at the arguments the model chose;
        an empty list means every division in the model is genuine.
        """
        lemmas = []
        for app in self.applications:
            n = model.eval(app.count, model_completion=True).as_long()
            if n <= 0:
                continue  # AVG is NULL there: the value is never used
            if app.floating:
                total = model_value(model, SymValue("float", app.total, z3.BoolVal(False)))
                truth = total / float(n)
                argument: z3.ExprRef = z3.FPVal(total, z3.Float64())
            else:
                number = model.eval(app.total, model_completion=True).as_long()
                truth = float(number) / (float(n) * float(10**app.scale))
                argument = z3.IntVal(number)
            claimed = model_value(model, SymValue("float", app.result, z3.BoolVal(False)))
            if _same_double(claimed, truth):
                continue
            decl = app.result.decl()
            fact = equal(decl(argument, z3.IntVal(n)), z3.FPVal(truth, z3.Float64()))
            lemmas.append(fact)
        return list({lemma.get_id(): lemma for lemma in lemmas}.values())


def _same_double(a: float, b: float) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)
