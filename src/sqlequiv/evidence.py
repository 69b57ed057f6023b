"""What a check gathered on its way to a verdict: a typed value with a stable JSON form.

An ``unknown`` verdict is only as good as its evidence (how many databases were
tried, up to what bound z3 found no difference, which budget stopped which stage),
and a ``not_equivalent`` one says which stage found its counterexample. Every stage
writes its part here; the verdict, the CLI, grading records and the statistics read
it by field name.

The JSON form (:meth:`Evidence.to_dict`) is a contract like the verdict's: once a
search ran, every key below is present, ``null`` (or 0) where it does not apply;
a verdict decided before any search (a proof, an error) has ``{}``. Among the keys,
``proof`` says why the prover did not prove the pair (:class:`ProofEvidence`:
``{"status": ..., "reason": ...}``), ``null`` when no proving stage ran.

Example:
    >>> ev = Evidence(search=SearchEvidence(fixtures_tried=3, seed=0, max_fixtures=150,
    ...                                     time_budget_s=5.0, time_cap_hit=False, probes=3),
    ...               proof=ProofEvidence("unsupported", "window function"))
    >>> ev.to_dict()["fixtures_tried"], ev.to_dict()["bounded"], ev.to_dict()["proof"]
    (3, None, {'status': 'unsupported', 'reason': 'window function'})
    >>> Evidence().to_dict()
    {}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

#: Why a probe of a database was set aside rather than counted, as counted by the prober.
PROBE_OUTCOMES: tuple[str, ...] = ("ambiguous", "invalid", "nondeterministic", "runtime_error")


#: Why there is no proof, as :attr:`ProofEvidence.status` says it:
#:
#: * ``unsupported``: the prover met a construct outside what it handles (the reason
#:   names the first one it met: ``window function``, ``the function SUBSTRING (...)``);
#: * ``not_found``: it handled every construct and found no proof (the reason says what
#:   it could not establish, or that the shapes of the two queries did not match);
#: * ``budget``: a size or work budget stopped it (the reason names the budget);
#: * ``failed``: it broke down on the input (a recursion too deep, a normalizer failure);
#: * ``not_attempted``: it did not try (no symbolic layer, or an engine whose semantics
#:   its terms do not follow for these queries).
PROOF_STATUSES: tuple[str, ...] = ("unsupported", "not_found", "budget", "failed", "not_attempted")


@dataclass(frozen=True)
class ProofEvidence:
    """Why the proving stages did not prove the pair: a status of :data:`PROOF_STATUSES`
    and a reason a person can act on."""

    status: str
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {"status": self.status, "reason": self.reason}


@dataclass(frozen=True)
class SearchEvidence:
    """What the counterexample search did: databases tried, its budget, what it set aside."""

    fixtures_tried: int
    seed: int
    max_fixtures: int
    time_budget_s: float
    #: The wall-clock safety cap stopped the search (its outcome may then vary by machine).
    time_cap_hit: bool
    probes: int
    #: Probes set aside, by reason (:data:`PROBE_OUTCOMES`).
    set_aside: Mapping[str, int] = field(default_factory=dict)
    #: The engine that tried the random floor's first databases in place of the pair's
    #: own, when one did (:mod:`~sqlequiv.search.scout`); its finds were confirmed there.
    scout_engine: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out = {
            "fixtures_tried": self.fixtures_tried,
            "seed": self.seed,
            "budget": {"max_fixtures": self.max_fixtures, "time_budget_s": self.time_budget_s},
            "time_cap_hit": self.time_cap_hit,
            **{reason: self.set_aside.get(reason, 0) for reason in PROBE_OUTCOMES},
            "probes": self.probes,
        }
        if self.scout_engine is not None:
            out["scout_engine"] = self.scout_engine
        return out


@dataclass(frozen=True)
class BoundedEvidence:
    """What bounded verification (k symbolic rows per table) concluded."""

    #: ``same``, ``differ``, ``unsupported``, ``timeout``, ``skipped``, ...
    status: str
    #: No difference on any database with at most this many rows per table, when it
    #: counts as evidence (never on an engine whose semantics the encoding does not follow).
    bound: int | None = None
    reason: str | None = None
    row_bounds: Mapping[str, int] | None = None
    #: The engine whose semantics the encoding follows, when it is not the one that ran.
    semantics: str | None = None


@dataclass(frozen=True)
class Evidence:
    """Everything a check gathered; see the module docstring for the JSON form."""

    search: SearchEvidence | None = None
    #: stage -> which budget stopped it short (a size or a count; or a wall clock: the
    #: check's deadline, bounded verification's cap), or None when none did.
    budget_stops: Mapping[str, str] | None = None
    #: z3 witness databases that seeded the search.
    witnesses: int | None = None
    #: The search phase (``random``, ``seed``, ``hypothesis``) or ``bounded`` that found
    #: the reported counterexample.
    found_by: str | None = None
    #: Databases that differed in a probe but did not survive verification.
    rejected_counterexamples: int = 0
    bounded: BoundedEvidence | None = None
    #: The constant decision could not match the results' columns within its budget.
    ambiguous_columns: bool = False
    #: Why the prover did not prove the pair, when a proving stage ran.
    proof: ProofEvidence | None = None

    def to_dict(self) -> dict[str, Any]:
        if self == Evidence():
            return {}
        search = self.search.to_dict() if self.search is not None else _NO_SEARCH
        bounded = self.bounded
        return {
            **search,
            "budget_stops": dict(self.budget_stops) if self.budget_stops else None,
            "witnesses": self.witnesses,
            "found_by": self.found_by,
            "rejected_counterexamples": self.rejected_counterexamples,
            "bounded_status": bounded.status if bounded else None,
            "bounded_semantics": bounded.semantics if bounded else None,
            "bounded": bounded.bound if bounded else None,
            "bounded_reason": bounded.reason if bounded else None,
            "bounded_row_bounds": (
                dict(bounded.row_bounds) if bounded and bounded.row_bounds else None
            ),
            "ambiguous_columns": self.ambiguous_columns,
            "proof": self.proof.to_dict() if self.proof else None,
        }


_NO_SEARCH: dict[str, Any] = {
    "fixtures_tried": None,
    "seed": None,
    "budget": None,
    "time_cap_hit": None,
    **dict.fromkeys(PROBE_OUTCOMES),
    "probes": None,
}
