"""Parse and guard: the first stage of the pipeline.

Candidate SQL comes from a model and is untrusted. Before anything is executed
this module makes sure the text is exactly one read-only query that only
reads the schema's tables, calls no function that can reach files, URLs,
settings or other databases, and names only tables and columns that exist.
Every refusal is a :class:`~sqlequiv.errors.QueryError` with a machine-readable
``kind`` and a message that quotes the offending text; nothing else escapes.

The checks run on the tree parsed in the source dialect and, as defence in
depth, again on the DuckDB SQL that will really be executed: a transpile that
turned something harmless into something that is not must not slip through.
Nothing in this package executes the query; the only SQL run for it is one fixed
query, on a private in-memory DuckDB, for the names of DuckDB's functions
(:mod:`sqlequiv.policy.catalogues`).

The checks are split by job: :mod:`~sqlequiv.guard.text` (text checks, parse,
positions), :mod:`~sqlequiv.guard.readonly` (statement kinds, functions, constructs),
:mod:`~sqlequiv.guard.names` (tables, columns, did-you-mean); the function lists are
:mod:`sqlequiv.policy`. :mod:`~sqlequiv.guard.query` runs them in order (:func:`guard_query`).
"""

from __future__ import annotations

from sqlequiv.guard.names import sqlite_string_identifiers
from sqlequiv.guard.query import MAX_NODES, GuardedQuery, guard_query, on_engine
from sqlequiv.policy.functions import (
    FORBIDDEN_FUNCTION_PREFIXES,
    FORBIDDEN_FUNCTIONS,
    TABLE_FUNCTIONS,
)

__all__ = [
    "FORBIDDEN_FUNCTIONS",
    "FORBIDDEN_FUNCTION_PREFIXES",
    "MAX_NODES",
    "TABLE_FUNCTIONS",
    "GuardedQuery",
    "guard_query",
    "on_engine",
    "sqlite_string_identifiers",
]
