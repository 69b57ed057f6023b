"""How realistic a counterexample is, measured against the facts of the user's data.

Three tiers, best first, recorded as ``counterexample.realism``:

* ``on_data``: the two queries already differ on the user's own database (what
  execution accuracy sees); the counterexample is the smallest set of the data's own
  rows that still shows the difference;
* ``realistic``: a small database that satisfies every declared constraint and every
  fact mined from the data (:mod:`~sqlequiv.data.mining`);
* ``edge``: it satisfies the declared schema only; ``counterexample.breaks`` says, in
  words, each fact of the data it needs broken ("needs two leagues named 'a'; league.name
  is unique over 11 rows").

:func:`augmented` is the declared schema with the facts a search can honour as
constraints (NOT NULL, UNIQUE, a foreign key between columns of one kind, a category
as a CHECK), for the search of a realistic counterexample. A database of it satisfies
the declared schema too: it only ever adds constraints.
"""

from __future__ import annotations

import dataclasses
import decimal
from collections import Counter
from collections.abc import Collection, Sequence

from sqlglot import exp

from sqlequiv.data.mining import Fact
from sqlequiv.data.source import Snapshot
from sqlequiv.database import Database
from sqlequiv.schema.model import ForeignKey, Schema, Table
from sqlequiv.search.domains import Domains
from sqlequiv.values import kind_of

__all__ = ["EDGE", "ON_DATA", "REALISTIC", "augmented", "broken_facts", "data_domains"]

#: Distinct values of a column the realistic search draws from the data.
DATA_VALUES = 12

ON_DATA, REALISTIC, EDGE = "on_data", "realistic", "edge"


def broken_facts(
    db: Database, facts: Sequence[Fact], schema: Schema, read: Collection[str]
) -> list[str]:
    """Each fact ``db`` needs broken, in words (empty: the database is realistic).

    Only facts of the tables that matter count: those the queries ``read`` and those
    ``db`` fills (a parent a foreign key needs); a table neither reads nor fills may be
    left empty whatever the data holds."""
    filled = db.filled
    out = []
    for fact in facts:
        if fact.table not in read and (fact.kind == "non_empty" or fact.table not in filled):
            continue
        broken = fact.broken_by(db, schema)
        if broken is not None:
            out.append(broken)
    return out


def augmented(schema: Schema, facts: Sequence[Fact]) -> Schema:
    """``schema`` with the facts a search can honour added as constraints."""
    tables = []
    for table in schema:
        mine = [f for f in facts if f.table == table.name]
        tables.append(_constrained(table, mine, schema))
    return Schema(tuple(tables), warnings=schema.warnings)


def _constrained(table: Table, facts: Sequence[Fact], schema: Schema) -> Table:
    not_null = {f.column for f in facts if f.kind == "not_null"}
    unique = tuple(
        (f.column,) for f in facts if f.kind == "unique" and f.column is not None
    )
    columns = tuple(
        dataclasses.replace(c, nullable=False) if c.name in not_null else c for c in table.columns
    )
    foreign_keys = list(table.foreign_keys)
    for fact in facts:
        if fact.kind != "references" or fact.column is None:
            continue
        ref_table, ref_column = fact.detail
        mine = kind_of(table.column(fact.column).type)
        theirs = kind_of(schema.table(ref_table).column(ref_column).type)
        referenced = schema.table(ref_table)
        if mine == theirs and (ref_column,) in referenced.keys:
            # A foreign key must point at a declared key; an undeclared unique target
            # stays a fact only (a realistic counterexample is still checked against it).
            foreign_keys.append(ForeignKey((fact.column,), ref_table, (ref_column,)))
    checks = list(table.checks)
    for fact in facts:
        if fact.column is None:
            continue
        if fact.kind == "values":
            checks.append(exp.In(
                this=exp.column(fact.column), expressions=[_literal(v) for v in fact.detail]
            ))  # fmt: skip
        elif fact.kind == "range" and all(_numeric(v) for v in fact.detail):
            low, high = fact.detail
            checks.append(exp.Between(
                this=exp.column(fact.column), low=_literal(low), high=_literal(high)
            ))  # fmt: skip
    return dataclasses.replace(
        table,
        columns=columns,
        unique=tuple(dict.fromkeys((*table.unique, *unique))),
        foreign_keys=tuple(foreign_keys),
        checks=tuple(checks),
    )


def data_domains(domains: Domains, snapshot: Snapshot, schema: Schema) -> Domains:
    """``domains`` with each column's pool made of the data's own values of that column
    (its most frequent first), then the queries' constants and their neighbours: what
    the test-suite evaluator draws from, so that a realistic counterexample looks like
    the data ('Premier', 1987) and not like a default ('a', 0). A column the data leaves
    empty keeps its pool."""
    columns = dict(domains.columns)
    for (table, column), domain in domains.columns.items():
        rows = snapshot.rows.get(table, ())
        if not rows:
            continue
        at = schema.table(table).column_names.index(column)
        counted = Counter(r[at] for r in rows if r[at] is not None)
        seen = [v for v, _ in counted.most_common(DATA_VALUES)]
        if not seen:
            continue
        values = tuple(dict.fromkeys([*seen, *domain.interesting]))
        columns[(table, column)] = dataclasses.replace(domain, values=values)
    return dataclasses.replace(domains, columns=columns)


def _numeric(value: object) -> bool:
    return isinstance(value, int | float | decimal.Decimal) and not isinstance(value, bool)


def _literal(value: object) -> exp.Expression:
    if isinstance(value, bool):
        return exp.Boolean(this=value)
    if isinstance(value, int | float | decimal.Decimal):
        return exp.Literal.number(str(value))
    return exp.Literal.string(str(value))
