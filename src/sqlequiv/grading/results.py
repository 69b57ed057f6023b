"""Candidates in, records out: the JSONL files of a grading run, and resuming one.

A results file is append-only: each record is one ``write`` of one complete
line, flushed at once, so an interrupted run loses at most the pairs still
being graded. Rerunning with the same file skips every (item, sample) it
holds, except a first attempt that ended in a worker crash or a timeout,
which is graded once more and appended (the last line of a pair wins); a
torn last line (the machine died mid-write) is cut off first. One run at a
time writes a file (:class:`ResultsLock`). When the disk is full the part of
a line that went in is cut off at once and the run stops
(:class:`ResultsUnwritable`): the file never ends in half a record.
"""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import fcntl
import json
import os
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from sqlequiv.errors import PlainError
from sqlequiv.grading.record import RETRIED_KINDS, as_record, latest_records, pair_key
from sqlequiv.grading.worker import Task
from sqlequiv.suite.load import Problem, SuiteError, TooDeep, json_lines, parse_json_line
from sqlequiv.suite.model import Suite

__all__ = [
    "EXIT_UNWRITABLE",
    "MAX_ATTEMPTS",
    "RETRIED_KINDS",
    "ResultWriter",
    "ResultsBusy",
    "ResultsLock",
    "ResultsUnwritable",
    "latest_records",
    "pending_tasks",
    "read_candidates",
    "read_results",
]

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
    if not path.is_file():  # /dev/zero would be read for ever, a FIFO would block
        raise SuiteError([Problem("results", f"{path} is not a regular file")])
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


#: A pair is graded at most this many times.
MAX_ATTEMPTS = 2


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
    by_key = {pair_key(r): as_record(r) for r in latest_records(done)}
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


#: ``errno`` values that mean "no room for this line": the disk is full, a quota or the
#: file-size limit (``RLIMIT_FSIZE``, EFBIG) is reached.
NO_ROOM = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)


class ResultsUnwritable(PlainError, RuntimeError):
    """A record could not be written (the disk is full, a quota or the file-size limit).

    The file is left ending at its last whole line; ``written`` records of
    this run are in it. The CLI prints the message and exits :data:`EXIT_UNWRITABLE`.
    """

    SIDE = "backend"
    KIND = "results_unwritable"

    def __init__(self, message: str, *, written: int = 0, errno_: int | None = None) -> None:
        super().__init__(message)
        self.written = written
        self.errno = errno_

    def adding(self, note: str) -> ResultsUnwritable:
        """This error with ``note`` appended to its message.

        Example:
            >>> str(ResultsUnwritable("cannot write r.jsonl").adding("rerun to resume"))
            'cannot write r.jsonl; rerun to resume'
        """
        return ResultsUnwritable(f"{self.message}; {note}", written=self.written, errno_=self.errno)


#: Exit code of ``grade`` (and ``spider``/``bird``) when the results file cannot be written;
#: ``EX_IOERR`` of sysexits.h.
EXIT_UNWRITABLE = 74


class ResultWriter:
    """Appends records, each one ``write`` of a whole line; syncs at most every ``sync_every`` s.

    Unbuffered: a line is in the file (or not) when :meth:`write` returns.
    When the disk is full (or a quota, or the file-size limit, is reached),
    whatever part of the line went in is cut off again, so the file still
    ends at its last whole record, and :class:`ResultsUnwritable` is raised;
    every later write raises it too.
    """

    def __init__(self, path: str | Path, sync_every: float = 2.0) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._fd: int | None = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        self._size = os.fstat(self._fd).st_size
        self._sync_every = sync_every
        self._synced = time.monotonic()
        self.written = 0
        self.failed: ResultsUnwritable | None = None

    def write(self, record: dict[str, Any]) -> None:
        if self.failed is not None:
            raise self.failed
        assert self._fd is not None, "write after close"
        line = (json.dumps(record, allow_nan=False, default=str) + "\n").encode("utf-8")
        view = memoryview(line)
        try:
            while view:  # a regular file takes it at once, short of room or a signal
                view = view[os.write(self._fd, view) :]
        except OSError as err:
            if err.errno not in NO_ROOM:
                raise
            self._cut_back()
            self.failed = ResultsUnwritable(
                f"cannot write {self.path.name}: {os.strerror(err.errno)}; it ends at its "
                f"last whole record ({self.written} written by this run)",
                written=self.written,
                errno_=err.errno,
            )
            raise self.failed from None
        self._size += len(line)
        self.written += 1
        if time.monotonic() - self._synced >= self._sync_every:
            self._sync()

    def _cut_back(self) -> None:
        """Truncate the file to the end of its last whole line (before the torn write)."""
        assert self._fd is not None
        with contextlib.suppress(OSError):  # truncating needs no room; nothing else to do
            os.ftruncate(self._fd, self._size)

    def _sync(self) -> None:
        assert self._fd is not None
        os.fsync(self._fd)
        self._synced = time.monotonic()

    def close(self) -> None:
        if self._fd is None:
            return
        try:
            if self.failed is None:
                self._sync()
        finally:
            os.close(self._fd)
            self._fd = None


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
