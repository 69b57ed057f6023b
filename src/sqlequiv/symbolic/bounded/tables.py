"""Symbolic base tables: k rows of fresh values per table, constrained like the schema.

Both queries read the *same* symbolic tables, so one model is one database.
The declared constraints become formulas over the rows that exist:

* NOT NULL: the column's value is created non-nullable;
* PRIMARY KEY / UNIQUE: two present rows never agree on a key whose values
  are all non-NULL (SQL's UNIQUE lets NULLs repeat; a primary key is also
  NOT NULL, so for it the proviso is moot);
* FOREIGN KEY: a present child row whose key columns are all non-NULL has a
  present parent row with equal values (MATCH SIMPLE, the SQL default);
* CHECK: the condition is not FALSE on any present row (UNKNOWN passes).

Symmetry breaking ``exists_i -> exists_{i-1}`` makes the present rows a
prefix, so one solve at k rows covers every table size from 0 to k.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import z3
from sqlglot import exp

from sqlequiv.database import Database
from sqlequiv.schema.model import Schema, Table
from sqlequiv.symbolic.bounded.relations import Relation, Row, rows_same
from sqlequiv.symbolic.terms import SymValue, Translator, Unsupported, model_value, variable
from sqlequiv.symbolic.terms.formulas import FALSE, conj, disj, neg

__all__ = ["SymbolicDatabase", "build_database"]


@dataclass
class SymbolicDatabase:
    """The symbolic rows of every table that gets rows, and the constraints on them."""

    schema: Schema
    tables: dict[str, Relation]
    constraints: list[z3.BoolRef] = field(default_factory=list)
    #: CHECK constraints the translator could not express; a model must be re-checked.
    dropped_checks: list[str] = field(default_factory=list)

    def relation(self, name: str) -> Relation:
        """The rows of ``name``; a table outside the encoded set has none."""
        found = self.tables.get(name.lower())
        if found is not None:
            return found
        table = self.schema.table(name)
        return Relation(table.column_names, ())

    def to_database(self, model: z3.ModelRef) -> Database:
        """The concrete database of a model: present rows only, in schema column order."""
        tables: dict[str, tuple[tuple[Any, ...], ...]] = {}
        for table in self.schema:
            rel = self.tables.get(table.name)
            rows: list[tuple[Any, ...]] = []
            for row in rel.rows if rel is not None else ():
                if z3.is_true(model.eval(row.exists, model_completion=True)):
                    rows.append(tuple(model_value(model, v) for v in row.values))
            tables[table.name] = tuple(rows)
        return Database(tables)


def build_database(schema: Schema, sizes: Mapping[str, int]) -> SymbolicDatabase:
    """Fresh rows for each table in ``sizes`` (``sizes[t]`` rows), with every declared constraint.

    Tables not in ``sizes`` stay empty; a foreign key into such a table then
    forces the child's key to be NULL (or the child row to be absent), which is
    exactly what an empty parent table allows.

    Raises:
        Unsupported: a column type the term layer cannot represent.
    """
    db = SymbolicDatabase(schema, {})
    for table in schema:
        size = sizes.get(table.name, 0)
        if size <= 0:
            continue
        rows = []
        previous: z3.BoolRef | None = None
        for i in range(size):
            exists = z3.Bool(f"{table.name}#{i}")
            values = []
            for col in table.columns:
                name = f"{table.name}#{i}.{col.name}"
                value, domain = variable(name, col.type, nullable=col.nullable)
                if not col.nullable:
                    # The constant FALSE (not a flag constrained to be false) lets every
                    # formula over this column fold its NULL cases away.
                    value = replace(value, null=FALSE)
                values.append(value)
                db.constraints.extend(domain)
            if previous is not None:
                db.constraints.append(disj([neg(exists), previous]))
            previous = exists
            rows.append(Row(exists, tuple(values)))
        db.tables[table.name] = Relation(table.column_names, tuple(rows))
    for table in schema:
        if table.name in db.tables:
            _keys(db, table)
            _foreign_keys(db, table)
            _checks(db, table)
    return db


def _keys(db: SymbolicDatabase, table: Table) -> None:
    rel = db.tables[table.name]
    for key in table.keys:
        idx = [table.column_names.index(c) for c in key]
        for i, a in enumerate(rel.rows):
            for b in rel.rows[:i]:
                ka = [a.values[k] for k in idx]
                kb = [b.values[k] for k in idx]
                not_null = conj([neg(v.null) for v in ka + kb])
                # Both present and all key values non-NULL -> some key value differs.
                clash = conj([a.exists, b.exists, not_null, rows_same(ka, kb)])
                db.constraints.append(neg(clash))


def _foreign_keys(db: SymbolicDatabase, table: Table) -> None:
    rel = db.tables[table.name]
    for fk in table.foreign_keys:
        idx = [table.column_names.index(c) for c in fk.columns]
        parent_table = db.schema.table(fk.ref_table)
        pidx = [parent_table.column_names.index(c) for c in fk.ref_columns]
        parent = db.relation(fk.ref_table)
        for row in rel.rows:
            key = [row.values[k] for k in idx]
            applies = conj([row.exists, *(neg(v.null) for v in key)])
            found = disj(
                [conj([p.exists, rows_same([p.values[k] for k in pidx], key)]) for p in parent.rows]
            )
            db.constraints.append(disj([neg(applies), found]))


def _checks(db: SymbolicDatabase, table: Table) -> None:
    rel = db.tables[table.name]
    for check in table.checks:
        try:
            formulas = []
            for row in rel.rows:
                translator = Translator(_row_resolver(table, row.values))
                verdict = translator.predicate(check)
                formulas.append(disj([neg(row.exists), neg(verdict.false)]))
        except Unsupported:
            # Dropping a CHECK only widens the set of databases: an UNSAT answer
            # still holds for the constrained ones; a model is re-checked later.
            db.dropped_checks.append(check.sql("duckdb"))
            continue
        db.constraints.extend(formulas)


def _row_resolver(table: Table, values: tuple[SymValue, ...]) -> Any:
    names = table.column_names

    def resolve(column: exp.Column) -> SymValue:
        name = column.name.lower()
        if name not in names:
            raise Unsupported(f"CHECK of {table.name} names unknown column {column.name}")
        return values[names.index(name)]

    return resolve
