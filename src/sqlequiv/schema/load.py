"""One entry point for every schema source: ``load_schema``.

It takes what a caller has at hand and picks the loader:

* a ``Schema``: returned unchanged;
* a mapping (a dict loaded from JSON/YAML): ``parse_mapping``;
* a list of objects with a ``db_id`` (Spider's ``tables.json``, already parsed):
  ``read_tables_json`` with ``db_id``;
* a path (``str`` or ``os.PathLike``) to

  - a SQLite database (any file with SQLite's magic bytes): ``read_sqlite_catalog``;
  - a ``.json`` file: Spider's / BIRD's ``tables.json`` when its top level is a list of
    objects with a ``db_id`` (``db_id`` picks the database), else JSON in the mapping format;
  - a ``.yaml`` / ``.yml`` file: YAML in the mapping format;
  - a DuckDB database (``.duckdb``, ``.ddb``, ``.db``, or any file with DuckDB's magic
    bytes): ``read_duckdb_catalog``;
  - any other file: UTF-8 DDL text, read with ``dialect``;

* a ``str`` that is not an existing path but contains ``CREATE``: DDL text itself.

Every failure is a ``SchemaError`` (``file_not_found``, ``parse_error`` with the line and
column of the bad JSON/YAML, ``encoding_error``, ...), never a raw exception. Errors about a
file's content name the file.
"""

from __future__ import annotations

import os
import re
from collections.abc import Hashable, Mapping, Sequence
from pathlib import Path

import yaml

from sqlequiv.errors import SchemaError
from sqlequiv.policy.functions import forbidden_function_in
from sqlequiv.schema.catalog import read_duckdb_catalog
from sqlequiv.schema.ddl import parse_ddl
from sqlequiv.schema.jsontext import MAX_NESTING, load_json_text, nesting
from sqlequiv.schema.mapping import parse_mapping
from sqlequiv.schema.model import Schema
from sqlequiv.schema.spider import is_tables_json, read_tables_json
from sqlequiv.schema.sqlite_file import SQLITE_MAGIC, read_sqlite_catalog

__all__ = [
    "load_schema",
    "parse_ddl",
    "parse_mapping",
    "read_duckdb_catalog",
    "read_sqlite_catalog",
    "read_tables_json",
]

_DUCKDB_SUFFIXES = {".duckdb", ".ddb", ".db"}
_DUCKDB_MAGIC = b"DUCK"  # bytes 8..12 of every DuckDB database file

Source = str | os.PathLike[str] | Schema | Mapping[str, object] | Sequence[object]
_DDL_TEXT = re.compile(r"\bCREATE\s", re.IGNORECASE)


def load_schema(source: Source, dialect: str = "duckdb", *, db_id: str | None = None) -> Schema:
    """Load a schema from DDL text, a file, a DuckDB or SQLite database, a mapping, Spider's
    tables.json, or a ``Schema``.

    Args:
        source: see the module docstring for what each kind of value means.
        dialect: the sqlglot dialect of DDL text (ignored for the other sources, whose
            types and conditions are DuckDB's, or SQLite's for SQLite and tables.json).
        db_id: the database of a tables.json to read (optional when it holds only one);
            ignored for the other sources, which describe one database each.

    Returns:
        The schema.

    Raises:
        SchemaError: the source is missing or unreadable, or its content is not a valid
            schema.

    Example:
        >>> load_schema("CREATE TABLE t (id INT PRIMARY KEY)").table("t").primary_key
        ('id',)
        >>> load_schema({"tables": {"t": {"columns": {"id": "INT"}}}}).table_names
        ('t',)
    """
    return _screened(_load(source, dialect, db_id))


def _screened(schema: Schema) -> Schema:
    """``schema``, once no CHECK constraint calls a function the query guard refuses.

    CHECK constraints are executed (the constraint checks run them as SQL), so they may
    call nothing a query could not: no file readers, no ``getenv``, no ``current_setting``.
    """
    for table in schema:
        for check in table.checks:
            name = forbidden_function_in(check)
            if name is not None:
                raise SchemaError(
                    "forbidden_function",
                    f"table {table.name}: CHECK ({check.sql('duckdb')}) calls {name}, which "
                    "can read files, URLs, settings or the environment",
                )
    return schema


def _load(source: Source, dialect: str, db_id: str | None) -> Schema:
    if isinstance(source, Schema):
        return source
    if isinstance(source, Mapping):
        return parse_mapping(source)
    if isinstance(source, list | tuple) and is_tables_json(list(source)):
        return read_tables_json(list(source), db_id)
    if isinstance(source, str) and not source.strip():
        # Path("") is the current directory: say what is wrong, not that "." is no file.
        raise SchemaError(
            "empty_schema", "the schema is empty: pass DDL text, a path, a mapping or a Schema"
        )
    if isinstance(source, str) and not _is_file_path(source):
        if _DDL_TEXT.search(source):
            return parse_ddl(source, dialect)
        shown = source if len(source) <= 80 else source[:77] + "..."
        raise SchemaError(
            "file_not_found",
            f"no such file: {shown!r} (and it is not DDL text: it contains no CREATE)",
        )
    if not isinstance(source, str | os.PathLike):
        raise SchemaError(
            "invalid_source",
            f"cannot load a schema from a {type(source).__name__}; pass DDL text, a path, "
            "a mapping or a Schema",
        )
    return _load_file(Path(source), dialect, db_id)


def _is_file_path(text: str) -> bool:
    try:
        return Path(text).exists()
    except (OSError, ValueError):  # too long for a file name, or holds a NUL byte
        return False


def _load_file(path: Path, dialect: str, db_id: str | None) -> Schema:
    if not path.exists():
        raise SchemaError("file_not_found", f"no such file: {path}")
    if not path.is_file():
        raise SchemaError("unreadable_file", f"{path} is not a file")
    try:
        # A database may be gigabytes (BIRD's are): look at its header before reading it all.
        with path.open("rb") as handle:
            header = handle.read(len(SQLITE_MAGIC))
        suffix = path.suffix.lower()
        if header.startswith(SQLITE_MAGIC):
            return read_sqlite_catalog(path)
        if suffix in _DUCKDB_SUFFIXES or header[8:12] == _DUCKDB_MAGIC:
            return read_duckdb_catalog(path)
        data = path.read_bytes()
    except OSError as err:
        raise SchemaError("unreadable_file", f"{path}: {err.strerror or err}") from err
    text = _decode(data, path)
    try:
        if suffix == ".json":
            parsed = load_json_text(text)
            if is_tables_json(parsed):
                assert isinstance(parsed, list)
                return read_tables_json(parsed, db_id, name=str(path))
            return parse_mapping(parsed)
        if suffix in {".yaml", ".yml"}:
            return parse_mapping(load_yaml_text(text))
        return parse_ddl(text, dialect)
    except SchemaError as err:
        if err.message.startswith(f"{path}: "):  # tables.json names its file itself
            raise
        raise SchemaError(err.kind, f"{path}: {err.message}", line=err.line, col=err.col) from err


def _decode(data: bytes, path: Path) -> str:
    try:
        return data.decode("utf-8-sig")  # a byte-order mark is not part of the text
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        col = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
        raise SchemaError(
            "encoding_error",
            f"{path} is not UTF-8 text (byte {data[err.start]:#04x} at offset {err.start})",
            line=line,
            col=col,
        ) from err


#: Most nodes aliases may add to a YAML document beyond its length in characters (without
#: aliases a document has fewer nodes than characters). Aliases are composed once and
#: shared, so PyYAML loads a "billion laughs" bomb quickly; everything after it (validation,
#: ``json.dumps`` of an item's meta into each result) walks the expanded tree: a 752-byte
#: suite of nine aliases to nine aliases ... wrote a 351 MB results line.
MAX_ALIAS_EXPANSION = 1_000_000


def _node_children(node: object) -> list[yaml.Node] | None:
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return None


#: PyYAML's C parser when it was built with libyaml: the same safe loading, and a
#: 50,000-deep document is parsed (and refused) in milliseconds instead of seconds.
_SafeBase: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _StrictLoader(_SafeBase):  # type: ignore[valid-type,misc]
    """``yaml.SafeLoader`` that refuses duplicate keys instead of keeping the last one, and,
    before building any data, documents nested past :data:`MAX_NESTING` (or recursive, an
    alias inside its own anchor) and alias bombs (see :data:`MAX_ALIAS_EXPANSION`)."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._length = len(stream)  # the C parser keeps no buffer to measure

    def get_single_node(self) -> yaml.Node | None:
        node: yaml.Node | None = super().get_single_node()
        if node is not None:
            depth, size, _ = nesting(node, _node_children)
            if depth > MAX_NESTING:
                raise _Refused(
                    "too_deep",
                    f"invalid YAML: nested more than {MAX_NESTING} levels deep "
                    "(or an alias inside its own anchor)",
                )
            budget = self._length + MAX_ALIAS_EXPANSION
            if size > budget:
                raise _Refused(
                    "alias_bomb",
                    f"invalid YAML: its aliases expand it to {size} nodes, more than the "
                    f"{budget} allowed for a document of its length",
                )
        return node

    def construct_mapping(
        self, node: yaml.MappingNode, deep: bool = False
    ) -> dict[Hashable, object]:
        seen: set[object] = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if isinstance(key, Hashable):
                if key in seen:
                    raise yaml.constructor.ConstructorError(
                        "while reading a mapping",
                        node.start_mark,
                        f"found duplicate key {key!r}",
                        key_node.start_mark,
                    )
                seen.add(key)
        mapping: dict[Hashable, object] = super().construct_mapping(node, deep)
        return mapping


class _Refused(Exception):
    """A YAML document :class:`_StrictLoader` refuses to build: ``kind`` and ``message`` of
    the :class:`SchemaError` :func:`load_yaml_text` raises."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message


def load_yaml_text(text: str) -> object:
    """YAML text as plain data (safe loader); duplicate keys, syntax errors, nesting past
    :data:`MAX_NESTING` and alias bombs raise :class:`SchemaError`."""
    try:
        # Safe: _StrictLoader is a SafeLoader, which builds only plain data.
        return yaml.load(text, Loader=_StrictLoader)
    except _Refused as err:
        raise SchemaError(err.kind, err.message) from err
    except RecursionError as err:  # PyYAML's composer recurses once per level
        raise SchemaError(
            "too_deep", f"invalid YAML: nested more than {MAX_NESTING} levels deep"
        ) from err
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        problem = getattr(err, "problem", None) or str(err).splitlines()[0]
        if "maximum nesting depth" in str(problem):  # libyaml's own limit, deeper than ours
            raise SchemaError(
                "too_deep", f"invalid YAML: nested more than {MAX_NESTING} levels deep"
            ) from err
        line = mark.line + 1 if mark is not None else None
        col = mark.column + 1 if mark is not None else None
        raise SchemaError("parse_error", f"invalid YAML: {problem}", line=line, col=col) from err
