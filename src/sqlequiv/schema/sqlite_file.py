"""Load a schema, and sample rows, from a SQLite database file (Spider, BIRD, ...).

The file is opened strictly read-only (``mode=ro&immutable=1``, ``query_only``): nothing is
ever written to it, not even a lock or a journal. (``immutable`` also means a write-ahead
log beside the file is not read; benchmark databases have none.)

What is read, table by table (``sqlite_*`` internal tables are skipped):

* columns with their declared type text (``PRAGMA table_xinfo``), kept as ``Column.declared``;
  the DuckDB type follows the affinity (``model.sqlite_column_type``); ``NOT NULL``;
* the primary key, in key order; its columns are NOT NULL. (SQLite itself lets a
  non-``INTEGER`` primary key column of a rowid table hold NULL, a historical bug it keeps;
  benchmark data does not rely on it, and a fixture without such NULLs is still a database
  the real schema allows);
* every UNIQUE key: ``UNIQUE`` constraints and ``CREATE UNIQUE INDEX`` alike, as both are
  enforced (``PRAGMA index_list`` / ``index_xinfo``);
* foreign keys (``PRAGMA foreign_key_list``), see below;
* CHECK constraints, cut out of the ``CREATE TABLE`` text and parsed with sqlglot's SQLite
  dialect (a double-quoted name that is no column is a string, as SQLite reads it).

Nothing that restricts the stored values is dropped silently: a CHECK sqlglot cannot parse, a
generated column, a partial or expression unique index, or a key compared with a collation
other than BINARY is refused with ``SchemaError("unsupported_constraint")``, naming the table
(a counterexample breaking such a constraint would be a false fail).

Foreign keys. SQLite accepts a foreign key to a table or column that does not exist, or to
columns that are no key of the parent; it then refuses every row of the child while foreign
keys are enforced, and ignores the declaration while they are not (its default). Spider has
many. Such a constraint cannot be satisfied by any non-empty child table, so it is dropped and
``Schema.warnings`` says so: the counterexample search then builds databases in which those child
values need not exist anywhere. That is a superset of what the declaration describes, the
only sound reading there is (no proof relies on a constraint that is not there). Every other
foreign key is kept, and the columns it links get one DuckDB type (see
``SchemaDraft.align_foreign_key_types``). Views are ignored (listed in a warning), as are
virtual tables. A column's NOCASE or RTRIM collation is kept (the SQLite executor creates
the column with it); any other collation is refused.
"""

from __future__ import annotations

import os
import sqlite3
import urllib.parse
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import sqlglot
from sqlglot import Token, TokenType, exp
from sqlglot.dialects.dialect import Dialect
from sqlglot.errors import SqlglotError

from sqlequiv.errors import SchemaError
from sqlequiv.schema.ddl import At, SchemaDraft, TableDraft
from sqlequiv.schema.model import (
    Schema,
    quote_identifier,
    sqlite_column_type,
    sqlite_declared,
)

__all__ = ["SQLITE_MAGIC", "is_sqlite_file", "read_sqlite_catalog", "read_sqlite_rows"]

#: The first 16 bytes of every SQLite 3 database file.
SQLITE_MAGIC = b"SQLite format 3\x00"


def is_sqlite_file(path: str | os.PathLike[str]) -> bool:
    """True if ``path`` is a file that starts with SQLite's magic bytes."""
    try:
        with open(path, "rb") as handle:
            return handle.read(len(SQLITE_MAGIC)) == SQLITE_MAGIC
    except OSError:
        return False


def read_sqlite_catalog(path: str | os.PathLike[str]) -> Schema:
    """Read the tables and constraints of a SQLite database file.

    Args:
        path: a SQLite 3 database file; it is opened read-only and never modified.

    Returns:
        Its tables in creation order, names lower-cased; ``warnings`` lists what was
        dropped or ignored (foreign keys that cannot hold, views, collations, ...).

    Raises:
        SchemaError: ``file_not_found``; ``unreadable_database`` when the file is not a
            SQLite database or cannot be read; ``unsupported_constraint`` for a constraint
            that cannot be modelled (see the module docstring); ``empty_schema`` when the
            database holds no tables; or the DDL loader's errors (``invalid_check``, ...).
    """
    file = _database_file(path)
    try:
        with _connect(file) as con:
            try:
                tables, warnings = _read_tables(con)
            except sqlite3.Error as err:
                raise SchemaError(
                    "unreadable_database", f"cannot read the schema: {_first_line(err)}"
                ) from err
        draft = SchemaDraft()
        for info in tables:
            _declare_table(draft, info, warnings)
        by_name = {info.name.lower(): info for info in tables}
        for info in tables:
            _declare_foreign_keys(draft.tables[info.name.lower()], info, by_name, warnings)
        warnings.extend(draft.align_foreign_key_types())
        schema = draft.build()
    except SchemaError as err:
        if err.message.startswith(f"{file}: "):  # _connect names the file itself
            raise
        raise SchemaError(err.kind, f"{file}: {err.message}") from err
    return replace(schema, warnings=tuple(warnings))


def read_sqlite_rows(
    path: str | os.PathLike[str], schema: Schema, limit: int = 50
) -> dict[str, list[tuple[Any, ...]]]:
    """Up to ``limit`` rows of each table of ``schema``, as stored in a SQLite file.

    Meant to seed the counterexample search with real values. The rows are the first ones in
    storage order (``ORDER BY rowid``, or by primary key for a ``WITHOUT ROWID`` table), so
    the same file always gives the same rows. Values are SQLite's (``int``, ``float``,
    ``str``, ``bytes`` or ``None``), in the column order of ``schema``; text that is not
    valid UTF-8 is decoded with replacement characters.

    Args:
        path: the SQLite database file (opened read-only).
        schema: the tables and columns to read, typically ``read_sqlite_catalog(path)``.
        limit: the most rows read per table.

    Returns:
        ``{table name: rows}`` for every table of ``schema``.

    Raises:
        ValueError: ``limit`` is negative.
        SchemaError: the file cannot be read, or lacks a table or column of ``schema``.
    """
    if limit < 0:
        raise ValueError(f"limit={limit!r} must not be negative")
    file = _database_file(path)
    rows: dict[str, list[tuple[Any, ...]]] = {}
    with _connect(file) as con:
        con.text_factory = lambda data: data.decode("utf-8", "replace")
        try:
            names = {
                str(name).lower(): str(name)
                for (name,) in con.execute(
                    "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY rowid"
                )
            }
            for table in schema:
                actual = names.get(table.name)
                if actual is None:
                    raise SchemaError("unknown_table", f"{file} has no table {table.name!r}")
                rows[table.name] = _sample(con, actual, table.column_names, limit, file)
        except sqlite3.Error as err:
            raise SchemaError(
                "unreadable_database", f"{file}: cannot read rows: {_first_line(err)}"
            ) from err
    return rows


# --- Opening the file -------------------------------------------------------------------------


def _database_file(path: str | os.PathLike[str]) -> Path:
    file = Path(path)
    if not file.exists():
        raise SchemaError("file_not_found", f"no such file: {file}")
    if not file.is_file():
        raise SchemaError("unreadable_database", f"{file} is not a file")
    if not is_sqlite_file(file):
        raise SchemaError("unreadable_database", f"{file} is not a SQLite database file")
    return file


@contextmanager
def _connect(file: Path) -> Iterator[sqlite3.Connection]:
    # immutable=1: no locks, no journal, no -wal/-shm files; mode=ro refuses writes; the
    # URI path is percent-encoded, so "?" or "#" in a file name stays part of the name.
    uri = f"file:{urllib.parse.quote(str(file.resolve()))}?mode=ro&immutable=1"
    try:
        con = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
    except sqlite3.Error as err:
        raise SchemaError(
            "unreadable_database", f"{file}: cannot open as a SQLite database: {_first_line(err)}"
        ) from err
    try:
        con.execute("PRAGMA query_only = ON")
        # Functions named in the file's own schema (views, triggers) must not run here.
        con.execute("PRAGMA trusted_schema = OFF")
        con.execute("SELECT count(*) FROM sqlite_master").fetchone()  # a corrupt header fails
    except sqlite3.Error as err:
        con.close()
        raise SchemaError(
            "unreadable_database", f"{file}: cannot read as a SQLite database: {_first_line(err)}"
        ) from err
    try:
        yield con
    finally:
        con.close()


def _first_line(err: Exception) -> str:
    text = str(err).strip()
    return text.splitlines()[0] if text else type(err).__name__


# --- Reading the catalog ----------------------------------------------------------------------


@dataclass
class _ForeignKeyInfo:
    columns: list[str]
    ref_table: str
    ref_columns: list[str | None]


@dataclass
class _TableInfo:
    name: str
    sql: str
    columns: list[tuple[str, str, bool]]  # name, declared type, NOT NULL
    primary_key: list[str]
    unique: list[list[str]] = field(default_factory=list)
    foreign_keys: list[_ForeignKeyInfo] = field(default_factory=list)


def _read_tables(con: sqlite3.Connection) -> tuple[list[_TableInfo], list[str]]:
    warnings: list[str] = []
    tables: list[_TableInfo] = []
    views: list[str] = []
    virtual: list[str] = []
    for kind, raw_name, raw_sql in con.execute(
        "SELECT type, name, sql FROM sqlite_master WHERE type IN ('table', 'view') ORDER BY rowid"
    ):
        name, sql = str(raw_name), str(raw_sql or "")
        if name.lower().startswith("sqlite_"):
            continue  # sqlite_sequence, sqlite_stat1, ...: SQLite's own bookkeeping
        if kind == "view":
            views.append(name)
        elif sql.lstrip().upper().startswith("CREATE VIRTUAL"):
            virtual.append(name)
        else:
            tables.append(_read_table(con, name, sql))
    if views:
        warnings.append(f"views are not part of the schema and were ignored: {', '.join(views)}")
    if virtual:
        warnings.append(f"virtual tables were ignored: {', '.join(virtual)}")
    return tables, warnings


def _read_table(con: sqlite3.Connection, name: str, sql: str) -> _TableInfo:
    columns: list[tuple[str, str, bool]] = []
    key_positions: list[tuple[int, str]] = []
    for _, column, declared, notnull, _, pk, hidden in con.execute(
        "SELECT cid, name, type, \"notnull\", dflt_value, pk, hidden "
        "FROM pragma_table_xinfo(?) ORDER BY cid",
        (name,),
    ):
        if hidden in (2, 3):
            raise SchemaError(
                "unsupported_constraint",
                f"table {name.lower()!r}: column {str(column).lower()!r} is a generated column, "
                "which sqlequiv cannot model",
            )
        columns.append((str(column), sqlite_declared(str(declared or "")), bool(notnull)))
        if pk:
            key_positions.append((int(pk), str(column)))
    info = _TableInfo(name, sql, columns, [c for _, c in sorted(key_positions)])
    indexes = con.execute(
        "SELECT seq, name, \"unique\", origin, partial FROM pragma_index_list(?)", (name,)
    ).fetchall()
    # index_list lists the newest index first; declaration order reads better.
    for _, index, unique, origin, partial in sorted(indexes, key=lambda row: -int(row[0])):
        if not unique:
            continue
        key = _unique_key(con, name, str(index), str(origin), bool(partial))
        if key is not None and origin != "pk":
            info.unique.append(key)
    fk_rows = con.execute(
        "SELECT id, seq, \"table\", \"from\", \"to\" FROM pragma_foreign_key_list(?)", (name,)
    ).fetchall()
    by_id: dict[int, _ForeignKeyInfo] = {}
    # Likewise, the foreign key declared last has id 0.
    for fk_id, _, parent, column, ref in sorted(fk_rows, key=lambda r: (-int(r[0]), int(r[1]))):
        fk = by_id.setdefault(int(fk_id), _ForeignKeyInfo([], str(parent), []))
        fk.columns.append(str(column))
        fk.ref_columns.append(None if ref is None else str(ref))
    info.foreign_keys = list(by_id.values())
    return info


def _unique_key(
    con: sqlite3.Connection, table: str, index: str, origin: str, partial: bool
) -> list[str] | None:
    """The columns of a unique index, or None when the rowid makes it trivially unique."""
    what = {"pk": "PRIMARY KEY", "u": "UNIQUE"}.get(origin, f"unique index {index!r}")
    if partial:
        raise SchemaError(
            "unsupported_constraint",
            f"table {table.lower()!r}: {what} is a partial index (WHERE ...), which sqlequiv "
            "cannot model",
        )
    key: list[str] = []
    for cid, column, coll in con.execute(
        "SELECT cid, name, coll FROM pragma_index_xinfo(?) WHERE key ORDER BY seqno", (index,)
    ):
        if cid == -2:
            raise SchemaError(
                "unsupported_constraint",
                f"table {table.lower()!r}: {what} is on an expression, which sqlequiv cannot "
                "model (only plain columns)",
            )
        if cid == -1:
            return None  # the rowid is unique by itself: the key adds nothing
        if str(coll).upper() != "BINARY":
            raise SchemaError(
                "unsupported_constraint",
                f"table {table.lower()!r}: {what} compares {str(column).lower()!r} with "
                f"COLLATE {coll}, and keys can only be modelled with exact (BINARY) equality",
            )
        key.append(str(column))
    return key


# --- Declaring what was read ------------------------------------------------------------------


def _declare_table(draft: SchemaDraft, info: _TableInfo, warnings: list[str]) -> None:
    table = draft.add_table(info.name, At())
    assert table is not None  # add_table only skips with if_not_exists
    collated = _column_collations(info)
    for name, declared, notnull in info.columns:
        table.add_column(
            name,
            sqlite_column_type(declared),
            At(),
            declared=declared,
            collation=collated.get(name.lower()),
        )
        if notnull:
            table.set_nullable(name, False, At())
    if info.primary_key:
        table.set_primary_key(info.primary_key, At())
    for key in info.unique:
        table.add_unique(key, At())
    checks, collations = _checks_and_collations(info, table)
    for check in checks:
        table.add_check(check, At())
    if collations and not collated:
        # A collation changes what = and GROUP BY mean on its column: executing without
        # it could report a difference the real database does not have.
        raise SchemaError(
            "unsupported_constraint",
            f"table {table.name!r}: COLLATE {', '.join(sorted(collations))} could not be "
            f"attributed to its columns in {_short(info.sql)!r}",
        )


def _declare_foreign_keys(
    table: TableDraft, info: _TableInfo, tables: dict[str, _TableInfo], warnings: list[str]
) -> None:
    """Declare the foreign keys of ``info`` that can hold; warn about the others."""
    for fk in info.foreign_keys:
        columns = [c.lower() for c in fk.columns]
        parent = tables.get(fk.ref_table.lower())
        parent_name = fk.ref_table.lower()
        refs: list[str] = []
        reason = None
        if parent is None:
            reason = f"there is no table {parent_name!r}"
        elif any(ref is None for ref in fk.ref_columns):  # REFERENCES parent: its primary key
            refs = [c.lower() for c in parent.primary_key]
            if not refs:
                reason = f"{parent_name!r} has no primary key to reference"
        else:
            refs = [str(ref).lower() for ref in fk.ref_columns]
        if parent is not None and reason is None:
            parent_columns = {c.lower() for c, _, _ in parent.columns}
            keys = [{c.lower() for c in key} for key in [parent.primary_key, *parent.unique]]
            missing = [r for r in refs if r not in parent_columns]
            if missing:
                reason = f"{parent_name!r} has no column {missing[0]!r}"
            elif len(refs) != len(columns):
                reason = f"it names {len(columns)} column(s) but references {len(refs)}"
            elif set(refs) not in keys:
                reason = (
                    f"{parent_name}({', '.join(refs)}) is neither the primary key nor a UNIQUE "
                    f"key of {parent_name!r}"
                )
        if reason is None:
            table.add_foreign_key(columns, fk.ref_table, refs, At())
            continue
        named = refs or [str(ref).lower() for ref in fk.ref_columns if ref is not None]
        target = f"{parent_name}({', '.join(named)})" if named else parent_name
        warnings.append(
            f"foreign key {table.name}({', '.join(columns)}) -> {target} dropped: {reason}. "
            "No row with a value in it could satisfy it (SQLite enforces it only with PRAGMA "
            "foreign_keys = ON, and then refuses such rows), so generated values of "
            f"{table.name}({', '.join(columns)}) need not exist in another table"
        )


#: The collations SQLite has built in besides BINARY (a custom one cannot be reproduced).
_COLLATIONS = frozenset({"NOCASE", "RTRIM"})


def _column_collations(info: _TableInfo) -> dict[str, str]:
    """Each column's non-BINARY collation, from the ``CREATE TABLE`` text.

    Raises:
        SchemaError: a collation SQLite does not have built in (the database's own
            code defined it, and it cannot be reproduced).
    """
    try:
        tree = sqlglot.parse_one(info.sql, read="sqlite")
    except SqlglotError:
        return {}
    found: dict[str, str] = {}
    for column in tree.find_all(exp.ColumnDef):
        for constraint in column.constraints:
            if isinstance(constraint.kind, exp.CollateColumnConstraint):
                name = constraint.kind.this.name.upper()
                if name == "BINARY":
                    continue
                if name not in _COLLATIONS:
                    raise SchemaError(
                        "unsupported_constraint",
                        f"table {info.name.lower()!r}: column {column.name.lower()!r} uses "
                        f"COLLATE {name}, which is not one of SQLite's built-in collations",
                    )
                found[column.name.lower()] = name
    return found


def _checks_and_collations(
    info: _TableInfo, table: TableDraft
) -> tuple[list[exp.Expression], set[str]]:
    """The CHECK conditions of a ``CREATE TABLE`` statement, and its non-BINARY collations."""
    shown = f"table {table.name!r}"
    try:
        tokens = Dialect.get_or_raise("sqlite").tokenize(info.sql)
    except SqlglotError as err:
        if "CHECK" in info.sql.upper():
            raise SchemaError(
                "unsupported_constraint",
                f"{shown}: cannot read its CHECK constraints from {_short(info.sql)!r}: "
                f"{_first_line(err)}",
            ) from err
        return [], set()
    checks: list[exp.Expression] = []
    collations: set[str] = set()
    for i, token in enumerate(tokens):
        if token.token_type == TokenType.COLLATE and i + 1 < len(tokens):
            if tokens[i + 1].text.upper() != "BINARY":
                collations.add(tokens[i + 1].text.upper())
        elif token.token_type == TokenType.VAR and token.text.upper() == "CHECK":
            text = _parenthesized(tokens, i + 1, info.sql)
            checks.append(_check(text, shown, table))
    return checks, collations


def _parenthesized(tokens: Sequence[Token], start: int, sql: str) -> str:
    """The text between the parenthesis at ``tokens[start]`` and the one closing it."""
    if start >= len(tokens) or tokens[start].token_type != TokenType.L_PAREN:
        return ""
    depth = 0
    for token in tokens[start:]:
        depth += {TokenType.L_PAREN: 1, TokenType.R_PAREN: -1}.get(token.token_type, 0)
        if depth == 0:
            return sql[tokens[start].end + 1 : token.start]
    return ""


def _check(text: str, shown: str, table: TableDraft) -> exp.Expression:
    try:
        condition = sqlglot.parse_one(text, read="sqlite") if text.strip() else None
    except (SqlglotError, ValueError) as err:
        raise SchemaError(
            "unsupported_constraint",
            f"{shown}: cannot parse CHECK ({_short(text)}): {_first_line(err)}",
        ) from err
    if not isinstance(condition, exp.Expression) or isinstance(condition, exp.Query):
        raise SchemaError("unsupported_constraint", f"{shown}: cannot read CHECK ({_short(text)})")
    # SQLite reads a double-quoted name that is no column as a string ("M" in gender IN
    # ("M", "F")); sqlglot reads it as a column.
    for column in list(condition.find_all(exp.Column)):
        if (
            isinstance(column.this, exp.Identifier)
            and column.this.quoted
            and not column.table
            and column.name.lower() not in table.columns
        ):
            string = exp.Literal.string(column.name)
            if column is condition:
                condition = string
            else:
                column.replace(string)
    return condition


def _short(text: str) -> str:
    return text if len(text) <= 200 else text[:197] + "..."


# --- Reading rows -----------------------------------------------------------------------------


def _sample(
    con: sqlite3.Connection, table: str, columns: Sequence[str], limit: int, file: Path
) -> list[tuple[Any, ...]]:
    actual = {
        str(name).lower(): str(name)
        for (name,) in con.execute("SELECT name FROM pragma_table_xinfo(?)", (table,))
    }
    selected = []
    for column in columns:
        if column not in actual:
            raise SchemaError(
                "unknown_column", f"{file}: table {table!r} has no column {column!r}"
            )
        selected.append(quote_identifier(actual[column]))
    query = f"SELECT {', '.join(selected)} FROM {quote_identifier(table)} ORDER BY {{}} LIMIT ?"
    return con.execute(query.format(_storage_order(con, table, actual)), (limit,)).fetchall()


def _storage_order(con: sqlite3.Connection, table: str, columns: dict[str, str]) -> str:
    """``rowid`` (by a name no column shadows), or the primary key of a WITHOUT ROWID table."""
    for alias in ("rowid", "_rowid_", "oid"):
        if alias not in columns:
            try:
                con.execute(f"SELECT {alias} FROM {quote_identifier(table)} LIMIT 0")
            except sqlite3.OperationalError:
                break  # WITHOUT ROWID
            return alias
    keys = [
        str(name)
        for _, name in sorted(
            (int(pk), name)
            for name, pk in con.execute("SELECT name, pk FROM pragma_table_xinfo(?)", (table,))
            if pk
        )
    ]
    return ", ".join(map(quote_identifier, keys or list(columns.values())))
