"""Schemas: the model and the loaders (DDL, JSON/YAML mapping, DuckDB catalog)."""

from sqlequiv.schema.model import Column, ForeignKey, Schema, Table

__all__ = ["Column", "ForeignKey", "Schema", "Table"]
