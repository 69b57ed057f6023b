"""One benchmark item: the evaluator's execution match, sqlequiv's verdict, and where they agree.

:class:`ItemGrader` is what a worker holds: the run's settings and, per db_id,
the schema (read from the shipped ``.sqlite`` file, which is authoritative,
else from ``tables.json``), sample rows of the real database that bias the
counterexample search, and the database's own DDL for replaying a counterexample.
:meth:`ItemGrader.grade` returns the item's record as plain JSON-ready data.

The agreement category is the point of the exercise:

================== ================================ ===================================
category           execution match on the database  sqlequiv
================== ================================ ===================================
``agree_pass``     pass                             proved equivalent
``agree_fail``     fail                             refuted (verified counterexample)
``false_pass``     pass                             refuted (verified counterexample)
``false_fail``     fail                             proved equivalent
``unresolved_pass`` pass                            unknown
``unresolved_fail`` fail                            unknown
``error``          no score (gold fails, ...)       or an ``error`` verdict
================== ================================ ===================================

``false_pass`` is only ever given with the counterexample of a
``not_equivalent`` verdict of :func:`sqlequiv.check` (re-executed and
constraint-checked there), and ``false_fail`` only with an ``equivalent``.
The counterexample is also replayed on the real database's own DDL: one that
breaks a constraint of the real database (possible when the schema came from
tables.json, which declares no NOT NULL, UNIQUE or CHECK) refutes nothing, and
the item is ``unresolved_*`` instead (``replay.illegal``).
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TypedDict, cast

from sqlequiv._version import __version__
from sqlequiv.api import check
from sqlequiv.errors import SqlequivError
from sqlequiv.options import Options
from sqlequiv.schema.model import Schema
from sqlequiv.schema.model import quote_identifier as _q
from sqlequiv.text2sql.execmatch import (
    DEFAULT_MAX_ROWS,
    DEFAULT_MAX_STEPS,
    DEFAULT_TIMEOUT,
    ExecMatch,
    execution_match,
    memory_connection,
    open_readonly,
    spider_postprocess,
)
from sqlequiv.text2sql.formats import Benchmark, BenchmarkItem, database_path, spider_databases
from sqlequiv.verdict import ErrorInfo, Verdict

Category = Literal[
    "agree_pass",
    "agree_fail",
    "false_pass",
    "false_fail",
    "unresolved_pass",
    "unresolved_fail",
    "error",
]
CATEGORIES: tuple[Category, ...] = (
    "agree_pass",
    "agree_fail",
    "false_pass",
    "false_fail",
    "unresolved_pass",
    "unresolved_fail",
    "error",
)

#: Version of the record layout below.
RECORD_VERSION = 1

#: Every key of a record, in order; all are always present (null when not measured).
RECORD_KEYS = (
    "record_version",
    "benchmark",
    "index",
    "question_id",
    "db_id",
    "question",
    "evidence",
    "difficulty",
    "gold",
    "pred",
    "gold_source",
    "pred_source",
    "exec_match",
    "exec",
    "verdict",
    "method",
    "proved",
    "cause",
    "detail",
    "counterexample",
    "error",
    "check_evidence",
    "replay",
    "category",
    "schema_source",
    "schema_warnings",
    "timings",
    "sqlequiv_version",
)


class BenchmarkRecordJSON(TypedDict, total=False):
    """A spider/bird record as one line of its results file holds it (:func:`make_record`).

    The writer fills every key of :data:`RECORD_KEYS`; ``total=False`` because
    the readers (the summary, resuming) also take older files and partial
    records, and each keeps the default its ``.get`` gives. Declared next to
    the writer so mypy checks the names and value types on both sides.
    """

    record_version: int
    benchmark: Benchmark
    index: int
    question_id: int | str | None
    db_id: str
    question: str | None
    evidence: str | None
    difficulty: str | None
    gold: str
    pred: str
    gold_source: str
    pred_source: str
    exec_match: bool | None
    exec: dict[str, Any] | None
    verdict: str
    method: str | None
    proved: bool
    cause: str | None
    detail: str
    counterexample: dict[str, Any] | None
    error: dict[str, Any] | None
    check_evidence: dict[str, Any]
    replay: dict[str, Any] | None
    category: Category
    schema_source: str | None
    schema_warnings: list[str]
    timings: dict[str, Any]
    sqlequiv_version: str


def as_benchmark_record(record: Mapping[str, Any]) -> BenchmarkRecordJSON:
    """``record`` seen as a :class:`BenchmarkRecordJSON`: no copy and no check.

    Where a parsed line or a caller's dict becomes a typed record; the readers
    keep taking any mapping and stay as defensive about the values as before.
    """
    return cast(BenchmarkRecordJSON, record)


@dataclass(frozen=True)
class BenchmarkSettings:
    """How a run grades its items (sent to every worker, so plain picklable data)."""

    benchmark: Benchmark
    db_dir: str
    tables_json: str | None = None
    options: Options = field(default_factory=Options)
    #: Per-query deadline on the shipped database, s.
    exec_timeout: float = DEFAULT_TIMEOUT
    max_result_rows: int = DEFAULT_MAX_ROWS
    #: Spider: keep DISTINCT (the evaluator's ``--keep_distinct``); by default it is removed.
    keep_distinct: bool = False
    max_permutation_steps: int = DEFAULT_MAX_STEPS
    #: Rows per table read from the real database to seed the counterexample search.
    seed_rows: int = 50
    #: Wall-clock limit per item, s (the worker is then replaced).
    item_timeout: float = 120.0


def agreement(exec_match: bool | None, verdict: str, *, legal: bool = True) -> Category:
    """The agreement category of an execution match and a verdict.

    ``legal`` false says the counterexample breaks a constraint of the real
    database: it then refutes nothing.

    Example:
        >>> agreement(True, "not_equivalent"), agreement(False, "equivalent")
        ('false_pass', 'false_fail')
        >>> agreement(None, "equivalent"), agreement(True, "unknown")
        ('error', 'unresolved_pass')
        >>> agreement(True, "not_equivalent", legal=False)
        'unresolved_pass'
    """
    if verdict == "error" or exec_match is None:
        return "error"
    if verdict == "not_equivalent" and not legal:
        verdict = "unknown"
    table: dict[tuple[bool, str], Category] = {
        (True, "equivalent"): "agree_pass",
        (True, "not_equivalent"): "false_pass",
        (True, "unknown"): "unresolved_pass",
        (False, "equivalent"): "false_fail",
        (False, "not_equivalent"): "agree_fail",
        (False, "unknown"): "unresolved_fail",
    }
    return table.get((exec_match, verdict), "error")


@dataclass
class _Database:
    """What a worker knows about one db_id."""

    schema: Schema | None
    source: str | None
    error: ErrorInfo | None
    seed: dict[str, list[tuple[Any, ...]]] | None
    ddl: list[str]
    warnings: list[str] = field(default_factory=list)
    #: The shipped database file, whose rows each refutation is sorted against.
    path: Path | None = None


class ItemGrader:
    """Grades items of one run; caches each database's schema, sample rows and DDL."""

    def __init__(self, settings: BenchmarkSettings) -> None:
        self.settings = settings
        self._databases: dict[str, _Database] = {}

    def grade(
        self, item: BenchmarkItem, on_exec: Callable[[dict[str, Any]], None] | None = None
    ) -> dict[str, Any]:
        """The record of ``item``. ``on_exec`` receives the execution match as soon as it
        is known (so a worker that later dies or overruns still reports it)."""
        started = time.perf_counter()
        match = self.exec_match(item)
        exec_ms = (time.perf_counter() - started) * 1000
        if on_exec is not None:
            on_exec(match.to_dict())
        database = self.database(item.db_id)
        check_start = time.perf_counter()
        verdict = self.verdict(item, database)
        check_ms = (time.perf_counter() - check_start) * 1000
        replay = None
        if verdict.verdict == "not_equivalent" and verdict.counterexample is not None:
            # Always: the replay is also what finds a counterexample that the real
            # database's constraints forbid.
            replay = self.replay(item, database, verdict.counterexample.tables)
        timings = {
            "exec_ms": round(exec_ms, 3),
            "check_ms": round(check_ms, 3),
            "check_stages_ms": dict(verdict.timings),
        }
        return make_record(
            self.settings.benchmark,
            item,
            match.to_dict(),
            verdict,
            replay,
            database.source,
            timings,
            database.warnings,
        )

    # -- the evaluator's side ---------------------------------------------------------

    def exec_match(self, item: BenchmarkItem) -> ExecMatch:
        s = self.settings
        if s.benchmark == "spider":
            paths: Sequence[Path] = spider_databases(s.db_dir, item.db_id)
        else:
            paths = [database_path(s.db_dir, item.db_id)]
        if not paths or not Path(paths[0]).is_file():
            missing = database_path(s.db_dir, item.db_id)
            return ExecMatch(
                s.benchmark,
                None,
                gold_error=f"no database file {missing}",
                detail=f"no database file {missing}",
            )
        return execution_match(
            s.benchmark,
            item.gold,
            item.pred,
            paths,
            timeout=s.exec_timeout,
            max_rows=s.max_result_rows,
            keep_distinct=s.keep_distinct,
            max_steps=s.max_permutation_steps,
        )

    # -- sqlequiv's side ------------------------------------------------------------------

    def verdict(self, item: BenchmarkItem, database: _Database) -> Verdict:
        if database.schema is None:
            assert database.error is not None
            return Verdict("error", error=database.error, options=self.settings.options.to_dict())
        pred = item.pred
        if self.settings.benchmark == "spider":
            # The evaluator's own fix-up of operator spacing ("> =") is part of its input
            # format; DISTINCT is judged as written.
            pred = spider_postprocess(pred)
        return check(
            pred,
            item.gold,
            database.schema,
            dialect="sqlite",
            options=self.settings.options,
            seed_data=database.seed,
            # The benchmark's own database: each refutation says whether it shows there
            # (on_data), on a database like it (realistic) or only on an edge case.
            data=database.path,
        )

    def database(self, db_id: str) -> _Database:
        if db_id not in self._databases:
            self._databases[db_id] = self._load(db_id)
        return self._databases[db_id]

    def _load(self, db_id: str) -> _Database:
        path = database_path(self.settings.db_dir, db_id)
        schema: Schema | None = None
        source: str | None = None
        problems: list[str] = []
        kind = "schema_not_found"
        if path.is_file():
            try:
                schema = _read_catalog(path)
                source = "sqlite"
            except SqlequivError as err:
                problems.append(f"{path.name}: {err.message}")
                kind = err.kind
        tables = self.settings.tables_json
        if schema is None and tables:
            try:
                schema = _read_tables_json(tables, db_id)
                source = "tables_json"
            except SqlequivError as err:
                problems.append(f"{Path(tables).name}: {err.message}")
                kind = err.kind
        if schema is None:
            if not problems:
                problems.append(f"no database file {path} and no tables.json entry")
            error = ErrorInfo("schema", kind, f"db_id {db_id!r}: " + "; ".join(problems))
            return _Database(None, None, error, None, [])
        seed = None
        ddl: list[str] = []
        if path.is_file():
            if self.settings.seed_rows > 0:
                try:
                    seed = _read_rows(path, schema, self.settings.seed_rows)
                except (SqlequivError, sqlite3.Error):
                    seed = None  # the search is only less well informed
            ddl = _table_ddl(path)
        data = path if source == "sqlite" and _readable(path, schema) else None
        return _Database(schema, source, None, seed, ddl, list(schema.warnings), data)

    # -- replaying a counterexample ---------------------------------------------------------

    def replay(
        self, item: BenchmarkItem, database: _Database, tables: Mapping[str, Any]
    ) -> dict[str, Any]:
        """The counterexample loaded into the real database's tables (its own DDL) and
        both queries compared there by the evaluator's rule.

        ``evaluator_match`` false: the evaluator itself would fail the prediction on
        this database (the shipped data just lacked the case); true: the difference is
        one the evaluator's rule does not see (duplicates under BIRD's sets, row order
        without 'order by', DISTINCT removed, ...).
        """
        if not database.ddl:
            return _replayed(None, "no DDL of the real database to replay on")
        loaded = load_counterexample(database.ddl, tables)
        if isinstance(loaded, LoadFailure):
            return _replayed(None, loaded.message, illegal=loaded.illegal)
        con = loaded
        s = self.settings
        result = execution_match(
            s.benchmark,
            item.gold,
            item.pred,
            ["counterexample"],
            timeout=s.exec_timeout,
            max_rows=s.max_result_rows,
            keep_distinct=s.keep_distinct,
            max_steps=s.max_permutation_steps,
            connect=lambda _path, lenient_text: con,
        )
        con.close()
        error = result.gold_error or (result.pred_error if result.match is None else None)
        return _replayed(result.match, error, detail=result.detail)


@dataclass(frozen=True)
class LoadFailure:
    """Why a counterexample could not be loaded into the real database's tables;
    ``illegal``: it breaks one of their constraints."""

    message: str
    illegal: bool = False


def load_counterexample(
    ddl: Sequence[str], tables: Mapping[str, Any]
) -> sqlite3.Connection | LoadFailure:
    """A fresh in-memory SQLite database made by the real database's own ``ddl``, holding
    the rows of ``tables`` (a counterexample's), or why it cannot be made."""
    try:
        con = memory_connection()
    except sqlite3.Error as exc:
        return LoadFailure(f"cannot open SQLite: {exc}")
    try:
        for statement in ddl:
            con.execute(statement)
        for table, rows in tables.items():
            for row in rows:
                columns = ", ".join(_q(c) for c in row)
                marks = ", ".join("?" for _ in row)
                con.execute(
                    f"INSERT INTO {_q(table)} ({columns}) VALUES ({marks})",
                    [_sqlite_value(v) for v in row.values()],
                )
    except sqlite3.IntegrityError as exc:
        con.close()
        return LoadFailure(
            f"the counterexample breaks a constraint of the real database: {exc}", illegal=True
        )
    except (sqlite3.Error, OverflowError) as exc:
        con.close()
        return LoadFailure(f"cannot load the counterexample: {exc}")
    return con


def _replayed(
    match: bool | None, error: str | None, *, illegal: bool = False, detail: str | None = None
) -> dict[str, Any]:
    return {"evaluator_match": match, "illegal": illegal, "error": error, "detail": detail}


def _sqlite_value(value: Any) -> Any:
    if value is None or isinstance(value, int | float | str | bytes):
        return value
    return str(value)


def _table_ddl(path: Path) -> list[str]:
    """The ``CREATE TABLE`` statements of the database at ``path`` (trusted: the benchmark's)."""
    try:
        con = open_readonly(path)
    except sqlite3.Error:
        return []
    try:
        rows = con.execute(
            "SELECT sql FROM sqlite_master WHERE type = 'table' AND sql IS NOT NULL "
            "AND name NOT LIKE 'sqlite_%' ORDER BY rowid"
        ).fetchall()
    except sqlite3.Error:
        return []
    finally:
        con.close()
    return [str(sql) for (sql,) in rows]


def _read_catalog(path: Path) -> Schema:
    from sqlequiv.schema.sqlite_file import read_sqlite_catalog

    return read_sqlite_catalog(path)


def _read_tables_json(path: str, db_id: str) -> Schema:
    from sqlequiv.schema.spider import read_tables_json

    return read_tables_json(path, db_id)


def _readable(path: Path, schema: Schema) -> bool:
    """Whether the shipped file's rows can be read for the schema (read once, cached): a
    file that cannot only leaves the refutations unsorted, never turns them into errors."""
    from sqlequiv.data.source import read_data

    try:
        read_data(path, schema)
    except (SqlequivError, sqlite3.Error, OSError):
        return False
    return True


def _read_rows(path: Path, schema: Schema, limit: int) -> dict[str, list[tuple[Any, ...]]]:
    from sqlequiv.schema.sqlite_file import read_sqlite_rows

    return read_sqlite_rows(path, schema, limit=limit)


# -- records ---------------------------------------------------------------------------------


def make_record(
    benchmark: Benchmark,
    item: BenchmarkItem,
    exec_result: Mapping[str, Any] | None,
    verdict: Verdict,
    replay: dict[str, Any] | None,
    schema_source: str | None,
    timings: dict[str, Any],
    schema_warnings: list[str] | None = None,
) -> dict[str, Any]:
    """The JSON record of one item; every key of :data:`RECORD_KEYS` is present."""
    match = exec_result.get("match") if exec_result is not None else None
    example = verdict.counterexample
    legal = not (replay is not None and replay.get("illegal"))
    record: BenchmarkRecordJSON = {
        "record_version": RECORD_VERSION,
        "benchmark": benchmark,
        "index": item.index,
        "question_id": item.question_id,
        "db_id": item.db_id,
        "question": item.question,
        "evidence": item.evidence,
        "difficulty": item.difficulty,
        "gold": item.gold,
        "pred": item.pred,
        "gold_source": item.gold_source,
        "pred_source": item.pred_source,
        "exec_match": match,
        "exec": dict(exec_result) if exec_result is not None else None,
        "verdict": verdict.verdict,
        "method": verdict.method,
        "proved": verdict.verdict == "equivalent",
        "cause": example.cause if example is not None else None,
        "detail": _detail(verdict),
        "counterexample": example.to_dict() if example is not None else None,
        "error": verdict.error.to_dict() if verdict.error is not None else None,
        "check_evidence": verdict.evidence.to_dict(),
        "replay": replay,
        "category": agreement(match, verdict.verdict, legal=legal),
        "schema_source": schema_source,
        "schema_warnings": list(schema_warnings or []),
        "timings": timings,
        "sqlequiv_version": __version__,
    }
    assert tuple(record) == RECORD_KEYS
    # The pool's pipe, the results file and the callbacks carry records untyped.
    return cast("dict[str, Any]", record)


def _detail(verdict: Verdict) -> str:
    """One sentence on what sqlequiv found."""
    if verdict.verdict == "equivalent":
        return f"proved equivalent ({verdict.method}) on every database the schema allows"
    if verdict.verdict == "not_equivalent" and verdict.counterexample is not None:
        return verdict.counterexample.detail
    if verdict.verdict == "error" and verdict.error is not None:
        return f"{verdict.error.side}: {verdict.error.kind}: {verdict.error.message}"
    return evidence_sentence(verdict.evidence.to_dict())


def evidence_sentence(evidence: Mapping[str, Any]) -> str:
    """What an ``unknown`` verdict rests on, in words.

    Example:
        >>> evidence_sentence({"fixtures_tried": 150, "bounded": 3})[25:]
        'no difference on 150 generated databases; none with at most 3 rows per table'
    """
    parts = []
    tried = evidence.get("fixtures_tried")
    if isinstance(tried, int):
        parts.append(f"no difference on {tried} generated databases")
    bound = evidence.get("bounded")
    if isinstance(bound, int):
        parts.append(f"none with at most {bound} rows per table")
    if evidence.get("time_cap_hit"):
        parts.append("(the search hit its time cap)")
    if not parts:
        return "not proved, not refuted"
    return "not proved, not refuted: " + "; ".join(parts)


def failed_record(
    settings: BenchmarkSettings,
    item: BenchmarkItem,
    exec_result: Mapping[str, Any] | None,
    kind: str,
    message: str,
) -> dict[str, Any]:
    """The record of an item whose worker died or ran out of time (written by the parent)."""
    verdict = Verdict("error", error=ErrorInfo("internal", kind, message))
    return make_record(settings.benchmark, item, exec_result, verdict, None, None, {})
