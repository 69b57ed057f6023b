"""The symbolic layer (z3), and the seam the checker calls it through.

The checker calls a :class:`SymbolicLayer` at three points: after
normalization, to *prove* the pair equivalent (returning the method name,
``"symbolic"``); before the counterexample search, for *witness* databases that seed
it; and after a fruitless search, for *bounded* verification over every
database up to k rows per table. Each call gets the check's ``deadline``, a
wall-clock safety net it must stop at. :class:`NoSymbolic` does none of these;
:class:`~sqlequiv.symbolic.layer.Z3Layer` is the real one.

A layer may also say why it found no proof, in a ``last_proof`` attribute (a
:class:`~sqlequiv.evidence.ProofEvidence`) set by ``prove``; the checker puts it in the
verdict's evidence. A layer without one is taken to have found none, for no stated reason.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from sqlequiv.database import Database
from sqlequiv.deadline import NO_DEADLINE, Deadline
from sqlequiv.evidence import ProofEvidence
from sqlequiv.guard import GuardedQuery
from sqlequiv.options import Options
from sqlequiv.schema.model import Schema
from sqlequiv.search.domains import Domains
from sqlequiv.symbolic.outcome import BoundedOutcome

__all__ = ["BoundedOutcome", "NoSymbolic", "SymbolicLayer"]


class SymbolicLayer(Protocol):
    """What the checker asks of a symbolic reasoner."""

    def prove(
        self,
        candidate: GuardedQuery,
        reference: GuardedQuery,
        schema: Schema,
        options: Options,
        *,
        deadline: Deadline = NO_DEADLINE,
    ) -> str | None:
        """The name of the method that proved the pair equivalent, or None."""

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
        """Databases likely to separate the queries, tried before random ones."""

    def bounded(
        self,
        candidate: GuardedQuery,
        reference: GuardedQuery,
        schema: Schema,
        options: Options,
        *,
        deadline: Deadline = NO_DEADLINE,
    ) -> BoundedOutcome:
        """Bounded verification: a database that separates the queries, or the bound checked."""


class NoSymbolic:
    """The layer that proves nothing, proposes nothing and checks nothing."""

    name = "none"
    last_proof = ProofEvidence("not_attempted", "no symbolic layer (options.symbolic is off)")

    def prove(
        self,
        candidate: GuardedQuery,
        reference: GuardedQuery,
        schema: Schema,
        options: Options,
        *,
        deadline: Deadline = NO_DEADLINE,
    ) -> str | None:
        return None

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
        return ()

    def bounded(
        self,
        candidate: GuardedQuery,
        reference: GuardedQuery,
        schema: Schema,
        options: Options,
        *,
        deadline: Deadline = NO_DEADLINE,
    ) -> BoundedOutcome:
        return BoundedOutcome("skipped", None, None, "no symbolic layer")
