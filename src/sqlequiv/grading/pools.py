"""Run tasks: in this process, or on local worker processes that a bad task cannot take down.

:class:`LocalPool` starts one process per worker (``spawn``: no state is
inherited from the parent, whose threads a ``fork`` would copy half-way). The
parent sends one task at a time to each idle worker over a pipe and waits
on all pipes and process sentinels at once, so it notices at once when a
worker dies (a crash inside DuckDB, the out-of-memory killer) and when a
task overruns its wall clock. Either way the worker is killed and replaced,
and the task gets an ``error`` result: the other tasks are not touched.
Results come back in completion order.

Each worker also runs under an address-space limit (``RLIMIT_AS``,
:attr:`Settings.memory_limit_mb` on top of its footprint once started), because
DuckDB's own memory limit does not cover every allocation, and z3's and
Python's not at all: a runaway allocation then fails inside the worker, or
kills it, instead of taking the machine's memory from every other worker.
"""

from __future__ import annotations

import atexit
import contextlib
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from sqlequiv.errors import PlainError
from sqlequiv.grading.worker import Settings, Task, Worker, failed_result
from sqlequiv.suite.load import SuiteDocument
from sqlequiv.suite.model import Suite

Result = tuple[Task, dict[str, Any]]
#: A job a worker takes: a grading task, a benchmark item.
J = TypeVar("J")
#: A started worker process and the parent's end of its pipe.
Started = tuple[Any, multiprocessing.connection.Connection]


class Pool(Protocol):
    """Runs tasks and yields each with its result, as they complete."""

    def run(self, tasks: Iterable[Task]) -> Iterator[Result]: ...

    def close(self) -> None: ...


class WorkerStartError(PlainError, RuntimeError):
    """A worker process died before it could serve (its suite did not build, or the
    calling script re-ran itself on import)."""

    SIDE = "backend"
    KIND = "worker_start_failed"


class InlinePool:
    """Tasks one after the other in this process (no isolation; for tests and libraries)."""

    def __init__(self, document: SuiteDocument, settings: Settings) -> None:
        self.worker = Worker(document, settings)

    def run(self, tasks: Iterable[Task]) -> Iterator[Result]:
        for task in tasks:
            yield task, self.worker.handle(task)

    def close(self) -> None:
        pass


def limit_address_space(extra_mb: int) -> int | None:
    """Limit this process's address space to its current size plus ``extra_mb`` MiB.

    Returns the limit set, in bytes, or None when there is none: ``extra_mb`` is 0, or
    the platform cannot say how large the process is (only Linux does, in ``/proc``).
    A hard limit already lower is kept.
    """
    if extra_mb <= 0 or not sys.platform.startswith("linux"):
        return None
    import resource

    current = _address_space()
    if current is None:
        return None
    limit = current + extra_mb * 1024 * 1024
    _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    return limit


def _address_space() -> int | None:
    """This process's virtual memory size in bytes (``VmSize``), or None if unknown."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def _serve(
    conn: multiprocessing.connection.Connection, document: SuiteDocument, settings: Settings
) -> None:
    """A worker process: build the suite, then answer tasks until told to stop."""
    # Ctrl-C reaches the whole process group; the parent decides what happens.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        worker = Worker(document, settings)
        # What every task uses is opened before the footprint is measured and limited.
        worker.warm_up()
    except Exception as err:
        # The parent builds the same suite and reports what is wrong with it; a
        # traceback from each worker would only bury that message.
        with contextlib.suppress(OSError):
            conn.send(("failed", f"{type(err).__name__}: {err}"))
        return
    limit_address_space(settings.memory_limit_mb)
    try:
        conn.send(("ready", None))
        _answer(conn, worker, settings)
    except (BrokenPipeError, ConnectionResetError, EOFError):
        # The parent is gone (killed, or it closed the pipe): nobody wants the answer, and
        # a traceback per worker on the terminal would only bury the parent's own message.
        return
    _exit_now()


def _exit_now() -> None:
    """End a worker told to stop: its exit handlers (a PostgreSQL server it started is
    stopped by one), then the process, without the interpreter's teardown.

    A worker writes no file and leaves nothing to flush: tearing down its modules,
    DuckDB and z3 took 0.1-0.3 s, which the parent waited through at the end of every
    run.
    """
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):  # what a warning left in a buffer
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(0)


def _answer(
    conn: multiprocessing.connection.Connection, worker: Worker, settings: Settings
) -> None:
    """Answer tasks until told to stop; a dead parent surfaces as the pipe's own error."""
    while True:
        task = conn.recv()
        if task is None:
            return
        try:
            answer: tuple[str, Any] = ("done", worker.handle(task))
        except MemoryError:  # past the address-space limit: this task only
            limit = settings.memory_limit_mb
            message = f"grading needed more memory than a worker may take ({limit} MiB)"
            answer = ("exhausted", message)
        except Exception as err:  # a bug in sqlequiv: report it on this task, keep serving
            answer = ("failed", f"{type(err).__name__}: {err}")
        conn.send(answer)


def start_worker(
    context: Any, target: Any, args: tuple[Any, ...]
) -> tuple[Any, multiprocessing.connection.Connection]:
    """Start ``target(child_end, *args)`` in a ``context`` process; returns the process and
    the parent's end of its pipe."""
    parent, child = context.Pipe()
    process = context.Process(target=target, args=(child, *args), daemon=True)
    process.start()
    child.close()
    return process, parent


def await_ready(process: Any, conn: multiprocessing.connection.Connection) -> None:
    """Wait for a started worker's ``("ready", ...)``; raise :class:`WorkerStartError` if it
    died first."""
    try:
        message = conn.recv()
    except (EOFError, OSError):
        message = None
    if message is not None and message[0] == "failed":
        process.join(5)
        raise WorkerStartError(f"a grading worker process could not build the suite: {message[1]}")
    if message is None or message[0] != "ready":
        process.join(5)
        raise WorkerStartError(
            f"a grading worker process failed to start (exit code {process.exitcode}); "
            "a script that grades with local workers needs an "
            "`if __name__ == '__main__':` guard"
        )


def local_workers(jobs: int | None) -> int:
    """How many local worker processes ``jobs`` asks for: one per core by default."""
    return max(1, jobs or os.cpu_count() or 1)


def spawn_workers(document: SuiteDocument, settings: Settings, count: int) -> list[Started]:
    """Start ``count`` local workers for ``document`` without waiting for them: a
    :class:`LocalPool` made with them (``started=``) waits when it first runs tasks."""
    context = multiprocessing.get_context("spawn")
    return [start_worker(context, _serve, (document, settings)) for _ in range(count)]


def discard_workers(started: Iterable[Started]) -> None:
    """Kill workers no pool will use (the run stopped before it made one)."""
    for process, conn in started:
        kill_worker(process, conn)


def kill_worker(process: Any, conn: multiprocessing.connection.Connection) -> None:
    """Kill a worker that crashed or overran, and close its pipe."""
    with contextlib.suppress(Exception):
        process.kill()
        process.join(5)
    conn.close()


def stop_workers(workers: Iterable[tuple[Any, multiprocessing.connection.Connection]]) -> None:
    """Ask idle workers to stop (a ``None`` task), give them 2 s together, then kill the rest."""
    workers = list(workers)
    for _, conn in workers:
        with contextlib.suppress(Exception):
            conn.send(None)
    deadline = time.monotonic() + 2
    for process, conn in workers:
        process.join(max(0.0, deadline - time.monotonic()))
        if process.is_alive():
            process.kill()
            process.join(1)
        conn.close()


@dataclass
class Slot(Generic[J]):
    """A worker process, the parent's end of its pipe, and the job it is on."""

    process: Any
    conn: multiprocessing.connection.Connection
    job: J | None = None
    #: When the job was sent (0.0: never started; -1.0: ready, no job yet).
    started: float = 0.0
    #: What the worker reported of its job before the answer (an interim message).
    partial: Any = None


@dataclass(frozen=True)
class Event(Generic[J]):
    """How a job ended: ``status`` is the worker's answer (``done``, ``failed``,
    ``exhausted``, with its payload), or ``timeout`` or ``crashed`` (the worker was
    lost; ``payload`` is None or its exit code). ``partial`` is the job's last interim
    message."""

    job: J
    status: str
    payload: Any
    partial: Any = None


def feed(
    slots: list[Slot[J]],
    pending: deque[J],
    timeout: float,
    *,
    lost: Callable[[Slot[J]], None],
    top_up: Callable[[int], None] | None = None,
    interim: frozenset[str] = frozenset(),
) -> Iterator[Event[J]]:
    """Feed ``pending`` jobs to idle workers of ``slots``, one at a time each, and yield
    each job's :class:`Event` in completion order: the one dispatch loop of every pool.

    The parent waits on every pipe and process sentinel at once, so it notices at once
    when a worker dies and when a job overruns ``timeout``; such a worker goes to
    ``lost`` (which kills it and retires or replaces its slot) before the event is
    yielded. ``top_up(pending)`` runs before each round (a pool that starts workers
    as work needs them); a message whose status is in ``interim`` is kept on the slot
    (``partial``) and the wait goes on.
    """
    while pending or any(s.job is not None for s in slots):
        if top_up is not None:
            top_up(len(pending))
        for slot in slots:
            if slot.job is None and pending:
                slot.job = pending.popleft()
                slot.started = time.monotonic()
                slot.partial = None
                slot.conn.send(slot.job)
        busy = [s for s in slots if s.job is not None]
        now = time.monotonic()
        wait_for = max(0.0, min(s.started + timeout - now for s in busy))
        handles: list[Any] = [s.conn for s in busy] + [s.process.sentinel for s in busy]
        ready = multiprocessing.connection.wait(handles, timeout=wait_for)
        for slot in busy:
            job = slot.job
            assert job is not None
            if slot.conn in ready:
                try:
                    status, payload = slot.conn.recv()
                except (EOFError, OSError):
                    status, payload = "crashed", None
                if status in interim:
                    slot.partial = payload
                    continue
                if status in ("done", "failed", "exhausted"):
                    slot.job = None
                    yield Event(job, status, payload, slot.partial)
                    continue
            elif slot.process.sentinel not in ready:
                if time.monotonic() - slot.started < timeout:
                    continue
                partial = slot.partial
                lost(slot)
                yield Event(job, "timeout", None, partial)
                continue
            code, partial = slot.process.exitcode, slot.partial
            lost(slot)
            yield Event(job, "crashed", code, partial)


class LocalPool:
    """``workers`` processes, each with its own suite and DuckDB connection."""

    def __init__(
        self,
        document: SuiteDocument,
        settings: Settings,
        suite: Suite,
        workers: int | None = None,
        *,
        started: Iterable[Started] = (),
    ) -> None:
        self.document = document
        self.settings = settings
        self.suite = suite
        self.workers = local_workers(workers)
        #: Workers :func:`spawn_workers` started for this document and settings.
        self._slots: list[Slot[Task]] = [Slot(process, conn) for process, conn in started]
        #: Workers replaced after a crash or a timeout.
        self.replaced = 0

    def _start(self) -> Slot[Task]:
        (started,) = spawn_workers(self.document, self.settings, 1)
        return Slot(*started)

    def _ensure_started(self) -> None:
        while len(self._slots) < self.workers:
            self._slots.append(self._start())
        for slot in self._slots:
            if slot.job is None and slot.started == 0.0:
                # Wait for the suite to be built, so a worker's start-up is not billed
                # to its first task's timeout.
                self._await_ready(slot)

    def _await_ready(self, slot: Slot[Task]) -> None:
        await_ready(slot.process, slot.conn)
        slot.started = -1.0

    def _replace(self, slot: Slot[Task]) -> None:
        kill_worker(slot.process, slot.conn)
        self.replaced += 1
        fresh = self._start()
        self._await_ready(fresh)
        self._slots[self._slots.index(slot)] = fresh

    def run(self, tasks: Iterable[Task]) -> Iterator[Result]:
        self._ensure_started()
        timeout = self.settings.task_timeout
        for event in feed(self._slots, deque(tasks), timeout, lost=self._replace):
            task = event.job
            if event.status == "done":
                yield task, event.payload
            elif event.status in ("failed", "exhausted"):
                kind = "internal_error" if event.status == "failed" else "resource_limit"
                yield task, failed_result(self.suite, task, kind, event.payload)
            elif event.status == "timeout":
                yield task, failed_result(
                    self.suite, task, "timeout",
                    f"grading took longer than {timeout:g} s; the worker was stopped",
                )  # fmt: skip
            else:
                yield task, failed_result(
                    self.suite, task, "worker_crashed",
                    f"the worker process died (exit code {event.payload}) while grading "
                    "this pair",
                )  # fmt: skip

    def close(self) -> None:
        stop_workers((slot.process, slot.conn) for slot in self._slots)
        self._slots = []
