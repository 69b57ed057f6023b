"""A grading run: suite + candidates -> results JSONL + anomalies.json + summary.

The run is resumable: records already in the results file are skipped, item
audits already in ``anomalies.json`` (for the same suite content) are
reused. Every record is written the moment it arrives, so an interrupt
loses only the pairs in flight; ``anomalies.json`` is rewritten atomically
(temporary file, then rename) at the end and when interrupted. A full disk
stops the run with :class:`~sqlequiv.grading.results.ResultsUnwritable`, the
results file ending at its last whole record, after saving ``anomalies.json``
if there is room for it (the message says whether there was).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from sqlequiv.grading.pools import (
    InlinePool,
    LocalPool,
    Pool,
    Started,
    discard_workers,
    local_workers,
    spawn_workers,
)
from sqlequiv.grading.progress import Progress
from sqlequiv.grading.results import (
    ResultsLock,
    ResultsUnwritable,
    ResultWriter,
    latest_records,
    pending_tasks,
    read_candidates,
    read_results,
)
from sqlequiv.grading.summary import RunResult, summarize_grades
from sqlequiv.grading.worker import Settings, Task
from sqlequiv.suite.load import SuiteDocument, build_suite, read_document
from sqlequiv.suite.model import Suite

Backend = Literal["local", "inline", "ray"]
BACKENDS: tuple[Backend, ...] = ("local", "inline", "ray")


def anomalies_path(out: Path) -> Path:
    """``anomalies.json`` beside the results file."""
    return out.parent / "anomalies.json"


def grade_suite(
    suite_path: str | Path,
    candidates_path: str | Path,
    out: str | Path,
    *,
    backend: Backend = "local",
    jobs: int | None = None,
    settings: Settings | None = None,
    ray_address: str | None = None,
    audit: bool = True,
    progress: Progress | None = None,
    on_pool: Callable[[Pool], None] | None = None,
    allow_outside_paths: bool = False,
) -> RunResult:
    """Grade every candidate of ``candidates_path`` against the suite, appending to ``out``.

    Raises :class:`~sqlequiv.suite.SuiteError` (listing every problem) for a
    suite, candidates file or results file that cannot be used, before
    anything is graded, and :class:`~sqlequiv.grading.results.ResultsBusy` when
    another run is writing ``out``. ``KeyboardInterrupt`` stops the run after
    saving what is done; the result then says ``interrupted``. A results file (or
    ``anomalies.json``) that cannot be written for want of room raises
    :class:`~sqlequiv.grading.results.ResultsUnwritable`. The files the suite
    names must lie in its directory unless ``allow_outside_paths``.
    """
    # Held from before the file is read until the last record is written: a second run
    # on the same file fails at once instead of grading every pair again beside this one.
    with ResultsLock(out):
        settings = settings or Settings()
        out = Path(out)
        started = time.monotonic()
        document = read_document(suite_path, allow_outside_paths=allow_outside_paths)
        # Local workers start now: their start-up (imports, their own suite) overlaps
        # this process's reading of the suite, the candidates and the results.
        early = spawn_workers(document, settings, local_workers(jobs)) if backend == "local" else []
        try:
            suite = build_suite(document)
            tasks = read_candidates(candidates_path, suite)
            previous = latest_records(read_results(out))
            pool = _pool(backend, document, settings, suite, jobs, ray_address, early)
        except BaseException:
            discard_workers(early)
            raise
        todo = pending_tasks(tasks, previous)
        wanted = {t.key for t in tasks} - {t.key for t in todo}  # a retried pair is not kept
        kept = [r for r in previous if (str(r.get("item_id")), str(r.get("sample"))) in wanted]

        digest = _suite_digest(document)
        audits = _previous_audits(anomalies_path(out), digest) if audit else {}
        item_ids = list(dict.fromkeys(t.item_id for t in tasks))
        audit_tasks = [Task("audit", i) for i in item_ids if audit and i not in audits]

        new_records: list[dict[str, Any]] = []
        interrupted = False
        unwritable: ResultsUnwritable | None = None
        not_saved: str | None = None
        if on_pool is not None:
            on_pool(pool)
        if progress is not None:
            progress.total = len(todo)
        writer = ResultWriter(out)
        # Samples often repeat a query word for word: each distinct (item, SQL) is graded once.
        twins: dict[tuple[str, str], list[Task]] = {}
        unique: list[Task] = []
        for task in todo:
            group = twins.setdefault((task.item_id, task.sql), [])
            if not group:
                unique.append(task)
            group.append(task)
        try:
            for task, result in pool.run([*audit_tasks, *unique]):
                if task.kind == "audit":
                    audits[task.item_id] = result["anomalies"]
                    continue
                for n, twin in enumerate(twins[(task.item_id, task.sql)]):
                    record = result if n == 0 else _twin_record(result, twin, task)
                    record = {**record, "attempts": twin.attempt}
                    writer.write(record)
                    new_records.append(record)
                    if progress is not None:
                        progress.update(str(record.get("status")))
        except KeyboardInterrupt:
            interrupted = True
        except ResultsUnwritable as err:
            unwritable = err
        finally:
            writer.close()
            replaced = getattr(pool, "replaced", 0)
            pool.close()
            if audit:
                not_saved = _write_anomalies(anomalies_path(out), digest, suite, audits)
        if unwritable is not None or not_saved is not None:
            raise _unwritable(unwritable, not_saved, anomalies_path(out).name) from None
        if progress is not None:
            progress.finish()
        records = kept + new_records
        anomalies = [a for i in item_ids for a in audits.get(i, [])]
        return RunResult(
            summary=summarize_grades(records),
            graded_now=len(new_records),
            resumed=len(kept),
            anomalies=anomalies,
            seconds=time.monotonic() - started,
            interrupted=interrupted,
            workers_replaced=replaced,
            records=records,
        )


def _twin_record(result: dict[str, Any], twin: Task, graded: Task) -> dict[str, Any]:
    """The record of ``graded`` for ``twin``, which has the same SQL."""
    return {
        **result,
        "sample": twin.sample,
        "candidate_meta": dict(twin.meta),
        "duplicate_of": graded.sample,
    }


def _pool(
    backend: Backend,
    document: SuiteDocument,
    settings: Settings,
    suite: Suite,
    jobs: int | None,
    ray_address: str | None,
    started: list[Started],
) -> Pool:
    if backend == "inline":
        return InlinePool(document, settings)
    if backend == "ray":
        from sqlequiv.grading.ray_pool import RayPool  # imports ray only when asked

        return RayPool(document, settings, suite, address=ray_address or "auto", workers=jobs)
    return LocalPool(document, settings, suite, workers=jobs, started=started)


def _suite_digest(document: SuiteDocument) -> str:
    payload = json.dumps([document.data, dict(document.files)], sort_keys=True, default=str)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def _previous_audits(path: Path, digest: str) -> dict[str, list[dict[str, Any]]]:
    """Audits of an earlier run of the same suite content (empty if the suite changed)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("suite_sha256") != digest:
        return {}
    audited = data.get("items_audited") or []
    found: dict[str, list[dict[str, Any]]] = {str(i): [] for i in audited}
    for anomaly in data.get("anomalies") or []:
        found.setdefault(str(anomaly.get("item_id")), []).append(anomaly)
    return found


def _unwritable(
    results: ResultsUnwritable | None, anomalies_error: str | None, anomalies_name: str
) -> ResultsUnwritable:
    """One message for a run whose results, or whose anomalies, could not be written."""
    if results is None:
        error = ResultsUnwritable(f"cannot write {anomalies_name}: {anomalies_error}")
        return error.adding("the results file is complete; make room and rerun to write it")
    if anomalies_error is None:
        saved = f"{anomalies_name} is saved"
    else:
        saved = f"{anomalies_name} could not be saved either ({anomalies_error})"
    return results.adding(saved).adding("make room and rerun the same command to resume")


def _write_anomalies(
    path: Path, digest: str, suite: Suite, audits: dict[str, list[dict[str, Any]]]
) -> str | None:
    """Save the audits (atomically); None, or why the file could not be written.

    A full disk must not hide the results file's own message, nor leave a
    half-written temporary file behind.
    """
    try:
        _save_anomalies(path, digest, suite, audits)
    except OSError as err:
        with contextlib.suppress(OSError):
            path.with_name(path.name + ".tmp").unlink()
        return err.strerror or str(err)
    return None


def _save_anomalies(
    path: Path, digest: str, suite: Suite, audits: dict[str, list[dict[str, Any]]]
) -> None:
    order = {item.id: n for n, item in enumerate(suite.items)}
    audited = sorted(audits, key=lambda i: order.get(i, len(order)))
    document = {
        "suite": str(suite.path) if suite.path else None,
        "suite_sha256": digest,
        "items_audited": audited,
        "anomalies": [a for i in audited for a in audits[i]],
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(json.dumps(document, indent=2, default=str) + "\n", encoding="utf-8")
    os.replace(temporary, path)
