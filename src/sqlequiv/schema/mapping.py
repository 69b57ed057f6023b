"""Load a schema from a mapping: the JSON/YAML schema format.

The format (``docs/schema-format.md`` has the full reference)::

    tables:
      customers:
        columns:
          customer_id: {type: INTEGER, nullable: false}
          name: VARCHAR                  # shorthand: the type alone; the column is nullable
          plan: {type: VARCHAR, check: "plan IN ('free', 'pro', 'enterprise')"}
        primary_key: [customer_id]       # or a single name
        unique: [[name]]                 # a list of keys; a key may be a single name
        checks: ["customer_id > 0"]
      orders:
        columns:
          order_id: {type: INTEGER}
          customer_id: {type: INTEGER, references: customers.customer_id}
        foreign_keys:
          - {columns: [customer_id], references: {table: customers, columns: [customer_id]}}

* ``tables`` (required) maps each table name to its definition.
* A table has ``columns`` (required, not empty) and optionally ``primary_key``, ``unique``,
  ``foreign_keys`` and ``checks``.
* A column is a type string, or a mapping with ``type`` (required), ``nullable`` (default
  ``true``), ``check`` (a condition over the table's columns) and ``references``
  (``table.column``, or ``table`` for that table's primary key).
* Types are DuckDB type names (``INTEGER``, ``VARCHAR``, ``DECIMAL(10, 2)``, ``DATE``,
  ``TIMESTAMP``, ``INTEGER[]``, ...); conditions are DuckDB SQL expressions.
* ``unique: [a, b]`` declares two one-column keys; ``unique: [[a, b]]`` one two-column key.
* A foreign key's ``references`` is ``{table, columns}`` (``columns`` defaults to the
  referenced table's primary key) or the ``table.column`` / ``table`` shorthand.

Names are case-insensitive and stored lower-case. The validation and the error kinds are
those of the DDL loader (``unknown_column``, ``unknown_reference``, ...), located by the path
of the offending entry (``tables.orders.columns.customer_id.type``) instead of a line. A
misspelled key is an ``unknown_key`` error, a value of the wrong shape ``invalid_mapping``.
"""

from __future__ import annotations

from collections.abc import Mapping

import sqlglot
from sqlglot import exp
from sqlglot.errors import SqlglotError

from sqlequiv.policy.parse_cost import parse_cost
from sqlequiv.schema.ddl import At, SchemaDraft, TableDraft
from sqlequiv.schema.model import Schema

__all__ = ["parse_mapping"]

_TABLE_KEYS = ("columns", "primary_key", "unique", "foreign_keys", "checks")
_COLUMN_KEYS = ("type", "nullable", "check", "references")
_FOREIGN_KEY_KEYS = ("columns", "references")
_REFERENCE_KEYS = ("table", "columns")


def parse_mapping(data: object) -> Schema:
    """Read a schema from a mapping already loaded from JSON or YAML.

    Args:
        data: ``{"tables": {...}}`` in the format of the module docstring.

    Returns:
        The tables, in the mapping's order.

    Raises:
        SchemaError: a key is unknown, a value has the wrong shape, a type or condition does
            not parse, or the declarations are inconsistent; the message names the path.

    Example:
        >>> schema = parse_mapping({"tables": {"t": {
        ...     "columns": {"id": "INTEGER", "tag": {"type": "VARCHAR", "nullable": False}},
        ...     "primary_key": "id"}}})
        >>> [(c.name, c.type_sql, c.nullable) for c in schema.table("t").columns]
        [('id', 'INT', False), ('tag', 'TEXT', False)]
    """
    top = _mapping(data, "schema")
    _known_keys(top, ("tables",), "schema")
    if "tables" not in top:
        raise At(path="schema").error("invalid_mapping", "missing key 'tables'")
    tables = _mapping(top["tables"], "tables")
    draft = SchemaDraft()
    for raw_name, spec in tables.items():
        name = _name(raw_name, "tables")
        table = draft.add_table(name, At(path=f"tables.{name}"))
        assert table is not None  # add_table only skips with if_not_exists
        _table(table, spec, f"tables.{name}")
    return draft.build()


def _table(table: TableDraft, data: object, path: str) -> None:
    spec = _mapping(data, path)
    _known_keys(spec, _TABLE_KEYS, path, table.name)
    if "columns" not in spec:
        raise At(path=path).error("invalid_mapping", "missing key 'columns'")
    columns = _mapping(spec["columns"], f"{path}.columns")
    for raw_name, column in columns.items():
        name = _name(raw_name, f"{path}.columns")
        _column(table, name, column, f"{path}.columns.{name}")
    if "primary_key" in spec:
        where = f"{path}.primary_key"
        table.set_primary_key(_names(spec["primary_key"], where), At(path=where))
    if "unique" in spec:
        for i, key in enumerate(_list(spec["unique"], f"{path}.unique")):
            where = f"{path}.unique[{i}]"
            table.add_unique(_names(key, where), At(path=where))
    if "foreign_keys" in spec:
        for i, fk in enumerate(_list(spec["foreign_keys"], f"{path}.foreign_keys")):
            _foreign_key(table, fk, f"{path}.foreign_keys[{i}]")
    if "checks" in spec:
        for i, check in enumerate(_list(spec["checks"], f"{path}.checks")):
            where = f"{path}.checks[{i}]"
            table.add_check(_condition(check, where), At(path=where))


def _column(table: TableDraft, name: str, data: object, path: str) -> None:
    spec: Mapping[object, object]
    if isinstance(data, str):
        spec = {"type": data}
    elif isinstance(data, Mapping):
        spec = data
        _known_keys(spec, _COLUMN_KEYS, path, table.name)
        if "type" not in spec:
            raise At(path=path).error("invalid_mapping", "missing key 'type'")
    else:
        raise At(path=path).error(
            "invalid_mapping",
            f"expected a type name or a mapping with 'type', got {_shape(data)}",
        )
    at = At(path=path)
    type_path = f"{path}.type"
    table.add_column(name, _type(spec["type"], type_path), at, At(path=type_path))
    if "nullable" in spec:
        nullable = spec["nullable"]
        if not isinstance(nullable, bool):
            raise At(path=f"{path}.nullable").error(
                "invalid_mapping", f"expected true or false, got {_shape(nullable)}"
            )
        table.set_nullable(name, nullable, at)
    if "check" in spec:
        where = f"{path}.check"
        table.add_check(_condition(spec["check"], where), At(path=where))
    if "references" in spec:
        where = f"{path}.references"
        ref_table, ref_columns = _reference(spec["references"], where)
        table.add_foreign_key([name], ref_table, ref_columns, At(path=where))


def _foreign_key(table: TableDraft, data: object, path: str) -> None:
    spec = _mapping(data, path)
    _known_keys(spec, _FOREIGN_KEY_KEYS, path, table.name)
    for key in _FOREIGN_KEY_KEYS:
        if key not in spec:
            raise At(path=path).error("invalid_mapping", f"missing key {key!r}")
    columns = _names(spec["columns"], f"{path}.columns")
    ref_table, ref_columns = _reference(spec["references"], f"{path}.references")
    table.add_foreign_key(columns, ref_table, ref_columns, At(path=path))


def _reference(data: object, path: str) -> tuple[str, list[str] | None]:
    """``table.column``, ``table`` or ``{table, columns}``; no columns means the primary key."""
    if isinstance(data, str):
        parts = data.split(".")
        if len(parts) > 2 or not all(parts):
            raise At(path=path).error(
                "invalid_mapping", f"expected 'table' or 'table.column', got {data!r}"
            )
        return parts[0].lower(), [parts[1].lower()] if len(parts) == 2 else None
    spec = _mapping(data, path)
    _known_keys(spec, _REFERENCE_KEYS, path)
    if "table" not in spec:
        raise At(path=path).error("invalid_mapping", "missing key 'table'")
    table = _name(spec["table"], f"{path}.table")
    columns = _names(spec["columns"], f"{path}.columns") if "columns" in spec else None
    return table, columns


def _type(data: object, path: str) -> exp.DataType:
    """A DuckDB type name, parsed completely (``INT NOT NULL`` is not a type)."""
    at = At(path=path)
    if not isinstance(data, str) or not data.strip():
        raise at.error("invalid_mapping", f"expected a type name, got {_shape(data)}")
    try:
        type_ = exp.DataType.build(data, dialect="duckdb")
        # build() stops at the end of the type and ignores the rest, so a column written
        # "INT NOT NULL" would silently lose its NOT NULL; a CAST must consume it all.
        sqlglot.parse_one(f"CAST(NULL AS {data})", read="duckdb")
    except (SqlglotError, ValueError) as err:
        raise at.error(
            "unknown_type",
            f"{data!r} is not a DuckDB type (write NOT NULL as 'nullable: false'): "
            f"{str(err).splitlines()[0]}",
        ) from err
    return type_


def _condition(data: object, path: str) -> exp.Expression:
    at = At(path=path)
    if not isinstance(data, str) or not data.strip():
        raise at.error("invalid_mapping", f"expected an SQL condition, got {_shape(data)}")
    try:
        cost = parse_cost(sqlglot.Dialect.get_or_raise("duckdb").tokenize(data))
        if cost.too_costly:  # sqlglot would take exponential time on it
            raise at.error("too_complex", f"the condition has {cost.message()}")
        condition = sqlglot.parse_one(data, read="duckdb", into=exp.Condition)
    except SqlglotError as err:
        raise at.error("parse_error", f"{data!r} is not an SQL condition") from err
    if not isinstance(condition, exp.Expression):
        raise at.error("parse_error", f"{data!r} is not an SQL condition")
    return condition


def _names(data: object, path: str) -> list[str]:
    """A non-empty list of column names, or one name."""
    if isinstance(data, str):
        return [_name(data, path)]
    items = _list(data, path)
    if not items:
        raise At(path=path).error("invalid_mapping", "expected at least one column name")
    return [_name(item, f"{path}[{i}]") for i, item in enumerate(items)]


def _name(data: object, path: str) -> str:
    if isinstance(data, bool):
        # YAML 1.1 reads unquoted yes/no/on/off/true/false as booleans.
        raise At(path=path).error(
            "invalid_mapping",
            f"expected a name, got the boolean {data}; quote names such as 'on' or 'yes' in YAML",
        )
    if not isinstance(data, str) or not data.strip():
        raise At(path=path).error("invalid_mapping", f"expected a name, got {_shape(data)}")
    return data.lower()


def _mapping(data: object, path: str) -> Mapping[object, object]:
    if not isinstance(data, Mapping):
        raise At(path=path).error("invalid_mapping", f"expected a mapping, got {_shape(data)}")
    return data


def _list(data: object, path: str) -> list[object]:
    if not isinstance(data, list | tuple):
        raise At(path=path).error("invalid_mapping", f"expected a list, got {_shape(data)}")
    return list(data)


def _known_keys(
    spec: Mapping[object, object], known: tuple[str, ...], path: str, table: str | None = None
) -> None:
    for key in spec:
        if key not in known:
            where = f" of table {table!r}" if table else ""
            raise At(path=path).error(
                "unknown_key",
                f"unknown key {key!r}{where}; expected one of: {', '.join(known)}",
            )


def _shape(data: object) -> str:
    if data is None:
        return "nothing (null)"
    shown = repr(data)
    if len(shown) > 60:
        shown = shown[:57] + "..."
    return f"{type(data).__name__} {shown}"
