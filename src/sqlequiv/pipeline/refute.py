"""The stages that refute: the counterexample search, then bounded verification.

Each database they find passes :func:`verify` before it is reported: re-executed
from scratch, every constraint re-checked in Python and, wherever the engine may judge
a value otherwise than Python, in SQL; the difference compared again, and again with
the rows of every table in other orders. That is the soundness gate of every
``not_equivalent`` verdict.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from sqlequiv.database import Database
from sqlequiv.database.constraints import (
    python_check_is_exact,
    python_violations,
    sql_violations,
)
from sqlequiv.errors import QueryFailed, SchemaError
from sqlequiv.evidence import BoundedEvidence
from sqlequiv.execute.base import Executor
from sqlequiv.pipeline.counterexample import difference
from sqlequiv.pipeline.failures import LAYER_FAILURES, execution_error
from sqlequiv.pipeline.pair import Pair
from sqlequiv.search.naming import case_name
from sqlequiv.search.probe import Prober
from sqlequiv.search.run import (
    FLOOR_BEFORE_PROOF,
    SHAPED_BEFORE_PROOF,
    SearchResult,
    shapes_matter,
)
from sqlequiv.search.shrink import shrink
from sqlequiv.symbolic.outcome import BoundedOutcome
from sqlequiv.verdict import Counterexample, Verdict


def floor_search(pair: Pair) -> Verdict | None:
    """``not_equivalent`` with the first verified database of the first part of the
    random floor (tiny databases from the queries' constants), then, where the queries
    group or rank, of the first shaped databases, tried before any proof; else None.
    The rest of the floor opens :func:`fixture_search`.

    Where SQLite computes what DuckDB does, these databases are tried on SQLite, and
    DuckDB must confirm the find (:mod:`~sqlequiv.search.scout`); where it does not,
    or SQLite cannot run a query, they are tried again on DuckDB."""
    trees = [pair.candidate.qualified, pair.reference.qualified]

    def part() -> bool:
        search = pair.search
        if search.floor(up_to=FLOOR_BEFORE_PROOF):
            return True
        return shapes_matter(trees) and search.shaped(SHAPED_BEFORE_PROOF)

    scout = pair.scout
    if scout is not None:
        verdict = _search_part(pair, "floor_search", part, scout)
        if verdict is not None or pair.scout is not None:
            return verdict
    return _search_part(pair, "floor_search", part)


def fixture_search(pair: Pair) -> Verdict | None:
    """``not_equivalent`` with the first verified database the rest of the search finds
    (z3's witnesses first); None when it finds none, its evidence recorded."""
    domains = pair.domains
    with pair.timer.stage("witnesses"):
        try:
            seeds = list(
                pair.layer.witnesses(
                    pair.candidate,
                    pair.reference,
                    pair.schema,
                    domains,
                    pair.options,
                    deadline=pair.deadline,
                )
            )
            pair.note_stop("witnesses")
        except LAYER_FAILURES:
            seeds = []
    pair.evidence = dataclasses.replace(pair.evidence, witnesses=len(seeds))
    return _search_part(pair, "fixture_search", lambda: pair.search.rich(seeds))


def _search_part(
    pair: Pair, stage: str, part: Callable[[], bool], scout: Prober | None = None
) -> Verdict | None:
    """Run one part of the pair's search as the stage ``stage`` (probing with ``scout``
    if given), then report its finds: the first that passes :func:`verify` (all that
    pass, when the caller collects them); None if none does. A scout's failure, or a
    find of it that does not pass, drops the scout (:meth:`Pair.drop_scout`)."""
    search = pair.search
    with pair.timer.stage(stage):
        try:
            pair.engine.prepare(pair.schema)
            if scout is None:
                part()
                results = search.results()  # shrinks what was found
            else:
                scouted = _scouted(pair, scout, part)
                if scouted is None:
                    return None
                results = scouted
        except QueryFailed as exc:
            return execution_error(exc, pair)
        pair.past_deadline(stage)
    pair.evidence = dataclasses.replace(
        pair.evidence,
        search=results[0].evidence,
        budget_stops=dict(pair.budget_stops) or None,
    )
    fresh = [r for r in results if r.database is not None and id(r) not in pair.reported]
    if not fresh:
        return None
    with pair.timer.stage("verify"):
        for result in fresh:
            pair.reported.add(id(result))
            assert result.database is not None
            example = verify(result.database, pair)
            if example is not None and scout is not None and not _confirmed(result.database, pair):
                example = None
            if example is None:
                _rejected(pair)
                if scout is not None:
                    pair.drop_scout()
                    return None
                continue
            if pair.examples is None:
                return _refuted(pair, "fixture_search", result.phase, example)
            pair.examples.append(example)
    if pair.examples and (search.done or stage == "fixture_search"):
        return _refuted(pair, "fixture_search", results[0].phase, pair.examples[0])
    return None


def _scouted(pair: Pair, scout: Prober, part: Callable[[], bool]) -> list[SearchResult] | None:
    """``part`` of the search probed by ``scout``, and its finds shrunk there; None (the
    scout dropped) when the scout's engine cannot create the tables or run a query."""
    search = pair.search
    try:
        scout.executor.prepare(pair.schema)
        with search.probing_with(scout):
            part()
            return search.results()
    except (QueryFailed, SchemaError):
        pair.drop_scout()
        return None


def _confirmed(db: Database, pair: Pair) -> bool:
    """Whether the engine's own probe of a scout's find says the results differ beyond
    every tie-break at a LIMIT (:func:`verify` compares one run of each query)."""
    prober = pair.prober
    if not prober.may_tie:
        return True
    try:
        return prober.probe(db).differs
    except QueryFailed:
        return False


def bounded(pair: Pair) -> Verdict | None:
    """``not_equivalent`` with a verified model of the bounded encoding; otherwise None,
    with what the encoding concluded in the evidence."""
    with pair.timer.stage("bounded"):
        try:
            if pair.semantics_gap is not None:
                # Its models would be DuckDB's differences, not the engine's: on the
                # floor benchmark's SQLite pairs such runs cost 0.2 s per unknown and
                # refuted none. (Where the queries stay in the shared fragment, the
                # encoding means what the engine computes, and it runs.)
                outcome = BoundedOutcome("skipped", None, None, pair.semantics_gap)
            else:
                outcome = pair.layer.bounded(
                    pair.candidate, pair.reference, pair.schema, pair.options,
                    deadline=pair.deadline,
                )  # fmt: skip
                pair.note_stop("bounded")
        except LAYER_FAILURES as exc:
            outcome = BoundedOutcome(
                "unsupported", None, None, f"{type(exc).__name__}: {exc}"[:200]
            )
        # The bounded encoding follows DuckDB's semantics: its models are re-executed
        # like any candidate database, and its "same" is evidence only where the
        # queries mean on the engine what they mean on DuckDB.
        faithful = pair.semantics_gap is None
        pair.evidence = dataclasses.replace(
            pair.evidence,
            bounded=BoundedEvidence(
                status=outcome.status,
                bound=outcome.bound if outcome.status == "same" and faithful else None,
                reason=outcome.reason or None,
                row_bounds=outcome.row_bounds or None,
                semantics=None if faithful else "duckdb",
            ),
        )
        example = None
        if outcome.status == "differ" and outcome.database is not None:
            example = _verified_model(outcome.database, pair)
            if example is None:
                _rejected(pair)
    if example is None:
        return None
    if pair.examples is not None:
        pair.examples.append(example)
    return _refuted(pair, "bounded", "bounded", example)


def verify(db: Database, pair: Pair) -> Counterexample | None:
    """Re-execute ``db`` from scratch and re-check every constraint; None if it does not hold up.

    This is the soundness gate: nothing is reported ``not_equivalent`` without
    passing here.
    """
    schema, executor = pair.schema, pair.engine
    if python_violations(db, schema):
        return None
    try:
        executor.load(db)
        # The engine re-checks what Python may judge otherwise: values it stores or
        # compares in its own way (floats, decimals, timestamps, collations, SQLite's
        # affinities, PostgreSQL's types) and CHECKs. Where Python's check is the
        # engine's, the re-check (5-8 ms on DuckDB, most of a verification) is skipped.
        exact = executor.dialect == "duckdb" and python_check_is_exact(schema, db.filled)
        if not exact and sql_violations(
            schema, executor.scalar, executor.dialect, tables=db.filled
        ):
            return None
        cand_rows = executor.run(pair.candidate.executed_sql)
        ref_rows = executor.run(pair.reference.executed_sql)
    except QueryFailed:
        return None
    _, example = difference(
        _as_stored(db, executor), schema, pair.candidate, pair.reference, cand_rows, ref_rows,
        pair.options,
        lambda cause: case_name(db, schema, pair.domains, pair.harvested.mentioned, cause),
    )  # fmt: skip
    if example is None:
        return None
    # The difference must not be one order of the rows: re-executed with every table
    # reversed and shuffled (fixed seeds), it must hold each time, whatever the queries
    # hold (the search only does this where a query leaves something to the engine).
    try:
        if not pair.prober.holds_in_every_order(db):
            return None
    except QueryFailed:
        return None
    return dataclasses.replace(example, database=db)


def _verified_model(db: Database, pair: Pair) -> Counterexample | None:
    """A bounded model, shrunk like a search find, then verified from scratch."""
    if python_violations(db, pair.schema):
        return None
    prober = pair.prober
    try:
        if not prober.probe(db).differs:
            return None
        small = shrink(
            db,
            lambda d: prober.probe(d).differs,
            pair.schema,
            pair.domains,
            relevant=pair.harvested.mentioned,
        )
    except QueryFailed:
        return None
    return verify(small, pair) or verify(db, pair)


def _as_stored(db: Database, executor: Executor) -> Database:
    """``db`` with each value as the engine stored it: on SQLite a timestamp is the text
    ``'2026-09-30 14:00:00'`` (not ISO's ``T`` form, which compares differently as text)
    and a decimal a number, so the reported tables reproduce the difference as they are."""
    if executor.dialect != "sqlite":
        return db
    from sqlequiv.execute.sqlite_engine import sqlite_value

    return Database(
        {
            table: tuple(tuple(sqlite_value(v) for v in row) for row in rows)
            for table, rows in db.tables.items()
        }
    )


def _rejected(pair: Pair) -> None:
    """Count a database that differed in a probe but failed verification."""
    pair.evidence = dataclasses.replace(
        pair.evidence, rejected_counterexamples=pair.evidence.rejected_counterexamples + 1
    )


def _refuted(pair: Pair, method: str, found_by: str | None, example: Counterexample) -> Verdict:
    pair.evidence = dataclasses.replace(pair.gathered(), found_by=found_by)
    return pair.verdict(
        "not_equivalent", method=method, counterexample=example, evidence=pair.evidence
    )
