"""The seam for the symbolic layer (z3).

The checker calls a :class:`SymbolicLayer` between normalization and the
fixture search. It may prove the pair equivalent (returning the name of the
method, e.g. ``"symbolic"``) and may propose witness databases that seed the
fixture search. :class:`NoSymbolic` does neither; the z3 implementation plugs
in here without the rest of the pipeline changing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from sqlequiv.database import Database
from sqlequiv.fixtures.domains import Domains
from sqlequiv.guard import GuardedQuery
from sqlequiv.schema.model import Schema


class SymbolicLayer(Protocol):
    """What the checker asks of a symbolic reasoner."""

    def prove(self, candidate: GuardedQuery, reference: GuardedQuery, schema: Schema) -> str | None:
        """The name of the method that proved the pair equivalent, or None."""

    def witnesses(
        self,
        candidate: GuardedQuery,
        reference: GuardedQuery,
        schema: Schema,
        domains: Domains,
    ) -> Sequence[Database]:
        """Databases likely to separate the queries, tried before random ones."""


class NoSymbolic:
    """The layer that proves nothing and proposes nothing."""

    name = "none"

    def prove(self, candidate: GuardedQuery, reference: GuardedQuery, schema: Schema) -> str | None:
        return None

    def witnesses(
        self,
        candidate: GuardedQuery,
        reference: GuardedQuery,
        schema: Schema,
        domains: Domains,
    ) -> Sequence[Database]:
        return ()
