"""Candidates in, records out: the JSONL files of a grading run, and resuming one.

A results file is append-only: each record is one ``write`` of one complete
line, flushed at once, so an interrupted run loses at most the pairs still
being graded. Rerunning with the same file skips every (item, sample) it
holds, except a first attempt that ended in a worker crash or a timeout,
which is graded once more and appended (the last line of a pair wins); a
torn last line (the machine died mid-write) is cut off first. One run at a
time writes a file (:class:`ResultsLock`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import json
import os
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import IO, Any

from sqlequiv.errors import PlainError
from sqlequiv.grading.record import as_record
from sqlequiv.grading.worker import Task
from sqlequiv.suite.load import Problem, SuiteError, TooDeep, json_lines, parse_json_line
from sqlequiv.suite.model import Suite

_CANDIDATE_KEYS = ("id", "sql", "sample")


def read_candidates(path: str | Path, suite: Suite) -> list[Task]:
    """Grading tasks from a candidates JSONL (``{"id", "sql"[, "sample", ...]}`` per line).

    Every problem (bad JSON, unknown item id, missing SQL, a repeated
    sample) is reported at once, by line.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as err:
        raise SuiteError([Problem("candidates", f"cannot read {path}: {err}")]) from err
    tasks: list[Task] = []
    problems: list[Problem] = []
    counts: dict[str, int] = {}
    seen: set[tuple[str, str]] = set()
    for number, line in json_lines(text):
        if not line.strip():
            continue
        where = f"{path.name} line {number}"
        try:
            entry = parse_json_line(line)
        except json.JSONDecodeError as err:
            problems.append(Problem(where, f"invalid JSON: {err.msg}"))
            continue
        except TooDeep as err:
            problems.append(Problem(where, str(err)))
            continue
        if not isinstance(entry, dict):
            problems.append(Problem(where, "expected an object with `id` and `sql`"))
            continue
        item_id, sql = entry.get("id"), entry.get("sql")
        if isinstance(item_id, int) and not isinstance(item_id, bool):
            item_id = str(item_id)
        if not isinstance(item_id, str) or item_id not in suite:
            problems.append(Problem(where, f"id {item_id!r} is not an item of the suite"))
            continue
        if not isinstance(sql, str):
            problems.append(Problem(where, "`sql` must be a string (an empty one is graded)"))
            continue
        sample = entry.get("sample", counts.get(item_id, 0))
        counts[item_id] = counts.get(item_id, 0) + 1
        if not isinstance(sample, int | str) or isinstance(sample, bool):
            problems.append(Problem(where, "`sample` must be an integer or a string"))
            continue
        key = (item_id, str(sample))
        if key in seen:
            problems.append(Problem(where, f"{item_id} sample {sample!r} appears twice"))
            continue
        seen.add(key)
        meta = {k: v for k, v in entry.items() if k not in _CANDIDATE_KEYS}
        tasks.append(Task("grade", item_id, sample, sql, meta))
    if problems:
        raise SuiteError(problems)
    return tasks


def read_results(path: str | Path) -> list[dict[str, Any]]:
    """The complete records of a results file, cutting off a torn last line."""
    path = Path(path)
    if not path.exists():
        return []
    data = path.read_bytes()
    end = data.rfind(b"\n") + 1
    if end < len(data):
        with open(path, "r+b") as handle:  # a line without its newline was never finished
            handle.truncate(end)
        data = data[:end]
    records = []
    for number, line in json_lines(data.decode("utf-8")):
        if not line.strip():
            continue
        try:
            records.append(parse_json_line(line))
        except json.JSONDecodeError as err:
            raise SuiteError(
                [Problem(f"{path.name} line {number}", f"not a record: {err.msg}")]
            ) from err
        except TooDeep as err:
            raise SuiteError(
                [Problem(f"{path.name} line {number}", f"not a record: {err}")]
            ) from err
    return records


#: Error kinds that say the worker, not the candidate, failed: a rerun grades such a pair
#: once more (an out-of-memory kill or a loaded machine need not happen twice).
RETRIED_KINDS = ("worker_crashed", "timeout")
#: A pair is graded at most this many times.
MAX_ATTEMPTS = 2


def latest_records(records: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """One record per (item, sample): the last line of a pair wins.

    A retried pair has two lines (the first attempt's error, then the retry's
    record); every reader (resuming, ``stats``, the summary, the report) goes
    through here so that none counts a pair twice. Pairs keep the order of
    their first line.

    Example:
        >>> rows = [{"item_id": "q", "sample": 0, "status": "error"},
        ...         {"item_id": "r", "sample": 0, "status": "pass"},
        ...         {"item_id": "q", "sample": 0, "status": "pass", "attempts": 2}]
        >>> [(r["item_id"], r["status"]) for r in latest_records(rows)]
        [('q', 'pass'), ('r', 'pass')]
    """
    by_key: dict[tuple[str, str], dict[str, Any]] = {}
    for record in records:
        by_key[(str(record.get("item_id")), str(record.get("sample")))] = dict(record)
    return list(by_key.values())


def _retried(record: Mapping[str, Any]) -> bool:
    """Whether a rerun grades this pair again (see :data:`RETRIED_KINDS`)."""
    typed = as_record(record)
    error = typed.get("error") or {}
    attempts = typed.get("attempts", 1)
    return (
        typed.get("status") == "error"
        and error.get("kind") in RETRIED_KINDS
        and isinstance(attempts, int)
        and attempts < MAX_ATTEMPTS
    )


def pending_tasks(tasks: list[Task], done: list[dict[str, Any]]) -> list[Task]:
    """The tasks a results file does not hold yet, and those it holds a retried error for.

    A pair whose last record is a ``worker_crashed`` or ``timeout`` error of its
    first attempt comes back as a task of attempt 2; one that failed so on its
    second attempt stays as it is.

    A record for the same (item, sample) with different SQL means the file
    belongs to another candidates file: that is an error, not a skip.
    """
    by_key = {
        (str(r.get("item_id")), str(r.get("sample"))): as_record(r) for r in latest_records(done)
    }
    problems = []
    todo = []
    for task in tasks:
        record = by_key.get(task.key)
        if record is None:
            todo.append(task)
        elif record.get("candidate_sql") != task.sql:
            problems.append(
                Problem(
                    "results",
                    f"{task.item_id} sample {task.sample!r} was graded with different SQL; "
                    "use another --out for these candidates",
                )
            )
        elif _retried(record):
            todo.append(dataclasses.replace(task, attempt=record.get("attempts", 1) + 1))
    if problems:
        raise SuiteError(problems)
    return todo


class ResultWriter:
    """Appends records, one flushed line each; syncs to disk at most every ``sync_every`` s."""

    def __init__(self, path: str | Path, sync_every: float = 2.0) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._handle: IO[str] = open(self.path, "a", encoding="utf-8")  # noqa: SIM115
        self._sync_every = sync_every
        self._synced = time.monotonic()

    def write(self, record: dict[str, Any]) -> None:
        self._handle.write(json.dumps(record, allow_nan=False, default=str) + "\n")
        self._handle.flush()
        if time.monotonic() - self._synced >= self._sync_every:
            os.fsync(self._handle.fileno())
            self._synced = time.monotonic()

    def close(self) -> None:
        self._handle.flush()
        os.fsync(self._handle.fileno())
        self._handle.close()


class ResultsBusy(PlainError, RuntimeError):
    """Another ``sqlequiv grade`` is writing the same results file."""

    SIDE = "backend"
    KIND = "results_busy"


class ResultsLock:
    """An exclusive lock on a results file for the whole of one run (``<out>.lock``).

    Two runs appending to one file would each grade every pair they did not see
    at start, so the file would hold each pair twice. ``flock`` is released by
    the kernel when the holder dies, however it dies (kill -9 included), so a
    stale lock file never blocks a rerun; the pid inside only names the holder.
    """

    def __init__(self, out: str | Path) -> None:
        self.out = Path(out)
        self.path = self.out.with_name(self.out.name + ".lock")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._fd: int | None = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.read(self._fd, 64).decode("ascii", "replace").strip() or "unknown"
            os.close(self._fd)
            self._fd = None
            raise ResultsBusy(
                f"{self.out.name} is being written by another sqlequiv grade (pid {holder}); "
                "wait for it or use another --out"
            ) from None
        os.ftruncate(self._fd, 0)
        os.write(self._fd, f"{os.getpid()}\n".encode("ascii"))

    def __enter__(self) -> ResultsLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()

    def release(self) -> None:
        """Give the file up (the lock file stays; it is locked again by the next run)."""
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None
