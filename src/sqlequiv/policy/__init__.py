"""What functions mean to sqlequiv, in one place below every user.

* :mod:`~sqlequiv.policy.volatile`: which functions are volatile or read the clock
  (the normalizer, the prover, the pipeline's constant decision);
* :mod:`~sqlequiv.policy.functions`: which functions a query may call at all (the
  guard, and the schema loader for CHECK and DEFAULT expressions);
* :mod:`~sqlequiv.policy.catalogues`: which functions each engine has;
* :mod:`~sqlequiv.policy.opaque`: the names of the opaque calls that stand for SQLite's
  own expressions in a proof (written by the executor's rewrite, read by the prover).

The package imports nothing from sqlequiv above it, so that the guard, the schema
loader and the executors can share these lists without importing one another.
"""

from sqlequiv.policy.catalogues import DENIED_FUNCTIONS, duckdb_functions, sqlite_functions
from sqlequiv.policy.functions import (
    FORBIDDEN_FUNCTION_PREFIXES,
    FORBIDDEN_FUNCTIONS,
    MAX_BUILT_SIZE,
    TABLE_FUNCTIONS,
    forbidden_function_in,
)
from sqlequiv.policy.volatile import (
    CLOCK_FUNCTIONS,
    VOLATILE_FUNCTIONS,
    function_name,
    is_volatile,
    varies_between_runs,
)

__all__ = [
    "CLOCK_FUNCTIONS",
    "DENIED_FUNCTIONS",
    "FORBIDDEN_FUNCTIONS",
    "FORBIDDEN_FUNCTION_PREFIXES",
    "MAX_BUILT_SIZE",
    "TABLE_FUNCTIONS",
    "VOLATILE_FUNCTIONS",
    "duckdb_functions",
    "forbidden_function_in",
    "function_name",
    "is_volatile",
    "sqlite_functions",
    "varies_between_runs",
]
