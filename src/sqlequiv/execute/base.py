"""What the core needs from a database engine: the :class:`Executor` interface.

It sits below both engines (``duckdb_engine``, ``sqlite_engine``) and below every
caller, so an engine never imports another and no caller imports an engine to name
the interface.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from sqlequiv.database import Database
from sqlequiv.results import ResultSet
from sqlequiv.schema.model import Schema

#: Databases an engine keeps staged before it clears them (a batch statement reads
#: every staged database's rows, so fewer is faster).
MAX_STAGED = 400


class Executor(Protocol):
    """What the core needs from a database engine."""

    #: The SQL dialect the engine runs ("duckdb" or "sqlite"): which text of a guarded
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
