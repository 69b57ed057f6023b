"""The one entry point: ``check(candidate, reference, schema, dialect, options)``.

It loads the schema, parses and guards both queries, and hands the pair to the
stages of :mod:`sqlequiv.pipeline` (normalize -> symbolic -> constant -> search
-> bounded, each verified before it refutes). Each stage's time is recorded in the
verdict. Bad input and bugs come back as ``error`` verdicts, never as exceptions.
"""

from __future__ import annotations

import dataclasses
import logging
import os
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sqlequiv.data.source import Snapshot, read_data
from sqlequiv.deadline import Deadline
from sqlequiv.errors import Side, SqlequivError
from sqlequiv.execute import engine_for
from sqlequiv.execute.base import Executor
from sqlequiv.guard import GuardedQuery, guard_query
from sqlequiv.options import Options
from sqlequiv.pipeline import STAGES, Pair, SeedData, Stage, Timer, decide
from sqlequiv.pipeline.realism import decide_with_data, narrower, sort_examples
from sqlequiv.pipeline.replay import replay
from sqlequiv.results import ResultSet
from sqlequiv.schema import Schema, load_schema
from sqlequiv.symbolic import NoSymbolic, SymbolicLayer
from sqlequiv.verdict import Counterexample, ErrorInfo, Verdict

__all__ = ["SchemaSource", "SeedData", "check", "check_guarded", "distinguishing_fixtures"]

SchemaSource = Schema | str | os.PathLike[str] | Mapping[str, Any]

_log = logging.getLogger(__name__)


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
    stages: tuple[Stage, ...] = STAGES,
    engine: str | None = None,
    replay_on: Sequence[str] = (),
    data: str | os.PathLike[str] | None = None,
) -> Verdict:
    """Decide whether ``candidate`` returns the same rows as ``reference`` on every database.

    Never raises for bad input: an unparsable query, an unknown column or a
    schema that does not load comes back as a verdict ``error``. Nor for a bug:
    an unexpected exception in a stage is an ``error`` of kind ``internal_error``
    naming it (with ``SQLEQUIV_STRICT=1`` in the environment, as the test-suite
    sets it, it is raised instead, so that no test can pass over one).

    ``stages`` are the pipeline's stages to run, in order (all of them by default);
    :data:`sqlequiv.pipeline.REFUTING_STAGES` runs the search with every proof off,
    to cross-check a proof.

    ``engine`` ("duckdb", "sqlite" or "postgres") is where the queries run, whatever
    the dialect that parses them (default: SQLite for ``sqlite``, PostgreSQL for
    ``postgres``, DuckDB otherwise); a query not in the engine's dialect is translated.
    After a ``not_equivalent``, the counterexample is replayed on each engine of
    ``replay_on`` (the verdict's ``replays``: whether it separates the queries there).

    ``data`` (an SQLite or DuckDB file, or a PostgreSQL URL; read-only) is the user's own
    database: a refutation's ``counterexample.realism`` then says whether the queries
    differ on it (``on_data``), on a database like it (``realistic``) or only on one that
    needs what it never shows (``edge``, with ``breaks`` saying what); it never makes a
    proof (:mod:`sqlequiv.pipeline.realism`).

    Example:
        >>> v = check("SELECT a FROM t WHERE a > 1", "SELECT a FROM t WHERE a >= 1",
        ...           "CREATE TABLE t (a INT)")
        >>> v.verdict, v.counterexample.cause
        ('not_equivalent', 'filter_window')
        >>> v.counterexample.missing_rows
        [[1]]
    """
    options = options or Options()
    timer = Timer()
    deadline = Deadline.after(options.check_time_budget)
    def run() -> Verdict:
        pair = _pair(
            candidate, reference, schema, dialect=dialect, options=options, timer=timer,
            deadline=deadline, executor=executor, symbolic=symbolic, seed_data=seed_data,
            engine_name=engine,
        )  # fmt: skip
        if data is None:
            verdict = decide(pair, stages)
        else:
            with timer.stage("data"):
                snapshot = read_data(data, pair.schema)

            def remake(stricter: Schema, seed: SeedData) -> Pair:
                return _pair(
                    candidate, reference, stricter, dialect=dialect, options=narrower(options),
                    timer=Timer(), deadline=deadline, executor=executor, symbolic=symbolic,
                    seed_data=seed, engine_name=engine,
                )  # fmt: skip

            verdict = decide_with_data(pair, snapshot, lambda p: decide(p, stages), remake)
        if replay_on:
            verdict = replay(
                verdict, candidate, reference, pair.schema, dialect, options, replay_on
            )
        return verdict

    return _contained(run, options, timer)


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
    engine: str | None = None,
    data: str | os.PathLike[str] | None = None,
) -> tuple[Verdict, list[Counterexample]]:
    """Like :func:`check`, but keep searching for up to ``limit`` distinct distinguishing databases.

    Every database returned was re-executed and constraint-checked like the
    one in a ``not_equivalent`` verdict. With ``data``, each is sorted against the
    user's database (``realism``, ``breaks``), the data's own rows first when the
    queries differ on them, then the realistic ones.
    """
    options = options or Options()
    timer = Timer()
    deadline = Deadline.after(options.check_time_budget)
    examples: list[Counterexample] = []

    def run() -> Verdict:
        pair = _pair(
            candidate, reference, schema, dialect=dialect, options=options, timer=timer,
            deadline=deadline, executor=executor, symbolic=symbolic, seed_data=seed_data,
            engine_name=engine,
        )  # fmt: skip
        pair.stop_after, pair.examples = limit, examples
        verdict = decide(pair)
        if data is not None and verdict.verdict in ("not_equivalent", "unknown"):
            snapshot = read_data(data, pair.schema)
            examples[:] = sort_examples(pair, snapshot, examples)[:limit]
            if examples and verdict.verdict == "unknown":
                # The queries differ on the data itself: a verified refutation.
                verdict = pair.verdict(
                    "not_equivalent", method="on_data", counterexample=examples[0],
                    evidence=pair.gathered(),
                )  # fmt: skip
            elif examples:
                verdict = dataclasses.replace(verdict, counterexample=examples[0])
        return verdict

    return _contained(run, options, timer), examples


def check_guarded(
    candidate: GuardedQuery,
    reference: GuardedQuery,
    schema: Schema,
    options: Options,
    *,
    executor: Executor | None = None,
    symbolic: SymbolicLayer | None = None,
    empty_results: tuple[ResultSet, ResultSet] | None = None,
    stages: tuple[Stage, ...] = STAGES,
    data: Snapshot | None = None,
) -> Verdict:
    """:func:`check` for two queries the caller has already guarded (grading has), and
    whose results on the empty database it may already have: nothing is guarded or
    executed twice. Contained like :func:`check`; ``stages`` and ``data`` (here a
    :class:`~sqlequiv.data.source.Snapshot` already read) as there."""
    timer = Timer()
    deadline = Deadline.after(options.check_time_budget)
    layer = _layer(symbolic, options)
    pair = Pair(
        candidate, reference, schema, options, layer, timer,
        executor=executor, empty_results=empty_results, deadline=deadline,
    )  # fmt: skip
    if data is None:
        return _contained(lambda: decide(pair, stages), options, timer)

    def remake(stricter: Schema, seed: SeedData) -> Pair:
        return Pair(
            candidate, reference, stricter, narrower(options), layer, Timer(),
            executor=executor, seed_data=seed, deadline=deadline,
        )  # fmt: skip

    return _contained(
        lambda: decide_with_data(pair, data, lambda p: decide(p, stages), remake), options, timer
    )


def _pair(
    candidate_sql: str,
    reference_sql: str,
    schema_source: SchemaSource,
    *,
    dialect: str,
    options: Options,
    timer: Timer,
    deadline: Deadline,
    executor: Executor | None,
    symbolic: SymbolicLayer | None,
    seed_data: SeedData | None,
    engine_name: str | None = None,
) -> Pair:
    """Load the schema and guard both queries: the pair the stages decide."""
    with timer.stage("schema"):
        schema = (
            schema_source
            if isinstance(schema_source, Schema)
            else load_schema(schema_source, dialect)
        )
    engine = executor.dialect if executor is not None else (engine_name or engine_for(dialect))
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
                engine=engine,
                max_length=options.max_query_length,
                max_nodes=options.max_query_nodes,
                lower_case_table_names=options.mysql_lower_case_table_names,
                only_full_group_by=options.mysql_only_full_group_by,
            )
            for sql, side in sides
        )
    return Pair(
        cand,
        ref,
        schema,
        options,
        _layer(symbolic, options),
        timer,
        executor=executor,
        seed_data=seed_data,
        deadline=deadline,
    )


def _layer(symbolic: SymbolicLayer | None, options: Options) -> SymbolicLayer:
    if symbolic is not None:
        return symbolic
    if not options.symbolic:
        return NoSymbolic()
    from sqlequiv.symbolic.layer import Z3Layer  # z3 loads only when used

    return Z3Layer()


def _contained(run: Callable[[], Verdict], options: Options, timer: Timer) -> Verdict:
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


def _internal_error(exc: Exception, options: Options, timer: Timer) -> Verdict:
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
