"""Audit a benchmark's gold: every item's hazards, the pairing check, the records.

:func:`audit_benchmark` reads each database once (its schema from the shipped
``.sqlite`` file, else ``tables.json``; its DDL; sample rows that seed the search;
its numeric-text columns), audits each gold (:func:`~sqlequiv.goldaudit.hazards.audit_one`)
and, when predictions are attached, looks for shifted runs
(:func:`~sqlequiv.goldaudit.pairing.shifted_runs`). :func:`audit_suite` does the same
for a sqlequiv suite, from :func:`sqlequiv.grading.anomalies.audit_item`.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlequiv._version import __version__
from sqlequiv.goldaudit.hazards import AuditSettings, GoldContext, audit_one, numeric_text_columns
from sqlequiv.goldaudit.inputs import AuditItem
from sqlequiv.goldaudit.pairing import shifted_runs
from sqlequiv.goldaudit.records import DEFAULT_BLOCKING, GoldAudit, Hazard, Witness
from sqlequiv.goldaudit.witness import Database
from sqlequiv.text2sql.formats import database_path
from sqlequiv.text2sql.item import BenchmarkSettings, ItemGrader

Record = dict[str, Any]


@dataclass(frozen=True)
class PairingSettings:
    """The pairing check: offsets up to ``window``, runs of at least ``min_run``."""

    window: int = 2
    min_run: int = 3


@dataclass
class AuditRun:
    """The records of an audit, gold records first, and how long it took."""

    records: list[Record] = field(default_factory=list)
    seconds: float = 0.0

    def failing(self, kinds: frozenset[str]) -> bool:
        """Whether a hazard of one of ``kinds`` was found (a CI run should fail)."""
        for record in self.records:
            if record.get("record") == "pairing" and record.get("kind") in kinds:
                return True
            if any(h.get("kind") in kinds for h in record.get("hazards") or []):
                return True
        return False


def audit_benchmark(
    benchmark: str,
    items: Sequence[AuditItem],
    db_dir: str | Path,
    *,
    tables_json: str | None = None,
    settings: AuditSettings | None = None,
    pairing: PairingSettings | None = None,
    predictions: bool = False,
    blocking: frozenset[str] = DEFAULT_BLOCKING,
    seed_rows: int = 50,
    on_record: Callable[[Record], None] | None = None,
) -> AuditRun:
    """Audit every gold of ``items`` (and their predictions' pairing when ``predictions``)."""
    settings = settings or AuditSettings()
    started = time.perf_counter()
    grader = ItemGrader(BenchmarkSettings(
        "bird" if benchmark == "bird" else "spider", str(db_dir), tables_json,
        settings.options, seed_rows=seed_rows,
    ))  # fmt: skip
    contexts: dict[str, GoldContext | str] = {}
    run = AuditRun()
    for entry in items:
        item = entry.item
        begun = time.perf_counter()
        if item.db_id not in contexts:
            contexts[item.db_id] = _context(benchmark, grader, db_dir, item.db_id)
        context = contexts[item.db_id]
        audit = GoldAudit(benchmark, item.index, item.db_id, item.gold, item.gold_source,
                          item.question, item.question_id, list(entry.alternatives))  # fmt: skip
        if isinstance(context, str):
            audit.hazards.append(
                Hazard("gold_error", "schema", context, Witness("shipped", verified=False))
            )
        else:
            audit.hazards = audit_one(item.gold, context, settings, question=item.question,
                                      alternatives=entry.alternatives)  # fmt: skip
        audit.seconds = time.perf_counter() - begun
        record = audit.to_record(blocking, __version__)
        run.records.append(record)
        if on_record is not None:
            on_record(record)
    if predictions:
        p = pairing or PairingSettings()
        severity = "blocking" if "shifted_predictions" in blocking else "warning"
        for record in shifted_runs([e.item for e in items], db_dir, benchmark, window=p.window,
                                   min_run=p.min_run, timeout=settings.exec_timeout,
                                   severity=severity):  # fmt: skip
            run.records.append(record)
            if on_record is not None:
                on_record(record)
    run.seconds = time.perf_counter() - started
    return run


def _context(
    benchmark: str, grader: ItemGrader, db_dir: str | Path, db_id: str
) -> GoldContext | str:
    """What the audit needs of ``db_id``, or why it cannot have it."""
    database = grader.database(db_id)
    path = database_path(db_dir, db_id)
    if database.schema is None or not path.is_file():
        return database.error.message if database.error is not None else f"no database {path}"
    shipped = Database(path, lenient=benchmark != "bird")
    return GoldContext(
        benchmark,
        database.schema,
        tuple(database.ddl),
        path,
        database.seed,
        frozenset(numeric_text_columns(database.schema, shipped)),
    )


def audit_suite(
    suite_items: Sequence[Any],
    settings: AuditSettings | None = None,
    *,
    blocking: frozenset[str] = DEFAULT_BLOCKING,
    on_record: Callable[[Record], None] | None = None,
    data: str | Path | None = None,
) -> AuditRun:
    """Audit a suite's items: their anomalies (:func:`~sqlequiv.grading.anomalies.audit_item`)
    as hazards — nondeterministic references, references that disagree, references empty
    on every fixture, references that fail — each with its counterexample database, its
    realism against the item's ``data`` (or ``data``, for the items without one)."""
    from sqlequiv.grading.anomalies import audit_item

    settings = settings or AuditSettings()
    kinds = {
        "nondeterministic_reference": "nondeterministic",
        "references_disagree": "alternatives_disagree",
        "empty_on_all_fixtures": "empty",
        "reference_error": "gold_error",
        "missing_reference": "gold_error",
        "schema_error": "gold_error",
    }
    started = time.perf_counter()
    run = AuditRun()
    for index, given in enumerate(suite_items):
        begun = time.perf_counter()
        item = dataclasses.replace(given, data=data) if data and given.data is None else given
        refs = list(item.references)
        audit = GoldAudit("suite", index, item.id, refs[0].sql if refs else "", item.id,
                          item.question, item.id, [r.sql for r in refs[1:]])  # fmt: skip
        for anomaly in audit_item(item, settings.options):
            kind = kinds.get(str(anomaly["kind"]), "gold_error")
            example = anomaly.get("counterexample")
            if (
                kind in {"nondeterministic", "alternatives_disagree"}
                and example is None
                and "without ORDER BY" not in str(anomaly["detail"])
            ):
                continue  # never a hazard without its database
            witness = Witness(
                "generated" if example is not None else "fixtures",
                example.get("tables") if example is not None else None,
                example.get("reference_rows") if example is not None else None,
                example.get("candidate_rows") if example is not None else None,
                realism=example.get("realism") if example is not None else None,
                breaks=example.get("breaks") if example is not None else None,
            )
            audit.hazards.append(Hazard(kind, str(anomaly["kind"]), str(anomaly["detail"]),
                                        witness))  # fmt: skip
        audit.seconds = time.perf_counter() - begun
        record = audit.to_record(blocking, __version__)
        run.records.append(record)
        if on_record is not None:
            on_record(record)
    run.seconds = time.perf_counter() - started
    return run
