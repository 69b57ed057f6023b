"""The schema model: tables, typed columns and the declared constraints.

Names are stored lower-case (DuckDB and most dialects fold unquoted names), so
look-ups are case-insensitive. Types are sqlglot ``DataType`` nodes; CHECK
constraints are sqlglot expressions over the table's bare column names.

A column read from SQLite also keeps its *declared* type, the text written in
``CREATE TABLE`` (``VARCHAR(255)``, ``number``, ``int(11)``, or nothing). To
SQLite that text only selects a type affinity (:func:`sqlite_affinity`), and
the DuckDB type the rest of the pipeline reasons with is derived from it
(:func:`sqlite_column_type`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal

from sqlglot import exp

#: SQLite's five type affinities (https://www.sqlite.org/datatype3.html, section 3).
Affinity = Literal["INTEGER", "TEXT", "BLOB", "REAL", "NUMERIC"]


@dataclass(frozen=True)
class Column:
    """One typed column.

    Example:
        >>> from sqlglot import exp
        >>> Column("id", exp.DataType.build("INT"), nullable=False).type_sql
        'INT'
    """

    name: str
    type: exp.DataType
    nullable: bool = True
    #: The type as declared in SQLite DDL ("" for a column declared without one);
    #: None for a column that does not come from SQLite.
    declared: str | None = None
    #: SQLite's collation of the column ("NOCASE" or "RTRIM"; None for the default
    #: BINARY): ``=``, ``<``, ``GROUP BY`` and ``DISTINCT`` on the column use it.
    collation: str | None = None

    @cached_property
    def type_sql(self) -> str:
        """The column type as DuckDB spells it (cached: generating SQL is not free)."""
        return self.type.sql("duckdb")

    @cached_property
    def affinity(self) -> Affinity:
        """SQLite's affinity for this column: from ``declared`` when there is one, else
        from ``type`` as SQLite spells it (a DuckDB ``DECIMAL`` is SQLite's ``REAL``).

        Example:
            >>> Column("n", exp.DataType.build("DOUBLE"), declared="number").affinity
            'NUMERIC'
            >>> Column("n", exp.DataType.build("VARCHAR")).affinity
            'TEXT'
        """
        if self.declared is not None:
            return sqlite_affinity(self.declared)
        return sqlite_affinity(self.type.sql("sqlite"))


@dataclass(frozen=True)
class ForeignKey:
    """``columns`` of the owning table reference ``ref_columns`` of ``ref_table``."""

    columns: tuple[str, ...]
    ref_table: str
    ref_columns: tuple[str, ...]


@dataclass(frozen=True)
class Table:
    """A table with its constraints. ``unique`` holds every UNIQUE key except the primary key."""

    name: str
    columns: tuple[Column, ...]
    primary_key: tuple[str, ...] = ()
    unique: tuple[tuple[str, ...], ...] = ()
    foreign_keys: tuple[ForeignKey, ...] = ()
    checks: tuple[exp.Expression, ...] = field(default=(), compare=False)
    #: The name as the DDL spelled it (``PERSON`` for ``CREATE TABLE PERSON``), when it
    #: differs from ``name``: MySQL with ``lower_case_table_names=0`` (its default on
    #: Linux) compares table names case-sensitively against this spelling.
    spelled: str | None = field(default=None, compare=False)

    @property
    def written_name(self) -> str:
        """The name as declared: ``spelled`` if the DDL gave one, else ``name``."""
        return self.spelled or self.name

    def column(self, name: str) -> Column:
        for col in self.columns:
            if col.name == name.lower():
                return col
        raise KeyError(name)

    @property
    def column_names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.columns)

    @property
    def keys(self) -> tuple[tuple[str, ...], ...]:
        """Every declared key: the primary key first, then the UNIQUE keys."""
        return ((self.primary_key,) if self.primary_key else ()) + self.unique

    @property
    def distinct_keys(self) -> tuple[tuple[str, ...], ...]:
        """The keys no two rows share a value of: the primary key (NOT NULL by
        definition) and each UNIQUE key whose columns are all NOT NULL (UNIQUE lets NULLs
        repeat)."""
        nullable = {c.name for c in self.columns if c.nullable}
        kept = tuple(key for key in self.unique if not nullable & set(key))
        return ((self.primary_key,) if self.primary_key else ()) + kept

    def keyed_by(self, columns: Iterable[str | None]) -> bool:
        """Whether ``columns`` hold every column of one of :attr:`distinct_keys`: no two
        rows agree on all of them."""
        held = set(columns)
        return any(set(key) <= held for key in self.distinct_keys)

    def ddl(self, *, constraints: bool = True) -> str:
        """A DuckDB ``CREATE TABLE`` statement for this table.

        Without ``constraints`` only names, types and nothing else are emitted:
        the counterexample search checks constraints itself, so its scratch tables
        need none (and accept rows in any insertion order).
        """
        parts = []
        for col in self.columns:
            line = f"{quote_identifier(col.name)} {col.type_sql}"
            if constraints and not col.nullable:
                line += " NOT NULL"
            parts.append(line)
        if constraints:
            if self.primary_key:
                parts.append(f"PRIMARY KEY ({', '.join(map(quote_identifier, self.primary_key))})")
            for key in self.unique:
                parts.append(f"UNIQUE ({', '.join(map(quote_identifier, key))})")
            for fk in self.foreign_keys:
                columns = ", ".join(map(quote_identifier, fk.columns))
                parents = ", ".join(map(quote_identifier, fk.ref_columns))
                parts.append(
                    f"FOREIGN KEY ({columns}) REFERENCES "
                    f"{quote_identifier(fk.ref_table)} ({parents})"
                )
            for check in self.checks:
                parts.append(f"CHECK ({check.sql('duckdb')})")
        return f"CREATE TABLE {quote_identifier(self.name)} ({', '.join(parts)})"


@dataclass(frozen=True)
class Schema:
    """A set of tables.

    Example:
        >>> from sqlglot import exp
        >>> t = Table("t", (Column("a", exp.DataType.build("INT")),))
        >>> Schema((t,)).mapping()
        {'t': {'a': 'INT'}}
    """

    tables: tuple[Table, ...]
    #: What a loader changed or left out on the way in (a foreign key to a table that
    #: does not exist, a view, ...), one sentence each, for the user to see. They do not
    #: change what the schema means, so two schemas compare equal whatever they say.
    warnings: tuple[str, ...] = field(default=(), compare=False)

    def __iter__(self) -> Iterator[Table]:
        return iter(self.tables)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and any(t.name == name.lower() for t in self.tables)

    def table(self, name: str) -> Table:
        for table in self.tables:
            if table.name == name.lower():
                return table
        raise KeyError(name)

    @property
    def table_names(self) -> tuple[str, ...]:
        return tuple(t.name for t in self.tables)

    def closure(self, names: set[str]) -> Schema:
        """The tables in ``names`` and every table they reference, transitively.

        A fixture needs rows only in the tables a query reads and in the
        parents their foreign keys point at; the other tables can stay empty
        without breaking any constraint.

        Example:
            >>> from sqlglot import exp
            >>> a = Table("a", (Column("id", exp.DataType.build("INT"), False),), ("id",))
            >>> b = Table("b", (Column("a_id", exp.DataType.build("INT")),),
            ...           foreign_keys=(ForeignKey(("a_id",), "a", ("id",)),))
            >>> Schema((a, b)).closure({"b"}).table_names
            ('a', 'b')
        """
        keep: set[str] = set()
        todo = [n.lower() for n in names if n.lower() in self]
        while todo:
            name = todo.pop()
            if name in keep:
                continue
            keep.add(name)
            todo.extend(fk.ref_table for fk in self.table(name).foreign_keys)
        return Schema(tuple(t for t in self.tables if t.name in keep))

    def mapping(self) -> dict[str, dict[str, str]]:
        """The ``{table: {column: type}}`` mapping sqlglot's optimizer takes."""
        return {t.name: {c.name: c.type_sql for c in t.columns} for t in self.tables}

    def ddl(self, *, constraints: bool = True) -> str:
        """DuckDB DDL for every table, parents before children."""
        return ";\n".join(t.ddl(constraints=constraints) for t in self.topological()) + ";"

    def topological(self) -> list[Table]:
        """Tables ordered so that every referenced table comes before its referrers.

        Cycles (and self-references) are broken by keeping declaration order.
        """
        order: list[Table] = []
        state: dict[str, int] = {}

        def visit(table: Table) -> None:
            if state.get(table.name) is not None:
                return
            state[table.name] = 0
            for fk in table.foreign_keys:
                if fk.ref_table != table.name and fk.ref_table in self:
                    visit(self.table(fk.ref_table))
            state[table.name] = 1
            order.append(table)

        for table in self.tables:
            visit(table)
        return order


def quote_identifier(name: str) -> str:
    """``name`` as a quoted SQL identifier.

    Example:
        >>> print(quote_identifier("order"))
        "order"
    """
    return '"' + name.replace('"', '""') + '"'


def sqlite_affinity(declared: str) -> Affinity:
    """The affinity SQLite gives a column declared with type ``declared``.

    SQLite's rules, applied in order to the upper-cased text (section 3.1 of
    https://www.sqlite.org/datatype3.html): ``INT`` anywhere gives INTEGER; else
    ``CHAR``, ``CLOB`` or ``TEXT`` gives TEXT; else ``BLOB`` or no type at all gives
    BLOB (SQLite also calls it "none"); else ``REAL``, ``FLOA`` or ``DOUB`` gives
    REAL; anything else is NUMERIC.

    Example:
        >>> [sqlite_affinity(t) for t in ("int(11)", "VARCHAR(255)", "", "float", "number")]
        ['INTEGER', 'TEXT', 'BLOB', 'REAL', 'NUMERIC']
        >>> sqlite_affinity("FLOATING POINT")  # "INT" comes first: SQLite says INTEGER too
        'INTEGER'
    """
    text = declared.upper()
    if "INT" in text:
        return "INTEGER"
    if "CHAR" in text or "CLOB" in text or "TEXT" in text:
        return "TEXT"
    if "BLOB" in text or not text.strip():
        return "BLOB"
    if "REAL" in text or "FLOA" in text or "DOUB" in text:
        return "REAL"
    return "NUMERIC"


_STANDARD_TYPES = {"ANY", "BLOB", "INT", "INTEGER", "REAL", "TEXT"}


def sqlite_declared(text: str) -> str:
    """``text`` as SQLite (3.37 and later) records a declared type: the names STRICT tables
    know are upper-cased, the rest is kept as written. Whatever the SQLite library at hand,
    the same column then reads the same.

    Example:
        >>> sqlite_declared("int"), sqlite_declared("int(11)"), sqlite_declared("number")
        ('INT', 'int(11)', 'number')
    """
    return text.upper() if text.upper() in _STANDARD_TYPES else text


_FIRST_WORD = re.compile(r"\s*([A-Za-z_]+)")
_DECIMAL_PARAMS = re.compile(r"^\s*[A-Za-z_]+\s*\(\s*(\d{1,3})\s*(?:,\s*(\d{1,3})\s*)?\)\s*$")
_PRECISION = re.compile(r"\s*(?:\(\s*\d+\s*\))?\s*$")
_NUMERIC_NAMES = {"DECIMAL", "NUMERIC", "NUMBER", "DEC"}
# Declared names whose values are dates, times or truth values (all NUMERIC affinity).
_NUMERIC_TYPES = {
    "DATE": "DATE",
    "DATETIME": "TIMESTAMP",
    "TIMESTAMP": "TIMESTAMP",
    "TIME": "TIME",
    "BOOL": "BOOLEAN",
    "BOOLEAN": "BOOLEAN",
}
_MAX_DECIMAL_PRECISION = 38  # DuckDB's


def sqlite_column_type(declared: str) -> exp.DataType:
    """The DuckDB type the pipeline reasons with for a SQLite column declared ``declared``.

    SQLite stores any value in any column; the declared type only selects an affinity,
    which converts values on the way in. The type chosen here is what the counterexample search
    generates and what the normalizer annotates with, so it follows the affinity:

    * INTEGER (``int(11)``, ``BIGINT UNSIGNED``, ...): ``BIGINT``, as SQLite integers are
      64-bit whatever the declared width (``TINYINT`` holds 1000; ``UNSIGNED`` holds -1);
    * REAL: ``DOUBLE``;
    * TEXT (``VARCHAR(255)``, ...): ``TEXT``, without a length (SQLite enforces none);
    * BLOB or no type: ``TEXT``, since such a column stores values as given and text is
      what generated values (and Spider's data) are;
    * NUMERIC: ``DATE`` for ``DATE``, ``TIMESTAMP`` for ``DATETIME``/``TIMESTAMP``,
      ``TIME`` for ``TIME``, ``BOOLEAN`` for ``BOOL``/``BOOLEAN`` (stored as 0/1);
      ``DECIMAL(p, s)`` for ``DECIMAL``/``NUMERIC``/``NUMBER`` written with a precision
      DuckDB accepts (1 to 38); otherwise ``DOUBLE``. A bare ``NUMERIC`` or ``number``
      column holds integers and reals alike (an integral value is stored as an integer),
      which ``DOUBLE`` generates and ``DECIMAL(18, 3)``, DuckDB's reading of it, would
      round.

    Generating from a narrower domain than the column accepts only ever builds databases
    the real schema allows too, which is what a counterexample needs.

    Example:
        >>> [sqlite_column_type(t).sql("duckdb")
        ...  for t in ("int(11)", "varchar(20)", "", "real", "number", "decimal(10,2)", "datetime")]
        ['BIGINT', 'TEXT', 'TEXT', 'DOUBLE', 'DOUBLE', 'DECIMAL(10, 2)', 'TIMESTAMP']
    """
    affinity = sqlite_affinity(declared)
    if affinity == "INTEGER":
        return exp.DataType.build("BIGINT")
    if affinity == "REAL":
        return exp.DataType.build("DOUBLE")
    if affinity in ("TEXT", "BLOB"):
        return exp.DataType.build("TEXT")
    first = _FIRST_WORD.match(declared)
    word = first.group(1).upper() if first else ""
    if word in _NUMERIC_TYPES and first is not None and _PRECISION.match(declared, first.end()):
        return exp.DataType.build(_NUMERIC_TYPES[word])  # DATETIME(6) is a timestamp too
    params = _DECIMAL_PARAMS.match(declared)
    if word in _NUMERIC_NAMES and params is not None:
        precision, scale = int(params.group(1)), int(params.group(2) or 0)
        if 1 <= precision <= _MAX_DECIMAL_PRECISION and scale <= precision:
            return exp.DataType.build(f"DECIMAL({precision}, {scale})")
    return exp.DataType.build("DOUBLE")
