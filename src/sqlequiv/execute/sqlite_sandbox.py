"""The limits every SQLite connection that runs untrusted SQL gets: one function.

Both sqlequiv's SQLite executor and the text-to-SQL execution match (which runs
candidate SQL on the shipped database file) call :func:`harden`, so a limit added for
one cannot be missing from the other (the execution match once lacked
``SQLITE_LIMIT_SQL_LENGTH``). What a running statement may touch is one authorizer,
:func:`query_authorizer`, whose policy is its argument: the executor allows only its
schema's tables, the execution match any table of the opened file.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Collection

from sqlequiv.policy.catalogues import DENIED_FUNCTIONS

__all__ = ["HEAP_LIMIT_BYTES", "MAX_VALUE_BYTES", "Authorizer", "harden", "query_authorizer"]

#: SQLite's authorizer callback: (action, arg1, arg2, database, trigger or view) -> verdict.
Authorizer = Callable[[int, str | None, str | None, str | None, str | None], int]

_OK, _DENY = sqlite3.SQLITE_OK, sqlite3.SQLITE_DENY
_RECURSIVE = getattr(sqlite3, "SQLITE_RECURSIVE", 33)


def query_authorizer(tables: Collection[str] | None = None) -> Authorizer:
    """The authorizer of a connection that runs untrusted queries: a SELECT (recursive
    CTEs included) that reads ``tables`` of the main database (every table of it when
    None; names in lower case) and calls no function of
    :data:`~sqlequiv.policy.catalogues.DENIED_FUNCTIONS`; anything else is denied.

    Example:
        >>> allow = query_authorizer({"t"})
        >>> allow(sqlite3.SQLITE_READ, "t", "a", "main", None) == sqlite3.SQLITE_OK
        True
        >>> allow(sqlite3.SQLITE_READ, "sqlite_master", "sql", "main", None) == sqlite3.SQLITE_OK
        False
    """
    allowed = None if tables is None else frozenset(tables)

    def authorize(
        action: int, arg1: str | None, arg2: str | None, db: str | None, source: str | None
    ) -> int:
        if action in (sqlite3.SQLITE_SELECT, _RECURSIVE):
            return _OK
        if action == sqlite3.SQLITE_READ:
            if db is None:
                return _OK  # a CTE reading its own rows (no database holds it)
            if db != "main":
                return _DENY
            if allowed is None:
                return _OK
            return _OK if arg1 is not None and arg1.lower() in allowed else _DENY
        if action == sqlite3.SQLITE_FUNCTION:
            return _OK if arg2 and arg2.lower() not in DENIED_FUNCTIONS else _DENY
        return _DENY

    return authorize

#: Largest string or blob a query may build (``SQLITE_LIMIT_LENGTH``), and longest SQL
#: text it may be (``SQLITE_LIMIT_SQL_LENGTH``).
MAX_VALUE_BYTES = 10_000_000
#: Process-wide SQLite heap limit; past it an allocation fails with "out of memory".
HEAP_LIMIT_BYTES = 1 << 30


def harden(con: sqlite3.Connection) -> None:
    """Limits that hold for every statement run on ``con``: no ATTACH, no extension
    loading, bounded values and SQL text, sorts and temporary tables in memory
    (nothing is written to disk), no functions from the schema, and the heap limit.

    Example:
        >>> con = sqlite3.connect(":memory:")
        >>> harden(con)
        >>> con.getlimit(sqlite3.SQLITE_LIMIT_ATTACHED)
        0
    """
    con.setlimit(sqlite3.SQLITE_LIMIT_ATTACHED, 0)
    con.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_VALUE_BYTES)
    con.setlimit(sqlite3.SQLITE_LIMIT_SQL_LENGTH, MAX_VALUE_BYTES)
    if hasattr(con, "enable_load_extension"):
        con.enable_load_extension(False)
    con.execute("PRAGMA temp_store = MEMORY")
    con.execute("PRAGMA trusted_schema = OFF")
    # Process-wide, over SQLite's own allocations only (setting it again is harmless).
    con.execute(f"PRAGMA hard_heap_limit = {HEAP_LIMIT_BYTES}")
