"""Grade benchmark items on worker processes that a bad item cannot take down.

The same design as :mod:`sqlequiv.grading.pools` (spawned processes, one task
per idle worker, the parent waiting on every pipe and process sentinel at once),
for :class:`~sqlequiv.text2sql.item.ItemGrader` instead of a suite worker, and
with one addition: a worker reports an item's execution match as soon as it
has it, so an item whose sqlequiv check overruns the wall clock or crashes the
worker keeps its execution match in the record. Results come back in
completion order.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import signal
from collections import deque
from collections.abc import Iterable, Iterator
from typing import Any, Protocol

from sqlequiv.grading.pools import (
    Slot,
    await_ready,
    feed,
    kill_worker,
    start_worker,
    stop_workers,
)
from sqlequiv.text2sql.formats import BenchmarkItem
from sqlequiv.text2sql.item import BenchmarkSettings, ItemGrader, failed_record

Result = tuple[BenchmarkItem, dict[str, Any]]


class BenchmarkPool(Protocol):
    """Grades items and yields each with its record, as they complete."""

    def run(self, items: Iterable[BenchmarkItem]) -> Iterator[Result]: ...

    def close(self) -> None: ...


class InlineBenchmarkPool:
    """Items one after the other in this process (no isolation; for tests and libraries)."""

    def __init__(self, settings: BenchmarkSettings) -> None:
        self.grader = ItemGrader(settings)
        self.replaced = 0

    def run(self, items: Iterable[BenchmarkItem]) -> Iterator[Result]:
        for item in items:
            yield item, self.grader.grade(item)

    def close(self) -> None:
        pass


def _serve(conn: multiprocessing.connection.Connection, settings: BenchmarkSettings) -> None:
    """A worker process: grade items until told to stop."""
    # Ctrl-C reaches the whole process group; the parent decides what happens.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    grader = ItemGrader(settings)
    conn.send(("ready", None))
    while True:
        try:
            item = conn.recv()
        except EOFError:
            return
        if item is None:
            return
        try:
            record = grader.grade(item, on_exec=lambda match: conn.send(("exec", match)))
            conn.send(("done", record))
        except Exception as err:  # a bug in sqlequiv: report it on this item, keep serving
            conn.send(("failed", f"{type(err).__name__}: {err}"))


class LocalBenchmarkPool:
    """``workers`` processes, each with its own caches and SQLite connections."""

    def __init__(self, settings: BenchmarkSettings, workers: int | None = None) -> None:
        self.settings = settings
        self.workers = max(1, workers or os.cpu_count() or 1)
        self._context = multiprocessing.get_context("spawn")
        self._slots: list[Slot[BenchmarkItem]] = []
        #: Workers stopped after a crash or a timeout (fresh ones start when work needs them).
        self.replaced = 0

    def _spawn(self) -> Slot[BenchmarkItem]:
        return Slot(*start_worker(self._context, _serve, (self.settings,)))

    def _retire(self, slot: Slot[BenchmarkItem]) -> None:
        """Kill a worker that crashed or overran; a fresh one starts when work needs it."""
        kill_worker(slot.process, slot.conn)
        self.replaced += 1
        self._slots.remove(slot)

    def _top_up(self, pending: int) -> None:
        """Start workers (together: each imports sqlglot and z3) for work no idle one takes."""
        idle = sum(s.job is None for s in self._slots)
        wanted = min(self.workers - len(self._slots), pending - idle)
        fresh = [self._spawn() for _ in range(max(0, wanted))]
        self._slots.extend(fresh)
        for slot in fresh:
            await_ready(slot.process, slot.conn)

    def run(self, items: Iterable[BenchmarkItem]) -> Iterator[Result]:
        timeout = self.settings.item_timeout
        events = feed(
            self._slots, deque(items), timeout,
            lost=self._retire, top_up=self._top_up, interim=frozenset({"exec"}),
        )  # fmt: skip
        for event in events:
            item, exec_result = event.job, event.partial
            if event.status == "done":
                yield item, event.payload
            elif event.status == "timeout":
                message = f"grading took longer than {timeout:g} s; the worker was stopped"
                yield item, failed_record(self.settings, item, exec_result, "timeout", message)
            elif event.status == "crashed":
                message = (
                    f"the worker process died (exit code {event.payload}) while grading "
                    "this item"
                )
                yield item, failed_record(
                    self.settings, item, exec_result, "worker_crashed", message
                )
            else:
                yield item, failed_record(
                    self.settings, item, exec_result, "internal_error", event.payload
                )

    def close(self) -> None:
        stop_workers((slot.process, slot.conn) for slot in self._slots)
        self._slots = []
