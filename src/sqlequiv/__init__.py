"""sqlequiv: do two SQL queries return the same rows on every database a schema allows?

Example:
    >>> from sqlequiv import check
    >>> ddl = "CREATE TABLE t (a INT, b INT)"
    >>> check("SELECT b, a FROM t", "SELECT a, b FROM t AS x", ddl).verdict
    'equivalent'
"""

from sqlequiv._version import __version__ as __version__
from sqlequiv.api import check, distinguishing_fixtures
from sqlequiv.errors import QueryError, SchemaError, SqlequivError
from sqlequiv.grading import Record, grade
from sqlequiv.options import Options
from sqlequiv.schema import Schema, load_schema
from sqlequiv.suite import Item, Suite, SuiteError, load_suite
from sqlequiv.verdict import CAUSES, Counterexample, ErrorInfo, Verdict

__all__ = [
    "CAUSES",
    "Counterexample",
    "ErrorInfo",
    "Item",
    "Options",
    "QueryError",
    "Record",
    "Schema",
    "SchemaError",
    "SqlequivError",
    "Suite",
    "SuiteError",
    "Verdict",
    "check",
    "distinguishing_fixtures",
    "grade",
    "load_schema",
    "load_suite",
]
