"""Schemas: the model and the loaders (DDL, JSON/YAML mapping, DuckDB and SQLite databases,
Spider/BIRD tables.json)."""

from sqlequiv.schema.load import load_schema, parse_ddl, parse_mapping, read_duckdb_catalog
from sqlequiv.schema.model import Column, ForeignKey, Schema, Table, sqlite_affinity
from sqlequiv.schema.spider import read_tables_json
from sqlequiv.schema.sqlite_file import read_sqlite_catalog, read_sqlite_rows

__all__ = [
    "Column",
    "ForeignKey",
    "Schema",
    "Table",
    "load_schema",
    "parse_ddl",
    "parse_mapping",
    "read_duckdb_catalog",
    "read_sqlite_catalog",
    "read_sqlite_rows",
    "read_tables_json",
    "sqlite_affinity",
]
