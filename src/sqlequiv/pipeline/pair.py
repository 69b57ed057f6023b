"""The state one check carries from stage to stage.

A :class:`Pair` starts as two guarded queries, their schema and the options, and
gathers on its way what later stages reuse (the harvested constants, the value
domains, the engine, the prober) and the evidence every stage adds.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from sqlglot import exp

from sqlequiv.database import Database
from sqlequiv.deadline import NO_DEADLINE, Deadline
from sqlequiv.errors import QueryFailed
from sqlequiv.evidence import Evidence
from sqlequiv.execute import shared_executor
from sqlequiv.execute.base import Executor
from sqlequiv.execute.portable import portable, postgres_portable
from sqlequiv.guard import GuardedQuery
from sqlequiv.options import Options
from sqlequiv.results import ResultSet
from sqlequiv.schema.model import Schema
from sqlequiv.search.domains import Domains, build_domains
from sqlequiv.search.harvest import Harvest, harvest
from sqlequiv.search.probe import Prober
from sqlequiv.search.run import Search
from sqlequiv.search.scout import sqlite_scout
from sqlequiv.symbolic import SymbolicLayer
from sqlequiv.verdict import Counterexample, Verdict, VerdictKind

#: Rows per table (each row a tuple in the schema's column order), e.g. sampled from
#: the real database, whose values the search also draws from.
SeedData = Mapping[str, Sequence[Sequence[Any]]]

_ENGINE_NAMES = {"sqlite": "SQLite", "postgres": "PostgreSQL"}


class Timer:
    """Milliseconds spent per stage, added up when a stage runs more than once."""

    def __init__(self) -> None:
        self.timings: dict[str, float] = {}

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        start = time.perf_counter()
        try:
            yield
        finally:
            elapsed = (time.perf_counter() - start) * 1000
            self.timings[name] = round(self.timings.get(name, 0.0) + elapsed, 3)


@dataclass
class Pair:
    """Two guarded queries to decide, and what the stages learn about them."""

    candidate: GuardedQuery
    reference: GuardedQuery
    schema: Schema
    options: Options
    layer: SymbolicLayer
    timer: Timer
    #: The engine the caller gave (grading passes its own); else the thread's shared one.
    executor: Executor | None = None
    seed_data: SeedData | None = None
    #: How many distinguishing databases to look for; found ones go to ``examples``
    #: when the caller collects them (:func:`~sqlequiv.api.distinguishing_fixtures`).
    stop_after: int = 1
    examples: list[Counterexample] | None = None
    #: Both results on the empty database, when the caller already ran them (grading
    #: does): no query is executed twice to learn that it runs.
    empty_results: tuple[ResultSet, ResultSet] | None = None
    evidence: Evidence = field(default_factory=Evidence)
    #: stage -> why a budget stopped it short (a size or count, or the check's deadline).
    budget_stops: dict[str, str] = field(default_factory=dict)
    #: The whole check's wall-clock safety net (``Options.check_time_budget`` from its start).
    deadline: Deadline = NO_DEADLINE
    #: Search results already verified (by ``id``), so a later stage reports only new ones.
    reported: set[int] = field(default_factory=set)

    @property
    def engine_name(self) -> str:
        """The engine the queries run on (``duckdb``, ``sqlite`` or ``postgres``): what a
        proof or a refutation is about."""
        return self.candidate.engine

    @property
    def server(self) -> str | None:
        """Which engine (and, for PostgreSQL, which server binaries) ran the queries;
        None when no query ran (a parse error, two identical texts)."""
        # Only an engine already made: a verdict must not start a server to name it.
        engine = self.executor or self.__dict__.get("engine")
        return getattr(engine, "server", None)

    @cached_property
    def engine(self) -> Executor:
        return self.executor or shared_executor(
            self.options.query_timeout, engine=self.candidate.engine
        )

    @cached_property
    def tables_read(self) -> set[str]:
        """Schema tables either query reads (CTE names excluded)."""
        return _tables_read(self.candidate.qualified) | _tables_read(self.reference.qualified)

    @cached_property
    def harvested(self) -> Harvest:
        return harvest([self.candidate.qualified, self.reference.qualified])

    @cached_property
    def searched(self) -> Schema:
        """The schema the search fills: the tables read and the parents their keys need."""
        return self.schema.closure(self.tables_read) if self.tables_read else self.schema

    @cached_property
    def domains(self) -> Domains:
        return build_domains(
            self.searched,
            self.harvested,
            self.options.max_rows,
            numeric_text=self.engine_name == "sqlite",
            samples=self.seed_data,
        )

    @cached_property
    def prober(self) -> Prober:
        return Prober(self.engine, self.schema, self.candidate, self.reference, self.options)

    @cached_property
    def scout(self) -> Prober | None:
        """A prober on SQLite that stands in for the engine's in the random floor, where
        SQLite computes what DuckDB does (:mod:`~sqlequiv.search.scout`); None elsewhere,
        and when the caller collects several distinguishing databases."""
        if self.examples is not None or self.stop_after != 1:
            return None
        return sqlite_scout(self.prober)

    def drop_scout(self) -> None:
        """Stop using the scout, and forget the search it ran: the next part of the
        search starts afresh on the engine."""
        self.__dict__["scout"] = None
        self.__dict__.pop("search", None)

    @cached_property
    def search(self) -> Search:
        """The pair's counterexample search, run a part at a time by the stages."""
        return Search(
            self.prober,
            self.searched,
            self.domains,
            self.options,
            stop_after=self.stop_after,
            relevant=self.harvested.mentioned,
            deadline=self.deadline,
        )

    @cached_property
    def semantics_gap(self) -> str | None:
        """Why the symbolic layer's terms, which mean what DuckDB computes, may not mean
        what this pair's engine computes for these queries; None when they do (the
        engine is DuckDB, or both queries stay where the two engines agree)."""
        if self.engine_name == "duckdb":
            return None
        engine = _ENGINE_NAMES.get(self.engine_name, self.engine_name)
        for query in (self.candidate, self.reference):
            if not portable(query.qualified, self.schema):
                return (
                    f"the {query.side} query uses what {engine} computes differently from "
                    "DuckDB, whose semantics the symbolic layer follows"
                )
        if self.engine_name == "postgres":
            bytewise = bool(getattr(self.engine, "bytewise_text", False))
            for query in (self.candidate, self.reference):
                if not postgres_portable(query.qualified, self.schema, bytewise_text=bytewise):
                    return (
                        f"the {query.side} query compares char(n) or text under a collation "
                        "that PostgreSQL and DuckDB, whose semantics the symbolic layer "
                        "follows, order differently"
                    )
        return None

    def verdict(self, kind: VerdictKind, **fields: Any) -> Verdict:
        """A verdict on this pair, with the options, timings and executed queries."""
        return Verdict(
            kind,
            options=self.options.to_dict(),
            timings=self.timer.timings,
            executed={
                "engine": self.engine_name,
                "server": self.server,
                "candidate": self.candidate.executed_sql,
                "reference": self.reference.executed_sql,
            },
            **fields,
        )

    def note_stop(self, stage: str) -> None:
        """Record why the symbolic layer stopped short in ``stage``, when a budget stopped
        it (a layer that does not say is taken to have finished)."""
        why = getattr(self.layer, "stopped_by", None)
        if why:
            self.budget_stops.setdefault(stage, str(why))

    def past_deadline(self, stage: str) -> bool:
        """Whether the check's deadline has passed; if so, recorded as what stopped ``stage``."""
        if not self.deadline.expired():
            return False
        self.budget_stops.setdefault(stage, self.deadline_reason)
        return True

    def gathered(self) -> Evidence:
        """The evidence so far, with every budget stop recorded until now."""
        return dataclasses.replace(self.evidence, budget_stops=dict(self.budget_stops) or None)

    @property
    def deadline_reason(self) -> str:
        return f"check deadline: {self.options.check_time_budget:g} s"

    def results_on_empty(self) -> tuple[ResultSet, ResultSet]:
        """Both queries' results on the empty database (run once, or given by the caller).

        Raises :class:`~sqlequiv.errors.QueryFailed`, its ``side`` set, when one fails."""
        if self.empty_results is None:
            engine = self.engine
            engine.prepare(self.schema)
            engine.load(Database({}))
            results = []
            for query in (self.candidate, self.reference):
                try:
                    results.append(engine.run(query.executed_sql))
                except QueryFailed as exc:
                    exc.side = query.side
                    raise
            self.empty_results = (results[0], results[1])
        return self.empty_results


def _tables_read(tree: exp.Expr) -> set[str]:
    ctes = {c.alias_or_name.lower() for c in tree.find_all(exp.CTE)}
    return {
        t.name.lower() for t in tree.find_all(exp.Table) if t.name and t.name.lower() not in ctes
    }
