"""The prover's solver calls and their budget: the one place that asks z3.

A proof's work is bounded by counting, not by the clock, so that the same pair gets
the same answer on a fast or a slow machine: each call has z3's deterministic
``rlimit``, a proof makes at most ``max_checks`` calls, and its floating-point and
nonlinear calls share one allowance of units (:mod:`~sqlequiv.symbolic.effort`). The
wall-clock limits (per call, per proof) are safety nets; when one fires the answer may
depend on the machine, and the prover says so.

:class:`ProofSolver` is what :class:`~sqlequiv.symbolic.prove.scope.Scope` and
:mod:`~sqlequiv.symbolic.prove.dependencies` receive to decide a formula, so neither
needs the :class:`~sqlequiv.symbolic.prove.prover.Prover` that owns it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Protocol

import z3

from sqlequiv.symbolic.effort import FLOAT_SHARE, Units, slow
from sqlequiv.symbolic.terms.formulas import bool_not

__all__ = ["BudgetExhausted", "Constrained", "ProofSolver"]


class BudgetExhausted(Exception):
    """The proof ran out of its budget (the message says which)."""


class Constrained(Protocol):
    """What a formula is decided under: the constraints of the rows it speaks of."""

    def constraints(self) -> list[z3.BoolRef]: ...


@dataclass
class ProofSolver:
    """z3 calls under one proof's budget.

    Outside a proof (:meth:`start` not called, or :meth:`stop` called since) calls have
    no count or deadline: only each call's ``rlimit`` and timeout bound them.

    Example:
        >>> solver = ProofSolver(solver_rlimit=1_000_000, max_checks=1)
        >>> class Free:
        ...     def constraints(self):
        ...         return []
        >>> x = z3.Int("x")
        >>> solver.start()
        >>> solver.satisfiable(Free(), x > 1)
        True
        >>> solver.valid(Free(), x > 1)
        Traceback (most recent call last):
        ...
        sqlequiv.symbolic.prove.solver.BudgetExhausted: check budget: 1 solver calls
    """

    #: z3's deterministic work limit per call.
    solver_rlimit: int
    #: Calls one proof may make.
    max_checks: int
    #: Wall-clock safety nets, per call and per proof.
    solver_timeout_ms: int = 10_000
    time_budget: float = 10.0
    _deadline: float = field(default=0.0, init=False)
    _checks_left: int | None = field(default=None, init=False)
    _slow: Units = field(init=False)

    def __post_init__(self) -> None:
        # Units left to the running proof's floating-point and nonlinear calls: one such
        # call's share (see effort.FLOAT_SHARE). On the peer benchmarks and the corpus a
        # proof spent at most 8,669 units on such calls (verieql_calcite_132); a quarter
        # of the share was tried and an unknown's proof took as long (z3 bit-blasts
        # before it counts many units).
        self._slow = Units(self.solver_rlimit // FLOAT_SHARE)

    def start(self) -> None:
        """Open a proof's budget: its calls, its deadline, its slow units."""
        self._deadline = time.monotonic() + self.time_budget
        self._checks_left = self.max_checks
        self._slow = Units(self.solver_rlimit // FLOAT_SHARE)

    def stop(self) -> None:
        """Close the proof's budget (later calls are bounded one by one only)."""
        self._deadline = 0.0
        self._checks_left = None

    def tick(self) -> None:
        """Raise :class:`BudgetExhausted` once the proof's wall-clock net has passed."""
        if self._deadline and time.monotonic() > self._deadline:
            raise BudgetExhausted("time budget")

    def satisfiable(self, scope: Constrained, formula: z3.BoolRef) -> bool:
        """Whether ``formula`` can hold under the scope's constraints (unknown counts as yes)."""
        self.tick()
        if self._checks_left is not None:
            if self._checks_left <= 0:
                raise BudgetExhausted(f"check budget: {self.max_checks} solver calls")
            self._checks_left -= 1
        solver = z3.Solver()
        timeout = self.solver_timeout_ms
        if self._deadline:  # a call never runs past the proof's own safety net
            timeout = max(1, min(timeout, int((self._deadline - time.monotonic()) * 1000)))
        solver.set("timeout", timeout)
        constraints = scope.constraints()
        solver.add(*constraints, formula)
        if not slow([*constraints, formula]):
            solver.set("rlimit", self.solver_rlimit)
            return bool(solver.check() != z3.unsat)
        # None: no work left for it, unknown, which counts as yes.
        return bool(self._slow.check(solver, self.solver_rlimit) != z3.unsat)

    def valid(self, scope: Constrained, formula: z3.BoolRef) -> bool:
        """Whether ``formula`` holds under the scope's constraints (unknown counts as no)."""
        return not self.satisfiable(scope, bool_not(formula))
