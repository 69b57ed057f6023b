"""Load a schema from a script of SQL DDL in any sqlglot dialect.

Statements are read in order, as a database would run them:

* ``CREATE TABLE`` (also ``TEMP``, ``IF NOT EXISTS``, ``OR REPLACE``) defines a table: column
  types, ``NOT NULL``/``NULL``, ``PRIMARY KEY``, ``UNIQUE``, ``REFERENCES``/``FOREIGN KEY``
  and ``CHECK``, column- or table-level, named with ``CONSTRAINT name`` or not.
* ``ALTER TABLE ... ADD [CONSTRAINT]``, ``ADD COLUMN`` and ``ALTER COLUMN ... SET/DROP NOT
  NULL`` amend a table (``pg_dump`` writes keys this way).
* ``CREATE UNIQUE INDEX ix ON t (a, b)`` declares the key ``(a, b)``: the database enforces it
  like a ``UNIQUE`` constraint. A non-unique index is ignored.
* ``DROP TABLE`` forgets a table defined earlier in the script.
* Statements that do not change which rows a table may hold are ignored: ``CREATE INDEX``,
  ``CREATE SCHEMA``/``DATABASE``/``SEQUENCE``, ``SET``, ``PRAGMA``, ``USE``, ``BEGIN``,
  ``COMMIT``, ``COMMENT ON`` and comments.
* Anything else (``INSERT``, ``SELECT``, ``CREATE VIEW``, ``CREATE TYPE``, ``CREATE TABLE ...
  AS SELECT``, ...) is refused with ``SchemaError("unsupported_statement")``.

Column options that do not restrict the stored values are ignored (``DEFAULT``,
``AUTO_INCREMENT``, identity columns, ``COMMENT``, ``COLLATE`` outside DuckDB and SQLite,
character sets, storage and table options such as ``ENGINE=`` or SQLite's ``WITHOUT ROWID``);
a DuckDB column under a collation other than the binary one is refused, since it changes
what ``=`` means. Options that do restrict
them but that the schema model cannot express are refused with
``SchemaError("unsupported_constraint")`` (generated columns, ``EXCLUDE``, expression or
partial unique indexes, ``UNIQUE NULLS NOT DISTINCT``): dropping a constraint silently would
let the counterexample search build a database the real schema forbids, and report a false
counterexample on it.

Names are case-insensitive: every table and column name, quoted or not, is lower-cased, and a
schema or catalog qualifier (``public.t``) is dropped. Types are kept as the sqlglot node of
the source dialect, except where DuckDB (which runs every check) has no such type: ``SERIAL``
becomes ``INT NOT NULL``, ``MEDIUMINT`` becomes ``INT``, MySQL display widths (``INT(11)``)
are dropped, and so on (see ``_TYPE_REPLACEMENTS``); a type DuckDB cannot hold at all is
refused with ``unsupported_type``.

SQLite is the exception: there a declared type is any text (``number``, ``int(11)``, or none
at all, as in ``CREATE TABLE t (a)``) and only selects a type affinity. With dialect
``sqlite`` each column keeps the type text as written (``Column.declared``) and gets the
DuckDB type of its affinity (``model.sqlite_column_type``: ``BIGINT``, ``DOUBLE``, ``TEXT``,
...), and the columns a foreign key links get one type, the referenced column's (a warning
in ``Schema.warnings`` says so).

The declarations are validated as a whole once the script has been read, so a foreign key may
name a table created later in the script.
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import os
import re
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

import duckdb
from sqlglot import Token, TokenType, exp
from sqlglot.dialects.dialect import Dialect
from sqlglot.dialects.sqlite import SQLite
from sqlglot.errors import ParseError, SqlglotError, TokenError

from sqlequiv.errors import SchemaError
from sqlequiv.policy.parse_cost import parse_cost
from sqlequiv.schema.model import (
    Column,
    ForeignKey,
    Schema,
    Table,
    quote_identifier,
    sqlite_column_type,
    sqlite_declared,
)

__all__ = ["parse_ddl"]


def parse_ddl(text: str, dialect: str = "duckdb") -> Schema:
    """Read the tables a DDL script defines.

    Args:
        text: one or more SQL statements separated by ``;``.
        dialect: the sqlglot dialect to read ``text`` with.

    Returns:
        The tables, in the order the script creates them.

    Raises:
        SchemaError: the script does not parse, contains a statement other than table DDL,
            or declares something inconsistent (a duplicate name, a key or a foreign key
            naming an unknown column, ...). The error carries the line and column of the
            offending name where sqlglot knows it.

    Example:
        >>> schema = parse_ddl('''
        ...     CREATE TABLE dept (id INT PRIMARY KEY, name VARCHAR UNIQUE);
        ...     CREATE TABLE emp (id INT PRIMARY KEY, dept_id INT REFERENCES dept);
        ... ''')
        >>> schema.table("emp").foreign_keys
        (ForeignKey(columns=('dept_id',), ref_table='dept', ref_columns=('id',)),)
        >>> schema.table("dept").unique, schema.table("dept").column("id").nullable
        ((('name',),), False)
    """
    draft = SchemaDraft()
    for statement, tokens in _statements(text, dialect):
        _apply_statement(statement, tokens, draft, dialect, text)
    if not _is_sqlite(dialect):
        return draft.build()
    warnings = draft.align_foreign_key_types()
    return dataclasses.replace(draft.build(), warnings=tuple(warnings))


def _is_sqlite(dialect: str) -> bool:
    try:
        return isinstance(Dialect.get_or_raise(dialect), SQLite)
    except ValueError:
        return False


# --- Where things are, for error messages ---------------------------------------------------


@dataclass(frozen=True)
class At:
    """Where a schema item was declared: a line and column of DDL text, or a mapping path."""

    line: int | None = None
    col: int | None = None
    path: str | None = None

    def error(self, kind: str, message: str) -> SchemaError:
        """A ``SchemaError`` located here."""
        if self.path:
            message = f"{self.path}: {message}"
        return SchemaError(kind, message, line=self.line, col=self.col)


def _at(node: exp.Expr | None) -> At:
    # Only identifiers and literals carry a position; the leftmost one is where the node
    # starts in the text (a column definition's name, a reference's table, ...).
    best: tuple[int, int] | None = None
    for sub in node.walk() if node is not None else ():
        meta = sub.meta
        if isinstance(meta.get("line"), int) and isinstance(meta.get("col"), int):
            here = (meta["line"], _first_col(meta["col"], meta.get("start"), meta.get("end")))
            best = here if best is None else min(best, here)
    return At(*best) if best is not None else At()


def _first_col(last_col: int, start: object, end: object) -> int:
    # sqlglot positions name a token's last character; a reader looks for its first.
    if isinstance(start, int) and isinstance(end, int) and 0 <= end - start < last_col:
        return last_col - (end - start)
    return last_col


def _locate(node: exp.Expr | None, fallback: At) -> At:
    """``node``'s position, unless ``fallback`` is a mapping path (positions there would be
    inside a one-line string of the mapping, which means nothing to the reader)."""
    if fallback.path is not None:
        return fallback
    here = _at(node)
    return here if here.line is not None else fallback


def _token_at(token: Token) -> At:
    return At(token.line, _first_col(token.col, token.start, token.end))


# --- The mutable draft both loaders fill in -------------------------------------------------


@dataclass
class _ColumnDraft:
    name: str
    type: exp.DataType
    at: At
    nullable: bool | None = None  # None: not declared, so nullable unless in the primary key
    declared: str | None = None  # SQLite's declared type text
    collation: str | None = None  # SQLite's NOCASE or RTRIM


@dataclass
class _ForeignKeyDraft:
    columns: tuple[str, ...]
    ref_table: str
    ref_columns: tuple[str, ...] | None  # None: the referenced table's primary key
    at: At


@dataclass
class TableDraft:
    """A table being declared; ``SchemaDraft.build`` validates it and freezes it."""

    name: str
    at: At
    columns: dict[str, _ColumnDraft] = field(default_factory=dict)
    spelled: str | None = None  # the name as written, when not lower-case
    primary_key: tuple[str, ...] | None = None
    primary_key_at: At = field(default_factory=At)
    unique: list[tuple[tuple[str, ...], At]] = field(default_factory=list)
    foreign_keys: list[_ForeignKeyDraft] = field(default_factory=list)
    checks: list[tuple[exp.Expression, At]] = field(default_factory=list)

    def add_column(
        self,
        name: str,
        type_: exp.DataType,
        at: At,
        type_at: At | None = None,
        *,
        declared: str | None = None,
        collation: str | None = None,
    ) -> None:
        """Declare a column; types DuckDB lacks are replaced (their implied rules added).

        ``declared`` is the type text of a SQLite column, kept for its affinity;
        ``collation`` its non-default collation.
        """
        name = name.lower()
        if name in self.columns:
            raise at.error(
                "duplicate_column", f"column {name!r} of table {self.name!r} is declared twice"
            )
        depth = type_nesting(type_)
        if depth > MAX_TYPE_NESTING:
            # Checked before anything renders the type: sqlglot's generator recurses once
            # per level, so INT[] nested 200 deep ends in a RecursionError.
            raise (type_at or at).error(
                "unsupported_type",
                f"column {name!r} of table {self.name!r}: its type nests {depth} levels of "
                f"ARRAY/LIST/STRUCT/MAP, more than the {MAX_TYPE_NESTING} supported",
            )
        duck, not_null, non_negative = duckdb_type(type_, type_at or at)
        self.columns[name] = _ColumnDraft(
            name, duck, at, False if not_null else None, declared=declared, collation=collation
        )
        if non_negative:
            self.checks.append(
                (exp.GTE(this=exp.column(name), expression=exp.Literal.number(0)), at)
            )

    def set_nullable(self, column: str, nullable: bool, at: At) -> None:
        """Record an explicit ``NULL`` / ``NOT NULL``; both on one column is an error."""
        col = self.column(column, at, "NOT NULL")
        if col.nullable is not None and col.nullable != nullable:
            raise at.error(
                "conflicting_constraints",
                f"column {col.name!r} of table {self.name!r} is declared both NULL and NOT NULL",
            )
        col.nullable = nullable

    def set_primary_key(self, columns: Sequence[str], at: At) -> None:
        """Declare the primary key; a table has at most one."""
        key = _key(columns, at, "PRIMARY KEY")
        if self.primary_key is not None:
            raise at.error(
                "duplicate_primary_key",
                f"table {self.name!r} declares a second primary key ({', '.join(key)}); "
                f"it already has ({', '.join(self.primary_key)})",
            )
        self.primary_key, self.primary_key_at = key, at

    def add_unique(self, columns: Sequence[str], at: At) -> None:
        """Declare a UNIQUE key."""
        self.unique.append((_key(columns, at, "UNIQUE"), at))

    def add_foreign_key(
        self, columns: Sequence[str], ref_table: str, ref_columns: Sequence[str] | None, at: At
    ) -> None:
        """Declare a foreign key; ``ref_columns=None`` means ``ref_table``'s primary key."""
        cols = _key(columns, at, "FOREIGN KEY")
        refs = None if ref_columns is None else _key(ref_columns, at, "REFERENCES")
        self.foreign_keys.append(_ForeignKeyDraft(cols, ref_table.lower(), refs, at))

    def add_check(self, condition: exp.Expression, at: At) -> None:
        """Declare a CHECK condition over this table's columns."""
        if condition.find(exp.Query) is not None:
            raise at.error(
                "unsupported_constraint",
                f"CHECK with a subquery on table {self.name!r} is not supported: {condition.sql()}",
            )
        self.checks.append((condition, at))

    def column(self, name: str, at: At, what: str) -> _ColumnDraft:
        """The column ``what`` (a constraint) names; ``unknown_column`` if there is none."""
        col = self.columns.get(name.lower())
        if col is None:
            raise at.error(
                "unknown_column",
                f"{what} names unknown column {name.lower()!r} of table {self.name!r}",
            )
        return col

    def build(self) -> Table:
        """Validate this table on its own (foreign keys are the schema's job) and freeze it."""
        if not self.columns:
            raise self.at.error("empty_table", f"table {self.name!r} has no columns")
        primary_key = self.primary_key or ()
        for name in primary_key:
            # A primary key column is NOT NULL whatever it was declared as (MySQL's rule;
            # PostgreSQL would refuse an explicit NULL, which is no different for the data).
            self.column(name, self.primary_key_at, "PRIMARY KEY").nullable = False
        unique: list[tuple[str, ...]] = []
        seen = {frozenset(primary_key)} if primary_key else set()
        for key, at in self.unique:
            for name in key:
                self.column(name, at, "UNIQUE")
            # Key order does not matter to uniqueness; keep the first spelling.
            if frozenset(key) not in seen:
                seen.add(frozenset(key))
                unique.append(key)
        for fk in self.foreign_keys:
            for name in fk.columns:
                self.column(name, fk.at, "FOREIGN KEY")
        checks = tuple(self._bare_columns(cond, at) for cond, at in self.checks)
        return Table(
            name=self.name,
            spelled=self.spelled,
            columns=tuple(
                Column(
                    c.name,
                    c.type,
                    nullable=c.nullable is not False,
                    declared=c.declared,
                    collation=c.collation,
                )
                for c in self.columns.values()
            ),
            primary_key=primary_key,
            unique=tuple(unique),
            checks=checks,
        )

    def _bare_columns(self, condition: exp.Expression, at: At) -> exp.Expression:
        """``condition`` with every column reference unqualified, lower-cased and known."""
        condition = condition.copy()
        # DuckDB's catalog wraps every CHECK in parentheses; unwrapping them makes a check
        # read back from a database compare equal to the one that was written.
        while isinstance(condition, exp.Paren):
            condition = condition.this
        for ref in list(condition.find_all(exp.Column)):
            where = _locate(ref, at)
            if ref.args.get("db") or (ref.table and ref.table.lower() != self.name):
                raise where.error(
                    "unknown_column",
                    f"CHECK on table {self.name!r} refers to {ref.sql()!r}, "
                    "which is not one of its columns",
                )
            name = ref.name.lower()
            self.column(name, where, "CHECK")
            bare = exp.column(name)
            if ref is condition:
                condition = bare
            else:
                ref.replace(bare)
        return condition


@dataclass
class SchemaDraft:
    """The tables declared so far, in declaration order."""

    tables: dict[str, TableDraft] = field(default_factory=dict)

    def add_table(
        self, name: str, at: At, *, replace: bool = False, if_not_exists: bool = False
    ) -> TableDraft | None:
        """Start a table; ``None`` when ``IF NOT EXISTS`` skips an existing one."""
        written, name = name, name.lower()
        if name in self.tables and not replace:
            if if_not_exists:
                return None
            raise at.error("duplicate_table", f"table {name!r} is declared twice")
        self.tables.pop(name, None)
        self.tables[name] = TableDraft(name, at, spelled=written if written != name else None)
        return self.tables[name]

    def drop_table(self, name: str) -> None:
        self.tables.pop(name.lower(), None)

    def existing(self, name: str, at: At) -> TableDraft:
        """The table an ``ALTER TABLE`` or ``CREATE INDEX`` names."""
        table = self.tables.get(name.lower())
        if table is None:
            raise at.error(
                "unknown_table", f"table {name.lower()!r} is not declared before this statement"
            )
        return table

    def align_foreign_key_types(self) -> list[str]:
        """Give the columns that foreign keys link one type, and say which ones changed.

        A foreign key joins equal values, and DuckDB (like the counterexample search, which draws
        linked columns from one pool of values) wants both sides of the same type. SQLite
        does not: a Spider column declared ``int`` may reference one declared ``number``
        (``BIGINT`` and ``DOUBLE`` here) or even ``text``. Each group of linked columns takes
        the type of the first column in it (in declaration order) that is referenced and
        references nothing; a column's declared type, and so its SQLite affinity, is kept.
        Foreign keys that will not resolve are left for ``build`` (or the caller) to judge.

        Returns:
            One warning per column whose type changed.
        """
        parent_of: dict[tuple[str, str], tuple[str, str]] = {}

        def find(ref: tuple[str, str]) -> tuple[str, str]:
            while parent_of.setdefault(ref, ref) != ref:
                ref = parent_of[ref]
            return ref

        children: set[tuple[str, str]] = set()
        parents: set[tuple[str, str]] = set()
        for table in self.tables.values():
            for fk in table.foreign_keys:
                parent = self.tables.get(fk.ref_table)
                if parent is None:
                    continue
                refs = fk.ref_columns if fk.ref_columns is not None else parent.primary_key
                if refs is None or len(refs) != len(fk.columns):
                    continue
                for name, ref_name in zip(fk.columns, refs, strict=True):
                    child, target = (table.name, name), (parent.name, ref_name)
                    if name not in table.columns or ref_name not in parent.columns:
                        continue
                    if child != target:
                        children.add(child)
                        parents.add(target)
                        parent_of[find(child)] = find(target)
        groups: dict[tuple[str, str], list[tuple[str, str]]] = {}
        for member in [(t.name, c) for t in self.tables.values() for c in t.columns]:
            if member in parent_of:
                groups.setdefault(find(member), []).append(member)
        warnings = []
        for members in groups.values():
            roots = [m for m in members if m in parents and m not in children] or members
            source = self.tables[roots[0][0]].columns[roots[0][1]]
            wanted = source.type.sql("duckdb")
            for table_name, column_name in members:
                column = self.tables[table_name].columns[column_name]
                if column.type.sql("duckdb") != wanted:
                    warnings.append(
                        f"column {table_name}.{column_name} is generated as {wanted}, the type "
                        f"of {roots[0][0]}.{roots[0][1]} which a foreign key links it to, not "
                        f"as {column.type.sql('duckdb')}"
                    )
                    column.type = source.type.copy()
        return warnings

    def build(self) -> Schema:
        """Validate every declaration and return the frozen schema."""
        if not self.tables:
            raise SchemaError("empty_schema", "the schema declares no tables")
        # Foreign keys are resolved last: they may name a table declared further down.
        tables = {name: draft.build() for name, draft in self.tables.items()}
        for name, draft in self.tables.items():
            _check_on_duckdb(draft, tables[name])
        result = []
        for name, draft in self.tables.items():
            fks: list[ForeignKey] = []
            for fk in draft.foreign_keys:
                resolved = self._resolve(draft, fk, tables)
                if resolved not in fks:  # e.g. both REFERENCES and FOREIGN KEY on one column
                    fks.append(resolved)
            result.append(dataclasses.replace(tables[name], foreign_keys=tuple(fks)))
        return Schema(tuple(result))

    @staticmethod
    def _resolve(draft: TableDraft, fk: _ForeignKeyDraft, tables: dict[str, Table]) -> ForeignKey:
        where = f"foreign key {draft.name}({', '.join(fk.columns)})"
        parent = tables.get(fk.ref_table)
        if parent is None:
            raise fk.at.error(
                "unknown_reference", f"{where} references unknown table {fk.ref_table!r}"
            )
        ref_columns = fk.ref_columns
        if ref_columns is None:
            if not parent.primary_key:
                raise fk.at.error(
                    "unknown_reference",
                    f"{where} references table {parent.name!r} without naming columns, "
                    "but that table has no primary key",
                )
            ref_columns = parent.primary_key
        missing = [c for c in ref_columns if c not in parent.column_names]
        if missing:
            raise fk.at.error(
                "unknown_reference",
                f"{where} references unknown column {missing[0]!r} of table {parent.name!r}",
            )
        if len(ref_columns) != len(fk.columns):
            raise fk.at.error(
                "foreign_key_mismatch",
                f"{where} has {len(fk.columns)} column(s) but references "
                f"{len(ref_columns)}: {parent.name}({', '.join(ref_columns)})",
            )
        # The referenced columns must be a key of the parent (standard SQL, PostgreSQL and
        # DuckDB all insist). DuckDB also wants them in the key's own order, so the pairs
        # are reordered to it: the constraint is the same, and Schema.ddl() stays valid.
        pairs = dict(zip(ref_columns, fk.columns, strict=True))
        for key in parent.keys:
            if set(key) == set(ref_columns):
                return ForeignKey(tuple(pairs[c] for c in key), parent.name, key)
        raise fk.at.error(
            "foreign_key_not_key",
            f"{where} references {parent.name}({', '.join(ref_columns)}), which is neither "
            f"the primary key nor a UNIQUE key of {parent.name!r}",
        )


def _key(columns: Sequence[str], at: At, what: str) -> tuple[str, ...]:
    key = tuple(c.lower() for c in columns)
    if not key:
        raise at.error("invalid_key", f"{what} names no columns")
    for i, name in enumerate(key):
        if name in key[:i]:
            raise at.error("duplicate_column", f"{what} names column {name!r} twice")
    return key


# --- Types ----------------------------------------------------------------------------------

_T = exp.DType

# Source-dialect types DuckDB does not have, and the DuckDB type that holds the same values.
_TYPE_REPLACEMENTS: dict[exp.DType, exp.DType] = {
    _T.SERIAL: _T.INT,
    _T.SMALLSERIAL: _T.SMALLINT,
    _T.BIGSERIAL: _T.BIGINT,
    _T.MEDIUMINT: _T.INT,
    _T.UMEDIUMINT: _T.UINT,
    _T.YEAR: _T.SMALLINT,
    _T.SET: _T.VARCHAR,  # MySQL SET values are comma-separated strings
    _T.NAME: _T.VARCHAR,
    _T.UDECIMAL: _T.DECIMAL,  # "DECIMAL UNSIGNED": a CHECK (col >= 0) is added
    _T.UDOUBLE: _T.DOUBLE,
}
_SERIAL_TYPES = {_T.SERIAL, _T.SMALLSERIAL, _T.BIGSERIAL}
_UNSIGNED_TYPES = {_T.UDECIMAL, _T.UDOUBLE}
# Integer and TIME parameters are a display width / precision DuckDB refuses to take.
_DROP_PARAMS = (exp.DataType.INTEGER_TYPES - {_T.BIT}) | {_T.TIME}
# sqlglot types with no DuckDB counterpart (each one tried against DuckDB 2.0).
_NO_DUCKDB_TYPE = {
    _T.AGGREGATEFUNCTION, _T.SIMPLEAGGREGATEFUNCTION, _T.CHARACTER_SET, _T.DATE32,
    _T.DATEMULTIRANGE, _T.DATERANGE, _T.DATETIME64, _T.DECIMAL32, _T.DECIMAL64,
    _T.DECIMAL128, _T.DECIMAL256, _T.DYNAMIC, _T.ENUM8, _T.ENUM16, _T.FILE,
    _T.FIXEDSTRING, _T.GEOGRAPHY, _T.GEOGRAPHYPOINT, _T.POINT, _T.RING, _T.LINESTRING,
    _T.MULTILINESTRING, _T.POLYGON, _T.MULTIPOLYGON, _T.HLLSKETCH, _T.HSTORE, _T.IMAGE,
    _T.INET, _T.INT256, _T.INT4MULTIRANGE, _T.INT4RANGE, _T.INT8MULTIRANGE, _T.INT8RANGE,
    _T.IPADDRESS, _T.IPPREFIX, _T.IPV4, _T.IPV6, _T.LOWCARDINALITY, _T.MONEY, _T.NESTED,
    _T.NOTHING, _T.NULL, _T.NUMMULTIRANGE, _T.NUMRANGE, _T.OBJECT, _T.RANGE, _T.REF,
    _T.SMALLMONEY, _T.SUPER, _T.TSMULTIRANGE, _T.TSRANGE, _T.TSTZMULTIRANGE, _T.TSTZRANGE,
    _T.UINT256, _T.UNKNOWN, _T.VECTOR, _T.XML, _T.TDIGEST,
}  # fmt: skip
# Types that mean nothing without their parameters (an ENUM of no values, ...).
_NEED_PARAMS = {_T.ARRAY, _T.ENUM, _T.LIST, _T.MAP, _T.UNION, _T.STRUCT}
_MAX_DECIMAL_PRECISION = 38
#: Most levels of types inside types (``INT[][]`` is 2) a column may have. No real schema
#: comes near it; deeper ones only serve to exhaust the recursion of whatever renders them.
MAX_TYPE_NESTING = 8


def type_nesting(type_: exp.DataType) -> int:
    """How many container types (ARRAY, LIST, STRUCT, MAP, ...) enclose ``type_``'s innermost
    one, counted without recursion (a hostile type may be nested thousands deep).

    Example:
        >>> type_nesting(exp.DataType.build("INT[][]", dialect="duckdb"))
        2
        >>> type_nesting(exp.DataType.build("INT"))
        0
    """
    deepest = 0
    stack: list[tuple[exp.Expr, int]] = [(type_, 0)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, exp.DataType):
            depth += 1
            deepest = max(deepest, depth)
        for child in node.iter_expressions():
            stack.append((child, depth))
    return deepest - 1


def duckdb_type(type_: exp.DataType, at: At) -> tuple[exp.DataType, bool, bool]:
    """``type_`` made acceptable to DuckDB.

    Returns:
        The type, whether it implies ``NOT NULL`` (``SERIAL``) and whether it implies
        ``CHECK (col >= 0)`` (unsigned decimals, which DuckDB lacks).

    Raises:
        SchemaError: ``unknown_type`` for a user-defined type, ``unsupported_type`` for a
            type DuckDB cannot hold.

    Example:
        >>> t, not_null, _ = duckdb_type(exp.DataType.build("INT(11)", dialect="mysql"), At())
        >>> t.sql("duckdb"), not_null
        ('INT', False)
    """
    not_null = non_negative = False
    for node in type_.find_all(exp.DataType):
        kind = node.this
        if kind == _T.USERDEFINED:
            raise at.error(
                "unknown_type",
                f"unknown type {node.sql()!r} (user-defined types are not supported)",
            )
        if kind in _NO_DUCKDB_TYPE:
            raise at.error("unsupported_type", f"type {node.sql()!r} has no DuckDB equivalent")
        if kind in _NEED_PARAMS and not node.expressions:
            raise at.error("unsupported_type", f"type {node.sql()!r} needs parameters")
        if kind == _T.DECIMAL and node.expressions:
            _check_decimal_params(node, at)
        if node is type_:
            not_null = kind in _SERIAL_TYPES
            non_negative = kind in _UNSIGNED_TYPES

    def fix(node: exp.Expr) -> exp.Expr:
        # transform() works on a copy, so the nodes can be changed in place.
        if isinstance(node, exp.DataType):
            if node.this in _TYPE_REPLACEMENTS:
                keep_params = node.this == _T.UDECIMAL  # precision and scale still apply
                node.set("this", _TYPE_REPLACEMENTS[node.this])
                if not keep_params:
                    node.set("expressions", None)
            if node.this in _DROP_PARAMS:
                node.set("expressions", None)
        return node

    fixed = type_.transform(fix)
    assert isinstance(fixed, exp.DataType)
    return fixed, not_null, non_negative


def _check_decimal_params(node: exp.DataType, at: At) -> None:
    """A DECIMAL's precision and scale must be integers DuckDB accepts (1-38, 0-precision)."""
    params = node.expressions
    shown = node.sql()
    shown = shown if len(shown) <= 60 else shown[:50] + "...)"
    numbers: list[int] = []
    for param in params:
        value = param.this if isinstance(param, exp.DataTypeParam) else param
        text = value.this if isinstance(value, exp.Literal) and not value.is_string else None
        # Three digits are plenty; int() of thousands of digits would be refused, or slow.
        if not isinstance(text, str) or not text.isdigit() or len(text.lstrip("0")) > 3:
            numbers = []
            break
        numbers.append(int(text))
    if not numbers or len(params) > 2:
        raise at.error(
            "invalid_type",
            f"type {shown!r}: DECIMAL takes a precision and an optional scale, "
            "written as whole numbers (DECIMAL(10, 2))",
        )
    precision, scale = numbers[0], numbers[1] if len(numbers) > 1 else 0
    if precision > _MAX_DECIMAL_PRECISION:
        raise at.error(
            "unsupported_type",
            f"type {shown!r}: DuckDB decimals hold at most {_MAX_DECIMAL_PRECISION} digits",
        )
    if precision < 1 or scale > precision:
        raise at.error(
            "invalid_type",
            f"type {shown!r}: the precision must be from 1 to {_MAX_DECIMAL_PRECISION} "
            "and the scale from 0 to the precision",
        )


# --- What DuckDB accepts ------------------------------------------------------------------------

# sqlglot accepts more than DuckDB does (DECIMAL(x), VARCHAR('x'), a CHECK comparing an INT
# with a TIMESTAMP). Every check executes on DuckDB, so such a schema is refused when it is
# loaded, with DuckDB's own reason, rather than when the first query runs.
_scratch_lock = threading.Lock()
_scratch: dict[int, duckdb.DuckDBPyConnection] = {}  # by process id: a forked child opens its own


def _check_on_duckdb(draft: TableDraft, table: Table) -> None:
    """Raise ``invalid_type`` / ``invalid_check`` for what DuckDB cannot bind in ``table``."""
    for column in table.columns:
        refusal = _duckdb_refusal(f"SELECT CAST(NULL AS {column.type_sql})")
        if refusal is not None:
            raise draft.columns[column.name].at.error(
                "invalid_type",
                f"column {column.name!r} of table {table.name!r}: DuckDB does not accept "
                f"the type {column.type_sql!r}: {refusal}",
            )
    # The query the constraint re-check runs (database.constraints.sql_violations), over a
    # row of the table's column types.
    row = ", ".join(
        f"CAST(NULL AS {c.type_sql}) AS {quote_identifier(c.name)}" for c in table.columns
    )
    for check, (_, at) in zip(table.checks, draft.checks, strict=True):
        condition = check.sql("duckdb")
        refusal = _duckdb_refusal(
            f"SELECT count(*) FROM (SELECT {row}) AS {quote_identifier(table.name)} "
            f"WHERE NOT ({condition})"
        )
        if refusal is not None:
            raise at.error(
                "invalid_check",
                f"CHECK ({condition}) on table {table.name!r} cannot be evaluated by DuckDB: "
                f"{refusal}",
            )


@functools.lru_cache(maxsize=4096)
def _duckdb_refusal(query: str) -> str | None:
    """DuckDB's error binding ``query``, or None. ``DESCRIBE`` binds without executing."""
    with _scratch_lock:
        con = _scratch.get(os.getpid())
        if con is None:
            _scratch.clear()  # a parent's connection is not a child's to use
            con = duckdb.connect(":memory:", config={"enable_external_access": False, "threads": 1})
            _scratch[os.getpid()] = con
        try:
            con.execute(f"DESCRIBE {query}")
        except duckdb.Error as err:
            lines = str(err).strip().splitlines()
            return lines[0] if lines else type(err).__name__
    return None


# --- Reading statements ---------------------------------------------------------------------


def _statements(text: str, dialect: str) -> Iterator[tuple[exp.Expr, list[Token]]]:
    """Each statement of ``text`` with its tokens, so errors can point at a statement."""
    try:
        reader = Dialect.get_or_raise(dialect)
    except ValueError as err:
        raise SchemaError("unknown_dialect", f"unknown SQL dialect {dialect!r}") from err
    try:
        tokens = reader.tokenize(text)
    except TokenError as err:
        raise _token_error(err, text) from err
    except Exception as err:  # a sqlglot bug must still surface as a schema error
        raise SchemaError("parse_error", f"sqlglot failed to tokenize: {err}") from err
    # Split on ";" ourselves (sqlglot does the same) to keep each statement's tokens.
    chunks: list[list[Token]] = [[]]
    for token in tokens:
        if token.token_type == TokenType.SEMICOLON:
            chunks.append([])
        else:
            chunks[-1].append(token)
    for chunk in chunks:
        if chunk:
            for parsed in _parse_tokens(reader, chunk, text):
                if isinstance(parsed, exp.Command):
                    yield _reparse_fallback(parsed, chunk, reader, text, dialect), chunk
                else:
                    yield parsed, chunk


def _parse_tokens(reader: Dialect, tokens: list[Token], text: str) -> list[exp.Expr]:
    cost = parse_cost(tokens)
    if cost.too_costly:
        # A CHECK subquery or CREATE ... AS SELECT with a long row of ON-less joins: refused
        # unparsed, as sqlglot would take exponential time on it.
        raise _token_at(tokens[0]).error("too_complex", f"the statement has {cost.message()}")
    try:
        with _quiet_command_fallback():
            parsed = reader.parser().parse(tokens, text)
    except ParseError as err:
        first = err.errors[0] if err.errors else {}
        col, highlight = first.get("col"), first.get("highlight")
        if isinstance(col, int) and isinstance(highlight, str) and "\n" not in highlight:
            col = _first_col(col, 0, len(highlight) - 1)
        message = str(first.get("description") or err).splitlines()[0]
        # Some descriptions embed a Token's repr; its text is all a reader needs.
        message = re.sub(r"<Token token_type: [^,]+, text: (.*?), line: .*?>", r"'\1'", message)
        raise SchemaError("parse_error", message, line=first.get("line"), col=col) from err
    except SqlglotError as err:
        start = _token_at(tokens[0])
        raise start.error("parse_error", str(err).splitlines()[0]) from err
    except Exception as err:  # a sqlglot bug must still surface as a schema error
        start = _token_at(tokens[0])
        raise start.error("parse_error", f"sqlglot failed: {type(err).__name__}: {err}") from err
    return [statement for statement in parsed if statement is not None]


_FALLBACK_WARNING = "Falling back to parsing as a 'Command'"


@contextmanager
def _quiet_command_fallback() -> Iterator[None]:
    """Silence sqlglot's log line when it gives up on a statement: we report it ourselves."""

    def keep(record: logging.LogRecord) -> bool:
        return _FALLBACK_WARNING not in record.getMessage()

    logger = logging.getLogger("sqlglot")
    logger.addFilter(keep)
    try:
        yield
    finally:
        logger.removeFilter(keep)


def _token_error(err: TokenError, text: str) -> SchemaError:
    # The tokenizer's own message is "Missing ' from <line>:<offset>"; the offset (not a
    # column) is the most precise position sqlglot gives, so turn it into line and column.
    cause = str(err.__cause__ or err)
    match = re.search(r" from \d+:(\d+)$", cause)
    if match:
        offset = min(int(match.group(1)), len(text))
        line = text.count("\n", 0, offset) + 1
        col = offset - (text.rfind("\n", 0, offset) + 1) + 1
        message = f"cannot tokenize: {cause[: match.start()]}"
        return SchemaError("parse_error", message, line=line, col=col)
    return SchemaError("parse_error", f"cannot tokenize: {cause}")


# --- Applying statements --------------------------------------------------------------------

# Statements that never change which rows a table may hold.
_HARMLESS = (exp.Set, exp.Pragma, exp.Use, exp.Transaction, exp.Commit, exp.Comment)
_HARMLESS_CREATES = {"INDEX", "SCHEMA", "DATABASE", "SEQUENCE"}


def _apply_statement(
    statement: exp.Expr, tokens: list[Token], draft: SchemaDraft, dialect: str, text: str
) -> None:
    start = _token_at(tokens[0])
    types = _DeclaredTypes(tokens, text) if _is_sqlite(dialect) else None
    if dialect.lower() == "duckdb":
        _refuse_duckdb_collations(statement)
    if isinstance(statement, exp.Create):
        kind = str(statement.args.get("kind") or "").upper()
        if kind == "TABLE":
            _create_table(statement, draft, start, types)
        elif kind == "INDEX" and statement.args.get("unique"):
            _create_unique_index(statement, draft, start)
        elif kind not in _HARMLESS_CREATES:
            raise start.error(
                "unsupported_statement",
                f"CREATE {kind or '...'} does not declare a table; "
                "a schema holds only CREATE TABLE and the statements that amend it",
            )
    elif isinstance(statement, exp.Alter) and str(statement.args.get("kind")).upper() == "TABLE":
        _alter_table(statement, draft, start, types)
    elif isinstance(statement, exp.Drop) and str(statement.args.get("kind")).upper() == "TABLE":
        for table in statement.args.get("tables") or [statement.this]:
            if isinstance(table, exp.Table):
                draft.drop_table(table.name)
    elif not isinstance(statement, _HARMLESS):
        words = " ".join(t.text.upper() for t in tokens[:2])
        raise start.error(
            "unsupported_statement",
            f"{words} ... is not schema DDL; a schema holds only CREATE TABLE and the "
            "statements that amend it",
        )


_STATEMENT_STARTS = {
    TokenType.CREATE,
    TokenType.ALTER,
    TokenType.DROP,
    TokenType.INSERT,
    TokenType.UPDATE,
    TokenType.DELETE,
    TokenType.SELECT,
}


def _reparse_fallback(
    command: exp.Command, tokens: list[Token], reader: Dialect, text: str, dialect: str
) -> exp.Expr:
    """Retry a ``CREATE TABLE`` sqlglot gave up on without its trailing table options.

    sqlglot parses the column list but falls back to an opaque ``Command`` when options it
    does not know follow it (SQLite's ``WITHOUT ROWID``, ...). Those options only concern
    storage, so the statement up to the closing parenthesis says everything we need.
    """
    start = _token_at(tokens[0])
    first_paren = next((i for i, t in enumerate(tokens) if t.token_type == TokenType.L_PAREN), None)
    is_create_table = any(t.token_type == TokenType.TABLE for t in tokens[: first_paren or 0])
    if command.name.upper() != "CREATE" or first_paren is None or not is_create_table:
        words = " ".join(t.text.upper() for t in tokens[:2])
        raise start.error(
            "unsupported_statement",
            f"{words} ... is not schema DDL (or not a statement sqlglot can parse in "
            f"dialect {dialect!r})",
        )
    depth, end = 0, len(tokens) - 1
    for i in range(first_paren, len(tokens)):
        depth += {TokenType.L_PAREN: 1, TokenType.R_PAREN: -1}.get(tokens[i].token_type, 0)
        if depth == 0:
            end = i
            break
    trailing = tokens[end + 1 :]
    # A statement keyword after the column list is most likely a missing ";": reading on
    # would silently drop the next statement.
    if trailing and not any(t.token_type in _STATEMENT_STARTS for t in trailing):
        reparsed = _parse_tokens(reader, tokens[: end + 1], text)
        if len(reparsed) == 1 and isinstance(reparsed[0], exp.Create):
            return reparsed[0]
    where = _token_at(trailing[0]) if trailing else start
    raise where.error(
        "parse_error",
        f"sqlglot cannot parse this CREATE TABLE statement in dialect {dialect!r} "
        f"(is a ';' missing before {trailing[0].text!r}?)"
        if trailing
        else f"sqlglot cannot parse this CREATE TABLE statement in dialect {dialect!r}",
    )


def _create_table(
    create: exp.Create, draft: SchemaDraft, start: At, types: _DeclaredTypes | None
) -> None:
    body = create.this
    if (
        create.expression is not None
        or not isinstance(body, exp.Schema)
        or any(isinstance(e, exp.LikeProperty) for e in body.expressions)
    ):
        raise start.error(
            "unsupported_statement",
            "CREATE TABLE needs a column list (CREATE TABLE ... AS / LIKE / CLONE declare "
            "no types or constraints)",
        )
    table_node = body.this
    assert isinstance(table_node, exp.Table)
    table = draft.add_table(
        table_node.name,
        _at(table_node),
        replace=bool(create.args.get("replace")),
        if_not_exists=bool(create.args.get("exists")),
    )
    if table is None:
        return
    for element in body.expressions:
        if isinstance(element, exp.ColumnDef):
            _column_def(element, table, types)
        elif isinstance(element, (exp.Identifier, exp.Column)):  # SQLite's typeless "(a, b)"
            if types is not None:  # legal in SQLite: no type, so BLOB ("none") affinity
                table.add_column(element.name, sqlite_column_type(""), _at(element), declared="")
                continue
            raise _at(element).error(
                "missing_type",
                f"column {element.name.lower()!r} of table {table.name!r} has no type",
            )
        else:
            _table_constraint(element, table)


def _column_def(coldef: exp.ColumnDef, table: TableDraft, types: _DeclaredTypes | None) -> None:
    at = _at(coldef)
    name = coldef.name.lower()
    type_ = coldef.args.get("kind")
    if types is not None:
        declared = types.of(coldef)
        table.add_column(
            name,
            sqlite_column_type(declared),
            at,
            declared=declared,
            collation=_sqlite_collation(coldef, name, table, at),
        )
    elif not isinstance(type_, exp.DataType):
        raise at.error("missing_type", f"column {name!r} of table {table.name!r} has no type")
    else:
        table.add_column(name, type_, at)
    for constraint in coldef.args.get("constraints") or []:
        kind = constraint.args.get("kind") if isinstance(constraint, exp.ColumnConstraint) else None
        _column_constraint(kind, name, table, _locate(constraint, at))


def _sqlite_collation(coldef: exp.ColumnDef, name: str, table: TableDraft, at: At) -> str | None:
    """A SQLite column's NOCASE or RTRIM collation (None for BINARY): it changes what ``=``
    and ``GROUP BY`` mean on the column, so the SQLite executor creates the column with it."""
    for collation in _declared_collations(coldef):
        if collation in ("NOCASE", "RTRIM"):
            return collation
        if collation != "BINARY":
            raise at.error(
                "unsupported_constraint",
                f"column {name!r} of table {table.name!r} uses COLLATE {collation}, which "
                "is not one of SQLite's built-in collations",
            )
    return None


def _declared_collations(coldef: exp.ColumnDef) -> list[str]:
    """The collations a column definition declares, in order and upper case."""
    return [
        str(constraint.args["kind"].this.name).upper()
        for constraint in coldef.args.get("constraints") or []
        if isinstance(constraint, exp.ColumnConstraint)
        and isinstance(constraint.args.get("kind"), exp.CollateColumnConstraint)
    ]


#: DuckDB collations that compare as the default does, byte by byte.
_BINARY_COLLATIONS = frozenset({"BINARY", "C", "POSIX"})


def _refuse_duckdb_collations(statement: exp.Expr) -> None:
    """Refuse a DuckDB column declared with a collation (``COLLATE NOCASE``): it changes
    what ``=``, ``GROUP BY`` and a key mean on the column, and the engine's tables, the
    constraint checks and the prover all compare text byte by byte. Ignored, it let
    ``name = 'a'`` and ``name = 'A'`` be refuted on a database whose key repeats under
    the collation."""
    for coldef in statement.find_all(exp.ColumnDef):
        for collation in _declared_collations(coldef):
            if collation in _BINARY_COLLATIONS:
                continue
            raise _at(coldef).error(
                "unsupported_constraint",
                f"column {coldef.name.lower()!r} uses COLLATE {collation}, which "
                "changes what = and GROUP BY mean on it; sqlequiv compares DuckDB "
                "text byte by byte, so it cannot check this schema",
            )


# Column options that leave the set of allowed values unchanged.
_IGNORED_COLUMN_OPTIONS = (
    exp.AutoIncrementColumnConstraint,
    exp.CaseSpecificColumnConstraint,
    exp.CharacterSetColumnConstraint,
    exp.ClusteredColumnConstraint,
    exp.CollateColumnConstraint,
    exp.CommentColumnConstraint,
    exp.CompressColumnConstraint,
    exp.DateFormatColumnConstraint,
    exp.DefaultColumnConstraint,
    exp.EncodeColumnConstraint,
    exp.IndexColumnConstraint,
    exp.InlineLengthColumnConstraint,
    exp.InvisibleColumnConstraint,
    exp.MaskingPolicyColumnConstraint,
    exp.NonClusteredColumnConstraint,
    exp.NotForReplicationColumnConstraint,
    exp.OnUpdateColumnConstraint,
    exp.ProjectionPolicyColumnConstraint,
    exp.Tags,
    exp.TitleColumnConstraint,
)


def _column_constraint(kind: object, column: str, table: TableDraft, at: At) -> None:
    if isinstance(kind, exp.NotNullColumnConstraint):
        table.set_nullable(column, bool(kind.args.get("allow_null")), at)
    elif isinstance(kind, exp.PrimaryKeyColumnConstraint):
        table.set_primary_key([column], at)
    elif isinstance(kind, exp.UniqueColumnConstraint):
        _check_nulls_distinct(kind, at)
        table.add_unique([column], at)
    elif isinstance(kind, exp.Reference):
        ref_table, ref_columns = _reference(kind, at)
        table.add_foreign_key([column], ref_table, ref_columns, at)
    elif isinstance(kind, exp.CheckColumnConstraint):
        table.add_check(_condition(kind, at), at)
    elif isinstance(kind, exp.GeneratedAsIdentityColumnConstraint) and kind.expression is None:
        pass  # an identity column takes arbitrary (sequence) values: nothing to enforce
    elif not isinstance(kind, _IGNORED_COLUMN_OPTIONS):
        what = kind.sql() if isinstance(kind, exp.Expr) else "?"
        raise at.error(
            "unsupported_constraint",
            f"column {column!r} of table {table.name!r}: {what!r} restricts the column's "
            "values in a way sqlequiv cannot model",
        )


def _table_constraint(element: exp.Expr, table: TableDraft) -> None:
    at = _at(element)
    if isinstance(element, exp.Constraint):  # CONSTRAINT name <constraint> ...
        for inner in element.expressions:
            _table_constraint(inner, table)
    elif isinstance(element, exp.PrimaryKey):
        table.set_primary_key(_names(element.expressions, at, "PRIMARY KEY"), at)
    elif isinstance(element, exp.UniqueColumnConstraint):
        _check_nulls_distinct(element, at)
        columns = element.this.expressions if isinstance(element.this, exp.Schema) else []
        table.add_unique(_names(columns, at, "UNIQUE"), at)
    elif isinstance(element, exp.ForeignKey):
        reference = element.args.get("reference")
        if not isinstance(reference, exp.Reference):
            raise at.error("parse_error", "FOREIGN KEY without REFERENCES")
        ref_table, ref_columns = _reference(reference, at)
        table.add_foreign_key(
            _names(element.expressions, at, "FOREIGN KEY"), ref_table, ref_columns, at
        )
    elif isinstance(element, exp.CheckColumnConstraint):
        table.add_check(_condition(element, at), at)
    elif isinstance(element, exp.IndexColumnConstraint):
        pass  # MySQL's inline KEY / INDEX / FULLTEXT: an access path, not a constraint
    else:
        raise at.error(
            "unsupported_constraint",
            f"table {table.name!r}: {element.sql()!r} is not a constraint sqlequiv can model",
        )


def _check_nulls_distinct(unique: exp.UniqueColumnConstraint, at: At) -> None:
    if unique.args.get("nulls"):
        raise at.error(
            "unsupported_constraint",
            "UNIQUE NULLS NOT DISTINCT is not supported (keys treat NULLs as distinct)",
        )


def _names(nodes: Sequence[object], at: At, what: str) -> list[str]:
    """Plain column names of a key; an expression or a collation in a key is refused."""
    names = []
    for item in nodes:
        node = item.this if isinstance(item, exp.Ordered) else item
        if isinstance(node, exp.Identifier) or (isinstance(node, exp.Column) and not node.table):
            names.append(node.name.lower())
        else:
            shown = node.sql() if isinstance(node, exp.Expr) else repr(node)
            raise at.error(
                "unsupported_constraint",
                f"{what} on {shown!r}: only plain column names are supported in a key",
            )
    return names


def _reference(reference: exp.Reference, at: At) -> tuple[str, list[str] | None]:
    target = reference.this
    if isinstance(target, exp.Schema):
        table = target.this
        columns: list[str] | None = _names(target.expressions, at, "REFERENCES")
    else:
        table, columns = target, None
    if not isinstance(table, exp.Table):
        raise at.error("parse_error", f"REFERENCES without a table: {reference.sql()!r}")
    return table.name.lower(), columns


def _condition(check: exp.CheckColumnConstraint, at: At) -> exp.Expression:
    condition = check.this
    if not isinstance(condition, exp.Expression):
        raise at.error("parse_error", "CHECK without a condition")
    return condition


def _create_unique_index(create: exp.Create, draft: SchemaDraft, start: At) -> None:
    index = create.this
    params = index.args.get("params") if isinstance(index, exp.Index) else None
    target = index.args.get("table") if isinstance(index, exp.Index) else None
    if not isinstance(target, exp.Table) or not isinstance(params, exp.IndexParameters):
        raise start.error("unsupported_statement", f"cannot read index {create.sql()!r}")
    at = _at(target)
    if params.args.get("where") is not None:
        raise at.error(
            "unsupported_constraint",
            "a partial unique index (CREATE UNIQUE INDEX ... WHERE) cannot be modelled",
        )
    columns = _names(params.args.get("columns") or [], at, "UNIQUE INDEX")
    draft.existing(target.name, at).add_unique(columns, at)


def _alter_table(
    alter: exp.Alter, draft: SchemaDraft, start: At, types: _DeclaredTypes | None
) -> None:
    target = alter.this
    assert isinstance(target, exp.Table)
    table = draft.existing(target.name, _at(target))
    for action in alter.args.get("actions") or []:
        if isinstance(action, exp.AddConstraint):
            for constraint in action.expressions:
                _table_constraint(constraint, table)
        elif isinstance(action, exp.ColumnDef):
            _column_def(action, table, types)
        elif (
            isinstance(action, exp.AlterColumn)
            and action.args.get("allow_null") is not None
            and action.args.get("dtype") is None
        ):
            at = _at(action)
            column = table.column(action.name, at, "ALTER COLUMN")
            column.nullable = bool(action.args["allow_null"])
        else:
            raise start.error(
                "unsupported_statement",
                f"ALTER TABLE {table.name}: only ADD [CONSTRAINT], ADD COLUMN and "
                f"ALTER COLUMN ... SET/DROP NOT NULL are supported, not {action.sql()!r}",
            )


# Words that end a SQLite type name: the column constraints that may follow it.
_CONSTRAINT_WORDS = {
    "AS", "CHECK", "COLLATE", "CONSTRAINT", "DEFAULT", "GENERATED", "NOT", "NULL", "PRIMARY",
    "REFERENCES", "UNIQUE",
}  # fmt: skip


@dataclass(frozen=True)
class _DeclaredTypes:
    """The type text of each SQLite column definition, as written in the statement.

    sqlglot reads a type into a node (``number`` becomes ``DECIMAL``) but SQLite keeps the
    text, and the text is what decides the affinity. SQLite's type name is one or more
    names with optional parameters (``unsigned big int``, ``VARCHAR ( 255 )``), ending
    where a constraint starts; ``PRAGMA table_info`` reports it with its spacing.
    """

    tokens: list[Token]
    text: str

    def of(self, coldef: exp.ColumnDef) -> str:
        """The declared type of ``coldef`` ("" for none)."""
        start = coldef.this.meta.get("start") if isinstance(coldef.this, exp.Expr) else None
        index = next((i for i, t in enumerate(self.tokens) if t.start == start), None)
        if index is None:  # no position known: SQLite's spelling of sqlglot's reading
            kind = coldef.args.get("kind")
            return kind.sql("sqlite") if isinstance(kind, exp.DataType) else ""
        first = last = None
        depth = 0
        for i in range(index + 1, len(self.tokens)):
            token = self.tokens[i]
            kind_ = token.token_type
            if depth:
                depth += {TokenType.L_PAREN: 1, TokenType.R_PAREN: -1}.get(kind_, 0)
                last = i
                if not depth:
                    break  # the parameters end the type name
                continue
            if kind_ in (TokenType.COMMA, TokenType.R_PAREN):
                break
            if kind_ == TokenType.L_PAREN:
                if first is None:
                    break
                depth, last = 1, i
                continue
            # (sqlglot reads some phrases as one token: "PRIMARY KEY" starts with PRIMARY.)
            words = token.text.upper().split()
            if kind_ not in (TokenType.IDENTIFIER, TokenType.STRING) and (
                words and words[0] in _CONSTRAINT_WORDS
            ):
                break
            first = i if first is None else first
            last = i
        if first is None or last is None:
            return ""
        if first == last and self.tokens[first].token_type == TokenType.IDENTIFIER:
            declared = self.tokens[first].text  # SQLite strips the quotes of a quoted name
        else:
            declared = self.text[self.tokens[first].start : self.tokens[last].end + 1]
        return sqlite_declared(declared)
