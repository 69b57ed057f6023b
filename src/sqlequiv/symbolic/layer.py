"""The z3 symbolic layer the checker uses by default."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlglot import exp

from sqlequiv.database import Database
from sqlequiv.deadline import NO_DEADLINE, Deadline
from sqlequiv.evidence import ProofEvidence
from sqlequiv.guard import GuardedQuery
from sqlequiv.normalize import (
    REWRITE_VARIANTS,
    SYMBOLIC_LIMITS,
    Limits,
    TooLarge,
    canonical_form,
    check_size,
)
from sqlequiv.options import Options
from sqlequiv.schema.model import Schema
from sqlequiv.search.domains import Domains
from sqlequiv.symbolic.outcome import BoundedOutcome
from sqlequiv.symbolic.prove.congruence import prove_by_parts
from sqlequiv.symbolic.prove.filters import same_filter
from sqlequiv.symbolic.prove.prover import MAX_CHECKS, Prover
from sqlequiv.symbolic.prove.witness import witness_databases

__all__ = ["NO_PROOF", "Z3Layer"]

#: What the prover's "no" means when it gives no reason: it read both queries, but their
#: shapes did not match or no pairing of their sources made every part provably agree.
NO_PROOF = (
    "no pairing of the two queries' sources made them provably agree (their shapes "
    "differ, or a condition, grouping or output column could not be proved equal)"
)


class Z3Layer:
    """Proofs over matching query shapes, witness rows, bounded verification.

    Every budget here is small on purpose: the layer runs on every pair, and a
    proof or a model that takes longer is rarely found at all. The budgets that
    decide are sizes and counts, so that a pair gets the same answer on any
    machine: the size of each query (``limits``; a larger pair is declined
    before any work), the number of solver calls of one proof
    (``max_checks``) and z3's deterministic resource limit per call, and the
    terms of a bounded encoding (``Options.max_encoding_terms``). The
    wall-clock budgets are safety nets only: generous ones per proof (a solver
    call may use what is left of it, so a loaded machine does not turn a call
    that the ``rlimit`` would let finish into no proof), and the check's
    ``deadline`` under all of them. Whatever stops the layer, it
    claims nothing: no proof, no witness, bounded status ``skipped`` or
    ``timeout``. After ``prove`` and ``witnesses``, :attr:`last_reason` says
    why there is no proof (or witness) and :attr:`stopped_by` which budget, if
    one, stopped the work (``"candidate: too large: ..."``, ``"check budget:
    ..."``, ``"time budget"``), for the verdict's evidence; :attr:`last_proof`
    puts the two together as the evidence's ``proof`` (None after a proof).

    The reason is the prover's (:attr:`Prover.last_reason`: the message of the first
    construct it could not read or translate). A reason that names a fact it could not
    establish rather than a construct may come with ``Prover.last_status =
    "not_found"``, which is then the evidence's status; without a reason, the
    status is ``not_found`` with :data:`NO_PROOF`.
    """

    name = "z3"

    def __init__(
        self,
        *,
        proof_budget: float = 10.0,
        solver_timeout_ms: int = 10_000,
        witness_budget: float = 2.0,
        max_checks: int = MAX_CHECKS,
        limits: Limits = SYMBOLIC_LIMITS,
    ) -> None:
        self.proof_budget = proof_budget
        self.solver_timeout_ms = solver_timeout_ms
        self.witness_budget = witness_budget
        self.max_checks = max_checks
        self.limits = limits
        self.last_reason: str | None = None
        self.stopped_by: str | None = None
        self.last_proof: ProofEvidence | None = None
        # The canonical forms of the last pair: prove() and witnesses() both need them.
        self._forms_of: tuple[GuardedQuery, GuardedQuery, Schema, bool] | None = None
        self._forms: tuple[exp.Expr, exp.Expr] | _Declined | None = None

    def prove(
        self,
        candidate: GuardedQuery,
        reference: GuardedQuery,
        schema: Schema,
        options: Options,
        *,
        deadline: Deadline = NO_DEADLINE,
    ) -> str | None:
        self.last_reason = self.stopped_by = self.last_proof = None
        method = self._prove_whole(candidate, reference, schema, options, deadline)
        if method is None and self._prove_by_parts(
            candidate, reference, schema, options, deadline
        ):
            self.last_reason = self.stopped_by = self.last_proof = None
            return "symbolic"
        return method

    def _prove_whole(
        self,
        candidate: GuardedQuery,
        reference: GuardedQuery,
        schema: Schema,
        options: Options,
        deadline: Deadline,
    ) -> str | None:
        """The prover on the two canonical forms, each as a whole."""
        forms = self._canonical_forms(candidate, reference, schema, options)
        if isinstance(forms, _Declined):
            self._declined(forms)
            self.last_proof = ProofEvidence(forms.status, forms.reason)
            return None
        tried: list[tuple[exp.Expr, exp.Expr]] = []
        for variant in REWRITE_VARIANTS:
            # The forms of the extended rewrites (joins a foreign key makes redundant
            # dropped, a WITH read twice copied), when those differ from the forms the
            # prover tried first (nothing new to try otherwise).
            if variant:
                forms = _forms(candidate, reference, schema, options, self.limits,
                               extended=True)  # fmt: skip
                if isinstance(forms, _Declined) or any(
                    all(a.sql() == b.sql() for a, b in zip(forms, seen, strict=True))
                    for seen in tried
                ):
                    break
            tried.append(forms)
            prover = self._prover(schema, options.ignore_column_order, deadline)
            proved = prover.equivalent(*forms)
            if not tried[1:] or proved:
                self.last_reason = prover.last_reason
                self.stopped_by = prover.stopped_by
            if proved:
                return "symbolic"
            if len(tried) == 1:
                self.last_proof = _no_proof(prover)
            if prover.stopped_by:
                break  # out of budget: a second attempt would be cut short too
        return None

    def _prover(self, schema: Schema, ignore_column_order: bool, deadline: Deadline) -> Prover:
        """A prover with this layer's budgets, its time cut to what ``deadline`` leaves."""
        return Prover(
            schema,
            ignore_column_order=ignore_column_order,
            solver_timeout_ms=self.solver_timeout_ms,
            time_budget=max(0.0, min(self.proof_budget, deadline.left())),
            max_checks=self.max_checks,
        )

    def _prove_by_parts(
        self,
        candidate: GuardedQuery,
        reference: GuardedQuery,
        schema: Schema,
        options: Options,
        deadline: Deadline,
    ) -> bool:
        """Whether the two canonical forms, past the prover's size limits or not proved
        whole, differ only in self-contained subqueries it proves equivalent
        (:mod:`sqlequiv.symbolic.prove.congruence`). The forms are the normalizer's, within
        its own limits; a pair stopped by a budget is not tried again."""
        if self.stopped_by is not None and not isinstance(self._forms, _Declined):
            return False  # the prover ran out of checks or time: parts would be cut short too
        if not (candidate.fully_qualified and reference.fully_qualified):
            return False

        def within_limits(*parts: exp.Expr) -> bool:
            # Each part within the limits a whole query has: a long literal costs z3
            # gigabytes, whatever the rlimit.
            try:
                for part in parts:
                    check_size(part, self.limits)
            except TooLarge:
                return False
            return True

        def prove(left: exp.Expr, right: exp.Expr) -> bool:
            if not within_limits(left, right):
                return False
            return self._prover(schema, False, deadline).equivalent(left, right)

        def filters_agree(left: exp.Expr, right: exp.Expr) -> bool:
            if not within_limits(left, right):
                return False
            return same_filter(left, right, self._prover(schema, False, deadline).solver)

        for variant in REWRITE_VARIANTS:
            try:
                forms = [
                    canonical_form(
                        query.qualified,
                        schema,
                        ignore_column_order=options.ignore_column_order,
                        extended=variant,
                    )
                    for query in (candidate, reference)
                ]
            except Exception:  # past the normalizer's limits, or a shape it cannot take
                return False
            if prove_by_parts(forms[0], forms[1], schema, prove, same_filter=filters_agree):
                return True
        return False

    def witnesses(
        self,
        candidate: GuardedQuery,
        reference: GuardedQuery,
        schema: Schema,
        domains: Domains,
        options: Options,
        *,
        deadline: Deadline = NO_DEADLINE,
    ) -> Sequence[Database]:
        self.last_reason = self.stopped_by = None
        forms = self._canonical_forms(candidate, reference, schema, options)
        if isinstance(forms, _Declined):
            self._declined(forms)
            return ()
        budget = max(0.0, min(self.witness_budget, deadline.left()))
        return witness_databases(*forms, schema, domains, time_budget=budget)

    def bounded(
        self,
        candidate: GuardedQuery,
        reference: GuardedQuery,
        schema: Schema,
        options: Options,
        *,
        deadline: Deadline = NO_DEADLINE,
    ) -> BoundedOutcome:
        from sqlequiv.symbolic.bounded.verify import bounded_check, suggest_row_bounds

        self.last_reason = self.stopped_by = None
        for query in (candidate, reference):
            try:
                check_size(query.qualified, self.limits)
            except TooLarge as err:  # the encoding would be as large: no claim
                return BoundedOutcome("skipped", None, None, f"{query.side}: {err}")
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
            max_terms=options.max_encoding_terms,
            deadline=deadline,
        )
        if result.status == "timeout":
            self.last_reason = self.stopped_by = result.reason
        return BoundedOutcome(
            result.status,
            result.bound if result.status in ("differ", "same", "timeout") else None,
            result.database,
            result.reason,
            row_bounds or None,
        )

    def _declined(self, forms: _Declined) -> None:
        """Record why the pair has no canonical forms (and the budget, if one is why)."""
        self.last_reason = forms.reason
        self.stopped_by = forms.reason if forms.status == "budget" else None

    def _canonical_forms(
        self, candidate: GuardedQuery, reference: GuardedQuery, schema: Schema, options: Options
    ) -> tuple[exp.Expr, exp.Expr] | _Declined:
        """Both canonical forms, or why there are none (computed once per pair: neither
        the prover nor the witness search modifies them)."""
        key = (candidate, reference, schema, options.ignore_column_order)
        cached = self._forms_of
        if cached is None or any(x is not y for x, y in zip(cached, key, strict=True)):
            self._forms = _forms(candidate, reference, schema, options, self.limits)
            self._forms_of = key
        assert self._forms is not None
        return self._forms


def _no_proof(prover: Prover) -> ProofEvidence:
    """Why ``prover`` found no proof, for the evidence."""
    if prover.stopped_by:
        return ProofEvidence("budget", prover.stopped_by)
    if prover.last_reason:
        status = getattr(prover, "last_status", None) or "unsupported"
        return ProofEvidence(str(status), prover.last_reason)
    return ProofEvidence("not_found", NO_PROOF)


@dataclass(frozen=True)
class _Declined:
    """Why a pair has no canonical forms, and the proof status that makes (``budget``
    when a size budget is the reason)."""

    reason: str
    status: str = "unsupported"


def _forms(
    candidate: GuardedQuery,
    reference: GuardedQuery,
    schema: Schema,
    options: Options,
    limits: Limits,
    *,
    extended: bool = False,
) -> tuple[exp.Expr, exp.Expr] | _Declined:
    if not (candidate.fully_qualified and reference.fully_qualified):
        return _Declined("a query sqlglot could not fully qualify")
    forms = []
    for query in (candidate, reference):
        try:
            forms.append(
                canonical_form(
                    query.qualified,
                    schema,
                    ignore_column_order=options.ignore_column_order,
                    limits=limits,
                    extended=extended,
                )
            )
        except TooLarge as err:
            return _Declined(f"{query.side}: {err}", status="budget")
        except Exception as err:  # a normalizer failure only means no proof
            return _Declined(
                f"{query.side}: the normalizer failed ({type(err).__name__})", status="failed"
            )
    return forms[0], forms[1]
