"""sqlequiv: do two SQL queries return the same rows on every database a schema allows?

Example:
    >>> from sqlequiv import check
    >>> ddl = "CREATE TABLE t (a INT, b INT)"
    >>> check("SELECT b, a FROM t", "SELECT a, b FROM t AS x", ddl).verdict
    'equivalent'
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from sqlequiv._version import __version__ as __version__

if TYPE_CHECKING:
    from sqlequiv.api import check, distinguishing_fixtures
    from sqlequiv.errors import QueryError, SchemaError, SqlequivError
    from sqlequiv.grading import Record, grade
    from sqlequiv.options import Options
    from sqlequiv.schema import Schema, load_schema
    from sqlequiv.suite import Item, Suite, SuiteError, load_suite
    from sqlequiv.verdict import CAUSES, Counterexample, ErrorInfo, Verdict

# The public names are imported on first use (PEP 562), not here: importing a light
# submodule (the pytest plugin, the configuration) must not load sqlglot, z3, DuckDB
# and Hypothesis, which take half a second.
_HOME: dict[str, str] = {
    "check": "sqlequiv.api",
    "distinguishing_fixtures": "sqlequiv.api",
    "QueryError": "sqlequiv.errors",
    "SchemaError": "sqlequiv.errors",
    "SqlequivError": "sqlequiv.errors",
    "Record": "sqlequiv.grading",
    "grade": "sqlequiv.grading",
    "Options": "sqlequiv.options",
    "Schema": "sqlequiv.schema",
    "load_schema": "sqlequiv.schema",
    "Item": "sqlequiv.suite",
    "Suite": "sqlequiv.suite",
    "SuiteError": "sqlequiv.suite",
    "load_suite": "sqlequiv.suite",
    "CAUSES": "sqlequiv.verdict",
    "Counterexample": "sqlequiv.verdict",
    "ErrorInfo": "sqlequiv.verdict",
    "Verdict": "sqlequiv.verdict",
}

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


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'sqlequiv' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
