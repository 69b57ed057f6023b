"""The functions each engine has: DuckDB's catalogue and SQLite's, less denied ones.

The guard refuses a call of a function the engine does not have (``unknown_function``)
before executing, with a message naming it, instead of a late engine error. Each
catalogue is read once from a private in-memory connection (the only SQL run here is
one fixed catalogue query) and cached. It lives below the guard and the executors so
that the guard need not import an executor for a list of names.
"""

from __future__ import annotations

import functools
import sqlite3

import duckdb

#: The engines a query can run on (``--engine``).
ENGINES = ("duckdb", "sqlite", "postgres")


def engine_for(dialect: str) -> str:
    """The engine that runs queries written in ``dialect`` by default: SQLite for
    "sqlite", PostgreSQL for "postgres", DuckDB for every other dialect."""
    lower = dialect.lower()
    return lower if lower in ("sqlite", "postgres") else "duckdb"


def native(dialect: str, engine: str) -> bool:
    """Whether ``engine`` runs queries of ``dialect`` as written (no translation)."""
    return dialect.lower() == engine and engine in ("sqlite", "postgres")


# Functions DuckDB accepts that its catalog (duckdb_functions()) does not list,
# because its parser treats them as special forms.
_DUCKDB_SPECIAL_FORMS = frozenset(
    {"coalesce", "columns", "grouping", "grouping_id", "try", "unpack", "row", "struct"}
)


@functools.cache
def duckdb_functions() -> frozenset[str]:
    """Lower-cased names of every function and macro DuckDB has (read once, cached)."""
    with duckdb.connect(":memory:", config={"enable_external_access": False, "threads": 1}) as con:
        rows = con.execute("SELECT DISTINCT lower(function_name) FROM duckdb_functions()")
        names = {str(row[0]) for row in rows.fetchall()}
    return frozenset(names) | _DUCKDB_SPECIAL_FORMS


#: SQL functions a query may never call, even if this SQLite build has them:
#: they load code, read or write files, or corrupt memory when misused.
DENIED_FUNCTIONS: frozenset[str] = frozenset(
    {
        "load_extension",
        "fts3_tokenizer",
        "readfile",
        "writefile",
        "edit",
        "lsmode",
        "zipfile",
        "sqlar_compress",
        "sqlar_uncompress",
        "sqlite_dbpage",
        "sqlite_dbdata",
        "sqlite_dbptr",
    }
)


@functools.cache
def sqlite_functions() -> frozenset[str]:
    """Names of the SQL functions this build of SQLite has (lower case), less the denied ones."""
    con = sqlite3.connect(":memory:")
    try:
        names = {str(n).lower() for (n,) in con.execute("SELECT name FROM pragma_function_list")}
    except sqlite3.Error:  # a build without the introspection pragmas: the core set
        names = set(_CORE_FUNCTIONS.split())
    finally:
        con.close()
    return frozenset(names - DENIED_FUNCTIONS)


#: SQLite's built-in functions, for builds without ``pragma_function_list``.
_CORE_FUNCTIONS = """
abs char coalesce concat concat_ws format glob hex ifnull iif instr length like likelihood
likely lower ltrim max min nullif octet_length printf quote random randomblob replace round
rtrim sign soundex sqlite_version substr substring trim typeof unhex unicode unlikely upper
zeroblob avg count group_concat string_agg sum total date time datetime julianday unixepoch
strftime timediff row_number rank dense_rank percent_rank cume_dist ntile lag lead
first_value last_value nth_value acos acosh asin asinh atan atan2 atanh ceil ceiling cos cosh
degrees exp floor ln log log10 log2 mod pi pow power radians sin sinh sqrt tan tanh trunc
"""
