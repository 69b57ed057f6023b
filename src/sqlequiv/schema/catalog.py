"""Load a schema from the catalog of a DuckDB database file.

DuckDB keeps, for every table, the ``CREATE TABLE`` statement that rebuilds it, with every
constraint (``PRIMARY KEY``, ``UNIQUE``, ``FOREIGN KEY``, ``CHECK``, ``NOT NULL``) and with
user-defined ENUM types spelt out (checked on DuckDB 2.0.1). Feeding those statements,
and those of the unique indexes, to the DDL loader gives the same schema as the script that
created the database. Views and temporary tables are not part of the schema.
"""

from __future__ import annotations

import os
from pathlib import Path

import duckdb

from sqlequiv.errors import SchemaError
from sqlequiv.schema.ddl import parse_ddl
from sqlequiv.schema.model import Schema

__all__ = ["read_duckdb_catalog"]

# Case-insensitive name order: names are lower-cased on the way in, so this is the order a
# reader of the schema sees. (Table OIDs are no guide: DuckDB renumbers them on reopening.)
_TABLES_SQL = """
    SELECT table_name, sql FROM duckdb_tables()
    WHERE database_name = current_database() AND NOT internal AND NOT temporary
    ORDER BY lower(table_name), table_name, schema_name
"""
_UNIQUE_INDEXES_SQL = """
    SELECT sql FROM duckdb_indexes()
    WHERE database_name = current_database() AND is_unique AND sql IS NOT NULL
    ORDER BY lower(index_name), index_name
"""
# Reading a catalog needs no file, network or extension access; an extension type in a
# column must not make DuckDB download anything.
_CONFIG: dict[str, str | bool | int | float | list[str]] = {
    "enable_external_access": False,
    "autoload_known_extensions": False,
    "autoinstall_known_extensions": False,
}


def read_duckdb_catalog(path: str | os.PathLike[str]) -> Schema:
    """Read the tables and constraints stored in a DuckDB database file.

    The file is opened read-only and closed before returning.

    Args:
        path: a DuckDB database file.

    Returns:
        Its tables, in case-insensitive name order.

    Raises:
        SchemaError: ``file_not_found``; ``unreadable_database`` when the file is not a
            DuckDB database, is locked by a writer, or its catalog cannot be read;
            ``empty_schema`` when it holds no tables; or any error of ``parse_ddl`` on
            the definitions DuckDB gives back.
    """
    file = Path(path)
    if not file.is_file():
        kind = "unreadable_database" if file.exists() else "file_not_found"
        raise SchemaError(kind, f"{file}: no such DuckDB database file")
    try:
        connection = duckdb.connect(str(file), read_only=True, config=_CONFIG)
    except duckdb.Error as err:
        raise SchemaError(
            "unreadable_database", f"{file}: cannot open as a DuckDB database: {_first_line(err)}"
        ) from err
    try:
        tables = connection.execute(_TABLES_SQL).fetchall()
        indexes = connection.execute(_UNIQUE_INDEXES_SQL).fetchall()
    except duckdb.Error as err:
        raise SchemaError(
            "unreadable_database", f"{file}: cannot read the catalog: {_first_line(err)}"
        ) from err
    finally:
        connection.close()
    if not tables:
        raise SchemaError("empty_schema", f"{file}: the database holds no tables")
    statements = [str(sql) for _, sql in tables] + [str(sql) for (sql,) in indexes]
    script = "\n".join(sql.rstrip().rstrip(";") + ";" for sql in statements)
    try:
        return parse_ddl(script, "duckdb")
    except SchemaError as err:
        # The line is one of DuckDB's statements, not a line of any file: quote it instead.
        where = ""
        if err.line is not None and 0 < err.line <= len(script.splitlines()):
            where = f" (in {script.splitlines()[err.line - 1][:200]!r})"
        raise SchemaError(err.kind, f"{file}: {err.message}{where}") from err


def _first_line(err: Exception) -> str:
    text = str(err).strip()
    return text.splitlines()[0] if text else type(err).__name__
