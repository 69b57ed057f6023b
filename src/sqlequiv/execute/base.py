"""What the core needs from a database engine: the :class:`Executor` interface.

It sits below both engines (``duckdb_engine``, ``sqlite_engine``) and below every
caller, so an engine never imports another and no caller imports an engine to name
the interface.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

from sqlequiv.database import Database
from sqlequiv.results import ResultSet
from sqlequiv.schema.model import Schema

#: Databases an engine keeps staged before it clears them (a batch statement reads
#: every staged database's rows, so fewer is faster).
MAX_STAGED = 400


class Executor(Protocol):
    """What the core needs from a database engine."""

    #: The SQL dialect the engine runs ("duckdb", "sqlite" or "postgres"): which text of a guarded
    #: query is executed, and how constraint checks are written.
    dialect: str
    #: Per-query timeout, in seconds.
    timeout: float

    def prepare(self, schema: Schema) -> None:
        """Create (empty) tables for ``schema``."""

    def load(self, db: Database) -> None:
        """Make ``db`` the database every query sees."""

    def stage(self, dbs: Sequence[Database]) -> list[int]:
        """Store several databases at once; one handle each."""

    def activate(self, handle: int) -> None:
        """Make a staged database the one every query sees."""

    def run(self, sql: str) -> ResultSet:
        """Run a read-only query; raise :class:`QueryFailed` on failure."""

    def scalar(self, sql: str) -> Any:
        """Run trusted SQL returning one value (constraint checks)."""


class WrittenOnActivate:
    """Staging for engines whose statements cost microseconds (SQLite, PostgreSQL over a
    socket): staged databases are only kept, and written into the tables by ``_write``
    when activated. The engine sets ``_staged = {}`` and ``_next = 0``."""

    _staged: dict[int, Database]
    _next: int

    def stage(self, dbs: Sequence[Database]) -> list[int]:
        """Keep several databases; one handle each for :meth:`activate`."""
        if len(self._staged) > MAX_STAGED:
            self._staged.clear()
        handles = []
        for db in dbs:
            self._next += 1
            self._staged[self._next] = db
            handles.append(self._next)
        return handles

    def activate(self, handle: int) -> None:
        """Make the staged database ``handle`` the one every query sees."""
        self._write(self._staged[handle])

    def load(self, db: Database) -> None:
        self._write(db)

    def _write(self, db: Database) -> None:
        raise NotImplementedError


class BatchUnsupported(Exception):
    """A query that cannot run on a batch of databases in one statement (run them one by one)."""


@runtime_checkable
class BatchExecutor(Executor, Protocol):
    """An engine that can run one query on many staged databases in one statement."""

    def run_batch(self, sql: str, handles: Sequence[int]) -> dict[int, ResultSet]:
        """``sql``'s result on each staged database of ``handles``.

        Raises :class:`BatchUnsupported` when the statement cannot be written, and
        :class:`QueryFailed` when it fails."""


def first_line(exc: BaseException) -> str:
    """The first line of an engine's message (its later lines repeat the query), or the
    exception's type when it has no message."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


class Watchdog:
    """One background thread that calls ``interrupt`` past a deadline.

    A thread per query would cost more than the query; this one sleeps on a
    condition and wakes only when a deadline is armed.
    """

    def __init__(self, interrupt: Callable[[], object]) -> None:
        self.interrupt = interrupt
        self.deadline: float | None = None
        self._cond = threading.Condition()
        thread = threading.Thread(target=self._loop, name="sqlequiv-watchdog", daemon=True)
        thread.start()

    def arm(self, seconds: float) -> None:
        with self._cond:
            self.deadline = time.monotonic() + seconds
            self._cond.notify()

    def disarm(self) -> None:
        with self._cond:
            self.deadline = None

    def _loop(self) -> None:
        with self._cond:
            while True:
                if self.deadline is None:
                    self._cond.wait()
                    continue
                remaining = self.deadline - time.monotonic()
                if remaining > 0:
                    self._cond.wait(remaining)
                    continue
                self.deadline = None
                # A connection already closed has nothing left to interrupt.
                with contextlib.suppress(Exception):
                    self.interrupt()
