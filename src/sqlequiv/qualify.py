"""Qualification: resolve every table and column against the schema.

This is the one place where a parsed query meets the schema. Every later stage
(the normalizer, the transpile to DuckDB, the constant harvest) works on the
qualified, type-annotated tree this module returns.
"""

from __future__ import annotations

from sqlglot import exp
from sqlglot.optimizer.annotate_types import annotate_types
from sqlglot.optimizer.qualify import qualify

from sqlequiv.schema.model import Schema


def qualify_query(ast: exp.Expression, schema: Schema, dialect: str) -> exp.Expression:
    """Qualify columns, expand stars and annotate types; returns a new tree.

    Raises sqlglot's ``OptimizeError`` for a column that does not resolve; the
    guard turns that into a ``QueryError`` naming the column.

    Example:
        >>> from sqlglot import parse_one, exp
        >>> from sqlequiv.schema.model import Column, Schema, Table
        >>> s = Schema((Table("t", (Column("a", exp.DataType.build("INT")),)),))
        >>> qualify_query(parse_one("SELECT * FROM T"), s, "duckdb").sql()
        'SELECT t.a AS a FROM t AS t'
    """
    mapping: dict[str, object] = dict(schema.mapping())
    qualified = qualify(
        ast.copy(),
        schema=mapping,
        dialect=dialect,
        validate_qualify_columns=True,
        quote_identifiers=False,
        identify=False,
    )
    return annotate_types(qualified, schema=mapping, dialect=dialect)


def to_duckdb(ast: exp.Expression) -> str:
    """Render a qualified, annotated tree as DuckDB SQL.

    Type annotation is what keeps source-dialect semantics: a Postgres
    ``int / int`` is emitted as an integer division.
    """
    return ast.sql(dialect="duckdb")
