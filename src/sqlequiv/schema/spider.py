"""Load a schema from Spider's ``tables.json`` (or BIRD's ``dev_tables.json``).

Both files are a JSON list with one object per database::

    {"db_id": "concert_singer",
     "table_names_original": ["stadium", "singer", ...],
     "column_names_original": [[-1, "*"], [0, "Stadium_ID"], [0, "Location"], ...],
     "column_types": ["text", "number", "text", ...],
     "primary_keys": [1, 8, ...],         # BIRD: an item may be a list, a composite key
     "foreign_keys": [[14, 8], ...]}      # [child column, referenced column]

Columns are ``[table index, name]``; index -1 is the ``*`` entry, which is skipped. Spider
spells a composite primary key as several items of one table, BIRD as a list: both become
one key. A foreign key spans several pairs when, together, they reference the whole primary
key of one table; otherwise each pair is a foreign key of its own.

Types. Spider coarsens each declared SQLite type into a word; it is mapped back to a declared
type (kept as ``Column.declared``, for its SQLite affinity) and so to a DuckDB type
(``model.sqlite_column_type``):

============  ===========  ==========  ==================================================
tables.json   declared     affinity    DuckDB type
============  ===========  ==========  ==================================================
``text``      ``TEXT``     TEXT        ``TEXT``
``number``    ``NUMERIC``  NUMERIC     ``DOUBLE``: Spider's "number" is INT, REAL, NUMERIC
                                       or DECIMAL alike, and a NUMERIC column stores an
                                       integral value as an integer, so doubles give both
``time``      ``DATETIME`` NUMERIC     ``TIMESTAMP`` (Spider's "time" is DATE, DATETIME,
                                       TIMESTAMP or YEAR)
``boolean``   ``BOOLEAN``  NUMERIC     ``BOOLEAN``, stored by SQLite as 0 / 1
``others``    (none)       BLOB        ``TEXT``
============  ===========  ==========  ==================================================

Any other word (BIRD writes ``integer``, ``real``, ``date``, ...) is a SQLite type name
already and is taken as the declared type.

What tables.json cannot say. It has no NOT NULL, UNIQUE or CHECK constraints, so the schema
has none (every column but the primary key's may be NULL), and it lists only primary keys, so
a foreign key to anything else is dropped (a warning says which). When the database file is
at hand it is authoritative: load it (``read_sqlite_catalog``) instead. Foreign keys that
tables.json lists and the file lacks are not added to it: the data need not satisfy them
(Spider's often does not), and a proof that relied on one, such as removing a join to the
parent, would hold for databases the real schema does not describe.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from sqlequiv.errors import SchemaError
from sqlequiv.schema.ddl import At, SchemaDraft
from sqlequiv.schema.jsontext import load_json_text
from sqlequiv.schema.model import Schema, sqlite_column_type, sqlite_declared
from sqlequiv.schema.sqlite_file import is_sqlite_file, read_sqlite_catalog

__all__ = ["COARSE_TYPES", "benchmark_schema", "is_tables_json", "read_tables_json"]

#: The declared SQLite type each of Spider's coarse column types stands for.
COARSE_TYPES = {
    "text": "TEXT",
    "number": "NUMERIC",
    "time": "DATETIME",
    "boolean": "BOOLEAN",
    "others": "",
}

#: Said of every schema read from tables.json.
NO_CONSTRAINTS_WARNING = (
    "tables.json declares no NOT NULL, UNIQUE or CHECK constraints and only coarse types; "
    "the database file, when available, gives the exact schema"
)


def is_tables_json(data: object) -> bool:
    """True if ``data`` (parsed JSON) has the shape of tables.json: a list of objects with
    a ``db_id``."""
    return (
        isinstance(data, list)
        and bool(data)
        and all(isinstance(item, Mapping) and "db_id" in item for item in data)
    )


def read_tables_json(
    source: str | os.PathLike[str] | Sequence[object] | Mapping[str, object],
    db_id: str | None,
    *,
    name: str | None = None,
) -> Schema:
    """The schema of database ``db_id`` in a Spider/BIRD tables.json.

    Args:
        source: the file, its parsed content (a list), or one database's entry.
        db_id: the database to read; may be omitted when the file holds only one.
        name: what error messages call the source (default: the path, or "tables.json").

    Returns:
        Its tables in the file's order, names lower-cased, with a warning that tables.json
        has no NOT NULL / UNIQUE / CHECK constraints and one per foreign key dropped.

    Raises:
        SchemaError: ``file_not_found``, ``parse_error`` (not JSON), ``invalid_tables_json``
            (not that shape), ``missing_db_id``, ``unknown_db_id`` (naming close matches),
            or the DDL loader's errors for inconsistent declarations.

    Example:
        >>> schema = read_tables_json([{
        ...     "db_id": "music", "table_names_original": ["Singer"],
        ...     "column_names_original": [[-1, "*"], [0, "Singer_ID"], [0, "Name"]],
        ...     "column_types": ["text", "number", "text"],
        ...     "primary_keys": [1], "foreign_keys": []}], "music")
        >>> [(c.name, c.declared, c.type_sql) for c in schema.table("singer").columns]
        [('singer_id', 'NUMERIC', 'DOUBLE'), ('name', 'TEXT', 'TEXT')]
    """
    where = name or "tables.json"
    data: object = source
    if isinstance(source, str | os.PathLike):
        where = name or str(source)
        data = _read_json(Path(source))
    if isinstance(data, Mapping):
        data = [data]
    if not is_tables_json(data):
        raise SchemaError(
            "invalid_tables_json",
            f"{where}: expected a list of objects with a 'db_id' (Spider's tables.json)",
        )
    assert isinstance(data, list)
    entry = _entry(data, db_id, where)
    try:
        return _schema(entry)
    except SchemaError as err:
        raise SchemaError(err.kind, f"{where}, {entry['db_id']}: {err.message}") from err


def benchmark_schema(
    db_id: str,
    *,
    database: str | os.PathLike[str] | None = None,
    tables: str | os.PathLike[str] | Sequence[object] | None = None,
) -> Schema:
    """The schema of a Spider/BIRD database: from its SQLite file when there is one (exact
    types and every constraint), else from tables.json.

    Args:
        db_id: the database.
        database: its SQLite file (``database/<db_id>/<db_id>.sqlite``), if available.
        tables: tables.json (a path or the parsed list), used when ``database`` is absent.

    Raises:
        SchemaError: neither source is given, or the one used cannot be read.
    """
    if database is not None and (is_sqlite_file(database) or tables is None):
        return read_sqlite_catalog(database)
    if tables is None:
        raise SchemaError(
            "invalid_source", f"no schema for {db_id!r}: pass its database file or tables.json"
        )
    return read_tables_json(tables, db_id)


def _read_json(path: Path) -> object:
    if not path.is_file():
        raise SchemaError("file_not_found", f"no such file: {path}")
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as err:
        raise SchemaError("unreadable_file", f"{path}: {err}") from err
    try:
        return load_json_text(text)
    except SchemaError as err:
        raise SchemaError(err.kind, f"{path}: {err.message}", line=err.line, col=err.col) from err


def _entry(data: list[object], db_id: str | None, where: str) -> Mapping[str, object]:
    entries = [item for item in data if isinstance(item, Mapping)]
    ids = [str(item["db_id"]) for item in entries]
    if db_id is None:
        if len(entries) == 1:
            return entries[0]
        raise SchemaError(
            "missing_db_id",
            f"{where} describes {len(entries)} databases; name one with db_id "
            f"(--db-id), e.g. {', '.join(ids[:3])}",
        )
    for item, name in zip(entries, ids, strict=True):
        if name == db_id:
            return item
    close = difflib.get_close_matches(db_id, ids, n=3, cutoff=0.6)
    hint = f"; did you mean {' or '.join(map(repr, close))}?" if close else ""
    raise SchemaError(
        "unknown_db_id", f"{where} has no database {db_id!r} ({len(ids)} databases){hint}"
    )


def _schema(entry: Mapping[str, object]) -> Schema:
    table_names = [_text(n, "table_names_original") for n in _list(entry, "table_names_original")]
    raw_columns = _list(entry, "column_names_original")
    types = _list(entry, "column_types")
    if len(types) != len(raw_columns):
        raise SchemaError(
            "invalid_tables_json",
            f"column_types has {len(types)} entries but column_names_original {len(raw_columns)}",
        )
    # columns[i]: (table name, column name) of column index i; None for "*".
    columns: list[tuple[str, str] | None] = []
    draft = SchemaDraft()
    for name in table_names:
        draft.add_table(name, At())  # a name given twice is a duplicate_table error
    for i, (item, coarse) in enumerate(zip(raw_columns, types, strict=True)):
        where = f"column_names_original[{i}]"
        if not isinstance(item, list | tuple) or len(item) != 2 or not isinstance(item[0], int):
            raise SchemaError("invalid_tables_json", f"{where}: expected [table index, name]")
        if item[0] == -1:
            columns.append(None)
            continue
        if not 0 <= item[0] < len(table_names):
            raise SchemaError("invalid_tables_json", f"{where}: no table {item[0]}")
        table, column = table_names[item[0]].lower(), _text(item[1], where)
        word = _text(coarse, f"column_types[{i}]")
        declared = COARSE_TYPES.get(word.lower(), sqlite_declared(word))
        type_ = sqlite_column_type(declared)
        draft.tables[table].add_column(column, type_, At(), declared=declared)
        columns.append((table, column.lower()))

    def column_at(index: object, where: str) -> tuple[str, str]:
        if not isinstance(index, int) or not 0 <= index < len(columns):
            raise SchemaError("invalid_tables_json", f"{where}: no column {index!r}")
        found = columns[index]
        if found is None:
            raise SchemaError("invalid_tables_json", f"{where}: column {index} is '*'")
        return found

    keys: dict[str, list[str]] = {}
    for i, item in enumerate(_list(entry, "primary_keys")):
        for index in item if isinstance(item, list) else [item]:
            table, column = column_at(index, f"primary_keys[{i}]")
            if column not in keys.setdefault(table, []):
                keys[table].append(column)
    for table, key in keys.items():
        draft.tables[table].set_primary_key(key, At())

    warnings = [NO_CONSTRAINTS_WARNING]
    groups: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for i, pair in enumerate(_list(entry, "foreign_keys")):
        if not isinstance(pair, list | tuple) or len(pair) != 2:
            raise SchemaError("invalid_tables_json", f"foreign_keys[{i}]: expected [child, parent]")
        (child, column), (parent, ref) = (column_at(p, f"foreign_keys[{i}]") for p in pair)
        if (child, column) == (parent, ref):
            continue  # a column referencing itself holds whatever it holds
        group = groups.setdefault((child, parent), [])
        if (column, ref) not in group:
            group.append((column, ref))
    for (child, parent), pairs in groups.items():
        key = keys.get(parent, [])
        refs = [ref for _, ref in pairs]
        children = [column for column, _ in pairs]
        if len(pairs) > 1 and sorted(refs) == sorted(key) and len(set(children)) == len(pairs):
            draft.tables[child].add_foreign_key(children, parent, refs, At())
            continue
        for column, ref in pairs:
            if key == [ref]:
                draft.tables[child].add_foreign_key([column], parent, [ref], At())
            else:
                warnings.append(
                    f"foreign key {child}({column}) -> {parent}({ref}) dropped: {parent}({ref}) "
                    f"is not the primary key of {parent!r}, the only key tables.json lists, so "
                    f"generated values of {child}({column}) need not exist in {parent!r}"
                )
    warnings.extend(draft.align_foreign_key_types())
    return replace(draft.build(), warnings=tuple(warnings))


def _list(entry: Mapping[str, object], key: str) -> list[object]:
    value = entry.get(key)
    if not isinstance(value, list):
        raise SchemaError("invalid_tables_json", f"{key}: expected a list")
    return value


def _text(value: object, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise SchemaError("invalid_tables_json", f"{where}: expected a name, got {value!r}")
    return value
