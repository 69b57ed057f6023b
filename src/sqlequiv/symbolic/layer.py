"""The z3 symbolic layer the checker uses by default."""

from __future__ import annotations

from collections.abc import Sequence

from sqlglot import exp

from sqlequiv.database import Database
from sqlequiv.fixtures.domains import Domains
from sqlequiv.guard import GuardedQuery
from sqlequiv.normalize import canonical_form
from sqlequiv.options import Options
from sqlequiv.schema.model import Schema
from sqlequiv.symbolic.outcome import BoundedOutcome
from sqlequiv.symbolic.prove import Prover
from sqlequiv.symbolic.witness import witness_databases

__all__ = ["Z3Layer"]


class Z3Layer:
    """Proofs over matching query shapes, witness rows, bounded verification.

    Every budget here is small on purpose: the layer runs on every pair, and a
    proof or a model that takes longer is rarely found at all.
    """

    name = "z3"

    def __init__(
        self,
        *,
        proof_budget: float = 5.0,
        solver_timeout_ms: int = 3000,
        witness_budget: float = 2.0,
    ) -> None:
        self.proof_budget = proof_budget
        self.solver_timeout_ms = solver_timeout_ms
        self.witness_budget = witness_budget
        self.last_reason: str | None = None

    def prove(
        self, candidate: GuardedQuery, reference: GuardedQuery, schema: Schema, options: Options
    ) -> str | None:
        forms = _forms(candidate, reference, schema, options)
        if forms is None:
            return None
        prover = Prover(
            schema,
            ignore_column_order=options.ignore_column_order,
            solver_timeout_ms=self.solver_timeout_ms,
            time_budget=self.proof_budget,
        )
        proved = prover.equivalent(*forms)
        self.last_reason = prover.last_reason
        return "symbolic" if proved else None

    def witnesses(
        self,
        candidate: GuardedQuery,
        reference: GuardedQuery,
        schema: Schema,
        domains: Domains,
        options: Options,
    ) -> Sequence[Database]:
        forms = _forms(candidate, reference, schema, options)
        if forms is None:
            return ()
        return witness_databases(*forms, schema, domains, time_budget=self.witness_budget)

    def bounded(
        self, candidate: GuardedQuery, reference: GuardedQuery, schema: Schema, options: Options
    ) -> BoundedOutcome:
        from sqlequiv.symbolic.bounded import bounded_check, suggest_row_bounds

        # NATURAL / USING columns sqlglot could not resolve are re-bound by the encoder.
        row_bounds = suggest_row_bounds(candidate, reference, schema)
        result = bounded_check(
            candidate,
            reference,
            schema,
            max_bound=options.max_bound,
            time_budget=options.bounded_time_budget,
            row_bounds=row_bounds,
            check_order=options.check_order,
            ignore_column_order=options.ignore_column_order,
        )
        return BoundedOutcome(
            result.status,
            result.bound if result.status in ("differ", "same", "timeout") else None,
            result.database,
            result.reason,
            row_bounds or None,
        )


def _forms(
    candidate: GuardedQuery, reference: GuardedQuery, schema: Schema, options: Options
) -> tuple[exp.Expr, exp.Expr] | None:
    if not (candidate.fully_qualified and reference.fully_qualified):
        return None
    try:
        return (
            canonical_form(
                candidate.qualified, schema, ignore_column_order=options.ignore_column_order
            ),
            canonical_form(
                reference.qualified, schema, ignore_column_order=options.ignore_column_order
            ),
        )
    except Exception:  # a normalizer failure only means no proof
        return None
