"""Witness databases: rows on which the two WHERE conditions disagree.

The candidate's and the reference's top-level blocks get symbolic source rows
(a reference source shares the row of a candidate source of the same table
where there is one). A model of ``kept_c XOR kept_r`` is a tuple of rows that
one query keeps and the other drops: the timestamp one microsecond past a
bound, the NULL that empties NOT IN. Each model becomes a small database —
the rows, the columns the predicates do not mention filled from the fixture
value pools, parents added for foreign keys — and is offered to the fixture
search as a seed. Witnesses are only hints: the search probes them and the
pipeline verifies anything it reports, so a witness that turns out not to
separate the queries costs one probe.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import z3
from sqlglot import exp

from sqlequiv.database import Database, Row
from sqlequiv.database.constraints import python_violations
from sqlequiv.deadline import Deadline
from sqlequiv.schema.model import ForeignKey, Schema, Table
from sqlequiv.search.domains import Domains
from sqlequiv.symbolic.effort import Units, slow
from sqlequiv.symbolic.prove.blocks import Block, NotABlock, Query, SetOp, read_query
from sqlequiv.symbolic.prove.prover import Prover
from sqlequiv.symbolic.prove.scope import Scope
from sqlequiv.symbolic.terms import Unsupported, model_value
from sqlequiv.symbolic.terms.formulas import bool_and, bool_not, bool_or

__all__ = ["witness_databases"]

#: Models asked for per pair of blocks, and pairs of blocks tried: counts, not the
#: clock, bound the work, so the same pair always gets the same witnesses.
MODELS_PER_PAIR = 4
MAX_PAIRS = 8
#: z3's resource units all of a pair's floating-point and nonlinear witness goals share
#: (see :mod:`~sqlequiv.symbolic.effort`): enough for a goal that is plain once
#: simplified. None has given a witness on the peer or floor benchmarks or the corpus;
#: with the former 15,625 units, or 3,900, such goals took 0.1-0.5 s of each unknown
#: that had one (z3 spends them bit-blasting), with 1,000 they take 10-30 ms.
SLOW_WITNESS_UNITS = 1_000
#: z3's resource units for all the witnesses of one pair of queries: work, not the
#: wall clock, ends the search for them (its time budget is the safety net).
WITNESS_RLIMIT = 4_000_000


def witness_databases(
    candidate: exp.Expr,
    reference: exp.Expr,
    schema: Schema,
    domains: Domains,
    *,
    time_budget: float = 2.0,
    solver_timeout_ms: int = 1000,
) -> list[Database]:
    """Databases on which the two queries' filters disagree (possibly none).

    ``candidate`` and ``reference`` are canonical query trees.
    """
    deadline = Deadline.after(time_budget)
    prover = Prover(schema, solver_timeout_ms=solver_timeout_ms, time_budget=time_budget)
    units = _Budgets(Units(WITNESS_RLIMIT), Units(SLOW_WITNESS_UNITS))
    out: list[Database] = []
    seen: set[Any] = set()
    try:
        left, right = read_query(candidate), read_query(reference)
    except (NotABlock, Unsupported):
        return []
    for a, b in itertools.islice(_block_pairs(left, right), MAX_PAIRS):
        if deadline.expired():
            break  # a safety net only
        try:
            for db in _pair_witnesses(
                a, b, schema, domains, prover, solver_timeout_ms, deadline, units
            ):
                key = db.key()
                if key not in seen and not python_violations(db, schema):
                    seen.add(key)
                    out.append(db)
        except (Unsupported, NotABlock, KeyError):
            continue
    return out


@dataclass(frozen=True)
class _Budgets:
    """The units all the witnesses of a pair share, and the part of them that
    floating-point and nonlinear goals share."""

    total: Units
    slow: Units


def _block_pairs(left: Query, right: Query) -> Iterator[tuple[Block, Block]]:
    """Every pair of blocks that may be compared row for row (branches of set operations)."""
    lefts = _blocks_of(left)
    rights = _blocks_of(right)
    for a in lefts:
        for b in rights:
            yield a, b


def _blocks_of(query: Query) -> list[Block]:
    if isinstance(query, Block):
        return [query]
    assert isinstance(query, SetOp)
    return [b for branch in query.branches for b in _blocks_of(branch)]


def _greedy_mapping(left: Block, right: Block) -> dict[str, str]:
    """Reference alias -> candidate alias, pairing sources of the same table in order."""
    free = [s for s in left.all_sources if s.table is not None]
    mapping: dict[str, str] = {}
    for source in right.all_sources:
        for i, other in enumerate(free):
            if other.table == source.table:
                mapping[source.alias] = other.alias
                del free[i]
                break
    return mapping


def _pair_witnesses(
    left: Block,
    right: Block,
    schema: Schema,
    domains: Domains,
    prover: Prover,
    timeout_ms: int,
    deadline: Deadline,
    units: _Budgets,
) -> Iterator[Database]:
    scope = Scope(
        schema,
        prover.solver,
        {"c": left, "r": right},
        mapping=_greedy_mapping(left, right),
        ascii_text=True,  # witnesses become fixture rows: keep their text printable
    )
    kept_l = scope.predicate("c", left.where)
    kept_r = scope.predicate("r", right.where)
    for goal in (
        bool_and(kept_l.true, bool_not(kept_r.true)),
        bool_and(kept_r.true, bool_not(kept_l.true)),
    ):
        solver = z3.Solver()
        constraints = scope.constraints()
        per_call = prover.solver_rlimit // 4
        is_slow = slow([*constraints, goal])
        if is_slow:
            per_call = SLOW_WITNESS_UNITS
        solver.add(*constraints)
        solver.add(goal)
        for _ in range(MODELS_PER_PAIR):
            # Each call within what is left of the units (and of the clock, the safety
            # net); floating-point goals share SLOW_WITNESS_UNITS.
            if deadline.expired():
                break
            solver.set("timeout", deadline.left_ms(cap=timeout_ms))
            shared = (units.slow,) if is_slow else ()
            if units.total.check(solver, per_call, *shared) != z3.sat:
                break  # unsat, unknown, or no units left
            model = solver.model()
            yield _database(scope, model, schema, domains)
            # Ask for a different row next time: change at least one mentioned value.
            solver.add(bool_or(*(_differs(model, v) for v in scope.row_values().values())))


def _differs(model: z3.ModelRef, value: Any) -> z3.BoolRef:
    null = model.eval(value.null, model_completion=True)
    if z3.is_true(null):
        return bool_not(value.null)
    current = model.eval(value.value, model_completion=True)
    return bool_or(value.null, value.value != current)


def _database(scope: Scope, model: z3.ModelRef, schema: Schema, domains: Domains) -> Database:
    rows: dict[str, list[dict[str, Any]]] = {}
    for sid, (table_name, columns) in scope.source_rows().items():
        pad = scope.pads.get(sid)
        if pad is not None and z3.is_true(model.eval(pad, model_completion=True)):
            continue  # the NULL padding of a LEFT JOIN, not a row
        values = {name: model_value(model, value) for name, value in columns.items()}
        rows.setdefault(table_name, []).append(values)
    tables: dict[str, list[Row]] = {}
    for name, partial_rows in rows.items():
        table = schema.table(name)
        tables[name] = [_complete(table, partial, domains) for partial in partial_rows]
    _add_parents(tables, schema, domains)
    return Database({name: tuple(dict.fromkeys(rs)) for name, rs in tables.items()})


def _complete(table: Table, partial: dict[str, Any], domains: Domains) -> Row:
    """A full row: the model's values, and a pool value for every other column."""
    return tuple(
        partial[c.name] if c.name in partial else _filler(table, c.name, c.nullable, domains)
        for c in table.columns
    )


def _filler(table: Table, column: str, nullable: bool, domains: Domains) -> Any:
    # NULL satisfies every CHECK and no foreign key needs a parent for it.
    if nullable:
        return None
    try:
        pool = domains.of(table.name, column).values
    except KeyError:
        pool = ()
    for value in pool:
        if value is not None:
            return value
    raise Unsupported(f"no value for {table.name}.{column}")


def _add_parents(tables: dict[str, list[Row]], schema: Schema, domains: Domains) -> None:
    """Add a parent row for every foreign key value that has none (parents first)."""
    # Each round visits the foreign keys in schema order and adds one level of parents,
    # so a chain of n tables takes n rounds. What keeps that cheap (a chain of 500
    # tables took 90 s): the lookups are made once; a round visits only the foreign keys
    # whose child table gained rows, and each looks only at the rows it has not seen
    # (older rows have their parents, and parents are never taken away).
    by_name = {t.name: t for t in schema.tables}
    links: list[tuple[Table, ForeignKey, Table, list[int], list[int]]] = []
    of_child: dict[str, list[int]] = {}
    for table in schema.tables:
        for fk in table.foreign_keys:
            parent = by_name.get(fk.ref_table.lower()) or schema.table(fk.ref_table)
            positions = [table.column_names.index(c) for c in fk.columns]
            ref_positions = [parent.column_names.index(c) for c in fk.ref_columns]
            of_child.setdefault(table.name, []).append(len(links))
            links.append((table, fk, parent, positions, ref_positions))
    seen = [0] * len(links)  # child rows each foreign key has looked at
    due = [i for i, link in enumerate(links) if tables.get(link[0].name)]
    for _ in range(len(schema.tables)):
        if not due:
            return
        heapq.heapify(due)
        queued, later = set(due), set()
        while due:
            i = heapq.heappop(due)
            table, fk, parent, positions, ref_positions = links[i]
            rows = tables[table.name]
            have = {tuple(r[p] for p in ref_positions) for r in tables.get(parent.name, [])}
            grew = False
            # (A self-reference appends to the list being read: those rows are read too.)
            while seen[i] < len(rows):
                row = rows[seen[i]]
                seen[i] += 1
                key = tuple(row[p] for p in positions)
                if any(v is None for v in key) or key in have:
                    continue
                given = dict(zip(fk.ref_columns, key, strict=True))
                tables.setdefault(parent.name, []).append(_complete(parent, given, domains))
                have.add(key)
                grew = True
            if grew:  # the parent's own foreign keys: later this round, or the next one
                for j in of_child.get(parent.name, ()):
                    if j > i and j not in queued:
                        heapq.heappush(due, j)
                        queued.add(j)
                    elif j < i:
                        later.add(j)
        due = sorted(later)
