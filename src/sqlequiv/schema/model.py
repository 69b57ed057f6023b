"""The schema model: tables, typed columns and the declared constraints.

Names are stored lower-case (DuckDB and most dialects fold unquoted names), so
look-ups are case-insensitive. Types are sqlglot ``DataType`` nodes; CHECK
constraints are sqlglot expressions over the table's bare column names.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property

from sqlglot import exp


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

    @cached_property
    def type_sql(self) -> str:
        """The column type as DuckDB spells it (cached: generating SQL is not free)."""
        return self.type.sql("duckdb")


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

    def ddl(self, *, constraints: bool = True) -> str:
        """A DuckDB ``CREATE TABLE`` statement for this table.

        Without ``constraints`` only names, types and nothing else are emitted:
        the fixture search checks constraints itself, so its scratch tables
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
