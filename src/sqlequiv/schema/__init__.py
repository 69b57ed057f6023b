"""Schemas: the model and the loaders (DDL, JSON/YAML mapping, DuckDB catalog)."""

from sqlequiv.schema.load import load_schema, parse_ddl, parse_mapping, read_duckdb_catalog
from sqlequiv.schema.model import Column, ForeignKey, Schema, Table

__all__ = [
    "Column",
    "ForeignKey",
    "Schema",
    "Table",
    "load_schema",
    "parse_ddl",
    "parse_mapping",
    "read_duckdb_catalog",
]
