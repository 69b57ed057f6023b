"""Concrete databases: rows per table (:mod:`~sqlequiv.database.model`), their SQL
literals and INSERT scripts, and the check that one satisfies a schema's constraints
(:mod:`~sqlequiv.database.constraints`).

The search generates them, the executors load them, the shrinker minimises them, a
suite's fixtures are made of them and a counterexample reports one.
"""

from sqlequiv.database.model import Database, Row, insert_script, row_literal, sql_literal

__all__ = ["Database", "Row", "insert_script", "row_literal", "sql_literal"]
