"""The one entry point: ``check(candidate, reference, schema, dialect, options)``.

Stages run cheap to expensive and the first that decides stops the check:
parse and guard -> normalize -> symbolic -> fixture search -> verify ->
classify. Each stage's time is recorded in the verdict.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from sqlglot import exp

from sqlequiv.classify import classify
from sqlequiv.compare import compare_results, to_json_value
from sqlequiv.database import Database
from sqlequiv.database.constraints import python_violations, sql_violations
from sqlequiv.errors import QueryFailed, Side, SqlequivError
from sqlequiv.execute import engine_for, shared_executor
from sqlequiv.execute.base import Executor
from sqlequiv.guard import GuardedQuery, guard_query
from sqlequiv.normalize import TooLarge, canonical_sql
from sqlequiv.options import Options
from sqlequiv.policy import varies_between_runs
from sqlequiv.portable import portable
from sqlequiv.results import Comparison, ResultSet
from sqlequiv.schema import Schema, load_schema
from sqlequiv.search.domains import Domains, build_domains
from sqlequiv.search.harvest import Harvest, harvest
from sqlequiv.search.naming import case_name
from sqlequiv.search.probe import Prober, order_keys_for
from sqlequiv.search.run import search
from sqlequiv.search.shrink import shrink
from sqlequiv.symbolic import NoSymbolic, SymbolicLayer
from sqlequiv.symbolic.outcome import BoundedOutcome
from sqlequiv.verdict import Cause, Counterexample, ErrorInfo, Verdict

SchemaSource = Schema | str | os.PathLike[str] | Mapping[str, Any]
#: Rows per table (each row a tuple in the schema's column order), e.g. sampled from
#: the real database, whose values the fixture search also draws from.
SeedData = Mapping[str, Sequence[Sequence[Any]]]

_log = logging.getLogger(__name__)


class _Timer:
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


def check(
    candidate: str,
    reference: str,
    schema: SchemaSource,
    dialect: str = "duckdb",
    options: Options | None = None,
    *,
    executor: Executor | None = None,
    symbolic: SymbolicLayer | None = None,
    seed_data: SeedData | None = None,
) -> Verdict:
    """Decide whether ``candidate`` returns the same rows as ``reference`` on every database.

    Never raises for bad input: an unparsable query, an unknown column or a
    schema that does not load comes back as a verdict ``error``. Nor for a bug:
    an unexpected exception in a stage is an ``error`` of kind ``internal_error``
    naming it (with ``SQLEQUIV_STRICT=1`` in the environment, as the test-suite
    sets it, it is raised instead, so that no test can pass over one).

    Example:
        >>> v = check("SELECT a FROM t WHERE a > 1", "SELECT a FROM t WHERE a >= 1",
        ...           "CREATE TABLE t (a INT)")
        >>> v.verdict, v.counterexample.cause
        ('not_equivalent', 'filter_window')
        >>> v.counterexample.missing_rows
        [[1]]
    """
    options = options or Options()
    timer = _Timer()
    return _contained(
        lambda: _check(
            candidate, reference, schema, dialect, options, timer, executor, symbolic, seed_data
        ),
        options,
        timer,
    )


def _contained(run: Callable[[], Verdict], options: Options, timer: _Timer) -> Verdict:
    """``run()``, with bad input as an ``error`` verdict and a bug as an ``internal_error``
    (re-raised under ``SQLEQUIV_STRICT``)."""
    try:
        return run()
    except SqlequivError as err:
        return Verdict(
            "error",
            error=ErrorInfo(err.side, err.kind, err.message, err.line, err.col),
            options=options.to_dict(),
            timings=timer.timings,
        )
    except Exception as exc:
        if os.environ.get("SQLEQUIV_STRICT"):
            raise
        return _internal_error(exc, options, timer)


def _internal_error(exc: Exception, options: Options, timer: _Timer) -> Verdict:
    """The last resort for a bug in a stage: an ``error`` verdict that names it, and a log
    record with the traceback. It claims nothing about the queries, so it is never unsound."""
    _log.error("internal error in check()", exc_info=exc)
    lines = str(exc).strip().splitlines()
    detail = f"{type(exc).__name__}: {lines[0][:300]}" if lines else type(exc).__name__
    return Verdict(
        "error",
        error=ErrorInfo(
            "internal", "internal_error", f"sqlequiv failed ({detail}); please report it"
        ),
        options=options.to_dict(),
        timings=timer.timings,
    )


def _check(
    candidate_sql: str,
    reference_sql: str,
    schema_source: SchemaSource,
    dialect: str,
    options: Options,
    timer: _Timer,
    executor: Executor | None,
    symbolic: SymbolicLayer | None,
    seed_data: SeedData | None = None,
    stop_after: int = 1,
    examples: list[Counterexample] | None = None,
) -> Verdict:
    base: dict[str, Any] = {"options": options.to_dict(), "timings": timer.timings}
    with timer.stage("schema"):
        schema = (
            load_schema(schema_source, dialect)
            if not isinstance(schema_source, Schema)
            else schema_source
        )
    engine_name = executor.dialect if executor is not None else engine_for(dialect)
    sides: tuple[tuple[str, Side], ...] = (
        (candidate_sql, "candidate"),
        (reference_sql, "reference"),
    )
    with timer.stage("guard"):
        cand, ref = (
            guard_query(
                sql,
                schema,
                dialect=dialect,
                side=side,
                engine=engine_name,
                max_length=options.max_query_length,
                max_nodes=options.max_query_nodes,
            )
            for sql, side in sides
        )
    base["executed"] = {
        "engine": engine_name,
        "candidate": cand.executed_sql,
        "reference": ref.executed_sql,
    }

    with timer.stage("normalize"):
        stopped: dict[str, str] = {}  # the stages a size budget stopped, and why
        forms = [_canonical(q, schema, options, stopped) for q in (cand, ref)]
        if not (cand.fully_qualified and ref.fully_qualified):
            forms = [None, None]  # no proof rests on a tree sqlglot could not resolve
    if forms[0] is not None and forms[0] == forms[1]:
        return _proved("normalized", cand, ref, schema, options, executor, base)

    layer = _layer(symbolic, options)
    with timer.stage("symbolic"):
        try:
            # The symbolic layer's terms mean what DuckDB computes; on SQLite (type
            # affinity, text compared as text) a proof of them is about another engine,
            # unless both queries stay where the two engines agree.
            provable = engine_name == "duckdb" or (
                portable(cand.qualified, schema) and portable(ref.qualified, schema)
            )
            proved = layer.prove(cand, ref, schema, options) if provable else None
            _note_stop(stopped, "symbolic", layer)
        except _LAYER_FAILURES:  # a proof that cannot be attempted is no proof
            proved = None
    if proved:
        return _proved(proved, cand, ref, schema, options, executor, base)

    read = _tables_read(cand) | _tables_read(ref)
    if not read and not (_volatile(cand) or _volatile(ref)):
        # Neither query reads a table: both results are the same on every
        # database, so one execution decides (and proves equality).
        with timer.stage("constant"):
            return _decide_constant(cand, ref, schema, options, executor, base)

    harvested = _harvest(cand, ref, schema)
    # Only the tables the queries read, and the parents their keys need, get rows.
    searched = schema.closure(read) if read else schema
    domains = build_domains(
        searched,
        harvested,
        options.max_rows,
        numeric_text=engine_name == "sqlite",
        samples=seed_data,
    )
    with timer.stage("witnesses"):
        try:
            seeds = list(layer.witnesses(cand, ref, schema, domains, options))
            _note_stop(stopped, "witnesses", layer)
        except _LAYER_FAILURES:
            seeds = []
    engine = executor or shared_executor(options.query_timeout, dialect)
    with timer.stage("fixture_search"):
        engine.prepare(schema)
        prober = Prober(engine, schema, cand, ref, options)
        try:
            results = search(
                prober,
                searched,
                domains,
                options,
                seeds=seeds,
                stop_after=stop_after,
                relevant=harvested.mentioned,
            )
        except QueryFailed as exc:
            return _execution_error(exc, base)
    evidence = dict(results[0].evidence)
    evidence["budget_stops"] = stopped or None
    evidence["witnesses"] = len(seeds)
    with timer.stage("verify"):
        for result in results:
            if result.database is None:
                continue
            example = verify(
                result.database, cand, ref, schema, options, engine, domains, harvested
            )
            if example is not None and examples is not None:
                examples.append(example)
            if example is not None and examples is None:
                evidence["found_by"] = result.phase
                return Verdict(
                    "not_equivalent",
                    method="fixture_search",
                    counterexample=example,
                    evidence=evidence,
                    **base,
                )
            if example is None:
                evidence["rejected_counterexamples"] = (
                    evidence.get("rejected_counterexamples", 0) + 1
                )
    if examples:
        evidence["found_by"] = results[0].phase
        return Verdict(
            "not_equivalent",
            method="fixture_search",
            counterexample=examples[0],
            evidence=evidence,
            **base,
        )
    with timer.stage("bounded"):
        try:
            outcome = layer.bounded(cand, ref, schema, options)
        except _LAYER_FAILURES as exc:
            outcome = BoundedOutcome(
                "unsupported", None, None, f"{type(exc).__name__}: {exc}"[:200]
            )
        same = outcome.status == "same"
        evidence["bounded_status"] = outcome.status
        if engine_name != "duckdb":
            # The bounded encoding follows DuckDB's semantics: on SQLite its models are
            # re-executed like any candidate database, and its "same" is no evidence.
            evidence["bounded_semantics"] = "duckdb"
            same = False
        evidence["bounded"] = outcome.bound if same else None
        if outcome.reason:
            evidence["bounded_reason"] = outcome.reason
        if outcome.row_bounds:
            evidence["bounded_row_bounds"] = outcome.row_bounds
        example = None
        if outcome.status == "differ" and outcome.database is not None:
            example = _verified_model(
                outcome.database, cand, ref, schema, options, engine, prober, domains, harvested
            )
            if example is None:
                evidence["rejected_counterexamples"] = (
                    evidence.get("rejected_counterexamples", 0) + 1
                )
    if example is not None:
        if examples is not None:
            examples.append(example)
        evidence["found_by"] = "bounded"
        return Verdict(
            "not_equivalent", method="bounded", counterexample=example, evidence=evidence, **base
        )
    return Verdict("unknown", method=None, evidence=evidence, **base)


#: What an input too big or too strange for the symbolic layer raises (a 300-term sum
#: recurses past Python's limit, a 5,000-digit literal is beyond int()): the layer then
#: claims nothing, and the execution-based stages decide. Never a reason to say "same".
_LAYER_FAILURES = (RecursionError, ValueError, OverflowError, ArithmeticError, MemoryError)


def _layer(symbolic: SymbolicLayer | None, options: Options) -> SymbolicLayer:
    if symbolic is not None:
        return symbolic
    if not options.symbolic:
        return NoSymbolic()
    from sqlequiv.symbolic.layer import Z3Layer  # z3 loads only when used

    return Z3Layer()


def _verified_model(
    db: Database,
    cand: GuardedQuery,
    ref: GuardedQuery,
    schema: Schema,
    options: Options,
    engine: Executor,
    prober: Prober,
    domains: Domains,
    harvested: Harvest,
) -> Counterexample | None:
    """A bounded model, shrunk like a fixture-search find, then verified from scratch."""
    if python_violations(db, schema):
        return None
    try:
        if not prober.probe(db).differs:
            return None
        small = shrink(
            db, lambda d: prober.probe(d).differs, schema, domains, relevant=harvested.mentioned
        )
    except QueryFailed:
        return None
    return verify(small, cand, ref, schema, options, engine, domains, harvested) or verify(
        db, cand, ref, schema, options, engine, domains, harvested
    )


def distinguishing_fixtures(
    candidate: str,
    reference: str,
    schema: SchemaSource,
    dialect: str = "duckdb",
    options: Options | None = None,
    *,
    limit: int = 5,
    executor: Executor | None = None,
    symbolic: SymbolicLayer | None = None,
    seed_data: SeedData | None = None,
) -> tuple[Verdict, list[Counterexample]]:
    """Like :func:`check`, but keep searching for up to ``limit`` distinct distinguishing databases.

    Every database returned was re-executed and constraint-checked like the
    one in a ``not_equivalent`` verdict.
    """
    options = options or Options()
    timer = _Timer()
    examples: list[Counterexample] = []
    verdict = _contained(
        lambda: _check(
            candidate,
            reference,
            schema,
            dialect,
            options,
            timer,
            executor,
            symbolic,
            seed_data,
            stop_after=limit,
            examples=examples,
        ),
        options,
        timer,
    )
    return verdict, examples


def verify(
    db: Database,
    cand: GuardedQuery,
    ref: GuardedQuery,
    schema: Schema,
    options: Options,
    executor: Executor,
    domains: Domains,
    harvested: Harvest,
) -> Counterexample | None:
    """Re-execute ``db`` from scratch and re-check every constraint; None if it does not hold up.

    This is the soundness gate: nothing is reported ``not_equivalent`` without
    passing here.
    """
    if python_violations(db, schema):
        return None
    try:
        executor.load(db)
        if sql_violations(schema, executor.scalar, executor.dialect):
            return None
        cand_rows = executor.run(cand.executed_sql)
        ref_rows = executor.run(ref.executed_sql)
    except QueryFailed:
        return None
    comparison = compare_results(cand_rows, ref_rows, options, order_keys_for(ref, options))
    if comparison.equal or comparison.ambiguous:
        return None
    cause, detail = classify(comparison, cand_rows, ref_rows, cand.qualified, ref.qualified)
    name = case_name(db, schema, domains, harvested.mentioned, cause)
    shown = _as_stored(db, executor)
    return build_counterexample(
        shown, schema, cand_rows, ref_rows, comparison, cause, detail, name
    )


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


def build_counterexample(
    db: Database,
    schema: Schema,
    cand_rows: ResultSet,
    ref_rows: ResultSet,
    comparison: Comparison,
    cause: Cause,
    detail: str,
    name: str = "any_database",
) -> Counterexample:
    """The reportable form of a difference found on ``db`` (values as JSON)."""
    return Counterexample(
        tables={
            t.name: [
                {c: to_json_value(v) for c, v in zip(t.column_names, row, strict=True)}
                for row in db.rows(t.name)
            ]
            for t in schema
        },
        candidate_rows=[[to_json_value(v) for v in row] for row in cand_rows.rows],
        reference_rows=[[to_json_value(v) for v in row] for row in ref_rows.rows],
        cause=cause,
        detail=detail,
        name=name,
        candidate_columns=list(cand_rows.columns),
        reference_columns=list(ref_rows.columns),
        missing_rows=[[to_json_value(v) for v in row] for row in comparison.missing],
        extra_rows=[[to_json_value(v) for v in row] for row in comparison.extra],
    )


def _note_stop(stopped: dict[str, str], stage: str, layer: SymbolicLayer) -> None:
    """Record why ``layer`` stopped short in ``stage``, when a budget stopped it (a layer
    that does not say is taken to have finished)."""
    why = getattr(layer, "stopped_by", None)
    if why:
        stopped.setdefault(stage, str(why))


def _canonical(
    query: GuardedQuery, schema: Schema, options: Options, stopped: dict[str, str]
) -> str | None:
    tree = query.qualified
    if query.engine == "sqlite":
        tree = _sqlite_like_patterns(tree)
    try:
        return canonical_sql(tree, schema, ignore_column_order=options.ignore_column_order)
    except TooLarge as err:  # past the normalizer's size budget: no proof from it
        stopped.setdefault("normalize", f"{query.side}: {err}")
        return None
    except Exception:  # a rewrite that cannot handle a shape just leaves the pair unproved
        return None


def _sqlite_like_patterns(tree: exp.Expression) -> exp.Expression:
    """``tree`` with constant LIKE patterns in lower case: SQLite's LIKE ignores the case of
    ASCII letters (and PRAGMA case_sensitive_like is refused), so ``LIKE 'A%'`` and
    ``LIKE 'a%'`` are the same test there. Only for the canonical form; the query runs as
    written."""
    tree = tree.copy()
    for like in tree.find_all(exp.Like):
        pattern = like.expression
        if isinstance(like.parent, exp.Escape) or not (
            isinstance(pattern, exp.Literal) and pattern.is_string
        ):
            continue
        lowered = "".join(ch.lower() if ch.isascii() else ch for ch in pattern.name)
        pattern.replace(exp.Literal.string(lowered))
    return tree


def _tables_read(query: GuardedQuery) -> set[str]:
    """Schema tables the query reads (CTE names excluded)."""
    ctes = {c.alias_or_name.lower() for c in query.qualified.find_all(exp.CTE)}
    return {
        t.name.lower()
        for t in query.qualified.find_all(exp.Table)
        if t.name and t.name.lower() not in ctes
    }


def _volatile(query: GuardedQuery) -> bool:
    return varies_between_runs(query.qualified)


def _proved(
    method: str,
    cand: GuardedQuery,
    ref: GuardedQuery,
    schema: Schema,
    options: Options,
    executor: Executor | None,
    base: dict[str, Any],
) -> Verdict:
    """``equivalent`` by ``method``, once both queries have run (a proof about a query
    DuckDB rejects, e.g. for a type error, would be about nothing)."""
    ran = _run_on_empty_database(cand, ref, schema, options, executor, base)
    if isinstance(ran, Verdict):
        return ran
    return Verdict("equivalent", method=method, **base)


def _run_on_empty_database(
    cand: GuardedQuery,
    ref: GuardedQuery,
    schema: Schema,
    options: Options,
    executor: Executor | None,
    base: dict[str, Any],
) -> tuple[ResultSet, ResultSet] | Verdict:
    """Both queries' results on the empty database, or the error verdict of the one that fails."""
    engine = executor or shared_executor(options.query_timeout, cand.dialect)
    engine.prepare(schema)
    engine.load(Database({}))
    results = []
    for side, query in (("candidate", cand), ("reference", ref)):
        try:
            results.append(engine.run(query.executed_sql))
        except QueryFailed as exc:
            exc.side = side
            return _execution_error(exc, base)
    return results[0], results[1]


def _decide_constant(
    cand: GuardedQuery,
    ref: GuardedQuery,
    schema: Schema,
    options: Options,
    executor: Executor | None,
    base: dict[str, Any],
) -> Verdict:
    ran = _run_on_empty_database(cand, ref, schema, options, executor, base)
    if isinstance(ran, Verdict):
        return ran
    cand_rows, ref_rows = ran
    comparison = compare_results(cand_rows, ref_rows, options, order_keys_for(ref, options))
    if comparison.equal:
        return Verdict("equivalent", method="constant", **base)
    if comparison.ambiguous:
        return Verdict("unknown", evidence={"ambiguous_columns": True}, **base)
    cause, detail = classify(comparison, cand_rows, ref_rows, cand.qualified, ref.qualified)
    example = build_counterexample(
        Database({}), schema, cand_rows, ref_rows, comparison, cause, detail
    )
    return Verdict("not_equivalent", method="constant", counterexample=example, **base)


def _harvest(cand: GuardedQuery, ref: GuardedQuery, schema: Schema) -> Harvest:
    return harvest([cand.qualified, ref.qualified])


def _execution_error(exc: QueryFailed, base: dict[str, Any]) -> Verdict:
    """A failure that does not depend on the data (or a runaway query) is an input error."""
    return Verdict("error", error=ErrorInfo(exc.side, exc.kind, str(exc)), **base)
