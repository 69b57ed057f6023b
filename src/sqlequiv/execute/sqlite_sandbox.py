"""The limits every SQLite connection that runs untrusted SQL gets: one function.

Both sqlequiv's SQLite executor and the text-to-SQL execution match (which runs
candidate SQL on the shipped database file) call :func:`harden`, so a limit added for
one cannot be missing from the other (the execution match once lacked
``SQLITE_LIMIT_SQL_LENGTH``). What a running statement may touch is each caller's
authorizer: the executor allows only its schema's tables, the execution match any
table of the opened file.
"""

from __future__ import annotations

import sqlite3

__all__ = ["HEAP_LIMIT_BYTES", "MAX_VALUE_BYTES", "harden"]

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
