"""sqlequiv: do two SQL queries return the same rows on every database a schema allows?

Example:
    >>> from sqlequiv import check
    >>> ddl = "CREATE TABLE t (a INT, b INT)"
    >>> check("SELECT b, a FROM t", "SELECT a, b FROM t AS x", ddl).verdict
    'equivalent'
"""

from sqlequiv.api import check, distinguishing_fixtures
from sqlequiv.errors import QueryError, SchemaError, SqlequivError
from sqlequiv.options import Options
from sqlequiv.schema import Schema, load_schema
from sqlequiv.verdict import CAUSES, Counterexample, ErrorInfo, Verdict

__version__ = "0.1.0"

__all__ = [
    "CAUSES",
    "Counterexample",
    "ErrorInfo",
    "Options",
    "QueryError",
    "Schema",
    "SchemaError",
    "SqlequivError",
    "Verdict",
    "check",
    "distinguishing_fixtures",
    "load_schema",
]
